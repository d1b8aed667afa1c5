//! sifra-auth-backend (Python, azure-data-tables, Azure Functions): user accounts.
//! Source: https://github.com/Sanket-HP/sifra-auth-backend/blob/0f08b9d483ba3b3916d3235aef4943adbfdbdc9c/utils/db.py
//!
//! create_user: `{"PartitionKey": "User", "RowKey": str(uuid.uuid4()), "full_name", "email",
//! "role", "hashed_password"}`; user_exists(email) (sign-up check): a filter on the email
//! property inside the single partition.

use table_runtime::{Query, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Users", partition_key = "User", row_key = "{id}")]
struct User {
    id: Uuid,
    full_name: String,
    email: String,
    role: String,
    hashed_password: String,
}

/// user_exists(email).
fn user_exists(email: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'User' and email eq '{}'", email)).unwrap()
}

//! auth_azuretablestorage (Python, FastAPI, azure-data-tables): user accounts of an
//! authentication service with TOTP multi-factor authentication. Source:
//! https://github.com/jurriaancap/auth_azuretablestorage/blob/8a261b50dcbc1266a7bb4ad06f0abe4fa6a0fcb8/auth/db_helpers.py
//! and, at the same commit, main.py and auth/config.py.
//!
//! `set_entity(table_name, row_key, **fields)` builds `TableEntity(PartitionKey=table_name,
//! RowKey=row_key, ...)`: every user is in the partition named like the table (`Users` by
//! default), keyed by the lower-cased e-mail. register_user checks `entity_exists` (get_entity)
//! and then `insert_entity`, an `upsert_entity`; MFA changes and password changes read the user,
//! set fields and `upsert_entity` again; login, MFA status and token checks are get_entity;
//! delete_user is delete_entity.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Users", partition_key = "Users", row_key = "{email}")]
struct User {
    /// Lower-cased.
    #[table(max_len = 254)]
    email: String,
    /// bcrypt hash, base64.
    password_hash: String,
    /// The TOTP secret, AES-GCM encrypted with a key derived from the password; absent without MFA.
    totp_secret: Option<String>,
}

/// get_entity(partition_key=table_name, row_key=email): login, MFA, password change, delete.
fn user(email: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'Users' and RowKey eq '{}'", email)).unwrap()
}

/// insert_entity / update_entity (both upsert_entity) and delete_entity.
async fn write<B: Backend>(users: &Table<'_, B, User>, row: &User, key: &<User as TableEntity>::Key) {
    let _ = users.upsert(row).await;
    let _ = users.delete(key, IfMatch::Any).await;
}

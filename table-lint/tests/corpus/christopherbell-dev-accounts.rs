//! christopherbell.dev (Java, Spring Boot, azure-data-tables): the accounts of a personal
//! website. Sources (commit 52bad7184558bc9e2e37dcdf61fe39e802d6fb66 of
//! https://github.com/chrisb504/christopherbell.dev):
//! src/main/java/dev/christopherbell/account/AccountService.java,
//! account/model/entity/AccountEntity.java, account/TableEntityUtils.java,
//! account/AccountController.java and configuration/AzureTableStorageConfig.java.
//!
//! One table (AZURE_STORAGE_TABLE_NAME) holds only accounts. PartitionKey is the constant
//! `ACCOUNT`; RowKey is a random UUID given at sign-up (the account id). The row keeps the
//! e-mail address lower-cased, names, user name, role, approval state, the password hash and
//! salt, and creation and last-login instants.
//!
//! Sign-up first looks for the address with `email eq '<address>'` (no PartitionKey) and
//! inserts the row (createEntity) if nothing came back. Log-in and the get-by-email endpoint
//! run the same `email eq` filter. The get-by-id and delete endpoints read the row by
//! getEntity(`ACCOUNT`, id); delete then deletes it. The list endpoint reads
//! `PartitionKey eq 'ACCOUNT'`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "accounts", partition_key = "ACCOUNT", row_key = "{id}")]
struct Account {
    /// `UUID.randomUUID().toString()` at sign-up.
    id: Uuid,
    /// Lower-cased when written; unique only by the sign-up check.
    email: String,
    #[table(rename = "firstName")]
    first_name: String,
    #[table(rename = "lastName")]
    last_name: String,
    username: String,
    /// `ADMIN`, `MOD` or `USER`.
    role: String,
    #[table(rename = "isApproved")]
    is_approved: bool,
    #[table(rename = "approvedBy")]
    approved_by: Option<Uuid>,
    #[table(rename = "createdOn")]
    created_on: OffsetDateTime,
    #[table(rename = "lastLoginOn")]
    last_login_on: Option<OffsetDateTime>,
    #[table(rename = "inviteCode")]
    invite_code: Option<Uuid>,
    #[table(rename = "inviteCodeOwner")]
    invite_code_owner: Option<Uuid>,
    #[table(rename = "loginToken")]
    login_token: Option<String>,
    #[table(rename = "passwordHash")]
    password_hash: String,
    #[table(rename = "passwordSalt")]
    password_salt: String,
}

/// createAccount (the duplicate check), getAccountByEmail and loginAccount: the address is
/// looked up with no key condition.
fn by_email(email: &str) -> Query {
    Query::filter(&format!("email eq '{}'", email)).unwrap()
}

/// getAccounts: the one partition.
fn all_accounts() -> Query {
    Query::filter("PartitionKey eq 'ACCOUNT'").unwrap()
}

/// getAccountById and deleteAccount: getEntity(`ACCOUNT`, id).
fn by_id(id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'ACCOUNT' and RowKey eq '{}'", id)).unwrap()
}

/// createAccount: createEntity after the e-mail check found nothing.
async fn sign_up<B: Backend>(accounts: &Table<'_, B, Account>, account: &Account) {
    let _ = accounts.insert(account).await;
}

/// deleteAccount: deleteEntity(PartitionKey, RowKey) of the row just read.
async fn remove<B: Backend>(accounts: &Table<'_, B, Account>, key: &<Account as TableEntity>::Key) {
    let _ = accounts.delete(key, IfMatch::Any).await;
}

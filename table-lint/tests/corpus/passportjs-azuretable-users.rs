//! passportjs-AzureTableStorge (JavaScript, the legacy `azure-storage` SDK): an Express sample
//! whose Passport local strategy keeps its user accounts in Azure Table storage. Sources (commit
//! 67e4ef9e8c94a8c2aa48efea361ccfd76da38fde of https://github.com/rocketcoder/passportjs-AzureTableStorge):
//! https://github.com/rocketcoder/passportjs-AzureTableStorge/blob/67e4ef9e8c94a8c2aa48efea361ccfd76da38fde/userStorage.js
//! with passport/login.js, passport/signup.js and passport/init.js.
//!
//! Table `CloudUser`: toUserEntity puts the user name in the PartitionKey and the text `true`
//! (the account's `enabled` flag, which toUser reads back from the RowKey) in the RowKey; the
//! row holds the bcrypt hash of the password and the tenant. findOne, called by the login
//! strategy and by deserializeUser on each request of a signed-in session, is retrieveEntity of
//! (user name, `true`); a 404 is "no such user". createUser looks the name up first and then
//! calls insertEntity, so a second sign-up of a taken name fails at the service with a conflict.
//! save calls updateEntity (a replace, ETag `*` since the object carries none). No code lists,
//! filters or deletes users.

use table_runtime::{Backend, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "CloudUser", partition_key = "{user_name}", row_key = "true")]
struct CloudUser {
    /// The name typed at sign-up, as typed.
    #[table(max_len = 256)]
    user_name: String,
    /// `bCrypt.hashSync(password)`: 60 characters.
    password: String,
    tenant: String,
}

/// findOne (login, deserializeUser, the sign-up check): retrieveEntity of the one row.
async fn find_one<B: Backend>(users: &Table<'_, B, CloudUser>, key: &<CloudUser as TableEntity>::Key) {
    let _ = users.get(key).await;
}

/// createUser: insertEntity, which fails on a name already taken.
async fn create_user<B: Backend>(users: &Table<'_, B, CloudUser>, user: &CloudUser) {
    let _ = users.insert(user).await;
}

/// save: updateEntity without an ETag.
async fn save<B: Backend>(users: &Table<'_, B, CloudUser>, user: &CloudUser) {
    let _ = users.replace(user, IfMatch::Any).await;
}

//! Azure-Session-Auth-API (TypeScript, Express, @azure/data-tables against Azurite): a sample API
//! with username/password login that records the express session id as the user's token, and a
//! users table that logged-in callers can list. Sources (commit
//! 6cfd6732244cce0b82fda93d71950b273dbfb100 of https://github.com/YodaheaD/Azure-Session-Auth-API):
//! https://github.com/YodaheaD/Azure-Session-Auth-API/blob/6cfd6732244cce0b82fda93d71950b273dbfb100/src/db/mytablelike.ts
//! with src/db/auth.ts, src/db/users.ts, src/auth/index.ts, src/table/index.ts and
//! src/cache/index.ts.
//!
//! Table `auth`: one row per account, PartitionKey `PKey-<username>`, RowKey `RKey-<username>`,
//! properties username, password (plain text) and token (`Default-<uuid>` at registration, then
//! the session id at login, `LoggedOut` at logout). Table `users`: PartitionKey `PKey-<id>`,
//! RowKey `RKey-<id>` from the posted `data.id` number, properties name and id.
//! /auth/register: checkUserExists (getEntity) then createEntity. /auth/login: checkUserPassword,
//! which lists the whole auth table to look for the username and then getEntity's the row to
//! compare the password, then provideToken (getEntity) and updateToken (checkUserPassword again,
//! updateEntity of the token, getEntity). /auth/logout: updateEntity of the token.
//! /table/Get: provideTokenNoAuth (getEntity) then myGetDataUsers, the whole users table.
//! /table/Post: createEntity; /table/Delete: deleteEntity. /cache/testUsers lists users,
//! /cache/testAuth lists the auth table.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "auth", partition_key = "PKey-{username}", row_key = "RKey-{username}")]
#[table(rename_all = "camelCase")]
struct AuthEntity {
    /// From the request body, unchecked.
    #[table(max_len = 64)]
    username: String,
    password: String,
    token: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "users", partition_key = "PKey-{id:unpadded}", row_key = "RKey-{id:unpadded}")]
#[table(rename_all = "camelCase")]
struct UserEntity {
    name: String,
    /// `data.id` from the posted body, written into the keys as `"PKey-" + data.id`.
    id: u32,
}

/// checkUserPassword, myGetDataAuth, myGetDataUsers: `listEntities()`, no filter.
fn whole_table() -> Query {
    Query::all()
}

/// checkUserExists, GetSingleData, provideToken, provideTokenNoAuth: `getEntity(pk, rk)`.
fn account(username: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'PKey-{}' and RowKey eq 'RKey-{}'",
        username, username
    ))
    .unwrap()
}

/// The login path: the scan, then the point read it could have been.
async fn login<B: Backend>(accounts: &Table<'_, B, AuthEntity>, username: &str) {
    let _ = accounts.query_page(&whole_table(), None).await;
    let _ = accounts.query_page(&account(username), None).await;
}

/// register (createEntity), updateToken / updateTokenNoAuth (updateEntity: Merge, ETag `*`),
/// the users routes (createEntity, deleteEntity).
async fn writes<B: Backend>(
    accounts: &Table<'_, B, AuthEntity>,
    users: &Table<'_, B, UserEntity>,
    new_account: &AuthEntity,
    token_update: &AuthEntity,
    user: &UserEntity,
    user_key: &<UserEntity as TableEntity>::Key,
) {
    let _ = accounts.insert(new_account).await;
    let _ = accounts.merge(token_update, IfMatch::Any).await;
    let _ = users.insert(user).await;
    let _ = users.delete(user_key, IfMatch::Any).await;
}

/// myGetDataUsers: the users table listed whole, as myGetDataAuth lists the auth table.
async fn list_users<B: Backend>(users: &Table<'_, B, UserEntity>) {
    let _ = users.query_page(&whole_table(), None).await;
}

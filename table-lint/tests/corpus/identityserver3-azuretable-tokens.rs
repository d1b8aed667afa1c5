//! IdentityServer3.Contrib.Store.AzureTableStorage (C#, WindowsAzure.Storage): the refresh-token
//! and authorization-code stores of this IdentityServer3 persistence library. Sources (commit
//! 66617a4419bb19d8b888e3720c1f3ce0a2b66cd2 of
//! https://github.com/kylesonaty/IdentityServer3.Contrib.Store.AzureTableStorage):
//! https://github.com/kylesonaty/IdentityServer3.Contrib.Store.AzureTableStorage/blob/66617a4419bb19d8b888e3720c1f3ce0a2b66cd2/src/IdentityServer3.Contrib.Store.AzureTableStorage/AzureTableStorageRefreshTokenStore.cs,
//! AzureTableStorageAuthorizationCodeStore.cs, TokenTableEntity.cs, BaseTokenStore.cs and
//! StringExtensions.cs in the same folder.
//!
//! Both stores use one entity shape in their own table (`RefreshTokens`, `AuthorizationCodes`):
//! PartitionKey = the first three characters of the handle (`key.Substring(0, 3)`), RowKey = the
//! handle (IdentityServer3 issues random hex handles), with the token as JSON, SubjectId and
//! ClientId. StoreAsync is InsertOrReplace; GetAsync is Retrieve(prefix, handle); RemoveAsync
//! deletes (prefix, handle) with ETag `*`. GetAllAsync(subject), which IdentityServer3 calls for a
//! user's permissions page, queries `SubjectId eq '<subject>'` and pages through the result;
//! RevokeAsync(subject, client) queries `(SubjectId eq '<subject>') and (ClientId eq '<client>')`
//! and deletes every row found, each with its own request.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "RefreshTokens", partition_key = "{handle_prefix}", row_key = "{handle}")]
#[table(rename_all = "PascalCase")]
struct RefreshTokenEntity {
    /// `key.Substring(0, 3)`: three hex digits of the random handle.
    #[table(max_len = 3)]
    handle_prefix: String,
    /// The token handle, a random hex string.
    #[table(max_len = 64)]
    handle: String,
    /// The RefreshToken, serialized.
    json: String,
    subject_id: String,
    client_id: String,
}

#[derive(TableEntity)]
#[table(name = "AuthorizationCodes", partition_key = "{handle_prefix}", row_key = "{handle}")]
#[table(rename_all = "PascalCase")]
struct AuthorizationCodeEntity {
    #[table(max_len = 3)]
    handle_prefix: String,
    #[table(max_len = 64)]
    handle: String,
    json: String,
    subject_id: String,
    client_id: String,
}

/// GetAllAsync(subject) on the refresh tokens: the user's grants.
async fn refresh_tokens_of<B: Backend>(tokens: &Table<'_, B, RefreshTokenEntity>, subject: &str) {
    let q = Query::filter(&format!("SubjectId eq '{}'", subject)).unwrap();
    let _ = tokens.query_page(&q, None).await;
}

/// RevokeAsync(subject, client) on the refresh tokens: found by the two properties, deleted one
/// request each.
async fn revoke_refresh_tokens<B: Backend>(tokens: &Table<'_, B, RefreshTokenEntity>, subject: &str, client: &str) {
    let q = Query::filter(&format!(
        "(SubjectId eq '{}') and (ClientId eq '{}')",
        subject, client
    ))
    .unwrap();
    let page = tokens.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = tokens.delete(&row.key(), IfMatch::Any).await;
    }
}

/// GetAllAsync(subject) on the authorization codes.
async fn codes_of<B: Backend>(codes: &Table<'_, B, AuthorizationCodeEntity>, subject: &str) {
    let q = Query::filter(&format!("SubjectId eq '{}'", subject)).unwrap();
    let _ = codes.query_page(&q, None).await;
}

/// RevokeAsync(subject, client) on the authorization codes.
async fn revoke_codes<B: Backend>(codes: &Table<'_, B, AuthorizationCodeEntity>, subject: &str, client: &str) {
    let q = Query::filter(&format!(
        "(SubjectId eq '{}') and (ClientId eq '{}')",
        subject, client
    ))
    .unwrap();
    let page = codes.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = codes.delete(&row.key(), IfMatch::Any).await;
    }
}

/// StoreAsync (InsertOrReplace), GetAsync (Retrieve) and RemoveAsync (Delete, `*`), the same on
/// both stores.
async fn handle_ops<B: Backend>(
    tokens: &Table<'_, B, RefreshTokenEntity>,
    row: &RefreshTokenEntity,
    key: &<RefreshTokenEntity as TableEntity>::Key,
) {
    let _ = tokens.upsert(row).await;
    let _ = tokens.get(key).await;
    let _ = tokens.delete(key, IfMatch::Any).await;
}

async fn code_ops<B: Backend>(
    codes: &Table<'_, B, AuthorizationCodeEntity>,
    row: &AuthorizationCodeEntity,
    key: &<AuthorizationCodeEntity as TableEntity>::Key,
) {
    let _ = codes.upsert(row).await;
    let _ = codes.get(key).await;
    let _ = codes.delete(key, IfMatch::Any).await;
}

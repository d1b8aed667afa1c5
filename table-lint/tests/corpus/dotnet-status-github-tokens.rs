//! DotNet.Status.Web, the .NET engineering status site (C#, WindowsAzure.Storage): the personal
//! API tokens it issues to signed-in GitHub users. Source:
//! https://github.com/dotnet/arcade-services/blob/b3636c5e8c592a4f82aee33c90c3517be44acc55/src/DotNet.Status.Web/AzureTableTokenStore.cs
//!
//! TokenEntity: PartitionKey = the GitHub user id (`long.ToString()`), RowKey = the token id, a
//! random 64-bit integer (`BitConverter.ToInt64` of 8 random bytes, so negative about half the
//! time) written with `ToString()`; properties Issued, Expiration, Description and
//! RevocationString. IssueTokenAsync inserts (TableOperation.Insert) and, on a 409, draws a new
//! id and tries again. Every request that authenticates with a token checks it with
//! IsTokenRevokedAsync, a point read (Retrieve(userId, tokenId)). The user's token page lists
//! `PartitionKey eq '<userId>'`. Revocation reads the row and replaces it with the ETag it read,
//! re-reading and retrying on a 412.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "githubtokens", partition_key = "{user_id:unpadded}", row_key = "{token_id:unpadded}")]
#[table(rename_all = "PascalCase")]
struct TokenEntity {
    /// The GitHub user id.
    user_id: i64,
    /// `BitConverter.ToInt64(random bytes)`: any 64-bit value, the sign included.
    token_id: i64,
    issued: OffsetDateTime,
    expiration: OffsetDateTime,
    description: String,
    /// `Active` or `Revoked`.
    revocation_string: String,
}

/// GetTokenAsync, through IsTokenRevokedAsync on each token-authenticated request.
async fn token<B: Backend>(tokens: &Table<'_, B, TokenEntity>, key: &<TokenEntity as TableEntity>::Key) {
    let _ = tokens.get(key).await;
}

/// GetTokensForUserAsync: the user's tokens page.
async fn tokens_of_user<B: Backend>(tokens: &Table<'_, B, TokenEntity>, user_id: i64) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user_id)).unwrap();
    let _ = tokens.query_page(&q, None).await;
}

/// IssueTokenAsync (Insert, a new random id on 409) and RevokeTokenAsync (Replace with the
/// ETag just read, retried on 412).
async fn issue_and_revoke<B: Backend>(tokens: &Table<'_, B, TokenEntity>, row: &TokenEntity, etag: table_runtime::ETag) {
    let _ = tokens.insert(row).await;
    let _ = tokens.replace(row, IfMatch::ETag(etag)).await;
}

//! AzureAuth2 (C#, ASP.NET Core minimal API and an Azure Functions timer, Azure.Data.Tables): a
//! session service for a microservice web app that keeps each signed-in user's JWT claims in a
//! table under a refresh token held in an http-only cookie, and hands out short-lived JWTs.
//! Sources (commit 0c488403c6d676a63d1e9186d160bc798726c6f1 of https://github.com/Skymt/AzureAuth2,
//! the last one with the clean-up function; a later commit removed it):
//! https://github.com/Skymt/AzureAuth2/blob/0c488403c6d676a63d1e9186d160bc798726c6f1/AzureAuth2.SessionCleaner/ClaimsTableRepository.cs,
//! with AzureAuth2.SessionCleaner/ClaimsTableCleanerFunction.cs,
//! AzureAuth2.SessionService/ClaimsTableRepository.cs, AzureAuth2.SessionService/AuthenticationHandler.cs
//! and AzureAuth2.SessionService/Program.cs.
//!
//! One table, `Claims`. Every row has PartitionKey = the constant `Claims` and RowKey = a new
//! GUID, which is the refresh token put in the user's cookie (valid seven days). The only
//! property, Claims, is the user's claims written with Claim.WriteTo and base64-encoded.
//!
//! The `PATCH /login` endpoint serves both the first sign-in (claims from an authorizer's JWT)
//! and every refresh, which the browser client makes about every 14.5 minutes while the page is
//! open: without a valid JWT it reads the claims by the cookie's token (GetEntityIfExists on
//! (`Claims`, token)); it then deletes the row of the cookie's old token (DeleteEntity, no ETag),
//! upserts a new row under a fresh GUID and sets the cookie to it. `PATCH /logout` deletes the
//! cookie's row. The clean-up function runs daily (00:30, and at start-up): it reads the whole
//! table with no filter and deletes, one request each, every row whose system Timestamp is more
//! than a day old.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Claims", partition_key = "Claims", row_key = "{token}")]
#[table(rename_all = "PascalCase")]
struct ClaimsEntity {
    /// The refresh token, `Guid.NewGuid()` for every sign-in and refresh.
    token: Uuid,
    /// The claims, binary-serialized and base64-encoded.
    claims: String,
}

/// GetClaimsFromStorage: the claims of the cookie's refresh token, a point read.
async fn claims_of<B: Backend>(
    table: &Table<'_, B, ClaimsEntity>,
    token: &<ClaimsEntity as TableEntity>::Key,
) -> Option<ClaimsEntity> {
    table.get(token).await.ok().flatten()
}

/// StoreClaims (every sign-in and refresh): the old token's row deleted, the claims upserted
/// under a new token.
async fn rotate<B: Backend>(
    table: &Table<'_, B, ClaimsEntity>,
    old_token: &<ClaimsEntity as TableEntity>::Key,
    fresh: &ClaimsEntity,
) {
    let _ = table.delete(old_token, IfMatch::Any).await;
    let _ = table.upsert(fresh).await;
}

/// DropClaims (logout, or a refresh that found nothing): the cookie's row deleted.
async fn drop_claims<B: Backend>(
    table: &Table<'_, B, ClaimsEntity>,
    token: &<ClaimsEntity as TableEntity>::Key,
) {
    let _ = table.delete(token, IfMatch::Any).await;
}

/// DropExpired (daily): the whole table read, and every row whose Timestamp is over a day old
/// deleted with its own request (the age is tested in memory).
async fn drop_expired<B: Backend>(backend: &B) {
    let page = backend.query_page(ClaimsEntity::TABLE, &Query::all()).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                ClaimsEntity::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}

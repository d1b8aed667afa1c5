//! IO, the Italian public services app (TypeScript, azure-storage): the email validation tokens.
//! Source:
//! https://github.com/pagopa/io-functions-app/blob/6fd048ab75a2d5ae1c48f56da550f683b91cc0fa/CreateValidationTokenActivity/handler.ts
//! and the reader, ValidateProfileEmail/handler.ts of
//! https://github.com/pagopa/io-functions-public at 1d5a268d4fc5057e31a74dde16f1f953b690018d.
//!
//! CreateValidationTokenActivity generates a ULID as the token id and 12 random bytes as the
//! validator, and inserts `{ PartitionKey: tokenId, RowKey: sha256(validator), Email,
//! FiscalCode, InvalidAfter }` into `ValidationTokens`. The email carries `tokenId:validator`;
//! ValidateProfileEmail splits it, hashes the validator and retrieves the entity by both keys,
//! then checks InvalidAfter in code.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "ValidationTokens", partition_key = "{token_id}", row_key = "{validator_hash}")]
#[table(rename_all = "PascalCase")]
struct ValidationToken {
    /// A ULID: 26 Crockford base32 characters, time first.
    #[table(max_len = 26)]
    token_id: String,
    /// SHA-256 of the validator, 64 hex digits.
    #[table(max_len = 64)]
    validator_hash: String,
    email: String,
    fiscal_code: String,
    invalid_after: OffsetDateTime,
}

/// ValidateProfileEmail: retrieveTableEntity(tokenId, sha256(validator)).
fn token(token_id: &str, validator_hash: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", token_id, validator_hash)).unwrap()
}

/// CreateValidationTokenActivity: insertTableEntity.
async fn create<B: Backend>(tokens: &Table<'_, B, ValidationToken>, token: &ValidationToken) {
    let _ = tokens.insert(token).await;
}

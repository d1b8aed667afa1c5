//! IO, the Italian public services app (TypeScript, @azure/data-tables): a citizen's
//! authentication locks. Source:
//! https://github.com/pagopa/io-auth-n-identity-domain/blob/01cda4e2b131a68542778123748a0c4df807df8d/apps/io-session-manager-internal/src/repositories/auth-lock.ts
//! with apps/io-session-manager/src/repositories/locked-profiles.ts at the same commit, and the
//! deletion in DeleteUserDataActivity/authenticationLockService.ts of
//! https://github.com/pagopa/io-functions-admin at 6feef0bcb26855693a7ec8a9fa98dac4e9a4e088.
//!
//! lockUserAuthentication creates `{ partitionKey: fiscalCode, rowKey: unlockCode, CreatedAt }`;
//! getUserAuthenticationLocks lists `PartitionKey eq fiscalCode and not Released`;
//! unlockUserAuthentication submits one transaction of merges setting `Released: true`; the
//! admin's user-data deletion lists the whole partition and deletes it in batches of 100.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "AuthenticationLocks", partition_key = "{fiscal_code}", row_key = "{unlock_code}")]
struct AuthenticationLock {
    /// The Italian fiscal code, 16 characters.
    #[table(max_len = 16)]
    fiscal_code: String,
    /// Nine digits.
    #[table(max_len = 9)]
    unlock_code: String,
    #[table(rename = "CreatedAt")]
    created_at: OffsetDateTime,
    /// Absent until the lock is released.
    #[table(rename = "Released")]
    released: Option<bool>,
}

/// getUserAuthenticationLocks / isUserAuthenticationLocked.
async fn active_locks<B: Backend>(backend: &B, fiscal_code: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and not Released", fiscal_code)).unwrap();
    let _ = backend.query_page(AuthenticationLock::TABLE, &q).await;
}

/// io-functions-admin getAllUserAuthenticationLockData: the whole partition.
async fn all_locks<B: Backend>(backend: &B, fiscal_code: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", fiscal_code)).unwrap();
    let _ = backend.query_page(AuthenticationLock::TABLE, &q).await;
}

/// lockUserAuthentication: createEntity.
async fn lock<B: Backend>(locks: &Table<'_, B, AuthenticationLock>, row: &AuthenticationLock) {
    let _ = locks.insert(row).await;
}

/// unlockUserAuthentication: one transaction of merges in the citizen's partition; the admin
/// deletion: transactions of up to 100 deletes.
async fn unlock_and_delete<B: Backend>(
    backend: &B,
    released: &[AuthenticationLock],
    to_delete: &[AuthenticationLock],
) {
    let mut unlock = table_runtime::Transaction::new();
    for row in released {
        let _ = unlock.merge(row, IfMatch::Any);
    }
    let _ = unlock.commit(backend).await;
    for chunk in to_delete.chunks(100) {
        let mut delete = table_runtime::Transaction::new();
        for row in chunk {
            let _ = delete.delete(row, IfMatch::Any);
        }
        let _ = delete.commit(backend).await;
    }
}

//! TruePulse (Python, azure-data-tables async): the tables that replaced Redis for
//! authentication: the logout token blacklist, password reset tokens and rate-limit counters.
//! Source:
//! https://github.com/KevinRabun/TruePulse/blob/1981862a70d586ce201f1040cad31ccd00f14cfa/src/backend/services/table_service.py
//!
//! - `tokenblacklist`: blacklist_token upserts `{"PartitionKey": "blacklist", "RowKey":
//!   token_hash, "expires_at", "created_at"}`; is_token_blacklisted is
//!   `get_entity("blacklist", token_hash)`, run to authenticate requests.
//! - `resettokens`: store_password_reset_token upserts `{"PartitionKey": "reset", "RowKey":
//!   sha256(token), "user_id", "expires_at", "created_at"}`; validate is a point read, delete a
//!   point delete.
//! - `ratelimits`: check_rate_limit(key, …) with keys like `login:user@example.com` uses
//!   PartitionKey = the part before the first `:` (or `default`) and RowKey = sha256(key); it
//!   point-reads the counter, updates `count` / `window_start` in memory and upserts it back.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "tokenblacklist", partition_key = "blacklist", row_key = "{token_hash}")]
struct BlacklistedToken {
    /// Hash of the JWT.
    token_hash: String,
    /// ISO text.
    expires_at: String,
    created_at: String,
}

#[derive(TableEntity)]
#[table(name = "resettokens", partition_key = "reset", row_key = "{token_hash}")]
struct PasswordResetToken {
    /// `sha256(token)` as 64 hex digits.
    #[table(max_len = 64)]
    token_hash: String,
    user_id: String,
    expires_at: String,
    created_at: String,
}

/// The key prefix before `:`: the kind of limited action (the docstring's `login`), or
/// `default` when the key has no prefix.
enum RateLimitScope {
    Login,
    Default,
}

#[derive(TableEntity)]
#[table(name = "ratelimits", partition_key = "{scope}", row_key = "{key_hash}")]
struct RateLimitCounter {
    scope: RateLimitScope,
    /// `sha256(key)` as 64 hex digits.
    #[table(max_len = 64)]
    key_hash: String,
    count: i32,
    /// ISO text.
    window_start: String,
}

/// is_token_blacklisted(token_hash).
fn blacklisted(token_hash: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'blacklist' and RowKey eq '{}'", token_hash)).unwrap()
}

/// validate_password_reset_token(token).
fn reset_token(token_hash: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'reset' and RowKey eq '{}'", token_hash)).unwrap()
}

/// check_rate_limit: the counter's point read.
fn rate_counter(scope: &str, key_hash: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", scope, key_hash)).unwrap()
}

/// blacklist_token: `upsert_entity`.
async fn blacklist<B: Backend>(table: &Table<'_, B, BlacklistedToken>, row: &BlacklistedToken) {
    let _ = table.upsert(row).await;
}

/// store_password_reset_token: `upsert_entity`.
async fn store_reset<B: Backend>(table: &Table<'_, B, PasswordResetToken>, row: &PasswordResetToken) {
    let _ = table.upsert(row).await;
}

/// check_rate_limit: `upsert_entity` of the counter read before (no ETag).
async fn count_request<B: Backend>(table: &Table<'_, B, RateLimitCounter>, row: &RateLimitCounter) {
    let _ = table.upsert(row).await;
}

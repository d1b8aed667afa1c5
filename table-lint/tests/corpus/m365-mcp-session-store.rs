//! m365-mcp (TypeScript, @azure/data-tables): the session store of a Microsoft 365 MCP server,
//! which signs users in with Entra ID (MSAL) and serves Graph tools to MCP clients holding a
//! Bearer session token. Source, at commit 06f06d6419ac6ec2e8bf88bea7534bac5e3c55a1:
//! https://github.com/standardgauge/m365-mcp/blob/06f06d6419ac6ec2e8bf88bea7534bac5e3c55a1/src/services/tableStorage.ts
//!
//! Three tables, each with one literal PartitionKey.
//! - `mcpSessions`, PartitionKey `session`. A new session is upserted (Replace) with RowKey = the
//!   first 32 hex characters of the HMAC-SHA256 of the session token, and properties userId,
//!   homeAccountId, displayName, email, tenantId, expiresAt (Unix ms), sessionCreatedAt,
//!   sessionAbsoluteCreatedAt, deviceLabel, the access token's AES-GCM envelope
//!   (accessTokenCiphertext, accessTokenIv, accessTokenAuthTag) and sessionTokenHash (the full
//!   HMAC). Rows written by older versions have RowKey = the user id; they are still read and
//!   deleted. Updates are Merge with `If-Match: *`, or with the ETag read when an old envelope
//!   is re-encrypted. Reads: `getEntity('session', rowKey)` for a Bearer token (then the
//!   stored full hash is compared); on a miss, the whole partition (`PartitionKey eq
//!   'session'`) is listed and each row's sessionTokenHash compared in the client. A user's
//!   newest session: point read of the legacy row, else the partition listed and the rows with
//!   that userId kept, the largest sessionCreatedAt winning. Sign-out of a user: delete the
//!   legacy row, list the partition and delete each row with that userId. The admin list reads
//!   the partition. A row's existence check is a point read selecting RowKey.
//! - `mcpInstallNonces`, PartitionKey `nonce`, RowKey = SHA-256 hex of the install nonce;
//!   upserted by the OAuth callback (sessionToken, userId, email, displayName, deviceLabel,
//!   expiresAt), polled by point read, consumed by a delete conditional on the ETag read, or
//!   deleted when found expired.
//! - `mcpMsalCache`, PartitionKey `cache`, RowKey `msal-token-cache`: the one row holding the
//!   whole MSAL token cache (every signed-in user's tokens) as one AES-GCM ciphertext in base64
//!   (ciphertext, iv, authTag); upserted (Replace) on every cache change, read by point read,
//!   re-encrypted by a Merge conditional on its ETag.

use table_runtime::{ETag, IfMatch, Query, Table, TableEntity};
use table_runtime::Backend;

#[derive(TableEntity)]
#[table(name = "mcpSessions", partition_key = "session", row_key = "{token_key}")]
#[table(rename_all = "camelCase")]
struct Session {
    /// `hashSessionToken(token).slice(0, 32)`: 32 hex digits of the HMAC, only in the RowKey.
    #[table(key_only, max_len = 32)]
    token_key: String,
    /// The Graph user object id.
    user_id: String,
    home_account_id: String,
    display_name: String,
    email: String,
    tenant_id: String,
    /// Unix ms.
    expires_at: i64,
    /// Unix ms.
    session_created_at: i64,
    session_absolute_created_at: Option<i64>,
    device_label: Option<String>,
    access_token_ciphertext: String,
    access_token_iv: String,
    access_token_auth_tag: String,
    /// The full HMAC-SHA256 of the session token, hex.
    session_token_hash: String,
}

/// Rows of the earlier format, keyed by the user id; read and deleted, no longer written.
#[derive(TableEntity)]
#[table(name = "mcpSessions", partition_key = "session", row_key = "{user_id}")]
#[table(rename_all = "camelCase")]
struct LegacySession {
    /// The Graph user object id, only in the RowKey (legacy rows have no userId column).
    #[table(key_only)]
    user_id: String,
    home_account_id: String,
    display_name: String,
    email: String,
    tenant_id: String,
    expires_at: i64,
    access_token_ciphertext: String,
    access_token_iv: String,
    access_token_auth_tag: String,
}

#[derive(TableEntity)]
#[table(name = "mcpInstallNonces", partition_key = "nonce", row_key = "{nonce_hash}")]
#[table(rename_all = "camelCase")]
struct InstallNonce {
    /// SHA-256 of the nonce, 64 hex digits.
    #[table(key_only, max_len = 64)]
    nonce_hash: String,
    session_token: String,
    user_id: String,
    email: String,
    display_name: String,
    device_label: Option<String>,
    /// Unix ms.
    expires_at: i64,
}

#[derive(TableEntity)]
#[table(name = "mcpMsalCache", partition_key = "cache", row_key = "msal-token-cache")]
#[table(rename_all = "camelCase")]
struct MsalCache {
    /// Base64 of the AES-GCM ciphertext of the whole serialized MSAL token cache (every signed-in
    /// user's accounts and tokens).
    ciphertext: String,
    iv: String,
    auth_tag: String,
}

/// The filter of every listing of the sessions table.
fn all_sessions() -> Query {
    Query::filter("PartitionKey eq 'session'").unwrap()
}

/// saveSession('create'): upsert (Replace) of the new row; saveSession('update') and the
/// envelope rebind: Merge with `*` or with the ETag read.
async fn save_session<B: Backend>(sessions: &Table<'_, B, Session>, session: &Session, etag: ETag) {
    let _ = sessions.upsert(session).await;
    let _ = sessions.merge(session, IfMatch::Any).await;
    let _ = sessions.merge(session, IfMatch::ETag(etag)).await;
}

/// loadSessionByToken: point read by the hash prefix; on a miss, the whole partition with the
/// full hash compared in the client.
async fn load_session_by_token<B: Backend>(
    sessions: &Table<'_, B, Session>,
    key: &<Session as TableEntity>::Key,
    target_hash: &str,
) {
    if let Ok(Some(_)) = sessions.get(key).await {
        return;
    }
    if let Ok(rows) = sessions.query_all(&all_sessions()).await {
        let _found = rows.iter().find(|r| r.session_token_hash == target_hash);
    }
}

/// loadSession(userId): the legacy row by its key, else the partition, kept to the user's rows
/// in the client and the newest taken.
async fn load_session<B: Backend>(
    sessions: &Table<'_, B, Session>,
    legacy: &Table<'_, B, LegacySession>,
    legacy_key: &<LegacySession as TableEntity>::Key,
    user_id: &str,
) {
    if let Ok(Some(_)) = legacy.get(legacy_key).await {
        return;
    }
    if let Ok(rows) = sessions.query_all(&all_sessions()).await {
        let _newest = rows
            .iter()
            .filter(|r| r.user_id == user_id)
            .max_by_key(|r| r.session_created_at);
    }
}

/// removeSession(userId): the legacy row, then every listed row with that userId.
async fn remove_session<B: Backend>(
    sessions: &Table<'_, B, Session>,
    legacy: &Table<'_, B, LegacySession>,
    legacy_key: &<LegacySession as TableEntity>::Key,
    user_id: &str,
) {
    let _ = legacy.delete(legacy_key, IfMatch::Any).await;
    if let Ok(rows) = sessions.query_all(&all_sessions()).await {
        for row in rows.iter().filter(|r| r.user_id == user_id) {
            let _ = sessions.delete(&row.key(), IfMatch::Any).await;
        }
    }
}

/// listAllSessions, sessionRowExists, removeSessionByKey.
async fn admin_and_checks<B: Backend>(sessions: &Table<'_, B, Session>, key: &<Session as TableEntity>::Key) {
    let _ = sessions.query_all(&all_sessions()).await;
    let _ = sessions.get(key).await;
    let _ = sessions.delete(key, IfMatch::Any).await;
}

/// attachSessionToInstallNonce (upsert Replace) and consumeInstallNonce (point read, then a
/// delete on the ETag read, or an unconditional delete when expired).
async fn install_nonce<B: Backend>(
    nonces: &Table<'_, B, InstallNonce>,
    nonce: &InstallNonce,
    key: &<InstallNonce as TableEntity>::Key,
    etag: ETag,
) {
    let _ = nonces.upsert(nonce).await;
    let _ = nonces.get(key).await;
    let _ = nonces.delete(key, IfMatch::ETag(etag)).await;
    let _ = nonces.delete(key, IfMatch::Any).await;
}

/// saveMsalCache (upsert Replace), loadMsalCache (point read) and its rebind (Merge on the
/// ETag read).
async fn msal_cache<B: Backend>(
    caches: &Table<'_, B, MsalCache>,
    cache: &MsalCache,
    key: &<MsalCache as TableEntity>::Key,
    etag: ETag,
) {
    let _ = caches.upsert(cache).await;
    let _ = caches.get(key).await;
    let _ = caches.merge(cache, IfMatch::ETag(etag)).await;
}

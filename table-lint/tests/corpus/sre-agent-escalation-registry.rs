//! Platform escalation proxy of sre-agent-team (Python, azure-data-tables): an HTTP/MCP proxy
//! through which workload SRE agents open investigations with a central platform SRE agent; its
//! registry of investigations, with a per-caller quota and idempotency keys. Source (commit
//! 8b98164f3fc9856819625c4069f31ece89f541bf of https://github.com/chris-bowman/sre-agent-team):
//! https://github.com/chris-bowman/sre-agent-team/blob/8b98164f3fc9856819625c4069f31ece89f541bf/escalation-proxy/app/investigation_registry.py
//! (class TableStorageInvestigationRegistry).
//!
//! One table (`InvestigationRegistry` by default), partitioned by the calling workload's app id
//! (a few callers, each allowed about a hundred concurrent investigations). Three kinds of row
//! share a caller's partition: an investigation (RowKey = a new UUID; caller ids, severity,
//! platform thread id, poll counters, state `reserved`/`active`/terminal, and `expires_at`, a
//! Unix time as a double); the caller's quota counter (RowKey `__quota_counter__`,
//! `active_count`); and an idempotency index row (RowKey `__idempotency__` + SHA-256 hex of the
//! client's Idempotency-Key, pointing at the investigation id, with its own `expires_at`).
//! A reservation updates the counter with its ETag and creates the investigation and the index
//! row in one transaction; completing or releasing decrements the counter the same way. Status
//! polls read and replace the investigation with its ETag. Quota reconciliation and the quota
//! check read the caller's whole partition. Before every reservation, and from a background loop,
//! `cleanup_expired` sends `expires_at lt <now>` with no PartitionKey, takes up to 100 hits and
//! deletes them one by one, decrementing the owners' counters.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "InvestigationRegistry", partition_key = "{workload_identity_appid}", row_key = "{investigation_id}")]
struct Investigation {
    /// The caller's Entra application id (a GUID as text).
    #[table(max_len = 36)]
    workload_identity_appid: String,
    investigation_id: Uuid,
    caller_oid: String,
    caller_appid: String,
    workload_name: String,
    platform_thread_id: String,
    severity: String,
    /// `time.time()` values: seconds since the epoch as doubles.
    created_at: f64,
    expires_at: f64,
    last_status_poll: f64,
    status_poll_count: i32,
    request_correlation_id: String,
    idempotency_key: String,
    request_fingerprint: String,
    /// `reserved`, `active` or a terminal state.
    reservation_state: String,
    policy_display_name: String,
    policy_enabled: bool,
    policy_maximum_severity: String,
    policy_maximum_concurrent_investigations: i32,
    activated_at: f64,
    completed_at: f64,
    findings_finalized_at: f64,
    findings_schema_version: String,
    findings_schema_valid: bool,
    findings_selection_strategy: String,
    findings_redacted: bool,
}

#[derive(TableEntity)]
#[table(name = "InvestigationRegistry", partition_key = "{workload_identity_appid}", row_key = "__quota_counter__")]
struct QuotaCounter {
    #[table(max_len = 36)]
    workload_identity_appid: String,
    active_count: i32,
}

#[derive(TableEntity)]
#[table(name = "InvestigationRegistry", partition_key = "{workload_identity_appid}", row_key = "__idempotency__{key_hash}")]
struct IdempotencyIndex {
    #[table(max_len = 36)]
    workload_identity_appid: String,
    /// 64 lowercase hex digits of SHA-256 of the client's Idempotency-Key.
    #[table(max_len = 64)]
    key_hash: String,
    investigation_id: String,
    request_fingerprint: String,
    expires_at: f64,
}

/// check_workload_quota and _reconcile_quota_counter: the caller's whole partition, counted on
/// the client.
fn caller_partition(appid: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", appid)).unwrap()
}

/// find_by_idempotency_key, when the index row is missing (rows written before it existed).
fn by_idempotency_key(appid: &str, key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and idempotency_key eq '{}'", appid, key)).unwrap()
}

/// get_investigation, record_status_poll, finalize/release/complete: `get_entity`.
fn investigation(appid: &str, id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", appid, id)).unwrap()
}

/// cleanup_expired: expired rows of every caller, up to 100 per call, deleted one by one.
async fn cleanup_expired<B: Backend>(backend: &B, now: f64) {
    let q = Query::filter(&format!("expires_at lt {:.3}", now)).unwrap().top(100);
    let page = backend.query_page(Investigation::TABLE, &q).await.unwrap();
    for row in page.entities {
        let _ = backend
            .execute_batch(
                Investigation::TABLE,
                vec![BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                }],
            )
            .await;
    }
}

/// reserve_investigation: counter update (ETag), investigation and index row created, in one
/// transaction; status polls and state changes replace the investigation with its ETag.
async fn reserve<B: Backend>(
    investigations: &Table<'_, B, Investigation>,
    counters: &Table<'_, B, QuotaCounter>,
    index: &Table<'_, B, IdempotencyIndex>,
    inv: &Investigation,
    counter: &QuotaCounter,
    idx: &IdempotencyIndex,
    etag: table_runtime::ETag,
) {
    let _ = counters.insert(counter).await;
    let _ = counters.replace(counter, IfMatch::ETag(etag.clone())).await;
    let _ = investigations.insert(inv).await;
    let _ = index.insert(idx).await;
    let _ = investigations.replace(inv, IfMatch::ETag(etag)).await;
}

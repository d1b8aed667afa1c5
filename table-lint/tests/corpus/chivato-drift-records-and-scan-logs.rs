//! Chivato (C#, Azure.Data.Tables): a multi-tenant service that scans Azure DevOps pipelines and
//! the Azure resources they deploy, and records infrastructure drift found by an AI analysis.
//! Sources, at commit 8d36365883719264187d62d84de2aca8078ddd57 of
//! https://github.com/victorZKov/chivato:
//! https://github.com/victorZKov/chivato/blob/8d36365883719264187d62d84de2aca8078ddd57/src/core/Chivato.Infrastructure/Repositories/DriftRecordRepository.cs
//! with Repositories/ScanLogRepository.cs, TableEntities/{BaseTableEntity,DriftRecordTableEntity,
//! ScanLogTableEntity}.cs beside them, src/core/Chivato.Domain/Entities/{DriftRecord,ScanLog}.cs
//! and src/core/Chivato.Application/Handlers/{Drift/GetDriftHandlers,Scans/ScanHandlers}.cs.
//!
//! Every entity derives from a base whose PartitionKey is the tenant (the `tid` claim of the
//! caller's token) and whose RowKey is the entity's id, `Guid.NewGuid().ToString()`; the base
//! also exposes TenantId and Id as get-only properties, which the serializer writes too.
//! DriftRecords: one row per drift finding (pipeline, correlation id of the scan, severity,
//! resource, expected and actual values, DetectedAt, Status Open/Resolved...). ScanLogs: one row
//! per scan run (pipeline, correlation id, Status, StartedAt, counts, duration).
//! Reads: a row by its keys; the list endpoints build `PartitionKey eq tenant` plus optional
//! `Severity`/`Status`, `PipelineId` and a `DetectedAt`/`StartedAt` range, read every match,
//! sort by the time newest first in memory and page with Skip/Take; the dashboard stats read
//! `PartitionKey eq tenant and Status eq 'Open'` (drift) or the whole tenant (scans) and count;
//! the lookup by correlation id is `PartitionKey eq tenant and CorrelationId eq …`.
//! Writes: AddEntity, a batch of AddEntity per 100 findings, UpsertEntity (Replace) on update.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "DriftRecords", partition_key = "{tenant_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct DriftRecord {
    /// The Entra tenant id of the caller (a GUID as text).
    #[table(max_len = 64)]
    tenant_id: String,
    /// `Guid.NewGuid().ToString()`.
    id: Uuid,
    pipeline_id: String,
    correlation_id: String,
    /// `Low`, `Medium`, `High`, `Critical`.
    severity: String,
    resource_id: String,
    resource_type: String,
    resource_name: String,
    property: String,
    expected_value: String,
    actual_value: String,
    description: String,
    recommendation: String,
    category: String,
    detected_at: OffsetDateTime,
    /// `Open`, `Resolved`, ...
    status: String,
    resolved_at: Option<OffsetDateTime>,
    resolved_by: Option<String>,
    created_at: OffsetDateTime,
    updated_at: Option<OffsetDateTime>,
}

#[derive(TableEntity)]
#[table(name = "ScanLogs", partition_key = "{tenant_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct ScanLog {
    #[table(max_len = 64)]
    tenant_id: String,
    /// `Guid.NewGuid().ToString()`.
    id: Uuid,
    pipeline_id: String,
    pipeline_name: String,
    correlation_id: String,
    /// `Pending`, `Running`, `Success`, `Failed`.
    status: String,
    started_at: OffsetDateTime,
    completed_at: Option<OffsetDateTime>,
    drift_count: i32,
    resources_scanned: i32,
    duration_seconds: i32,
    triggered_by: String,
    error_message: Option<String>,
    overall_risk: Option<String>,
    created_at: OffsetDateTime,
    updated_at: Option<OffsetDateTime>,
}

/// DriftRecordRepository.GetPagedAsync with every optional clause: all matches read, then sorted
/// by DetectedAt newest first and paged in memory.
async fn drift_page<B: Backend>(
    drifts: &Table<'_, B, DriftRecord>,
    tenant: &str,
    severity: &str,
    pipeline: &str,
    from: &str,
    to: &str,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and Severity eq '{}' and PipelineId eq '{}' and DetectedAt ge datetime'{}' and DetectedAt le datetime'{}'",
        tenant, severity, pipeline, from, to
    ))
    .unwrap();
    if let Ok(mut rows) = drifts.query_all(&q).await {
        rows.sort_by_key(|r| std::cmp::Reverse(r.detected_at));
    }
}

/// DriftRecordRepository.GetStatsAsync: the tenant's open findings, counted by severity.
async fn drift_stats<B: Backend>(drifts: &Table<'_, B, DriftRecord>, tenant: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and Status eq 'Open'", tenant)).unwrap();
    let _ = drifts.query_all(&q).await;
}

/// DriftRecordRepository.GetByCorrelationIdAsync: the findings of one scan.
async fn drifts_of_scan<B: Backend>(drifts: &Table<'_, B, DriftRecord>, tenant: &str, correlation: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and CorrelationId eq '{}'",
        tenant, correlation
    ))
    .unwrap();
    let _ = drifts.query_all(&q).await;
}

/// ScanLogRepository.GetPagedAsync with every optional clause, sorted by StartedAt in memory.
async fn scan_page<B: Backend>(
    scans: &Table<'_, B, ScanLog>,
    tenant: &str,
    status: &str,
    pipeline: &str,
    from: &str,
    to: &str,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and Status eq '{}' and PipelineId eq '{}' and StartedAt ge datetime'{}' and StartedAt le datetime'{}'",
        tenant, status, pipeline, from, to
    ))
    .unwrap();
    if let Ok(mut rows) = scans.query_all(&q).await {
        rows.sort_by_key(|r| std::cmp::Reverse(r.started_at));
    }
}

/// ScanLogRepository.GetStatsAsync: every scan of the tenant, counted by status.
async fn scan_stats<B: Backend>(scans: &Table<'_, B, ScanLog>, tenant: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", tenant)).unwrap();
    let _ = scans.query_all(&q).await;
}

/// ScanLogRepository.GetByCorrelationIdAsync: `maxPerPage: 1`, the first match returned.
async fn scan_of_correlation<B: Backend>(scans: &Table<'_, B, ScanLog>, tenant: &str, correlation: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and CorrelationId eq '{}'",
        tenant, correlation
    ))
    .unwrap()
    .top(1);
    let _ = scans.query_page(&q, None).await;
}

/// GetByIdAsync (both repositories), AddAsync and UpdateAsync (UpsertEntity, Replace).
async fn by_key_and_writes<B: Backend>(
    drifts: &Table<'_, B, DriftRecord>,
    scans: &Table<'_, B, ScanLog>,
    drift_key: &<DriftRecord as TableEntity>::Key,
    scan_key: &<ScanLog as TableEntity>::Key,
    drift: &DriftRecord,
    scan: &ScanLog,
) {
    let _ = drifts.get(drift_key).await;
    let _ = scans.get(scan_key).await;
    let _ = drifts.insert(drift).await;
    let _ = drifts.upsert(drift).await;
    let _ = scans.insert(scan).await;
    let _ = scans.upsert(scan).await;
}

//! github-copilot-token-usage (TypeScript, VS Code extension, @azure/data-tables): the optional
//! team back end of a Copilot token tracker, where every member's extension uploads daily
//! usage totals to a shared Azure table and reads them back for personal and team dashboards.
//! Sources (commit e84aff8686ec9790d02dd6d7e10efc1eb1ac4cb9 of
//! https://github.com/rajbos/github-copilot-token-usage):
//! https://github.com/rajbos/github-copilot-token-usage/blob/e84aff8686ec9790d02dd6d7e10efc1eb1ac4cb9/vscode-extension/src/backend/services/dataPlaneService.ts,
//! with vscode-extension/src/backend/storageTables.ts, backend/facade.ts,
//! backend/services/syncService.ts, backend/services/queryService.ts, backend/constants.ts and
//! src/extension.ts in the same folder tree.
//!
//! One table, named in the settings (`usageAggDaily` by default), shared by every dataset (a
//! team or a person picks a dataset id). One row per day, model, workspace, machine and user:
//! PartitionKey = `ds:<datasetId>|d:<YYYY-MM-DD>`, RowKey = `m:<model>|w:<workspaceId>|mc:<machineId>`
//! followed by `|u:<userId>` when the user shares an identity. Both keys go through a sanitizer
//! that turns `/`, `\`, `#`, `?` and control characters into `_`. Properties: schemaVersion,
//! datasetId, day (the same `YYYY-MM-DD` text), model, workspaceId, machineId and optional
//! workspaceName, machineName, userId, userKeyType, shareWithTeam, consentAt; the counters
//! inputTokens, outputTokens, interactions; updatedAt (ISO text); and, from schema 4, mode
//! counts, rates and averages and a dozen JSON strings of breakdowns.
//!
//! Writes: each sync recomputes the rollups of the lookback window (1 to 90 days, 30 by default)
//! from local session files and upserts them (Replace) one request at a time, grouped by
//! partition but never batched, with retries on 429 and 503. Before the upserts of a backfill
//! (and once per cache version on a normal sync) it deletes the user's old rows of the window:
//! it lists `PartitionKey ge 'ds:<id>|d:<first day>' and PartitionKey le 'ds:<id>|d:<last day>'`,
//! keeps rows whose RowKey contains `u:<userId>`, and deletes them one by one without an ETag.
//! The team dashboard's per-row "delete this user" action does the same over the last 90 days.
//! A setup check upserts and deletes one probe row (`ds:<id>|d:rbac-probe`, `probe:<machineId>`).
//!
//! Reads: the personal dashboard and the status bar (today, and the month so far) query the
//! dataset day by day, `PartitionKey eq 'ds:<id>|d:<day>'` for each day of the range, in
//! sequence. The team dashboard reads every dataset for the lookback window with
//! `day ge '<start>' and day le '<end>'`, no PartitionKey. Nothing expires old rows.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "usageAggDaily", partition_key = "ds:{dataset_id}|d:{day}", row_key = "m:{model}|w:{workspace_id}|mc:{machine_id}|u:{user_id}")]
#[table(rename_all = "camelCase")]
struct DailyRollup {
    /// 1 to 4, by which optional groups the row carries.
    schema_version: i32,
    /// Chosen in the settings; `default` unless changed.
    dataset_id: String,
    /// `YYYY-MM-DD` (UTC), stored as text as well as in the PartitionKey.
    #[table(max_len = 10)]
    day: String,
    /// The model name as parsed from the session logs, e.g. `gpt-4o`.
    model: String,
    /// A hash of the workspace folder.
    workspace_id: String,
    /// VS Code's machine id, raw or hashed per the sharing profile.
    machine_id: String,
    /// An alias or pseudonym; the original omits `|u:` and this property when none is shared.
    user_id: String,
    workspace_name: Option<String>,
    machine_name: Option<String>,
    user_key_type: Option<String>,
    share_with_team: Option<bool>,
    consent_at: Option<String>,
    input_tokens: i32,
    output_tokens: i32,
    interactions: i32,
    /// ISO text of the upload time.
    updated_at: String,
    ask_mode_count: Option<i32>,
    edit_mode_count: Option<i32>,
    agent_mode_count: Option<i32>,
    plan_mode_count: Option<i32>,
    custom_agent_mode_count: Option<i32>,
    tool_calls_json: Option<String>,
    context_refs_json: Option<String>,
    mcp_tools_json: Option<String>,
    model_switching_json: Option<String>,
    edit_scope_json: Option<String>,
    agent_types_json: Option<String>,
    repositories_json: Option<String>,
    apply_usage_json: Option<String>,
    session_duration_json: Option<String>,
    repo_customization_rate: Option<f64>,
    multi_turn_sessions: Option<i32>,
    avg_turns_per_session: Option<f64>,
    multi_file_edits: Option<i32>,
    avg_files_per_edit: Option<f64>,
    code_block_apply_rate: Option<f64>,
    session_count: Option<i32>,
}

/// listEntitiesForRange: one partition query per day of the range, issued one after another.
async fn dataset_days<B: Backend>(backend: &B, dataset_id: &str, days: &[String]) {
    for day in days {
        let q = Query::filter(&format!("PartitionKey eq 'ds:{}|d:{}'", dataset_id, day)).unwrap();
        let _ = backend.query_page(DailyRollup::TABLE, &q).await;
    }
}

/// listAllEntitiesForRange: the team dashboard's read of every dataset over the window.
async fn all_datasets_window<B: Backend>(backend: &B, start_day: &str, end_day: &str) {
    let q = Query::filter(&format!("day ge '{}' and day le '{}'", start_day, end_day)).unwrap();
    let _ = backend.query_page(DailyRollup::TABLE, &q).await;
}

/// deleteEntitiesForUserDataset: the dataset's partitions of the window; the user's rows are
/// picked on the client by a substring test of the RowKey and deleted one at a time.
async fn delete_user_rows<B: Backend>(
    backend: &B,
    rows: &Table<'_, B, DailyRollup>,
    dataset_id: &str,
    start_day: &str,
    end_day: &str,
    key: &<DailyRollup as TableEntity>::Key,
) {
    let q = Query::filter(&format!(
        "PartitionKey ge 'ds:{}|d:{}' and PartitionKey le 'ds:{}|d:{}'",
        dataset_id, start_day, dataset_id, end_day
    ))
    .unwrap();
    let _ = backend.query_page(DailyRollup::TABLE, &q).await;
    let _ = rows.delete(key, IfMatch::Any).await;
}

/// upsertEntitiesBatch: upsertEntity in Replace mode, one entity per request.
async fn upload<B: Backend>(rows: &Table<'_, B, DailyRollup>, row: &DailyRollup) {
    let _ = rows.upsert(row).await;
}

//! Azure Functions host `TableStorageScaleMetricsRepository`: the scale monitors' metric samples
//! (queue lengths, event hub backlogs) that the scale controller votes on. Source:
//! https://github.com/Azure/azure-functions-host/blob/017d83d13b1c40525191f6f4070b80b51082ff1a/src/WebJobs.Script.WebHost/Scale/TableStorageScaleMetricsRepository.cs
//! and https://github.com/Azure/azure-functions-host/blob/0d6c3bb31035b3f3ec039d4dc17a47b47d996ccc/src/WebJobs.Script.WebHost/Helpers/TableStorageHelpers.cs (`GetRowKey`).
//!
//! One table per month, `AzureFunctionsScaleMetrics{yyyyMM}`; when a new month's table is created
//! the older tables are deleted in the background. PartitionKey = the host id (one function app);
//! RowKey = `$"{DateTime.MaxValue.Ticks - now.Ticks:D19}-{Guid.NewGuid()}"`, newest first. Every
//! sample is written with `TableTransactionActionType.Add`, a host's samples of one round in one
//! batch (at most 100). ReadRecentMetrics reads the host's samples newer than
//! `ScaleMetricsMaxAge` as a RowKey range in its partition, then groups them by `MonitorId`.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "AzureFunctionsScaleMetrics202601",
    partition_key = "{host_id}",
    row_key = "{written_at:inverted_ticks}-{salt}"
)]
#[table(rename_all = "PascalCase")]
struct ScaleMetricsSample {
    /// The function app's host id.
    host_id: String,
    written_at: OffsetDateTime,
    salt: Uuid,
    /// The scale monitor's descriptor id, e.g. `Function1-EventHubTrigger-hub-group`.
    monitor_id: String,
    /// `ScaleMetrics.Timestamp`, kept apart from the service's Timestamp.
    sample_timestamp: OffsetDateTime,
    /// The monitor's own metrics (`EventCount`, `PartitionCount`, `QueueLength`, ...) are
    /// flattened into properties by `TableEntityConverter`; two common ones stand for them.
    event_count: Option<i64>,
    queue_length: Option<i64>,
}

/// ReadRecentMetrics: the host's samples newer than the cutoff (`RowKey lt` the cutoff's
/// inverted ticks).
fn recent_metrics(host_id: &str, cutoff_inverted_ticks: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (RowKey lt '{}')",
        host_id, cutoff_inverted_ticks
    ))
    .unwrap()
}

/// WriteMetricsAsync: every sample is a `TableTransactionActionType.Add`.
async fn write_sample<B: Backend>(metrics: &Table<'_, B, ScaleMetricsSample>, sample: &ScaleMetricsSample) {
    let _ = metrics.insert(sample).await;
}

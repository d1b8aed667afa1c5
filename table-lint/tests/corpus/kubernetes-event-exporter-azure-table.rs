//! kubernetes-event-exporter (Go, aztables), Ravnur's fork with an Azure Table Storage sink:
//! every Kubernetes event the watcher sees is flattened and inserted as one entity. Source:
//! https://github.com/Ravnur-Inc/kubernetes-event-exporter/blob/7f8830230b32cc79d5b3dce69461819ecf4b4b36/pkg/sinks/azurestoragetable.go
//! (the watcher, pkg/kube/watcher.go, passes only added events; updates and deletes are ignored).
//!
//! Table: `tableName`, or `time.Now().UTC().Format(tableNameFormat)` when a format is configured
//! (a table per period, created on the first event of the period). PartitionKey = the event's
//! namespace, RowKey = the event's metadata.uid. The event is marshalled to JSON, dots in keys
//! replaced, and flattened: nested maps and arrays become `parent_child` / `parent_0` property
//! names. `client.AddEntity` inserts it; the sink never reads.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "KubeEvents", partition_key = "{namespace}", row_key = "{uid}")]
struct KubeEvent {
    /// `ev.Namespace`; cluster-scoped objects report their events in `default`.
    namespace: String,
    /// `ev.UID`, a UUID assigned by the API server.
    uid: Uuid,
    /// The flattened fields of the event (the labels and annotations of the involved object,
    /// whose property names depend on the object, are not modelled).
    reason: Option<String>,
    message: Option<String>,
    #[table(rename = "type")]
    event_type: Option<String>,
    count: Option<i64>,
    #[table(rename = "firstTimestamp")]
    first_timestamp: Option<OffsetDateTime>,
    #[table(rename = "lastTimestamp")]
    last_timestamp: Option<OffsetDateTime>,
    #[table(rename = "involvedObject_kind")]
    involved_object_kind: Option<String>,
    #[table(rename = "involvedObject_name")]
    involved_object_name: Option<String>,
    #[table(rename = "involvedObject_namespace")]
    involved_object_namespace: Option<String>,
    #[table(rename = "source_component")]
    source_component: Option<String>,
}

/// Send: `client.AddEntity(ctx, marshalled, nil)`.
async fn send<B: Backend>(events: &Table<'_, B, KubeEvent>, event: &KubeEvent) {
    let _ = events.insert(event).await;
}

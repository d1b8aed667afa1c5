//! blkit (Go, aztables): a process-orchestration kit whose Azure Service Bus broker keeps its
//! side state in one Azure table (`TableRegistryStore`): the worker registry, timer records, and
//! the last-event record of every process instance. Source (commit
//! 1f5985b1db9b31cd2999189a1cd3fc7f949b6255 of https://github.com/friendly-business-machines/blkit):
//! https://github.com/friendly-business-machines/blkit/blob/1f5985b1db9b31cd2999189a1cd3fc7f949b6255/brokers/azure-service-bus/registrystore.go
//! with brokers/azure-service-bus/broker.go.
//!
//! Three fixed partitions, each row holding its payload as one JSON string property `Data`:
//! `worker` (RowKey = worker id; registrations and a TTL deadline), `timer` (RowKey = instance id;
//! the time to fire), `inst` (RowKey = process instance id; the latest lifecycle and terminal event
//! envelopes, the finished flag, the retention deadline). Every write is UpsertEntity(Replace).
//! Reads: GetEntity of one worker (PutRegistrations, Touch) or instance (SubscribeToInstance,
//! instance routing); `PartitionKey eq 'worker'` listed whole by Snapshot (on every Submit, Cancel
//! and Terminate, through liveRegistration), by every Watch poller every 200 ms, and by the
//! sweeper every 500 ms; `PartitionKey eq 'timer'` by DueTimers, which claims due rows with
//! ETag-conditioned deletes; `PartitionKey eq 'inst'` listed whole by the sweeper every 500 ms,
//! which deletes finished records past their retention (default one hour) one by one. Submit
//! writes an instance record for every process started, and lifecycle reports rewrite it.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "blkitregistry", partition_key = "worker", row_key = "{worker_id}")]
struct WorkerRecord {
    worker_id: String,
    /// `{"deadline": …, "regs": <envelope>}` as JSON text.
    #[table(rename = "Data")]
    data: String,
}

#[derive(TableEntity)]
#[table(name = "blkitregistry", partition_key = "timer", row_key = "{instance_id}")]
struct TimerRecord {
    instance_id: String,
    /// `{"fireAt": …}`.
    #[table(rename = "Data")]
    data: String,
}

#[derive(TableEntity)]
#[table(name = "blkitregistry", partition_key = "inst", row_key = "{instance_id}")]
struct InstanceRecord {
    /// `bl.NewProcessInstanceID()`.
    instance_id: String,
    /// Process key, correlation key, latest and terminal event envelopes, finished flag and
    /// retention deadline, as JSON text.
    #[table(rename = "Data")]
    data: String,
}

/// Snapshot (every Submit/Cancel/Terminate), the Watch poll (every 200 ms per watcher) and the
/// sweeper (every 500 ms): the whole worker partition.
async fn workers<B: Backend>(backend: &B) {
    let q = Query::filter("PartitionKey eq 'worker'").unwrap();
    let _ = backend.query_page(WorkerRecord::TABLE, &q).await;
}

/// DueTimers: the whole timer partition, then ETag-conditioned deletes of the due rows.
async fn due_timers<B: Backend>(backend: &B, timers: &Table<'_, B, TimerRecord>, key: &<TimerRecord as TableEntity>::Key, etag: IfMatch) {
    let q = Query::filter("PartitionKey eq 'timer'").unwrap();
    let _ = backend.query_page(TimerRecord::TABLE, &q).await;
    let _ = timers.delete(key, etag).await;
}

/// sweepOnce: the whole instance partition every 500 ms, then a delete per expired record.
async fn sweep_instances<B: Backend>(backend: &B, instances: &Table<'_, B, InstanceRecord>, key: &<InstanceRecord as TableEntity>::Key) {
    let q = Query::filter("PartitionKey eq 'inst'").unwrap();
    let _ = backend.query_page(InstanceRecord::TABLE, &q).await;
    let _ = instances.delete(key, IfMatch::Any).await;
}

/// getEntity("worker", id) and getEntity("inst", id).
async fn point_reads<B: Backend>(backend: &B, worker_id: &str, instance_id: &str) {
    let w = Query::filter(&format!("PartitionKey eq 'worker' and RowKey eq '{}'", worker_id)).unwrap();
    let _ = backend.query_page(WorkerRecord::TABLE, &w).await;
    let i = Query::filter(&format!("PartitionKey eq 'inst' and RowKey eq '{}'", instance_id)).unwrap();
    let _ = backend.query_page(InstanceRecord::TABLE, &i).await;
}

/// putEntity: UpsertEntity(Replace) for all three kinds.
async fn put<B: Backend>(
    workers: &Table<'_, B, WorkerRecord>,
    timers: &Table<'_, B, TimerRecord>,
    instances: &Table<'_, B, InstanceRecord>,
    w: &WorkerRecord,
    t: &TimerRecord,
    i: &InstanceRecord,
) {
    let _ = workers.upsert(w).await;
    let _ = timers.upsert(t).await;
    let _ = instances.upsert(i).await;
}

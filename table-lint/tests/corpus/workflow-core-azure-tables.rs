//! Workflow Core (C#, Azure.Data.Tables): the Azure Table Storage persistence provider of this
//! .NET workflow engine, which keeps workflow instances, published events, event subscriptions,
//! scheduled commands and execution errors. Source (commit
//! a33e5a9d28002105a9a3fb9e23a88dd3c78cb32b of https://github.com/danielgerlag/workflow-core):
//! https://github.com/danielgerlag/workflow-core/blob/a33e5a9d28002105a9a3fb9e23a88dd3c78cb32b/src/providers/WorkflowCore.Providers.Azure/Services/AzureTableStoragePersistenceProvider.cs
//! with src/providers/WorkflowCore.Providers.Azure/Models/{WorkflowTableEntity,EventTableEntity,
//! SubscriptionTableEntity,ScheduledCommandTableEntity}.cs.
//!
//! Five tables (`{prefix}Workflows`, `…Events`, `…Subscriptions`, `…Commands`, `…Errors`, prefix
//! `WorkflowCore` by default), each with one fixed PartitionKey: `workflow`, `event`,
//! `subscription`, `command`, `error`. RowKeys: a new GUID per workflow, event, subscription and
//! error; for a command an MD5 of name and data shown as a GUID, so a command scheduled twice is
//! one row. Instances are added (AddEntity) and then upserted (Replace) after every step;
//! events are added and marked processed by an ETag-conditioned merge; subscriptions are added,
//! claimed (ExternalToken) by an ETag-conditioned merge and deleted when terminated; commands
//! are upserted. The engine's pollers call GetRunnableInstances (`PartitionKey eq 'workflow' and
//! Status eq 0 and NextExecution le <ticks>`), GetRunnableEvents (`PartitionKey eq 'event' and
//! IsProcessed eq false and EventTime le datetime'…'`) and ProcessCommands (`PartitionKey eq
//! 'command' and ExecuteTime le <ticks>`, each command run and then deleted); publishing an event
//! looks up subscriptions by `PartitionKey eq 'subscription' and EventName eq … and EventKey eq …
//! and SubscribeAsOf le …`, and GetEvents looks up events by name and key. Completed workflows
//! and processed events are never removed by this provider.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "WorkflowCoreWorkflows", partition_key = "workflow", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct WorkflowTableEntity {
    /// `Guid.NewGuid().ToString()` in CreateNewWorkflow.
    id: Uuid,
    workflow_definition_id: String,
    version: i32,
    description: Option<String>,
    reference: Option<String>,
    /// JSON.
    execution_pointers: String,
    /// Ticks of the next run, or none.
    next_execution: Option<i64>,
    /// WorkflowStatus as an integer: Runnable 0, Suspended 1, Complete 2, Terminated 3.
    status: i32,
    /// JSON with type names.
    data: String,
    create_time: OffsetDateTime,
    complete_time: Option<OffsetDateTime>,
}

#[derive(TableEntity)]
#[table(name = "WorkflowCoreEvents", partition_key = "event", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct EventTableEntity {
    id: Uuid,
    event_name: String,
    event_key: String,
    event_data: String,
    event_time: OffsetDateTime,
    is_processed: bool,
}

#[derive(TableEntity)]
#[table(name = "WorkflowCoreSubscriptions", partition_key = "subscription", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct SubscriptionTableEntity {
    id: Uuid,
    workflow_id: String,
    step_id: i32,
    execution_pointer_id: String,
    event_name: String,
    event_key: String,
    subscribe_as_of: OffsetDateTime,
    subscription_data: String,
    external_token: Option<String>,
    external_worker_id: Option<String>,
    external_token_expiry: Option<OffsetDateTime>,
}

#[derive(TableEntity)]
#[table(name = "WorkflowCoreCommands", partition_key = "command", row_key = "{command_hash}")]
#[table(rename_all = "PascalCase")]
struct ScheduledCommandTableEntity {
    /// MD5 of `{CommandName}_{Data}`, written as a GUID without hyphens.
    #[table(max_len = 32)]
    command_hash: String,
    command_name: String,
    data: String,
    /// Ticks.
    execute_time: i64,
}

#[derive(TableEntity)]
#[table(name = "WorkflowCoreErrors", partition_key = "error", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct ExecutionErrorEntity {
    id: Uuid,
    workflow_id: String,
    execution_pointer_id: String,
    error_time: OffsetDateTime,
    message: String,
}

/// GetRunnableInstances: every poll of every node.
async fn runnable_instances<B: Backend>(workflows: &Table<'_, B, WorkflowTableEntity>, now_ticks: i64) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'workflow' and Status eq 0 and NextExecution le {}",
        now_ticks
    ))
    .unwrap();
    let _ = workflows.query_page(&q, None).await;
}

/// GetWorkflowInstances (obsolete, still public): the filters it can add, then Skip/Take in memory.
async fn instances_by_status<B: Backend>(
    workflows: &Table<'_, B, WorkflowTableEntity>,
    status: i32,
    definition: &str,
    from: &str,
    to: &str,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'workflow' and Status eq {} and WorkflowDefinitionId eq '{}' and CreateTime ge datetime'{}' and CreateTime le datetime'{}'",
        status, definition, from, to
    ))
    .unwrap();
    let _ = workflows.query_page(&q, None).await;
}

/// GetRunnableEvents: every poll.
async fn runnable_events<B: Backend>(events: &Table<'_, B, EventTableEntity>, now: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'event' and IsProcessed eq false and EventTime le datetime'{}'",
        now
    ))
    .unwrap();
    let _ = events.query_page(&q, None).await;
}

/// GetEvents(name, key, asOf).
async fn events_by_name<B: Backend>(events: &Table<'_, B, EventTableEntity>, name: &str, key: &str, as_of: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'event' and EventName eq '{}' and EventKey eq '{}' and EventTime ge datetime'{}'",
        name, key, as_of
    ))
    .unwrap();
    let _ = events.query_page(&q, None).await;
}

/// GetSubscriptions and GetFirstOpenSubscription, for every published event.
async fn subscriptions_for<B: Backend>(
    subscriptions: &Table<'_, B, SubscriptionTableEntity>,
    name: &str,
    key: &str,
    as_of: &str,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'subscription' and EventName eq '{}' and EventKey eq '{}' and SubscribeAsOf le datetime'{}'",
        name, key, as_of
    ))
    .unwrap();
    let _ = subscriptions.query_page(&q, None).await;
}

/// ProcessCommands: the due commands, each run and then deleted.
async fn due_commands<B: Backend>(commands: &Table<'_, B, ScheduledCommandTableEntity>, now_ticks: i64) {
    let q = Query::filter(&format!("PartitionKey eq 'command' and ExecuteTime le {}", now_ticks)).unwrap();
    let page = commands.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = commands.delete(&row.key(), IfMatch::Any).await;
    }
}

/// CreateNewWorkflow (AddEntity), PersistWorkflow (UpsertEntity Replace), GetWorkflowInstance.
async fn workflow_writes<B: Backend>(
    workflows: &Table<'_, B, WorkflowTableEntity>,
    row: &WorkflowTableEntity,
    key: &<WorkflowTableEntity as TableEntity>::Key,
) {
    let _ = workflows.insert(row).await;
    let _ = workflows.upsert(row).await;
    let _ = workflows.get(key).await;
}

/// CreateEvent (AddEntity), MarkEventProcessed/Unprocessed (read, then UpdateEntity, a merge, on
/// its ETag).
async fn event_writes<B: Backend>(
    events: &Table<'_, B, EventTableEntity>,
    row: &EventTableEntity,
    key: &<EventTableEntity as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = events.insert(row).await;
    let _ = events.get(key).await;
    let _ = events.merge(row, IfMatch::ETag(etag)).await;
}

/// CreateEventSubscription, SetSubscriptionToken/ClearSubscriptionToken, TerminateSubscription.
async fn subscription_writes<B: Backend>(
    subscriptions: &Table<'_, B, SubscriptionTableEntity>,
    row: &SubscriptionTableEntity,
    key: &<SubscriptionTableEntity as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = subscriptions.insert(row).await;
    let _ = subscriptions.get(key).await;
    let _ = subscriptions.merge(row, IfMatch::ETag(etag)).await;
    let _ = subscriptions.delete(key, IfMatch::Any).await;
}

/// ScheduleCommand (UpsertEntity Replace) and PersistErrors (AddEntity).
async fn command_and_error_writes<B: Backend>(
    commands: &Table<'_, B, ScheduledCommandTableEntity>,
    errors: &Table<'_, B, ExecutionErrorEntity>,
    command: &ScheduledCommandTableEntity,
    error: &ExecutionErrorEntity,
) {
    let _ = commands.upsert(command).await;
    let _ = errors.insert(error).await;
}

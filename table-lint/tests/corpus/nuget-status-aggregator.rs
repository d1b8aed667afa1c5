//! NuGet StatusAggregator (C#, WindowsAzure.Storage table SDK, LINQ queries): the job behind
//! status.nuget.org. It reads incidents from NuGet's incident API and manual changes entered by
//! administrators, folds them into incident groups and events per service component, and exports
//! the status page. Everything lives in one table. Sources: the entity classes at commit
//! 7816f6eb5f7817a9a9adfdca096887054879241a of https://github.com/NuGet/ServerCommon
//! (https://github.com/NuGet/ServerCommon/blob/7816f6eb5f7817a9a9adfdca096887054879241a/src/NuGet.Services.Status.Table/EventEntity.cs,
//! with IncidentEntity.cs, IncidentGroupEntity.cs, MessageEntity.cs, CursorEntity.cs,
//! ChildEntity.cs, ComponentAffectingEntity.cs, AggregatedComponentAffectingEntity.cs, Utility.cs
//! and Manual/*.cs), and the job at commit 2760baae07f7e2cff2fabe694adaa3d06353d6b3 of
//! https://github.com/NuGet/NuGet.Jobs (src/StatusAggregator/Table/TableWrapper.cs,
//! TableWrapperExtensions.cs, TablePartitionKeys.cs, Factory/AggregationProvider.cs,
//! Export/ComponentExporter.cs, Export/EventsExporter.cs, Export/EventExporter.cs,
//! Update/AggregationEntityUpdater.cs, Collector/Cursor.cs,
//! Collector/ManualStatusChangeCollectorProcessor.cs, Manual/*Handler.cs). Both repositories
//! were later emptied when the code moved; these are the last commits that hold it.
//!
//! One table, one constant PartitionKey per kind of row (TablePartitionKeys maps each class to
//! its partition):
//! - `cursors`: RowKey = the cursor's name; Value (DateTime).
//! - `incidents`: RowKey = `{incident api id}_{component path}_{status}`, where the component
//!   path has its `/` dividers turned into `_` and the status is the ComponentStatus name.
//! - `groups` (incident groups) and `events`: RowKey = `{component path}_{start time "o"}`.
//!   Incidents, groups and events all store AffectedComponentPath, AffectedComponentStatus (int),
//!   StartTime, EndTime (null while active) and IsActive (EndTime == null, written as a
//!   property); incidents and groups also ParentRowKey (the RowKey of the group or event that
//!   aggregates them) and IsLinked.
//! - `messages`: RowKey = `{event RowKey}_{time "o"}`; ParentRowKey (the event's RowKey), Time,
//!   Contents, Type (int), IsLinked.
//! - `manual`: RowKey = a new GUID; Type (int) and the fields of one of six kinds of manual
//!   change (add, edit or delete an event or a message).
//!
//! Reads and writes (TableWrapper.CreateQuery adds `PartitionKey == <the class's partition>` to
//! every LINQ query, so every query stays in one partition):
//! - cursors: point read and InsertOrReplace by name.
//! - collecting: new incidents are InsertOrReplace'd; AggregationProvider looks for a group (for
//!   an incident) or an event (for a group) to link to with `AffectedComponentPath == path &&
//!   StartTime <= start` plus `IsActive`, or `IsActive || EndTime >= end` for an ended input,
//!   creating one (InsertOrReplace) when none fits.
//! - updating, each run: every active event (`IsActive`), then the groups whose ParentRowKey is
//!   that event, then the incidents whose ParentRowKey is each group, each ended child being
//!   Replace'd.
//! - exporting, each run: active events, and for each its messages (`ParentRowKey == event`) and
//!   its active groups; then every event that is active or ended within the visibility period,
//!   and again the messages of each.
//! - manual changes: `Timestamp > cursor` in `manual`; each handler point-reads the event or
//!   message by RowKey, inserts or replaces it, or deletes the event by its keys.
//! Nothing deletes incidents, groups, messages or manual changes; the partitions hold the whole
//! history of the status page.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

/// ComponentStatus, written by name into incident RowKeys and as an int in properties.
enum ComponentStatus {
    Up,
    Degraded,
    Down,
}

#[derive(TableEntity)]
#[table(name = "status", partition_key = "cursors", row_key = "{name}")]
#[table(rename_all = "PascalCase")]
struct CursorEntity {
    #[table(max_len = 100)]
    name: String,
    value: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "status", partition_key = "incidents", row_key = "{incident_api_id}_{component_key}_{status}")]
#[table(rename_all = "PascalCase")]
struct IncidentEntity {
    /// The id of the incident in the incident API.
    #[table(max_len = 32)]
    incident_api_id: String,
    /// AffectedComponentPath with `/` turned into `_` (ToRowKeySafeComponentPath).
    #[table(max_len = 200)]
    component_key: String,
    status: ComponentStatus,
    /// The RowKey of the group that aggregates it (empty until linked).
    parent_row_key: Option<String>,
    is_linked: bool,
    affected_component_path: String,
    affected_component_status: i32,
    start_time: OffsetDateTime,
    end_time: Option<OffsetDateTime>,
    is_active: bool,
}

#[derive(TableEntity)]
#[table(name = "status", partition_key = "groups", row_key = "{component_key}_{start_time:iso}")]
#[table(rename_all = "PascalCase")]
struct IncidentGroupEntity {
    #[table(max_len = 200)]
    component_key: String,
    start_time: OffsetDateTime,
    /// The RowKey of the event that aggregates it.
    parent_row_key: Option<String>,
    is_linked: bool,
    affected_component_path: String,
    affected_component_status: i32,
    end_time: Option<OffsetDateTime>,
    is_active: bool,
}

#[derive(TableEntity)]
#[table(name = "status", partition_key = "events", row_key = "{component_key}_{start_time:iso}")]
#[table(rename_all = "PascalCase")]
struct EventEntity {
    #[table(max_len = 200)]
    component_key: String,
    start_time: OffsetDateTime,
    affected_component_path: String,
    affected_component_status: i32,
    end_time: Option<OffsetDateTime>,
    is_active: bool,
}

#[derive(TableEntity)]
#[table(name = "status", partition_key = "messages", row_key = "{parent_row_key}_{time:iso}")]
#[table(rename_all = "PascalCase")]
struct MessageEntity {
    /// The event's RowKey, `{component path}_{start time}`; stored as ParentRowKey too.
    #[table(max_len = 240)]
    parent_row_key: String,
    time: OffsetDateTime,
    contents: String,
    /// MessageType as an int.
    #[table(rename = "Type")]
    kind: i32,
    is_linked: bool,
}

/// The six manual change classes share the partition and differ by Type and by which of these
/// properties they fill.
#[derive(TableEntity)]
#[table(name = "status", partition_key = "manual", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct ManualStatusChangeEntity {
    id: Uuid,
    /// ManualStatusChangeType as an int.
    #[table(rename = "Type")]
    kind: i32,
    event_affected_component_path: Option<String>,
    event_affected_component_status: Option<i32>,
    event_start_time: Option<OffsetDateTime>,
    message_timestamp: Option<OffsetDateTime>,
    message_contents: Option<String>,
    event_is_active: Option<bool>,
}

/// Cursor.Get / Cursor.Set.
async fn cursor<B: Backend>(
    cursors: &Table<'_, B, CursorEntity>,
    key: &<CursorEntity as TableEntity>::Key,
    value: &CursorEntity,
) {
    let _ = cursors.get(key).await;
    let _ = cursors.upsert(value).await;
}

/// AggregationProvider.GetAsync for an incident (groups) and for a group (events): the
/// aggregations of the same path that began no later, active or ending after the input.
async fn find_aggregation<B: Backend>(backend: &B, path: &str, start: &str, end: &str) {
    let active_group = Query::filter(&format!(
        "(PartitionKey eq 'groups') and ((AffectedComponentPath eq '{}') and (StartTime le datetime'{}')) and (IsActive eq true)",
        path, start
    ))
    .unwrap();
    let _ = backend.query_page("status", &active_group).await;
    let ended_group = Query::filter(&format!(
        "(PartitionKey eq 'groups') and ((AffectedComponentPath eq '{}') and (StartTime le datetime'{}')) and ((IsActive eq true) or (EndTime ge datetime'{}'))",
        path, start, end
    ))
    .unwrap();
    let _ = backend.query_page("status", &ended_group).await;
    let active_event = Query::filter(&format!(
        "(PartitionKey eq 'events') and ((AffectedComponentPath eq '{}') and (StartTime le datetime'{}')) and (IsActive eq true)",
        path, start
    ))
    .unwrap();
    let _ = backend.query_page("status", &active_event).await;
}

/// IncidentFactory / IncidentGroupFactory / EventFactory: new rows are InsertOrReplace'd.
async fn create_rows<B: Backend>(
    incidents: &Table<'_, B, IncidentEntity>,
    groups: &Table<'_, B, IncidentGroupEntity>,
    events: &Table<'_, B, EventEntity>,
    incident: &IncidentEntity,
    group: &IncidentGroupEntity,
    event: &EventEntity,
) {
    let _ = incidents.upsert(incident).await;
    let _ = groups.upsert(group).await;
    let _ = events.upsert(event).await;
}

/// ActiveEventEntityUpdater and AggregationEntityUpdater, every run: the active events, the
/// groups linked to each, the incidents linked to each group; ended rows are Replace'd.
async fn update_active<B: Backend>(
    backend: &B,
    events: &Table<'_, B, EventEntity>,
    groups: &Table<'_, B, IncidentGroupEntity>,
    event_row_key: &str,
    group_row_key: &str,
    event: &EventEntity,
    group: &IncidentGroupEntity,
) {
    let active = Query::filter("(PartitionKey eq 'events') and (IsActive eq true)").unwrap();
    let _ = backend.query_page("status", &active).await;
    let children = Query::filter(&format!(
        "(PartitionKey eq 'groups') and (ParentRowKey eq '{}')",
        event_row_key
    ))
    .unwrap();
    let _ = backend.query_page("status", &children).await;
    let linked_incidents = Query::filter(&format!(
        "(PartitionKey eq 'incidents') and (ParentRowKey eq '{}')",
        group_row_key
    ))
    .unwrap();
    let _ = backend.query_page("status", &linked_incidents).await;
    let _ = groups.replace(group, IfMatch::Any).await;
    let _ = events.replace(event, IfMatch::Any).await;
}

/// ComponentExporter, EventsExporter and EventExporter, every run.
async fn export<B: Backend>(backend: &B, event_row_key: &str, since: &str) {
    let active = Query::filter("(PartitionKey eq 'events') and (IsActive eq true)").unwrap();
    let _ = backend.query_page("status", &active).await;
    let messages = Query::filter(&format!(
        "(PartitionKey eq 'messages') and (ParentRowKey eq '{}')",
        event_row_key
    ))
    .unwrap();
    let _ = backend.query_page("status", &messages).await;
    let active_groups = Query::filter(&format!(
        "((PartitionKey eq 'groups') and (ParentRowKey eq '{}')) and (IsActive eq true)",
        event_row_key
    ))
    .unwrap();
    let _ = backend.query_page("status", &active_groups).await;
    let recent = Query::filter(&format!(
        "(PartitionKey eq 'events') and ((IsActive eq true) or (EndTime ge datetime'{}'))",
        since
    ))
    .unwrap();
    let _ = backend.query_page("status", &recent).await;
}

/// ManualStatusChangeCollectorProcessor and the manual change handlers.
async fn manual_changes<B: Backend>(
    backend: &B,
    events: &Table<'_, B, EventEntity>,
    messages: &Table<'_, B, MessageEntity>,
    cursor: &str,
    event_key: &<EventEntity as TableEntity>::Key,
    message_key: &<MessageEntity as TableEntity>::Key,
    event: &EventEntity,
    message: &MessageEntity,
) {
    let since = Query::filter(&format!(
        "(PartitionKey eq 'manual') and (Timestamp gt datetime'{}')",
        cursor
    ))
    .unwrap();
    let _ = backend.query_page("status", &since).await;
    let _ = events.get(event_key).await;
    let _ = events.insert(event).await;
    let _ = events.replace(event, IfMatch::Any).await;
    let _ = events.delete(event_key, IfMatch::Any).await;
    let _ = messages.get(message_key).await;
    let _ = messages.insert(message).await;
    let _ = messages.replace(message, IfMatch::Any).await;
}

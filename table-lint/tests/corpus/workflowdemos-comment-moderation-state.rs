//! WorkflowDemos (C#, Azure.Data.Tables): one comment-moderation workflow (AI review, then a
//! human's approval when the AI is unsure) built on seven workflow engines, which all keep each
//! comment's state in one shared table, `WorkflowEntities`, shown by a moderation portal.
//! Sources at commit cf8019e6077db3a64939557caf4b67112be91041 of https://github.com/juunas11/WorkflowDemos:
//! https://github.com/juunas11/WorkflowDemos/blob/cf8019e6077db3a64939557caf4b67112be91041/src/WorkflowDemos/WorkflowDemos.Shared.DataStorage/TableStorageService.cs
//! with WorkflowDemos.Shared.DataStorage/CommentEntity.cs, the engines' steps (for example
//! WorkflowDemos.DurableFunctions/ContentModerationWorkflowFunctions.cs,
//! WorkflowDemos.MassTransit/Consumers/*.cs, WorkflowDemos.Temporal/ContentModerationActivities.cs,
//! WorkflowDemos.LogicApps/manual-moderation.json) and
//! WorkflowDemos.Web.ModerationPortal/Pages/Index.cshtml.cs.
//!
//! Row: PartitionKey = the engine's name (`DurableFunctions`, `Elsa`, `MassTransit`,
//! `NServiceBus`, `Temporal`, `LogicApps`, `PowerAutomate`, each a constant of its project),
//! RowKey = the comment id (a GUID's text); properties Comment, State (ModerationState:
//! PendingAiReview, ApprovedByAi, PendingHumanReview, ApprovedByHuman, Rejected) and
//! ManualApprovalWorkflowId. The first step adds the row (AddEntityAsync); every later step
//! reads it by both keys and replaces it with its ETag. The portal's index page reads the whole
//! table (QueryAsync with no filter) and sorts it by Timestamp, newest first, in memory; its
//! approve and reject buttons route by the row's PartitionKey to the engine. Rows are never
//! deleted.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

/// The engines, one constant per project.
enum Engine {
    DurableFunctions,
    Elsa,
    MassTransit,
    NServiceBus,
    Temporal,
    LogicApps,
    PowerAutomate,
}

/// `ModerationState`, stored as its number.
enum ModerationState {
    PendingAiReview,
    ApprovedByAi,
    PendingHumanReview,
    ApprovedByHuman,
    Rejected,
}

#[derive(TableEntity)]
#[table(name = "WorkflowEntities", partition_key = "{engine}", row_key = "{comment_id}")]
#[table(rename_all = "PascalCase")]
struct CommentEntity {
    engine: Engine,
    /// The comment's id, a GUID's text.
    #[table(max_len = 36)]
    comment_id: String,
    comment: String,
    state: ModerationState,
    manual_approval_workflow_id: Option<String>,
}

/// The first step of every engine: `AddEntityAsync`.
async fn store_initial_state<B: Backend>(comments: &Table<'_, B, CommentEntity>, row: &CommentEntity) {
    let _ = comments.insert(row).await;
}

/// Every later step: `GetEntityAsync(engine, commentId)`, then `UpdateEntityAsync(entity,
/// entity.ETag, Replace)`.
async fn set_state<B: Backend>(
    comments: &Table<'_, B, CommentEntity>,
    key: &<CommentEntity as TableEntity>::Key,
    changed: &CommentEntity,
    etag: table_runtime::ETag,
) {
    let _ = comments.get(key).await;
    let _ = comments.replace(changed, IfMatch::ETag(etag)).await;
}

/// The portal's index page: `QueryAsync<CommentEntity>()`, every row, sorted in memory.
async fn all_comments<B: Backend>(comments: &Table<'_, B, CommentEntity>) {
    let _ = comments.query_page(&Query::all(), None).await;
}

//! DurableFunctions-AzureNights (C#, WindowsAzure.Storage and the Functions table binding): a
//! Durable Functions approval workflow sample by Paco de la Cruz. An approval request (a blob
//! whose name carries the applicant, or an Event Grid event) starts an orchestration; the
//! WorkflowCorrelations table maps the applicant id to the orchestration's instance id so that
//! a status API can find the workflow from the business id. Sources, at commit
//! e2dde0e935680fdb364d0af186d8e2584ee54c58 of https://github.com/pacodelacruz/DurableFunctions-AzureNights:
//! https://github.com/pacodelacruz/DurableFunctions-AzureNights/blob/e2dde0e935680fdb364d0af186d8e2584ee54c58/src/PacodelaCruz.DurableFunctions.Approval/PersistWorkflowCorrelation.cs
//! with GetApprovalStatus.cs, OrchestrateRequestApproval.cs, TriggerApprovalByBlob.cs and
//! Models/WorkflowCorrelationEntity.cs, Models/WorkflowCorrelationTableRecord.cs beside them.
//!
//! Table WorkflowCorrelations. PartitionKey = the constant `ApprovalWorkflow` (the workflow
//! type), RowKey = the applicant id (`unknown` when the blob name carries none); property
//! InstanceId. The activity PersistWorkflowCorrelation first retrieves
//! (ApprovalWorkflow, applicantId); if a row exists it uses the RowKey
//! `{applicantId}_{DateTime.Now.ToString("yyyyMMddTHHmmssfff")}` instead, and the function's
//! table output binding inserts the row. GetApprovalStatus retrieves
//! (ApprovalWorkflow, applicantId) and answers with the orchestration's status URLs for its
//! InstanceId. Nothing queries, updates or deletes.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "WorkflowCorrelations", partition_key = "ApprovalWorkflow", row_key = "{entity_id}")]
#[table(rename_all = "PascalCase")]
struct WorkflowCorrelation {
    /// The applicant id, from the blob name or the event.
    entity_id: String,
    /// The orchestration's instance id.
    instance_id: String,
}

/// The row written when the applicant already has one: the id and the local time.
#[derive(TableEntity)]
#[table(name = "WorkflowCorrelations", partition_key = "ApprovalWorkflow", row_key = "{entity_id}_{at:yyyyMMddTHHmmssfff}")]
#[table(rename_all = "PascalCase")]
struct ResubmittedWorkflowCorrelation {
    entity_id: String,
    /// `DateTime.Now`, written `yyyyMMddTHHmmssfff`; only in the RowKey.
    #[table(key_only)]
    at: OffsetDateTime,
    instance_id: String,
}

/// PersistWorkflowCorrelation: is the applicant's id taken? Then the output binding's insert
/// of the first row or of a timestamped one.
async fn persist<B: Backend>(
    first: &Table<'_, B, WorkflowCorrelation>,
    again: &Table<'_, B, ResubmittedWorkflowCorrelation>,
    key: &<WorkflowCorrelation as TableEntity>::Key,
    row: &WorkflowCorrelation,
    timestamped: &ResubmittedWorkflowCorrelation,
) {
    if let Ok(Some(_)) = first.get(key).await {
        let _ = again.insert(timestamped).await;
    } else {
        let _ = first.insert(row).await;
    }
}

/// GetApprovalStatus: Retrieve(ApprovalWorkflow, applicantId).
async fn approval_status<B: Backend>(
    correlations: &Table<'_, B, WorkflowCorrelation>,
    key: &<WorkflowCorrelation as TableEntity>::Key,
) {
    let _ = correlations.get(key).await;
}

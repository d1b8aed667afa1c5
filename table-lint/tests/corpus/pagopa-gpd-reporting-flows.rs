//! pagopa-gpd-reporting (Java Azure Functions, com.microsoft.azure.storage): the flows table,
//! the list of reporting flows (flussi di rendicontazione) each creditor organisation has
//! received. Writer, at commit e56596037686918372a9e5ba1b6d02baceef6650:
//! https://github.com/pagopa/pagopa-gpd-reporting-batch/blob/e56596037686918372a9e5ba1b6d02baceef6650/src/main/java/it/gov/pagopa/reporting/service/FlowsService.java
//! (with entity/FlowEntity.java); reader, at commit e2c813ab9cb991adcb267d9c3e19587c76f63135:
//! https://github.com/pagopa/pagopa-gpd-reporting-analysis/blob/e2c813ab9cb991adcb267d9c3e19587c76f63135/src/main/java/it/gov/pagopa/reporting/service/FlowsService.java
//! (with GetFlowList.java and entity/FlowEntity.java).
//!
//! FlowEntity has PartitionKey = idPA (the organisation's fiscal code), RowKey =
//! identificativoFlusso (the flow id) and one property FlowDate =
//! `dataOraFlusso.toString()` (an xsd:dateTime in text). For each organisation the batch asks
//! the node for its flow list and inserts the flows in TableBatchOperations of `batchSize`
//! (2) inserts; if a batch fails (a flow already stored) it inserts the flows of that batch one
//! by one, logging the conflicts. Each stored group is also sent on a queue. GetFlowList
//! (`GET organizations/{organizationId}/reportings[?flowDate=yyyy-MM-dd]`) queries
//! `PartitionKey eq org`, and with a flowDate adds `FlowDate ge 'dayT0' and FlowDate le 'dayT3'`
//! to keep one day's flows. Nothing deletes.

use table_runtime::{Backend, BatchOperation, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "flows", partition_key = "{organization_id}", row_key = "{flow_id}")]
#[table(rename_all = "PascalCase")]
struct FlowEntity {
    /// idPA.
    organization_id: String,
    /// identificativoFlusso.
    flow_id: String,
    /// dataOraFlusso as text (`2023-01-12T10:11:05`).
    flow_date: String,
}

/// GetFlowList without a flowDate: every flow of the organisation.
fn flows_of(organization_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", organization_id)).unwrap()
}

/// GetFlowList with a flowDate: the day's flows, tested on the FlowDate text.
fn flows_of_day(organization_id: &str, day: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and FlowDate ge '{}T0' and FlowDate le '{}T3'",
        organization_id, day, day
    ))
    .unwrap()
}

async fn list<B: Backend>(flows: &Table<'_, B, FlowEntity>, organization_id: &str, day: Option<&str>) {
    let q = match day {
        Some(d) => flows_of_day(organization_id, d),
        None => flows_of(organization_id),
    };
    let _ = flows.query_all(&q).await;
}

/// flowsBatchProcessing, then flowProcessing per flow when the batch fails.
async fn store<B: Backend>(backend: &B, flows: &Table<'_, B, FlowEntity>, group: &[FlowEntity]) {
    let ops: Vec<BatchOperation> = group
        .iter()
        .map(|f| BatchOperation::Insert(f.to_entity().unwrap()))
        .collect();
    if backend.execute_batch(FlowEntity::TABLE, ops).await.is_err() {
        for f in group {
            let _ = flows.insert(f).await;
        }
    }
}

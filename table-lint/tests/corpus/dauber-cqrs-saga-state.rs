//! Dauber.Cqrs.Azure.Saga (C#, WindowsAzure.Storage), the saga state repository of the Dauber
//! CQRS libraries: one row holds the serialized state of one running saga. Source (commit
//! f8e374cc647eef762a70045635077f7b5fa2e95c of https://github.com/travismartinjones/Dauber.Azure):
//! https://github.com/travismartinjones/Dauber.Azure/blob/f8e374cc647eef762a70045635077f7b5fa2e95c/Dauber.Cqrs.Azure.Saga/SagaStateRepository.cs
//!
//! Table `Sagas`. PartitionKey is the saga's correlation id (`Guid.ToString()`, hyphenated);
//! RowKey is the full .NET type name of the state object (`Acme.Billing.InvoiceSagaState`); the
//! state is BSON in the payload column(s) of `BsonPayloadTableEntity`, refused above about 960 KB.
//! Read(correlationId) and Delete(correlationId) query `PartitionKey eq '<id>'`, follow every
//! page and take the first row (Delete then deletes that row with its ETag); Create inserts;
//! Update upserts (InsertOrReplace), no ETag.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Sagas", partition_key = "{correlation_id}", row_key = "{state_type}")]
struct SagaState {
    correlation_id: Uuid,
    /// `state.GetType().FullName`.
    state_type: String,
    /// The BSON-serialized state.
    data: Vec<u8>,
}

/// Read: the saga's partition, every page; the first row is the state.
async fn read<B: Backend>(sagas: &Table<'_, B, SagaState>, correlation_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", correlation_id)).unwrap();
    let _ = sagas.query_all(&q).await;
}

/// Create: Insert.
async fn create<B: Backend>(sagas: &Table<'_, B, SagaState>, state: &SagaState) {
    let _ = sagas.insert(state).await;
}

/// Update: InsertOrReplace, unconditional.
async fn update<B: Backend>(sagas: &Table<'_, B, SagaState>, state: &SagaState) {
    let _ = sagas.upsert(state).await;
}

/// Delete: read the partition as in `read`, then delete the first row.
async fn delete<B: Backend>(sagas: &Table<'_, B, SagaState>, correlation_id: &str, state: &SagaState) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", correlation_id)).unwrap();
    let _ = sagas.query_all(&q).await;
    let _ = sagas.delete_value(state, IfMatch::Any).await;
}

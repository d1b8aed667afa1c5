//! Rebus.AzureTables: the saga storage of the Rebus service bus on Azure Table Storage. Source:
//! https://github.com/rebus-org/Rebus.AzureTables/blob/699c34c33ab85c1842dda5ddab8c28c8d23f20b3/Rebus.AzureTables/AzureTables/Sagas/TableStorageSagaStorage.cs
//! with Sagas/TableClientFactory.cs and README.md at the same commit.
//!
//! `StoreInAzureTables(connectionString, "tableName")` stores every saga type in that one table
//! (a table per type only when the application registers one). Each saga instance is a row with
//! PartitionKey `"Saga"` (a constant), RowKey `sagaData.Id.ToString()`, and properties
//! `SagaData` (the JSON), `SagaId`, `Revision` and each correlation property, all as text.
//! Find(type, property, value) queries `{property} eq '{value}'`, with `RowKey` for the `Id`
//! property, selecting `SagaData` with `maxPerPage: 1`. Insert adds the row; Update reads the
//! row (Revision, ETag), then replaces it conditioned on that ETag; Delete reads, then deletes.
//! Two example saga types of one application stand for the saga types sharing the table.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "RebusSagas", partition_key = "Saga", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct OrderSagaRow {
    /// `ISagaData.Id`, a new GUID per saga instance (the original keeps it in the RowKey and
    /// `SagaId`).
    id: Uuid,
    /// The saga data as JSON.
    saga_data: String,
    /// `Id.ToString()`.
    saga_id: String,
    /// `Revision.ToString()`.
    revision: String,
    /// The correlation property, `ToString()` of the value.
    order_id: String,
}

#[derive(TableEntity)]
#[table(name = "RebusSagas", partition_key = "Saga", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct PaymentSagaRow {
    id: Uuid,
    saga_data: String,
    saga_id: String,
    revision: String,
    /// Correlated on the same property name as the order saga.
    order_id: String,
}

/// Find(sagaDataType, "Id", id): the RowKey alone, one row per page.
fn find_by_id(id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", id))
        .unwrap()
        .select(["SagaData"])
        .top(1)
}

/// Find(sagaDataType, "OrderId", value): the correlation property alone, one row per page.
fn find_by_order_id(order_id: &str) -> Query {
    Query::filter(&format!("OrderId eq '{}'", order_id))
        .unwrap()
        .select(["SagaData"])
        .top(1)
}

/// Update: a point read of Revision and the ETag, then a replace conditioned on that ETag.
fn current_revision(id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'Saga' and RowKey eq '{}'", id))
        .unwrap()
        .select(["Revision"])
}

/// Insert, Update and Delete.
async fn insert_update_delete<B: Backend>(
    sagas: &Table<'_, B, OrderSagaRow>,
    saga: &OrderSagaRow,
    etag: table_runtime::ETag,
    key: &<OrderSagaRow as TableEntity>::Key,
) {
    let _ = sagas.insert(saga).await;
    let _ = sagas.replace(saga, IfMatch::ETag(etag)).await;
    let _ = sagas.delete(key, IfMatch::Any).await;
}

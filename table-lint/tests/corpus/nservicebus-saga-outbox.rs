//! NServiceBus.Persistence.AzureTable: saga data and outbox records sharing a partition.
//! Source: https://github.com/Particular/NServiceBus.Persistence.AzureTable/blob/e423b34f4d19542a0d5e597fd39405de0161cb3f/src/NServiceBus.Persistence.AzureTable/SagaPersisters/AzureSagaPersister.cs
//! and src/NServiceBus.Persistence.AzureTable/Outbox/OutboxPersister.cs.
//!
//! Saga data: PartitionKey = the `TableEntityPartitionKey` the message handler provides, or
//! the saga id; RowKey = the saga id (deterministic from the correlation property, so a lookup
//! by correlation value is a point read). Outbox record: same PartitionKey, RowKey
//! `{endpointName}_{messageId}`. The handler's saga and outbox writes are one transactional
//! batch in that partition. All reads are point reads.

use table_runtime::TableEntity;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "OrderSagaData", partition_key = "{partition_key}", row_key = "{saga_id}")]
struct OrderSagaData {
    /// The handler-provided partition key (for example the order id), or the saga id.
    partition_key: String,
    #[table(rename = "Id")]
    saga_id: Uuid,
    #[table(rename = "Originator")]
    originator: Option<String>,
    #[table(rename = "OriginalMessageId")]
    original_message_id: Option<String>,
    /// The correlation property.
    #[table(rename = "OrderId")]
    order_id: String,
}

#[derive(TableEntity)]
#[table(name = "OrderSagaData", partition_key = "{partition_key}", row_key = "{endpoint_name}_{message_id}")]
struct OutboxRecord {
    partition_key: String,
    endpoint_name: String,
    message_id: String,
    #[table(rename = "Dispatched")]
    dispatched: bool,
    #[table(rename = "DispatchedAt")]
    dispatched_at: Option<String>,
    #[table(rename = "TransportOperations")]
    transport_operations: String,
}

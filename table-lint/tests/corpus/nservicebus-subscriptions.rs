//! NServiceBus.Persistence.AzureTable subscription storage: who subscribes to which event type.
//! Source: https://github.com/Particular/NServiceBus.Persistence.AzureTable/blob/e423b34f4d19542a0d5e597fd39405de0161cb3f/src/NServiceBus.Persistence.AzureTable/Subscriptions/AzureSubscriptionStorage.cs
//!
//! PartitionKey = `messageType.ToString()` (`Namespace.Type, Version=1.0.0`), RowKey = Base64 of
//! the subscriber's transport address (ASCII). Publishing reads every version of a type as a
//! PartitionKey range `[TypeName, "TypeName, Version=z")`, cached in memory.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Subscription", partition_key = "{message_type}", row_key = "{address_base64}")]
struct Subscription {
    /// `TypeName, Version=x.y.z`.
    message_type: String,
    /// `Convert.ToBase64String(Encoding.ASCII.GetBytes(transportAddress))`.
    address_base64: String,
    #[table(rename = "EndpointName")]
    endpoint_name: String,
}

/// GetSubscriptions for one message type name.
fn subscribers_of(type_name: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey ge '{}') and (PartitionKey lt '{}, Version=z')",
        type_name, type_name
    ))
    .unwrap()
}

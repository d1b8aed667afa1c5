//! Campfire (Go, aztables): the Azure Table Storage backend of the campfire agent-messaging
//! protocol, used by the hosted MCP server (cf-mcp on Azure Container Apps) and the Functions
//! app; here its messages table. Sources (commit 357c02a729b10e2ed444f823caf9ffb08f1c7faf of
//! https://github.com/campfire-net/campfire):
//! https://github.com/campfire-net/campfire/blob/357c02a729b10e2ed444f823caf9ffb08f1c7faf/pkg/store/aztable/aztable.go,
//! pkg/message/message.go, pkg/protocol/await.go, pkg/metering/metering.go and cmd/cf-mcp/main.go.
//!
//! `CampfireMessages`: PartitionKey = `encodeKey(namespace + "|" + campfireID)` in the hosted,
//! per-session namespaced store (`|` is encoded as `x7c`; without a namespace it is the campfire
//! id alone), RowKey = `encodeKey(message.ID)`, a `uuid.New()`. AddMessage reads the row, then
//! `AddEntity`s it (payload and signature chunked into properties). ListMessages reads the
//! campfire's partition and filters by timestamp, tags and sender in memory (also behind
//! MaxMessageTimestamp and ListCompactionEvents). HasMessage and GetMessage only know the message
//! id: `PartitionKey ge '<ns>x7c' and PartitionKey lt '<ns>x7d' and RowKey eq '<id>'`;
//! GetMessageByPrefix reads the namespace's range and compares ids in memory.
//! ListReferencingMessages (behind Await's polling for a fulfilment) reads the table with no
//! filter. GarbageCollectZeroBalance lists every message (`ListMessagesOlderThan(ctx, "", …)`,
//! no filter), keeps those received before the cutoff and deletes them one by one.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "CampfireMessages", partition_key = "{namespace}x7c{campfire_id}", row_key = "{message_id}")]
#[table(rename_all = "PascalCase")]
struct MessageRow {
    /// The session's internal id (letters, digits and hyphens).
    namespace: String,
    /// The campfire's public key, hex.
    #[table(rename = "CampfireID")]
    campfire_id: String,
    /// `uuid.New().String()`.
    #[table(rename = "MessageID")]
    message_id: Uuid,
    sender: String,
    /// JSON.
    tags: String,
    /// JSON: the ids of the messages this one answers.
    antecedents: String,
    /// JSON.
    provenance: String,
    /// Nanoseconds.
    received_at: i64,
    instance: String,
    #[table(rename = "SenderCampfireID")]
    sender_campfire_id: String,
    /// The payload's first chunk (≤ 24 KB each, `Payload0`, `Payload1`, …), base64 text as
    /// json.Marshal writes a `[]byte`.
    payload0: String,
    payload_chunk_count: i64,
    signature0: String,
    signature_chunk_count: i64,
}

/// ListMessages(campfireID, …): the campfire's partition, filtered in memory.
fn messages_of(pk: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", pk)).unwrap()
}

/// HasMessage(id) / GetMessage(id): the namespace's partitions, by RowKey.
fn message(ns_lo: &str, ns_hi: &str, id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey ge '{}' and PartitionKey lt '{}' and RowKey eq '{}'",
        ns_lo, ns_hi, id
    ))
    .unwrap()
}

/// GetMessageByPrefix(prefix): the namespace's partitions, ids compared in memory.
fn namespace_messages(ns_lo: &str, ns_hi: &str) -> Query {
    Query::filter(&format!("PartitionKey ge '{}' and PartitionKey lt '{}'", ns_lo, ns_hi)).unwrap()
}

/// ListReferencingMessages(messageID): every message, antecedents compared in memory; Await
/// calls it on each poll.
fn referencing_messages() -> Query {
    Query::all()
}

/// AddMessage: GetEntity, then AddEntity.
async fn add_message<B: Backend>(messages: &Table<'_, B, MessageRow>, row: &MessageRow) {
    let _ = messages.insert(row).await;
}

/// GarbageCollectZeroBalance: every message read, the old ones of campfires with no balance
/// deleted one at a time.
async fn garbage_collect<B: Backend>(backend: &B) {
    let page = backend.query_page(MessageRow::TABLE, &Query::all()).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                MessageRow::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}

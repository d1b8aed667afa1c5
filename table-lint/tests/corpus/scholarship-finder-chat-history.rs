//! Scholarship_Finder (TypeScript, @azure/data-tables, Azure Functions): an assistant that helps
//! Indian students find scholarships; its table storage module keeps the chat history and two
//! admin-maintained catalogues. Sources, at commit debb6d143eed4079cbbb39f22741b85f3d3692b3:
//! https://github.com/mskrishnakumar/Scholarship_Finder/blob/debb6d143eed4079cbbb39f22741b85f3d3692b3/api/src/shared/tableStorage.ts
//! with api/src/functions/chat.ts (the writer of the history), api/src/shared/scholarshipData.ts
//! and api/src/shared/scholarshipEmbedding.ts (the catalogue callers).
//!
//! ChatHistory: PartitionKey `${userId}_${conversationId}`, RowKey a `randomUUID()` message id;
//! properties role, content, timestamp (ISO text), userId, conversationId. The chat endpoint
//! takes userId (default `anonymous`) and conversationId (default a new UUID) from the request
//! body and inserts the user's message and then the assistant's reply, one createEntity each.
//! getConversation reads `PartitionKey eq '…'` and sorts the messages by timestamp in memory;
//! listConversations reads `userId eq '…'` selecting conversationId, with no PartitionKey
//! condition. PrivateScholarships: PartitionKey `scholarship`, RowKey the scholarship's id,
//! `data` the scholarship as JSON; upserted (Replace), deleted by id, and loaded whole with
//! `PartitionKey eq 'scholarship'` whenever the scholarship list is needed. Embeddings: the same
//! with PartitionKey `embedding` and the embedding record (an ada-002 vector and its text hash)
//! as JSON.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "ChatHistory", partition_key = "{user_id}_{conversation_id}", row_key = "{message_id}")]
#[table(rename_all = "camelCase")]
struct ChatMessage {
    /// From the request body, `anonymous` when absent.
    #[table(max_len = 128)]
    user_id: String,
    /// From the request body, or a new UUID.
    #[table(max_len = 128)]
    conversation_id: String,
    /// `randomUUID()`.
    message_id: Uuid,
    /// `user` or `assistant`.
    #[table(max_len = 16)]
    role: String,
    content: String,
    /// `new Date().toISOString()`, stored as text.
    #[table(max_len = 24)]
    timestamp: String,
}

#[derive(TableEntity)]
#[table(name = "PrivateScholarships", partition_key = "scholarship", row_key = "{id}")]
#[table(rename_all = "camelCase")]
struct PrivateScholarship {
    #[table(max_len = 128)]
    id: String,
    /// The scholarship as JSON.
    data: String,
}

#[derive(TableEntity)]
#[table(name = "Embeddings", partition_key = "embedding", row_key = "{id}")]
#[table(rename_all = "camelCase")]
struct Embedding {
    /// The scholarship's id.
    #[table(max_len = 128)]
    id: String,
    /// The embedding record as JSON.
    data: String,
}

/// getConversation: one conversation's partition, sorted by `timestamp` in memory.
fn conversation(user_id: &str, conversation_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}_{}'", user_id, conversation_id)).unwrap()
}

/// getConversation's sort of what the read returned: by the ISO `timestamp` text.
fn in_time_order(messages: &mut [ChatMessage]) {
    messages.sort_by(|a, b| a.timestamp.cmp(&b.timestamp));
}

/// listConversations: every message of the user, over the whole table, for the distinct
/// conversation ids.
fn conversations_of(user_id: &str) -> Query {
    Query::filter(&format!("userId eq '{}'", user_id))
        .unwrap()
        .select(["conversationId"])
}

/// loadPrivateScholarshipsFromTable and loadEmbeddingsFromTable: each catalogue whole.
fn all_scholarships() -> Query {
    Query::filter("PartitionKey eq 'scholarship'").unwrap()
}

fn all_embeddings() -> Query {
    Query::filter("PartitionKey eq 'embedding'").unwrap()
}

/// chat: the question and the answer, two createEntity calls.
async fn save_exchange<B: Backend>(history: &Table<'_, B, ChatMessage>, question: &ChatMessage, answer: &ChatMessage) {
    let _ = history.insert(question).await;
    let _ = history.insert(answer).await;
}

/// The catalogue writes: upsertEntity(…, 'Replace') and deleteEntity by id.
async fn catalogue_writes<B: Backend>(
    scholarships: &Table<'_, B, PrivateScholarship>,
    embeddings: &Table<'_, B, Embedding>,
    scholarship: &PrivateScholarship,
    embedding: &Embedding,
    scholarship_key: &<PrivateScholarship as TableEntity>::Key,
    embedding_key: &<Embedding as TableEntity>::Key,
) {
    let _ = scholarships.upsert(scholarship).await;
    let _ = scholarships.delete(scholarship_key, IfMatch::Any).await;
    let _ = embeddings.upsert(embedding).await;
    let _ = embeddings.delete(embedding_key, IfMatch::Any).await;
}

//! LlamaIndex `AzureChatStore` (Python, azure-data-tables): chat histories of LLM applications.
//! Source:
//! https://github.com/run-llama/llama_index/blob/c74be367384ab67a77c3f74fc4c4fd1dcd50a920/llama-index-integrations/storage/chat_store/llama-index-storage-chat-store-azure/llama_index/storage/chat_store/azure/base.py
//!
//! Two tables. `ChatMessages`: PartitionKey = the chat's key (the application's session or user
//! id), RowKey = `f"{idx:010}"`, the message's position; `add_message` creates the row,
//! `set_messages` deletes a chat's rows and creates the new ones in one transaction, and
//! `get_messages`/`delete_messages` read the chat's partition. `ChatMetadata`: PartitionKey =
//! `metadata_partition_key`, which defaults to the (sanitized) chat table name, the same for
//! every chat; RowKey = the chat's key; properties `LastMessageRowKey` and `MessageCount`.
//! `add_message` reads that row for the next index and upserts it again after every message;
//! `get_keys` lists every chat by reading the metadata partition.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "ChatMessages", partition_key = "{key}", row_key = "{index:010}")]
struct ChatMessageRow {
    /// The chat's key, chosen by the application.
    key: String,
    /// The message's position in the chat.
    index: u32,
    role: String,
    content: Option<String>,
    /// `additional_kwargs`, serialized.
    additional_kwargs: String,
}

#[derive(TableEntity)]
#[table(name = "ChatMetadata", partition_key = "ChatMessages", row_key = "{key}")]
#[table(rename_all = "PascalCase")]
struct ChatMetadata {
    key: String,
    /// `_to_row_key(MessageCount - 1)`.
    last_message_row_key: String,
    message_count: i32,
}

/// aget_messages(key) / adelete_messages(key): the chat's partition.
fn messages_of(key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", key)).unwrap()
}

/// aget_keys(): every chat's metadata row, in the single metadata partition.
fn all_chat_keys() -> Query {
    Query::filter("PartitionKey eq 'ChatMessages'").unwrap()
}

/// add_message: `create_entity` of the message, then `upsert_entity` (merge) of the metadata.
async fn add_message<B: Backend>(
    messages: &Table<'_, B, ChatMessageRow>,
    metadata: &Table<'_, B, ChatMetadata>,
    message: &ChatMessageRow,
    count: &ChatMetadata,
) {
    let _ = messages.insert(message).await;
    let _ = metadata.upsert(count).await;
}

//! NLWeb ask agent (Python, azure-data-tables aio): the Azure Table backend of the conversation
//! history. Sources (commit 6b32dee4637084ad683ed694d2d9ebcd4246604d of
//! https://github.com/nlweb-ai/nlweb-ask-agent):
//! ask_api/packages/core/nlweb_core/conversation/backends/azure_table.py and
//! ask_api/packages/core/nlweb_core/conversation_saver.py.
//!
//! Table `conversations` (configurable). One entity per conversation turn: PartitionKey = the
//! user id (`metadata['user_id']`, `'anonymous'` when missing, but the saver only stores turns of
//! identified users who asked to be remembered), RowKey = `f"{conversation_id}_{timestamp:%Y%m%d%H%M%S%f}"`
//! (the conversation id is a uuid4 unless the client sends one). Properties: message_id,
//! conversation_id, timestamp (ISO text), request and results (JSON), metadata (JSON), site.
//! store_message is `create_entity`. get_messages(conversation_id) and
//! delete_conversation(conversation_id) filter `conversation_id eq '…'` over the table (the
//! interface passes no user); get_user_conversations(user_id) reads the user's partition, selecting
//! conversation_id and timestamp, and keeps the 20 most recent conversations in memory.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "conversations", partition_key = "{user_id}", row_key = "{conversation_id}_{turn_at:%Y%m%d%H%M%S%f}")]
struct ConversationTurn {
    /// `meta.user['id']`; not stored as a property of its own.
    #[table(rename = "user_id")]
    user_id: String,
    /// A uuid4 by default.
    conversation_id: String,
    /// `message.timestamp`, kept only in the RowKey, as `%Y%m%d%H%M%S%f`.
    #[table(rename = "turn_at", key_only)]
    turn_at: OffsetDateTime,
    message_id: Uuid,
    /// The same instant as ISO text.
    timestamp: String,
    /// JSON of the AskRequest.
    request: String,
    /// JSON of the ranked results.
    results: Option<String>,
    /// JSON of the metadata.
    metadata: Option<String>,
    site: Option<String>,
}

/// get_messages(conversation_id): "cross-partition query", the first `limit` rows kept.
fn messages(conversation_id: &str) -> Query {
    Query::filter(&format!("conversation_id eq '{}'", conversation_id))
        .unwrap()
        .select([
            "PartitionKey",
            "RowKey",
            "message_id",
            "conversation_id",
            "timestamp",
            "request",
            "results",
            "metadata",
            "site",
        ])
}

/// get_user_conversations(user_id): the whole user partition.
fn user_conversations(user_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", user_id))
        .unwrap()
        .select(["conversation_id", "timestamp"])
}

/// store_message: `create_entity`.
async fn store_message<B: Backend>(turns: &Table<'_, B, ConversationTurn>, turn: &ConversationTurn) {
    let _ = turns.insert(turn).await;
}

/// delete_conversation(conversation_id): the scan, then one `delete_entity` per row.
async fn delete_conversation<B: Backend>(backend: &B, conversation_id: &str) {
    let rows = Query::filter(&format!("conversation_id eq '{}'", conversation_id))
        .unwrap()
        .select(["PartitionKey", "RowKey"]);
    let page = backend.query_page(ConversationTurn::TABLE, &rows).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                ConversationTurn::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}

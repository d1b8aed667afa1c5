//! azure-webpubsub (Python, azure-data-tables): the message store of the AI chat demo, a
//! multi-room chat whose history can live in Azure Tables (AzureTableRoomStore). Source, at commit
//! 94a4d9f22cbd0299aed1ef3d122ea97772fd4c99:
//! https://github.com/Azure/azure-webpubsub/blob/94a4d9f22cbd0299aed1ef3d122ea97772fd4c99/samples/ai/chat-demo/python_server/core/room_store/azure_table.py
//! with core/chat_api.py, chat_handlers.py and chat_service/transports/{self_host,webpubsub}.py.
//!
//! Table `chatmessages` (CHAT_TABLE_NAME): PartitionKey = the room id, RowKey =
//! `datetime.now(timezone.utc).isoformat()` + `_` + six random lowercase letters or digits;
//! properties messageId, type, fromUser, text, ts copied from the event. Each message is a merge
//! upsert. get_room_messages (the room's history, on joining a room and from
//! GET /api/rooms/<id>/messages with a limit of at most 200 by default) queries
//! `PartitionKey eq '<room>'`, sorts the rows by RowKey and keeps the last `limit`. list_rooms
//! (the transports' room list) pages through `list_entities` (the whole table, 1000 a page) to
//! gather the PartitionKeys and count the rows of each.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "chatmessages", partition_key = "{room}", row_key = "{at:%Y-%m-%dT%H:%M:%S.%f}+00:00_{suffix}")]
struct ChatMessage {
    /// The room id; only in the PartitionKey.
    #[table(key_only)]
    room: String,
    /// The server's clock at the write; only in the RowKey.
    #[table(key_only)]
    at: OffsetDateTime,
    /// Six random characters of `[a-z0-9]`.
    #[table(key_only, max_len = 6)]
    suffix: String,
    #[table(rename = "messageId")]
    message_id: Option<String>,
    #[table(rename = "type")]
    kind: Option<String>,
    #[table(rename = "fromUser")]
    from_user: Option<String>,
    text: Option<String>,
    /// The event's own timestamp, as the client sent it.
    ts: Option<String>,
}

/// record_room_event / append_message: `upsert_entity(entity, mode=MERGE)`.
async fn append<B: Backend>(messages: &Table<'_, B, ChatMessage>, message: &ChatMessage) {
    let _ = messages.upsert_merge(message).await;
}

/// get_room_messages(room, limit): the whole room, sorted by RowKey, the last `limit` kept.
async fn room_history<B: Backend>(messages: &Table<'_, B, ChatMessage>, room: &str, limit: usize) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", room)).unwrap();
    if let Ok(mut rows) = messages.query_all(&q).await {
        rows.sort_by_key(|r| r.at);
        let keep = rows.len().saturating_sub(limit);
        let _last = rows.split_off(keep);
    }
}

/// list_rooms: `list_entities(results_per_page=1000)`, every message of every room, to collect
/// the room names and count their messages.
async fn list_rooms<B: Backend>(messages: &Table<'_, B, ChatMessage>) {
    if let Ok(rows) = messages.query_all(&Query::all()).await {
        let _rooms = rows.len();
    }
}

//! azure-webpubsub (Python, azure-data-tables): the room metadata of the AI chat demo
//! (AzureTableRoomStore's second table), the rooms each user has created. Source, at commit
//! 94a4d9f22cbd0299aed1ef3d122ea97772fd4c99:
//! https://github.com/Azure/azure-webpubsub/blob/94a4d9f22cbd0299aed1ef3d122ea97772fd4c99/samples/ai/chat-demo/python_server/core/room_store/azure_table.py
//! with core/chat_api.py (the REST endpoints, which take the user id from the X-User-Id header).
//!
//! Table `roommetadata` (ROOM_METADATA_TABLE_NAME): PartitionKey = the user id, RowKey = the room
//! id, generated as `f"room_{uuid.uuid4().hex[:8]}"`; properties roomName, description, createdAt
//! and updatedAt. create_room_metadata is `create_entity`; get_room_metadata and room_exists
//! are `get_entity(user, room)`; update_room_metadata reads the room and replaces it
//! (`update_entity`, mode REPLACE, no ETag); delete_room_metadata is `delete_entity(user,
//! room)`; list_user_rooms queries `PartitionKey eq '<user>'`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "roommetadata", partition_key = "{user_id}", row_key = "room_{room_hex}")]
struct RoomMetadata {
    /// The X-User-Id header (or `anonymous`); only in the PartitionKey.
    #[table(key_only)]
    user_id: String,
    /// The first 8 hex digits of a UUID4; only in the RowKey.
    #[table(key_only, max_len = 8)]
    room_hex: String,
    #[table(rename = "roomName")]
    room_name: String,
    description: String,
    /// ISO 8601 text.
    #[table(rename = "createdAt")]
    created_at: String,
    /// ISO 8601 text.
    #[table(rename = "updatedAt")]
    updated_at: String,
}

/// list_user_rooms(user_id).
fn rooms_of_user(user_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", user_id)).unwrap()
}

/// create, get, update (get then replace without an ETag) and delete, all by user and room.
async fn room_ops<B: Backend>(
    rooms: &Table<'_, B, RoomMetadata>,
    key: &<RoomMetadata as TableEntity>::Key,
    room: &RoomMetadata,
) {
    let _ = rooms.insert(room).await;
    let _ = rooms.get(key).await;
    let _ = rooms.replace(room, IfMatch::Any).await;
    let _ = rooms.delete(key, IfMatch::Any).await;
}

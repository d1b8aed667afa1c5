//! Chatr (JavaScript, @azure/data-tables, Azure Functions with Azure Web PubSub): a demo chat
//! app whose API keeps the group chats and the signed-in users in two tables. Sources (commit
//! 2b195ebc401566019f9760a4fbd7e96db1e79512 of https://github.com/benc-uk/chatr):
//! https://github.com/benc-uk/chatr/blob/2b195ebc401566019f9760a4fbd7e96db1e79512/api/src/state.js
//! with api/src/functions/eventHandler.js, getChats.js and getUsers.js.
//!
//! Table `chats`: PartitionKey the literal `chatr`, RowKey the chat id (a v4 UUID the client
//! makes), one property `data` holding the chat (id, name, owner and a map of members) as JSON.
//! Table `users`: PartitionKey `chatr`, RowKey the user's id from Static Web Apps auth,
//! properties userName, userProvider and idle. state.js reads one row with getEntity, lists a
//! table with listEntities() and no filter, writes with upsertEntity(…, 'Replace') and deletes
//! with deleteEntity. The web client loads /api/chats and /api/users (both listings) when it
//! starts. Web PubSub events: a user connecting upserts their row; creating a chat upserts it;
//! joining reads the chat and the user and upserts the chat with the new member; leaving reads
//! and upserts the chat; deleting a chat deletes its row; a disconnect deletes the user's row,
//! then lists every chat and for each one reads it and upserts it without that user.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "chats", partition_key = "chatr", row_key = "{id}")]
#[table(rename_all = "camelCase")]
struct ChatEntity {
    /// The chat's id, `utils.uuidv4()` in the browser; kept only in the RowKey, as the original
    /// keeps it.
    #[table(key_only)]
    id: Uuid,
    /// `JSON.stringify(chat)`: `{ id, name, members: { userId: { userId, userName } }, owner }`.
    data: String,
}

#[derive(TableEntity)]
#[table(name = "users", partition_key = "chatr", row_key = "{id}")]
#[table(rename_all = "camelCase")]
struct UserEntity {
    /// The Static Web Apps principal id (`ce-userid` on Web PubSub events); kept only in the
    /// RowKey, as the original keeps it.
    #[table(key_only, max_len = 128)]
    id: String,
    user_name: String,
    user_provider: String,
    idle: bool,
}

/// listChats (GET /api/chats, and each disconnect) and listUsers (GET /api/users):
/// `listEntities()` with no query options.
fn list_all() -> Query {
    Query::all()
}

/// getChat and getUser: `getEntity('chatr', id)`.
fn one(id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'chatr' and RowKey eq '{}'", id)).unwrap()
}

/// upsertChat / upsertUser (Replace), removeChat / removeUser (no ETag).
async fn writes<B: Backend>(
    chats: &Table<'_, B, ChatEntity>,
    users: &Table<'_, B, UserEntity>,
    chat: &ChatEntity,
    user: &UserEntity,
    chat_key: &<ChatEntity as TableEntity>::Key,
    user_key: &<UserEntity as TableEntity>::Key,
) {
    let _ = chats.upsert(chat).await;
    let _ = users.upsert(user).await;
    let _ = chats.delete(chat_key, IfMatch::Any).await;
    let _ = users.delete(user_key, IfMatch::Any).await;
}

/// removeChatUser on a disconnect: every chat listed, then each read and written back.
async fn on_disconnect<B: Backend>(chats: &Table<'_, B, ChatEntity>, each: &ChatEntity) {
    let _ = chats.query_page(&Query::all(), None).await;
    let _ = chats.upsert(each).await;
}

//! secret-message-share (Go, aztables): a small web app for sending a secret that can be read
//! once with a PIN, run as an Azure Function with tables for users and messages. Sources
//! (commit 2e486be36c0db002be319a58229fada48c4cf65d of
//! https://github.com/ivarprudnikov/secret-message-share):
//! https://github.com/ivarprudnikov/secret-message-share/blob/2e486be36c0db002be319a58229fada48c4cf65d/internal/storage/aztablestore/messages.go,
//! with internal/storage/aztablestore/users.go, internal/storage/messages.go,
//! internal/storage/users.go, internal/crypto/crypto.go and routes.go.
//!
//! Users table (AZTABLE_USERS): PartitionKey = RowKey = the username; properties Password (a
//! hash) and Permissions (comma-separated). Sign-up reads the user by both keys and adds it
//! (AddEntity); sign-in reads it by both keys. Messages table (AZTABLE_MESSAGES): PartitionKey =
//! the SHA-256 hex of the encrypted text, which serves as the message id in links, RowKey = the
//! author's username; properties Content (ciphertext), Pin (a hash) and AttemptsRemaining.
//! Opening a link lists `PartitionKey eq '<id>'` (the reader does not know the author); a
//! right PIN deletes the row, a wrong one replaces it with one attempt fewer (UpsertEntity
//! Replace) until it is deleted. An author's message list is `RowKey eq '<username>'` with no
//! PartitionKey. The stats page counts both tables by listing them whole, selecting only
//! PartitionKey.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "users", partition_key = "{username}", row_key = "{username}")]
#[table(rename_all = "PascalCase")]
struct User {
    #[table(max_len = 256)]
    username: String,
    /// The password's hash.
    password: String,
    /// Comma-separated permissions, e.g. `read:stats`.
    permissions: String,
}

#[derive(TableEntity)]
#[table(name = "messages", partition_key = "{id}", row_key = "{username}")]
#[table(rename_all = "PascalCase")]
struct Message {
    /// `hex(sha256(ciphertext))`: the id in the message's link.
    #[table(max_len = 64)]
    id: String,
    #[table(max_len = 256)]
    username: String,
    content: String,
    /// The PIN's hash.
    pin: String,
    attempts_remaining: i32,
}

/// ListMessages: an author's messages.
async fn messages_of<B: Backend>(backend: &B, username: &str) {
    let q = Query::filter(&format!("RowKey eq '{}'", username)).unwrap();
    let _ = backend.query_page(Message::TABLE, &q).await;
}

/// getMessage (GetMessage, GetFullMessage): the message behind a link.
async fn message_by_id<B: Backend>(backend: &B, id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", id)).unwrap();
    let _ = backend.query_page(Message::TABLE, &q).await;
}

/// CountUsers and CountMessages for the stats page.
async fn counts<B: Backend>(backend: &B) {
    let q = Query::all().select(["PartitionKey"]);
    let _ = backend.query_page(User::TABLE, &q).await;
    let _ = backend.query_page(Message::TABLE, &q).await;
}

/// GetUser (GetEntity), AddUser (AddEntity); saveMessage (UpsertEntity Replace) and
/// deleteMessage (DeleteEntity, no ETag).
async fn writes<B: Backend>(
    users: &Table<'_, B, User>,
    messages: &Table<'_, B, Message>,
    user: &User,
    user_key: &<User as TableEntity>::Key,
    msg: &Message,
    msg_key: &<Message as TableEntity>::Key,
) {
    let _ = users.get(user_key).await;
    let _ = users.insert(user).await;
    let _ = messages.upsert(msg).await;
    let _ = messages.delete(msg_key, IfMatch::Any).await;
}

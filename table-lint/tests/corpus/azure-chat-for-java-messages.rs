//! Azure Chat for Java (Java, Spring, legacy `com.microsoft.azure.storage.table` SDK): a sample
//! social chat web app from Microsoft Open Technologies where users post messages (text, photo or
//! video) to their friends, who like and comment on them; messages expire after a time the poster
//! picks. Sources (commit 4456bea8830c5edf8c211db1d7816b849372d6ed of
//! https://github.com/microsoft/azure-chat-for-java), all under
//! azchat-web/src/main/java/com/microsoftopentechnologies/azchat/web/:
//! https://github.com/microsoft/azure-chat-for-java/blob/4456bea8830c5edf8c211db1d7816b849372d6ed/azchat-web/src/main/java/com/microsoftopentechnologies/azchat/web/dao/UserMessageEntityDAOImpl.java
//! with dao/MessageCommentsDAOImpl.java, dao/MessageLikeEntityDAOImpl.java,
//! dao/FriendRequestDAOImpl.java, dao/data/entities/storage/*.java,
//! timertasks/UserMessageExpiryHandler.java, services/ContentShareService.java and
//! common/utils/AzureChatConstants.java.
//!
//! Four tables. `UserMessages`: PartitionKey = the poster's user id (the SQL user id as text),
//! RowKey = a random GUID. `MessageComments`: PartitionKey = the message id, RowKey = a random
//! GUID. `MessageLikes`: PartitionKey = the message id, RowKey = the id of the user who liked.
//! `FriendRequest`: PartitionKey = a user id, RowKey = the other user's id, with a `Status`
//! (`sent`, `pendingApproval`, `approved`, …); a request writes the sender's row and the
//! receiver's row with two separate InsertOrReplace calls. All writes are InsertOrReplace.
//! Reads: a user's wall is their own partition plus one partition query per approved friend
//! (`PartitionKey eq user and Status eq 'approved'` first), sorted by Timestamp in memory;
//! comment and like counts read the message's partition and count rows; one message by id is
//! `RowKey eq '<id>'` alone. A scheduled task every three minutes reads every row of
//! `UserMessages` (no filter) to collect all message ids, compares them with the ids still in an
//! expiry queue whose messages carry each post's time to live, and for each expired one looks it
//! up by `RowKey eq`, deletes its comments and likes row by row, and deletes it.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "UserMessages", partition_key = "{user_id}", row_key = "{message_id}")]
#[table(rename_all = "camelCase")]
struct UserMessageEntity {
    /// The poster's id from the SQL user table, as text.
    #[table(max_len = 11)]
    user_id: String,
    /// `AzureChatUtils.getGUID()`.
    message_id: Uuid,
    user_name: String,
    user_photo_blob_url: String,
    text_content: String,
    #[table(rename = "mediaURL")]
    media_url: String,
    media_type: String,
    #[table(rename = "assetID")]
    asset_id: String,
}

#[derive(TableEntity)]
#[table(name = "MessageComments", partition_key = "{message_id}", row_key = "{comment_id}")]
#[table(rename_all = "camelCase")]
struct MessageComments {
    message_id: Uuid,
    comment_id: Uuid,
    #[table(rename = "friendID")]
    friend_id: String,
    friend_name: String,
    friend_profile_blob_url: String,
    comments: String,
}

#[derive(TableEntity)]
#[table(name = "MessageLikes", partition_key = "{message_id}", row_key = "{friend_id}")]
#[table(rename_all = "camelCase")]
struct MessageLikesEntity {
    message_id: Uuid,
    #[table(max_len = 11)]
    friend_id: String,
    friend_name: String,
    friend_profile_blob_url: String,
}

#[derive(TableEntity)]
#[table(name = "FriendRequest", partition_key = "{user_id}", row_key = "{friend_id}")]
#[table(rename_all = "camelCase")]
struct FriendRequestEntity {
    #[table(max_len = 11)]
    user_id: String,
    #[table(max_len = 11)]
    friend_id: String,
    friend_name: String,
    friend_profile_blob_url: String,
    #[table(rename = "Status")]
    status: String,
}

/// getUserMessageEntities: one user's posts (the wall runs this once per friend as well).
async fn user_messages<B: Backend>(messages: &Table<'_, B, UserMessageEntity>, user_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user_id)).unwrap();
    let _ = messages.query_page(&q, None).await;
}

/// getMessageById (and the lookup before deleteMessageById): the message id alone.
async fn message_by_id<B: Backend>(messages: &Table<'_, B, UserMessageEntity>, message_id: &str) {
    let q = Query::filter(&format!("RowKey eq '{}'", message_id)).unwrap();
    let _ = messages.query_page(&q, None).await;
}

/// getAllUserMessageIds, from UserMessageExpiryHandler every 180 seconds: every row of the table.
async fn all_messages<B: Backend>(messages: &Table<'_, B, UserMessageEntity>) {
    let _ = messages.query_page(&Query::all(), None).await;
}

/// getUserMessageEntities(userId, messageId): a point read written as a filter.
fn one_message(user_id: &str, message_id: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}') and (RowKey eq '{}')", user_id, message_id)).unwrap()
}

/// getMessageComments / getMessageCommentsCount / deleteAllMessageComments: a message's comments.
async fn comments_of<B: Backend>(comments: &Table<'_, B, MessageComments>, message_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", message_id)).unwrap();
    let _ = comments.query_page(&q, None).await;
}

/// getMessageLikeEntity / getMessageLikeEntityCount / deleteMessageLikeByMessageId.
async fn likes_of<B: Backend>(likes: &Table<'_, B, MessageLikesEntity>, message_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", message_id)).unwrap();
    let _ = likes.query_page(&q, None).await;
}

/// getFriendListForUser: the user's approved friends.
async fn friends_of<B: Backend>(requests: &Table<'_, B, FriendRequestEntity>, user_id: &str) {
    let q = Query::filter(&format!("(PartitionKey eq '{}') and (Status eq 'approved')", user_id)).unwrap();
    let _ = requests.query_page(&q, None).await;
}

/// addUserMessageEntity / addMessageComments / addMessageLikesEntity / addFriendRequest
/// (InsertOrReplace), and the row-by-row deletes of the expiry task.
async fn writes<B: Backend>(
    messages: &Table<'_, B, UserMessageEntity>,
    comments: &Table<'_, B, MessageComments>,
    likes: &Table<'_, B, MessageLikesEntity>,
    requests: &Table<'_, B, FriendRequestEntity>,
    message: &UserMessageEntity,
    comment: &MessageComments,
    like: &MessageLikesEntity,
    sent: &FriendRequestEntity,
    pending: &FriendRequestEntity,
    message_key: &<UserMessageEntity as TableEntity>::Key,
    comment_key: &<MessageComments as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = messages.upsert(message).await;
    let _ = comments.upsert(comment).await;
    let _ = likes.upsert(like).await;
    let _ = requests.upsert(sent).await;
    let _ = requests.upsert(pending).await;
    let _ = comments.delete(comment_key, IfMatch::ETag(etag.clone())).await;
    let _ = messages.delete(message_key, IfMatch::ETag(etag)).await;
}

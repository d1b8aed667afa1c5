//! RdChat (C#, Azure cloud service web role, StorageClient 1.x with WCF Data Services): a chat
//! wall from a Windows Azure training repository; each post has a name, a text and an avatar
//! picture kept in a blob. Sources (commit 1ea4691d344c58db1e32f2dcec1fc7da649c58ad of
//! https://github.com/mcaravajal/windows-azure-training):
//! https://github.com/mcaravajal/windows-azure-training/blob/1ea4691d344c58db1e32f2dcec1fc7da649c58ad/RdChat_WebRole/WATables.cs
//! with RdChat_WebRole/Message.cs, RdChat_WebRole/MessageDataServiceContext.cs and
//! RdChat_WebRole/Default.aspx.cs.
//!
//! Table `Messages`. The Message constructor sets PartitionKey to the literal `Message` and
//! RowKey to `string.Format("{0:10}_{1}", DateTime.MaxValue.Ticks - DateTime.Now.Ticks,
//! Guid.NewGuid())`: the reversed local time (the custom format `10` puts a literal `1` before
//! the number), an underscore and a GUID, so the newest post sorts first. Properties Name, Body,
//! Date (`DateTime.ToString()`) and avatar (the blob URI). AddMessage is AddObject + SaveChanges
//! (an insert). The page lists the table by enumerating `CreateQuery<Message>("Messages")` with
//! no filter (one response: the newest posts). Editing a post reads it with `where i.RowKey ==
//! rowKey` (the LINQ provider sends `RowKey eq '<key>'`, no PartitionKey), then UpdateObject +
//! SaveChanges (a merge conditional on the ETag the context tracked); the edit button's
//! handler loads the post the same way.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Messages", partition_key = "Message", row_key = "1{posted:inverted_ticks}_{id}")]
struct Message {
    /// `DateTime.Now` when the post is created.
    posted: OffsetDateTime,
    /// `Guid.NewGuid()`.
    id: Uuid,
    #[table(rename = "Name")]
    name: String,
    #[table(rename = "Body")]
    body: String,
    /// `date.ToString()` in the server's culture.
    #[table(rename = "Date")]
    date: String,
    avatar: String,
}

/// GetTable: the unfiltered query, first response only.
async fn wall<B: Backend>(messages: &Table<'_, B, Message>) {
    let _ = messages.query_page(&Query::all(), None).await;
}

/// GetRowByRowkey and EditRow: the post by its RowKey alone.
async fn post_by_row_key<B: Backend>(messages: &Table<'_, B, Message>, row_key: &str) {
    let q = Query::filter(&format!("RowKey eq '{}'", row_key)).unwrap();
    let _ = messages.query_page(&q, None).await;
}

/// AddMessage (AddObject) and EditRow (UpdateObject with the tracked ETag).
async fn writes<B: Backend>(
    messages: &Table<'_, B, Message>,
    post: &Message,
    etag: table_runtime::ETag,
) {
    let _ = messages.insert(post).await;
    let _ = messages.merge(post, IfMatch::ETag(etag)).await;
}

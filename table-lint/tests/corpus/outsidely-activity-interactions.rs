//! Outsidely (Python, Azure Functions, azure-data-tables): a small social fitness tracker
//! whose API keeps everything in tables; these are the photos, "props" (likes) and comments
//! attached to an activity. Source (commit 76e220856c06f61b8c060555cd8976a629a239e4 of
//! https://github.com/outsidely/outsidely-geo):
//! https://github.com/outsidely/outsidely-geo/blob/76e220856c06f61b8c060555cd8976a629a239e4/function_app.py
//! (uploadmedia, activities, create, update and delete, and the helpers queryEntities,
//! upsertEntity and deleteEntity).
//!
//! Three tables, all with PartitionKey = the activity's id (a v4 UUID the server makes).
//! `media`: RowKey = a v4 UUID per photo (the blobs are named after it), properties filename
//! and sort (an integer order). `props`: RowKey = the id of the user giving props (one per
//! user), property createtime. `comments`: RowKey = a v4 UUID, properties userid, comment,
//! createtime. Every activity shown reads the three partitions of that activity with a select
//! and sorts media by sort and props and comments by createtime on the client. Giving props
//! first checks `PartitionKey eq <activity> and RowKey eq <user>`; a comment is written, then
//! the activity's comments are read again to notify the other commenters. Reordering a photo
//! reads it by both keys, then reads the partition's other photos (`RowKey ne '<photo>'`) to
//! swap sort values. Deleting an activity (or an account) reads each partition and deletes
//! its rows one at a time; deleting one photo, props or comment deletes by both keys.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "media", partition_key = "{activity_id}", row_key = "{media_id}")]
struct Media {
    activity_id: Uuid,
    media_id: Uuid,
    filename: String,
    sort: i32,
}

#[derive(TableEntity)]
#[table(name = "props", partition_key = "{activity_id}", row_key = "{user_id}")]
struct Prop {
    activity_id: Uuid,
    /// A lower-case alphanumeric user id of 2 to 20 characters.
    #[table(max_len = 20)]
    user_id: String,
    /// ISO text, `2024-05-01T10:00:00Z`.
    createtime: String,
}

#[derive(TableEntity)]
#[table(name = "comments", partition_key = "{activity_id}", row_key = "{comment_id}")]
struct Comment {
    activity_id: Uuid,
    comment_id: Uuid,
    #[table(max_len = 20)]
    userid: String,
    comment: String,
    createtime: String,
}

/// An activity's photos, props and comments, for every activity shown.
async fn activity_details<B: Backend>(backend: &B, activity: Uuid) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", activity)).unwrap();
    let _ = backend.query_page(Media::TABLE, &q.clone().select(["RowKey", "sort"])).await;
    let _ = backend.query_page(Prop::TABLE, &q.clone().select(["RowKey", "createtime"])).await;
    let _ = backend
        .query_page(Comment::TABLE, &q.select(["RowKey", "userid", "createtime", "comment"]))
        .await;
}

/// Giving props: has this user already given props to the activity?
async fn existing_prop<B: Backend>(backend: &B, activity: Uuid, user: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", activity, user)).unwrap();
    let _ = backend.query_page(Prop::TABLE, &q).await;
}

/// Reordering a photo: the photo itself, then the activity's other photos.
async fn reorder_media<B: Backend>(backend: &B, activity: Uuid, media: Uuid) {
    let one = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", activity, media)).unwrap();
    let _ = backend.query_page(Media::TABLE, &one).await;
    let others = Query::filter(&format!("PartitionKey eq '{}' and RowKey ne '{}'", activity, media)).unwrap();
    let _ = backend.query_page(Media::TABLE, &others).await;
}

/// Deleting one comment checks that it is the caller's.
async fn own_comment<B: Backend>(backend: &B, activity: Uuid, comment: Uuid, user: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}' and userid eq '{}'",
        activity, comment, user
    ))
    .unwrap();
    let _ = backend.query_page(Comment::TABLE, &q).await;
}

/// upsert_entity (the SDK's default Merge mode) for new and changed rows; delete_entity for
/// each row of a deleted activity and for single rows.
async fn writes<B: Backend>(
    media: &Table<'_, B, Media>,
    props: &Table<'_, B, Prop>,
    comments: &Table<'_, B, Comment>,
    m: &Media,
    p: &Prop,
    c: &Comment,
    m_key: &<Media as TableEntity>::Key,
    p_key: &<Prop as TableEntity>::Key,
    c_key: &<Comment as TableEntity>::Key,
) {
    let _ = media.upsert(m).await;
    let _ = props.upsert(p).await;
    let _ = comments.upsert(c).await;
    let _ = media.delete(m_key, IfMatch::Any).await;
    let _ = props.delete(p_key, IfMatch::Any).await;
    let _ = comments.delete(c_key, IfMatch::Any).await;
}

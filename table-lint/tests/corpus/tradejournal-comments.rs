//! tradejournal (Python, azure-cosmosdb-table TableService): a personal trading journal for
//! Indian futures and options (Flask). CommentsTable holds the notes written on a journal entry,
//! on a group of entries, or on the home page. Sources, at commit 35d2ea1d4ea5c0fac739aea59c506774af873f7e:
//! https://github.com/mdtanveer/tradejournal/blob/35d2ea1d4ea5c0fac739aea59c506774af873f7e/tradejournal/models/commentmixin.py
//! with tradejournal/models/journalentrymixin.py (the delete cascade) and tradejournal/views.py.
//!
//! add_comment inserts a row with PartitionKey = the parent's key, which is the parent's own
//! PartitionKey and RowKey joined by `_` (`NIFTY_1708500000.0`; `GLOBAL_1` for the home page
//! notes), and RowKey = `str(utcnow().timestamp())`, the float text of the Unix seconds, also
//! stored as add_time; the form's title and text are the other properties. update_comment
//! replaces a row (update_entity), delete_comment deletes one by its keys. get_comments reads the
//! parent's partition; deleting a journal entry or a group reads it and deletes each comment.
//! get_all_comments reads the whole table (or only PartitionKey of it) and sorts the rows by
//! add_time, newest first, for the comments page; get_all_comments_for_count filters
//! `RowKey ge '…'` (the last 720 days) over the whole table, selecting PartitionKey.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "CommentsTable", partition_key = "{parent_symbol}_{parent_time}", row_key = "{add_time}")]
struct Comment {
    /// The parent's PartitionKey: a symbol, a group's name, or `GLOBAL`.
    #[table(key_only, max_len = 40)]
    parent_symbol: String,
    /// The parent's RowKey: its time as float text, or `1` for the home page.
    #[table(key_only, max_len = 20)]
    parent_time: String,
    /// `str(datetime.timestamp())`, e.g. `1708500000.123456`.
    #[table(max_len = 20)]
    add_time: String,
    title: Option<String>,
    text: Option<String>,
}

/// get_comments: one parent's partition.
fn comments_of(parent_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", parent_key)).unwrap()
}

/// get_all_comments: the whole table, sorted newest first for the feed.
async fn all_comments<B: Backend>(comments: &Table<'_, B, Comment>) {
    if let Ok(mut rows) = comments.query_all(&Query::all()).await {
        rows.sort_by(|a, b| b.add_time.cmp(&a.add_time));
    }
}

/// get_all_comments(forCount=True): every row, PartitionKey only.
fn all_comment_parents() -> Query {
    Query::all().select(["PartitionKey"])
}

/// get_all_comments_for_count: the last 720 days by RowKey alone.
fn recent_comment_parents(since: &str) -> Query {
    Query::filter(&format!("RowKey ge '{}'", since)).unwrap().select(["PartitionKey"])
}

/// add_comment, update_comment, delete_comment.
async fn edit<B: Backend>(
    comments: &Table<'_, B, Comment>,
    new: &Comment,
    edited: &Comment,
    key: &<Comment as TableEntity>::Key,
) {
    let _ = comments.insert(new).await;
    let _ = comments.replace(edited, IfMatch::Any).await;
    let _ = comments.delete(key, IfMatch::Any).await;
}

/// delete_journalentry: the entry's comments read by partition, then deleted one by one.
async fn delete_comments_of<B: Backend>(comments: &Table<'_, B, Comment>, parent_key: &str) {
    if let Ok(rows) = comments.query_all(&comments_of(parent_key)).await {
        for row in rows {
            let _ = comments.delete(&row.key(), IfMatch::Any).await;
        }
    }
}

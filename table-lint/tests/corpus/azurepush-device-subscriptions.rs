//! AzurePush (C#, WindowsAzure.Storage through AzureStorageExtensions): a helper library that
//! registers mobile device tokens (APNs, GCM) per user and sends pushes through PushSharp.
//! Sources (commit a55054c55bdec5808c006baa76f77ec0e5f00e2c of https://github.com/chaowlert/AzurePush):
//! https://github.com/chaowlert/AzurePush/blob/a55054c55bdec5808c006baa76f77ec0e5f00e2c/AzurePush/AzurePush/NotiPusher.cs
//! with Extensions.cs, NotiSubscription.cs, NotiUserSubscription.cs and PushContext.cs in the
//! same folder.
//!
//! Two tables, each row holding UserId, Token and Platform:
//! - NotiSubscriptions: PartitionKey = the token with every non-word character removed,
//!   RowKey = `Guid.NewGuid().ToString("N")`;
//! - NotiUserSubscriptions: PartitionKey = `userId.GetHashCode() % 100000` as `00000`, a `|`,
//!   and the user id; RowKey = the stripped token.
//! AddSubscription looks the token up (`PartitionKey eq <stripped> and Token eq <token>`),
//! returns if it already belongs to the user, otherwise deletes the old owner's user row, then
//! inserts a new token row (new GUID) and a user row. RemoveSubscription (a token reported
//! expired) looks the token up the same way and deletes both rows; ChangeSubscription removes and
//! adds. Push(userId) queries the user table with `UserId eq '<bucket>|<userId>'`; Push(start,
//! end) with `UserId gt '<start>|' and UserId lt '<end>||'`; both then group the rows by platform.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "NotiSubscriptions", partition_key = "{token_key}", row_key = "{id:simple}")]
#[table(rename_all = "PascalCase")]
struct NotiSubscription {
    /// The token with `\W+` removed; only in the key.
    #[table(key_only, max_len = 200)]
    token_key: String,
    /// `Guid.NewGuid().ToString("N")`, new for every registration; only in the key.
    #[table(key_only)]
    id: Uuid,
    user_id: String,
    /// The device token as the push service gave it.
    token: String,
    /// `ios` or `andriod` (sic).
    #[table(max_len = 8)]
    platform: String,
}

#[derive(TableEntity)]
#[table(name = "NotiUserSubscriptions", partition_key = "{hash:05}|{user_id}", row_key = "{token_key}")]
#[table(rename_all = "PascalCase")]
struct NotiUserSubscription {
    /// `userId.GetHashCode() % 100000`, written `00000`; only in the key.
    #[table(key_only, max = 99_999)]
    hash: u32,
    user_id: String,
    /// The token with `\W+` removed; only in the key.
    #[table(key_only, max_len = 200)]
    token_key: String,
    token: String,
    #[table(max_len = 8)]
    platform: String,
}

/// AddSubscription and RemoveSubscription: the token's row.
async fn find_token<B: Backend>(tokens: &Table<'_, B, NotiSubscription>, stripped: &str, token: &str) {
    let q = Query::filter(&format!(
        "(PartitionKey eq '{}') and (Token eq '{}')",
        stripped, token
    ))
    .unwrap();
    let _ = tokens.query_page(&q, None).await;
}

/// AddSubscription: the old owner's user row is removed, then both rows are written.
async fn add<B: Backend>(
    tokens: &Table<'_, B, NotiSubscription>,
    users: &Table<'_, B, NotiUserSubscription>,
    old_user_row: &<NotiUserSubscription as TableEntity>::Key,
    token_row: &NotiSubscription,
    user_row: &NotiUserSubscription,
) {
    let _ = users.delete(old_user_row, IfMatch::Any).await;
    let _ = tokens.upsert(token_row).await;
    let _ = users.upsert(user_row).await;
}

/// RemoveSubscription: both rows, by their keys (SafeDelete ignores a missing row).
async fn remove<B: Backend>(
    tokens: &Table<'_, B, NotiSubscription>,
    users: &Table<'_, B, NotiUserSubscription>,
    token_row: &<NotiSubscription as TableEntity>::Key,
    user_row: &<NotiUserSubscription as TableEntity>::Key,
) {
    let _ = users.delete(user_row, IfMatch::Any).await;
    let _ = tokens.delete(token_row, IfMatch::Any).await;
}

/// Push(userId): the user's devices, by the UserId property compared with the hashed key text.
async fn devices_of_user<B: Backend>(users: &Table<'_, B, NotiUserSubscription>, hashed: &str) {
    let q = Query::filter(&format!("UserId eq '{}'", hashed)).unwrap();
    let _ = users.query_page(&q, None).await;
}

/// Push(start, end): the devices of a range of buckets, again by the UserId property.
async fn devices_of_buckets<B: Backend>(users: &Table<'_, B, NotiUserSubscription>, start: u32, end: u32) {
    let q = Query::filter(&format!(
        "(UserId gt '{:05}|') and (UserId lt '{:05}||')",
        start, end
    ))
    .unwrap();
    let _ = users.query_page(&q, None).await;
}

//! Contact Group Lookup (C#, WindowsAzure.Storage): the Microsoft Teams app template (OfficeDev
//! "DL Lookup") in which employees search distribution lists, pin favourite lists and favourite
//! members, and keep a page-size preference. Sources (commit
//! 33c93fa41f30bdaab434f6d5252c4176e90f0cbf of
//! https://github.com/OfficeDev/microsoft-teams-apps-contactgrouplookup):
//! https://github.com/OfficeDev/microsoft-teams-apps-contactgrouplookup/blob/33c93fa41f30bdaab434f6d5252c4176e90f0cbf/Source/Microsoft.Teams.Apps.DLLookup/Repositories/FavoriteDistributionListStorageProvider.cs
//! with Repositories/{FavoriteDistributionListMemberStorageProvider,UserPageSizeStorageProvider,
//! FavoriteDistributionListDataRepository,FavoriteDistributionListMemberDataRepository,
//! UserPageSizeChoiceDataRepository}.cs and Models/*TableEntity.cs in the same project.
//!
//! FavoriteDistributionLists: PartitionKey = the signed-in user's AAD object id, RowKey = the
//! group id; property PinStatus. FavoriteDistributionListMembers: PartitionKey = the user's object
//! id, RowKey = `(pinnedUserId + distributionListId).ToLower()`, two GUIDs run together;
//! property DistributionListId. Both are written with InsertOrReplace, read one row by Retrieve
//! (user, id) and deleted with the entity read (its ETag); the lists page reads
//! `PartitionKey eq '<user>'` (one segment for the lists, every segment for the members, matched
//! to the open list in memory). UserPageSizeChoices: PartitionKey = the literal `default`, RowKey
//! = the user's object id, with the two page sizes the user chose; read by Retrieve when the app
//! opens, and read then InsertOrReplace'd when the user changes a page size.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "FavoriteDistributionLists", partition_key = "{user_object_id}", row_key = "{group_id}")]
#[table(rename_all = "PascalCase")]
struct FavoriteDistributionListTableEntity {
    user_object_id: Uuid,
    group_id: Uuid,
    pin_status: bool,
}

#[derive(TableEntity)]
#[table(name = "FavoriteDistributionListMembers", partition_key = "{user_object_id}", row_key = "{member_key}")]
#[table(rename_all = "PascalCase")]
struct FavoriteDistributionListMemberTableEntity {
    user_object_id: Uuid,
    /// `(pinnedUserId + distributionListId).ToLower()`: the member's and the list's GUIDs, 36
    /// characters each, with nothing between them.
    #[table(rename = "DistributionListMemberId", max_len = 72)]
    member_key: String,
    distribution_list_id: Uuid,
}

#[derive(TableEntity)]
#[table(name = "UserPageSizeChoices", partition_key = "default", row_key = "{user_object_id}")]
#[table(rename_all = "PascalCase")]
struct UserPageSizeChoiceTableEntity {
    user_object_id: Uuid,
    distribution_list_page_size: i32,
    distribution_list_member_page_size: i32,
}

/// GetFavoriteDistributionListsFromStorageAsync: the user's favourite lists.
async fn favourite_lists<B: Backend>(lists: &Table<'_, B, FavoriteDistributionListTableEntity>, user: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user)).unwrap();
    let _ = lists.query_page(&q, None).await;
}

/// GetFavoriteMembersFromStorageAsync: the user's favourite members of every list.
async fn favourite_members<B: Backend>(members: &Table<'_, B, FavoriteDistributionListMemberTableEntity>, user: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user)).unwrap();
    let _ = members.query_page(&q, None).await;
}

/// Pin or unpin a list: Retrieve, InsertOrReplace, Delete (on the ETag read).
async fn list_ops<B: Backend>(
    lists: &Table<'_, B, FavoriteDistributionListTableEntity>,
    row: &FavoriteDistributionListTableEntity,
    key: &<FavoriteDistributionListTableEntity as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = lists.get(key).await;
    let _ = lists.upsert(row).await;
    let _ = lists.delete(key, IfMatch::ETag(etag)).await;
}

/// Pin or unpin a member: the same three operations.
async fn member_ops<B: Backend>(
    members: &Table<'_, B, FavoriteDistributionListMemberTableEntity>,
    row: &FavoriteDistributionListMemberTableEntity,
    key: &<FavoriteDistributionListMemberTableEntity as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = members.get(key).await;
    let _ = members.upsert(row).await;
    let _ = members.delete(key, IfMatch::ETag(etag)).await;
}

/// GetUserPageSizeChoice and CreateOrUpdateUserPageSizeChoiceDataAsync.
async fn page_size_ops<B: Backend>(
    choices: &Table<'_, B, UserPageSizeChoiceTableEntity>,
    row: &UserPageSizeChoiceTableEntity,
    key: &<UserPageSizeChoiceTableEntity as TableEntity>::Key,
) {
    let _ = choices.get(key).await;
    let _ = choices.upsert(row).await;
}

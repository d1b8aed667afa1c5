//! Book-a-room, a Microsoft Teams app template (C#, WindowsAzure.Storage): the room catalogue
//! and each user's favourite rooms. Sources (commit 3f90a4c0ad1d6e8aa5046c8f9642808b43b6c643 of
//! https://github.com/OfficeDev/microsoft-teams-apps-bookaroom):
//! https://github.com/OfficeDev/microsoft-teams-apps-bookaroom/blob/3f90a4c0ad1d6e8aa5046c8f9642808b43b6c643/Source/Microsoft.Teams.App.BookAThing.Common/Providers/Storage/FavoriteStorageProvider.cs,
//! Providers/Storage/RoomCollectionStorageProvider.cs, Models/TableEntities/UserFavoriteRoomEntity.cs,
//! Models/TableEntities/MeetingRoomEntity.cs and Providers/SearchService.cs in the same project,
//! Source/Microsoft.Teams.App.BookAThing.SyncService/Service/ExchangeSyncHelper.cs,
//! Source/Microsoft.Teams.Apps.BookAThing/Controllers/MeetingApiController.cs and
//! Dialogs/MainDialog.cs.
//!
//! FavoriteRooms: PartitionKey = the user's AAD object id, RowKey = the room's e-mail address,
//! with the room and building names. The bot and the tab read a user's favourites with
//! `PartitionKey eq '<user>'` (and `and RowKey eq '<room>'` to check one); adding one is
//! InsertOrReplace; saving the favourites list reads the user's partition, deletes it in
//! batches of 100 and inserts the new list in batches of 100.
//! RoomCollection: PartitionKey = the building's e-mail address, RowKey = the room's e-mail,
//! with the room name, the building name, the Graph id (`Key`) and `IsDeleted`. A sync job reads
//! each building's partition, marks rooms gone from Exchange `IsDeleted` and InsertOrReplaces the
//! building's rooms, in batches of 100. Azure Cognitive Search indexes this table through an
//! indexer data source, and room search goes to that index, not to the table. The tab's initial
//! room list is `IsDeleted eq false` with TakeCount 5, one segment. The provider's GetAllAsync
//! (an unfiltered listing) is called nowhere and is left out.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "FavoriteRooms", partition_key = "{user_ad_object_id}", row_key = "{room_email}")]
#[table(rename_all = "PascalCase")]
struct UserFavoriteRoomEntity {
    user_ad_object_id: String,
    room_email: String,
    room_name: String,
    building_name: String,
    building_email: String,
}

#[derive(TableEntity)]
#[table(name = "RoomCollection", partition_key = "{building_email}", row_key = "{room_email}")]
#[table(rename_all = "PascalCase")]
struct MeetingRoomEntity {
    building_email: String,
    room_email: String,
    /// The room's id in Microsoft Graph, the search index's key.
    key: String,
    room_name: String,
    building_name: String,
    is_deleted: bool,
}

/// FavoriteStorageProvider.GetAsync(user): the bot's and the tab's favourites.
async fn favourites<B: Backend>(favs: &Table<'_, B, UserFavoriteRoomEntity>, user: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user)).unwrap();
    let _ = favs.query_page(&q, None).await;
}

/// FavoriteStorageProvider.GetAsync(user, room): is this room a favourite.
async fn favourite<B: Backend>(favs: &Table<'_, B, UserFavoriteRoomEntity>, user: &str, room: &str) {
    let q = Query::filter(&format!("(PartitionKey eq '{}') and (RowKey eq '{}')", user, room)).unwrap();
    let _ = favs.query_page(&q, None).await;
}

/// AddAsync: InsertOrReplace of one favourite.
async fn add_favourite<B: Backend>(favs: &Table<'_, B, UserFavoriteRoomEntity>, fav: &UserFavoriteRoomEntity) {
    let _ = favs.upsert(fav).await;
}

/// SubmitFavoritesAsync: DeleteAllAsync (the user's partition, deleted in batches of 100), then
/// AddBatchAsync (the new list inserted in batches of 100, all in the user's partition).
async fn replace_favourites<B: Backend>(backend: &B, user: &str, old: Vec<String>, new: Vec<BatchOperation>) {
    let deletes: Vec<BatchOperation> = old
        .into_iter()
        .map(|room| BatchOperation::Delete {
            partition_key: user.to_owned(),
            row_key: room,
            if_match: IfMatch::Any,
        })
        .collect();
    for chunk in deletes.chunks(100) {
        let _ = backend.execute_batch(UserFavoriteRoomEntity::TABLE, chunk.to_vec()).await;
    }
    for chunk in new.chunks(100) {
        let _ = backend.execute_batch(UserFavoriteRoomEntity::TABLE, chunk.to_vec()).await;
    }
}

/// RoomCollectionStorageProvider.GetAsync(building): the sync job and the meeting helper.
async fn building_rooms<B: Backend>(rooms: &Table<'_, B, MeetingRoomEntity>, building: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", building)).unwrap();
    let _ = rooms.query_page(&q, None).await;
}

/// GetNRoomsAsync(5): the tab's first rooms before the user searches; one segment.
async fn first_rooms<B: Backend>(rooms: &Table<'_, B, MeetingRoomEntity>) {
    let q = Query::filter("IsDeleted eq false").unwrap().top(5);
    let _ = rooms.query_page(&q, None).await;
}

/// The sync job: UpdateDeletedRoomsAsync and AddOrReplaceAsync, InsertOrReplace batches of one
/// building's rooms.
async fn sync_building<B: Backend>(backend: &B, batch: Vec<BatchOperation>) {
    for chunk in batch.chunks(100) {
        let _ = backend.execute_batch(MeetingRoomEntity::TABLE, chunk.to_vec()).await;
    }
}

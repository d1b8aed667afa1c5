//! RoomSense (TypeScript, @azure/data-tables): user bookings and friend links. Source:
//! https://github.com/toinevl/roomsense/blob/6add1d6d1c487195acf45992610c90ef1060cb83/api/src/functions/bookings.ts
//! with api/src/functions/friends.ts and api/src/lib/tables.ts at the same commit.
//!
//! UserBookings: createEntity `{ partitionKey: userId, rowKey: `${bookedAt}_${roomId}` }`;
//! the streak reads `PartitionKey eq userId`. FriendLinks: createEntity `{ partitionKey:
//! userId, rowKey: friendId, status }`, deleteEntity(userId, friendId), and the list reads the
//! user's partition and keeps the active links in memory.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "UserBookings",
    partition_key = "{user_id}",
    row_key = "{booked_at:iso}_{room_id}"
)]
#[table(rename_all = "camelCase")]
struct UserBooking {
    #[table(max_len = 64)]
    user_id: String,
    booked_at: OffsetDateTime,
    #[table(max_len = 64)]
    room_id: String,
}

#[derive(TableEntity)]
#[table(name = "FriendLinks", partition_key = "{user_id}", row_key = "{friend_id}")]
#[table(rename_all = "camelCase")]
struct FriendLink {
    #[table(max_len = 64)]
    user_id: String,
    #[table(max_len = 64)]
    friend_id: String,
    /// `active` or `pending`.
    status: String,
}

/// fetchUserBookings (the streak handler).
async fn bookings_of<B: Backend>(backend: &B, user_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user_id)).unwrap();
    let _ = backend.query_page(UserBooking::TABLE, &q).await;
}

/// The friends list.
async fn friends_of<B: Backend>(backend: &B, user_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user_id)).unwrap();
    let _ = backend.query_page(FriendLink::TABLE, &q).await;
}

async fn writes<B: Backend>(
    bookings: &Table<'_, B, UserBooking>,
    friends: &Table<'_, B, FriendLink>,
    booking: &UserBooking,
    link: &FriendLink,
    link_key: &<FriendLink as TableEntity>::Key,
) {
    let _ = bookings.insert(booking).await;
    let _ = friends.insert(link).await;
    let _ = friends.delete(link_key, IfMatch::Any).await;
}

//! travel-itinerary (C#, Azure.Data.Tables): an ASP.NET Core app for sharing travel itineraries
//! with travel companions, by invitation (per email) or by public share link. Sources (commit
//! 6fc34d476b55cbc2061c66f06da996a0091c34cd of https://github.com/frasermolyneux/travel-itinerary):
//! https://github.com/frasermolyneux/travel-itinerary/blob/6fc34d476b55cbc2061c66f06da996a0091c34cd/src/MX.TravelItinerary.Web/Data/TableStorage/TableItineraryRepository.cs
//! with TableContext.cs beside it and src/MX.TravelItinerary.Web/Options/StorageOptions.cs.
//!
//! Trips: PartitionKey = the owner's user id, RowKey = `Guid.NewGuid().ToString("N")`; Name,
//! Slug, StartDate and EndDate (`yyyy-MM-dd` text), HomeTimeZone, DefaultCurrency. Read as the
//! owner's partition, by point reads, and by slug (`PartitionKey eq <owner> and Slug eq <slug>`,
//! optionally with the RowKey too).
//! TripAccess: PartitionKey = the trip id, RowKey = the invitee's normalized (trimmed, lower-case)
//! email; OwnerUserId, InvitedByUserId, InvitedOn, Email, NormalizedEmail, Permission, and UserId
//! stamped on first visit. Listed per trip, read by point reads and by `PartitionKey eq <trip> and
//! UserId eq <user>` (then NormalizedEmail), and searched across the table by `UserId eq <user> or
//! NormalizedEmail eq <email>` whenever a user's trips are listed or a trip is opened by slug.
//! ShareLinks: PartitionKey = the trip id, RowKey = the share code (8 random characters, or a
//! chosen one of 4 to 32); OwnerUserId, CreatedOn, CreatedBy, ExpiresOn, MaskBookings, IncludeCost,
//! ShowBookingConfirmations, ShowBookingMetadata, Notes. Listed per trip; opened, and checked for
//! uniqueness before an insert, by `RowKey eq <code>` alone.

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Trips", partition_key = "{owner_user_id}", row_key = "{trip_id:simple}")]
#[table(rename_all = "PascalCase")]
struct Trip {
    /// The owner's Entra ID object id; only in the PartitionKey.
    #[table(key_only, max_len = 64)]
    owner_user_id: String,
    /// Only in the RowKey.
    #[table(key_only)]
    trip_id: Uuid,
    name: String,
    slug: String,
    /// `yyyy-MM-dd`.
    #[table(max_len = 10)]
    start_date: Option<String>,
    #[table(max_len = 10)]
    end_date: Option<String>,
    home_time_zone: Option<String>,
    #[table(max_len = 3)]
    default_currency: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "TripAccess", partition_key = "{trip_id}", row_key = "{access_id}")]
#[table(rename_all = "PascalCase")]
struct TripAccess {
    /// The trip's id (32 hex digits); only in the PartitionKey.
    #[table(key_only, max_len = 32)]
    trip_id: String,
    /// The normalized email, also stored as NormalizedEmail; only in the RowKey.
    #[table(key_only, max_len = 254)]
    access_id: String,
    owner_user_id: String,
    invited_by_user_id: String,
    invited_on: OffsetDateTime,
    email: String,
    normalized_email: String,
    /// `read` or `write`.
    #[table(max_len = 16)]
    permission: String,
    /// Stamped on the invitee's first visit.
    user_id: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "ShareLinks", partition_key = "{trip_id}", row_key = "{share_code}")]
#[table(rename_all = "PascalCase")]
struct ShareLink {
    #[table(key_only, max_len = 32)]
    trip_id: String,
    /// Only in the RowKey.
    #[table(key_only, max_len = 32)]
    share_code: String,
    owner_user_id: String,
    created_on: OffsetDateTime,
    created_by: String,
    expires_on: Option<OffsetDateTime>,
    mask_bookings: bool,
    include_cost: bool,
    show_booking_confirmations: bool,
    show_booking_metadata: bool,
    notes: Option<String>,
}

/// GetTripsForUserAsync: the user's own trips, then every access row naming the user, then a
/// point read of each shared trip.
async fn trips_for_user<B: Backend>(
    trips: &Table<'_, B, Trip>,
    access: &Table<'_, B, TripAccess>,
    user_id: &str,
    email: &str,
    shared: &<Trip as TableEntity>::Key,
) {
    let own = Query::filter(&format!("PartitionKey eq '{}'", user_id)).unwrap();
    let _ = trips.query_page(&own, None).await;
    let mine = Query::filter(&format!(
        "UserId eq '{}' or NormalizedEmail eq '{}'",
        user_id, email
    ))
    .unwrap();
    let _ = access.query_page(&mine, None).await;
    let _ = trips.get(shared).await;
}

/// FindTripBySlugForUserAsync: a trip of one owner by its slug.
async fn trip_by_slug<B: Backend>(trips: &Table<'_, B, Trip>, owner: &str, slug: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and Slug eq '{}'", owner, slug))
        .unwrap()
        .top(1);
    let _ = trips.query_page(&q, None).await;
}

/// GetTripByShareCodeAsync and ShareCodeExistsAsync: a share link by its code alone.
async fn share_link_by_code<B: Backend>(links: &Table<'_, B, ShareLink>, code: &str) {
    let q = Query::filter(&format!("RowKey eq '{}'", code)).unwrap().top(1);
    let _ = links.query_page(&q, None).await;
}

/// GetShareLinksAsync and GetTripAccessListAsync: one trip's rows.
async fn per_trip<B: Backend>(
    links: &Table<'_, B, ShareLink>,
    access: &Table<'_, B, TripAccess>,
    trip_id: &str,
) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", trip_id)).unwrap();
    let _ = links.query_page(&q, None).await;
    let _ = access.query_page(&q, None).await;
}

/// FindAccessEntityAsync: the caller's access row in one trip, by user id, then by email.
async fn access_in_trip<B: Backend>(access: &Table<'_, B, TripAccess>, trip_id: &str, user_id: &str, email: &str) {
    let by_user = Query::filter(&format!("PartitionKey eq '{}' and UserId eq '{}'", trip_id, user_id))
        .unwrap()
        .top(1);
    let _ = access.query_page(&by_user, None).await;
    let by_email = Query::filter(&format!(
        "PartitionKey eq '{}' and NormalizedEmail eq '{}'",
        trip_id, email
    ))
    .unwrap()
    .top(1);
    let _ = access.query_page(&by_email, None).await;
}

/// The writes: CreateTripAsync, UpdateTripAsync, DeleteTripAsync; GrantTripAccessAsync,
/// UpdateTripAccessAsync (a new RowKey: upsert then delete), MaybeStampUserIdOnAccessAsync,
/// RevokeTripAccessAsync; CreateShareLinkEntityAsync, UpdateShareLinkAsync, DeleteShareLinkAsync.
async fn writes<B: Backend>(
    trips: &Table<'_, B, Trip>,
    access: &Table<'_, B, TripAccess>,
    links: &Table<'_, B, ShareLink>,
    trip: &Trip,
    trip_key: &<Trip as TableEntity>::Key,
    grant: &TripAccess,
    old_grant: &<TripAccess as TableEntity>::Key,
    link: &ShareLink,
    link_key: &<ShareLink as TableEntity>::Key,
    etag: ETag,
) {
    let _ = trips.insert(trip).await;
    let _ = trips.replace(trip, IfMatch::ETag(etag.clone())).await;
    let _ = trips.delete(trip_key, IfMatch::Any).await;
    let _ = access.upsert(grant).await;
    let _ = access.delete(old_grant, IfMatch::Any).await;
    let _ = access.merge(grant, IfMatch::ETag(etag.clone())).await;
    let _ = links.insert(link).await;
    let _ = links.replace(link, IfMatch::ETag(etag)).await;
    let _ = links.delete(link_key, IfMatch::Any).await;
}

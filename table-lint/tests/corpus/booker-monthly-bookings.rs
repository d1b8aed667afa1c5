//! Booker (C#, ASP.NET Core minimal API, Azure.Data.Tables): a small booking calendar for a
//! shared resource (a holiday home or a room), with an API key in front. Sources (commits
//! c9632227171c7192728151644c1f341c987dafbf and 78eeeb428bb2db73a2a2ebc219b5977f7c8ed61c of
//! https://github.com/insulationman/Booker):
//! https://github.com/insulationman/Booker/blob/c9632227171c7192728151644c1f341c987dafbf/Services/TableService.cs
//! with Program.cs and Models/Booking.cs.
//!
//! Table `Bookings`. The calendar reads one month: `GET /bookings?year=&month=` queries
//! `PartitionKey == $"{year}{month:D2}"` (a LINQ expression the SDK sends as `PartitionKey eq
//! '202406'`). `POST /bookings` upserts the Booking the client sends, keys included: the client
//! sets PartitionKey to the month of the booking's start and RowKey to its own id; `DELETE
//! /bookings?year=&month=&id=` deletes by `{year}{month:D2}` and the id. Properties Comment,
//! Name, Start and End.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Bookings", partition_key = "{year_month:06}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct Booking {
    /// `$"{year}{month:D2}"` of the booked start date (not of the request): `202406`.
    #[table(max = 999_912)]
    year_month: u32,
    /// The client's id for the booking.
    id: Uuid,
    comment: String,
    name: String,
    start: OffsetDateTime,
    end: OffsetDateTime,
}

/// GetBookingsAsync(year, month): the month's partition.
async fn bookings_of_month<B: Backend>(bookings: &Table<'_, B, Booking>, year: u16, month: u8) {
    let q = Query::filter(&format!("PartitionKey eq '{}{:02}'", year, month)).unwrap();
    let _ = bookings.query_page(&q, None).await;
}

/// UpsertBookingAsync and DeleteBookingAsync.
async fn booking_writes<B: Backend>(
    bookings: &Table<'_, B, Booking>,
    row: &Booking,
    key: &<Booking as TableEntity>::Key,
) {
    let _ = bookings.upsert(row).await;
    let _ = bookings.delete(key, IfMatch::Any).await;
}

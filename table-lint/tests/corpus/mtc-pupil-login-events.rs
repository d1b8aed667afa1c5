//! Multiplication tables check (MTC, TypeScript): the pupil events. Source:
//! https://github.com/DFEAGILEDEVOPS/MTC/blob/249e339d04ba625a5ae0e83fa6ecdefc7b549336/tslib/src/functions/pupil-login/pupil-login.service.ts
//! with functions/pupil-login/index.ts at the same commit.
//!
//! On each pupil login the function pushes `{ PartitionKey: checkCode, RowKey: uuid(),
//! eventType: 'pupil-login', payload, processedAt }` to the `pupilEvent` output binding.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "pupilEvent", partition_key = "{check_code}", row_key = "{id}")]
struct PupilEvent {
    /// The lowercased check code (a GUID).
    check_code: Uuid,
    /// uuid v4.
    id: Uuid,
    #[table(rename = "eventType", max_len = 32)]
    event_type: String,
    /// The login message as JSON text.
    payload: String,
    #[table(rename = "processedAt")]
    processed_at: OffsetDateTime,
}

/// The output binding: one insert per login.
async fn record<B: Backend>(events: &Table<'_, B, PupilEvent>, event: &PupilEvent) {
    let _ = events.insert(event).await;
}

/// Not in the code: a support lookup of one check's events, the read the table is keyed for.
async fn events_of_check<B: Backend>(backend: &B, check_code: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", check_code)).unwrap();
    let _ = backend.query_page(PupilEvent::TABLE, &q).await;
}

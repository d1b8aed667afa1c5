//! youtube-scheduler (Python, Azure Functions and a Logic App, azure-data-tables): a student
//! project that schedules uploads to one YouTube channel. Sources at commit
//! d55e10f22fbd305fd53206f91d7500dcb7143a1f of https://github.com/youtube-scheduling/youtube-scheduler:
//! https://github.com/youtube-scheduling/youtube-scheduler/blob/d55e10f22fbd305fd53206f91d7500dcb7143a1f/Frontend/azure-static-web-app/api/addtable/__init__.py
//! with the getlist, gettable, edittable and deltable functions beside it and
//! `Data Structure/azure/logicapp.json`.
//!
//! Table `myTable` (also opened as `mytable`). addtable creates one entity per scheduled video:
//! PartitionKey `data` (every row), RowKey `str(uuid.uuid4())`, properties title,
//! description, tag, category, date and time as the form posts them. getlist lists the whole
//! table (`list_entities()`) for the page; gettable sends `RowKey eq '<rk>' and PartitionKey eq
//! '<pk>'` with the route's values; edittable replaces the posted entity (no ETag); deltable
//! deletes by both keys. The Logic App, triggered when a video blob is created, reads the row
//! `(data, <blob name>)`, calls the upload function with it, and deletes the row (with the ETag
//! it read) once the upload is launched.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "myTable", partition_key = "data", row_key = "{id}")]
struct ScheduledUpload {
    /// `uuid.uuid4()`, hyphenated.
    #[table(key_only)]
    id: Uuid,
    #[table(max_len = 100)]
    title: String,
    #[table(max_len = 5000)]
    description: String,
    /// Comma-separated tags.
    #[table(max_len = 500)]
    tag: String,
    #[table(max_len = 50)]
    category: String,
    /// `YYYY-MM-DD`, Korean time.
    #[table(max_len = 10)]
    date: String,
    /// `HH:MM`.
    #[table(max_len = 5)]
    time: String,
}

/// addtable: `create_entity`.
async fn add<B: Backend>(uploads: &Table<'_, B, ScheduledUpload>, row: &ScheduledUpload) {
    let _ = uploads.insert(row).await;
}

/// getlist: every row, for the page's list.
async fn list<B: Backend>(uploads: &Table<'_, B, ScheduledUpload>) {
    let _ = uploads.query_all(&Query::all()).await;
}

/// gettable: the filter it builds from the route's keys.
async fn get_by_route<B: Backend>(backend: &B, pk: &str, rk: &str) {
    let q = Query::filter(&format!("RowKey eq '{}' and PartitionKey eq '{}'", rk, pk)).unwrap();
    let _ = backend.query_page(ScheduledUpload::TABLE, &q).await;
}

/// edittable: `update_entity(mode=REPLACE)` of the posted body, no ETag.
async fn edit<B: Backend>(uploads: &Table<'_, B, ScheduledUpload>, row: &ScheduledUpload) {
    let _ = uploads.replace(row, IfMatch::Any).await;
}

/// deltable: `delete_entity` by both keys.
async fn delete<B: Backend>(
    uploads: &Table<'_, B, ScheduledUpload>,
    key: &<ScheduledUpload as TableEntity>::Key,
) {
    let _ = uploads.delete(key, IfMatch::Any).await;
}

/// The Logic App: the row named by the new blob, then its delete with the ETag it read.
async fn logic_app<B: Backend>(
    uploads: &Table<'_, B, ScheduledUpload>,
    key: &<ScheduledUpload as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = uploads.get(key).await;
    let _ = uploads.delete(key, IfMatch::ETag(etag)).await;
}

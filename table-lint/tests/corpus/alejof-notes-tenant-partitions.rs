//! alejof-notes-api (C#, Microsoft.Azure.Storage table SDK 9): the Azure Functions API of a
//! multi-tenant notes and publishing service (each tenant a site, signed in through its own
//! Auth0 tenant). Sources at commit 05b330a720cdacf004d7196e70615ae909635086 of
//! https://github.com/alejofv/alejof-notes-api:
//! https://github.com/alejofv/alejof-notes-api/blob/05b330a720cdacf004d7196e70615ae909635086/src/Infrastructure/Storage/Models/Entities.cs
//! with src/Infrastructure/Storage/Extensions/CloudTableExtensions.cs, src/Auth/Authenticator.cs,
//! src/Handlers/Notes/{CreateNote,EditNote,DeleteNote,GetNote,PublishNote}.cs,
//! src/Handlers/Media/{CreateMedia,DeleteMedia,GetMedia}.cs, src/Handlers/Content/Handler.cs and
//! src/Handlers/Audit/Audit.cs.
//!
//! - NoteAppTenants: PartitionKey `tenant`, RowKey the tenant id; ClientId and Domain of its
//!   Auth0 application. Read by Retrieve when a tenant's first request reaches a process.
//! - NoteAppEntries: PartitionKey the tenant id, RowKey `Guid.NewGuid().ToString("N")`; Title,
//!   Slug, BlobUri, IsPublished, PublishedBlobUri, PublishedDate.
//! - NoteAppEntryData: PartitionKey the tenant id, RowKey `{noteId}-{field}` (the note's extra
//!   fields); Value. Created in one batch, edited by a batch of InsertOrReplace and Delete.
//! - NoteAppMedia: PartitionKey the tenant id, RowKey `Guid.NewGuid().ToString()`; Name, BlobUri.
//! - NoteAppLogs: PartitionKey the tenant id, RowKey
//!   `string.Format("{0:D19}", DateTime.MaxValue.Ticks - DateTime.UtcNow.Ticks)`; Action,
//!   Request, Response. One Insert per audited (mutating) request.
//! Reads: a note or media item by Retrieve(tenant, id); the tenant's notes, data and media by
//! `PartitionKey eq '<tenant>'` (the first segment only); a note's data by `PartitionKey eq
//! '<tenant>' and RowKey gt '<id> ' and RowKey lt '<id>\x7f'` (FilterBy.Like). Deletes: a note by
//! its keys and its data rows, found by that range, in one batch; a media item by its keys.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "NoteAppTenants", partition_key = "tenant", row_key = "{tenant_id}")]
#[table(rename_all = "PascalCase")]
struct TenantEntity {
    #[table(max_len = 64)]
    tenant_id: String,
    client_id: Option<String>,
    domain: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "NoteAppEntries", partition_key = "{tenant_id}", row_key = "{note_id:N}")]
#[table(rename_all = "PascalCase")]
struct NoteEntity {
    #[table(max_len = 64)]
    tenant_id: String,
    /// `Guid.NewGuid().ToString("N")`: 32 hex digits.
    note_id: Uuid,
    title: Option<String>,
    slug: Option<String>,
    blob_uri: Option<String>,
    is_published: bool,
    published_blob_uri: Option<String>,
    published_date: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "NoteAppEntryData", partition_key = "{tenant_id}", row_key = "{note_id:N}-{field}")]
#[table(rename_all = "PascalCase")]
struct DataEntity {
    #[table(max_len = 64)]
    tenant_id: String,
    /// The note's id, 32 hex digits with no `-`.
    note_id: Uuid,
    /// The field's name, a key of the request's Data dictionary.
    #[table(max_len = 64)]
    field: String,
    value: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "NoteAppMedia", partition_key = "{tenant_id}", row_key = "{media_id}")]
#[table(rename_all = "PascalCase")]
struct MediaEntity {
    #[table(max_len = 64)]
    tenant_id: String,
    /// `Guid.NewGuid().ToString()`.
    #[table(max_len = 36)]
    media_id: String,
    name: Option<String>,
    blob_uri: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "NoteAppLogs", partition_key = "{tenant_id}", row_key = "{logged_at:inverted_ticks}")]
#[table(rename_all = "PascalCase")]
struct AuditLogEntity {
    #[table(max_len = 64)]
    tenant_id: String,
    /// `DateTime.UtcNow` when the audit row is built.
    logged_at: OffsetDateTime,
    action: Option<String>,
    /// The request's audit record, JSON.
    request: Option<String>,
    response: Option<String>,
}

/// ScanAsync: a tenant's notes, data rows or media.
fn tenant_rows(tenant: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", tenant)).unwrap()
}

/// QueryAsync with FilterBy.RowKey.Like(id): one note's data rows.
fn note_data(tenant: &str, note_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey gt '{} ' and RowKey lt '{}\u{7f}'",
        tenant, note_id, note_id
    ))
    .unwrap()
}

/// Authenticator: the tenant's Auth0 mapping, once per tenant and process.
async fn tenant_mapping<B: Backend>(tenants: &Table<'_, B, TenantEntity>, key: &<TenantEntity as TableEntity>::Key) {
    let _ = tenants.get(key).await;
}

/// GetNote (all), Content: the tenant's notes and their data; GetMedia: the tenant's media.
async fn listings<B: Backend>(
    notes: &Table<'_, B, NoteEntity>,
    data: &Table<'_, B, DataEntity>,
    media: &Table<'_, B, MediaEntity>,
    tenant: &str,
) {
    let _ = notes.query_page(&tenant_rows(tenant), None).await;
    let _ = data.query_page(&tenant_rows(tenant), None).await;
    let _ = media.query_page(&tenant_rows(tenant), None).await;
}

/// GetNote (one), EditNote, PublishNote, DeleteNote: the note by its keys and its data by the
/// prefix range; edits replace the note and upsert or delete data rows; a delete removes both.
async fn one_note<B: Backend>(
    notes: &Table<'_, B, NoteEntity>,
    data: &Table<'_, B, DataEntity>,
    key: &<NoteEntity as TableEntity>::Key,
    tenant: &str,
    note_id: &str,
    edited: &NoteEntity,
    field: &DataEntity,
) {
    let _ = notes.get(key).await;
    let rows = data.query_page(&note_data(tenant, note_id), None).await.unwrap();
    let _ = notes.replace(edited, IfMatch::Any).await;
    let _ = data.upsert(field).await;
    for row in rows.items {
        let _ = data.delete(&row.key(), IfMatch::Any).await;
    }
    let _ = notes.delete(key, IfMatch::Any).await;
}

/// CreateNote, CreateMedia, DeleteMedia and the audit handler's Insert.
async fn writes<B: Backend>(
    notes: &Table<'_, B, NoteEntity>,
    data: &Table<'_, B, DataEntity>,
    media: &Table<'_, B, MediaEntity>,
    logs: &Table<'_, B, AuditLogEntity>,
    note: &NoteEntity,
    field: &DataEntity,
    item: &MediaEntity,
    media_key: &<MediaEntity as TableEntity>::Key,
    log: &AuditLogEntity,
) {
    let _ = notes.insert(note).await;
    let _ = data.insert(field).await;
    let _ = media.insert(item).await;
    let _ = media.get(media_key).await;
    let _ = media.delete(media_key, IfMatch::Any).await;
    let _ = logs.insert(log).await;
}

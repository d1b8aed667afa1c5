//! Elmah.AzureTableStorage (C#, WindowsAzure.Storage): an ELMAH error-log provider that keeps an
//! ASP.NET application's unhandled exceptions in an Azure table. Sources (commit
//! 058010664767eaa247d7903f946d1b240e488a21 of https://github.com/MisinformedDNA/Elmah.AzureTableStorage):
//! https://github.com/MisinformedDNA/Elmah.AzureTableStorage/blob/058010664767eaa247d7903f946d1b240e488a21/src/Elmah.AzureTableStorage/AzureTableStorageErrorLog.cs,
//! with ElmahEntity.cs and AzureHelper.cs in the same folder.
//!
//! One table (`Elmah` unless configured). PartitionKey = the configured application name (at most
//! 60 characters) as Base64 of its UTF-8 bytes with `/` turned into `_`, so several applications
//! can share the table. RowKey = `DateTime.MaxValue.Ticks - DateTime.UtcNow.Ticks` written with
//! 19 digits, so the newest error comes first; nothing else goes into the key. Properties: the
//! error's XML and a few columns (host, type, source, message, user, status code). Log inserts
//! one row per error and returns the RowKey as the error's id. The error list pages with
//! `PartitionKey eq <app>` and Take((page + 1) * size), skipping the earlier pages on the
//! client. The detail page looks an error up by its id alone: a LINQ query on `RowKey == id`,
//! without the PartitionKey.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "Elmah", partition_key = "{app_key}", row_key = "{logged_at:inverted_ticks}")]
#[table(rename_all = "PascalCase")]
struct ElmahEntity {
    /// Base64 of the application name (60 characters at most, so up to 180 UTF-8 bytes), `/`
    /// replaced by `_`.
    #[table(max_len = 240)]
    app_key: String,
    /// `DateTime.UtcNow` when the error was logged; the original keeps it only in the key.
    logged_at: OffsetDateTime,
    application_name: String,
    host_name: String,
    #[table(rename = "Type")]
    error_type: String,
    source: String,
    message: String,
    user: String,
    status_code: i32,
    /// `ErrorXml.EncodeString(error)`.
    all_xml: String,
}

/// Log(error): `TableOperation.Insert`, one row per error.
async fn log<B: Backend>(errors: &Table<'_, B, ElmahEntity>, row: &ElmahEntity) {
    let _ = errors.insert(row).await;
}

/// GetErrors(pageIndex, pageSize): the application's newest `(pageIndex + 1) * pageSize` rows; the
/// earlier pages are skipped on the client.
async fn error_page<B: Backend>(backend: &B, app_key: &str, page_index: usize, page_size: usize) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", app_key))
        .unwrap()
        .top((page_index + 1) * page_size);
    let _ = backend.query_page(ElmahEntity::TABLE, &q).await;
}

/// GetError(id): the id is the RowKey; the query does not name the partition.
fn error_by_id(id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", id)).unwrap()
}

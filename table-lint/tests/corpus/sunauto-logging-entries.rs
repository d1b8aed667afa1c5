//! SunAuto logging service (C#, Azure Functions isolated worker, Azure.Data.Tables): a central
//! log store that the company's applications post their log lines to over HTTP, with search
//! endpoints and a monthly purge function. Sources (commit
//! d528a870cbb12a8a691149780ca6ba6a9beb0ac4 of https://github.com/SunAutoTire/Splunk.NET):
//! https://github.com/SunAutoTire/Splunk.NET/blob/d528a870cbb12a8a691149780ca6ba6a9beb0ac4/Service/LoggingApi.cs
//! with Service/LogQueue.cs, Service/Services/Entry.cs, Library/Entry.cs and
//! CleanTableLogs/LogUtilities.cs.
//!
//! One table of log entries: PartitionKey = the application's name (from the POST route),
//! RowKey = `Guid.NewGuid().ToString()` set by the entry's initializer; properties Level,
//! Message and Body (a serialized exception). The POST puts the entry on a queue and a queue
//! trigger writes it with AddEntityAsync. Searches join `PartitionKey eq '<app>'` terms with
//! `or` (one per application in the `a|b` route value), `Level eq '<level>'` terms with `or`,
//! and `Timestamp ge/le datetime'…'`, all three lists glued with ` and ` and no parentheses, and
//! return one page of 25 with a continuation link; with no application the filter holds only
//! the level and time terms. A single entry is read by `PartitionKey eq '<app>' and RowKey eq
//! '<guid>'` and deleted by DeleteEntityAsync(app, guid). The purge function (timer, monthly)
//! repeatedly queries `Timestamp le datetime'<now - PurgeDays>' and (Level eq 'Debug' or …)` in
//! pages of 1,000 and deletes each entity with its own request until nothing matches.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "logs", partition_key = "{application}", row_key = "{entry_id}")]
#[table(rename_all = "PascalCase")]
struct Entry {
    /// The application name from the route (`{application:alpha?}`).
    #[table(max_len = 100)]
    application: String,
    /// `Guid.NewGuid().ToString()`.
    entry_id: Uuid,
    /// `LogLevel.ToString()`: Trace, Debug, Information, Warning, Error, Critical.
    level: String,
    message: Option<String>,
    /// The serialized exception.
    body: Option<String>,
}

/// The search endpoint with two applications, two levels and a date range: the three lists are
/// joined with ` and ` without parentheses, as ListAsync builds them.
async fn search<B: Backend>(logs: &Table<'_, B, Entry>, a: &str, b: &str, l1: &str, l2: &str, from: &str, to: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' or PartitionKey eq '{}' and Level eq '{}' or Level eq '{}' and Timestamp ge datetime'{}' and Timestamp le datetime'{}'",
        a, b, l1, l2, from, to
    ))
    .unwrap()
    .top(25);
    let _ = logs.query_page(&q, None).await;
}

/// The search endpoint for one application and one level (ListByLevelAsync).
async fn search_one<B: Backend>(logs: &Table<'_, B, Entry>, app: &str, level: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and Level eq '{}'", app, level))
        .unwrap()
        .top(25);
    let _ = logs.query_page(&q, None).await;
}

/// The search endpoints with no application: levels and dates only.
async fn search_all_apps<B: Backend>(logs: &Table<'_, B, Entry>, level: &str, from: &str, to: &str) {
    let q = Query::filter(&format!(
        "Level eq '{}' and Timestamp ge datetime'{}' and Timestamp le datetime'{}'",
        level, from, to
    ))
    .unwrap()
    .top(25);
    let _ = logs.query_page(&q, None).await;
}

/// GetByRowKey: one entry.
async fn entry<B: Backend>(logs: &Table<'_, B, Entry>, app: &str, guid: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", app, guid)).unwrap();
    let _ = logs.query_page(&q, None).await;
}

/// LogQueue: AddEntityAsync; DeleteAsync: DeleteEntityAsync(app, guid).
async fn writes<B: Backend>(logs: &Table<'_, B, Entry>, e: &Entry, key: &<Entry as TableEntity>::Key) {
    let _ = logs.insert(e).await;
    let _ = logs.delete(key, IfMatch::Any).await;
}

/// CleanupOldEntriesAsync: pages of 1,000 old Debug/Trace entries, each deleted by itself.
async fn purge<B: Backend>(logs: &Table<'_, B, Entry>, cutoff: &str, key: &<Entry as TableEntity>::Key) {
    let q = Query::filter(&format!(
        "Timestamp le datetime'{}' and (Level eq 'Debug' or Level eq 'Trace')",
        cutoff
    ))
    .unwrap()
    .top(1000);
    let _ = logs.query_page(&q, None).await;
    let _ = logs.delete(key, IfMatch::Any).await;
}

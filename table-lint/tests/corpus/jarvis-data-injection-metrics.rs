//! project-jarvis (Go, Table REST API with SharedKey signing): an email-marketing operations
//! dashboard; its "data injections" view monitors a CRM table of contacts that partner feeds
//! load, one partition per data set. Sources (commit 34a8f99c279c62fe6527cc094cc5c3d3102ac3aa of
//! https://github.com/DrisanJames/project-jarvis):
//! https://github.com/DrisanJames/project-jarvis/blob/34a8f99c279c62fe6527cc094cc5c3d3102ac3aa/internal/azure/client.go
//! with internal/azure/collector.go, internal/azure/types.go and cmd/server/main.go.
//!
//! Table `ignitemediagroupcrm` (configurable). The rows are written elsewhere; the reader's
//! TableEntity type documents PartitionKey = the data-set code (e.g. `GLB_BR`), RowKey = a
//! unique identifier, Timestamp, and ContactData, a JSON string (email, names, partner, data
//! set, address, opt-in date). The collector starts with the server and refreshes every five
//! minutes: GetPartitionKeys reads the whole table (no filter, no $select) to collect the
//! distinct PartitionKeys; then for each code CountByPartitionKey reads `PartitionKey eq
//! '<code>'` and counts the rows, GetTodayCountByPartitionKey reads `PartitionKey eq '<code>' and
//! Timestamp ge datetime'<today 00:00Z>'`, GetLatestTimestamp and GetSampleContactData read the
//! partition with `$top` 1; finally GetDailyCounts reads `Timestamp ge datetime'<now - 7
//! days>'` over the whole table and counts rows per day and code in memory. Nothing writes or
//! deletes.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "ignitemediagroupcrm", partition_key = "{data_set_code}", row_key = "{row_id}")]
#[table(rename_all = "PascalCase")]
struct CrmContact {
    /// The data-set code of the partner feed, e.g. `GLB_BR`.
    #[table(key_only)]
    data_set_code: String,
    /// "Unique identifier": its form is set by the writer, which this repository does not hold.
    #[table(key_only)]
    row_id: String,
    /// The contact as JSON.
    contact_data: String,
}

/// GetPartitionKeys: QueryEntities with no filter, every row of the table.
fn every_contact() -> Query {
    Query::all()
}

/// CountByPartitionKey: the whole partition, counted in code.
fn data_set(code: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", code)).unwrap()
}

/// GetTodayCountByPartitionKey: the partition's rows since midnight UTC.
fn data_set_today(code: &str, midnight: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and Timestamp ge datetime'{}'", code, midnight)).unwrap()
}

/// GetLatestTimestamp and GetSampleContactData: `$top` 1 of the partition.
fn first_of_data_set(code: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", code)).unwrap().top(1)
}

/// GetDailyCounts(7): every row changed in the last seven days, over the whole table.
fn last_days(since: &str) -> Query {
    Query::filter(&format!("Timestamp ge datetime'{}'", since)).unwrap()
}

/// The collector's refresh, one page of each read.
async fn refresh<B: Backend>(contacts: &Table<'_, B, CrmContact>, code: &str, midnight: &str, since: &str) {
    let _ = contacts.query_page(&every_contact(), None).await;
    let _ = contacts.query_page(&data_set(code), None).await;
    let _ = contacts.query_page(&data_set_today(code, midnight), None).await;
    let _ = contacts.query_page(&first_of_data_set(code), None).await;
    let _ = contacts.query_page(&last_days(since), None).await;
}

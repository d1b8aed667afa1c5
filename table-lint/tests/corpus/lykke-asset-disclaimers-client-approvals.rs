//! Lykke AssetDisclaimers service (C#, WindowsAzure.Storage through Lykke's AzureStorage
//! wrapper): which disclaimers each exchange client has been shown and approved, and the
//! reverse look-up of every client that holds one disclaimer. Source (commit
//! 036d1bd4a1a1be0e4adc8e91c5ce961f19781b45 of https://github.com/LykkeCity/Lykke.Service.AssetDisclaimers):
//! https://github.com/LykkeCity/Lykke.Service.AssetDisclaimers/blob/036d1bd4a1a1be0e4adc8e91c5ce961f19781b45/src/Lykke.Service.AssetDisclaimers.AzureRepositories/ClientDisclaimerRepository.cs
//! with ClientDisclaimerEntity.cs and AutofacModule.cs (table names) in the same folder.
//!
//! Table `ClientDisclaimers`. The record: PartitionKey = the client id, RowKey = the disclaimer
//! id, properties ClientId, DisclaimerId, Approved, ApprovedDate. In the same table, an
//! AzureIndex pointer row per record: PartitionKey = the disclaimer id, RowKey =
//! `DisclaimerClientsIndex_` + the client id, holding the record's PartitionKey and RowKey.
//! InsertOrReplaceAsync upserts the record, then, as a separate request, upserts the pointer.
//! DeleteAsync deletes the record, then the pointer. GetAsync(client) reads the client's
//! partition; GetAsync(client, disclaimer) is a point read; FindAsync(disclaimer) reads the
//! disclaimer's pointer partition and then fetches each record the pointers name.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "ClientDisclaimers", partition_key = "{client_id}", row_key = "{disclaimer_id}")]
#[table(index(
    name = "by_disclaimer",
    partition_key = "{disclaimer_id}",
    row_key = "DisclaimerClientsIndex_{client_id}"
))]
#[table(rename_all = "PascalCase")]
struct ClientDisclaimer {
    /// The Lykke client id, a GUID the original keeps as text.
    #[table(as_string)]
    client_id: Uuid,
    /// The disclaimer id, a GUID the original keeps as text.
    #[table(as_string)]
    disclaimer_id: Uuid,
    approved: bool,
    approved_date: Option<OffsetDateTime>,
}

/// GetAsync(clientId): GetDataAsync(partition).
async fn client_disclaimers<B: Backend>(table: &Table<'_, B, ClientDisclaimer>, client_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", client_id)).unwrap();
    let _ = table.query_page(&q, None).await;
}

/// GetAsync(clientId, disclaimerId): GetDataAsync(partition, row).
async fn client_disclaimer<B: Backend>(table: &Table<'_, B, ClientDisclaimer>, key: &<ClientDisclaimer as TableEntity>::Key) {
    let _ = table.get(key).await;
}

/// FindAsync(disclaimerId): the pointer rows of the disclaimer's partition, then a read of each
/// record they point to.
async fn clients_of_disclaimer<B: Backend>(
    table: &Table<'_, B, ClientDisclaimer>,
    disclaimer_id: &str,
    pointed: &[<ClientDisclaimer as TableEntity>::Key],
) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ge 'DisclaimerClientsIndex_' and RowKey lt 'DisclaimerClientsIndex`'",
        disclaimer_id
    ))
    .unwrap();
    let _ = table.query_page(&q, None).await;
    for key in pointed {
        let _ = table.get(key).await;
    }
}

/// InsertOrReplaceAsync: the record, then the pointer (the runtime writes the declared index
/// copy; the original issues a second InsertOrReplace of its own).
async fn approve<B: Backend>(table: &Table<'_, B, ClientDisclaimer>, record: &ClientDisclaimer) {
    let _ = table.upsert(record).await;
}

/// DeleteAsync: the record, then the pointer.
async fn remove<B: Backend>(table: &Table<'_, B, ClientDisclaimer>, key: &<ClientDisclaimer as TableEntity>::Key) {
    let _ = table.delete(key, IfMatch::Any).await;
}

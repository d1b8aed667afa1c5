//! BOSH Azure CPI (Cloud Foundry's cloud provider interface for Azure, Ruby, azure-storage-table):
//! the `stemcells` table that records which storage accounts hold a copy of each stemcell.
//! Source:
//! https://github.com/cloudfoundry/bosh-azure-cpi-release/blob/eb3489edfa62a4bc75352287838f6d136854390c/src/bosh_azure_cpi/lib/cloud/azure/meta_store/meta_store.rb
//! with stemcell/stemcell_manager.rb and meta_store/table_manager.rb at the same commit.
//!
//! PartitionKey = the stemcell name (`bosh-stemcell-<uuid>`), RowKey = the storage account name,
//! `Status` = `pending` or `success`. To use a stemcell in another storage account, a process
//! inserts `pending`: on success it copies the VHD blob and updates the row to `success`; on a
//! 409 another process is copying, and this one polls the row (every 3 s, up to 20 minutes by the
//! row's Timestamp). Deleting a stemcell reads its partition and deletes each copy and its row.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "stemcells", partition_key = "{stemcell_name}", row_key = "{storage_account_name}")]
#[table(rename_all = "PascalCase")]
struct StemcellMeta {
    /// `bosh-stemcell-` followed by a UUID.
    stemcell_name: String,
    /// The storage account holding this copy (lower-case letters and digits).
    storage_account_name: String,
    /// `pending` while the copy runs, then `success`.
    status: String,
}

/// find_stemcell_meta(name): every copy of a stemcell.
fn copies_of(stemcell_name: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", stemcell_name)).unwrap()
}

/// find_first_stemcell_meta(name, storage_account_name): one copy.
fn copy_in(stemcell_name: &str, storage_account_name: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        stemcell_name, storage_account_name
    ))
    .unwrap()
}

/// insert_stemcell_meta (a 409 means another process holds the copy), update_stemcell_meta,
/// delete_stemcell_meta.
async fn claim_finish_remove<B: Backend>(
    stemcells: &Table<'_, B, StemcellMeta>,
    meta: &StemcellMeta,
    key: &<StemcellMeta as TableEntity>::Key,
) {
    let _ = stemcells.insert(meta).await;
    let _ = stemcells.replace(meta, IfMatch::Any).await;
    let _ = stemcells.delete(key, IfMatch::Any).await;
}

//! SettingX repositories service (C#, ASP.NET Core, Lykke AzureStorage tables over
//! WindowsAzure.Storage): the storage API of SettingX, a settings service whose client services
//! fetch their settings through connection URLs. This design is its ConnectionUrlHistory table,
//! the log of those fetches. Sources (commit 27cbfdfde1d6ab75a73ba32db6ed1e544b1396f1 of
//! https://github.com/SettingX/SettingX.Repositories.AzureTableStorage):
//! https://github.com/SettingX/SettingX.Repositories.AzureTableStorage/blob/27cbfdfde1d6ab75a73ba32db6ed1e544b1396f1/SettingX.Repositories.AzureTableStorage/Repositories/Repository/ConnectionUrlHistoryRepository.cs,
//! with Repositories/Repository/ConnectionUrlHistoricEntity.cs,
//! Controllers/ConnectionUrlHistoryController.cs and Modules/RepositoryModule.cs (all under
//! SettingX.Repositories.AzureTableStorage).
//!
//! Saving a fetch (POST api/connection_url_history/{repositoryId}) makes a new GUID and writes
//! two rows with InsertOrMerge, concurrently: PartitionKey `CUH`, RowKey the GUID, and
//! PartitionKey = the repository id, RowKey the same GUID; both hold RepositoryId, Ip and
//! UserAgent. The global page (GET with pageNum and pageSize) queries `PartitionKey eq 'CUH'`
//! segment by segment, skips (pageNum - 1) * pageSize rows on the client and returns the next
//! pageSize; its total is counted once per process by reading the whole partition in the
//! background, then incremented on each save. The repository view reads the repository's
//! partition; if that is empty it reads the `CUH` rows whose RepositoryId matches, rewrites them
//! into the repository's partition (InsertOrMergeBatchAsync) and returns them. Nothing deletes.

use table_runtime::{Backend, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "ConnectionUrlHistory", partition_key = "CUH", row_key = "{id}")]
#[table(index(name = "by_repository", partition_key = "{repository_id}", row_key = "{id}"))]
#[table(rename_all = "PascalCase")]
struct ConnectionUrlHistoricEntity {
    /// `Guid.NewGuid().ToString()` per fetch.
    id: Uuid,
    #[table(max_len = 64)]
    repository_id: String,
    ip: String,
    user_agent: String,
}

/// SaveConnectionUrlHistoricEventAsync: the two InsertOrMerge requests.
async fn save<B: Backend>(history: &Table<'_, B, ConnectionUrlHistoricEntity>, row: &ConnectionUrlHistoricEntity) {
    let _ = history.upsert(row).await;
}

/// GetPageAsync: the first `skip + page_size` rows of the CUH partition in key (GUID) order,
/// the skipped ones dropped on the client; and the background count, the whole partition.
async fn global_page<B: Backend>(backend: &B, page_num: usize, page_size: usize) {
    let skip = (page_num - 1) * page_size;
    let page = Query::filter("PartitionKey eq 'CUH'").unwrap().top(skip + page_size);
    let _ = backend.query_page(ConnectionUrlHistoricEntity::TABLE, &page).await;
    let count = Query::filter("PartitionKey eq 'CUH'").unwrap();
    let _ = backend.query_page(ConnectionUrlHistoricEntity::TABLE, &count).await;
}

/// GetByRepositoryIdAsync: the repository's partition, else the CUH rows of that repository.
async fn by_repository<B: Backend>(backend: &B, repository_id: &str) {
    let own = Query::filter(&format!("PartitionKey eq '{}'", repository_id)).unwrap();
    let _ = backend.query_page(ConnectionUrlHistoricEntity::TABLE, &own).await;
    let fallback = Query::filter(&format!(
        "PartitionKey eq 'CUH' and RepositoryId eq '{}'",
        repository_id
    ))
    .unwrap();
    let _ = backend.query_page(ConnectionUrlHistoricEntity::TABLE, &fallback).await;
}

//! SessionTableStorage (C#, WindowsAzure.Storage): an ASP.NET Session replacement and cache on
//! Azure Table Storage, published on NuGet as SessionTableStorage.Library. Source (commit
//! cf84c4471c12bacac6d79d196436a971d10d4af9 of https://github.com/adamosoftware/SessionTableStorage):
//! https://github.com/adamosoftware/SessionTableStorage/blob/cf84c4471c12bacac6d79d196436a971d10d4af9/SessionTableStorage.Library/SessionStorageBase.cs
//! with SessionTableStorage.Library/{StorageEntity,CacheableStorage,TimedCacheableStorage}.cs,
//! Tests/Classes/{MySession,CloudTableHelper}.cs and README.md.
//!
//! A `SessionStorageBase` is built for one PartitionKey (the README: "a user name, ASP.NET
//! SessionId or whatever makes sense"; the timed cache defaults to `app-timed-cacheable`), and
//! every value is one `StorageEntity` under it: RowKey = the caller's item key, property `Json` =
//! the Json.NET text of the value. SetAsync is InsertOrReplace; GetAsync is Retrieve(pk, rk);
//! DeleteAsync retrieves then deletes with the ETag read; GetAllEntitiesAsync and ClearAsync (the
//! "Session.Abandon") read the whole partition with `PartitionKey eq '<pk>'`, ClearAsync then
//! deleting each entity. CacheableStorage adds an `IsValid` flag inside the JSON
//! (InvalidateAsync = get + set); TimedCacheableStorage a LastUpdate inside the JSON. The table
//! is the subclass's choice; the tests use `SessionStorage`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "SessionStorage", partition_key = "{session_key}", row_key = "{item_key}")]
#[table(rename_all = "PascalCase")]
struct StorageEntity {
    /// The partition the storage object was built for: a user name, a session id, or
    /// `app-timed-cacheable` for the timed cache.
    session_key: String,
    /// The caller's name for the value (`"UserProfile"`, `"GitHubActivity"`).
    item_key: String,
    /// Json.NET text of the value.
    json: String,
}

/// GetAsync / QueryTableAsync: `TableOperation.Retrieve(PartitionKey, rowKey)`.
async fn get<B: Backend>(backend: &B, session_key: &str, item_key: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", session_key, item_key)).unwrap();
    let _ = backend.query_page(StorageEntity::TABLE, &q).await;
}

/// SetAsync: `TableOperation.InsertOrReplace`.
async fn set<B: Backend>(items: &Table<'_, B, StorageEntity>, item: &StorageEntity) {
    let _ = items.upsert(item).await;
}

/// DeleteAsync: retrieve, then delete with the entity's ETag.
async fn delete<B: Backend>(items: &Table<'_, B, StorageEntity>, item: &StorageEntity, etag: IfMatch) {
    let _ = items.delete_value(item, etag).await;
}

/// ClearAsync: every entity of the partition, then one delete each.
async fn clear<B: Backend>(backend: &B, session_key: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", session_key)).unwrap();
    let page = backend.query_page(StorageEntity::TABLE, &q).await.unwrap();
    for item in page.entities {
        let _ = backend
            .write(
                StorageEntity::TABLE,
                table_runtime::BatchOperation::Delete {
                    partition_key: item.partition_key,
                    row_key: item.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}

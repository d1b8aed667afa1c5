//! Bot Builder v4 for .NET (C#, WindowsAzure.Storage), `AzureTableStorage`: the early v4
//! `IStorage` provider that keeps a bot's state (user, conversation and dialog state objects)
//! in one Azure table. Source (commit 0308d942bb4940ddb4302ac3de78abaf19c6545b of
//! https://github.com/microsoft/botbuilder-dotnet):
//! https://github.com/microsoft/botbuilder-dotnet/blob/0308d942bb4940ddb4302ac3de78abaf19c6545b/libraries/Microsoft.Bot.Builder.Azure/AzureTableStorage.cs
//!
//! The caller passes storage keys such as `{channel}/conversations/{conversation}` or
//! `{channel}/users/{user}`; `EntityKey` makes the whole key the PartitionKey, with `\ ? / #`
//! and tab, CR and LF replaced by `%` and two hex digits, and leaves the RowKey empty. So each
//! stored object is alone in its partition. Read(keys) runs one Retrieve(pk, "") per key in
//! parallel; Write(changes) flattens each object into properties plus `__type`, then runs
//! InsertOrReplace when the item carries no ETag (or `*`) and Replace with the item's ETag
//! otherwise (optimistic concurrency); Delete(keys) deletes each key with ETag `*`. There are
//! no queries.

use table_runtime::{Backend, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "botstate", partition_key = "{storage_key}", row_key = "")]
struct StoreItem {
    /// The caller's storage key after SanitizeKey (`msteams%2fconversations%2f19:abc…`).
    storage_key: String,
    /// The assembly-qualified type name used to rebuild the object.
    #[table(rename = "__type")]
    type_name: String,
    /// The object's flattened properties (EntityPropertyConverter.Flatten), one column each in
    /// the original; one text column stands for them here.
    state: String,
}

/// Read: one point read per requested key, all in parallel.
async fn read<B: Backend>(store: &Table<'_, B, StoreItem>, keys: &[<StoreItem as TableEntity>::Key]) {
    for key in keys {
        let _ = store.get(key).await;
    }
}

/// Write: InsertOrReplace for a new item (or ETag `*`), Replace with the item's ETag otherwise.
async fn write<B: Backend>(store: &Table<'_, B, StoreItem>, item: &StoreItem, etag: Option<IfMatch>) {
    match etag {
        None => {
            let _ = store.upsert(item).await;
        }
        Some(if_match) => {
            let _ = store.replace(item, if_match).await;
        }
    }
}

/// Delete: unconditional delete of each key; a missing entity is ignored.
async fn delete<B: Backend>(store: &Table<'_, B, StoreItem>, key: &<StoreItem as TableEntity>::Key) {
    let _ = store.delete(key, IfMatch::Any).await;
}

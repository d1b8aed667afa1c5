//! botbuilder-azuretablestorage (TypeScript, Node.js, the `azure-storage` TableService): a
//! Bot Framework v4 `Storage` provider that keeps bot and conversation state in an Azure table.
//! Source (commit 0a3c08889b2453f57056203bcf020510a553116b of
//! https://github.com/szul/botbuilder-azuretablestorage):
//! https://github.com/szul/botbuilder-azuretablestorage/blob/0a3c08889b2453f57056203bcf020510a553116b/src/tableStorage.ts
//!
//! The table is named by the bot's settings (letters and digits only). Every store item is one
//! entity: PartitionKey = the storage key the bot framework hands in (for instance
//! `{channel}/conversations/{conversation id}` or `{channel}/users/{user id}`), with `\ ? / #`,
//! tab, CR and LF replaced by `%` and the character code in hex; RowKey = the empty string.
//! The item object is flattened with the `flat` package (`_` between path segments) into one
//! column per leaf, typed as DateTime, Boolean, Int32 / Int64 / Double or String by value.
//!
//! read(keys): one retrieveEntity per key, in parallel; a 404 drops the key from the result.
//! write(changes): insertOrReplaceEntity when the item's eTag is missing or `*`, otherwise
//! replaceEntity carrying the eTag (optimistic concurrency). delete(keys): deleteEntity with
//! eTag `*` per key, a 404 ignored. There are no queries.

use table_runtime::{Backend, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "botstate", partition_key = "{storage_key}", row_key = "")]
struct BotStateItem {
    /// The framework's storage key after `sanitizeKey` (`%` plus hex for the refused characters).
    storage_key: String,
    /// Stands for the item's flattened leaves, which the original writes one column each.
    state: String,
}

/// read: a point read (PartitionKey = the sanitized key, RowKey = "") per requested key.
async fn read<B: Backend>(
    items: &Table<'_, B, BotStateItem>,
    keys: &[<BotStateItem as TableEntity>::Key],
) {
    for key in keys {
        let _ = items.get(key).await;
    }
}

/// write: an unconditional upsert for a new item or eTag `*`, else a replace with the eTag.
async fn write<B: Backend>(
    items: &Table<'_, B, BotStateItem>,
    item: &BotStateItem,
    if_match: Option<IfMatch>,
) {
    if let Some(condition) = if_match {
        let _ = items.replace(item, condition).await;
    } else {
        let _ = items.upsert(item).await;
    }
}

/// delete: deleteEntity with eTag `*`; a missing entity is not an error.
async fn delete<B: Backend>(
    items: &Table<'_, B, BotStateItem>,
    key: &<BotStateItem as TableEntity>::Key,
) {
    let _ = items.delete(key, IfMatch::Any).await;
}

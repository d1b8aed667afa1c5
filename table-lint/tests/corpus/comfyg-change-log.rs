//! Comfyg (C#, ASP.NET Core, Azure.Data.Tables with the Azure.Data.Tables.Poco mapper): the
//! change log of the configuration store, which its clients poll to pick up changed values.
//! Sources (commit 2c35f4f1f5a0971f426ceaa8aad00d7757728ad6 of
//! https://github.com/DavidVollmers/Comfyg):
//! https://github.com/DavidVollmers/Comfyg/blob/2c35f4f1f5a0971f426ceaa8aad00d7757728ad6/packages/Store/Comfyg.Store.Core/Changes/ChangeService.cs,
//! with Changes/ChangeLogEntity.cs and ComfygCoreExtensions.cs in the same folder,
//! packages/Store/Comfyg.Store.Api/Controllers/ValueControllerBase.cs and
//! packages/Comfyg/ComfygOptions.cs.
//!
//! Every add or tag of a value logs one change, written twice, to two tables, by two separate
//! AddAsync calls. `ComfygChangeLogEntity`: PartitionKey = `{TargetType.FullName}-{TargetId}`
//! (the value kind's interface name and the lower-cased value key), RowKey = `ChangedAt.Ticks` in
//! decimal. `ComfygChangeLogEntityMirrored`: PartitionKey = the value kind's type name alone,
//! RowKey = `{TargetId}-{ChangedAt.Ticks}`. There are three value kinds (configuration values,
//! settings, secrets), so the mirrored table has three partitions. Properties: TargetType,
//! TargetId, ChangedAt, ChangeType, ChangedBy. The only read is GetChangesSinceAsync, behind the
//! "values changed since" endpoint that clients poll (every five minutes for settings by
//! default): `PartitionKey eq '<type name>' and ChangedAt ge datetime'…'` on the mirrored table;
//! the caller then drops, in memory, the changes of keys the client holds no permission on. The
//! first table is never read. Nothing is ever deleted.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "ComfygChangeLogEntity", partition_key = "{target_type}-{target_id}", row_key = "{changed_at:unpadded_ticks}")]
#[table(rename_all = "PascalCase")]
struct ChangeLogEntity {
    /// `typeof(T).FullName` of the value kind, e.g. `Comfyg.Store.Contracts.IConfigurationValue`.
    target_type: String,
    /// The value's key, lower-cased.
    target_id: String,
    changed_at: OffsetDateTime,
    /// `Add` or `Tag`, as the mapper writes the enum.
    change_type: String,
    /// The client id that made the change.
    changed_by: String,
}

#[derive(TableEntity)]
#[table(name = "ComfygChangeLogEntityMirrored", partition_key = "{target_type}", row_key = "{target_id}-{changed_at:unpadded_ticks}")]
#[table(rename_all = "PascalCase")]
struct ChangeLogEntityMirrored {
    /// One of the three value kinds' type names.
    target_type: String,
    target_id: String,
    changed_at: OffsetDateTime,
    change_type: String,
    changed_by: String,
}

/// GetChangesSinceAsync: every change of one value kind since a time, tested on ChangedAt.
fn changes_since(type_name: &str, since_iso: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and ChangedAt ge datetime'{}'",
        type_name, since_iso
    ))
    .unwrap()
}

/// LogChangeAsync: AddAsync to the first table, then AddAsync to the mirrored one.
async fn log_change<B: Backend>(
    log: &Table<'_, B, ChangeLogEntity>,
    mirrored: &Table<'_, B, ChangeLogEntityMirrored>,
    change: &ChangeLogEntity,
    copy: &ChangeLogEntityMirrored,
) {
    let _ = log.insert(change).await;
    let _ = mirrored.insert(copy).await;
}

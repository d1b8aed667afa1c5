//! Comfyg (C#, ASP.NET Core, Azure.Data.Tables with the Azure.Data.Tables.Poco mapper): a
//! self-hosted configuration store whose API serves configuration values, settings and secrets to
//! .NET clients. This is its value table. Sources (commit
//! 2c35f4f1f5a0971f426ceaa8aad00d7757728ad6 of https://github.com/DavidVollmers/Comfyg):
//! https://github.com/DavidVollmers/Comfyg/blob/2c35f4f1f5a0971f426ceaa8aad00d7757728ad6/packages/Store/Comfyg.Store.Core/ValueService.cs,
//! with ComfygValueEntity.cs, Configuration/ConfigurationValueEntity.cs and ComfygCoreExtensions.cs
//! in the same folder, packages/Store/Comfyg.Store.Contracts/ComfygConstants.cs and
//! packages/Store/Comfyg.Store.Api/Controllers/ValueControllerBase.cs.
//!
//! Each kind of value has a table of its own, named `Comfyg` + the entity class
//! (`ComfygConfigurationValueEntity`, and the same layout for settings and secrets). PartitionKey =
//! the value's key, lower-cased; RowKey = a version string, lower-cased. Adding a value writes two
//! rows in the key's partition, one after the other and not in one transaction: a history row
//! whose RowKey is `long.MaxValue - UtcNow.Ticks` in decimal (19 digits, newest first), inserted,
//! and the row `latest`, upserted with the same value and a ParentVersion naming the history row.
//! Tagging copies a version to `{version}-{tag}` (insert) and upserts `latest-{tag}`. Properties:
//! Value, CreatedAt, Hash (a SHA-256 of the plain value, to skip unchanged pushes), ParentVersion,
//! IsEncrypted. Every read is a point read (GetIfExistsAsync): a value by key and version
//! (`latest` by default), the `latest` row before an add to compare hashes, and, for the list of
//! a client's values, one point read of `latest` per key the client holds a permission on.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "ComfygConfigurationValueEntity", partition_key = "{key}", row_key = "{version}")]
#[table(rename_all = "PascalCase")]
struct ConfigurationValueEntity {
    /// The configuration key as the client names it, lower-cased by the entity.
    key: String,
    /// `latest`, `latest-{tag}`, the 19 digits of `long.MaxValue - ticks`, or those digits and
    /// `-{tag}`.
    version: String,
    value: String,
    created_at: OffsetDateTime,
    hash: Option<String>,
    parent_version: Option<String>,
    is_encrypted: bool,
}

/// GetValueAsync / GetLatestValueAsync, and the per-permission reads of GetLatestValuesAsync.
fn value_at_version(key: &str, version: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", key, version)).unwrap()
}

/// AddValueAsync: the history row is added, then `latest` is upserted (two requests).
/// TagValueAsync does the same with the tagged version and `latest-{tag}`.
async fn add_value<B: Backend>(
    values: &Table<'_, B, ConfigurationValueEntity>,
    history: &ConfigurationValueEntity,
    latest: &ConfigurationValueEntity,
) {
    let _ = values.insert(history).await;
    let _ = values.upsert(latest).await;
}

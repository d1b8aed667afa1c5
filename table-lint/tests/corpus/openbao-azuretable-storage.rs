//! evva-sfw/openbao (Go, a fork of OpenBao, the open-source Vault): the `azuredatatable`
//! physical storage backend, which keeps every storage entry of the server (secrets, tokens,
//! leases, policies, mounts, the keyring) in one Azure table. Sources (commit
//! ab2f178f2a59842a351cf5c5b2d4bd67e58cfb43 of https://github.com/evva-sfw/openbao):
//! https://github.com/evva-sfw/openbao/blob/ab2f178f2a59842a351cf5c5b2d4bd67e58cfb43/plugins/azuretable/azuretable.go,
//! with plugins/azuretable/README.md and command/commands.go (which registers it) at the same
//! commit.
//!
//! Table: `table_name` from the configuration (`OpenBaoSecrets` in the README). PartitionKey =
//! `secrets` for every key outside a namespace, `secrets-<namespace id>` for keys under
//! `namespaces/<id>/`. RowKey = the SHA-256 of the full storage path, 64 hex digits.
//! Properties: `Value`, the entry's bytes, which Go's JSON encoder writes as a base64 string (no
//! `Edm.Binary` annotation), and `OrigKey`, the full path.
//!
//! The server calls the backend for every storage access it does not serve from its own cache.
//! Get: GetEntity by both keys (404 means absent). Put: UpsertEntity (replace), retried on 5xx.
//! Delete: DeleteEntity by both keys, unconditional, 404 treated as done. List(prefix), which the
//! server uses to walk its storage tree (mount tables, leases under `sys/expire/id/`, tokens,
//! KV listings), and ListPage(prefix, after, limit): a query on the prefix's partition, `PartitionKey
//! eq '<p>' and OrigKey ge '<prefix>' and OrigKey lt '<prefix>~'` (ListPage adds `and OrigKey gt
//! '<prefix><after>'`), selecting OrigKey and following every page; the folder names, the sort
//! order and the limit are worked out in memory.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

/// An entry outside any namespace: the whole store of a server that uses no namespaces.
#[derive(TableEntity)]
#[table(name = "OpenBaoSecrets", partition_key = "secrets", row_key = "{key_hash}")]
#[table(rename_all = "PascalCase")]
struct RootEntry {
    /// hex(SHA-256(path)).
    #[table(max_len = 64)]
    key_hash: String,
    /// base64 of the entry's bytes, as a string property.
    value: String,
    /// The storage path, e.g. `sys/expire/id/auth/token/create/h1a2b3`.
    orig_key: String,
}

/// An entry under `namespaces/<id>/`.
#[derive(TableEntity)]
#[table(name = "OpenBaoSecrets", partition_key = "secrets-{namespace_id}", row_key = "{key_hash}")]
#[table(rename_all = "PascalCase")]
struct NamespacedEntry {
    namespace_id: String,
    #[table(max_len = 64)]
    key_hash: String,
    value: String,
    orig_key: String,
}

/// Get, Put (UpsertEntity, replace mode) and Delete, all by both keys.
async fn entry_ops<B: Backend>(
    entries: &Table<'_, B, RootEntry>,
    entry: &RootEntry,
    key: &<RootEntry as TableEntity>::Key,
) {
    let _ = entries.get(key).await;
    let _ = entries.upsert(entry).await;
    let _ = entries.delete(key, IfMatch::Any).await;
}

/// List(prefix): every path of the partition in the prefix's range, all pages.
async fn list<B: Backend>(backend: &B, partition: &str, prefix: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and OrigKey ge '{}' and OrigKey lt '{}~'",
        partition, prefix, prefix
    ))
    .unwrap()
    .select(["OrigKey"]);
    let _ = backend.query_page(RootEntry::TABLE, &q).await;
}

/// ListPage(prefix, after, limit): the same scan from a cursor; sorting and the limit are
/// applied in memory.
async fn list_page<B: Backend>(backend: &B, partition: &str, prefix: &str, after: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and OrigKey ge '{}' and OrigKey lt '{}~' and OrigKey gt '{}{}'",
        partition, prefix, prefix, prefix, after
    ))
    .unwrap()
    .select(["OrigKey"]);
    let _ = backend.query_page(RootEntry::TABLE, &q).await;
}

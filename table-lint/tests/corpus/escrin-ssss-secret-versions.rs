//! Escrin SSSS (Rust, azure_data_tables): the Simple Secret Sharing Server of the Escrin
//! project keeps secret shares and keys in Azure Key Vault and their version metadata, plus the
//! verifier configuration of each permitter, in Azure tables. Source (commit
//! 7afea5046ae2cde8b456221d21c128ef7750239d of https://github.com/escrin/escrin):
//! https://github.com/escrin/escrin/blob/7afea5046ae2cde8b456221d21c128ef7750239d/ssss/src/backend/azure.rs
//! with ssss/src/backend/mod.rs (the `ToKey` impls) at the same commit.
//!
//! `secretversions`: PartitionKey = the secret's id without its version,
//! `share-{secret name}-{identity locator}` for a share or `key-{name}-{identity locator}` for a
//! key, where the locator is `{chain}-{registry:#x}-{identity:#x}`; RowKey = the version as an
//! "inverse sortable int", the 16 hex digits of `u64::MAX - version`, so the newest version is
//! the first row of its partition. Properties: the Key Vault version `guid` and an optional
//! `expiry` (a pending share is written with a deadline and committed by merging `expiry: 0`).
//! The latest version is read with `PartitionKey eq '<id>'` and `$top=1`; a given version with
//! `PartitionKey eq … and RowKey eq …`; a new version is inserted (Insert, so a concurrent writer
//! of the same version gets a conflict) after checking that it is the latest plus one.
//! `verifiers`: PartitionKey = the permitter locator `{chain}-{permitter:#x}`, RowKey = the
//! identity locator, property `config` (hex); written with InsertOrReplace and read with a key
//! filter and `$top=1`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "secretversions",
    partition_key = "share-{secret_name}-{identity_locator}",
    row_key = "{inverted_version:020}"
)]
struct ShareVersionEntity {
    /// The share's name as the worker gives it.
    #[table(max_len = 128)]
    secret_name: String,
    /// `{chain}-{registry:#x}-{identity:#x}`.
    #[table(max_len = 140)]
    identity_locator: String,
    /// `u64::MAX - version`: the newest version sorts first.
    #[table(as_string)]
    inverted_version: u64,
    /// The Key Vault secret version holding this version's value.
    guid: String,
    /// Unix seconds until which an uncommitted share stays pending; 0 once committed. A `u64`
    /// in the original; written as `i64`, which holds every such count, since the derive takes
    /// a `u64` only with a declared `max` and the original declares none.
    expiry: Option<i64>,
}

#[derive(TableEntity)]
#[table(
    name = "secretversions",
    partition_key = "key-{key_name}-{identity_locator}",
    row_key = "{inverted_version:020}"
)]
struct KeyVersionEntity {
    #[table(max_len = 128)]
    key_name: String,
    #[table(max_len = 140)]
    identity_locator: String,
    #[table(as_string)]
    inverted_version: u64,
    guid: String,
    expiry: Option<i64>,
}

#[derive(TableEntity)]
#[table(name = "verifiers", partition_key = "{permitter_locator}", row_key = "{identity_locator}")]
struct VerifierEntity {
    /// `{chain}-{permitter:#x}`.
    #[table(max_len = 64)]
    permitter_locator: String,
    #[table(max_len = 140)]
    identity_locator: String,
    /// The verifier's configuration, hex encoded.
    config: String,
}

/// get_secret_meta(Latest): the first row of the secret's partition is its newest version.
async fn latest_share_version<B: Backend>(versions: &Table<'_, B, ShareVersionEntity>, secret_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", secret_id)).unwrap().top(1);
    let _ = versions.query_page(&q, None).await;
}

/// get_secret_meta(Numbered(n)): one version, by both keys.
async fn share_version<B: Backend>(versions: &Table<'_, B, ShareVersionEntity>, secret_id: &str, inverted: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", secret_id, inverted))
        .unwrap()
        .top(1);
    let _ = versions.query_page(&q, None).await;
}

/// get_current_verifier: one permitter's verifier for one identity.
async fn verifier<B: Backend>(verifiers: &Table<'_, B, VerifierEntity>, permitter: &str, identity: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", permitter, identity))
        .unwrap()
        .top(1);
    let _ = verifiers.query_page(&q, None).await;
}

/// put_secret (insert of the next version), commit_share (merge of `expiry: 0`, any ETag) and
/// put_verifier (InsertOrReplace).
async fn writes<B: Backend>(
    shares: &Table<'_, B, ShareVersionEntity>,
    keys: &Table<'_, B, KeyVersionEntity>,
    verifiers: &Table<'_, B, VerifierEntity>,
    share: &ShareVersionEntity,
    key: &KeyVersionEntity,
    verifier: &VerifierEntity,
) {
    let _ = shares.insert(share).await;
    let _ = shares.merge(share, IfMatch::Any).await;
    let _ = keys.insert(key).await;
    let _ = verifiers.upsert(verifier).await;
}

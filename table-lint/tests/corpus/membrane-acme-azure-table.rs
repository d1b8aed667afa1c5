//! Membrane API Gateway (Java, Azure Tables REST API): the ACME (Let's Encrypt) state of a
//! gateway kept in an Azure table. Sources (commit cfed5bace3f9936f33e1debbcf37eb30036700fd of
//! https://github.com/membrane/api-gateway):
//! core/src/main/java/com/predic8/membrane/core/transport/ssl/acme/AcmeAzureTableApiStorageEngine.java,
//! core/src/main/java/com/predic8/membrane/core/azure/AzureTableStorage.java and
//! core/src/main/java/com/predic8/membrane/core/azure/api/tablestorage/TableEntityCommandExecutor.java.
//!
//! Table `membrane`, PartitionKey `acme` (both configurable per gateway, these are the
//! defaults). One entity per named value, RowKey = the name, one property `data`: `account`,
//! `account-url`, `account-contacts`, `key-{id}-pub.pem`, `key-{id}.pem`, `cert-{id}.pem`,
//! `token-{host}`, `oal-{id}-current.json` (and `-current-error`, `-current-key`), where `{id}` is
//! the first host name, `-` and a non-negative hash of the host list. Every read is a point GET
//! `(PartitionKey='acme',RowKey='…')`, every write an `InsertOrReplace` PUT; archiving an order
//! copies the `oal-*-current*` rows to `oal-{id}-{millis}…` names and deletes the originals. The
//! engine is used by a single gateway instance (its lease methods always succeed), at startup and
//! when a certificate is ordered or renewed.

use table_runtime::{Backend, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "membrane", partition_key = "acme", row_key = "{name}")]
struct AcmeValue {
    /// e.g. `account`, `cert-api.example.com-123456789.pem`, `token-api.example.com`.
    name: String,
    /// The PEM, JSON or token text.
    data: String,
}

/// getEntity(rowKey): `GET …/membrane(PartitionKey='acme',RowKey='…')`.
async fn get_value<B: Backend>(
    values: &Table<'_, B, AcmeValue>,
    key: &<AcmeValue as TableEntity>::Key,
) -> Option<AcmeValue> {
    values.get(key).await.ok().flatten()
}

/// upsertDataEntity: `PUT …(PartitionKey='acme',RowKey='…')` with `{"data": …}`.
async fn put_value<B: Backend>(values: &Table<'_, B, AcmeValue>, value: &AcmeValue) {
    let _ = values.upsert(value).await;
}

/// archiveOAL / attemptRename: the copy written under its new name, then the old row deleted
/// with `If-Match: *`.
async fn rename_value<B: Backend>(
    values: &Table<'_, B, AcmeValue>,
    copy: &AcmeValue,
    old: &<AcmeValue as TableEntity>::Key,
) {
    let _ = values.upsert(copy).await;
    let _ = values.delete(old, IfMatch::Any).await;
}

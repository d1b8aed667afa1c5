//! IdentityServer3.Contrib.Store.AzureTableStorage (C#, WindowsAzure.Storage): the consent and
//! client stores of this IdentityServer3 persistence library. Sources (commit
//! 66617a4419bb19d8b888e3720c1f3ce0a2b66cd2 of
//! https://github.com/kylesonaty/IdentityServer3.Contrib.Store.AzureTableStorage):
//! https://github.com/kylesonaty/IdentityServer3.Contrib.Store.AzureTableStorage/blob/66617a4419bb19d8b888e3720c1f3ce0a2b66cd2/src/IdentityServer3.Contrib.Store.AzureTableStorage/AzureTableStorageConsentStore.cs,
//! AzureTableStorageClientStore.cs, ConsentEntity.cs, ClientEntity.cs and StringExtensions.cs in
//! the same folder.
//!
//! Consent: PartitionKey = the user's subject id, RowKey = the client id, with the granted scopes
//! joined by commas. LoadAsync is Retrieve(subject, client), LoadAllAsync lists
//! `PartitionKey eq '<subject>'`, UpdateAsync is InsertOrReplace, RevokeAsync deletes
//! (subject, client) with ETag `*`. Clients: PartitionKey = the first three characters of the
//! client id (`GetParitionKey()`), RowKey = the client id, with the client serialized as JSON;
//! the store only reads it, with Retrieve(prefix, clientId), on each authorization request.
//! Clients are provisioned outside the library.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Consent", partition_key = "{subject}", row_key = "{client_id}")]
#[table(rename_all = "PascalCase")]
struct ConsentEntity {
    /// The user's subject id.
    subject: String,
    client_id: String,
    /// `string.Join(",", consent.Scopes)`.
    scopes: String,
}

#[derive(TableEntity)]
#[table(name = "Clients", partition_key = "{client_prefix}", row_key = "{client_id}")]
#[table(rename_all = "PascalCase")]
struct ClientEntity {
    /// `clientId.Substring(0, 3)`.
    #[table(max_len = 3)]
    client_prefix: String,
    client_id: String,
    /// The IdentityServer3 Client, serialized.
    json: String,
}

/// LoadAllAsync(subject): the user's consents, for the permissions page.
async fn consents_of<B: Backend>(consents: &Table<'_, B, ConsentEntity>, subject: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", subject)).unwrap();
    let _ = consents.query_page(&q, None).await;
}

/// LoadAsync(subject, client), UpdateAsync (InsertOrReplace) and RevokeAsync (Delete, `*`).
async fn consent_ops<B: Backend>(
    consents: &Table<'_, B, ConsentEntity>,
    row: &ConsentEntity,
    key: &<ConsentEntity as TableEntity>::Key,
) {
    let _ = consents.get(key).await;
    let _ = consents.upsert(row).await;
    let _ = consents.delete(key, IfMatch::Any).await;
}

/// FindClientByIdAsync: Retrieve(clientId.Substring(0, 3), clientId).
async fn client<B: Backend>(clients: &Table<'_, B, ClientEntity>, key: &<ClientEntity as TableEntity>::Key) {
    let _ = clients.get(key).await;
}

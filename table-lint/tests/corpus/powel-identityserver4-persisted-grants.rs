//! Powel's IdentityServer4 operational store on Azure tables (`PersistedGrantStore`, C#,
//! WindowsAzure.Storage). Sources:
//! https://github.com/PowelAS/IdentityServer4.AzureTableStorage/blob/10834948d8c73b22af27f3cc665b8f0d63bbe14c/src/Powel.AzureTableStorage.IdentityServer4/Stores/PersistedGrantStore.cs
//! with Entities/PersistedGrant.cs, Mappers/PersistedGrantMapperProfile.cs and TokenCleanup.cs at
//! the same commit.
//!
//! Table `IdentityServer4PersistedGrantStore`. IdentityServer hands the store its persisted grants
//! (authorization codes, refresh tokens, reference tokens, consents). The AutoMapper profile puts
//! `WebUtility.UrlEncode(grant.Key)` in the PartitionKey and `grant.SubjectId` in the RowKey; the
//! other properties are `Type`, `ClientId`, `CreationTime`, `Expiration` (nullable) and `Data`.
//! StoreAsync is an InsertOrReplace. GetAsync(key) and RemoveAsync(key) query
//! `PartitionKey eq <encoded key>` and take the first row (RemoveAsync then deletes it).
//! GetAllAsync(subjectId) filters `RowKey eq <subject>`; RemoveAllAsync(subject, client) adds
//! `ClientId eq`, and RemoveAllAsync(subject, client, type) adds `Type eq` as well; both delete
//! what they read one entity at a time. The expired-token cleanup loop throws
//! NotImplementedException, so nothing ever removes expired grants.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "IdentityServer4PersistedGrantStore", partition_key = "{key}", row_key = "{subject_id}")]
#[table(rename_all = "PascalCase")]
struct PersistedGrant {
    /// `WebUtility.UrlEncode(PersistedGrant.Key)`: IdentityServer's grant handle (a hash in
    /// base64, whose `/`, `+` and `=` become `%2F`, `%2B`, `%3D`). Kept only in the key.
    key: String,
    /// `PersistedGrant.SubjectId`, the user's id from the identity store. Kept only in the key.
    subject_id: String,
    /// `authorization_code`, `refresh_token`, `reference_token` or `user_consent`.
    #[table(rename = "Type")]
    kind: String,
    client_id: String,
    creation_time: OffsetDateTime,
    expiration: Option<OffsetDateTime>,
    /// The serialized grant.
    data: String,
}

/// StoreAsync: `TableOperation.InsertOrReplace` of the mapped entity.
async fn store<B: Backend>(grants: &Table<'_, B, PersistedGrant>, grant: &PersistedGrant) {
    let _ = grants.upsert(grant).await;
}

/// GetEntityAsync(key), behind GetAsync and RemoveAsync: the grant's partition, paged until a
/// segment holds a row, the first row kept.
fn grant_by_key(encoded_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", encoded_key)).unwrap()
}

/// RemoveAsync(key): the row GetEntityAsync found, deleted with its ETag (`TableOperation.Delete`
/// of the entity read; `*` here, as the ETag is the one just read).
async fn remove<B: Backend>(grants: &Table<'_, B, PersistedGrant>, encoded_key: &str) {
    let page = grants.query_page(&grant_by_key(encoded_key), None).await.unwrap();
    if let Some(row) = page.items.into_iter().next() {
        let _ = grants.delete(&row.key(), IfMatch::Any).await;
    }
}

/// GetAllAsync(subjectId): every grant of one user, by the RowKey alone.
fn grants_of_subject(subject_id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", subject_id)).unwrap()
}

/// RemoveAllAsync(subjectId, clientId): a user's grants for one client, read by the RowKey and
/// `ClientId` (CombineFilters with `and`), then deleted one by one.
async fn remove_all_for_client<B: Backend>(
    grants: &Table<'_, B, PersistedGrant>,
    subject_id: &str,
    client_id: &str,
) {
    let q = Query::filter(&format!("(RowKey eq '{}') and (ClientId eq '{}')", subject_id, client_id)).unwrap();
    let page = grants.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = grants.delete(&row.key(), IfMatch::Any).await;
    }
}

/// RemoveAllAsync(subjectId, clientId, type): the same with the grant type too.
async fn remove_all_of_type<B: Backend>(
    grants: &Table<'_, B, PersistedGrant>,
    subject_id: &str,
    client_id: &str,
    kind: &str,
) {
    let q = Query::filter(&format!(
        "(RowKey eq '{}') and ((ClientId eq '{}') and (Type eq '{}'))",
        subject_id, client_id, kind
    ))
    .unwrap();
    let page = grants.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = grants.delete(&row.key(), IfMatch::Any).await;
    }
}

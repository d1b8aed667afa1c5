//! SpringComp.IdentityServer.TableStorage (IdentityServer4 stores on Azure tables): the
//! persisted grant store (refresh tokens, reference tokens, authorization codes, consents).
//! Sources (commit ce6e666f4325fbf379b90224449aea22a2986c5b of
//! https://github.com/springcomp/IdentityServer4.TableStorage):
//! src/Azure.TableStores/Entities/PersistedGrant.cs, Mappers/PersistedGrantMapperProfile.cs,
//! Stores/PersistedGrantStore.cs, Stores/TableEntityStore.cs and TokenCleanupService.cs.
//!
//! Table `PersistedGrants`. PartitionKey = `WebUtility.UrlEncode(grant.Key)` (IdentityServer's
//! key is a base64 SHA-256 hash, so each grant is alone in its partition), RowKey = the grant's
//! SubjectId. Store is `InsertOrReplace`; Get(key) is `PartitionKey eq key`; the lookups by
//! subject (GetAll, RemoveAll by subject and client, or subject, client and type) filter on
//! `RowKey eq subjectId` plus properties, with no PartitionKey; removals delete the found rows one
//! at a time. The token cleanup host runs GetExpiredGrantsAsync: an unfiltered query over the
//! whole table, keeping the expired grants in the client until it has a batch, then deleting them
//! one by one, and repeating until a pass finds none.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "PersistedGrants", partition_key = "{key}", row_key = "{subject_id}")]
#[table(rename_all = "PascalCase")]
struct PersistedGrant {
    /// The URL-encoded grant key, e.g. `Xy0m%2BqT...%3D`.
    key: String,
    subject_id: String,
    /// `refresh_token`, `reference_token`, `authorization_code`, `user_consent`, ...
    #[table(rename = "Type")]
    grant_type: String,
    client_id: String,
    creation_time: OffsetDateTime,
    expiration: Option<OffsetDateTime>,
    data: String,
}

/// GetEntityAsync(key): the grant's partition.
fn grant(key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", key)).unwrap()
}

/// GetAllAsync(subjectId).
fn grants_of_subject(subject_id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", subject_id)).unwrap()
}

/// RemoveAllAsync(subjectId, clientId).
fn grants_of_subject_and_client(subject_id: &str, client_id: &str) -> Query {
    Query::filter(&format!(
        "(RowKey eq '{}') and (ClientId eq '{}')",
        subject_id, client_id
    ))
    .unwrap()
}

/// RemoveAllAsync(subjectId, clientId, type).
fn grants_of_subject_client_and_type(subject_id: &str, client_id: &str, grant_type: &str) -> Query {
    Query::filter(&format!(
        "(RowKey eq '{}') and ((ClientId eq '{}') and (Type eq '{}'))",
        subject_id, client_id, grant_type
    ))
    .unwrap()
}

/// StoreAsync: `TableOperation.InsertOrReplace`.
async fn store<B: Backend>(grants: &Table<'_, B, PersistedGrant>, row: &PersistedGrant) {
    let _ = grants.upsert(row).await;
}

/// TokenCleanupService.RemoveGrantsAsync: GetExpiredGrantsAsync reads the table with no filter
/// and keeps the rows whose Expiration has passed; each is deleted on its own.
async fn remove_expired<B: Backend>(backend: &B) {
    let everything = Query::all();
    let page = backend.query_page(PersistedGrant::TABLE, &everything).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                PersistedGrant::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}

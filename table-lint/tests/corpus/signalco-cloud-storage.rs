//! Signalco cloud (C#, Azure.Data.Tables): entities shared between users, their contacts and
//! contact history. Source:
//! https://github.com/signalco-io/cloud/blob/68b8b05acdeca14a92a0bcb0fe0b1a51158037f2/Signal.Infrastructure.AzureStorage.Tables/AzureStorageDao.cs
//! with AzureStorage.cs, AzureEntity.cs, AzureContact.cs, AzureDeviceStateHistoryTableEntity.cs,
//! AzureUser.cs, AzureUserAssignedEntitiesTableEntry.cs and Signal.Core/Contacts/ContactPointer.cs.
//!
//! - entities: PartitionKey = `EntityType.ToString()`, RowKey = entity id (a GUID string).
//! - contacts: PartitionKey = entity id, RowKey = `$"{ChannelName}-{ContactName}"`, split back
//!   with `RowKey.Split("-")`.
//! - contactshistory: PartitionKey = `$"{EntityId}-{ChannelName}-{ContactName}"` (parsed back
//!   by `Split("-")`), RowKey = `MaxValue.Ticks - Timestamp.Ticks` as D19.
//! - users: PartitionKey = source (`googleoauth`), RowKey = user id.
//! - userassignedentity: PartitionKey = user id, RowKey = entity id.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

/// Signal.Core.Entities.EntityType.
enum EntityType {
    Unknown,
    Device,
    Dashboard,
    Process,
    Station,
    Channel,
}

#[derive(TableEntity)]
#[table(name = "entities", partition_key = "{entity_type}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct Entity {
    entity_type: EntityType,
    /// `Guid.NewGuid().ToString()` for new entities.
    id: String,
    alias: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "contacts", partition_key = "{entity_id}", row_key = "{channel_name}-{contact_name}")]
#[table(rename_all = "PascalCase")]
struct Contact {
    entity_id: String,
    channel_name: String,
    contact_name: String,
    name: Option<String>,
    value_serialized: Option<String>,
    time_stamp: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(
    name = "contactshistory",
    partition_key = "{entity_id}-{channel_name}-{contact_name}",
    row_key = "{timestamp:inverted_ticks}"
)]
#[table(rename_all = "PascalCase")]
struct ContactHistoryItem {
    entity_id: String,
    channel_name: String,
    contact_name: String,
    /// The state's time: the payload's TimeStamp, or `DateTime.UtcNow` when it has none. The
    /// original keeps it only in the RowKey; the property name here avoids the system
    /// `Timestamp`.
    #[table(rename = "ItemTimestamp")]
    timestamp: OffsetDateTime,
    value_serialized: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "users", partition_key = "{source}", row_key = "{user_id}")]
#[table(rename_all = "PascalCase")]
struct User {
    /// UserSources: only `googleoauth`.
    source: String,
    user_id: String,
    email: String,
    full_name: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "userassignedentity", partition_key = "{user_id}", row_key = "{entity_id}")]
#[table(rename_all = "PascalCase")]
struct UserAssignedEntity {
    user_id: String,
    entity_id: String,
}

/// GetAsync(entityId) and EntityExistsAsync(id): `e.RowKey == entityId`.
fn entity_by_id(entity_id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", entity_id)).unwrap()
}

/// UserEntitiesAsync: RowsWithKeysAnyFilter over the user's assigned entity ids.
fn entities_by_ids(first: &str, second: &str) -> Query {
    Query::filter(&format!("((RowKey eq '{}') or(RowKey eq '{}'))", first, second)).unwrap()
}

/// UserAssignedAsync(userId): the user's assignments.
fn assignments_of_user(user_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", user_id)).unwrap()
}

/// AssignedUsersAsync(entityIds): RowsWithKeysAnyFilter over the assignment table.
fn users_of_entities(first: &str, second: &str) -> Query {
    Query::filter(&format!("((RowKey eq '{}') or(RowKey eq '{}'))", first, second)).unwrap()
}

/// IsUserAssignedAsync: the assignment's point read.
fn is_assigned(user_id: &str, entity_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        user_id, entity_id
    ))
    .unwrap()
}

/// ContactsAsync(entityId).
fn contacts_of(entity_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", entity_id)).unwrap()
}

/// ContactsAsync(entityIds): PartitionsAnyFilter.
fn contacts_of_entities(first: &str, second: &str) -> Query {
    Query::filter(&format!(
        "((PartitionKey eq '{}') or(PartitionKey eq '{}'))",
        first, second
    ))
    .unwrap()
}

/// ContactHistoryAsync: the contact's partition, newest first, read until the window ends.
fn contact_history(entity_id: &str, channel: &str, contact: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}-{}-{}'",
        entity_id, channel, contact
    ))
    .unwrap()
}

/// UserIdByEmailAsync: `u.Email == userEmail`.
fn user_by_email(email: &str) -> Query {
    Query::filter(&format!("Email eq '{}'", email)).unwrap()
}

/// UserAsync(userId): `GetEntityAsync(UserSources.GoogleOauth, userId)`.
fn user(user_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'googleoauth' and RowKey eq '{}'",
        user_id
    ))
    .unwrap()
}

/// ContactSetFunction: the contact's current state, then its history row.
async fn set_contact<B: Backend>(
    contacts: &Table<'_, B, Contact>,
    history: &Table<'_, B, ContactHistoryItem>,
    state: &Contact,
    item: &ContactHistoryItem,
) {
    let _ = contacts.upsert(state).await;
    let _ = history.upsert(item).await;
}

/// EntityService.UpsertAsync and SharingService.AssignToUserAsync.
async fn save_entity<B: Backend>(
    entities: &Table<'_, B, Entity>,
    assignments: &Table<'_, B, UserAssignedEntity>,
    users: &Table<'_, B, User>,
    entity: &Entity,
    assignment: &UserAssignedEntity,
    user: &User,
) {
    let _ = entities.upsert(entity).await;
    let _ = assignments.upsert(assignment).await;
    let _ = users.upsert(user).await;
}

/// RemoveEntityAsync: found by the RowKey scan, then deleted by type and id.
async fn remove_entity<B: Backend>(entities: &Table<'_, B, Entity>, key: &<Entity as TableEntity>::Key) {
    let _ = entities.delete(key, IfMatch::Any).await;
}

//! Bitwarden server (C#, Azure.Data.Tables): the audit event log of organizations, providers
//! and users of the Bitwarden password manager. Source (commit
//! ac309aa19ed351406a56032d5f26a7a9a99f4abd of https://github.com/bitwarden/server):
//! https://github.com/bitwarden/server/blob/ac309aa19ed351406a56032d5f26a7a9a99f4abd/src/Core/Dirt/Repositories/TableStorage/EventRepository.cs
//! with src/Core/Dirt/Models/Data/EventTableEntity.cs,
//! src/Core/Dirt/Services/Implementations/AzureTableStorageEventHandler.cs,
//! src/EventsProcessor/AzureQueueHostedService.cs and src/Core/Utilities/CoreHelpers.cs
//! (DateTimeToTableStorageKey).
//!
//! Table `event`. IndexEvent turns each event into several entities of one partition:
//! PartitionKey `OrganizationId={org}` for organization events, else `ProviderId={provider}`,
//! else `UserId={user}`; the event row has RowKey `Date={date}__Uniquifier={id}`, and copies
//! under `ActingUserId={user}__Date=…`, `CipherId={cipher}__Date=…`, `SendId=…`,
//! `ServiceAccountId=…`, `SecretId=…`, `ProjectId=…` and `GrantedServiceAccountId=…` are added
//! when the event has that id (acting-user copies for organization and provider events only).
//! `{date}` is the milliseconds from the event time to 9999-01-01 written with
//! `double.ToString()`, so newer events sort first; the uniquifier is the event's idempotency id,
//! or a new GUID. The events processor (a queue consumer) groups entities by PartitionKey and
//! submits transactions of up to 100 Add actions (UpsertEntity when a group has one entity).
//! Reads (GetManyAsync): `PartitionKey eq '<pk>' and RowKey le '<prefix>Date=<start>' and RowKey
//! ge '<prefix>Date=<end>'`, one page of the requested size with a continuation token, for an
//! organization, provider or user, or one acting user, cipher, send, secret or project in it.
//! GetManyServiceAccountAsync joins the service-account range and the granted-service-account
//! range of one organization with `or`.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "event",
    partition_key = "OrganizationId={organization_id}",
    row_key = "Date={date:inverted_ticks}__Uniquifier={uniquifier}"
)]
#[table(index(name = "by_acting_user", row_key = "ActingUserId={acting_user_id}__Date={date:inverted_ticks}__Uniquifier={uniquifier}"))]
#[table(index(name = "by_cipher", row_key = "CipherId={cipher_id}__Date={date:inverted_ticks}__Uniquifier={uniquifier}"))]
#[table(index(name = "by_send", row_key = "SendId={send_id}__Date={date:inverted_ticks}__Uniquifier={uniquifier}"))]
#[table(index(name = "by_service_account", row_key = "ServiceAccountId={service_account_id}__Date={date:inverted_ticks}__Uniquifier={uniquifier}"))]
#[table(index(name = "by_secret", row_key = "SecretId={secret_id}__Date={date:inverted_ticks}__Uniquifier={uniquifier}"))]
#[table(index(name = "by_project", row_key = "ProjectId={project_id}__Date={date:inverted_ticks}__Uniquifier={uniquifier}"))]
#[table(index(name = "by_granted_service_account", row_key = "GrantedServiceAccountId={granted_service_account_id}__Date={date:inverted_ticks}__Uniquifier={uniquifier}"))]
#[table(rename_all = "PascalCase")]
struct OrganizationEvent {
    organization_id: Uuid,
    /// The event time (`Date`).
    date: OffsetDateTime,
    /// `IdempotencyId ?? Guid.NewGuid()`.
    uniquifier: Uuid,
    acting_user_id: Uuid,
    cipher_id: Uuid,
    send_id: Uuid,
    service_account_id: Uuid,
    secret_id: Uuid,
    project_id: Uuid,
    granted_service_account_id: Uuid,
    /// `EventType` as an integer.
    #[table(rename = "Type")]
    event_type: i32,
    user_id: Option<Uuid>,
    collection_id: Option<Uuid>,
    policy_id: Option<Uuid>,
    group_id: Option<Uuid>,
    organization_user_id: Option<Uuid>,
    device_type: Option<i32>,
    ip_address: Option<String>,
    system_user: Option<i32>,
    domain_name: Option<String>,
}

#[derive(TableEntity)]
#[table(
    name = "event",
    partition_key = "ProviderId={provider_id}",
    row_key = "Date={date:inverted_ticks}__Uniquifier={uniquifier}"
)]
#[table(index(name = "by_acting_user", row_key = "ActingUserId={acting_user_id}__Date={date:inverted_ticks}__Uniquifier={uniquifier}"))]
#[table(rename_all = "PascalCase")]
struct ProviderEvent {
    provider_id: Uuid,
    date: OffsetDateTime,
    uniquifier: Uuid,
    acting_user_id: Uuid,
    #[table(rename = "Type")]
    event_type: i32,
    provider_user_id: Option<Uuid>,
    provider_organization_id: Option<Uuid>,
    ip_address: Option<String>,
}

#[derive(TableEntity)]
#[table(
    name = "event",
    partition_key = "UserId={user_id}",
    row_key = "Date={date:inverted_ticks}__Uniquifier={uniquifier}"
)]
#[table(index(name = "by_cipher", row_key = "CipherId={cipher_id}__Date={date:inverted_ticks}__Uniquifier={uniquifier}"))]
#[table(rename_all = "PascalCase")]
struct UserEvent {
    user_id: Uuid,
    date: OffsetDateTime,
    uniquifier: Uuid,
    cipher_id: Uuid,
    #[table(rename = "Type")]
    event_type: i32,
    device_type: Option<i32>,
    ip_address: Option<String>,
}

/// GetManyByOrganizationAsync: one page of an organization's events between two dates.
async fn organization_events<B: Backend>(backend: &B, org: &str, start: &str, end: &str, page: usize) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'OrganizationId={}' and RowKey le 'Date={}' and RowKey ge 'Date={}'",
        org, start, end
    ))
    .unwrap()
    .top(page);
    let _ = backend.query_page(OrganizationEvent::TABLE, &q).await;
}

/// GetManyByOrganizationActingUserAsync (and, with `CipherId=`, `SendId=`, `SecretId=`,
/// `ProjectId=` prefixes, the cipher, send, secret and project views).
async fn organization_acting_user_events<B: Backend>(backend: &B, org: &str, user: &str, start: &str, end: &str, page: usize) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'OrganizationId={}' and RowKey le 'ActingUserId={}__Date={}' and RowKey ge 'ActingUserId={}__Date={}'",
        org, user, start, user, end
    ))
    .unwrap()
    .top(page);
    let _ = backend.query_page(OrganizationEvent::TABLE, &q).await;
}

/// GetManyByProviderAsync.
async fn provider_events<B: Backend>(backend: &B, provider: &str, start: &str, end: &str, page: usize) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'ProviderId={}' and RowKey le 'Date={}' and RowKey ge 'Date={}'",
        provider, start, end
    ))
    .unwrap()
    .top(page);
    let _ = backend.query_page(ProviderEvent::TABLE, &q).await;
}

/// GetManyByUserAsync, and GetManyByCipherAsync for a personal cipher.
async fn user_events<B: Backend>(backend: &B, user: &str, cipher: &str, start: &str, end: &str, page: usize) {
    let all = Query::filter(&format!(
        "PartitionKey eq 'UserId={}' and RowKey le 'Date={}' and RowKey ge 'Date={}'",
        user, start, end
    ))
    .unwrap()
    .top(page);
    let _ = backend.query_page(UserEvent::TABLE, &all).await;
    let by_cipher = Query::filter(&format!(
        "PartitionKey eq 'UserId={}' and RowKey le 'CipherId={}__Date={}' and RowKey ge 'CipherId={}__Date={}'",
        user, cipher, start, cipher, end
    ))
    .unwrap()
    .top(page);
    let _ = backend.query_page(UserEvent::TABLE, &by_cipher).await;
}

/// GetManyServiceAccountAsync: a machine account's own events and the events granting it access,
/// two RowKey ranges of one organization joined with `or`.
async fn service_account_events<B: Backend>(backend: &B, org: &str, account: &str, start: &str, end: &str, page: usize) {
    let q = Query::filter(&format!(
        "(PartitionKey eq 'OrganizationId={}' and RowKey le 'ServiceAccountId={}__Date={}' and RowKey ge 'ServiceAccountId={}__Date={}') or (PartitionKey eq 'OrganizationId={}' and RowKey le 'GrantedServiceAccountId={}__Date={}' and RowKey ge 'GrantedServiceAccountId={}__Date={}')",
        org, account, start, account, end, org, account, start, account, end
    ))
    .unwrap()
    .top(page);
    let _ = backend.query_page(OrganizationEvent::TABLE, &q).await;
}

/// CreateManyAsync: the entities of one event (and of the other events of the queue message)
/// grouped by partition, submitted as Add transactions of up to 100; a lone entity is upserted.
async fn write_events<B: Backend>(
    orgs: &Table<'_, B, OrganizationEvent>,
    providers: &Table<'_, B, ProviderEvent>,
    users: &Table<'_, B, UserEvent>,
    o: &OrganizationEvent,
    p: &ProviderEvent,
    u: &UserEvent,
) {
    let _ = orgs.insert(o).await;
    let _ = providers.insert(p).await;
    let _ = users.insert(u).await;
    let _ = users.upsert(u).await;
}

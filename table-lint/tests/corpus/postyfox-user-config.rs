//! PostyFox (C#, Azure Functions isolated worker, Azure.Data.Tables): a service that posts to
//! several social platforms for a user; its per-user configuration lives in four tables of one
//! storage account. Sources at commit 766b95a30ec6a5983dfdcdc0cd9f83d5a604fcf0 of
//! https://github.com/PostyFox/postyfox-core (the last commit before the move to a SQL database):
//! https://github.com/PostyFox/postyfox-core/blob/766b95a30ec6a5983dfdcdc0cd9f83d5a604fcf0/PostyFox-NetCore/Core/Services.cs
//! PostyFox-NetCore/Core/{Profile,PostingTemplate}.cs, PostyFox-NetCore/Integrations/{Telegram,Twitch}.cs,
//! PostyFox-Posting/{Post,Telegram}.cs and PostyFox-DataLayer/TableEntities/*.cs.
//!
//! Every table is keyed PartitionKey = the signed-in user's id (the identity header), RowKey =
//! the item's id:
//! - ConfigTable (ServiceTableEntity): a service the user connected; RowKey = the client's `ID`,
//!   properties ServiceName, ServiceID (the definition it instantiates), IsEnabled,
//!   Configuration (JSON), Endpoint. Listed by `PartitionKey eq user`, read by (user, id) in the
//!   Telegram login flow and the posting worker, looked up by `PartitionKey eq user and ServiceID
//!   eq … and ServiceName eq …`, upserted, deleted by (user, ServiceID).
//! - UserProfilesAPIKeys (ProfileAPIKeyTableEntity): RowKey = `Guid.NewGuid()` without hyphens,
//!   property APIKey (40 random characters). Listed by user, deleted by (user, id), checked by
//!   the posting API with a point query on (lower-cased user id, key id).
//! - PostingTemplates: RowKey = the template's id (a new GUID when the client sends none), Title,
//!   MarkdownBody. Listed by user, read by (user, id), upserted.
//! - ExternalTriggers: RowKey = the Twitch account id; ExternalAccount, ExternalAccountType,
//!   Template, TargetPlatform, NotifyFrequencyHrs. Upserted when a user subscribes to a stream.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "ConfigTable", partition_key = "{user_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct UserService {
    /// The identity header's user id, only in the PartitionKey.
    #[table(key_only)]
    #[table(max_len = 64)]
    user_id: String,
    /// The instance id the client chose (`ServiceDTO.ID`), only in the RowKey.
    #[table(key_only)]
    #[table(max_len = 64)]
    id: String,
    service_name: String,
    #[table(rename = "ServiceID")]
    service_id: Option<String>,
    is_enabled: bool,
    /// JSON.
    configuration: String,
    secure_configuration: Option<String>,
    endpoint: String,
}

#[derive(TableEntity)]
#[table(name = "UserProfilesAPIKeys", partition_key = "{user_id}", row_key = "{id:simple}")]
struct ProfileApiKey {
    #[table(key_only)]
    #[table(max_len = 64)]
    user_id: String,
    /// `Guid.NewGuid().ToString().Replace("-", "")`.
    #[table(key_only)]
    id: Uuid,
    #[table(rename = "APIKey")]
    api_key: String,
}

#[derive(TableEntity)]
#[table(name = "PostingTemplates", partition_key = "{user_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct PostingTemplate {
    #[table(key_only)]
    #[table(max_len = 64)]
    user_id: String,
    /// The client's id, or `Guid.NewGuid().ToString()`.
    #[table(key_only)]
    #[table(max_len = 64)]
    id: String,
    title: String,
    markdown_body: String,
}

#[derive(TableEntity)]
#[table(name = "ExternalTriggers", partition_key = "{user_id}", row_key = "{external_account}")]
#[table(rename_all = "PascalCase")]
struct ExternalTrigger {
    #[table(key_only)]
    #[table(max_len = 64)]
    user_id: String,
    /// The Twitch user id, also the RowKey.
    #[table(max_len = 32)]
    external_account: String,
    /// `Twitch`.
    external_account_type: String,
    template: String,
    target_platform: String,
    notify_frequency_hrs: i32,
}

/// Services_GetUserServices: `x.PartitionKey == userId`.
fn user_services(user: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", user)).unwrap()
}

/// Services_GetUserService: the caller's partition, tested by definition and name.
fn user_service_by_definition(user: &str, service_id: &str, service_name: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and ServiceID eq '{}' and ServiceName eq '{}'",
        user, service_id, service_name
    ))
    .unwrap()
}

/// Profile_GetAPITokens: the user's keys.
fn api_keys(user: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", user)).unwrap()
}

/// PostingTemplate list: the user's templates.
fn templates(user: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", user)).unwrap()
}

/// Telegram login flow and the posting worker: `x.PartitionKey == userId && x.RowKey == id`,
/// one row; Services_SetUserService upserts; Services_DeleteUserService deletes.
async fn services<B: Backend>(
    table: &Table<'_, B, UserService>,
    key: &<UserService as TableEntity>::Key,
    row: &UserService,
) {
    let _ = table.get(key).await;
    let _ = table.upsert(row).await;
    let _ = table.delete(key, IfMatch::Any).await;
}

/// Profile_GenerateAPIToken adds a key; Post checks one by its keys; Profile_DeleteAPIToken
/// deletes one.
async fn keys<B: Backend>(
    table: &Table<'_, B, ProfileApiKey>,
    key: &<ProfileApiKey as TableEntity>::Key,
    row: &ProfileApiKey,
) {
    let _ = table.insert(row).await;
    let _ = table.get(key).await;
    let _ = table.delete(key, IfMatch::Any).await;
}

/// PostingTemplate save: GetEntityIfExists, then UpsertEntity.
async fn save_template<B: Backend>(
    table: &Table<'_, B, PostingTemplate>,
    key: &<PostingTemplate as TableEntity>::Key,
    row: &PostingTemplate,
) {
    let _ = table.get(key).await;
    let _ = table.upsert(row).await;
}

/// Twitch subscription: UpsertEntity of the trigger.
async fn save_trigger<B: Backend>(table: &Table<'_, B, ExternalTrigger>, row: &ExternalTrigger) {
    let _ = table.upsert(row).await;
}

//! CodePush Server (TypeScript, @azure/data-tables): the standalone version of the App Center
//! CodePush service, which serves over-the-air updates to React Native and Cordova apps; its
//! Azure storage, one table for accounts, apps, deployments and access keys. Source (commit
//! ff1d84cde0e18e5760df7b9622c46d5cad236016 of https://github.com/microsoft/code-push-server):
//! https://github.com/microsoft/code-push-server/blob/ff1d84cde0e18e5760df7b9622c46d5cad236016/api/script/storage/azure-storage.ts
//! with api/script/storage/storage.ts (the Account, App, Deployment and AccessKey types) and
//! api/script/routes/management.ts (keys from generateSecureKey).
//!
//! Table `storagev2`. Ids are shortids; keys join words and ids with a space, and a `*` marks
//! the leaf of a hierarchical RowKey (validateParameters refuses ids holding either):
//! - the Account itself: PartitionKey `email <email, lower-cased>`, RowKey `""`, written first
//!   (createEntity, so a second account with the email fails), then a pointer to it at
//!   PartitionKey `accountId <id>`, RowKey `accountId* <id>` (partitionKeyPointer and
//!   rowKeyPointer properties); getAccount reads the pointer, then the account;
//! - in the account's partition, a pointer to each app the account collaborates on (RowKey
//!   `accountId <id> appId* <appId>`, created for the owner and for each collaborator) and its
//!   access keys (RowKey `accountId_<id>_accessKeyId*_<keyId>`, the key's name stored as its
//!   SHA-256), each access key with a shortcut at PartitionKey `accessKey <sha256(name)>`,
//!   RowKey `""` holding accountId and expires, read on every authenticated request;
//! - the App at PartitionKey `appId <appId>`, RowKey `appId* <appId>`, with collaborators as
//!   JSON, and its deployments in the same partition at RowKey `appId <appId> deploymentId*
//!   <deploymentId>`; each deployment also gets a shortcut at PartitionKey `deploymentKey <key>`,
//!   RowKey `""` holding appId and deploymentId, read by every update check of every device.
//! The shortcuts and pointers are written by separate createEntity calls after the entity they
//! point to, and deleted by separate deleteEntity calls: removeAccessKey deletes the key and its
//! shortcut; removeApp deletes the collaborators' pointers, then the app partition's rows in one
//! transaction; removeDeployment deletes the deployment's rows; neither removes the deployment
//! key shortcuts. Collections are read with `PartitionKey eq … and (RowKey eq <parent> or
//! (RowKey gt <children> and RowKey lt <children>~))`, then each pointer found is followed.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

/// The account, stored in its email's partition, with its pointer under the account id.
#[derive(TableEntity)]
#[table(name = "storagev2", partition_key = "email {email_key}", row_key = "{shortcut_row}")]
#[table(index(
    name = "by_id",
    partition_key = "accountId {id}",
    row_key = "accountId* {id}",
    project(email_key, shortcut_row)
))]
#[table(rename_all = "camelCase")]
struct Account {
    /// `email.toLowerCase()`, the key the shortcut is found by.
    email_key: String,
    /// Always `""`: the grammar refuses an empty template.
    #[table(max_len = 0)]
    shortcut_row: String,
    /// A shortid (7 to 14 of `0-9a-zA-Z_-`).
    #[table(max_len = 14)]
    id: String,
    email: String,
    name: String,
    /// Milliseconds since 1970.
    created_time: i64,
    git_hub_id: Option<String>,
    microsoft_id: Option<String>,
    azure_ad_id: Option<String>,
}

/// A pointer, in an account's partition, to an app the account owns or collaborates on.
#[derive(TableEntity)]
#[table(name = "storagev2", partition_key = "accountId {account_id}", row_key = "accountId {account_id} appId* {app_id}")]
#[table(rename_all = "camelCase")]
struct AppPointer {
    #[table(max_len = 14)]
    account_id: String,
    #[table(max_len = 14)]
    app_id: String,
    /// `appId <appId>`.
    partition_key_pointer: String,
    /// `appId* <appId>`.
    row_key_pointer: String,
}

/// An access key, in its account's partition, with its shortcut by hashed name.
#[derive(TableEntity)]
#[table(
    name = "storagev2",
    partition_key = "accountId {account_id}",
    row_key = "accountId_{account_id}_accessKeyId*_{id}"
)]
#[table(index(
    name = "by_name",
    partition_key = "accessKey {name}",
    row_key = "{shortcut_row}",
    project(account_id, expires)
))]
#[table(rename_all = "camelCase")]
struct AccessKey {
    #[table(max_len = 14)]
    account_id: String,
    #[table(max_len = 14)]
    id: String,
    /// `hashWithSHA256(name)`: 64 hex characters.
    #[table(max_len = 64)]
    name: String,
    #[table(max_len = 0)]
    shortcut_row: String,
    friendly_name: String,
    created_by: String,
    created_time: i64,
    /// Milliseconds since 1970.
    expires: i64,
    description: Option<String>,
    is_session: Option<bool>,
}

#[derive(TableEntity)]
#[table(name = "storagev2", partition_key = "appId {id}", row_key = "appId* {id}")]
#[table(rename_all = "camelCase")]
struct App {
    #[table(max_len = 14)]
    id: String,
    name: String,
    created_time: i64,
    /// The collaborator map (email to account id and permission), as JSON.
    collaborators: String,
}

/// A deployment, in its app's partition, with its shortcut by deployment key.
#[derive(TableEntity)]
#[table(name = "storagev2", partition_key = "appId {app_id}", row_key = "appId {app_id} deploymentId* {id}")]
#[table(index(
    name = "by_deployment_key",
    partition_key = "deploymentKey {key}",
    row_key = "{shortcut_row}",
    project(app_id, id)
))]
#[table(rename_all = "camelCase")]
struct Deployment {
    #[table(max_len = 14)]
    app_id: String,
    #[table(max_len = 14)]
    id: String,
    /// The deployment key the SDK in every installed app sends: generateSecureKey, or given.
    key: String,
    #[table(max_len = 0)]
    shortcut_row: String,
    name: String,
    created_time: i64,
    /// The current release, as JSON (the history is in a blob).
    package: Option<String>,
}

/// getAccountByEmail, getDeploymentInfo, getAccountIdFromAccessKey, getApp, getDeployment: point
/// reads (the shortcuts by their partition and `""`).
async fn point_reads<B: Backend>(
    accounts: &Table<'_, B, Account>,
    apps: &Table<'_, B, App>,
    deployments: &Table<'_, B, Deployment>,
    account: &<Account as TableEntity>::Key,
    app: &<App as TableEntity>::Key,
    deployment: &<Deployment as TableEntity>::Key,
) {
    let _ = accounts.get(account).await;
    let _ = apps.get(app).await;
    let _ = deployments.get(deployment).await;
}

/// addAccount, addApp (the app, then a pointer per collaborator), addDeployment, addAccessKey:
/// createEntity of the entity and, by separate requests, of its pointer or shortcut.
async fn creates<B: Backend>(
    accounts: &Table<'_, B, Account>,
    pointers: &Table<'_, B, AppPointer>,
    keys: &Table<'_, B, AccessKey>,
    apps: &Table<'_, B, App>,
    deployments: &Table<'_, B, Deployment>,
    account: &Account,
    pointer: &AppPointer,
    key: &AccessKey,
    app: &App,
    deployment: &Deployment,
) {
    let _ = accounts.insert(account).await;
    let _ = apps.insert(app).await;
    let _ = pointers.insert(pointer).await;
    let _ = deployments.insert(deployment).await;
    let _ = keys.insert(key).await;
}

/// updateAccount, updateApp, updateDeployment, commitPackage, updateAccessKey: updateEntity
/// (merge) without an ETag.
async fn updates<B: Backend>(
    accounts: &Table<'_, B, Account>,
    apps: &Table<'_, B, App>,
    deployments: &Table<'_, B, Deployment>,
    keys: &Table<'_, B, AccessKey>,
    account: &Account,
    app: &App,
    deployment: &Deployment,
    key: &AccessKey,
) {
    let _ = accounts.merge(account, IfMatch::Any).await;
    let _ = apps.merge(app, IfMatch::Any).await;
    let _ = deployments.merge(deployment, IfMatch::Any).await;
    let _ = keys.merge(key, IfMatch::Any).await;
}

/// removeCollaborator / removeApp (pointers) and removeAccessKey (the key and its shortcut).
async fn deletes<B: Backend>(
    pointers: &Table<'_, B, AppPointer>,
    keys: &Table<'_, B, AccessKey>,
    pointer: &<AppPointer as TableEntity>::Key,
    key: &<AccessKey as TableEntity>::Key,
) {
    let _ = pointers.delete(pointer, IfMatch::Any).await;
    let _ = keys.delete(key, IfMatch::Any).await;
}

/// getApps: the account's pointer row and its app pointers, then each pointed-to app.
async fn apps_of_account<B: Backend>(backend: &B, account: &str, app: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'accountId {}' and (RowKey eq 'accountId* {}' or (RowKey gt 'accountId {} appId* ' and RowKey lt 'accountId {} appId* ~'))",
        account, account, account, account
    ))
    .unwrap();
    let _ = backend.query_page(AppPointer::TABLE, &q).await;
    let followed = Query::filter(&format!(
        "PartitionKey eq 'appId {}' and (RowKey eq 'appId* {}' or (RowKey gt 'accountId {} appId* ' and RowKey lt 'accountId {} appId* ~'))",
        app, app, account, account
    ))
    .unwrap();
    let _ = backend.query_page(App::TABLE, &followed).await;
}

/// getDeployments: the app row and its deployments.
async fn deployments_of_app<B: Backend>(deployments: &Table<'_, B, Deployment>, app: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'appId {}' and (RowKey eq 'appId* {}' or (RowKey gt 'appId {} deploymentId* ' and RowKey lt 'appId {} deploymentId* ~'))",
        app, app, app, app
    ))
    .unwrap();
    let _ = deployments.query_page(&q, None).await;
}

/// getAccessKeys: the account's pointer row and its access keys, first page only.
async fn access_keys_of_account<B: Backend>(keys: &Table<'_, B, AccessKey>, account: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'accountId {}' and (RowKey eq 'accountId* {}' or (RowKey gt 'accountId_{}_accessKeyId*_' and RowKey lt 'accountId_{}_accessKeyId*_~'))",
        account, account, account, account
    ))
    .unwrap();
    let _ = keys.query_page(&q, None).await;
}

/// cleanUpByAppHierarchy (removeApp, removeDeployment): the app row and everything under it,
/// deleted in one transaction; the deployment key shortcuts stay.
async fn remove_app_rows<B: Backend>(deployments: &Table<'_, B, Deployment>, app: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'appId {}' and (RowKey eq 'appId* {}' or (RowKey ge 'appId {}' and RowKey lt 'appId {}~'))",
        app, app, app, app
    ))
    .unwrap();
    let page = deployments.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = deployments.delete(&row.key(), IfMatch::Any).await;
    }
}

//! Microsoft ASP.NET WebHooks (C#, WindowsAzure.Storage): AzureWebHookStore, the Azure table
//! store of WebHook registrations in the ASP.NET WebHooks sender library
//! (Microsoft.AspNet.WebHooks.Custom.AzureStorage). Source (commit
//! f702a66575d86a1c6c86dfbec6a6b97547d6b223 of https://github.com/aspnet/AspLabs, where the
//! ASP.NET WebHooks history lives):
//! https://github.com/aspnet/AspLabs/blob/f702a66575d86a1c6c86dfbec6a6b97547d6b223/src/Microsoft.AspNet.WebHooks.Custom.AzureStorage/WebHooks/AzureWebHookStore.cs
//! with src/Microsoft.AspNet.WebHooks.Custom.AzureStorage/Storage/StorageManager.cs,
//! src/Microsoft.AspNet.WebHooks.Custom/WebHooks/{WebHookStore,WebHook,WebHookManager}.cs.
//!
//! Table `WebHooks`. PartitionKey = the registering user's id, RowKey = the WebHook id (a
//! GUID in the `N` format by default, checked by the registration's id validator), both
//! lower-cased by NormalizeKey; one property `Data`, the WebHook (URL, secret, filters) as JSON
//! protected with Data Protection.
//! Registration: Insert; update: Replace with ETag `*`; delete: Delete with ETag `*`; lookup:
//! Retrieve(user, id). GetAllWebHooksAsync and QueryWebHooksAsync (which NotifyAsync uses to send
//! a user's notifications) read `PartitionKey eq '<user>'` and match the actions in memory;
//! DeleteAllWebHooksAsync reads the partition's keys and deletes them in batches of 100.
//! QueryWebHooksAcrossAllUsersAsync, behind WebHookManager.NotifyAllAsync (a notification for
//! every user's registrations), runs an empty TableQuery over the whole table and filters the
//! actions in memory.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "WebHooks", partition_key = "{user}", row_key = "{id}")]
struct WebHookEntity {
    /// The user id from the request's principal, lower-cased.
    #[table(max_len = 256)]
    user: String,
    /// The WebHook id, `Guid.NewGuid().ToString("N")` by default, lower-cased.
    #[table(max_len = 256)]
    id: String,
    /// The WebHook as JSON, protected with IDataProtector.
    #[table(rename = "Data")]
    data: String,
}

/// GetAllWebHooksAsync and QueryWebHooksAsync (NotifyAsync for one user).
async fn webhooks_of<B: Backend>(hooks: &Table<'_, B, WebHookEntity>, user: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user)).unwrap();
    let _ = hooks.query_page(&q, None).await;
}

/// DeleteAllWebHooksAsync: the partition's keys, then batched deletes.
async fn delete_all_of<B: Backend>(hooks: &Table<'_, B, WebHookEntity>, user: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user))
        .unwrap()
        .select(["PartitionKey", "RowKey"]);
    let page = hooks.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = hooks.delete(&row.key(), IfMatch::Any).await;
    }
}

/// QueryWebHooksAcrossAllUsersAsync, for NotifyAllAsync: every registration of every user.
async fn all_webhooks<B: Backend>(hooks: &Table<'_, B, WebHookEntity>) {
    let _ = hooks.query_page(&Query::all(), None).await;
}

/// InsertWebHookAsync, UpdateWebHookAsync (Replace, `*`), LookupWebHookAsync, DeleteWebHookAsync.
async fn webhook_ops<B: Backend>(
    hooks: &Table<'_, B, WebHookEntity>,
    row: &WebHookEntity,
    key: &<WebHookEntity as TableEntity>::Key,
) {
    let _ = hooks.insert(row).await;
    let _ = hooks.replace(row, IfMatch::Any).await;
    let _ = hooks.get(key).await;
    let _ = hooks.delete(key, IfMatch::Any).await;
}

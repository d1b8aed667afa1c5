//! SettingX repositories service (C#, ASP.NET Core, Lykke AzureStorage tables over
//! WindowsAzure.Storage): the storage API of SettingX, a settings service for microservices.
//! This design is its audit tables: administrators' sign-ins and actions, and the history of
//! every setting (key value) and access token. Sources (commit
//! 27cbfdfde1d6ab75a73ba32db6ed1e544b1396f1 of
//! https://github.com/SettingX/SettingX.Repositories.AzureTableStorage):
//! https://github.com/SettingX/SettingX.Repositories.AzureTableStorage/blob/27cbfdfde1d6ab75a73ba32db6ed1e544b1396f1/SettingX.Repositories.AzureTableStorage/Repositories/KeyValue/KeyValueHistoryRepository.cs,
//! with Repositories/KeyValue/KeyValueHistoricEntity.cs, Repositories/User/UserSignInHistory*.cs,
//! Repositories/User/UserActionHistory*.cs, Repositories/Token/AccountTokenHistory*.cs,
//! Repositories/ServiceToken/ServiceTokenHistory*.cs, Repositories/DateTimeExtensions.cs and
//! Modules/RepositoryModule.cs (all under SettingX.Repositories.AzureTableStorage).
//!
//! Every history row's RowKey is `DateTime.UtcNow.ToString("yyyy-MM-dd HH:mm:ss.fff")`, and
//! every write is an InsertOrMerge:
//! - UserSignInHistory: PartitionKey `UH`; UserEmail, SignInDate, IpAddress.
//! - UserActionHistory: PartitionKey `UAH`; UserEmail, ActionDate, IpAddress, ControllerName,
//!   ActionName, and Params (the name of a blob holding the request parameters).
//! - KeyValueHistory: PartitionKey = the key-value id; DateTime (the RowKey text), KeyValueId,
//!   NewValue or NewOverride, UserName, UserIpAddress, KeyValuesSnapshot (a blob name). A change
//!   to many settings writes one row per setting, all with the same timestamp, concurrently.
//!   GetHistoryByKeyValueAsync reads the setting's partition and sorts by Timestamp.
//! - AccessTokenHistory (and ServiceTokenHistory, alike): PartitionKey = the token id; UserName,
//!   AccessList, IpList, TokenId, UserIpAddress.
//! Nothing reads the sign-in, action or token histories here, and nothing deletes any of them.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "UserSignInHistory", partition_key = "UH", row_key = "{sign_in_date:yyyy-MM-dd HH:mm:ss.fff}")]
#[table(rename_all = "PascalCase")]
struct UserSignInHistoryEntity {
    /// `DateTime.UtcNow`; the RowKey is its text.
    sign_in_date: OffsetDateTime,
    user_email: String,
    ip_address: String,
}

#[derive(TableEntity)]
#[table(name = "UserActionHistory", partition_key = "UAH", row_key = "{action_date:yyyy-MM-dd HH:mm:ss.fff}")]
#[table(rename_all = "PascalCase")]
struct UserActionHistoryEntity {
    action_date: OffsetDateTime,
    user_email: String,
    ip_address: String,
    controller_name: String,
    action_name: String,
    /// The name (a new GUID) of the blob holding the parameters, when there are any.
    params: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "KeyValueHistory", partition_key = "{key_value_id}", row_key = "{date_time:yyyy-MM-dd HH:mm:ss.fff}")]
#[table(rename_all = "PascalCase")]
struct KeyValueHistoricEntity {
    #[table(max_len = 200)]
    key_value_id: String,
    /// `DateTime.UtcNow`; stored as its text in DateTime as well as in the RowKey.
    date_time: OffsetDateTime,
    new_value: Option<String>,
    new_override: Option<String>,
    /// `{user}_{time}_{ip}`, the name of the snapshot blob.
    key_values_snapshot: String,
    user_name: String,
    user_ip_address: String,
}

#[derive(TableEntity)]
#[table(name = "AccessTokenHistory", partition_key = "{token_id}", row_key = "{changed_at:yyyy-MM-dd HH:mm:ss.fff}")]
#[table(rename_all = "PascalCase")]
struct AccountTokenHistoryEntity {
    #[table(max_len = 64)]
    token_id: String,
    /// `DateTime.UtcNow`; only in the RowKey in the original.
    #[table(key_only)]
    changed_at: OffsetDateTime,
    user_name: String,
    access_list: String,
    ip_list: String,
    user_ip_address: String,
}

/// SaveUserLoginHistoryAsync / SaveUserActionHistoryAsync: InsertOrMerge of one row.
async fn user_history<B: Backend>(
    sign_ins: &Table<'_, B, UserSignInHistoryEntity>,
    actions: &Table<'_, B, UserActionHistoryEntity>,
    sign_in: &UserSignInHistoryEntity,
    action: &UserActionHistoryEntity,
) {
    let _ = sign_ins.upsert(sign_in).await;
    let _ = actions.upsert(action).await;
}

/// SaveKeyValueHistoryAsync and its siblings (one row per changed setting), and
/// SaveTokenHistoryAsync.
async fn change_history<B: Backend>(
    key_values: &Table<'_, B, KeyValueHistoricEntity>,
    tokens: &Table<'_, B, AccountTokenHistoryEntity>,
    changes: &[KeyValueHistoricEntity],
    token: &AccountTokenHistoryEntity,
) {
    for change in changes {
        let _ = key_values.upsert(change).await;
    }
    let _ = tokens.upsert(token).await;
}

/// GetHistoryByKeyValueAsync: the setting's partition, sorted on the client.
async fn history_of<B: Backend>(backend: &B, key_value_id: &str) {
    let mine = Query::filter(&format!("PartitionKey eq '{}'", key_value_id)).unwrap();
    let _ = backend.query_page(KeyValueHistoricEntity::TABLE, &mine).await;
}

//! AspNetStateService (C#, Microsoft.Azure.Cosmos.Table): a replacement for the ASP.NET session
//! state service (`aspnet_state`) whose Azure Table back end keeps the sessions. Sources (commit
//! bf2093cc6ed4609989ddce4eb941735d516f5804 of https://github.com/alethic/AspNetStateService):
//! https://github.com/alethic/AspNetStateService/blob/bf2093cc6ed4609989ddce4eb941735d516f5804/AspNetStateService.Azure.Storage.Table/StateObjectTableDataStore.cs,
//! DefaultStateKeyProvider.cs and StateObjectEntity.cs in the same folder, and
//! AspNetStateService.Core/StateObject.cs and AspNetStateService.AspNetCore/StateWebServiceStartup.cs.
//!
//! One entity per session in the table `state`: PartitionKey = the Base64 text of the first four
//! bytes of SHA-1(session id) (eight characters, the last two `==`), RowKey = the session id
//! with `/`, `\`, `#`, `?` and control characters replaced by `_`, and Id, Data (the serialized
//! session, binary), ExtraFlags, Timeout (TimeSpan ticks), Altered, LockCookie and LockTime.
//! Every operation of the state protocol (get data, get lock, set data, set lock, set flags,
//! set timeout, remove data, remove lock) is a Retrieve(partition, row) followed, for the
//! writes, by an InsertOrReplace of the whole entity without an ETag (StateObject in
//! AspNetStateService.Core, which takes the exclusive lock with a read and then a write, is
//! created per request). A timed-out session found on a read has its lock and data cleared,
//! but nothing queries the table and no entity is ever deleted.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "state", partition_key = "{id_hash}", row_key = "{row_id}")]
#[table(rename_all = "PascalCase")]
struct StateObjectEntity {
    /// `Convert.ToBase64String(sha1(id), 0, 4)`: six significant characters and `==`.
    #[table(max_len = 8)]
    id_hash: String,
    /// The session id with the characters keys can't hold replaced by `_`. The id is the
    /// decoded request path of the state protocol, which carries the application's path
    /// before the session id, hence the slashes to replace.
    row_id: String,
    /// The session id as the caller gave it.
    id: String,
    data: Option<Vec<u8>>,
    extra_flags: Option<i32>,
    /// `TimeSpan.Ticks`.
    timeout: Option<i64>,
    altered: Option<OffsetDateTime>,
    lock_cookie: Option<i32>,
    lock_time: Option<OffsetDateTime>,
}

/// GetStateObjectAsync: Retrieve(partition, row), before every read and every write.
async fn load<B: Backend>(sessions: &Table<'_, B, StateObjectEntity>, key: &<StateObjectEntity as TableEntity>::Key) {
    let _ = sessions.get(key).await;
}

/// SetStateObjectAsync: InsertOrReplace of the whole entity, no ETag, after each change.
async fn save<B: Backend>(sessions: &Table<'_, B, StateObjectEntity>, row: &StateObjectEntity) {
    let _ = sessions.upsert(row).await;
}

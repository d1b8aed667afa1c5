//! connect-azuretables (Node.js, azure-storage): an express-session store.
//! Source: https://github.com/namankanakiya/connect-azuretables/blob/436daa91cd2ac5036f6902d330ab2fb3a304a792/lib/connect-azuretables.js
//!
//! PartitionKey = RowKey = the session id with every non-alphanumeric character removed.
//! get/set/touch/destroy are point operations; when a session timeout is configured, each
//! write stores `expiryDate` and a cron job queries `expiryDate lt now` over the table and
//! deletes the matches one by one.

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "ConnectAzureTablesSessions", partition_key = "{sid}", row_key = "{sid}")]
struct Session {
    /// `sid.replace(/[^0-9A-Za-z]/g, '')`, used as both PartitionKey and RowKey.
    sid: String,
    /// The session as JSON.
    data: String,
    /// Set only when a session timeout is configured.
    #[table(rename = "expiryDate")]
    expiry_date: Option<OffsetDateTime>,
}

/// cleanUp: `new azure.TableQuery().where('expiryDate lt ?', new Date(Date.now()))`, then
/// deleteEntity for each result.
fn expired_sessions(now: &str) -> Query {
    Query::filter(&format!("expiryDate lt datetime'{}'", now)).unwrap()
}

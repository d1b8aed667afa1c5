//! ZMS, the Zabbix Metric Shipper (Go, aztables): a daemon that reads the real-time export files
//! of a Zabbix server (item values and hourly trends) and ships them to observer plugins; its
//! Azure Table plugin. Sources (commit bab8e08bda1dc0cc272c6c7074d979cd17550308 of
//! https://github.com/szuro/zms):
//! https://github.com/szuro/zms/blob/bab8e08bda1dc0cc272c6c7074d979cd17550308/plugins/azure_table/azure_table.go
//! with pkg/zbx/exports.go (the History and Trend records).
//!
//! Two tables of the storage account the plugin is given (a SAS URL). SaveHistory adds one
//! entity per exported value (AddEntity, an insert; a failure is counted and the value dropped):
//! PartitionKey = `fmt.Sprint(itemid)`, the Zabbix item, RowKey = `fmt.Sprintf("%d.%d", clock,
//! ns)`, the Unix seconds and the nanoseconds of the value, both unpadded; the entity is the
//! History record marshalled to JSON (itemid, name, clock, ns, value, type, the groups and tags
//! arrays, the log fields for log items) plus HostHost and HostName. SaveTrends does the same for
//! hourly trends in `trends`: PartitionKey = itemid, RowKey = `fmt.Sprint(clock)`, the hour's
//! start, with count, min, max and avg. The plugin never reads; the tables are for whoever
//! queries an item's values over a time range.

use table_runtime::{Backend, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "history", partition_key = "{item_id:unpadded}", row_key = "{clock:unpadded}.{ns:unpadded}")]
struct HistoryEntity {
    /// The Zabbix item id (`itemid`).
    #[table(rename = "itemid")]
    item_id: i64,
    /// Unix seconds when the value was collected (`clock`): 10 digits.
    clock: i64,
    /// The nanoseconds to add to `clock` (`Ns`), 0 to 999,999,999.
    #[table(rename = "Ns", max = 999_999_999)]
    ns: u32,
    #[table(rename = "HostHost")]
    host_host: String,
    #[table(rename = "HostName")]
    host_name: String,
    #[table(rename = "Name")]
    name: String,
    /// A number or a string, as the item's type says.
    value: String,
    #[table(rename = "Type")]
    value_type: i32,
    /// `Groups`, a JSON array of host group names in the original.
    #[table(rename = "Groups")]
    groups: String,
    /// `item_tags`, a JSON array of tag objects in the original.
    item_tags: String,
    /// Log items only.
    timestamp: Option<i64>,
    source: Option<String>,
    severity: Option<i32>,
    eventid: Option<i64>,
}

#[derive(TableEntity)]
#[table(name = "trends", partition_key = "{item_id:unpadded}", row_key = "{clock:unpadded}")]
struct TrendEntity {
    #[table(rename = "itemid")]
    item_id: i64,
    /// The start of the hour, Unix seconds.
    #[table(rename = "Clock")]
    clock: i64,
    #[table(rename = "HostHost")]
    host_host: String,
    #[table(rename = "HostName")]
    host_name: String,
    #[table(rename = "Name")]
    name: String,
    #[table(rename = "Count")]
    count: i64,
    #[table(rename = "Min")]
    min: f64,
    #[table(rename = "Max")]
    max: f64,
    #[table(rename = "Avg")]
    avg: f64,
    #[table(rename = "Groups")]
    groups: String,
    item_tags: String,
    #[table(rename = "Type")]
    value_type: i32,
}

/// SaveHistory and SaveTrends: AddEntity per record.
async fn save<B: Backend>(
    history: &Table<'_, B, HistoryEntity>,
    trends: &Table<'_, B, TrendEntity>,
    value: &HistoryEntity,
    trend: &TrendEntity,
) {
    let _ = history.insert(value).await;
    let _ = trends.insert(trend).await;
}

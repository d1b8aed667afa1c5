//! An empty key template: the service takes `""` as a PartitionKey or RowKey, and designs such
//! as the Bot Framework's table storage (one entity per partition, RowKey `""`) use it.

use table_runtime::TableEntity;

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "BotState", partition_key = "{key}", row_key = "")]
struct StoreItem {
    key: String,
    document: String,
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Cache", partition_key = "", row_key = "{id}")]
struct CacheEntry {
    id: String,
    data: String,
}

#[test]
fn an_empty_template_is_the_empty_key() {
    let item = StoreItem {
        key: "conv-1".into(),
        document: "{}".into(),
    };
    assert_eq!(item.partition_key().unwrap(), "conv-1");
    assert_eq!(item.row_key().unwrap(), "");
    let key = StoreItemKey::parse("conv-1", "").unwrap();
    assert_eq!(key, item.key());
    assert!(StoreItemKey::parse("conv-1", "x").is_err());
    assert_eq!(
        StoreItem::from_entity(&item.to_entity().unwrap()).unwrap(),
        item
    );

    let entry = CacheEntry {
        id: "k".into(),
        data: "v".into(),
    };
    assert_eq!(entry.partition_key().unwrap(), "");
    assert_eq!(entry.row_key().unwrap(), "k");
    assert_eq!(CacheEntryKey::parse("", "k").unwrap(), entry.key());
    assert_eq!(
        CacheEntry::from_entity(&entry.to_entity().unwrap()).unwrap(),
        entry
    );
}

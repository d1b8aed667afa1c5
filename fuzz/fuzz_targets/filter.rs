//! The `$filter` language: parsing any text, and evaluating a filter that parses against a
//! table of entities of every type. The store's planned query (key ranges, continuations,
//! pages that end early) must return exactly the entities that the filter matches one by one.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use table_runtime::query::{Filter, Query};
use table_runtime::{Entity, PagingQuirks, Store, StoreOptions};

const ENTITIES: &[&str] = &[
    r#"{"PartitionKey":"","RowKey":""}"#,
    r#"{"PartitionKey":"a","RowKey":"1","S":"x","I":1,"D":1.5,"B":true}"#,
    r#"{"PartitionKey":"a","RowKey":"2","S":"y","I":-7,"D":-0.0,"B":false}"#,
    r#"{"PartitionKey":"a","RowKey":"10","L":"9223372036854775807","L@odata.type":"Edm.Int64"}"#,
    r#"{"PartitionKey":"a'b","RowKey":"r","T":"2024-01-02T03:04:05Z","T@odata.type":"Edm.DateTime"}"#,
    r#"{"PartitionKey":"b","RowKey":"r","G":"c56a4180-65aa-42ec-a945-5fd21dec0538","G@odata.type":"Edm.Guid"}"#,
    r#"{"PartitionKey":"b","RowKey":"s","X":"AAEC","X@odata.type":"Edm.Binary","S":"x"}"#,
    r#"{"PartitionKey":"b","RowKey":"t","D":"NaN","D@odata.type":"Edm.Double","I":2147483647}"#,
    r#"{"PartitionKey":"b","RowKey":"u","D":"Infinity","D@odata.type":"Edm.Double","I":"1","I@odata.type":"Edm.Int64"}"#,
    r#"{"PartitionKey":"é","RowKey":"😀","S":"é","L":"-5","L@odata.type":"Edm.Int64"}"#,
    r#"{"PartitionKey":"z~","RowKey":"~ ","S":"","B":true,"D":1e300}"#,
    r#"{"PartitionKey":"zz","RowKey":"a","PartitionKeyX":"a","T":"1601-01-01T00:00:00Z","T@odata.type":"Edm.DateTime"}"#,
];

fn store(paging: PagingQuirks) -> Store {
    let store = Store::with_options(StoreOptions {
        paging,
        ..StoreOptions::default()
    });
    store.create_table("tab").unwrap();
    for text in ENTITIES {
        let entity = table_runtime::json::entity_from_json_str(text).unwrap();
        store.insert("tab", &entity).unwrap();
    }
    store
}

static PLAIN: LazyLock<Store> = LazyLock::new(|| store(PagingQuirks::default()));
static QUIRKY: LazyLock<Store> = LazyLock::new(|| {
    store(PagingQuirks {
        end_at_partition_boundary: true,
        max_examined_per_page: Some(2),
        empty_first_page: true,
    })
});

fn keys(entities: &[Entity]) -> Vec<(String, String)> {
    entities
        .iter()
        .map(|e| (e.partition_key.clone(), e.row_key.clone()))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(filter) = Filter::parse(text) else {
        return;
    };
    let _ = filter.plan();
    let all = PLAIN.query_all("tab", &Query::all()).unwrap();
    let expected: Vec<(String, String)> = keys(
        &all.into_iter()
            .filter(|e| filter.matches(e))
            .collect::<Vec<_>>(),
    );
    let query = Query {
        filter: Some(filter.clone()),
        ..Query::default()
    };
    for (store, top) in [(&*PLAIN, None), (&*PLAIN, Some(1)), (&*QUIRKY, Some(3))] {
        let query = Query {
            top,
            ..query.clone()
        };
        let found = store
            .query_all("tab", &query)
            .unwrap_or_else(|e| panic!("`{text}` parses but the query fails: {e}"));
        assert_eq!(keys(&found), expected, "`{text}` (top {top:?})");
    }
});

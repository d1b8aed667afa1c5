//! Flask service with Table Storage deployed to Azure Container Instances (Python,
//! azure-data-tables): a CRUD API of game heroes. Source:
//! https://github.com/hvalfangst/Flask-service-with-Table-Storage-deployed-to-ACI/blob/b75def96e9db2bd8abc31136bf2349121824cf5d/python/repository/module.py
//! and python/main.py, python/config/module.py.
//!
//! `partition_key = "Heroes"` for every row; the RowKey is `str(row_key_counter)`, a module-level
//! integer that starts at 1 when the process starts and is incremented after each successful
//! `create_entity`. GET /heroes lists `PartitionKey eq 'Heroes'`; GET and DELETE /heroes/<row_key>
//! are point operations.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "hvalfangststoragetable", partition_key = "Heroes", row_key = "{id:unpadded}")]
struct Hero {
    /// `row_key_counter`: 1, 2, 3, … per process lifetime.
    #[table(min = 1)]
    id: u32,
    #[table(rename = "Name")]
    name: String,
    #[table(rename = "Class")]
    class: String,
    #[table(rename = "Damage")]
    damage: i64,
}

/// list_heroes: `query_entities(query_filter="PartitionKey eq 'Heroes'")`.
fn all_heroes() -> Query {
    Query::filter("PartitionKey eq 'Heroes'").unwrap()
}

/// get_hero: `get_entity(partition_key="Heroes", row_key=row_key)`.
fn hero(row_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'Heroes' and RowKey eq '{}'", row_key)).unwrap()
}

/// create_hero: `create_entity`.
async fn create_hero<B: Backend>(heroes: &Table<'_, B, Hero>, hero: &Hero) {
    let _ = heroes.insert(hero).await;
}

/// delete_hero: `delete_entity` without an ETag.
async fn delete_hero<B: Backend>(heroes: &Table<'_, B, Hero>, key: &<Hero as TableEntity>::Key) {
    let _ = heroes.delete(key, IfMatch::Any).await;
}

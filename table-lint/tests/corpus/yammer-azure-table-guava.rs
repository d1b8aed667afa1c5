//! azure-table (Java, legacy Azure storage SDK `com.microsoft.windowsazure.services.table`):
//! Yammer's implementation of Guava's `Table<R, C, V>` (a two-key map) on top of an Azure
//! table, with JSON-serializing and metered decorators; its backup tool was written for Yammer's
//! secret store. Sources (commit 3c766bb3cb91d44b78208192f7b437cfe8958eab of
//! https://github.com/yammer/azure-table):
//! https://github.com/yammer/azure-table/blob/3c766bb3cb91d44b78208192f7b437cfe8958eab/azure-table-core/src/main/java/com/yammer/collections/azure/BaseAzureTable.java,
//! with AzureTableRequestFactory.java, AzureEntity.java, AzureEntityUtil.java, ColumnView.java,
//! RowView.java, CellSetMutableView.java and AbstractCollectionView.java in the same folder,
//! and README.md.
//!
//! One Azure table per Guava table (the name is the caller's). A cell (row, column, value) is
//! one entity: PartitionKey = Base64 of the row key's bytes, RowKey = Base64 of the column key's
//! bytes, property `Value` = Base64 of the value's bytes. With the JSON decorator the bytes are
//! the JSON text of arbitrary Java objects.
//!
//! Operations: get/contains(row, column) retrieve the entity by both keys; put is
//! insertOrReplace; remove retrieves the entity and deletes it with the ETag it read. row(r)
//! is a live map over `PartitionKey eq '<r>'`, and its containsValue adds `Value eq '<v>'`
//! (`(PartitionKey eq ...) and (Value eq ...)`); column(c) is a live map over `RowKey eq '<c>'`,
//! its containsValue `(RowKey eq ...) and (Value eq ...)`; containsColumn asks whether that
//! column map is empty. containsValue(v) filters `Value eq '<v>'` over the table. cellSet(),
//! size(), isEmpty(), rowKeySet(), columnKeySet() and values() iterate the whole table (size()
//! counts every entity on each call); clear() iterates it and removes each cell in turn, and
//! putAll puts cell by cell.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "GuavaTable", partition_key = "{row}", row_key = "{column}")]
struct Cell {
    /// Base64 of the row key's bytes; kept only in the key.
    row: String,
    /// Base64 of the column key's bytes; kept only in the key.
    column: String,
    /// Base64 of the value's bytes.
    #[table(rename = "Value")]
    value: String,
}

/// row(r): the row as a map, and its containsValue.
fn row_cells(row: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", row)).unwrap()
}

fn row_contains_value(row: &str, value: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}') and (Value eq '{}')", row, value)).unwrap()
}

/// column(c): the column as a map (also containsColumn), and its containsValue.
fn column_cells(column: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", column)).unwrap()
}

fn column_contains_value(column: &str, value: &str) -> Query {
    Query::filter(&format!("(RowKey eq '{}') and (Value eq '{}')", column, value)).unwrap()
}

/// containsValue(v) over the whole table.
fn contains_value(value: &str) -> Query {
    Query::filter(&format!("Value eq '{}'", value)).unwrap()
}

/// cellSet, size, isEmpty, rowKeySet, columnKeySet, values: the whole table; clear() removes
/// every cell it iterates, one retrieve and one delete each.
async fn whole_table<B: Backend>(backend: &B, cells: &Table<'_, B, Cell>, key: &<Cell as TableEntity>::Key) {
    let _ = backend.query_page(Cell::TABLE, &Query::all()).await;
    let _ = cells.get(key).await;
    let _ = cells.delete(key, IfMatch::Any).await;
}

/// get/contains (retrieve), put (insertOrReplace), remove (retrieve, then delete with the ETag
/// read; `IfMatch::Any` stands for it here).
async fn cell_ops<B: Backend>(cells: &Table<'_, B, Cell>, cell: &Cell, key: &<Cell as TableEntity>::Key) {
    let _ = cells.get(key).await;
    let _ = cells.upsert(cell).await;
    let _ = cells.delete(key, IfMatch::Any).await;
}

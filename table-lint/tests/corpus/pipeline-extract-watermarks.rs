//! josh97ellis/pipeline (Python, azure-data-tables): a small extract job that copies tables from
//! PostgreSQL databases to CSV files in Blob Storage, fully or incrementally, and keeps each
//! source table's extraction state in Table Storage. Source:
//! https://github.com/josh97ellis/pipeline/blob/388a6e98a60cce8d7bc09e85de806fd1bce8a581/azure_table.py
//! with main.py of the same commit.
//!
//! PipelineSourceRepository writes one row per extracted table: PartitionKey = the extractor's
//! (source database's) name from the YAML config, RowKey = the table's name as the config gives
//! it (schema-qualified, e.g. `sales.orders`). For each configured table main.py creates the row
//! with its ExtractMethod (create_entity, an existing row left alone); for an incremental table it
//! point-reads LatestUpdatedValue (default `1970-01-01`) to build the `WHERE column > value`
//! clause, and after the upload merges the new maximum and the column name back (update_entity
//! in MERGE mode). The table's name comes from `pipeline.conf`. No queries, scans or deletes.

use table_runtime::{Backend, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "PipelineSources", partition_key = "{source_name}", row_key = "{table_name}")]
struct PipelineSource {
    /// The extractor's name in the YAML config (one per source database).
    #[table(max_len = 63)]
    source_name: String,
    /// The source table as the config names it, schema-qualified.
    #[table(max_len = 127)]
    table_name: String,
    /// `full` or `incremental`.
    #[table(rename = "ExtractMethod")]
    extract_method: String,
    /// The incremental column's largest extracted value, as text (`str(max)`).
    #[table(rename = "LatestUpdatedValue")]
    latest_updated_value: Option<String>,
    /// The incremental column's name.
    #[table(rename = "IncrementalKey")]
    incremental_key: Option<String>,
}

/// create_entity for each configured table; ResourceExistsError is ignored.
async fn register<B: Backend>(sources: &Table<'_, B, PipelineSource>, row: &PipelineSource) {
    let _ = sources.insert(row).await;
}

/// get_latest_updated_value: a point read by source and table.
async fn watermark<B: Backend>(sources: &Table<'_, B, PipelineSource>, key: &<PipelineSource as TableEntity>::Key) {
    let _ = sources.get(key).await;
}

/// update_entity(mode=MERGE) after an incremental extract: the row exists, any ETag accepted.
async fn advance<B: Backend>(sources: &Table<'_, B, PipelineSource>, row: &PipelineSource) {
    let _ = sources.merge(row, IfMatch::Any).await;
}

//! esi_backend (Python, Flask, azure-data-tables): a back end that takes Excel uploads of
//! stakeholder feedback, runs keyword, sentiment and theme extraction over them and serves chart
//! data (network graph, word cloud, timeline, heat map, geo map, sunburst) for a dashboard.
//! Source:
//! https://github.com/Bpxinfo/esi_backend/blob/185a6e570ce9e576357c8f7edfd0ec41515c965e/azure_table.py
//! with app.py of the same repository.
//!
//! - `GraphData`, the catalogue of uploads: insert_data_graphtable creates one row per processed
//!   sheet with the constant PartitionKey `ExcelSheet` and RowKey `str(uuid.uuid4())`, holding the
//!   sheet name, a metadata text, the upload's `name` (the name of its data table) and the date.
//!   The home page (`/totaluploadData`) lists the whole table; getAllGraphName reads every row
//!   with `select=["name"]` and an empty filter, both for the duplicate-name check the front end
//!   does before an upload (`/get_allgraphname`) and, with the result thrown away, at the start
//!   of every chart route.
//! - The data table of an upload (its name is the caller's): insert_json_data_list writes one
//!   row per processed spreadsheet row, one create_entity after another, PartitionKey the
//!   constant `ProcessedData` and RowKey a new uuid4; the columns are the sheet's, sanitised.
//!   Every chart route reads the whole table with a column `select` and no filter and aggregates
//!   in memory; getTableData lists it whole keyed by RowKey.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "GraphData", partition_key = "ExcelSheet", row_key = "{id}")]
struct GraphData {
    /// `str(uuid.uuid4())`, new for each catalogue row.
    id: Uuid,
    sheetname: String,
    metadata: String,
    /// The upload's name, which is also the name of its data table.
    name: String,
    /// `datetime.now()`, naive local time as the SDK writes it.
    #[table(rename = "Date")]
    date: OffsetDateTime,
}

/// One processed spreadsheet row. The table is named per upload; `ProcessedSheetRows` stands in
/// for the name the caller passes.
#[derive(TableEntity)]
#[table(name = "ProcessedSheetRows", partition_key = "ProcessedData", row_key = "{id}")]
struct ProcessedRow {
    id: Uuid,
    #[table(rename = "Stakeholder")]
    stakeholder: String,
    #[table(rename = "Region")]
    region: String,
    #[table(rename = "State")]
    state: String,
    #[table(rename = "Speciality")]
    speciality: String,
    #[table(rename = "RTLL")]
    rtll: String,
    /// datetime values are written as `isoformat()` text; empty cells as `N/A`.
    #[table(rename = "Date")]
    date: String,
    /// JSON lists as text (`json.dumps`).
    keywords: String,
    theme: String,
    issue: String,
    metadata: String,
    nodeid: String,
    label: String,
    relationship: String,
    source: String,
    target: String,
    group: String,
}

/// getGraphData (`/totaluploadData`, the home page): every catalogue row.
fn all_uploads() -> Query {
    Query::all()
}

/// getAllGraphName: every row's `name`; the duplicate-name check before an upload, and the
/// discarded call at the top of each chart route.
fn all_upload_names() -> Query {
    Query::all().select(["name"])
}

/// fetch_table_data as the chart routes call it: the whole data table, a few columns.
fn chart_columns() -> Query {
    Query::all().select(["Stakeholder", "RTLL", "Region", "Speciality", "keywords"])
}

/// get_TableData (`/getTableData`): the whole data table.
fn whole_sheet() -> Query {
    Query::all()
}

/// insert_data_graphtable: one create_entity per processed sheet.
async fn catalogue<B: Backend>(graphs: &Table<'_, B, GraphData>, row: &GraphData) {
    let _ = graphs.insert(row).await;
}

/// insert_json_data_list: a create_entity per spreadsheet row, one request each.
async fn store_rows<B: Backend>(table: &Table<'_, B, ProcessedRow>, rows: &[ProcessedRow]) {
    for row in rows {
        let _ = table.insert(row).await;
    }
}

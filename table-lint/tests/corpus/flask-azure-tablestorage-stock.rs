//! flask_azure_tablestorage (Python, azure-cosmosdb-table's TableService): a small Flask app in
//! which a signed-in user posts a quantity of stock for a material. Source:
//! https://github.com/anishjmenon/flask_azure_tablestorage/blob/16bc54a64db030b8c743d0c3115370f61e085980/application.py
//!
//! Three tables, each with one fixed PartitionKey. `User` (PartitionKey `user`) is searched at
//! login with `PartitionKey eq 'user' and email eq '<email>'` and the first hit's `password` is
//! compared with the form's. `Materialmast` (PartitionKey `material`) is searched by the
//! description chosen in the form (`material_desc eq '<desc>'`) to find the material number.
//! A posting goes to `Stock` under PartitionKey `stock` with RowKey `str(n)`: the app reads the
//! RowKeys of the whole table (no filter, `select='RowKey'`, the first page of results), takes
//! the last one returned, parses it as an integer and adds one (1 for an empty table), then
//! inserts the row with `material_num`, `user_id` and `quantity`. Values typed in the forms are
//! pasted into the filters between quotes. The app never writes `User` or `Materialmast`, so
//! their RowKeys are not known.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "User", partition_key = "user", row_key = "{row_key}")]
struct User {
    /// Written outside this app; nothing here reads or builds it.
    row_key: String,
    user_id: String,
    email: String,
    /// Compared as plain text with the login form's password.
    password: String,
}

#[derive(TableEntity)]
#[table(name = "Materialmast", partition_key = "material", row_key = "{row_key}")]
struct Material {
    /// Written outside this app; nothing here reads or builds it.
    row_key: String,
    material_num: String,
    material_desc: String,
}

#[derive(TableEntity)]
#[table(name = "Stock", partition_key = "stock", row_key = "{seq:unpadded}")]
struct StockPosting {
    /// One more than the last RowKey the scan returned, written with `str()`.
    seq: i64,
    material_num: String,
    user_id: String,
    /// The form's quantity, a Python int (Int32 on the wire).
    quantity: i32,
}

/// login: the first user whose email matches, from the `user` partition.
async fn login<B: Backend>(users: &Table<'_, B, User>, email: &str) {
    let q = Query::filter(&format!("PartitionKey eq 'user' and email eq '{}'", email)).unwrap();
    let _ = users.query_page(&q, None).await;
}

/// home (POST): look up the material number, compute the next RowKey from a read of the
/// whole Stock table, and insert the posting.
async fn post_stock<B: Backend>(
    materials: &Table<'_, B, Material>,
    stock: &Table<'_, B, StockPosting>,
    material_desc: &str,
    posting: &mut StockPosting,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'material' and material_desc eq '{}'",
        material_desc
    ))
    .unwrap();
    let _ = materials.query_page(&q, None).await;

    let all_keys = Query::all().select(["RowKey"]);
    let page = stock.query_page(&all_keys, None).await.unwrap();
    posting.seq = page.items.last().map(|last| last.seq + 1).unwrap_or(1);
    let _ = stock.insert(posting).await;
}

//! Key designs from the domain, each a module with a `run` function that writes and queries a
//! table service and returns what it found, so the same code is a runnable example and a
//! tested one.
//!
//! Every `run` takes any [`Backend`]: the in-process [`Store`](table_runtime::Store), or Azure
//! Table Storage (and Azurite) through `table_http::HttpBackend`. The tests run each example on
//! both and expect the same report. What only the in-process store can tell, such as how many
//! entities a query examined, is reported by separate functions that take a `Store`.

use table_runtime::{Backend, Entity, Query, StoreError};

pub mod chaos;
pub mod event_log;
pub mod hr;
pub mod iot;
pub mod orders;
pub mod records;
pub mod saas;

/// Every entity a raw query matches, page after page: for the queries a typed
/// [`KeyQuery`](table_runtime::query::keyed::KeyQuery) can't express, such as a filter on a
/// property or a scan of a whole table.
pub async fn query_entities<B: Backend>(
    backend: &B,
    table: &str,
    query: &Query,
) -> Result<Vec<Entity>, StoreError> {
    let mut out = Vec::new();
    let mut query = query.clone();
    loop {
        let page = backend.query_page(table, &query).await?;
        out.extend(page.entities);
        match page.continuation {
            Some(next) => query.continuation = Some(next),
            None => return Ok(out),
        }
    }
}

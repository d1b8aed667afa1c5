//! go-azTable: a small Go HTTP/CLI front end (aztables SDK) that keeps the parameters of an Azure
//! Virtual Desktop landing-zone deployment in a table and lets a portal read and change them
//! one property at a time. Sources:
//! https://github.com/wiiikiii/go-azTable/blob/5bccd9c4b942fdb703c88d834c4944784d738fe3/pkg/manipulate/manipulateAzTable.go
//! and
//! https://github.com/wiiikiii/go-azTable/blob/228fdd619e6fa582df1fb0eee88ed16d3e90ef36/pkg/manipulate/routesAzTable.go
//!
//! Each entity is one parameter set: PartitionKey the product or scope (`AVD` in the repo's
//! samples), RowKey the set's name (`Input`), and some sixty string properties named
//! `FRONT_…` (what the portal form asks for) and `PARAM_WP_…` (the deployment template's
//! parameters). PartitionKey and RowKey come from the request's query string or form.
//! `Get` lists the partition (`PartitionKey eq`, pages of 500) and keeps the entity whose RowKey
//! matches, in memory; `GetSingle` does the same and returns one property of it. `Update`
//! upserts, in merge mode, an entity holding only the one property the form posted. `Delete`
//! re-reads the set through `Get` and sends an UpdateEntity in replace mode (the HTTP handler
//! for delete only prints a placeholder).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "avdparameters", partition_key = "{scope}", row_key = "{set_name}")]
struct ParameterSet {
    /// The `PartitionKey` query/form value, e.g. `AVD`.
    #[table(rename = "Scope")]
    scope: String,
    /// The `RowKey` query/form value, e.g. `Input`.
    #[table(rename = "SetName")]
    set_name: String,
    /// Representatives of the sixty-odd free-form string properties.
    #[table(rename = "FRONT_maintainanceTime")]
    front_maintenance_time: Option<String>,
    #[table(rename = "FRONT_ApplicationsToInstall")]
    front_applications_to_install: Option<String>,
    #[table(rename = "PARAM_WP_Location")]
    param_location: Option<String>,
    #[table(rename = "PARAM_WP_NamingPattern")]
    param_naming_pattern: Option<String>,
    #[table(rename = "PARAM_WP_Tags")]
    param_tags: Option<String>,
}

/// Get and GetSingle: `PartitionKey eq '<scope>'` with Top 500, every page read; the RowKey is
/// compared in Go, not in the filter.
fn parameter_sets_of_scope(scope: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", scope)).unwrap()
}

/// Update: UpsertEntity with UpdateMode merge of an entity carrying the one posted property.
async fn set_property<B: Backend>(sets: &Table<'_, B, ParameterSet>, one_property: &ParameterSet) {
    let _ = sets.merge(one_property, IfMatch::Any).await;
}

/// Delete: UpdateEntity with UpdateMode replace and no ETag, after reading the partition.
async fn rewrite_set<B: Backend>(sets: &Table<'_, B, ParameterSet>, set: &ParameterSet) {
    let _ = sets.replace(set, IfMatch::Any).await;
}

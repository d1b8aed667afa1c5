//! ember-cli-deploy-azure-tables (Node.js, `azure-storage` TableService): the ember-cli-deploy
//! plugin that keeps an Ember application's `index.html` revisions in a table (the "lightning"
//! deploy strategy), and the Express middleware that serves them. Sources:
//! https://github.com/ghedamat/ember-cli-deploy-azure-tables/blob/96ec669d92c5184499fd3f75142687c229edefd2/index.js
//! and the reader,
//! https://github.com/jamesdixon/node-ember-cli-deploy-azure-tables/blob/58dae046e7230f57edaf5dd7779c7fac053859ef/fetch.js
//!
//! Table `emberdeploy`, PartitionKey the literal `manifest` for everything. A revision row has
//! RowKey `${project.name()}:${revisionKey}` (the revision is `--revision` or the first 8
//! characters of the git SHA) and `content` = the whole index.html; `upload` first looks the key
//! up and refuses a duplicate, then `insertEntity`. `activate` writes the pointer row RowKey
//! `${project.name()}:current` with `content` = the active revision's key
//! (`insertOrReplaceEntity`). `_list` (fetchRevisions, activate) reads the pointer, then
//! `PartitionKey eq 'manifest' and RowKey ne '<project>:current'` and sorts the rows by
//! Timestamp in memory. The server reads, per request for the app, the pointer and then the
//! revision with `retrieveEntity` (optionally memoized for 5 s).

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "emberdeploy", partition_key = "manifest", row_key = "{project}:{revision}")]
struct Revision {
    /// `context.project.name()`, the npm package name of the Ember app.
    project: String,
    /// `--revision`, or the first 8 characters of the revision key (the git SHA).
    revision: String,
    /// The whole index.html.
    content: String,
}

#[derive(TableEntity)]
#[table(name = "emberdeploy", partition_key = "manifest", row_key = "{project}:current")]
struct CurrentRevision {
    project: String,
    /// The RowKey of the active revision, e.g. `my-app:3f2a9c1d`.
    content: String,
}

/// upload: is the revision already there? (`TableQuery().where('PartitionKey eq ?',
/// 'manifest').and('RowKey eq ?', key)`).
fn revision(key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'manifest' and RowKey eq '{}'", key)).unwrap()
}

/// _current: the pointer row.
fn current(project: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'manifest' and RowKey eq '{}:current'", project)).unwrap()
}

/// _list: every row of the partition but this project's pointer.
fn list(project: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'manifest' and RowKey ne '{}:current'", project)).unwrap()
}

/// fetch.js, per request: `retrieveEntity('emberdeploy', 'manifest', app + ':current')`, then the
/// revision it names (or `app + ':' + index_key` from the query string).
fn serve(app: &str, revision: &str) -> (Query, Query) {
    (
        Query::filter(&format!("PartitionKey eq 'manifest' and RowKey eq '{}:current'", app)).unwrap(),
        Query::filter(&format!("PartitionKey eq 'manifest' and RowKey eq '{}:{}'", app, revision)).unwrap(),
    )
}

/// upload: `insertEntity`; activate: `insertOrReplaceEntity` of the pointer.
async fn deploy<B: Backend>(
    revisions: &Table<'_, B, Revision>,
    pointers: &Table<'_, B, CurrentRevision>,
    rev: &Revision,
    pointer: &CurrentRevision,
) {
    let _ = revisions.insert(rev).await;
    let _ = pointers.upsert(pointer).await;
}

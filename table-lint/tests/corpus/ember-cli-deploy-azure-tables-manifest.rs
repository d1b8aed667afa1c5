//! ember-cli-deploy-azure-tables (JavaScript, Node.js, the `azure-storage` SDK): an
//! ember-cli-deploy plugin that keeps each build's `index.html` in an Azure table, and lets one
//! of the uploaded revisions be activated. Source:
//! https://github.com/ghedamat/ember-cli-deploy-azure-tables/blob/11b700507a67885f048ad9fbc6103722949803ca/index.js
//! The serving side that reads it is node-ember-cli-deploy-azure-tables:
//! https://github.com/jamesdixon/node-ember-cli-deploy-azure-tables/blob/46d69284425da99a926b9475bd09cfe1800b3718/fetch.js
//!
//! Table `emberdeploy`, every row under the PartitionKey `manifest`, whatever the application.
//! - A revision: RowKey `{project name}:{revision}` (the revision is `--revision` if given, else
//!   the first 8 characters of the build's revision key), property `content` = the whole text of
//!   the build's `index.html`. `upload` first queries PartitionKey and RowKey, refuses a key that
//!   is already there, then inserts.
//! - The active revision: RowKey `{project name}:current`, property `content` = the RowKey of the
//!   active revision. `activate` lists the partition, checks the revision's key is among the
//!   RowKeys, and insert-or-replaces the pointer.
//! - `list` reads the whole `manifest` partition (every project's revisions and pointers, with
//!   their `content`), sorts the rows by Timestamp, newest first, and returns the RowKeys.
//! - The server (fetch.js), on every request for the app's page: a point read of
//!   `{app}:current`, then a point read of the RowKey it names, whose `content` it sends; with
//!   `?index_key=X` it reads `{app}:X` (X stripped to letters and digits) directly.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "emberdeploy", partition_key = "manifest", row_key = "{project}:{revision}")]
struct Revision {
    /// `context.project.name()`.
    project: String,
    /// `--revision`, or the first 8 characters of the revision key (a git SHA by default).
    revision: String,
    /// The build's `index.html`, as one string.
    content: String,
}

#[derive(TableEntity)]
#[table(name = "emberdeploy", partition_key = "manifest", row_key = "{project}:current")]
struct CurrentRevision {
    project: String,
    /// The RowKey (`{project}:{revision}`) of the active revision.
    content: String,
}

/// upload: is the revision's key already in the manifest? (`PartitionKey eq ?` and `RowKey eq ?`)
fn revision_exists(key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'manifest' and RowKey eq '{}'", key)).unwrap()
}

/// list (and activate, which checks membership in it): the whole partition, sorted by Timestamp
/// in memory.
fn list_manifest() -> Query {
    Query::filter("PartitionKey eq 'manifest'").unwrap()
}

/// fetch.js: `retrieveEntity('emberdeploy', 'manifest', app + ':current')`, then the same for
/// the key its `content` names (or for `app + ':' + index_key`).
fn page_row(row_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'manifest' and RowKey eq '{}'", row_key)).unwrap()
}

/// upload: `insertEntity` of the revision after the existence check.
async fn upload<B: Backend>(revisions: &Table<'_, B, Revision>, revision: &Revision) {
    let _ = revisions.insert(revision).await;
}

/// activate: `insertOrReplaceEntity` of the pointer after the membership check.
async fn activate<B: Backend>(current: &Table<'_, B, CurrentRevision>, pointer: &CurrentRevision) {
    let _ = current.upsert(pointer).await;
}

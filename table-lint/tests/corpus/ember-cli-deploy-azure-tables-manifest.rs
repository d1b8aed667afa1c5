//! ember-cli-deploy-azure-tables (JavaScript, Node.js, the `azure-storage` TableService): an
//! ember-cli-deploy plugin that keeps every deployed `index.html` of an Ember app in an Azure
//! table, and lets a server pick the active one. Source (commit
//! 11b700507a67885f048ad9fbc6103722949803ca of https://github.com/ghedamat/ember-cli-deploy-azure-tables):
//! https://github.com/ghedamat/ember-cli-deploy-azure-tables/blob/11b700507a67885f048ad9fbc6103722949803ca/index.js
//! The serving side is the companion package jamesdixon/node-ember-cli-deploy-azure-tables
//! (fetch.js at commit 46d69284425da99a926b9475bd09cfe1800b3718), which reads the same table.
//!
//! Table `emberdeploy`, one partition for everything: PartitionKey is the constant `manifest`.
//! - A revision row: RowKey `{project}:{revision}`, where the project is the Ember project's name
//!   and the revision the `--revision` option or else the first 8 characters of the revision key
//!   (a git sha); `content` holds the whole index.html text.
//! - The pointer row: RowKey `{project}:current`, `content` holds the RowKey of the active
//!   revision. Both rows store the same single `content` property.
//!
//! upload: a `PartitionKey eq 'manifest' and RowKey eq …` query to refuse a key already
//! uploaded, then insertEntity. list: the whole `manifest` partition (every project's revisions
//! and the pointer rows, with their HTML), sorted by Timestamp in memory, newest first.
//! activate: list, check the key is in it, insertOrReplaceEntity of the pointer row. fetch (per
//! request of the app's HTML): retrieveEntity of `manifest`/`{app}:current`, then retrieveEntity
//! of `manifest`/the key it names (or of `manifest`/`{app}:{index_key}` when the request names a
//! revision, the query parameter stripped to letters and digits).

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "emberdeploy", partition_key = "manifest", row_key = "{project}:{revision}")]
struct Revision {
    /// `context.project.name()`, the Ember project's package name.
    project: String,
    /// `--revision` as given, else the revision key's first 8 characters.
    revision: String,
    /// The deployed index.html, as one string property.
    content: String,
}

#[derive(TableEntity)]
#[table(name = "emberdeploy", partition_key = "manifest", row_key = "{project}:current")]
struct CurrentPointer {
    project: String,
    /// The RowKey (`{project}:{revision}`) of the active revision.
    content: String,
}

/// upload: is this project/revision key already in the manifest?
fn already_uploaded(project: &str, revision: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'manifest' and RowKey eq '{}:{}'",
        project, revision
    ))
    .unwrap()
}

/// list (and activate's check): every row of the manifest partition, all projects together,
/// sorted newest first by Timestamp in memory.
fn list_revisions() -> Query {
    Query::filter("PartitionKey eq 'manifest'").unwrap()
}

/// upload: insertEntity of the new revision after the existence query.
async fn upload<B: Backend>(revisions: &Table<'_, B, Revision>, row: &Revision) {
    let _ = revisions.insert(row).await;
}

/// activate: insertOrReplaceEntity of the project's pointer row.
async fn activate<B: Backend>(pointers: &Table<'_, B, CurrentPointer>, row: &CurrentPointer) {
    let _ = pointers.upsert(row).await;
}

/// fetch (the serving side, per HTML request): the pointer row, then the revision it names; or
/// the named revision directly when the request carries `index_key`.
async fn fetch_index<B: Backend>(
    pointers: &Table<'_, B, CurrentPointer>,
    revisions: &Table<'_, B, Revision>,
    pointer_key: &<CurrentPointer as TableEntity>::Key,
    revision_key: &<Revision as TableEntity>::Key,
) {
    let _ = pointers.get(pointer_key).await;
    let _ = revisions.get(revision_key).await;
}

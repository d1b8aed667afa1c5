//! Rex (Rust, actix-web, azure_data_tables): Sierra Softworks' idea-tracking API, in which users
//! keep collections of ideas, share a collection with others through role assignments, and ask
//! for a random idea. Its production store is Azure Table storage. Sources (commit
//! 8facdfa105c0ecbfa412d6af154dc564a17e6990 of https://github.com/SierraSoftworks/rex-rs):
//! https://github.com/SierraSoftworks/rex-rs/blob/8facdfa105c0ecbfa412d6af154dc564a17e6990/src/store/tablestorage.rs,
//! with src/models/mod.rs, src/api/utils.rs, src/api/ideas/get_ideas.rs,
//! src/api/ideas/get_random_idea.rs and src/api/collections/remove_collection.rs.
//!
//! Every id is a random 128-bit number (a v4 UUID's bytes), written into keys as 32 lower-case hex
//! digits. Four tables. `ideas`: PartitionKey = the collection id, RowKey = the idea id;
//! properties Name, Description, Tags (`,`-joined) and Completed. `collections`: PartitionKey =
//! the owner's principal id, RowKey = the collection id; property Name. A user's default
//! collection has the user's own id as collection id. `roleassignments`: PartitionKey = the
//! collection id, RowKey = the principal id; property Role. `users`: PartitionKey = RowKey = the
//! MD5 of the lower-cased e-mail address; properties PrincipalId and FirstName.
//!
//! Reads: every single item is a point read by both keys (an idea, a collection, a role
//! assignment for the permission check, a user by e-mail hash). A collection's ideas are listed
//! with `PartitionKey eq '<collection>'`, plus ` and Completed eq <bool>` when asked and
//! ` and contains(Tags, '<tag>')` when a tag is asked, and the tag is checked again in memory; the
//! random idea lists the same way and picks one on the client. A user's collections are
//! `PartitionKey eq '<principal>'` on `collections`; a collection's members are
//! `PartitionKey eq '<collection>'` on `roleassignments`. Writes: every store is an upsert
//! (insert-or-replace) by both keys, every removal a delete by both keys. Before the idea and
//! collection reads, the API upserts the caller's user row, reads the default collection
//! (creating it if missing) and upserts the caller's owner assignment on it.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "ideas", partition_key = "{collection_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct Idea {
    /// 32 lower-case hex digits.
    #[table(max_len = 32)]
    collection_id: String,
    #[table(max_len = 32)]
    id: String,
    name: String,
    description: String,
    /// The tags, each preceded by a comma.
    tags: String,
    completed: bool,
}

#[derive(TableEntity)]
#[table(name = "collections", partition_key = "{principal_id}", row_key = "{collection_id}")]
#[table(rename_all = "PascalCase")]
struct Collection {
    #[table(max_len = 32)]
    principal_id: String,
    #[table(max_len = 32)]
    collection_id: String,
    name: String,
}

#[derive(TableEntity)]
#[table(name = "roleassignments", partition_key = "{collection_id}", row_key = "{principal_id}")]
#[table(rename_all = "PascalCase")]
struct RoleAssignment {
    #[table(max_len = 32)]
    collection_id: String,
    #[table(max_len = 32)]
    principal_id: String,
    /// `Owner`, `Contributor` or `Viewer`.
    role: String,
}

#[derive(TableEntity)]
#[table(name = "users", partition_key = "{email_hash}", row_key = "{email_hash}")]
#[table(rename_all = "PascalCase")]
struct User {
    /// MD5 of the trimmed, lower-cased e-mail address, in hex.
    #[table(max_len = 32)]
    email_hash: String,
    #[table(max_len = 32)]
    principal_id: String,
    first_name: String,
}

/// GetIdeas and GetRandomIdea: a collection's ideas, optionally by completion and by tag (the
/// four filters build_idea_filter_query can produce).
async fn collection_ideas<B: Backend>(backend: &B, collection: &str, completed: bool, tag: &str) {
    let all = Query::filter(&format!("PartitionKey eq '{}'", collection)).unwrap();
    let _ = backend.query_page(Idea::TABLE, &all).await;
    let done = Query::filter(&format!(
        "PartitionKey eq '{}' and Completed eq {}",
        collection, completed
    ))
    .unwrap();
    let _ = backend.query_page(Idea::TABLE, &done).await;
    let tagged = Query::filter(&format!(
        "PartitionKey eq '{}' and contains(Tags, '{}')",
        collection, tag
    ));
    if let Ok(q) = tagged {
        let _ = backend.query_page(Idea::TABLE, &q).await;
    }
    let done_tagged = Query::filter(&format!(
        "PartitionKey eq '{}' and Completed eq {} and contains(Tags, '{}')",
        collection, completed, tag
    ));
    if let Ok(q) = done_tagged {
        let _ = backend.query_page(Idea::TABLE, &q).await;
    }
}

/// GetCollections and GetRoleAssignments.
async fn lists<B: Backend>(backend: &B, principal: &str, collection: &str) {
    let mine = Query::filter(&format!("PartitionKey eq '{}'", principal)).unwrap();
    let _ = backend.query_page(Collection::TABLE, &mine).await;
    let members = Query::filter(&format!("PartitionKey eq '{}'", collection)).unwrap();
    let _ = backend.query_page(RoleAssignment::TABLE, &members).await;
}

/// Point reads, upserts and deletes by both keys.
async fn point_ops<B: Backend>(
    ideas: &Table<'_, B, Idea>,
    collections: &Table<'_, B, Collection>,
    roles: &Table<'_, B, RoleAssignment>,
    users: &Table<'_, B, User>,
    idea: &Idea,
    collection: &Collection,
    role: &RoleAssignment,
    user: &User,
    idea_key: &<Idea as TableEntity>::Key,
    collection_key: &<Collection as TableEntity>::Key,
    role_key: &<RoleAssignment as TableEntity>::Key,
    user_key: &<User as TableEntity>::Key,
) {
    let _ = ideas.get(idea_key).await;
    let _ = ideas.upsert(idea).await;
    let _ = ideas.delete(idea_key, IfMatch::Any).await;
    let _ = collections.get(collection_key).await;
    let _ = collections.upsert(collection).await;
    let _ = collections.delete(collection_key, IfMatch::Any).await;
    let _ = roles.get(role_key).await;
    let _ = roles.upsert(role).await;
    let _ = roles.delete(role_key, IfMatch::Any).await;
    let _ = users.get(user_key).await;
    let _ = users.upsert(user).await;
}

//! Digger (Terraform pull-request automation, Go, aztables): project locks in an Azure storage
//! account, so that two pull requests don't plan or apply the same Terraform project at once.
//! Source:
//! https://github.com/diggerhq/digger/blob/77b3cf588216e87962b4695b52d9d31553025520/libs/locking/azure/storage_account.go
//!
//! Table `DIGGERLOCK`. Lock: `AddEntity` with PartitionKey = the literal `digger` and RowKey = the
//! lock id (the repository's full name and the project, `org/repo#project`, with `/` and `#` replaced by `-`), property
//! `transaction_id` (the pull request number); `EntityAlreadyExists` means someone else holds
//! it. Unlock: `DeleteEntity("digger", resource)`. GetLock: a filter for the one row.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "DIGGERLOCK", partition_key = "digger", row_key = "{resource}")]
struct ProjectLock {
    /// The normalized resource name, e.g. `acme-infra-network` for `acme/infra#network`.
    resource: String,
    /// The pull request that holds the lock.
    transaction_id: i32,
}

/// GetLock(resource).
fn get_lock(resource: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'digger' and RowKey eq '{}'", resource)).unwrap()
}

/// Lock: `AddEntity`; `EntityAlreadyExists` means the lock is held.
async fn lock<B: Backend>(locks: &Table<'_, B, ProjectLock>, lock: &ProjectLock) {
    let _ = locks.insert(lock).await;
}

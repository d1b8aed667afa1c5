//! IO push notifications (TypeScript, Azure Functions table bindings): the beta-users table.
//! Source:
//! https://github.com/pagopa/io-functions-pushnotifications/blob/cd3c2a9f6d3ed165b5df5a085e15bc9992b05328/HandleNHNotificationCall/function.json
//! with IsUserInActiveSubsetActivity/function.json and utils/featureFlags.ts at the same commit.
//!
//! Both functions bind `betaTestUser` to the table BETA_USERS_TABLE_NAME with the filter
//! `RowKey eq '{installationId}'` and take 1, on every notification call; featureFlags checks
//! whether a row came back. The rows are written by an operator; the code never names their
//! PartitionKey.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "BetaUsers", partition_key = "{partition}", row_key = "{installation_id}")]
struct BetaUser {
    /// Never named by the code.
    #[table(max_len = 64)]
    partition: String,
    /// The installation id, a SHA-256 in hex.
    #[table(max_len = 64)]
    installation_id: String,
}

/// The `betaTestUser` input binding.
async fn beta_user<B: Backend>(backend: &B, installation_id: &str) {
    let q = Query::filter(&format!("RowKey eq '{}'", installation_id))
        .unwrap()
        .top(1);
    let _ = backend.query_page(BetaUser::TABLE, &q).await;
}

/// An operator adds a beta tester.
async fn add<B: Backend>(users: &Table<'_, B, BetaUser>, user: &BetaUser) {
    let _ = users.upsert(user).await;
}

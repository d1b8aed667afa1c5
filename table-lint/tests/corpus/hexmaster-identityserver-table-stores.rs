//! HexMaster.IdentityServer.Stores (C#, Microsoft.Azure.Cosmos.Table): IdentityServer4 client and
//! user stores kept in Azure Table storage. Sources (commit ca3c244bbf809ac77c4fa53d39784547d38c32c8
//! of https://github.com/nikneem/identityserver-table-storage):
//! HexMaster.IdentityServer.Stores/Stores/TableStorageUsersStore.cs, Entities/UserEntity.cs,
//! Constants.cs, and (commit 7589d4bdd0a8e4b29c781e8fd606cb7eefefb228)
//! Stores/TableStorageClientsStore.cs and Entities/ClientEntity.cs.
//!
//! Both stores open the table named by `TableNames.Clients` (`clients`); the users store does so
//! too, although a `users` name is declared. Clients live under the fixed PartitionKey `client`,
//! RowKey the OAuth client id, and `FindClientByIdAsync` is a Retrieve by both keys. Users live
//! under the fixed PartitionKey `user`, RowKey the user's id; `Validate(username, password)`
//! (every sign-in) queries `PartitionKey eq 'user' and Username eq '…'`, takes the first result
//! of the first segment and checks the password hash. The list-valued client settings are
//! comma-joined strings. No write path exists in the code: the rows are provisioned by hand.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "clients", partition_key = "client", row_key = "{client_id}")]
#[table(rename_all = "PascalCase")]
struct ClientEntity {
    /// The OAuth client id (the RowKey).
    client_id: String,
    cors_origins: String,
    grant_types: String,
    scopes: String,
    client_name: String,
    client_uri: String,
    description: String,
    enable_local_login: bool,
    enabled: bool,
    logout_redirect_uris: String,
    redirect_uris: String,
    require_client_secret: bool,
    require_consent: bool,
    require_pkce: bool,
}

#[derive(TableEntity)]
#[table(name = "clients", partition_key = "user", row_key = "{user_id}")]
#[table(rename_all = "PascalCase")]
struct UserEntity {
    /// The user's id (the RowKey), handed back as the subject.
    user_id: String,
    username: String,
    /// A password hash and its salt, both text.
    password: String,
    secret: String,
    email_address: String,
    profile_picture: String,
    /// Kept as text ("true"/"false") by the original.
    is_email_verified: String,
}

/// TableStorageClientsStore.FindClientByIdAsync: `TableOperation.Retrieve("client", clientId)`.
async fn find_client_by_id<B: Backend>(
    clients: &Table<'_, B, ClientEntity>,
    key: &<ClientEntity as TableEntity>::Key,
) {
    let _ = clients.get(key).await;
}

/// TableStorageUsersStore.Validate: the sign-in look-up by user name inside the `user` partition,
/// first segment only, first row taken.
fn validate_user(username: &str) -> Query {
    Query::filter(&format!("(Username eq '{}') and (PartitionKey eq 'user')", username)).unwrap()
}

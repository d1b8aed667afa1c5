//! Core.Identity.TableStorage (C#, Microsoft.Azure.Cosmos.Table): an ASP.NET Core Identity
//! user store on Azure tables. Sources:
//! https://github.com/jakiiskinen/core-identity-tablestorage/blob/70fd91a1158c092c3aa7afcd17a2d555d1ecae36/Core.Identity.TableStorage/Repositories/UserRepository.cs
//! and, in the same repository, Core.Identity.TableStorage/Repositories/RepositoryBase.cs,
//! Core.Identity.TableStorage/Models/User.cs, Core.Identity.TableStorage/UserStore.cs,
//! Core.Identity.TableStorage/DataContextSettingsProvider.cs.
//!
//! Table `Users`. Every read names one PartitionKey, `DataContextSettingsProvider.PartitionKey`,
//! a single value from the application's configuration; the RowKey is the user's `Id`, a new
//! GUID string set just before the Insert. Properties UserName, NormalizedUserName, Email,
//! NormalizedEmail, Password (the hash), EmailConfirmed, DisplayName. FindByIdAsync (also used by
//! GetPasswordHash and HasPassword) is a Retrieve by the configured partition and the id;
//! FindByNameAsync and FindByEmailAsync, called on every sign-in and registration, query the
//! configured partition for `NormalizedUserName eq …` or `NormalizedEmail eq …` and take the
//! first match; `GetAll` reads the whole table. Update is a Replace with the entity's ETag, the
//! repository's Delete a Delete with it (the user store's DeleteAsync does nothing).

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Users", partition_key = "users", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct User {
    /// `Guid.NewGuid().ToString()` in BeforeInsert.
    id: Uuid,
    user_name: String,
    /// The upper-cased user name Identity looks users up by.
    normalized_user_name: String,
    email: String,
    normalized_email: String,
    /// The password hash.
    password: Option<String>,
    email_confirmed: bool,
    display_name: Option<String>,
}

/// GetAsync(id): `TableOperation.Retrieve(settings.PartitionKey, id)`.
fn find_by_id(id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'users' and RowKey eq '{}'", id)).unwrap()
}

/// FindByName: `NormalizedUserName eq name` combined by `and` with the configured partition.
fn find_by_name(normalized_name: &str) -> Query {
    Query::filter(&format!("(NormalizedUserName eq '{}') and (PartitionKey eq 'users')", normalized_name)).unwrap()
}

/// FindByEmail: `NormalizedEmail eq email` combined by `and` with the configured partition.
fn find_by_email(normalized_email: &str) -> Query {
    Query::filter(&format!("(NormalizedEmail eq '{}') and (PartitionKey eq 'users')", normalized_email)).unwrap()
}

/// GetAll: an empty `TableQuery<T>`.
fn get_all() -> Query {
    Query::all()
}

/// CreateAsync -> InsertAsync: `TableOperation.Insert`.
async fn create<B: Backend>(users: &Table<'_, B, User>, user: &User) {
    let _ = users.insert(user).await;
}

/// UpdateAsync: `TableOperation.Replace` with the ETag the entity was read with.
async fn update<B: Backend>(users: &Table<'_, B, User>, user: &User, etag: ETag) {
    let _ = users.replace(user, IfMatch::ETag(etag)).await;
}

/// The repository's DeleteAsync: `TableOperation.Delete` with the entity's ETag.
async fn delete<B: Backend>(users: &Table<'_, B, User>, user: &User, etag: ETag) {
    let _ = users.delete_value(user, IfMatch::ETag(etag)).await;
}

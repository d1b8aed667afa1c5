//! LinkToMe API (PowerShell Azure Functions with AzBobbyTables): the `Users` table of a
//! link-in-bio SaaS. Sources, all at commit 3ae5ffedcdd5c416b1ae991b3d2f2b8601fc3e5d of
//! https://github.com/Zacgoose/linktome-api:
//! https://github.com/Zacgoose/linktome-api/blob/3ae5ffedcdd5c416b1ae991b3d2f2b8601fc3e5d/Modules/PublicApi/Public/Invoke-PublicSignup.ps1
//! and Modules/PublicApi/Public/Invoke-PublicLogin.ps1, Invoke-PublicGetUserProfile.ps1,
//! Invoke-PublicTrackLinkClick.ps1, Modules/PrivateApi/Public/Invoke-AdminUpdateEmail.ps1,
//! Modules/LinkTomeCore/Private/Stripe/Sync-*.ps1 and the ~40 endpoints that load the caller.
//!
//! PartitionKey = the e-mail address lower-cased, RowKey = `'user-' + (New-Guid)`. Signup
//! checks the e-mail with `PartitionKey eq`, the user name with `Username eq`, and adds the row
//! with `Add-AzDataTableEntity -Force`. Almost every authenticated endpoint loads the user with
//! `RowKey eq 'user-…'` (the JWT carries the user id, not the e-mail); the public profile page
//! and every tracked link click look the user up by `Username eq`; the Stripe webhooks by
//! `StripeCustomerId eq` or `StripeSubscriptionId eq`. Changing the e-mail adds a copy under the
//! new PartitionKey and removes the old row. `Select-Object -First 1` is applied in the client.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Users", partition_key = "{email}", row_key = "user-{user_id}")]
#[table(rename_all = "PascalCase")]
struct User {
    /// `$Body.email.ToLower()`.
    email: String,
    user_id: Uuid,
    /// Lower-cased, 3-30 letters, digits, `_` or `-`.
    username: String,
    display_name: String,
    bio: String,
    avatar: String,
    password_hash: String,
    password_salt: String,
    is_active: bool,
    /// JSON array, e.g. `["user"]`.
    roles: String,
    subscription_tier: String,
    subscription_status: String,
    two_factor_email_enabled: bool,
    two_factor_totp_enabled: bool,
    totp_secret: String,
    backup_codes: String,
    stripe_customer_id: Option<String>,
    stripe_subscription_id: Option<String>,
}

/// Invoke-PublicLogin, Invoke-PublicSignup (e-mail taken?), Invoke-AdminUpdateEmail (new
/// e-mail taken?), Invoke-AdminUserManagerInvite.
fn user_by_email(email: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", email)).unwrap()
}

/// Get-UserAvailablePermissions, Save-BackupCodes, Invoke-AdminGetAppearance, Invoke-AdminUpdateLinks,
/// Invoke-PublicRefreshToken, Invoke-PublicL (short-link owner) and the other endpoints that
/// load the signed-in user by id.
fn user_by_id(user_id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", user_id)).unwrap()
}

/// Invoke-PublicSignup (user name taken?), Invoke-PublicGetUserProfile (every profile view),
/// Invoke-PublicTrackLinkClick (every click).
fn user_by_username(username: &str) -> Query {
    Query::filter(&format!("Username eq '{}'", username)).unwrap()
}

/// Sync-CheckoutSessionCompleted, Sync-SubscriptionCreated.
fn user_by_stripe_customer(customer_id: &str) -> Query {
    Query::filter(&format!("StripeCustomerId eq '{}'", customer_id)).unwrap()
}

/// Sync-InvoicePaymentFailed, Sync-InvoicePaymentSucceeded, Sync-SubscriptionDeleted,
/// Sync-SubscriptionUpdated.
fn user_by_stripe_subscription(subscription_id: &str) -> Query {
    Query::filter(&format!("StripeSubscriptionId eq '{}'", subscription_id)).unwrap()
}

/// Signup and every profile update: `Add-AzDataTableEntity -Force` (insert or replace).
async fn save_user<B: Backend>(users: &Table<'_, B, User>, user: &User) {
    let _ = users.upsert(user).await;
}

/// Invoke-AdminUpdateEmail: the row copied under the new e-mail, then the old row removed.
async fn change_email<B: Backend>(
    users: &Table<'_, B, User>,
    moved: &User,
    old_key: &<User as TableEntity>::Key,
) {
    let _ = users.upsert(moved).await;
    let _ = users.delete(old_key, IfMatch::Any).await;
}

//! Outsidely (Python, Azure Functions, azure-data-tables): a small social fitness tracker;
//! these are each user's gear (shoes, bikes, with the distance they have done) and the user's
//! notifications. Source (commit 76e220856c06f61b8c060555cd8976a629a239e4 of
//! https://github.com/outsidely/outsidely-geo):
//! https://github.com/outsidely/outsidely-geo/blob/76e220856c06f61b8c060555cd8976a629a239e4/function_app.py
//! (create, read, update, delete, uploadactivity, createNotification and incrementDecrement).
//!
//! `gear`: PartitionKey = the owner's user id (lower-case alphanumeric, 2 to 20 characters),
//! RowKey = a v4 UUID; properties activitytype, name, distance (a float), geartype
//! (`active`...) and createtime. Creating gear first checks `PartitionKey eq <user> and name eq
//! '<name>'` for a duplicate name; the gear page lists `PartitionKey eq <user>` (or one item by
//! both keys) and sorts by Timestamp on the client; an activity upload checks its gear with
//! both keys plus `geartype eq 'active' and activitytype eq '<type>'`, and adds the activity's
//! distance with incrementDecrement, a point read followed by an upsert of the new total.
//! `notifications`: PartitionKey = the user id, RowKey = a v4 UUID; properties message,
//! createtime, options and properties (JSON text). createNotification upserts one; the
//! notifications page lists the user's partition and sorts by createtime, newest first; clearing
//! one deletes it by both keys, clearing all (or deleting the account) reads the partition and
//! deletes row by row.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "gear", partition_key = "{user_id}", row_key = "{gear_id}")]
struct Gear {
    #[table(max_len = 20)]
    user_id: String,
    gear_id: Uuid,
    /// A value of the `validate` table's `activitytype` list (run, ride, ...).
    activitytype: String,
    name: String,
    /// In the stored unit, summed from the activities that used the gear.
    distance: f64,
    /// `active` or `retired`.
    geartype: String,
    createtime: String,
}

#[derive(TableEntity)]
#[table(name = "notifications", partition_key = "{user_id}", row_key = "{notification_id}")]
struct Notification {
    #[table(max_len = 20)]
    user_id: String,
    notification_id: Uuid,
    message: String,
    createtime: String,
    /// JSON list of actions (at least "Clear").
    options: String,
    /// JSON object (user and activity the notice is about).
    properties: String,
}

/// The gear page and the duplicate-name check on create.
async fn user_gear<B: Backend>(backend: &B, user: &str, name: &str) {
    let all = Query::filter(&format!("PartitionKey eq '{}'", user)).unwrap();
    let _ = backend.query_page(Gear::TABLE, &all).await;
    let named = Query::filter(&format!("PartitionKey eq '{}' and name eq '{}'", user, name)).unwrap();
    let _ = backend.query_page(Gear::TABLE, &named).await;
}

/// An activity upload checks that the gear is the user's, active, and of the activity's type;
/// incrementDecrement reads the distance before writing the sum.
async fn gear_for_activity<B: Backend>(backend: &B, user: &str, gear: Uuid, activity_type: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}' and geartype eq 'active' and activitytype eq '{}'",
        user, gear, activity_type
    ))
    .unwrap();
    let _ = backend.query_page(Gear::TABLE, &q).await;
    let distance = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", user, gear))
        .unwrap()
        .select(["distance"]);
    let _ = backend.query_page(Gear::TABLE, &distance).await;
}

/// The notifications page, and the read before clearing them all.
async fn user_notifications<B: Backend>(backend: &B, user: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user))
        .unwrap()
        .select(["RowKey", "message", "createtime", "options", "properties"]);
    let _ = backend.query_page(Notification::TABLE, &q).await;
}

/// upsert_entity (default Merge) for new gear, edits, distance totals and notifications;
/// delete_entity for single notifications and, row by row, for cleared ones.
async fn writes<B: Backend>(
    gear: &Table<'_, B, Gear>,
    notifications: &Table<'_, B, Notification>,
    g: &Gear,
    n: &Notification,
    n_key: &<Notification as TableEntity>::Key,
) {
    let _ = gear.upsert(g).await;
    let _ = notifications.upsert(n).await;
    let _ = notifications.delete(n_key, IfMatch::Any).await;
}

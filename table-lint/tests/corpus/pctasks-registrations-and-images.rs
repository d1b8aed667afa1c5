//! Microsoft Planetary Computer tasks (pctasks, Python, azure-data-tables): event registrations
//! and the image-key table. Source:
//! https://github.com/microsoft/planetary-computer-tasks/blob/efe20072d60e1164c02d1ecc8559057a1f21b721/pctasks/core/pctasks/core/tables/registration.py
//! with tables/base.py, tables/config.py, core/constants.py, router/handlers/eventgrid.py and
//! run/task/prepare.py at the same commit.
//!
//! - blobtriggerregistrations: PartitionKey `f"{storage_account}||{container}"`, RowKey = the
//!   registration id; the router reads the partition named by each Storage event.
//! - webhooks: PartitionKey `f"{collection_id}|||{target_environment}"`, RowKey = id.
//! - imagekeys: PartitionKey = image key, RowKey = target environment (`default`); the task
//!   preparation reads one row per task run.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "blobtriggerregistrations",
    partition_key = "{storage_account}||{container}",
    row_key = "{id}"
)]
#[table(rename_all = "PascalCase")]
struct BlobTriggerEventRegistration {
    storage_account: String,
    container: String,
    id: String,
    /// The registration (prefix, suffix, workflow) as base64 JSON.
    data: String,
}

#[derive(TableEntity)]
#[table(
    name = "webhooks",
    partition_key = "{collection_id}|||{target_environment}",
    row_key = "{id}"
)]
#[table(rename_all = "PascalCase")]
struct StacItemEventRegistration {
    collection_id: String,
    /// DEFAULT_TARGET_ENVIRONMENT (`default`) unless given.
    target_environment: String,
    id: String,
    data: String,
}

#[derive(TableEntity)]
#[table(name = "imagekeys", partition_key = "{image_key}", row_key = "{target_environment}")]
#[table(rename_all = "none")]
struct ImageKeyEntry {
    image_key: String,
    target_environment: String,
    image: String,
    /// `" || "`-joined environment variables.
    environment: String,
    tags: String,
}

/// handle_blob_event: `get_registrations(f"{account}||{container}")`.
fn blob_trigger_registrations(storage_account: &str, container: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}||{}'", storage_account, container)).unwrap()
}

/// prepare_task: `image_key_table.get_image(image_key, target_environment)`.
fn image_for(image_key: &str, target_environment: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        image_key, target_environment
    ))
    .unwrap()
}

/// insert_record: a registration is created once.
async fn register<B: Backend>(
    registrations: &Table<'_, B, BlobTriggerEventRegistration>,
    webhooks: &Table<'_, B, StacItemEventRegistration>,
    trigger: &BlobTriggerEventRegistration,
    webhook: &StacItemEventRegistration,
) {
    let _ = registrations.insert(trigger).await;
    let _ = webhooks.insert(webhook).await;
}

/// set_image (deployment setup): an upsert per image key and environment.
async fn set_image<B: Backend>(images: &Table<'_, B, ImageKeyEntry>, entry: &ImageKeyEntry) {
    let _ = images.upsert(entry).await;
}

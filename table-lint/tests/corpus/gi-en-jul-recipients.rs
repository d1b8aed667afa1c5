//! Gi en jul (C#, ASP.NET Core, Microsoft.Azure.Cosmos.Table): families registered for a
//! Christmas donation, matched with givers by municipality. Source:
//! https://github.com/capgemini-stavanger/gi-en-jul/blob/037570125e0b46ae7feeb5ce7398097e417ddf20/GiEnJul/Repositories/RecipientRepository.cs
//!
//! Recipient: PartitionKey `{event}_{location}` (campaign and municipality), RowKey a GUID.
//! Written with InsertOrReplace; the matching screen reads one partition's unmatched families.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Recipient", partition_key = "{event_name}_{location}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct Recipient {
    /// The campaign, e.g. `JUL21`.
    #[table(rename = "Event")]
    event_name: String,
    location: String,
    id: String,
    dinner: String,
    dessert: String,
    note: Option<String>,
    person_count: i32,
    full_name: String,
    email: String,
    phone_number: String,
    institution: String,
    reference_id: String,
    is_matched: bool,
}

/// GetUnmatchedRecipientsAsync(location, currentEvent).
fn unmatched(event_name: &str, location: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}_{}') and (IsMatched eq false)",
        event_name, location
    ))
    .unwrap()
}

/// GetRecipientAsync(partitionKey, rowKey).
fn recipient(partition_key: &str, id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", partition_key, id)).unwrap()
}

/// GetAllAsModelAsync: the admin overview.
fn all_recipients() -> Query {
    Query::all()
}

/// InsertOrReplaceAsync.
async fn save<B: Backend>(recipients: &Table<'_, B, Recipient>, row: &Recipient) {
    let _ = recipients.upsert(row).await;
}

//! LabGateway (C#, Azure.Data.Tables): the idempotency records of the Lab Results Gateway of
//! Genomics Partnership Wales, which remember which uploaded lab result blobs, with which
//! content, have been processed, so a redelivered blob trigger is skipped. Sources, at commit
//! 4f81bdd6bcfbc29bf8d609baa96d21916dd7a958 of https://github.com/Genomics-Partnership-Wales/LabGateway:
//! https://github.com/Genomics-Partnership-Wales/LabGateway/blob/4f81bdd6bcfbc29bf8d609baa96d21916dd7a958/src/API/Infrastructure/Storage/TableStorageIdempotencyService.cs
//! with src/API/Application/Options/IdempotencyOptions.cs and src/API/LabResultBlobProcessor.cs.
//!
//! Table IdempotencyRecords (IdempotencyOptions.TableName). One row per blob name and content:
//! PartitionKey = the blob trigger's `{name}` (container lab-results-gateway), RowKey = the
//! SHA-256 of the blob's bytes in standard Base64 (`Convert.ToBase64String`, 44 characters).
//! Properties ProcessedAt (text, `DateTimeOffset.UtcNow.ToString("O")`) and Outcome (Success or
//! Failed).
//! Operations: HasBeenProcessedAsync reads the row by its two keys (GetEntityIfExistsAsync) and
//! treats it as a hit when ProcessedAt is within TTLHours (24 by default); MarkAsProcessedAsync
//! upserts the row (replace) after processing, on success and on each failure path. Nothing
//! queries or deletes.

use table_runtime::{Backend, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "IdempotencyRecords", partition_key = "{blob_name}", row_key = "{content_hash}")]
#[table(rename_all = "PascalCase")]
struct IdempotencyRecord {
    /// The blob's name inside the container, as the trigger binds it.
    blob_name: String,
    /// SHA-256 of the content, standard Base64.
    #[table(max_len = 44)]
    content_hash: String,
    /// `DateTimeOffset.UtcNow.ToString("O")`, text.
    processed_at: String,
    /// `Success` or `Failed`.
    #[table(max_len = 8)]
    outcome: String,
}

/// HasBeenProcessedAsync: `GetEntityIfExistsAsync(blobName, hash)`.
async fn has_been_processed<B: Backend>(
    records: &Table<'_, B, IdempotencyRecord>,
    key: &<IdempotencyRecord as TableEntity>::Key,
) {
    let _ = records.get(key).await;
}

/// MarkAsProcessedAsync: `UpsertEntityAsync` of the record.
async fn mark_as_processed<B: Backend>(records: &Table<'_, B, IdempotencyRecord>, record: &IdempotencyRecord) {
    let _ = records.upsert(record).await;
}

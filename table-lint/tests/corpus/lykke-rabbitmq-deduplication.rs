//! Lykke.RabbitMqDotNetBroker: the Azure Table deduplicator that a RabbitMQ subscriber asks
//! before handling a message, so that a redelivered message is handled once. Source:
//! https://github.com/LykkeCity/Lykke.RabbitMqDotNetBroker/blob/7b351f1069a39c6e141c0d98e9bb37c811e010e6/src/Lykke.RabbitMqBroker/Deduplication/Azure/DuplicateEntity.cs
//! with AzureStorageDeduplicator.cs and DuplicatesRepository.cs at the same commit and
//! Deduplication/HashHelper.cs.
//!
//! `DuplicateEntity.Create(body)`: `hash` = the MD5 of the message body as 32 uppercase hex
//! digits (`BitConverter.ToString(...).Replace("-", "")`); PartitionKey = `$"{hash}_PK"`, RowKey
//! = `hash`. EnsureNotDuplicateAsync checks that the row exists (a point read) and, if not,
//! writes it with InsertOrMerge, under an in-process semaphore. The table name is the
//! application's choice.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "RabbitMqDuplicates", partition_key = "{hash}_PK", row_key = "{hash}")]
struct DuplicateEntity {
    /// MD5 of the message body, 32 uppercase hex digits.
    #[table(max_len = 32)]
    hash: String,
}

/// RecordExistsAsync(entity): the row's point read.
fn duplicate_exists(hash: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}_PK') and (RowKey eq '{}')", hash, hash)).unwrap()
}

/// AddAsync: `InsertOrMergeAsync(entity)` after the existence check found nothing.
async fn remember<B: Backend>(duplicates: &Table<'_, B, DuplicateEntity>, entity: &DuplicateEntity) {
    let _ = duplicates.upsert(entity).await;
}

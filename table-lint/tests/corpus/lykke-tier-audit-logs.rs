//! Lykke Tier service (C#, Lykke AzureStorage over WindowsAzure.Storage): the service of the
//! Lykke exchange that tracks each client's account tier and tier-upgrade requests writes an
//! audit record for every request it files into the `AuditLogs` table that Lykke's back-office
//! services share. Sources (commit 95b4bbb037a319ccb83681e4d6105a4a81cb9225 of
//! https://github.com/LykkeCity/Lykke.Service.Tier):
//! https://github.com/LykkeCity/Lykke.Service.Tier/blob/95b4bbb037a319ccb83681e4d6105a4a81cb9225/src/Lykke.Service.Tier.AzureRepositories/AuditLogDataEntity.cs,
//! with src/Lykke.Service.Tier.AzureRepositories/AuditLogRepository.cs,
//! src/Lykke.Service.Tier.DomainServices/TierUpgradeService.cs,
//! src/Lykke.Service.Tier.Domain/Audit/AuditRecordType.cs and
//! src/Lykke.Service.Tier/Modules/RepositoriesModule.cs.
//!
//! PartitionKey = `AUD_`, the client's id, `_` and the record type's number; this service has one
//! record type, TierUpgradeRequest = 50, so its keys are `AUD_<client>_50`. RowKey =
//! `DateTime.MaxValue.Ticks - CreatedTime.Ticks` with 19 digits, `_`, and a new GUID in `N`
//! form, so a client's records of one type read newest first and two records of the same tick
//! still differ. Properties: CreatedTime, BeforeJson and AfterJson (the request's tier and KYC
//! status before and after, as JSON), Changer (who made the change) and EventRecord (not set
//! here). Filing or updating a tier-upgrade request inserts one record (InsertAsync); this
//! service never reads the table.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "AuditLogs",
    partition_key = "AUD_{client_id}_50",
    row_key = "{created_time:inverted_ticks}_{record_guid:N}"
)]
#[table(rename_all = "PascalCase")]
struct AuditLogDataEntity {
    /// The Lykke client id.
    client_id: String,
    /// `DateTime.UtcNow` when the request was filed; also the RowKey's inverted ticks.
    created_time: OffsetDateTime,
    /// `Guid.NewGuid().ToString("N")`: 32 hex digits, only in the RowKey.
    #[table(key_only)]
    record_guid: Uuid,
    event_record: Option<String>,
    /// `GetStatus(tier, currentRequest).ToJson()`.
    before_json: String,
    /// `"{tier}:{status}"` (with ` (updated)` when the status is unchanged), as JSON.
    after_json: String,
    changer: String,
}

/// TierUpgradeService.AddAsync → AuditLogRepository.InsertRecordAsync: one insert per request.
async fn record<B: Backend>(logs: &Table<'_, B, AuditLogDataEntity>, row: &AuditLogDataEntity) {
    let _ = logs.insert(row).await;
}

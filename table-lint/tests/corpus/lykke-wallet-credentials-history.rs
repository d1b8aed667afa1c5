//! Lykke BlockchainWallets service (C#, WindowsAzure.Storage through Lykke's AzureStorage
//! wrapper): the exchange's wallet registry; when a client's first-generation wallet credentials
//! are replaced, the old set is archived, and the previous multisig addresses are looked up to
//! recognise deposits to a client's old addresses. Source (commit
//! 0247ad3eb8fd5dfd074680f5fd1c3b7caa960ecb of https://github.com/LykkeCity/Lykke.Service.BlockchainWallets):
//! https://github.com/LykkeCity/Lykke.Service.BlockchainWallets/blob/0247ad3eb8fd5dfd074680f5fd1c3b7caa960ecb/src/Lykke.Service.BlockchainWallets.AzureRepositories/FirstGeneration/WalletCredentialsHistoryRepository.cs
//! with FirstGeneration/WalletCredentialsHistoryRecord.cs in the same folder.
//!
//! Table `WalletCredentialsHistory`. PartitionKey = the client id; RowKey made by the wrapper's
//! InsertAndGenerateRowKeyAsDateTimeAsync from `DateTime.UtcNow`: the archive time in the
//! wrapper's sortable date-time mask and a three-digit counter it raises and retries with on a
//! conflict. InsertHistoryRecord inserts one row per replaced credential set.
//! GetPrevMultisigsForUser reads the client's whole partition and returns every MultiSig.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "WalletCredentialsHistory",
    partition_key = "{client_id}",
    row_key = "{archived_at:iso}.{attempt:03}"
)]
#[table(rename_all = "PascalCase")]
struct WalletCredentialsHistoryRecord {
    #[table(max_len = 36)]
    client_id: String,
    /// `DateTime.UtcNow` at the archive.
    archived_at: OffsetDateTime,
    /// The wrapper's conflict counter.
    #[table(max = 999)]
    attempt: u16,
    address: String,
    public_key: String,
    private_key: Option<String>,
    multi_sig: String,
    colored_multi_sig: String,
    prevent_tx_detection: bool,
    encoded_private_key: Option<String>,
    btc_convertion_wallet_private_key: Option<String>,
    btc_convertion_wallet_address: Option<String>,
    eth_conversion_wallet_address: Option<String>,
    eth_address: Option<String>,
    eth_public_key: Option<String>,
    solar_coin_wallet_address: Option<String>,
    chrono_bank_contract: Option<String>,
    quanta_contract: Option<String>,
}

/// InsertHistoryRecord.
async fn archive<B: Backend>(history: &Table<'_, B, WalletCredentialsHistoryRecord>, record: &WalletCredentialsHistoryRecord) {
    let _ = history.insert(record).await;
}

/// GetPrevMultisigsForUser: the client's partition.
async fn previous_multisigs<B: Backend>(history: &Table<'_, B, WalletCredentialsHistoryRecord>, client_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", client_id)).unwrap();
    let _ = history.query_page(&q, None).await;
}

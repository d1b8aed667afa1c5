//! Lykke MatchingEngine (Kotlin and Java, com.microsoft.azure.storage): client wallets, the
//! balances the engine persists after processing each message. Sources:
//! https://github.com/LykkeCity/MatchingEngine/blob/937b360b10d461e444ebc7133dd9ab6b64ae4cb5/src/main/kotlin/com/lykke/matching/engine/database/azure/AzureWalletDatabaseAccessor.kt
//! and, at the same commit, src/main/java/com/lykke/matching/engine/daos/azure/wallet/AzureWallet.java,
//! src/main/kotlin/com/lykke/matching/engine/database/azure/AzureUtils.kt and
//! src/main/kotlin/com/lykke/matching/engine/database/BalancesDatabaseAccessorsHolderFactory.kt.
//!
//! AzureWallet: PartitionKey `"ClientBalance"`, RowKey = client id, `balances` = a JSON list of
//! `{Asset, Balance, Reserved}`. The Azure accessor is the primary balances store with
//! `Storage.Azure`, and the secondary copy with Redis when `writeBalancesToSecondaryDb` is set.
//! loadWallets reads `PartitionKey eq 'ClientBalance'` at start-up; insertOrUpdateWallets
//! writes the changed wallets with batchInsertOrMerge (TableBatchOperation.insertOrMerge, 100
//! per batch).

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Accounts", partition_key = "ClientBalance", row_key = "{client_id}")]
struct ClientWallet {
    client_id: String,
    /// `new Gson().toJson(assetBalances)`.
    balances: String,
}

/// loadWallets.
fn all_wallets() -> Query {
    Query::filter("PartitionKey eq 'ClientBalance'").unwrap()
}

/// insertOrUpdateWallets: batches of InsertOrMerge, one per changed wallet.
async fn persist<B: Backend>(wallets: &Table<'_, B, ClientWallet>, changed: &[ClientWallet]) {
    for wallet in changed {
        let _ = wallets.upsert(wallet).await;
    }
}

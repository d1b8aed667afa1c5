//! IO Functions Bonus (TypeScript, Azure Functions with azure-storage): the back end of Italy's
//! 2020 holiday bonus ("Bonus Vacanze") in the IO app, where citizens checked their family's
//! eligibility and activated a bonus. Three tables fed from the Cosmos DB change feed of the
//! bonus collections. Sources (commit 5423abc61adb957c3d4ce9c2555f8ec64eece03c of
//! https://github.com/pagopa/io-functions-bonus):
//! https://github.com/pagopa/io-functions-bonus/blob/5423abc61adb957c3d4ce9c2555f8ec64eece03c/StoreFamilyUidBonusActivation/index.ts
//! with StoreBonusActivationsHistory/index.ts and function.json, StoreEligibilityChecksHistory/
//! index.ts and function.json, CheckBonusActiveActivity/function.json and handler.ts,
//! utils/hash.ts (generateFamilyUID), utils/bonusCode.ts and utils/conversions.ts.
//!
//! `bonusleasebindings`: for every change of a bonus activation, StoreFamilyUidBonusActivation
//! upserts (insertOrReplaceEntity) PartitionKey = RowKey = the family's UID (the SHA-256, in hex,
//! of the sorted fiscal codes of its members) with BonusID and Status;
//! CheckBonusActiveActivity, an activity of the activation orchestrator, reads that one entity
//! through a table input binding (`partitionKey` and `rowKey` both `{familyUID}`) to tell
//! whether the family already has an ACTIVE bonus.
//!
//! `bonusactivations` and `eligibilitychecks`: StoreBonusActivationsHistory and
//! StoreEligibilityChecksHistory turn each changed document of the batch into a row through a
//! table output binding (inserts): PartitionKey = the document's id (the 12-character bonus code
//! for an activation, the citizen's fiscal code for an eligibility check), RowKey =
//! `Date.now().toString()`, Payload = the document as JSON. Nothing in the functions reads them
//! back: they are the history of each document, for support and audits.

use table_runtime::{Backend, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "bonusleasebindings", partition_key = "{family_uid}", row_key = "{family_uid}")]
struct BonusLeaseBinding {
    /// `sha256(sorted member fiscal codes)`, 64 hex characters.
    #[table(max_len = 64)]
    family_uid: String,
    /// The bonus code of the family's latest activation.
    #[table(rename = "BonusID")]
    bonus_id: String,
    /// PROCESSING, ACTIVE, FAILED, …
    #[table(rename = "Status")]
    status: String,
}

#[derive(TableEntity)]
#[table(name = "bonusactivations", partition_key = "{bonus_id}", row_key = "{at_ms:unpadded}")]
struct BonusActivationHistory {
    /// The activation document's id: a random 12-character bonus code.
    #[table(max_len = 12)]
    bonus_id: String,
    /// `Date.now()` when the change-feed batch was processed: 13 digits.
    at_ms: i64,
    /// The document, without Cosmos DB's system fields, as JSON.
    #[table(rename = "Payload")]
    payload: String,
}

#[derive(TableEntity)]
#[table(name = "eligibilitychecks", partition_key = "{fiscal_code}", row_key = "{at_ms:unpadded}")]
struct EligibilityCheckHistory {
    /// The eligibility check document's id: the applicant's fiscal code (16 characters).
    #[table(max_len = 16)]
    fiscal_code: String,
    /// `Date.now()` when the change-feed batch was processed.
    at_ms: i64,
    #[table(rename = "Payload")]
    payload: String,
}

/// StoreFamilyUidBonusActivation: insertOrReplaceEntity for each changed activation.
async fn bind_family<B: Backend>(bindings: &Table<'_, B, BonusLeaseBinding>, binding: &BonusLeaseBinding) {
    let _ = bindings.upsert(binding).await;
}

/// CheckBonusActiveActivity: the table input binding reads (familyUID, familyUID).
async fn family_binding<B: Backend>(
    bindings: &Table<'_, B, BonusLeaseBinding>,
    key: &<BonusLeaseBinding as TableEntity>::Key,
) {
    let _ = bindings.get(key).await;
}

/// The two history functions: the output binding inserts one row per changed document.
async fn store_history<B: Backend>(
    activations: &Table<'_, B, BonusActivationHistory>,
    checks: &Table<'_, B, EligibilityCheckHistory>,
    activation: &BonusActivationHistory,
    check: &EligibilityCheckHistory,
) {
    let _ = activations.insert(activation).await;
    let _ = checks.insert(check).await;
}

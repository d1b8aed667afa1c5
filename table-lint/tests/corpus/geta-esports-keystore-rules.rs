//! geta.esports.storage.keystore.svc (Java, Spring Boot, com.microsoft.azure.storage 8.x): the
//! rules table of a small key-store service for an e-sports platform. Sources at commit
//! c0f6e91ac8e7f2bda2ed5c8d0a6e9ecb85c8879d:
//! https://github.com/steven2012/geta.esports.storage.keystore.svc/blob/c0f6e91ac8e7f2bda2ed5c8d0a6e9ecb85c8879d/src/main/java/co/io/geta/platform/modules/dataproviders/jpa/JpaKeyStorage.java
//! with crosscutting/constants/GetaConstants.java and crosscutting/persistence/entity/Storage.java.
//!
//! One entity per rule: PartitionKey = the constant `Rule`, RowKey = the rule's name (the first
//! key of the JSON object posted to the API), and a Data property holding the JSON wrapped as
//! `{"KeyRules": …}`. addRule writes it with TableOperation.insertOrReplace and then reads it
//! back; getRule is a point read (TableOperation.retrieve) on (Rule, name); getAllRule queries
//! `PartitionKey eq 'Rule'` and returns every rule. Nothing is deleted.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "RulesEncrypted", partition_key = "Rule", row_key = "{key_rule}")]
struct Storage {
    /// The rule's name, kept only in the RowKey (the JSON in Data holds it as a map key).
    #[table(key_only)]
    key_rule: String,
    /// The rule as JSON text, `{"KeyRules": {…}}`.
    #[table(rename = "Data")]
    data: String,
}

/// getAllRule: TableQuery.generateFilterCondition("PartitionKey", EQUAL, "Rule").
fn all_rules() -> Query {
    Query::filter("PartitionKey eq 'Rule'").unwrap()
}

/// addRule: insert-or-replace, then getRule's point read of the same row.
async fn add_rule<B: Backend>(
    rules: &Table<'_, B, Storage>,
    row: &Storage,
    key: &<Storage as TableEntity>::Key,
) {
    let _ = rules.upsert(row).await;
    let _ = rules.get(key).await;
}

/// getRule: TableOperation.retrieve("Rule", keyRule).
async fn get_rule<B: Backend>(rules: &Table<'_, B, Storage>, key: &<Storage as TableEntity>::Key) {
    let _ = rules.get(key).await;
}

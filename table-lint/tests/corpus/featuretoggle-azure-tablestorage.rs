//! FeatureToggle.Azure (C#): the Azure Table Storage provider for the FeatureToggle library.
//! Source:
//! https://github.com/mikanyg/FeatureToggle.Azure/blob/8731a807fe104f33783e06f3c9a06d7d800a5209/src/FeatureToggle.Azure.TableStorage/Providers/TableStorageProvider.cs
//! with Providers/FeatureToggleEntity.cs, BooleanFeatureToggleEntity.cs,
//! DateTimeFeatureToggleEntity.cs, TimePeriodFeatureToggleEntity.cs and
//! TableStorageConfiguration.cs (table `FeatureToggles`).
//!
//! One row per toggle: PartitionKey = the component, by default the name of the assembly that
//! declares the toggle class (`PartitionKeyResolver`), RowKey = the toggle's class name. A
//! boolean toggle stores `Enabled`, a date toggle `ToggleTimestamp`, a time-period toggle
//! `Start` and `End`. Every evaluation of a toggle is a point read of its row; a missing row is
//! inserted with its default when `AutoCreateFeature` is on.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "FeatureToggles", partition_key = "{component_name}", row_key = "{toggle_name}")]
#[table(rename_all = "PascalCase")]
struct BooleanFeatureToggleEntity {
    /// `toggle.GetType().Assembly.GetName().Name`, e.g. `Contoso.Web`.
    component_name: String,
    /// `toggle.GetType().Name`, e.g. `NewCheckoutFeature`.
    toggle_name: String,
    enabled: bool,
}

#[derive(TableEntity)]
#[table(name = "FeatureToggles", partition_key = "{component_name}", row_key = "{toggle_name}")]
#[table(rename_all = "PascalCase")]
struct DateTimeFeatureToggleEntity {
    component_name: String,
    toggle_name: String,
    toggle_timestamp: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "FeatureToggles", partition_key = "{component_name}", row_key = "{toggle_name}")]
#[table(rename_all = "PascalCase")]
struct TimePeriodFeatureToggleEntity {
    component_name: String,
    toggle_name: String,
    start: OffsetDateTime,
    end: OffsetDateTime,
}

/// EvaluateToggleValue: `TableOperation.Retrieve<TEntity>(componentName, toggleName)` on every
/// evaluation of every toggle.
fn toggle(component_name: &str, toggle_name: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (RowKey eq '{}')",
        component_name, toggle_name
    ))
    .unwrap()
}

/// HandleMissingToggle with AutoCreateFeature: `TableOperation.Insert` of the default row.
async fn create_missing_boolean<B: Backend>(toggles: &Table<'_, B, BooleanFeatureToggleEntity>, row: &BooleanFeatureToggleEntity) {
    let _ = toggles.insert(row).await;
}

async fn create_missing_date<B: Backend>(toggles: &Table<'_, B, DateTimeFeatureToggleEntity>, row: &DateTimeFeatureToggleEntity) {
    let _ = toggles.insert(row).await;
}

async fn create_missing_period<B: Backend>(toggles: &Table<'_, B, TimePeriodFeatureToggleEntity>, row: &TimePeriodFeatureToggleEntity) {
    let _ = toggles.insert(row).await;
}

//! Azure Samples, "Azure Tables SDK for Java" tutorial app (Spring Boot, com.azure.data.tables):
//! weather observations. Source:
//! https://github.com/Azure-Samples/msdocs-azure-data-tables-sdk-java/blob/5cf7608d677a536cccf5ce0cd81197d767ec5bb6/2-completed-app/AzureTablesDemoApplication/src/main/java/com/azure/samples/tablesapp/service/impl/TablesServiceImpl.java
//! and untils/WeatherDataUtils.java, data/SampleWeatherData.java, templates/filter-results.html.
//!
//! PartitionKey: the station name (`Chicago`). RowKey: `String.format("%s %s", observationDate,
//! observationTime)`, the values of an HTML date and time input, so `2021-07-01 09:00`.
//! Properties Temperature, Humidity, Barometer, WindDirection, WindSpeed, Precipitation. The
//! home page lists the whole table (`listEntities()`); the filter page joins with ` and ` the
//! conditions whose form fields are filled: `PartitionKey eq`, a RowKey range from the two
//! date/time pairs, and Temperature and Precipitation ranges (`%f`). Rows are inserted
//! (`createEntity`), upserted, updated and deleted one at a time; the sample data of one city is
//! upserted in one transaction.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "WeatherData", partition_key = "{station_name}", row_key = "{observed_at:yyyy-MM-dd HH:mm}")]
#[table(rename_all = "PascalCase")]
struct WeatherObservation {
    station_name: String,
    /// The observation's date and time (minute precision, as typed in the form).
    observed_at: OffsetDateTime,
    temperature: f64,
    humidity: f64,
    barometer: f64,
    wind_direction: String,
    wind_speed: f64,
    precipitation: f64,
}

/// retrieveAllEntities: the home page's table, `tableClient.listEntities()`.
fn all_observations() -> Query {
    Query::all()
}

/// retrieveEntitiesByFilter with every field filled: a station, a date/time range and both
/// property ranges.
fn filter_everything() -> Query {
    Query::filter(
        "PartitionKey eq 'Chicago' and RowKey ge '2021-07-01 00:00' and RowKey le '2021-07-02 23:59' and Temperature ge 70.000000 and Temperature le 90.000000 and Precipitation ge 0.000000 and Precipitation le 0.500000",
    )
    .unwrap()
}

/// retrieveEntitiesByFilter with a station and a minimum temperature only: every observation of
/// the station is read.
fn hot_observations_of_station() -> Query {
    Query::filter("PartitionKey eq 'Chicago' and Temperature ge 80.000000").unwrap()
}

/// retrieveEntitiesByFilter with only the precipitation fields: no station, so every partition.
fn rainy_observations() -> Query {
    Query::filter("Precipitation ge 0.100000 and Precipitation le 5.000000").unwrap()
}

/// insertEntity: `tableClient.createEntity`.
async fn insert<B: Backend>(observations: &Table<'_, B, WeatherObservation>, row: &WeatherObservation) {
    let _ = observations.insert(row).await;
}

/// upsertEntity and insertSampleEntities (UPSERT_REPLACE actions of one city in one transaction).
async fn upsert<B: Backend>(observations: &Table<'_, B, WeatherObservation>, row: &WeatherObservation) {
    let _ = observations.upsert(row).await;
}

/// deleteEntity(stationName, formatRowKey(date, time)).
async fn delete<B: Backend>(
    observations: &Table<'_, B, WeatherObservation>,
    key: &<WeatherObservation as TableEntity>::Key,
) {
    let _ = observations.delete(key, IfMatch::Any).await;
}

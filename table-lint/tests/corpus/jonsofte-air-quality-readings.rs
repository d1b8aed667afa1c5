//! Air Quality Monitor (C#, Azure Functions v2 with Table bindings, ASP.NET Core Web API,
//! WindowsAzure.Storage): the particulate sensor project of GitHub user jonsofte (a PMS5003 on an ESP32
//! sending through IoT Hub) with a live SignalR view and daily, weekly and 90-day charts.
//! Sources (commit b2c6957cd0d376278b214c161ea74225ae909049 of
//! https://github.com/jonsofte/Air-Quality-Monitor):
//! https://github.com/jonsofte/Air-Quality-Monitor/blob/b2c6957cd0d376278b214c161ea74225ae909049/AirQuality.Functions/AirQuality.Functions/MeasurementRetrieveFunction.cs,
//! with AirQuality.Functions/AirQuality.Functions/HourPointLogGeneratorFunction.cs,
//! DayPointLogGeneratorFunction.cs, AirQuality.Functions/AirQuality.TableStorageEntities/*.cs
//! and AirQuality.WebAPI/Repository/AirQualityMeasurementRepository.cs.
//!
//! Three tables. `pms5003Data`: one row per reading (every five minutes), PartitionKey the
//! location (`Torborg`), RowKey the reading's local Norwegian time as `yyyy-MM-ddTHH:mm:ss`;
//! properties ReadDateTime (UTC), PointPM10, PointPM25, PointPM100. `HourLogMeasurement` and
//! `DayLogMeasurement`: one row per full hour or day, same PartitionKey, RowKey the start of the
//! hour or day in the same format; properties ReadDateTime, NumberOfPoints, and average, maximum
//! and minimum of each PM value.
//!
//! Writes: the Event Hub function inserts each reading through its Table output binding; the
//! hourly timer (2 minutes past each hour) finds the last hour summary of the last 8 days, reads
//! the readings after it, groups them by UTC hour and inserts each complete hour; the daily timer
//! does the same by day. Reads (web API): readings of the last 24 hours, readings between two
//! dates, hour summaries of the last 7 days, day summaries of the last 90 days, all as
//! `PartitionKey eq 'Torborg'` with RowKey bounds.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "pms5003Data", partition_key = "{location}", row_key = "{read_at:yyyy-MM-ddTHH:mm:ss}")]
#[table(rename_all = "PascalCase")]
struct PointMeasurementEntity {
    #[table(max_len = 32)]
    location: String,
    /// The reading's local time; only in the key in the original (as `yyyy-MM-ddTHH:mm:ss`).
    #[table(key_only)]
    read_at: OffsetDateTime,
    /// The reading's UTC time.
    read_date_time: OffsetDateTime,
    #[table(rename = "PointPM10")]
    point_pm10: i32,
    #[table(rename = "PointPM25")]
    point_pm25: i32,
    #[table(rename = "PointPM100")]
    point_pm100: i32,
}

#[derive(TableEntity)]
#[table(name = "HourLogMeasurement", partition_key = "{location}", row_key = "{read_at:yyyy-MM-ddTHH:mm:ss}")]
#[table(rename_all = "PascalCase")]
struct HourLogMeasurementEntity {
    #[table(max_len = 32)]
    location: String,
    /// The start of the hour; only in the key in the original.
    #[table(key_only)]
    read_at: OffsetDateTime,
    read_date_time: OffsetDateTime,
    number_of_points: i32,
    #[table(rename = "AvgPM10")]
    avg_pm10: f64,
    #[table(rename = "AvgPM25")]
    avg_pm25: f64,
    #[table(rename = "AvgPM100")]
    avg_pm100: f64,
    #[table(rename = "MaxPM10")]
    max_pm10: i32,
    #[table(rename = "MaxPM25")]
    max_pm25: i32,
    #[table(rename = "MaxPM100")]
    max_pm100: i32,
    #[table(rename = "MinPM10")]
    min_pm10: i32,
    #[table(rename = "MinPM25")]
    min_pm25: i32,
    #[table(rename = "MinPM100")]
    min_pm100: i32,
}

#[derive(TableEntity)]
#[table(name = "DayLogMeasurement", partition_key = "{location}", row_key = "{read_at:yyyy-MM-ddTHH:mm:ss}")]
#[table(rename_all = "PascalCase")]
struct DayLogMeasurementEntity {
    #[table(max_len = 32)]
    location: String,
    /// Midnight starting the day; only in the key in the original.
    #[table(key_only)]
    read_at: OffsetDateTime,
    read_date_time: OffsetDateTime,
    number_of_points: i32,
    #[table(rename = "AvgPM10")]
    avg_pm10: f64,
    #[table(rename = "AvgPM25")]
    avg_pm25: f64,
    #[table(rename = "AvgPM100")]
    avg_pm100: f64,
    #[table(rename = "MaxPM10")]
    max_pm10: i32,
    #[table(rename = "MaxPM25")]
    max_pm25: i32,
    #[table(rename = "MaxPM100")]
    max_pm100: i32,
    #[table(rename = "MinPM10")]
    min_pm10: i32,
    #[table(rename = "MinPM25")]
    min_pm25: i32,
    #[table(rename = "MinPM100")]
    min_pm100: i32,
}

/// RetrieveMeasurementEventStoreAndPublish: the output binding adds one reading.
async fn store_reading<B: Backend>(readings: &Table<'_, B, PointMeasurementEntity>, row: &PointMeasurementEntity) {
    let _ = readings.insert(row).await;
}

/// HourPointLogGeneratorFunction: the hour summaries of the last 8 days, the readings after the
/// last one, then one insert per complete hour.
async fn hourly_summaries<B: Backend>(
    backend: &B,
    hours: &Table<'_, B, HourLogMeasurementEntity>,
    eight_days_ago: &str,
    after_last_hour: &str,
    summary: &HourLogMeasurementEntity,
) {
    let recent = Query::filter(&format!("PartitionKey eq 'Torborg' and RowKey gt '{}'", eight_days_ago)).unwrap();
    let _ = backend.query_page(HourLogMeasurementEntity::TABLE, &recent).await;
    let points = Query::filter(&format!("PartitionKey eq 'Torborg' and RowKey gt '{}'", after_last_hour)).unwrap();
    let _ = backend.query_page(PointMeasurementEntity::TABLE, &points).await;
    let _ = hours.insert(summary).await;
}

/// DayPointLogGeneratorFunction: the same by day (day summaries of the last 10 days).
async fn daily_summaries<B: Backend>(
    backend: &B,
    days: &Table<'_, B, DayLogMeasurementEntity>,
    ten_days_ago: &str,
    after_last_day: &str,
    summary: &DayLogMeasurementEntity,
) {
    let recent = Query::filter(&format!("PartitionKey eq 'Torborg' and RowKey gt '{}'", ten_days_ago)).unwrap();
    let _ = backend.query_page(DayLogMeasurementEntity::TABLE, &recent).await;
    let points = Query::filter(&format!("PartitionKey eq 'Torborg' and RowKey gt '{}'", after_last_day)).unwrap();
    let _ = backend.query_page(PointMeasurementEntity::TABLE, &points).await;
    let _ = days.insert(summary).await;
}

/// AirQualityMeasurementRepository: the web API's four reads, each through every continuation.
async fn web_api_reads<B: Backend>(backend: &B, day_ago: &str, start_date: &str, end_date: &str, week_ago: &str, ninety_days_ago: &str) {
    let last_day = Query::filter(&format!("PartitionKey eq 'Torborg' and RowKey gt '{}'", day_ago)).unwrap();
    let _ = backend.query_page(PointMeasurementEntity::TABLE, &last_day).await;
    let between = Query::filter(&format!(
        "PartitionKey eq 'Torborg' and RowKey gt '{}' and RowKey lt '{}'",
        start_date, end_date
    ))
    .unwrap();
    let _ = backend.query_page(PointMeasurementEntity::TABLE, &between).await;
    let hours = Query::filter(&format!("PartitionKey eq 'Torborg' and RowKey gt '{}'", week_ago)).unwrap();
    let _ = backend.query_page(HourLogMeasurementEntity::TABLE, &hours).await;
    let days = Query::filter(&format!("PartitionKey eq 'Torborg' and RowKey gt '{}'", ninety_days_ago)).unwrap();
    let _ = backend.query_page(DayLogMeasurementEntity::TABLE, &days).await;
}

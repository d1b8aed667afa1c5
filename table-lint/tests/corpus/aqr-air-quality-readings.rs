//! AQR-Azure-Scripts (Python 2, azure-storage TableService): the data collector of Air Quality
//! Radar, a student project forecasting air pollution in Cambridge. An hourly cron job downloads
//! pollution readings (DEFRA, Air Quality England), weather observations (the Computer
//! Laboratory's station) and the Met Office forecast, and an ML job predicts pollution from them.
//! Sources at commit 46eb5899fdcff5e6cf1d6fbe2ddae56674e9f0ad of
//! https://github.com/Air-Quality-Radar/AQR-Azure-Scripts:
//! https://github.com/Air-Quality-Radar/AQR-Azure-Scripts/blob/46eb5899fdcff5e6cf1d6fbe2ddae56674e9f0ad/AQR.py
//! with azure_service_wrapper.py, download.py, upload.py, prediction.py, clean.py and
//! test_get.py beside it.
//!
//! Every row starts with the time as three decimal strings, [Year, Days (day of the year from
//! 0), Minutes (minute of the day)]. upload_row writes PartitionKey = the year and RowKey = the
//! listed key parts joined by `,` with no padding: for pollution Year,Days,Minutes,Latitude,
//! Longitude (the station's coordinates as integers in micro-degrees, `2017,62,0,52204644,125857`),
//! for weather and forecast Year,Days,Minutes. The same values are also stored as properties
//! (Year, Days, Minutes as strings, Latitude and Longitude as integers), with SearchTimestamp =
//! the time as `%Y-%m-%dT%H:%M:%SZ` text, through insert_or_replace_entity. Reads:
//! get_weather filters `SearchTimestamp ge '…' and SearchTimestamp le '…'`; the hourly predictor
//! finds a station's last reading with `SearchTimestamp eq '…' and Latitude eq <lat>`; the daily
//! predictor averages a day with `Year eq '<y>' and Days eq '<d>'` on pollution and forecast;
//! clean.py reads the whole pollution table and deletes each row whose PM10, PM25 and NOx are
//! all empty or `0`. No read names a PartitionKey.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "pollution",
    partition_key = "{year_key:unpadded}",
    row_key = "{year_key:unpadded},{days_key:unpadded},{minutes_key:unpadded},{latitude:unpadded},{longitude:unpadded}"
)]
#[table(rename_all = "PascalCase")]
struct PollutionReading {
    /// The year, as the key writes it (`str(t.year)`).
    #[table(key_only, max = 9999)]
    year_key: u16,
    /// Days since 1 January, 0 to 365, unpadded.
    #[table(key_only, max = 365)]
    days_key: u16,
    /// Minutes since midnight, 0 to 1439, unpadded.
    #[table(key_only, max = 1439)]
    minutes_key: u16,
    /// Station latitude in micro-degrees (`52204644`).
    latitude: i32,
    /// Station longitude in micro-degrees (`125857`).
    longitude: i32,
    /// The same three numbers, stored as text properties.
    #[table(max_len = 4)]
    year: String,
    #[table(max_len = 3)]
    days: String,
    #[table(max_len = 4)]
    minutes: String,
    /// `%Y-%m-%dT%H:%M:%SZ`.
    #[table(max_len = 20)]
    search_timestamp: String,
    /// Readings as downloaded, empty when the feed has none.
    #[table(rename = "NOx")]
    nox: String,
    #[table(rename = "PM10")]
    pm10: String,
    #[table(rename = "PM25")]
    pm25: String,
}

#[derive(TableEntity)]
#[table(
    name = "weather",
    partition_key = "{year_key:unpadded}",
    row_key = "{year_key:unpadded},{days_key:unpadded},{minutes_key:unpadded}"
)]
#[table(rename_all = "PascalCase")]
struct WeatherObservation {
    #[table(key_only, max = 9999)]
    year_key: u16,
    #[table(key_only, max = 365)]
    days_key: u16,
    #[table(key_only, max = 1439)]
    minutes_key: u16,
    #[table(max_len = 4)]
    year: String,
    #[table(max_len = 3)]
    days: String,
    #[table(max_len = 4)]
    minutes: String,
    #[table(max_len = 20)]
    search_timestamp: String,
    temperature: String,
    humidity: String,
    pressure: String,
    wind_speed: String,
    wind_dir: String,
    rain: String,
}

#[derive(TableEntity)]
#[table(
    name = "forecast",
    partition_key = "{year_key:unpadded}",
    row_key = "{year_key:unpadded},{days_key:unpadded},{minutes_key:unpadded}"
)]
#[table(rename_all = "PascalCase")]
struct ForecastPoint {
    #[table(key_only, max = 9999)]
    year_key: u16,
    #[table(key_only, max = 365)]
    days_key: u16,
    #[table(key_only, max = 1439)]
    minutes_key: u16,
    #[table(max_len = 4)]
    year: String,
    #[table(max_len = 3)]
    days: String,
    #[table(max_len = 4)]
    minutes: String,
    #[table(max_len = 20)]
    search_timestamp: String,
    temperature: String,
    humidity: String,
    wind_speed: String,
    /// A compass point (`NNE`).
    wind_dir: String,
}

/// upload_pollution / upload_row: insert_or_replace_entity.
async fn upload_pollution<B: Backend>(readings: &Table<'_, B, PollutionReading>, row: &PollutionReading) {
    let _ = readings.upsert(row).await;
}

/// upload_weather.
async fn upload_weather<B: Backend>(weather: &Table<'_, B, WeatherObservation>, row: &WeatherObservation) {
    let _ = weather.upsert(row).await;
}

/// upload_forecast.
async fn upload_forecast<B: Backend>(forecast: &Table<'_, B, ForecastPoint>, row: &ForecastPoint) {
    let _ = forecast.upsert(row).await;
}

/// AQR.get_weather: the observations between two instants, by the text property.
async fn weather_between<B: Backend>(weather: &Table<'_, B, WeatherObservation>, start: &str, end: &str) {
    let q = Query::filter(&format!(
        "SearchTimestamp ge '{}' and SearchTimestamp le '{}'",
        start, end
    ))
    .unwrap();
    let _ = weather.query_all(&q).await;
}

/// generate_hourly_prediction: a station's last uploaded reading, by its time text and latitude.
async fn last_reading<B: Backend>(readings: &Table<'_, B, PollutionReading>, at: &str, latitude: i32) {
    let q = Query::filter(&format!("SearchTimestamp eq '{}' and Latitude eq {}", at, latitude)).unwrap();
    let _ = readings.query_all(&q).await;
}

/// get_day_avgs_pollution (and test_get.py): one day of every station.
async fn pollution_of_day<B: Backend>(readings: &Table<'_, B, PollutionReading>, year: &str, days: &str) {
    let q = Query::filter(&format!("Year eq '{}' and Days eq '{}'", year, days)).unwrap();
    let _ = readings.query_all(&q).await;
}

/// get_day_avgs_weather: one day of the forecast.
async fn forecast_of_day<B: Backend>(forecast: &Table<'_, B, ForecastPoint>, year: &str, days: &str) {
    let q = Query::filter(&format!("Year eq '{}' and Days eq '{}'", year, days)).unwrap();
    let _ = forecast.query_all(&q).await;
}

/// clean.remove_empty_pollution / AQR.remove_rows: every row read, the empty ones deleted one
/// by one.
async fn remove_empty_pollution<B: Backend>(readings: &Table<'_, B, PollutionReading>) {
    let all = readings.query_all(&Query::all()).await.unwrap();
    let empty = |f: &str| f.is_empty() || f == "0";
    for row in all.iter().filter(|r| empty(&r.pm10) && empty(&r.pm25) && empty(&r.nox)) {
        let _ = readings.delete(&row.key(), IfMatch::Any).await;
    }
}

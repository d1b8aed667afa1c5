//! IoT sensor readings: one partition per device, newest reading first.
//!
//! Patterns (see the design guides): the *log tail* pattern, with RowKeys in inverted ticks so
//! the newest reading sorts first and "the latest n readings" is the first `n` rows of one
//! partition; the device id as PartitionKey spreads writes across partitions instead of the
//! *prepend/append anti-pattern* of a time-only PartitionKey. A time window is a RowKey range,
//! and the generated range query flips the bounds of the inverted ticks for you.
//!
//! Summaries read as a whole use two more patterns. The *data series* pattern keeps a device's
//! day in one entity of the `DeviceDays` table, one property per hour (`H00` to `H23`): each
//! reading updates its hour with a merge, and a chart of the day is one point read instead of 24.
//! The *wide entities* pattern keeps a device's year of daily means in `DeviceYears`: 365
//! properties are more than one entity's 252, so [`WideEntities`] splits them over two entities
//! of the device's partition, written together in one transaction and read back as one.
//!
//! [`run`] works on any backend. How many entities each query examined is something only the
//! in-process store reports: [`query_costs`] measures it there.

use pollster::block_on;
use table_runtime::query::keyed::KeyQuery;
use table_runtime::series::{DataSeries, WideEntities};
use table_runtime::{
    Backend, Entity, IfMatch, Query, QueryClass, Store, StoreError, Table, TableEntity, Value,
};
use time::{Duration, OffsetDateTime};

/// The table of daily series: one entity per device and day, one property per hour.
pub const DAYS_TABLE: &str = "DeviceDays";
/// The table of yearly summaries: one wide entity per device and year, one property per day.
pub const YEARS_TABLE: &str = "DeviceYears";

/// One reading of one sensor.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "SensorReadings",
    partition_key = "{device_id}",
    row_key = "{taken_at:inverted_ticks}"
)]
#[table(rename_all = "PascalCase")]
#[table(allow(
    TK017,
    reason = "a device sends at most one reading a second, and a resend of the same reading is meant to find its first copy"
))]
pub struct Reading {
    /// The device.
    #[table(max_len = 64)]
    pub device_id: String,
    /// When the reading was taken (UTC).
    pub taken_at: OffsetDateTime,
    /// Degrees Celsius.
    pub temperature: f64,
    /// Relative humidity, 0 to 1.
    pub humidity: f64,
}

/// What [`run`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Readings written.
    pub written: usize,
    /// Temperatures of the latest three readings of `dev-001`, newest first.
    pub latest: Vec<f64>,
    /// The class of the "latest readings" query.
    pub latest_class: QueryClass,
    /// Readings of `dev-002` in its second hour.
    pub window_count: usize,
    /// The class of the time-window query.
    pub window_class: QueryClass,
    /// Readings above 30 °C on any device.
    pub hot_count: usize,
    /// The class of the cross-device query.
    pub hot_class: QueryClass,
    /// The last temperature of each hour of the day for `dev-001`, from one point read.
    pub hourly: Vec<Option<f64>>,
    /// Entities the `DeviceDays` table holds (one per device and day).
    pub day_entities: usize,
    /// Physical entities (parts) of `dev-001`'s year.
    pub year_parts: usize,
    /// Properties of `dev-001`'s year as read back.
    pub year_days: usize,
    /// The daily mean of the example's day in `dev-001`'s year, after it was updated.
    pub day_mean: Option<f64>,
}

/// The RowKey of a device's day in [`DAYS_TABLE`]: `2026-11-01`, the runtime's day bucket (the
/// same text as a `{at:date}` placeholder writes).
pub fn day_key(at: OffsetDateTime) -> Result<String, StoreError> {
    use table_runtime::key::encode::Bucket;
    use table_runtime::key::segment::{TimeFormat, TimeSegment};
    let mut key = String::with_capacity(TimeFormat::Bucket(Bucket::DATE).width());
    at.push_time(&mut key, TimeFormat::Bucket(Bucket::DATE))?;
    Ok(key)
}

/// The property of a day in a year entity: `D001` to `D366`, by day of the year.
pub fn day_property(at: OffsetDateTime) -> String {
    format!("D{:03}", at.ordinal())
}

/// A year of made-up daily means for a device, as one logical entity of 365 properties.
pub fn year_of_means(device: &str, year: i32) -> Entity {
    let mut entity = Entity::new(device, year.to_string());
    for day in 1..=365u16 {
        let season = (f64::from(day) / 365.0 * std::f64::consts::TAU).cos();
        entity = entity.with(format!("D{day:03}"), 12.0 - 8.0 * season);
    }
    entity
}

/// The first instant of the example's day.
pub fn day_start() -> OffsetDateTime {
    time::macros::datetime!(2026-11-01 00:00 UTC)
}

/// The query for the latest three readings of `dev-001`: the first rows of its partition.
pub fn latest_query() -> Result<KeyQuery, StoreError> {
    Ok(Reading::latest("dev-001", 3)?)
}

/// The query for the readings of `dev-002` between 01:00 and 02:00: a RowKey range.
pub fn window_query() -> Result<KeyQuery, StoreError> {
    Ok(Reading::range_by_taken_at(
        "dev-002",
        day_start() + Duration::hours(1)..day_start() + Duration::hours(2),
    )?)
}

/// The query for readings above 30 °C on any device. Without a PartitionKey the service must
/// read every device: a table scan, shown on purpose.
pub fn hot_query() -> Result<Query, StoreError> {
    // table-lint: allow(TK101, reason = "the example measures what a table scan costs")
    Query::filter("Temperature gt 30.0")
}

/// Writes a day of readings (one every ten minutes) for three devices and runs the design's
/// queries.
pub fn run<B: Backend>(backend: &B) -> Result<Report, StoreError> {
    block_on(run_async(backend))
}

async fn run_async<B: Backend>(backend: &B) -> Result<Report, StoreError> {
    let readings = Table::<_, Reading>::new(backend);
    readings.create().await?;
    backend.create_table(DAYS_TABLE).await?;
    backend.create_table(YEARS_TABLE).await?;
    let hours = DataSeries::hourly();
    let mut written = 0;
    for device in ["dev-001", "dev-002", "dev-003"] {
        for m in 0..144 {
            let reading = Reading {
                device_id: device.to_owned(),
                taken_at: day_start() + Duration::minutes(10 * m),
                temperature: 18.0 + (m % 90) as f64 / 6.0,
                humidity: 0.4 + (m % 7) as f64 / 100.0,
            };
            readings.insert(&reading).await?;
            // The day's series: a merge of this hour's property, the other hours untouched.
            hours
                .set(
                    backend,
                    DAYS_TABLE,
                    device,
                    &day_key(reading.taken_at)?,
                    usize::from(reading.taken_at.hour()),
                    reading.temperature,
                )
                .await?;
            written += 1;
        }
    }

    let latest_q = latest_query()?;
    let latest = readings
        .query_all(&latest_q)
        .await?
        .into_iter()
        .map(|r| r.temperature)
        .collect();
    let window_q = window_query()?;
    let window_count = readings.query_all(&window_q).await?.len();
    let hot_q = hot_query()?;
    let hot_count = crate::query_entities(backend, Reading::TABLE, &hot_q)
        .await?
        .len();

    // The whole day of dev-001 in one point read.
    let day = hours
        .read(backend, DAYS_TABLE, "dev-001", &day_key(day_start())?)
        .await?;
    let hourly = day.map(|d| d.as_f64()).unwrap_or_default();
    let day_entities = crate::query_entities(
        backend,
        DAYS_TABLE,
        &Query::filter("PartitionKey eq 'dev-001'")?,
    )
    .await?
    .len();

    // A year of daily means: 365 properties, two entities written in one transaction.
    let wide = WideEntities::new();
    let year = year_of_means("dev-001", day_start().year());
    let year_parts = wide.upsert(backend, YEARS_TABLE, &year).await?.parts;
    // Today's mean replaces its made-up value: read the year, change one day, and write it
    // back only if nobody changed it in between.
    let mut stored = wide
        .read(backend, YEARS_TABLE, "dev-001", &year.row_key)
        .await?;
    let mean = day_mean(backend, "dev-001").await?;
    let etag = stored.etag.clone().map_or(IfMatch::Any, IfMatch::ETag);
    stored
        .properties
        .insert(day_property(day_start()), Value::Double(mean));
    wide.replace(backend, YEARS_TABLE, &stored, etag).await?;
    let year_back = wide
        .read(backend, YEARS_TABLE, "dev-001", &year.row_key)
        .await?;
    let day_mean = match year_back.get(&day_property(day_start())) {
        Some(Value::Double(d)) => Some(*d),
        _ => None,
    };

    Ok(Report {
        written,
        latest,
        latest_class: latest_q.class(),
        window_count,
        window_class: window_q.class(),
        hot_count,
        hot_class: hot_q.plan().class,
        hourly,
        day_entities,
        year_parts,
        year_days: year_back.properties.len(),
        day_mean,
    })
}

/// The mean temperature of a device's day, from its readings (one partition, a RowKey range).
pub async fn day_mean<B: Backend>(backend: &B, device: &str) -> Result<f64, StoreError> {
    let day = Reading::range_by_taken_at(device, day_start()..day_start() + Duration::days(1))?;
    let readings = Table::<_, Reading>::new(backend).query_all(&day).await?;
    let sum: f64 = readings.iter().map(|r| r.temperature).sum();
    Ok(sum / readings.len().max(1) as f64)
}

/// What the in-process store did to answer one query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryCost {
    /// The class the store's planner gave the query.
    pub class: QueryClass,
    /// Entities the store examined.
    pub examined: usize,
    /// Entities it returned.
    pub returned: usize,
}

/// What [`query_costs`] measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryCosts {
    /// The "latest readings" query ([`latest_query`]).
    pub latest: QueryCost,
    /// The time-window query ([`window_query`]).
    pub window: QueryCost,
    /// The cross-device query ([`hot_query`]).
    pub hot: QueryCost,
}

/// Store only: runs the design's three queries on an in-process store that [`run`] filled,
/// and reports how many entities the store examined for each (statistics the service does
/// not give).
pub fn query_costs(store: &Store) -> Result<QueryCosts, StoreError> {
    // A page's statistics cover that page; the cost of a query is the sum over its pages.
    let cost = |query: Query| -> Result<QueryCost, StoreError> {
        let mut total = QueryCost {
            class: query.plan().class,
            examined: 0,
            returned: 0,
        };
        let mut query = query;
        loop {
            let page = store.query(Reading::TABLE, &query)?;
            total.class = page.stats.class;
            total.examined += page.stats.examined;
            total.returned += page.entities.len();
            match page.continuation {
                // `$top` asks for one page only.
                Some(next) if query.top.is_none() => query.continuation = Some(next),
                _ => return Ok(total),
            }
        }
    };
    Ok(QueryCosts {
        latest: cost(latest_query()?.to_query()?)?,
        window: cost(window_query()?.to_query()?)?,
        hot: cost(hot_query()?)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_design_answers_with_cheap_queries() {
        let report = run(&Store::new()).unwrap();
        assert_eq!(report.written, 3 * 144);
        // Newest first: the last reading of the day (m = 143: 18 + 53/6) leads.
        assert_eq!(report.latest.len(), 3);
        assert!((report.latest[0] - (18.0 + 53.0 / 6.0)).abs() < 1e-9);
        assert_eq!(report.latest_class, QueryClass::PartitionScan);
        // 01:00 inclusive to 02:00 exclusive: readings at 60, 70, ..., 110 minutes.
        assert_eq!(report.window_count, 6);
        assert_eq!(report.window_class, QueryClass::RangeQuery);
        assert_eq!(report.hot_class, QueryClass::TableScan);
        assert!(report.hot_count > 0);
    }

    #[test]
    fn the_store_examines_only_what_each_query_needs() {
        let store = Store::new();
        let report = run(&store).unwrap();
        let costs = query_costs(&store).unwrap();
        let cost = |class, examined, returned| QueryCost {
            class,
            examined,
            returned,
        };
        assert_eq!(costs.latest, cost(QueryClass::PartitionScan, 3, 3));
        assert_eq!(costs.window, cost(QueryClass::RangeQuery, 6, 6));
        // The table scan reads every reading of every device to find the hot ones.
        assert_eq!(
            costs.hot,
            cost(QueryClass::TableScan, 3 * 144, report.hot_count)
        );
    }

    #[test]
    fn a_day_is_one_entity_with_a_property_per_hour() {
        let report = run(&Store::new()).unwrap();
        assert_eq!(report.hourly.len(), 24);
        // The last reading of each hour (m = 6h + 5) is the one its slot keeps.
        for (h, value) in report.hourly.iter().enumerate() {
            let m = (6 * h + 5) as f64;
            let expected = 18.0 + (m % 90.0) / 6.0;
            assert_eq!(*value, Some(expected), "hour {h}");
        }
        // 144 merges, one entity.
        assert_eq!(report.day_entities, 1);
    }

    #[test]
    fn keys_agree_with_dotnet_inverted_ticks() {
        let r = Reading {
            device_id: "d".into(),
            taken_at: day_start(),
            temperature: 0.0,
            humidity: 0.0,
        };
        // DateTime.MaxValue.Ticks - new DateTime(2026, 11, 1).Ticks, that date being day 739,920
        let ticks = 3_155_378_975_999_999_999i64 - (739_920i64 * 864_000_000_000);
        assert_eq!(r.row_key().unwrap(), format!("{ticks:019}"));
        let key = ReadingKey::parse("d", &r.row_key().unwrap()).unwrap();
        assert_eq!(key.taken_at, day_start());
    }
}

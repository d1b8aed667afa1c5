//! IoT sensor readings: one partition per device, newest reading first.
//!
//! Patterns (see the design guides): the *log tail* pattern, with RowKeys in inverted ticks so
//! the newest reading sorts first and "the latest n readings" is the first `n` rows of one
//! partition; the device id as PartitionKey spreads writes across partitions instead of the
//! *prepend/append anti-pattern* of a time-only PartitionKey. A time window is a RowKey range,
//! and the generated range query flips the bounds of the inverted ticks for you.

use table_runtime::{QueryClass, Store, StoreError, TableEntity};
use time::{Duration, OffsetDateTime};

/// One reading of one sensor.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "SensorReadings",
    partition_key = "{device_id}",
    row_key = "{taken_at:inverted_ticks}"
)]
#[table(rename_all = "PascalCase")]
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
    /// The class and number of entities examined by the "latest readings" query.
    pub latest_plan: (QueryClass, usize),
    /// Readings of `dev-002` in its second hour.
    pub window_count: usize,
    /// The class and number of entities examined by the time-window query.
    pub window_plan: (QueryClass, usize),
    /// Readings above 30 °C on any device.
    pub hot_count: usize,
    /// The class and number of entities examined by the cross-device query.
    pub hot_plan: (QueryClass, usize),
}

/// The first instant of the example's day.
pub fn day_start() -> OffsetDateTime {
    time::macros::datetime!(2026-11-01 00:00 UTC)
}

/// Writes a day of readings (one every ten minutes) for three devices and runs the design's
/// queries.
pub fn run(store: &Store) -> Result<Report, StoreError> {
    store.create_table(Reading::TABLE)?;
    let mut written = 0;
    for device in ["dev-001", "dev-002", "dev-003"] {
        for m in 0..144 {
            let reading = Reading {
                device_id: device.to_owned(),
                taken_at: day_start() + Duration::minutes(10 * m),
                temperature: 18.0 + (m % 90) as f64 / 6.0,
                humidity: 0.4 + (m % 7) as f64 / 100.0,
            };
            store.insert(Reading::TABLE, &reading.to_entity()?)?;
            written += 1;
        }
    }

    let latest = store.query(Reading::TABLE, &Reading::latest("dev-001", 3)?.to_query()?)?;
    let latest_temps = latest
        .entities
        .iter()
        .map(|e| Reading::from_entity(e).map(|r| r.temperature))
        .collect::<Result<Vec<_>, _>>()?;

    let window = Reading::range_by_taken_at(
        "dev-002",
        day_start() + Duration::hours(1)..day_start() + Duration::hours(2),
    )?;
    let window_page = store.query(Reading::TABLE, &window.to_query()?)?;

    // Without a PartitionKey the store must read every device: a table scan, shown on purpose.
    // table-lint: allow(TK101, reason = "the example measures what a table scan costs")
    let hot_query = table_runtime::Query::filter("Temperature gt 30.0")?;
    let hot = store.query(Reading::TABLE, &hot_query)?;

    Ok(Report {
        written,
        latest: latest_temps,
        latest_plan: (latest.stats.class, latest.stats.examined),
        window_count: window_page.entities.len(),
        window_plan: (window_page.stats.class, window_page.stats.examined),
        hot_count: hot.entities.len(),
        hot_plan: (hot.stats.class, hot.stats.examined),
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
        assert_eq!(report.latest_plan, (QueryClass::PartitionScan, 3));
        // 01:00 inclusive to 02:00 exclusive: readings at 60, 70, ..., 110 minutes.
        assert_eq!(report.window_count, 6);
        assert_eq!(report.window_plan, (QueryClass::RangeQuery, 6));
        assert_eq!(report.hot_plan, (QueryClass::TableScan, 3 * 144));
        assert!(report.hot_count > 0);
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

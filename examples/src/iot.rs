//! IoT sensor readings: one partition per device, newest reading first.
//!
//! Design (the guides' "log tail" pattern): PartitionKey is the device id, which spreads writes
//! across partitions; RowKey is the reading's time as inverted ticks (`DateTime::MAX` ticks minus
//! the reading's ticks, zero-padded to 19 digits), so the newest reading sorts first and "the
//! latest n readings" is the first page of a partition, while a time window is a RowKey range.

use table_runtime::{DateTime, Entity, Query, QueryClass, Store, StoreError};

/// The table's name.
pub const TABLE: &str = "SensorReadings";

/// The RowKey of a reading taken at `at`: inverted ticks, 19 digits, newest first.
pub fn reading_row_key(at: DateTime) -> String {
    format!("{:019}", DateTime::MAX.ticks() - at.ticks())
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

/// Writes a day of readings for three devices and runs the design's queries.
pub fn run(store: &Store) -> Result<Report, StoreError> {
    store.create_table(TABLE)?;
    let start = DateTime::parse("2026-11-01T00:00:00Z")?;
    let minute = 600_000_000; // ticks
    let mut written = 0;
    for device in ["dev-001", "dev-002", "dev-003"] {
        for m in 0..(24 * 60 / 10) {
            let at = DateTime::from_ticks(start.ticks() + i64::from(m) * 10 * minute)?;
            let temperature = 18.0 + f64::from(m % 90) / 6.0;
            let reading = Entity::new(device, reading_row_key(at))
                .with("TakenAt", at)
                .with("Temperature", temperature)
                .with("Humidity", 0.4 + f64::from(m % 7) / 100.0);
            store.insert(TABLE, &reading)?;
            written += 1;
        }
    }

    // Latest three readings: the first three rows of the partition.
    let latest = store.query(TABLE, &Query::filter("PartitionKey eq 'dev-001'")?.top(3))?;
    let latest_temps = latest
        .entities
        .iter()
        .filter_map(|e| match e.get("Temperature") {
            Some(table_runtime::Value::Double(t)) => Some(*t),
            _ => None,
        })
        .collect();

    // A time window is a RowKey range; inverted ticks swap the bounds.
    let from = DateTime::from_ticks(start.ticks() + 60 * minute)?;
    let to = DateTime::from_ticks(start.ticks() + 120 * minute)?;
    let window = Query::filter(&format!(
        "PartitionKey eq 'dev-002' and RowKey gt '{}' and RowKey le '{}'",
        reading_row_key(to),
        reading_row_key(from)
    ))?;
    let window_page = store.query(TABLE, &window)?;

    // Without a PartitionKey the same store must read every device: a table scan.
    let hot = store.query(TABLE, &Query::filter("Temperature gt 30.0")?)?;

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
        // Second hour: readings at 60, 70, ..., 110 minutes → 6 readings (from inclusive).
        assert_eq!(report.window_count, 6);
        assert_eq!(report.window_plan, (QueryClass::RangeQuery, 6));
        assert_eq!(report.hot_plan, (QueryClass::TableScan, 3 * 144));
        assert!(report.hot_count > 0);
    }

    #[test]
    fn inverted_ticks_sort_newest_first() {
        let early = DateTime::parse("2020-01-01T00:00:00Z").unwrap();
        let late = DateTime::parse("2030-01-01T00:00:00Z").unwrap();
        assert!(reading_row_key(late) < reading_row_key(early));
        assert_eq!(reading_row_key(early).len(), 19);
    }
}

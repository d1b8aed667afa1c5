//! Calendar days (`time::Date`) in keys: a diary keyed by the user and the day, the day written
//! as `yyyy-MM-dd` (`{day}` or `{day:date}`) or compact (`{day:yyyyMMdd}`), kept whole by the
//! key, so it may be `key_only`; stored as a property, a day is its midnight UTC.

use table_runtime::time::macros::date;
use table_runtime::time::{Date, Month};
use table_runtime::{IfMatch, Store, Table, TableEntity, Value};

/// One row per user and day, the day only in the RowKey.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "DailyLogs", partition_key = "{user_id}", row_key = "{day}")]
struct DailyLog {
    #[table(key_only)]
    user_id: String,
    #[table(key_only)]
    day: Date,
    kept: bool,
}

/// The compact day .NET writes with `ToString("yyyyMMdd")`, a month bucket of another day in
/// the PartitionKey, and a day stored as a property too.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Shifts",
    partition_key = "{site}_{rota_month:yyyyMM}",
    row_key = "{day:yyyyMMdd}_{worker}"
)]
struct Shift {
    site: String,
    rota_month: Date,
    day: Date,
    worker: String,
    paid_on: Option<Date>,
}

#[test]
fn a_day_is_written_as_its_date_and_read_back_whole() {
    let log = DailyLog {
        user_id: "u-17".into(),
        day: date!(2024 - 02 - 29),
        kept: true,
    };
    assert_eq!(log.row_key().unwrap(), "2024-02-29");
    let entity = log.to_entity().unwrap();
    // The day is kept only in the key, and read back from it.
    assert!(!entity.properties.contains_key("day"));
    assert_eq!(DailyLog::from_entity(&entity).unwrap(), log);
    let key = DailyLogKey::parse("u-17", "2024-02-29").unwrap();
    assert_eq!(key.day, date!(2024 - 02 - 29));
    assert!(DailyLogKey::parse("u-17", "2024-02-30").is_err());
}

#[test]
fn compact_days_and_month_buckets_of_days() {
    let shift = Shift {
        site: "north".into(),
        rota_month: date!(2024 - 05 - 13),
        day: date!(2024 - 05 - 01),
        worker: "ann".into(),
        paid_on: Some(date!(2024 - 06 - 28)),
    };
    assert_eq!(shift.partition_key().unwrap(), "north_202405");
    assert_eq!(shift.row_key().unwrap(), "20240501_ann");
    let key = ShiftKey::parse("north_202405", "20240501_ann").unwrap();
    // A month bucket reads back as the month's first day.
    assert_eq!(key.rota_month, date!(2024 - 05 - 01));
    assert_eq!(key.day, date!(2024 - 05 - 01));
    let entity = shift.to_entity().unwrap();
    assert_eq!(
        entity.properties.get("paid_on"),
        Some(&Value::DateTime(
            table_runtime::DateTime::parse("2024-06-28T00:00:00Z").unwrap()
        ))
    );
    assert_eq!(Shift::from_entity(&entity).unwrap(), shift);
}

#[test]
fn a_stored_day_with_a_time_of_day_is_an_error_not_a_dropped_time() {
    let mut entity = Shift {
        site: "north".into(),
        rota_month: date!(2024 - 05 - 01),
        day: date!(2024 - 05 - 01),
        worker: "ann".into(),
        paid_on: None,
    }
    .to_entity()
    .unwrap();
    entity.properties.insert(
        "paid_on".into(),
        Value::DateTime(table_runtime::DateTime::parse("2024-06-28T10:00:00Z").unwrap()),
    );
    let err = Shift::from_entity(&entity).unwrap_err().to_string();
    assert!(err.contains("paid_on") && err.contains("midnight"), "{err}");
}

#[test]
fn a_month_of_days_is_a_row_key_range() {
    let store = Store::new();
    store.create_table("DailyLogs").unwrap();
    let logs = Table::<_, DailyLog>::new(&store);
    for d in 1..=31 {
        let log = DailyLog {
            user_id: "u-17".into(),
            day: Date::from_calendar_date(2024, Month::May, d).unwrap(),
            kept: d % 2 == 0,
        };
        pollster::block_on(logs.insert(&log)).unwrap();
    }
    let week =
        DailyLog::range_by_day("u-17", date!(2024 - 05 - 06)..date!(2024 - 05 - 13)).unwrap();
    let found = pollster::block_on(logs.query_all(&week)).unwrap();
    let days: Vec<u8> = found.iter().map(|l| l.day.day()).collect();
    assert_eq!(days, [6, 7, 8, 9, 10, 11, 12]);
    let key = DailyLogKey {
        user_id: "u-17".into(),
        day: date!(2024 - 05 - 09),
    };
    assert!(pollster::block_on(logs.get(&key)).unwrap().is_some());
    pollster::block_on(logs.delete(&key, IfMatch::Any)).unwrap();
    assert!(pollster::block_on(logs.get(&key)).unwrap().is_none());
}

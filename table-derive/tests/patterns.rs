//! Custom date-time patterns in keys: the text .NET's `ToString("yyyyMMddHHmmss")` and Python's
//! `strftime("%Y-%m-%d %H:%M:%S")` write, read back as the first instant of the finest unit.

use table_runtime::time::macros::{date, datetime};
use table_runtime::time::{Date, OffsetDateTime};
use table_runtime::{Store, Table, TableEntity};

/// A sensor log as a Python script writes it: the second, then a sequence number.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Readings",
    partition_key = "{house}",
    row_key = "{at:%Y-%m-%d %H:%M:%S}_{seq:03}"
)]
struct Reading {
    house: String,
    #[table(key_only)]
    at: OffsetDateTime,
    #[table(key_only)]
    seq: u16,
    celsius: f64,
}

/// .NET's compact forms, one with milliseconds, and a day kept in a pattern of its own.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Jobs",
    partition_key = "{queue}_{due:yyyyMMddHHmm}",
    row_key = "{created:yyyyMMddHHmmssfff}-{day:dd.MM.yyyy}"
)]
struct Job {
    queue: String,
    due: OffsetDateTime,
    created: OffsetDateTime,
    day: Date,
}

#[test]
fn patterns_write_what_the_originals_write() {
    let r = Reading {
        house: "h1".into(),
        at: datetime!(2024-05-01 07:08:09.75 UTC),
        seq: 4,
        celsius: 21.5,
    };
    assert_eq!(r.row_key().unwrap(), "2024-05-01 07:08:09_004");
    // Kept only in the key, the time reads back at its grain: the second.
    let back = Reading::from_entity(&r.to_entity().unwrap()).unwrap();
    assert_eq!(back.at, datetime!(2024-05-01 07:08:09 UTC));

    let job = Job {
        queue: "mail".into(),
        due: datetime!(2024-12-31 23:59:30 UTC),
        created: datetime!(2024-02-29 10:20:30.1234567 UTC),
        day: date!(2024 - 02 - 29),
    };
    assert_eq!(job.partition_key().unwrap(), "mail_202412312359");
    assert_eq!(job.row_key().unwrap(), "20240229102030123-29.02.2024");
    let key = JobKey::parse("mail_202412312359", "20240229102030123-29.02.2024").unwrap();
    assert_eq!(key.due, datetime!(2024-12-31 23:59 UTC));
    assert_eq!(key.created, datetime!(2024-02-29 10:20:30.123 UTC));
    assert_eq!(key.day, date!(2024 - 02 - 29));
    // Text of another shape, or a time that does not exist, is an error.
    for (pk, rk) in [
        ("mail_202412312360", "20240229102030123-29.02.2024"),
        ("mail_202402301200", "20240229102030123-29.02.2024"),
        ("mail_202412312359", "20240229102030123-29-02-2024"),
        ("mail_2024123123", "20240229102030123-29.02.2024"),
    ] {
        assert!(JobKey::parse(pk, rk).is_err(), "{pk} / {rk}");
    }
}

#[test]
fn a_range_over_a_sortable_pattern_reads_a_time_window() {
    let store = Store::new();
    store.create_table("Readings").unwrap();
    let readings = Table::<_, Reading>::new(&store);
    for minute in 0..10u8 {
        let r = Reading {
            house: "h1".into(),
            at: datetime!(2024-05-01 07:00 UTC)
                + table_runtime::time::Duration::minutes(minute.into()),
            seq: 0,
            celsius: f64::from(minute),
        };
        pollster::block_on(readings.insert(&r)).unwrap();
    }
    let window = Reading::range_by_at(
        "h1",
        datetime!(2024-05-01 07:03 UTC)..datetime!(2024-05-01 07:06 UTC),
    )
    .unwrap();
    let found = pollster::block_on(readings.query_all(&window)).unwrap();
    let celsius: Vec<f64> = found.iter().map(|r| r.celsius).collect();
    assert_eq!(celsius, [3.0, 4.0, 5.0]);
}

/// A chat message keyed as .NET's `DateTime.UtcNow.Ticks.ToString()` writes it.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Messages",
    partition_key = "{pair}",
    row_key = "{sent:unpadded_ticks}"
)]
struct Message {
    pair: String,
    #[table(key_only)]
    sent: OffsetDateTime,
    text: String,
}

#[test]
fn unpadded_ticks_are_the_plain_tick_count() {
    let m = Message {
        pair: "ann|bob".into(),
        sent: datetime!(2024-05-01 10:20:30.1234567 UTC),
        text: "hi".into(),
    };
    assert_eq!(m.row_key().unwrap(), "638501556301234567");
    assert_eq!(Message::from_entity(&m.to_entity().unwrap()).unwrap(), m);
    assert!(MessageKey::parse("ann|bob", "0638501556301234567").is_err());
    assert!(MessageKey::parse("ann|bob", "638501556301234567x").is_err());
}

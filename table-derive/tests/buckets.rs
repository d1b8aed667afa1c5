//! Time buckets in keys: `{at:month}`, `{at:date}`, `{at:hour}` and the compact forms .NET code
//! writes with `ToString("yyyyMM")`, `ToString("yyyyMMdd")` and `ToString("yyyyMMddHH")`.

use table_runtime::period::{Granularity, PeriodTables};
use table_runtime::time::OffsetDateTime;
use table_runtime::time::macros::datetime;
use table_runtime::{EntityKey, TableEntity};

/// NLog's table target by day, as many .NET loggers key it: the UTC day, compact, then the
/// instant newest first and a sequence number.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Logs",
    partition_key = "{logged_at:yyyyMMdd}",
    row_key = "{logged_at:inverted_ticks}_{seq:03}"
)]
struct LogLine {
    logged_at: OffsetDateTime,
    seq: u16,
    message: String,
}

/// A meter's readings by month and hour, both compact, beside the same buckets with ISO 8601's
/// separators.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Meters",
    partition_key = "{meter}_{month:yyyyMM}",
    row_key = "{hour:yyyyMMddHH}-{hour_iso:hour}-{month_iso:month}"
)]
struct HourlyUse {
    meter: String,
    month: OffsetDateTime,
    hour: OffsetDateTime,
    hour_iso: OffsetDateTime,
    month_iso: OffsetDateTime,
    kwh: f64,
}

#[test]
fn compact_buckets_write_what_dotnet_writes_and_read_back_as_the_period_start() {
    let at = datetime!(2024-02-29 23:59:58.5 UTC);
    let line = LogLine {
        logged_at: at,
        seq: 7,
        message: "disk full".into(),
    };
    assert_eq!(line.partition_key().unwrap(), "20240229");
    assert_eq!(
        LogLine::from_entity(&line.to_entity().unwrap()).unwrap(),
        line
    );

    let usage = HourlyUse {
        meter: "m-1".into(),
        month: at,
        hour: at,
        hour_iso: at,
        month_iso: at,
        kwh: 1.5,
    };
    let (pk, rk) = (usage.partition_key().unwrap(), usage.row_key().unwrap());
    assert_eq!(pk, "m-1_202402");
    assert_eq!(rk, "2024022923-2024-02-29T23-2024-02");
    let key = HourlyUseKey::parse(&pk, &rk).unwrap();
    assert_eq!(
        (key.partition_key().unwrap(), key.row_key().unwrap()),
        (pk, rk)
    );
    assert_eq!(key.month, datetime!(2024-02-01 00:00 UTC));
    assert_eq!(key.hour, datetime!(2024-02-29 23:00 UTC));
    assert_eq!(key.month_iso, datetime!(2024-02-01 00:00 UTC));
}

#[test]
fn a_compact_day_is_the_name_a_daily_period_table_takes() {
    let at = datetime!(2026-11-23 17:30 UTC);
    let line = LogLine {
        logged_at: at,
        seq: 0,
        message: String::new(),
    };
    let daily = PeriodTables::new("Logs", Granularity::Day).unwrap();
    assert_eq!(
        daily.table_for(at).unwrap(),
        format!("Logs{}", line.partition_key().unwrap())
    );
}

#[test]
fn keys_that_are_no_bucket_are_refused() {
    let rk = "2516878975999999999_000";
    for pk in [
        "2024-02-29",
        "20230229",
        "2024022",
        "202402290",
        "16001231",
        "2024O229",
    ] {
        let err = LogLineKey::parse(pk, rk).unwrap_err().to_string();
        assert!(err.contains("PartitionKey"), "{pk:?}: {err}");
    }
    for rk in [
        "2024022924-2024-02-29T23-2024-02",
        "2024022923-2024-02-29T23-2024-13",
        "2024022923-2024-02-29-2024-02",
    ] {
        assert!(HourlyUseKey::parse("m-1_202402", rk).is_err(), "{rk:?}");
    }
    assert!(HourlyUseKey::parse("m-1_2024-02", "2024022923-2024-02-29T23-2024-02").is_err());
}

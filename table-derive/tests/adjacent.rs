//! Placeholders side by side: a segment of fixed width (a padded integer, ticks, a time bucket,
//! a GUID) ends where its width does, so the next one may follow it with no separator, as
//! .NET code writes `$"{ticks:D19}{random:D3}"` or a payment notice number of three digit
//! groups.

use table_runtime::TableEntity;
use table_runtime::time::OffsetDateTime;
use table_runtime::time::macros::datetime;
use table_runtime::uuid::Uuid;

/// NLog's RowKey: inverted ticks, then three random digits.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Logs",
    partition_key = "{logged_at:yyyyMM}",
    row_key = "{logged_at:inverted_ticks}{random:03}"
)]
struct LogLine {
    logged_at: OffsetDateTime,
    #[table(max = 999)]
    random: u16,
    message: String,
}

/// A notice number of three groups of digits, then a GUID and free text at the end.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Notices",
    partition_key = "{org}",
    row_key = "{segregation:02}{at_ms:013}{check:02}{id}{note}"
)]
struct Notice {
    org: String,
    #[table(max = 99)]
    segregation: u8,
    #[table(max = 9_999_999_999_999)]
    at_ms: u64,
    #[table(max = 99)]
    check: u8,
    id: Uuid,
    note: String,
}

#[test]
fn adjacent_fixed_width_segments_write_and_read_back() {
    let line = LogLine {
        logged_at: datetime!(2024-05-01 10:00 UTC),
        random: 7,
        message: "m".into(),
    };
    let rk = line.row_key().unwrap();
    assert_eq!(rk.len(), 19 + 3);
    assert!(rk.ends_with("007"));
    let key = LogLineKey::parse(&line.partition_key().unwrap(), &rk).unwrap();
    assert_eq!(key, line.key());

    let notice = Notice {
        org: "77777777777".into(),
        segregation: 1,
        at_ms: 1_714_557_600_000,
        check: 42,
        id: Uuid::from_u128(0xa1),
        note: "x-y".into(),
    };
    let rk = notice.row_key().unwrap();
    assert_eq!(
        rk,
        "0117145576000004200000000-0000-0000-0000-0000000000a1x-y"
    );
    let key = NoticeKey::parse("77777777777", &rk).unwrap();
    assert_eq!(key, notice.key());
    assert_eq!(
        Notice::from_entity(&notice.to_entity().unwrap()).unwrap(),
        notice
    );
    // Too short for its widths, or a group out of its bound: refused, never split elsewhere.
    for bad in [
        "0117145576000004",
        "01171455760000042",
        "011714557600000420000",
    ] {
        assert!(NoticeKey::parse("o", bad).is_err(), "{bad:?}");
    }
    assert!(LogLineKey::parse("202405", "25168789759999999991000").is_err());
}

/// Past a type's own width, a padded segment only adds leading zeros: the 30-digit versions of
/// an event store configured with `D30`.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Events",
    partition_key = "{stream}",
    row_key = "e_{version:030}"
)]
struct Event {
    stream: String,
    #[table(as_string)]
    version: u64,
}

#[test]
fn widths_past_the_type_pad_with_zeros() {
    let e = Event {
        stream: "s".into(),
        version: u64::MAX,
    };
    let rk = e.row_key().unwrap();
    assert_eq!(rk, format!("e_{:030}", u64::MAX));
    assert_eq!(EventKey::parse("s", &rk).unwrap(), e.key());
    assert_eq!(Event::from_entity(&e.to_entity().unwrap()).unwrap(), e);
    assert!(EventKey::parse("s", &format!("e_{:030}", 1u128 << 64)).is_err());
    assert!(EventKey::parse("s", "e_42").is_err());
}

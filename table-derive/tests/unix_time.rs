//! Unix time in keys: `{at:unix_ms}` and `{at:unix}` write the counts JavaScript's `Date.now()`,
//! Java's `System.currentTimeMillis()` and Python's `int(time.time())` give, zero-padded to a
//! fixed width; the inverted forms count down from all nines, newest first.

use table_runtime::time::OffsetDateTime;
use table_runtime::time::macros::datetime;
use table_runtime::uuid::Uuid;
use table_runtime::{Store, Table, TableEntity};

/// A link shortener's clicks as a Node service keys them: the link, then
/// `9999999999999 - Date.now()` and the click's id as 32 hex digits. The time lives only in
/// the key.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Clicks",
    partition_key = "{link}",
    row_key = "{clicked_at:inverted_unix_ms}_{click_id:simple}"
)]
struct Click {
    link: String,
    #[table(key_only)]
    clicked_at: OffsetDateTime,
    click_id: Uuid,
    referrer: String,
}

/// A job's heartbeats by second, oldest first, with the hour the second falls in as the
/// PartitionKey: the RowKey keeps more of the time, so reads take it from there.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Beats",
    partition_key = "{job}_{at:yyyyMMddHH}",
    row_key = "{at:unix}"
)]
struct Beat {
    job: String,
    #[table(key_only)]
    at: OffsetDateTime,
    ok: bool,
}

fn click(at: OffsetDateTime, id: u128) -> Click {
    Click {
        link: "abc".into(),
        clicked_at: at,
        click_id: Uuid::from_u128(id),
        referrer: "news".into(),
    }
}

#[test]
fn keys_are_the_counts_other_languages_write() {
    // 2024-05-01T10:20:30.123Z is 1714558830123 ms since 1970.
    let c = click(datetime!(2024-05-01 10:20:30.1234567 UTC), 7);
    assert_eq!(
        c.row_key().unwrap(),
        format!("{}_{:032x}", 9_999_999_999_999i64 - 1_714_558_830_123, 7)
    );
    let beat = Beat {
        job: "nightly".into(),
        at: datetime!(2024-05-01 10:20:30.9 UTC),
        ok: true,
    };
    assert_eq!(beat.partition_key().unwrap(), "nightly_2024050110");
    assert_eq!(beat.row_key().unwrap(), "1714558830");
}

#[test]
fn key_only_times_read_back_at_the_unit_the_key_keeps() {
    let c = click(datetime!(2024-05-01 10:20:30.1234567 UTC), 7);
    let entity = c.to_entity().unwrap();
    assert!(entity.get("clicked_at").is_none());
    let back = Click::from_entity(&entity).unwrap();
    assert_eq!(back.clicked_at, datetime!(2024-05-01 10:20:30.123 UTC));
    assert_eq!(back.referrer, "news");

    // The hour bucket in the PartitionKey keeps less than the RowKey's second: the read takes
    // the second.
    let beat = Beat {
        job: "nightly".into(),
        at: datetime!(2024-05-01 10:20:30.9 UTC),
        ok: true,
    };
    let back = Beat::from_entity(&beat.to_entity().unwrap()).unwrap();
    assert_eq!(back.at, datetime!(2024-05-01 10:20:30 UTC));
    let key = BeatKey::parse("nightly_2024050110", "1714558830").unwrap();
    assert_eq!(key.at, datetime!(2024-05-01 10:20:30 UTC));
}

#[test]
fn a_time_unix_time_cannot_write_is_an_error_not_a_key() {
    for at in [
        datetime!(1969-12-31 23:59:59 UTC),
        datetime!(2286-11-20 17:46:40 UTC),
    ] {
        let err = click(at, 1).row_key().unwrap_err().to_string();
        assert!(err.contains("RowKey"), "{err}");
        assert!(err.contains("1970") || err.contains("digits"), "{err}");
    }
    // A stored key that is not 13 digits does not read.
    let mut entity = click(datetime!(2024-05-01 10:20:30 UTC), 1)
        .to_entity()
        .unwrap();
    entity.row_key = format!("171455883012_{:032x}", 1);
    assert!(Click::from_entity(&entity).is_err());
}

#[test]
fn newest_first_ranges_and_the_latest_read_in_time_order() {
    let store = Store::new();
    store.create_table("Clicks").unwrap();
    let clicks = Table::<_, Click>::new(&store);
    let times = [
        datetime!(2024-05-01 10:00:00 UTC),
        datetime!(2024-05-01 11:00:00 UTC),
        datetime!(2024-05-01 12:00:00 UTC),
    ];
    for (i, at) in times.iter().enumerate() {
        pollster::block_on(clicks.insert(&click(*at, i as u128))).unwrap();
    }
    // Newest first: the partition reads 12:00, 11:00, 10:00.
    let latest = pollster::block_on(clicks.query_all(&Click::latest("abc", 2).unwrap())).unwrap();
    let at: Vec<_> = latest.iter().map(|c| c.clicked_at).collect();
    assert_eq!(at, [times[2], times[1]]);
    // The bounds are flipped for the inverted count: `10:30..` means newer than 10:30.
    let since = Click::range_by_clicked_at("abc", datetime!(2024-05-01 10:30:00 UTC)..).unwrap();
    let found = pollster::block_on(clicks.query_all(&since)).unwrap();
    let at: Vec<_> = found.iter().map(|c| c.clicked_at).collect();
    assert_eq!(at, [times[2], times[1]]);
}

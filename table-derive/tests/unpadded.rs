//! `{field:unpadded}`: integers written as their plain decimal text, the keys `id.ToString()`
//! writes, built and read back by the derived code.

use table_runtime::{EntityKey, TableEntity};

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Highscores",
    partition_key = "{user_id}",
    row_key = "{rank:unpadded}"
)]
struct Score {
    user_id: String,
    rank: u8,
    value: i32,
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Ledger",
    partition_key = "acct{account:unpadded}",
    row_key = "{delta:unpadded}_{entry:unpadded}-{note}"
)]
struct Entry {
    account: u32,
    delta: i64,
    entry: i16,
    note: String,
}

#[test]
fn unpadded_keys_round_trip() {
    let score = Score {
        user_id: "ann".into(),
        rank: 10,
        value: 42,
    };
    assert_eq!(score.row_key().unwrap(), "10");
    let key = ScoreKey::parse("ann", "10").unwrap();
    assert_eq!(key, score.key());
    assert_eq!(
        Score::from_entity(&score.to_entity().unwrap()).unwrap(),
        score
    );

    for (account, delta, entry) in [
        (0, 0, 0),
        (7, -1, -1),
        (u32::MAX, i64::MIN, i16::MIN),
        (123, i64::MAX, i16::MAX),
    ] {
        let e = Entry {
            account,
            delta,
            entry,
            note: "x-1".into(),
        };
        let (pk, rk) = (e.partition_key().unwrap(), e.row_key().unwrap());
        assert_eq!(pk, format!("acct{account}"));
        assert_eq!(rk, format!("{delta}_{entry}-x-1"));
        let key = EntryKey::parse(&pk, &rk).unwrap();
        assert_eq!(key, e.key());
        assert_eq!(
            (key.partition_key().unwrap(), key.row_key().unwrap()),
            (pk, rk)
        );
        assert_eq!(Entry::from_entity(&e.to_entity().unwrap()).unwrap(), e);
    }
}

#[test]
fn keys_the_writer_never_writes_are_refused() {
    for rk in ["010", "", "-1", "256", "1x", "+1"] {
        let err = ScoreKey::parse("ann", rk).unwrap_err().to_string();
        assert!(err.contains("RowKey"), "{rk:?}: {err}");
    }
    for rk in ["-0_1-x", "--1_1-x", "1_01-x", "1-1-x", "1_-32769-x", "1_1"] {
        assert!(EntryKey::parse("acct1", rk).is_err(), "{rk:?}");
    }
    assert!(EntryKey::parse("acct-1", "1_1-x").is_err());
    assert!(EntryKey::parse("acct", "1_1-x").is_err());
}

#[test]
fn unpadded_segments_get_point_and_partition_queries_but_no_range() {
    let q = Score::point_query("ann", 3).unwrap();
    assert!(q.to_string().contains("RowKey eq '3'"), "{q}");
    let _ = Score::partition_query("ann").unwrap();
    let q = Entry::point_query(5, -20, 3, "n").unwrap();
    assert!(q.to_string().contains("PartitionKey eq 'acct5'"), "{q}");
    assert!(q.to_string().contains("RowKey eq '-20_3-n'"), "{q}");
    // `{note}` after the numbers still gets its range and prefix queries.
    let _ = Entry::range_by_note(5, -20, 3, "a".."b").unwrap();
    let _ = Entry::note_starting_with(5, -20, 3, "a").unwrap();
}

//! `{seq:inverted}`: an integer counted down from the largest value the field holds, the
//! newest-first sequence numbers .NET writes as `(int.MaxValue - seq).ToString("D10")`.

use table_runtime::{Store, Table, TableEntity};

/// An aggregate's snapshots, newest first.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Snapshots",
    partition_key = "{aggregate}",
    row_key = "{sequence:inverted}"
)]
struct Snapshot {
    aggregate: String,
    #[table(key_only, min = 1)]
    sequence: i32,
    data: String,
}

/// A feed counted down from a declared largest value, as `9999999999999 - Date.now()` is.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Feed",
    partition_key = "{channel}",
    row_key = "{posted_ms:inverted}_{id}"
)]
struct Post {
    channel: String,
    #[table(max = 9_999_999_999_999)]
    posted_ms: i64,
    id: String,
}

#[test]
fn values_are_counted_down_from_the_largest() {
    let s = Snapshot {
        aggregate: "order-7".into(),
        sequence: 7,
        data: "{}".into(),
    };
    assert_eq!(s.row_key().unwrap(), "2147483640");
    let back = Snapshot::from_entity(&s.to_entity().unwrap()).unwrap();
    assert_eq!(back, s);
    let p = Post {
        channel: "news".into(),
        posted_ms: 1_714_558_830_123,
        id: "a".into(),
    };
    assert_eq!(p.row_key().unwrap(), "8285441169876_a");
    let key = PostKey::parse("news", "8285441169876_a").unwrap();
    assert_eq!(key.posted_ms, 1_714_558_830_123);
    // Below `min`, negative, or above the largest: an error, never a wrong key.
    for sequence in [0, -1] {
        assert!(
            Snapshot {
                sequence,
                ..s.clone()
            }
            .row_key()
            .is_err()
        );
    }
    assert!(
        Post {
            posted_ms: 10_000_000_000_000,
            ..p.clone()
        }
        .row_key()
        .is_err()
    );
    assert!(PostKey::parse("news", "x285441169876_a").is_err());
}

#[test]
fn the_latest_snapshots_come_first() {
    let store = Store::new();
    store.create_table("Snapshots").unwrap();
    let snapshots = Table::<_, Snapshot>::new(&store);
    for sequence in 1..=12 {
        let s = Snapshot {
            aggregate: "order-7".into(),
            sequence,
            data: format!("v{sequence}"),
        };
        pollster::block_on(snapshots.insert(&s)).unwrap();
    }
    let latest =
        pollster::block_on(snapshots.query_all(&Snapshot::latest("order-7", 3).unwrap())).unwrap();
    let seq: Vec<i32> = latest.iter().map(|s| s.sequence).collect();
    assert_eq!(seq, [12, 11, 10]);
    // The bounds are flipped for the count down: `5..8` still means 5, 6 and 7.
    let some = pollster::block_on(
        snapshots.query_all(&Snapshot::range_by_sequence("order-7", 5..8).unwrap()),
    )
    .unwrap();
    let seq: Vec<i32> = some.iter().map(|s| s.sequence).collect();
    assert_eq!(seq, [7, 6, 5]);
}

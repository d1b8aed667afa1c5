//! `#[table(min = …)]`: the smallest value an integer field holds, enforced where `max` is (when
//! a key or the entity is written), so an event stream's sequence from 1 never takes the key of
//! the footer row kept at `0000000000` beside it.

use table_runtime::{Store, Table, TableEntity};

/// An event of an aggregate's stream, numbered from 1.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Streams",
    partition_key = "{stream}",
    row_key = "{sequence:010}"
)]
struct Event {
    stream: String,
    #[table(min = 1, max = 9_999_999_999)]
    sequence: u64,
    body: String,
}

/// The stream's footer: its last sequence number, in the same partition under `0000000000`.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Streams", partition_key = "{stream}", row_key = "0000000000")]
struct Footer {
    stream: String,
    #[table(min = 0)]
    last: i64,
    // A stored bound: the retry count a writer keeps, at least 1.
    #[table(min = 1)]
    attempts: Option<u8>,
}

#[test]
fn a_value_below_min_is_refused_in_a_key_and_in_a_property() {
    let first = Event {
        stream: "order-7".into(),
        sequence: 1,
        body: "created".into(),
    };
    assert_eq!(first.row_key().unwrap(), "0000000001");
    let zero = Event {
        sequence: 0,
        ..first.clone()
    };
    let err = zero.row_key().unwrap_err().to_string();
    assert!(err.contains("min = 1"), "{err}");
    assert!(zero.to_entity().is_err());
    let footer = Footer {
        stream: "order-7".into(),
        last: 1,
        attempts: Some(0),
    };
    let err = footer.to_entity().unwrap_err().to_string();
    assert!(
        err.contains("attempts") && err.contains("at least 1"),
        "{err}"
    );
    let unset = Footer {
        attempts: None,
        last: -1,
        ..footer
    };
    let err = unset.to_entity().unwrap_err().to_string();
    assert!(err.contains("last") && err.contains("at least 0"), "{err}");
}

#[test]
fn events_and_the_footer_share_a_partition_without_meeting() {
    let store = Store::new();
    store.create_table("Streams").unwrap();
    let events = Table::<_, Event>::new(&store);
    let footers = Table::<_, Footer>::new(&store);
    for sequence in 1..=3 {
        let e = Event {
            stream: "order-7".into(),
            sequence,
            body: format!("step {sequence}"),
        };
        pollster::block_on(events.insert(&e)).unwrap();
    }
    let footer = Footer {
        stream: "order-7".into(),
        last: 3,
        attempts: Some(1),
    };
    pollster::block_on(footers.insert(&footer)).unwrap();
    let key = FooterKey {
        stream: "order-7".into(),
    };
    assert_eq!(pollster::block_on(footers.get(&key)).unwrap(), Some(footer));
}

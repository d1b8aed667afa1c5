use table_runtime::{TableEntity, Value};

// Epoch milliseconds as `u64`, as `SystemTime` gives them: bounded by a `max` an Int64 holds,
// stored as an Int64 and padded in the key to the 13 digits the bound needs.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Messages", partition_key = "{room}", row_key = "{sent_ms:013}_{id}")]
struct Message {
    room: String,
    #[table(max = 9_999_999_999_999)]
    sent_ms: u64,
    id: u32,
    #[table(max = 9_223_372_036_854_775_807)]
    bytes: u64,
    #[table(max = 1_000_000)]
    slots: usize,
    #[table(max = 4_000_000_000)]
    quota: Option<u64>,
}

fn main() {
    let m = Message {
        room: "lobby".into(),
        sent_ms: 1_764_000_000_123,
        id: 7,
        bytes: i64::MAX as u64,
        slots: 3,
        quota: Some(5),
    };
    assert_eq!(m.row_key().unwrap(), "1764000000123_0000000007");
    let entity = m.to_entity().unwrap();
    assert_eq!(entity.get("sent_ms"), Some(&Value::Int64(1_764_000_000_123)));
    assert_eq!(entity.get("bytes"), Some(&Value::Int64(i64::MAX)));
    assert_eq!(entity.get("slots"), Some(&Value::Int64(3)));
    assert_eq!(entity.get("quota"), Some(&Value::Int64(5)));
    let none = Message { quota: None, ..m.clone() }.to_entity().unwrap();
    assert_eq!(none.get("quota"), None);
    assert!(Message { quota: Some(4_000_000_001), ..m.clone() }.to_entity().is_err());
    assert!(Message::design().contains("sent_ms"));
    assert_eq!(Message::from_entity(&entity).unwrap(), m);

    // Over the declared bound: refused, nothing wrapped.
    let late = Message { sent_ms: 10_000_000_000_000, ..m.clone() };
    assert!(late.to_entity().is_err());
    // A negative Int64 is no u64.
    let mut negative = entity.clone();
    negative.properties.insert("bytes".into(), Value::Int64(-1));
    assert!(Message::from_entity(&negative).is_err());
}

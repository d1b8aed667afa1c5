//! A `Vec<u8>` bounded by `max_len` (in bytes): written up to the bound, refused past it, and
//! an absent `Option` not measured.
use table_runtime::{TableEntity, Value};

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "SensorData", partition_key = "{device}", row_key = "{block:010}")]
struct Block {
    device: String,
    #[table(max = 9_999_999_999)]
    block: u64,
    #[table(max_len = 4)]
    samples: Vec<u8>,
    #[table(max_len = 2)]
    checksum: Option<Vec<u8>>,
}

fn main() {
    let ok = Block {
        device: "d1".into(),
        block: 7,
        samples: vec![1, 2, 3, 4],
        checksum: None,
    };
    let entity = ok.to_entity().unwrap();
    assert_eq!(entity.get("samples"), Some(&Value::Binary(vec![1, 2, 3, 4])));
    assert_eq!(Block::from_entity(&entity).unwrap(), ok);

    let long = Block {
        samples: vec![0; 5],
        ..ok.clone()
    };
    let message = long.to_entity().unwrap_err().to_string();
    assert!(message.contains("at most 4 bytes"), "{message}");
    assert!(message.contains("5 bytes"), "{message}");

    let long_checksum = Block {
        checksum: Some(vec![0; 3]),
        ..ok
    };
    let message = long_checksum.to_entity().unwrap_err().to_string();
    assert!(message.contains("at most 2 bytes"), "{message}");
}

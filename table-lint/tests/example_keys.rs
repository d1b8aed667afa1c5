//! The linter's example keys are the derive's: a design compiled here and the same design read
//! by the linter give the same keys for the same samples.

use table_derive_internals::Design;
use table_lint::example_keys::example;
use table_runtime::TableEntity;
use table_runtime::design::{SampleBounds, SampleValue};

#[macro_use]
#[path = "support/compiled_and_read.rs"]
mod compiled_and_read;

compiled_and_read! { SOURCE;
    #[derive(Debug, Clone, PartialEq, TableEntity)]
    #[table(name = "Usage", partition_key = "{tenant}_{at:date}", row_key = "{kind:escaped}_{seq:06}_{delta}_{rank:unpadded}")]
    #[table(index(name = "by_id", partition_key = "id_{id}", row_key = "{at:inverted_ticks}", eventual))]
    struct Usage {
        #[table(max_len = 4)]
        tenant: String,
        at: table_runtime::time::OffsetDateTime,
        kind: String,
        #[table(max = 999)]
        seq: u32,
        delta: i16,
        id: table_runtime::uuid::Uuid,
        rank: i32,
    }
}

#[test]
fn the_linter_writes_the_keys_the_derive_writes() {
    let file = syn::parse_file(SOURCE).unwrap();
    let syn::Item::Struct(item) = &file.items[0] else {
        panic!("expected the struct");
    };
    let design = Design::from_derive_input(&item.clone().into()).unwrap();
    let bounds = |max, max_len| SampleBounds {
        max,
        max_len,
        ..Default::default()
    };
    let value = Usage {
        tenant: String::sample_within("tenant", 1, bounds(None, Some(4))),
        at: SampleValue::sample("at", 1),
        kind: String::sample("kind", 1),
        seq: u32::sample_within("seq", 1, bounds(Some(999), None)),
        delta: i16::sample("delta", 1),
        id: SampleValue::sample("id", 1),
        rank: i32::sample("rank", 1),
    };
    assert_eq!(
        example(&design, &design.partition_key).unwrap(),
        value.partition_key().unwrap()
    );
    assert_eq!(
        example(&design, &design.row_key).unwrap(),
        value.row_key().unwrap()
    );
    let copy = &value.index_entities().unwrap()[0].entity;
    let index = &design.indexes[0];
    assert_eq!(
        example(&design, index.partition_key.as_ref().unwrap()).unwrap(),
        copy.partition_key
    );
    assert_eq!(example(&design, &index.row_key).unwrap(), copy.row_key);
}

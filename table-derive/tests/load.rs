//! A design's declared load (`#[table(load(writes_per_second = …, rows = …))]`) is read by the
//! linter; the derive takes it and generates the same code as without it.

use table_runtime::TableEntity;

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Duties", partition_key = "Duty", row_key = "{id}")]
#[table(load(writes_per_second = 2, rows = 300))]
struct Duty {
    id: String,
    name: String,
}

#[test]
fn a_declared_load_changes_nothing_the_derive_generates() {
    let duty = Duty {
        id: "d-1".into(),
        name: "Grill".into(),
    };
    assert_eq!(duty.partition_key().unwrap(), "Duty");
    assert_eq!(duty.row_key().unwrap(), "d-1");
    let entity = duty.to_entity().unwrap();
    assert_eq!(Duty::from_entity(&entity).unwrap(), duty);
}

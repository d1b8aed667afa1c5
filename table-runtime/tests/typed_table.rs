//! The typed table handle over the in-process backend: index copies kept in the entity's
//! transaction, typed pages with resumable continuations, projections and bulk loads.

use pollster::block_on;
use table_runtime::{IfMatch, Store, Table, TableEntity};

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Employees",
    partition_key = "{department}",
    row_key = "empid_{employee_id:06}"
)]
#[table(index(name = "by_email", row_key = "email_{email}"))]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    employee_id: u32,
    email: String,
    name: String,
    age: i32,
}

/// A projection: the same entities, two of their properties.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(projection_of = "Employee")]
#[table(rename_all = "PascalCase")]
struct EmployeeName {
    department: String,
    employee_id: u32,
    name: String,
}

fn employee(id: u32, email: &str) -> Employee {
    Employee {
        department: "Sales".into(),
        employee_id: id,
        email: email.into(),
        name: format!("n{id}"),
        age: 30,
    }
}

fn keys(store: &Store) -> Vec<String> {
    store
        .query_all("Employees", &table_runtime::Query::all())
        .unwrap()
        .into_iter()
        .map(|e| e.row_key)
        .collect()
}

#[test]
fn index_copies_follow_the_entity_in_one_transaction() {
    let store = Store::new();
    let table = Table::<_, Employee>::new(&store);
    block_on(table.create()).unwrap();
    block_on(table.insert(&employee(7, "ann@x.com"))).unwrap();
    assert_eq!(keys(&store), ["email_ann@x.com", "empid_000007"]);

    // A lookup by the index is a point query on the copy, read back as the entity.
    let q = Employee::by_email_point_query("Sales", "ann@x.com").unwrap();
    assert_eq!(
        block_on(table.query_all(&q)).unwrap(),
        [employee(7, "ann@x.com")]
    );

    // Changing the indexed field replaces the old copy in the same transaction.
    block_on(table.upsert(&employee(7, "ann@y.com"))).unwrap();
    assert_eq!(keys(&store), ["email_ann@y.com", "empid_000007"]);

    // A stale ETag is refused and changes nothing.
    let etag = block_on(table.replace(&employee(7, "ann@z.com"), IfMatch::Any)).unwrap();
    block_on(table.replace(&employee(7, "ann@w.com"), IfMatch::ETag(etag.clone()))).unwrap();
    let stale =
        block_on(table.replace(&employee(7, "ann@v.com"), IfMatch::ETag(etag))).unwrap_err();
    assert_eq!(stale.status, 412);
    assert_eq!(keys(&store), ["email_ann@w.com", "empid_000007"]);

    // Inserting an existing entity fails whole: no second copy appears.
    assert_eq!(
        block_on(table.insert(&employee(7, "other@x.com")))
            .unwrap_err()
            .status,
        409
    );
    assert_eq!(keys(&store).len(), 2);

    // Deleting by key removes the entity and every copy; a second time there is none.
    let key = employee(7, "ann@w.com").key();
    assert!(block_on(table.delete(&key, IfMatch::Any)).unwrap());
    assert!(keys(&store).is_empty());
    assert!(!block_on(table.delete(&key, IfMatch::Any)).unwrap());
    assert_eq!(block_on(table.get(&key)).unwrap(), None);
}

#[test]
fn pages_resume_from_a_stored_continuation_and_projections_read_some_fields() {
    let store = Store::new();
    let table = Table::<_, Employee>::new(&store);
    block_on(table.create()).unwrap();
    let all: Vec<Employee> = (0..2500)
        .map(|i| employee(i, &format!("e{i}@x.com")))
        .collect();
    assert_eq!(block_on(table.bulk_insert_non_atomic(&all)).unwrap(), 2500);

    let query = Employee::range_by_employee_id("Sales", 100..2200).unwrap();
    let first = block_on(table.query_page(&query, None)).unwrap();
    assert_eq!(first.items.len(), 1000);
    // The token survives being stored as text and read back, as after a crash.
    let stored = serde_json::to_string(&first.continuation).unwrap();
    let resumed = serde_json::from_str(&stored).unwrap();
    let second = block_on(table.query_page(&query, resumed)).unwrap();
    assert_eq!(second.items[0].employee_id, 1100);
    let everything = block_on(table.query_all(&query)).unwrap();
    assert_eq!(everything.len(), 2100);
    assert!(
        everything
            .windows(2)
            .all(|w| w[0].employee_id < w[1].employee_id)
    );

    let names = Table::<_, EmployeeName>::new(&store);
    let got = block_on(names.get_raw("Sales", "empid_000042"))
        .unwrap()
        .unwrap();
    assert_eq!(
        got,
        EmployeeName {
            department: "Sales".into(),
            employee_id: 42,
            name: "n42".into()
        }
    );
    let latest =
        block_on(names.query_all(&Employee::range_by_employee_id("Sales", 10..13).unwrap()))
            .unwrap();
    assert_eq!(
        latest.iter().map(|n| n.employee_id).collect::<Vec<_>>(),
        [10, 11, 12]
    );
}

#[test]
fn bulk_loads_split_per_partition_and_say_what_was_written_before_a_failure() {
    let store = Store::new();
    let table = Table::<_, Employee>::new(&store);
    block_on(table.create()).unwrap();
    let mut values: Vec<Employee> = (0..150).map(|i| employee(i, "x@x.com")).collect();
    values.extend((0..150).map(|i| Employee {
        department: "Support".into(),
        ..employee(i, "y@y.com")
    }));
    assert_eq!(
        block_on(table.bulk_insert_non_atomic(&values)).unwrap(),
        300
    );
    // A duplicate in the second partition's first transaction: the Sales rows already landed.
    let again: Vec<Employee> = vec![
        employee(500, "a@a.com"),
        Employee {
            department: "Support".into(),
            ..employee(3, "b@b.com")
        },
    ];
    let err = block_on(table.bulk_insert_non_atomic(&again)).unwrap_err();
    assert_eq!(err.status, 409);
    assert!(
        err.message.contains("1 values were written before"),
        "{}",
        err.message
    );
}

#[test]
fn reads_and_deletes_take_the_key_fields_and_pages_say_what_they_cost() {
    let store = Store::new();
    store.create_table("Employees").unwrap();
    let table = Table::<_, Employee>::new(&store);
    for id in 1..=5 {
        block_on(table.insert(&employee(id, &format!("e{id}@x.com")))).unwrap();
    }
    // The key from its fields: no key text written by hand.
    let key = EmployeeKey::new("Sales".into(), 3);
    assert_eq!(
        block_on(table.get(&key)).unwrap(),
        Some(employee(3, "e3@x.com"))
    );
    assert_eq!(
        block_on(table.get(&EmployeeKey::new("Ops".into(), 3))).unwrap(),
        None
    );
    let point = key.point_query().unwrap();
    assert_eq!(
        point.filter(),
        "PartitionKey eq 'Sales' and RowKey eq 'empid_000003'"
    );
    assert_eq!(
        block_on(table.query_all(&point)).unwrap(),
        [employee(3, "e3@x.com")]
    );

    // The partition holds the entities and their `by_email` copies: a partition scan
    // returns both, and the typed page says how many it passed over.
    let page =
        block_on(table.query_page(&Employee::partition_query("Sales").unwrap(), None)).unwrap();
    assert_eq!(page.items.len(), 5);
    assert_eq!(page.stats.class, table_runtime::QueryClass::PartitionScan);
    assert_eq!(page.stats.returned, 10);
    assert_eq!(page.passed_over, 5);

    let range = Employee::range_by_employee_id("Sales", 2..4).unwrap();
    let mut stream = table.stream(&range);
    let mut ids = Vec::new();
    while let Some(v) = block_on(stream.next()) {
        ids.push(v.unwrap().employee_id);
    }
    assert_eq!(ids, [2, 3]);
    let totals = stream.totals();
    assert_eq!(totals.class, Some(table_runtime::QueryClass::RangeQuery));
    assert_eq!(
        (totals.pages, totals.returned, totals.passed_over),
        (1, 2, 0)
    );
    assert!(totals.examined >= totals.returned);

    // Deleting by key takes the copy with it.
    assert!(block_on(table.delete(&key, IfMatch::Any)).unwrap());
    assert!(!keys(&store).contains(&"email_e3@x.com".to_owned()));
}

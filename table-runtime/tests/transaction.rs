//! Typed transactions: values of several types in one partition, committed all together or not
//! at all, with their index copies, refusals before anything is sent, and failures reported
//! against the value they came from.

use pollster::block_on;
use table_runtime::backend::faults::{self, Call, CallKind, Fault, Faulty};
use table_runtime::index::maintain::{IndexQueue, IndexWorker};
use table_runtime::transaction::Transaction;
use table_runtime::{
    BatchOperation, Entity, ErrorCode, IfMatch, Query, Store, StoreError, Table, TableEntity,
};

const TABLE: &str = "Staff";

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Staff",
    partition_key = "{department}",
    row_key = "empid_{id:06}"
)]
#[table(entity_type = "Employee", rename_all = "PascalCase")]
#[table(index(name = "by_email", row_key = "email_{email}"))]
struct Employee {
    department: String,
    id: u32,
    email: String,
    name: String,
    nickname: Option<String>,
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Staff", partition_key = "{name}", row_key = "department")]
#[table(entity_type = "Department", rename_all = "PascalCase")]
struct Department {
    name: String,
    manager_id: u32,
    manager_name: String,
    headcount: i32,
}

/// A compound RowKey: the employee's id, then the year.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Staff",
    partition_key = "{department}",
    row_key = "review_{employee_id:06}_{year:04}"
)]
#[table(entity_type = "Review", rename_all = "PascalCase")]
struct Review {
    department: String,
    employee_id: u32,
    year: u16,
    rating: i32,
}

/// The same employees, read and merged as two of their fields.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Staff",
    partition_key = "{department}",
    row_key = "empid_{id:06}"
)]
#[table(entity_type = "Employee", rename_all = "PascalCase")]
struct EmployeeName {
    department: String,
    id: u32,
    name: String,
}

/// A type whose index copies live in another partition.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Staff",
    partition_key = "{department}",
    row_key = "listed_{id:06}"
)]
#[table(entity_type = "Listed", rename_all = "PascalCase")]
#[table(index(
    name = "by_name",
    partition_key = "names",
    row_key = "{name}_{id:06}",
    eventual
))]
struct Listed {
    department: String,
    id: u32,
    name: String,
}

/// A type of another table.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Other", partition_key = "{department}", row_key = "x_{id}")]
struct Elsewhere {
    department: String,
    id: u32,
}

/// Large values, to reach the payload limit in few operations.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Staff",
    partition_key = "{department}",
    row_key = "blob_{id:06}"
)]
#[table(rename_all = "PascalCase")]
struct Blob {
    department: String,
    id: u32,
    a: Vec<u8>,
    b: Vec<u8>,
    c: Vec<u8>,
    d: Vec<u8>,
}

fn employee(id: u32, email: &str) -> Employee {
    Employee {
        department: "Sales".into(),
        id,
        email: email.into(),
        name: format!("n{id}"),
        nickname: None,
    }
}

fn sales(manager_id: u32, manager_name: &str, headcount: i32) -> Department {
    Department {
        name: "Sales".into(),
        manager_id,
        manager_name: manager_name.into(),
        headcount,
    }
}

fn review(employee_id: u32, year: u16, rating: i32) -> Review {
    Review {
        department: "Sales".into(),
        employee_id,
        year,
        rating,
    }
}

fn store() -> Store {
    let store = Store::new();
    store.create_table(TABLE).unwrap();
    store
}

/// Everything in the table, ETags and Timestamps included.
fn snapshot(store: &Store) -> Vec<Entity> {
    store.query_all(TABLE, &Query::all()).unwrap()
}

fn row_keys(store: &Store) -> Vec<String> {
    snapshot(store).into_iter().map(|e| e.row_key).collect()
}

/// Hires 1 and 2 and creates the department, through the typed API.
fn seeded() -> Store {
    let store = store();
    let mut tx = Transaction::new();
    tx.insert(&employee(1, "a@x.com"))
        .unwrap()
        .insert(&employee(2, "b@x.com"))
        .unwrap()
        .insert(&sales(1, "n1", 2))
        .unwrap();
    block_on(tx.commit(&store)).unwrap();
    store
}

#[test]
fn values_of_several_types_land_together_with_their_copies_and_etags() {
    let store = store();
    let mut tx = Transaction::new();
    tx.insert(&employee(7, "ann@x.com"))
        .unwrap()
        .insert(&sales(7, "n7", 1))
        .unwrap()
        .insert(&review(7, 2024, 4))
        .unwrap();
    assert_eq!(tx.len(), 3);
    assert_eq!(tx.operations(), 4, "three values and one email copy");
    assert_eq!(tx.table(), Some(TABLE));
    assert_eq!(tx.partition_key(), Some("Sales"));
    let etags = block_on(tx.commit(&store)).unwrap();

    assert_eq!(
        row_keys(&store),
        [
            "department",
            "email_ann@x.com",
            "empid_000007",
            "review_000007_2024"
        ]
    );
    // One ETag per value, in order, each the stored entity's.
    let stored = |rk: &str| store.get(TABLE, "Sales", rk, None).unwrap().etag;
    assert_eq!(etags.len(), 3);
    assert_eq!(etags[0], stored("empid_000007"));
    assert_eq!(etags[1], stored("department"));
    assert_eq!(etags[2], stored("review_000007_2024"));
    assert!(etags.iter().all(Option::is_some));

    // The copy reads back as the employee.
    let table = Table::<_, Employee>::new(&store);
    let q = Employee::by_email_point_query("Sales", "ann@x.com").unwrap();
    assert_eq!(
        block_on(table.query_all(&q)).unwrap(),
        [employee(7, "ann@x.com")]
    );
}

#[test]
fn a_failure_at_the_first_middle_or_last_value_changes_nothing_and_names_the_value() {
    let store = seeded();
    let department_etag = store
        .get(TABLE, "Sales", "department", None)
        .unwrap()
        .etag
        .unwrap();
    let before = snapshot(&store);

    // First: inserting an employee that exists.
    let mut tx = Transaction::new();
    tx.insert(&employee(1, "new@x.com"))
        .unwrap()
        .replace(&sales(3, "n3", 3), IfMatch::Any)
        .unwrap()
        .insert(&review(2, 2024, 5))
        .unwrap();
    let err = block_on(tx.commit(&store)).unwrap_err();
    assert_eq!(
        (err.code, err.failed_index),
        (ErrorCode::EntityAlreadyExists, Some(0))
    );
    assert!(
        err.message.starts_with("value 0 (insert of `Employee`"),
        "{err}"
    );
    assert_eq!(snapshot(&store), before);

    // Middle: a department replace on a stale ETag, after the department changed.
    block_on(
        Transaction::new()
            .replace(&sales(1, "n1", 2), IfMatch::ETag(department_etag.clone()))
            .unwrap()
            .commit(&store),
    )
    .unwrap();
    let before = snapshot(&store);
    let mut tx = Transaction::new();
    tx.insert(&employee(3, "c@x.com"))
        .unwrap()
        .replace(&sales(3, "n3", 3), IfMatch::ETag(department_etag))
        .unwrap()
        .insert(&review(3, 2024, 5))
        .unwrap();
    let err = block_on(tx.commit(&store)).unwrap_err();
    assert_eq!((err.status, err.failed_index), (412, Some(1)));
    assert!(err.message.contains("replace of `Department`"), "{err}");
    assert_eq!(snapshot(&store), before);

    // Last: deleting a review that does not exist.
    let mut tx = Transaction::new();
    tx.insert(&employee(3, "c@x.com"))
        .unwrap()
        .replace(&sales(3, "n3", 3), IfMatch::Any)
        .unwrap()
        .delete(&review(3, 1999, 1), IfMatch::Any)
        .unwrap();
    let err = block_on(tx.commit(&store)).unwrap_err();
    assert_eq!((err.status, err.failed_index), (404, Some(2)));
    assert_eq!(snapshot(&store), before);

    // The same transaction without the bad value goes through.
    let mut tx = Transaction::new();
    tx.insert(&employee(3, "c@x.com"))
        .unwrap()
        .replace(&sales(3, "n3", 3), IfMatch::Any)
        .unwrap();
    block_on(tx.commit(&store)).unwrap();
    assert_eq!(snapshot(&store).len(), before.len() + 2);
}

#[test]
fn a_failing_index_copy_is_reported_against_its_value() {
    let store = seeded();
    let before = snapshot(&store);
    // The email makes a copy RowKey longer than the service allows; the employee itself is fine.
    let long = format!("{}@x.com", "a".repeat(600));
    let mut tx = Transaction::new();
    tx.replace(&sales(1, "n1", 3), IfMatch::Any)
        .unwrap()
        .insert(&employee(3, &long))
        .unwrap();
    let err = block_on(tx.commit(&store)).unwrap_err();
    assert_eq!(err.code, ErrorCode::KeyValueTooLarge);
    assert_eq!(err.failed_index, Some(1));
    assert!(err.message.contains("its index copy `email_"), "{err}");
    assert_eq!(snapshot(&store), before);
}

/// Insert-or-merge with index copies: a value that is not there is inserted with its copy; one
/// that is keeps what the value does not write (the nickname), and its copy follows the merged
/// entity, the old one removed, in one transaction.
#[test]
fn upsert_merge_inserts_or_merges_and_keeps_the_copies_current() {
    let store = seeded();
    let table = Table::<_, Employee>::new(&store);
    block_on(table.upsert_merge(&employee(3, "c@x.com"))).unwrap();
    assert!(row_keys(&store).contains(&"email_c@x.com".to_owned()));
    assert_eq!(
        block_on(table.get_raw("Sales", "empid_000003"))
            .unwrap()
            .unwrap(),
        employee(3, "c@x.com")
    );

    block_on(table.replace(
        &Employee {
            nickname: Some("Al".into()),
            ..employee(1, "a@x.com")
        },
        IfMatch::Any,
    ))
    .unwrap();
    block_on(table.upsert_merge(&employee(1, "a2@x.com"))).unwrap();
    let merged = block_on(table.get_raw("Sales", "empid_000001"))
        .unwrap()
        .unwrap();
    assert_eq!(merged.nickname.as_deref(), Some("Al"));
    assert_eq!(merged.email, "a2@x.com");
    let keys = row_keys(&store);
    assert!(keys.contains(&"email_a2@x.com".to_owned()), "{keys:?}");
    assert!(!keys.contains(&"email_a@x.com".to_owned()), "{keys:?}");
    let q = Employee::by_email_point_query("Sales", "a2@x.com").unwrap();
    assert_eq!(block_on(table.query_all(&q)).unwrap(), [merged]);
}

#[test]
fn copies_follow_replaced_merged_and_deleted_values() {
    let store = seeded();
    // Replacing with a new email moves the copy in the same transaction.
    let mut tx = Transaction::new();
    tx.replace(
        &Employee {
            nickname: Some("Al".into()),
            ..employee(1, "a2@x.com")
        },
        IfMatch::Any,
    )
    .unwrap()
    .upsert(&employee(2, "b2@x.com"))
    .unwrap();
    block_on(tx.commit(&store)).unwrap();
    assert_eq!(
        row_keys(&store),
        [
            "department",
            "email_a2@x.com",
            "email_b2@x.com",
            "empid_000001",
            "empid_000002"
        ]
    );

    // A merge keeps what the value does not write (the nickname) and rebuilds the copy from the
    // merged entity, so the copy keeps it too.
    block_on(
        Transaction::new()
            .merge(&employee(1, "a3@x.com"), IfMatch::Any)
            .unwrap()
            .commit(&store),
    )
    .unwrap();
    let table = Table::<_, Employee>::new(&store);
    let merged = block_on(table.get_raw("Sales", "empid_000001"))
        .unwrap()
        .unwrap();
    assert_eq!(merged.nickname.as_deref(), Some("Al"));
    assert_eq!(merged.email, "a3@x.com");
    let q = Employee::by_email_point_query("Sales", "a3@x.com").unwrap();
    assert_eq!(block_on(table.query_all(&q)).unwrap(), [merged]);
    assert!(!row_keys(&store).contains(&"email_a2@x.com".to_owned()));

    // A projection merges only its fields.
    block_on(
        Transaction::new()
            .merge(
                &EmployeeName {
                    department: "Sales".into(),
                    id: 2,
                    name: "Bea".into(),
                },
                IfMatch::Any,
            )
            .unwrap()
            .commit(&store),
    )
    .unwrap();
    let bea = block_on(table.get_raw("Sales", "empid_000002"))
        .unwrap()
        .unwrap();
    assert_eq!((bea.name.as_str(), bea.email.as_str()), ("Bea", "b2@x.com"));

    // Deleting takes the stored copies, even when the value in hand has an older email.
    block_on(
        Transaction::new()
            .delete(&employee(1, "a@x.com"), IfMatch::Any)
            .unwrap()
            .delete(&employee(2, "b2@x.com"), IfMatch::Any)
            .unwrap()
            .commit(&store),
    )
    .unwrap();
    assert_eq!(row_keys(&store), ["department"]);
}

#[test]
fn deleting_a_value_whose_copy_is_already_gone_still_works() {
    let store = seeded();
    store
        .write(
            TABLE,
            BatchOperation::Delete {
                partition_key: "Sales".into(),
                row_key: "email_a@x.com".into(),
                if_match: IfMatch::Any,
            },
        )
        .unwrap();
    let etags = block_on(
        Transaction::new()
            .delete(&employee(1, "a@x.com"), IfMatch::Any)
            .unwrap()
            .replace(&sales(2, "n2", 1), IfMatch::Any)
            .unwrap()
            .commit(&store),
    )
    .unwrap();
    assert_eq!(etags[0], None);
    assert!(etags[1].is_some());
    assert_eq!(
        row_keys(&store),
        ["department", "email_b@x.com", "empid_000002"]
    );
}

#[test]
fn refusals_come_before_anything_is_sent_and_leave_the_transaction_as_it_was() {
    let mut tx = Transaction::new();
    tx.insert(&employee(1, "a@x.com")).unwrap();

    let elsewhere = Department {
        name: "Support".into(),
        ..sales(1, "n1", 1)
    };
    let err = tx.insert(&elsewhere).unwrap_err();
    assert_eq!(err.code, ErrorCode::CommandsInBatchActOnDifferentPartitions);
    assert_eq!(err.failed_index, Some(1));
    assert!(err.message.contains("PartitionKey is `Support`"), "{err}");

    let err = tx
        .insert(&Elsewhere {
            department: "Sales".into(),
            id: 1,
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::CommandsInBatchActOnDifferentPartitions);
    assert!(err.message.contains("table `Other`"), "{err}");

    let err = tx
        .insert(&Listed {
            department: "Sales".into(),
            id: 1,
            name: "Ann".into(),
        })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(
        err.message.contains("`by_name` in another partition"),
        "{err}"
    );
    assert!(err.message.contains("queue"), "{err}");

    // The same entity twice, or a value landing on another value's copy.
    let err = tx.upsert(&employee(1, "z@x.com")).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidDuplicateRow);
    let err = tx.insert(&employee(2, "a@x.com")).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidDuplicateRow);
    assert!(err.message.contains("email_a@x.com"), "{err}");

    // Nothing refused was added.
    assert_eq!((tx.len(), tx.operations()), (1, 2));
    let store = store();
    block_on(tx.commit(&store)).unwrap();
    assert_eq!(row_keys(&store), ["email_a@x.com", "empid_000001"]);
}

#[test]
fn more_than_100_operations_is_refused_at_the_value_that_crosses_the_limit() {
    let mut tx = Transaction::new();
    for id in 0..50 {
        tx.insert(&employee(id, &format!("e{id}@x.com"))).unwrap();
    }
    assert_eq!(tx.operations(), 100);
    let err = tx.insert(&review(1, 2024, 3)).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert_eq!(err.failed_index, Some(50));
    assert!(err.message.contains("101 operations"), "{err}");

    // Exactly 100 commits.
    let store = store();
    assert_eq!(block_on(tx.commit(&store)).unwrap().len(), 50);
    assert_eq!(snapshot(&store).len(), 100);
}

#[test]
fn more_than_4_mib_is_refused() {
    let blob = |id| Blob {
        department: "Sales".into(),
        id,
        a: vec![1; 60_000],
        b: vec![2; 60_000],
        c: vec![3; 60_000],
        d: vec![4; 60_000],
    };
    let mut tx = Transaction::new();
    let mut refused = None;
    for id in 0..20 {
        if let Err(e) = tx.insert(&blob(id)) {
            refused = Some((id, e));
            break;
        }
    }
    let (id, err) = refused.expect("20 values of 240 KB pass 4 MiB");
    assert_eq!(err.code, ErrorCode::RequestBodyTooLarge);
    assert_eq!(err.failed_index, Some(id as usize));
    // What was accepted fits, and commits.
    let store = store();
    assert_eq!(block_on(tx.commit(&store)).unwrap().len(), id as usize);
}

#[test]
fn an_empty_transaction_does_nothing() {
    let store = store();
    assert_eq!(block_on(Transaction::new().commit(&store)).unwrap(), []);
    assert!(Transaction::new().is_empty());
}

#[test]
fn a_named_table_holds_the_values_instead_of_their_own() {
    let store = Store::new();
    store.create_table("Staff2024").unwrap();
    let mut tx = Transaction::in_table("Staff2024");
    tx.insert(&employee(1, "a@x.com"))
        .unwrap()
        .insert(&sales(1, "n1", 1))
        .unwrap();
    block_on(tx.commit(&store)).unwrap();
    assert_eq!(
        store.query_all("Staff2024", &Query::all()).unwrap().len(),
        3
    );
}

#[test]
fn other_partition_copies_go_through_the_queue() {
    let store = store();
    let queue = IndexQueue::default();
    let ann = Listed {
        department: "Sales".into(),
        id: 1,
        name: "Ann".into(),
    };
    let mut tx = Transaction::new();
    tx.index_queue::<Listed>(&queue);
    tx.insert(&ann)
        .unwrap()
        .insert(&sales(1, "Ann", 1))
        .unwrap();
    block_on(tx.commit(&store)).unwrap();
    // The job is visible once the transaction landed; a worker writes the copy.
    assert_eq!(queue.len(), 1);
    let summary = block_on(IndexWorker::<_, Listed>::new(&store, &queue).run_until_idle());
    assert_eq!(summary.done, 1);
    assert!(store.get(TABLE, "names", "Ann_000001", None).is_ok());

    // Renaming: the job names the old copy, which the worker removes.
    let mut tx = Transaction::new();
    tx.index_queue::<Listed>(&queue);
    tx.replace(
        &Listed {
            name: "Anna".into(),
            ..ann.clone()
        },
        IfMatch::Any,
    )
    .unwrap();
    block_on(tx.commit(&store)).unwrap();
    block_on(IndexWorker::<_, Listed>::new(&store, &queue).run_until_idle());
    let names: Vec<String> = store
        .query_all(TABLE, &Query::filter("PartitionKey eq 'names'").unwrap())
        .unwrap()
        .into_iter()
        .map(|e| e.row_key)
        .collect();
    assert_eq!(names, ["Anna_000001"]);

    // A transaction the service refused withdraws its job.
    let mut tx = Transaction::new();
    tx.index_queue::<Listed>(&queue);
    tx.insert(&ann).unwrap();
    assert_eq!(block_on(tx.commit(&store)).unwrap_err().status, 409);
    assert!(queue.is_empty());
}

/// A rule that lets another writer in once, just before the next transaction: between the
/// transaction's read and its write.
fn other_writer_first(
    other_writer: impl FnOnce(&Store) + Send + 'static,
) -> impl FnMut(&Call<'_>) -> Fault<Store> + Send + 'static {
    faults::once(
        |call| call.kind() == CallKind::ExecuteBatch,
        Fault::run_before(other_writer),
    )
}

#[test]
fn a_change_between_the_read_and_the_write_is_read_again_unless_an_etag_was_given() {
    // Someone moves employee 1 to another email while the transaction is in flight.
    let backend = Faulty::with_rule(
        seeded(),
        other_writer_first(|s| {
            block_on(Table::<_, Employee>::new(s).upsert(&employee(1, "mid@x.com"))).unwrap();
        }),
    );
    let store = backend.inner();
    let mut tx = Transaction::new();
    tx.replace(&employee(1, "last@x.com"), IfMatch::Any)
        .unwrap()
        .replace(&sales(1, "n1", 2), IfMatch::Any)
        .unwrap();
    block_on(tx.commit(&backend)).unwrap();
    // The second attempt saw the in-between email and removed its copy too.
    assert_eq!(
        row_keys(store),
        [
            "department",
            "email_b@x.com",
            "email_last@x.com",
            "empid_000001",
            "empid_000002"
        ]
    );

    // With an explicit ETag, the caller's condition decides: 412, nothing written.
    let etag = store
        .get(TABLE, "Sales", "empid_000001", None)
        .unwrap()
        .etag
        .unwrap();
    backend.set_rule(other_writer_first(|s| {
        block_on(Table::<_, Employee>::new(s).upsert(&employee(1, "mid2@x.com"))).unwrap();
    }));
    let mut tx = Transaction::new();
    tx.replace(&sales(1, "n1", 5), IfMatch::Any)
        .unwrap()
        .replace(&employee(1, "late@x.com"), IfMatch::ETag(etag))
        .unwrap();
    let err = block_on(tx.commit(&backend)).unwrap_err();
    assert_eq!((err.status, err.failed_index), (412, Some(1)));
    let department =
        Department::from_entity(&store.get(TABLE, "Sales", "department", None).unwrap()).unwrap();
    assert_eq!(department.headcount, 2);
}

#[test]
fn reading_a_missing_value_to_replace_is_reported_against_it() {
    let store = seeded();
    let mut tx = Transaction::new();
    tx.replace(&sales(1, "n1", 3), IfMatch::Any)
        .unwrap()
        .replace(&employee(9, "nine@x.com"), IfMatch::Any)
        .unwrap();
    let err = block_on(tx.commit(&store)).unwrap_err();
    assert_eq!((err.status, err.failed_index), (404, Some(1)));
    assert!(
        err.message.starts_with("value 1 (replace of `Employee`"),
        "{err}"
    );
}

#[test]
fn the_commit_future_is_send() {
    fn assert_send<F: Future + Send>(f: F) -> F {
        f
    }
    let store = store();
    let queue = IndexQueue::default();
    let mut tx = Transaction::new();
    tx.index_queue::<Listed>(&queue);
    tx.insert(&employee(1, "a@x.com")).unwrap();
    block_on(assert_send(tx.commit(&store))).unwrap();
}

#[test]
fn a_transaction_without_an_answer_leaves_its_job_for_the_worker() {
    let queue = IndexQueue::default();
    // The transaction lands, but the answer is lost: the caller sees 500 and can't tell.
    let backend = Faulty::with_rule(
        store(),
        faults::once(
            |call| call.kind() == CallKind::ExecuteBatch,
            Fault::FailAfter(StoreError::new(
                ErrorCode::OperationTimedOut,
                "no answer in time",
            )),
        ),
    );
    let store = backend.inner();
    let mut tx = Transaction::new();
    tx.index_queue::<Listed>(&queue);
    tx.insert(&Listed {
        department: "Sales".into(),
        id: 1,
        name: "Ann".into(),
    })
    .unwrap();
    let err = block_on(tx.commit(&backend)).unwrap_err();
    assert_eq!(err.status, 500);
    // The job is kept, and visible: the worker finds the entity and writes its copy.
    assert_eq!(queue.len(), 1);
    let summary = block_on(IndexWorker::<_, Listed>::new(store, &queue).run_until_idle());
    assert_eq!(summary.done, 1);
    assert!(store.get(TABLE, "names", "Ann_000001", None).is_ok());
}

//! Projections: the generated type that reads an index's projected copies, and user structs
//! declared a projection of a design (`projection_of`), read with `$select` and never written.

use pollster::block_on;
use table_runtime::{ErrorCode, IfMatch, Store, Table, TableEntity};

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Staff",
    partition_key = "{department}",
    row_key = "empid_{employee_id:06}"
)]
#[table(index(name = "by_email", row_key = "email_{email}", project(name)))]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    #[table(max = 999_999)]
    employee_id: u32,
    email: String,
    name: String,
    salary: i64,
}

/// The name of each employee, without the rest.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(projection_of = "Employee", rename_all = "PascalCase")]
struct EmployeeName {
    department: String,
    employee_id: u32,
    name: String,
}

fn ann() -> Employee {
    Employee {
        department: "Sales".into(),
        employee_id: 7,
        email: "ann@contoso.com".into(),
        name: "Ann".into(),
        salary: 90_000,
    }
}

fn store() -> Store {
    let store = Store::new();
    store.create_table("Staff").unwrap();
    let table = Table::<_, Employee>::new(&store);
    block_on(table.insert(&ann())).unwrap();
    block_on(table.insert(&Employee {
        employee_id: 8,
        email: "bob@contoso.com".into(),
        name: "Bob".into(),
        ..ann()
    }))
    .unwrap();
    store
}

#[test]
fn an_index_with_project_reads_through_its_generated_type() {
    let store = store();
    let copies = Table::<_, EmployeeByEmail>::new(&store);
    let query = Employee::by_email_point_query("Sales", "ann@contoso.com").unwrap();
    let found = block_on(copies.query_all(&query)).unwrap();
    // The key fields come back from the copy's keys, `name` from its one property.
    assert_eq!(
        found,
        [EmployeeByEmail {
            department: "Sales".into(),
            email: "ann@contoso.com".into(),
            name: "Ann".into(),
        }]
    );
    assert_eq!(EmployeeByEmail::PROPERTIES, ["Name"]);
    let all = block_on(copies.query_all(&Employee::by_email_partition_query("Sales").unwrap()));
    assert_eq!(all.unwrap().len(), 2);

    // Reading the copies as whole employees is refused before anything is sent, and the
    // error names the type to read them with.
    let whole = Table::<_, Employee>::new(&store);
    let err = block_on(whole.query_all(&query)).unwrap_err();
    assert_eq!(err.code, ErrorCode::ConversionFailed);
    assert!(err.message.contains("EmployeeByEmail"), "{}", err.message);
    // Copies are written through the design, never through the projection.
    let err = block_on(copies.insert(&found[0])).unwrap_err();
    assert!(
        err.message.contains("write the `Employee`"),
        "{}",
        err.message
    );
}

#[test]
fn a_declared_projection_reads_its_fields_and_refuses_writes() {
    let store = store();
    let names = Table::<_, EmployeeName>::new(&store);
    assert_eq!(EmployeeName::TABLE, "Staff");
    // The design's key type reads it.
    let got = block_on(names.get(&ann().key())).unwrap();
    assert_eq!(
        got,
        Some(EmployeeName {
            department: "Sales".into(),
            employee_id: 7,
            name: "Ann".into(),
        })
    );
    // Queries select only its properties, and pass over the index copies in the partition.
    let page =
        block_on(names.query_page(&Employee::partition_query("Sales").unwrap(), None)).unwrap();
    assert_eq!(page.items.len(), 2);
    assert_eq!(page.passed_over, 2);
    let err = block_on(names.upsert(&got.clone().unwrap())).unwrap_err();
    assert_eq!(err.code, ErrorCode::ConversionFailed);
    assert!(
        err.message.contains("projection of `Employee`"),
        "{}",
        err.message
    );
    // A delete through the projection would leave the design's copies behind: refused.
    let err = block_on(names.delete(&ann().key(), IfMatch::Any)).unwrap_err();
    assert!(
        err.message.contains("projection of `Employee`"),
        "{}",
        err.message
    );
    assert!(block_on(names.get(&ann().key())).unwrap().is_some());
    let copies = Table::<_, EmployeeByEmail>::new(&store);
    let copy = EmployeeByEmail {
        department: "Sales".into(),
        email: "ann@contoso.com".into(),
        name: "Ann".into(),
    };
    assert!(block_on(copies.delete_value(&copy, IfMatch::Any)).is_err());
}

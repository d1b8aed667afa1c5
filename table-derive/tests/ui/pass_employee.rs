use table_runtime::TableEntity;

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Employees",
    partition_key = "{department}",
    row_key = "empid_{employee_id:06}"
)]
#[table(index(name = "by_email", row_key = "email_{email}"))]
#[table(index(
    name = "by_last_name",
    partition_key = "lastname_{department}",
    row_key = "{last_name}_{employee_id}"
))]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    employee_id: u32,
    email: String,
    first_name: String,
    last_name: String,
    age: i32,
}

fn main() {
    let e = Employee {
        department: "Sales".into(),
        employee_id: 42,
        email: "ann@contoso.com".into(),
        first_name: "Ann".into(),
        last_name: "O'Neil".into(),
        age: 31,
    };
    assert_eq!(Employee::TABLE, "Employees");
    assert_eq!(e.row_key().unwrap(), "empid_000042");
    let entity = e.to_entity().unwrap();
    assert_eq!(Employee::from_entity(&entity).unwrap(), e);
    let key: EmployeeKey = EmployeeKey::parse("Sales", "empid_000042").unwrap();
    assert_eq!(key, e.key());
    assert_eq!(e.index_entities().unwrap().len(), 2);
    let _ = Employee::point_query("Sales", 42).unwrap();
    let _ = Employee::partition_query("Sales").unwrap();
    let _ = Employee::range_by_employee_id("Sales", 100..200).unwrap();
    let _ = Employee::by_email_point_query("Sales", "ann@contoso.com").unwrap();
    let _ = Employee::by_email_email_starting_with("Sales", "a").unwrap();
    let _ = Employee::by_last_name_partition_query("Sales").unwrap();
    let _ = Employee::by_last_name_range_by_employee_id("Sales", "O'Neil", 1..).unwrap();
}

//! HR: employees and departments in one table.
//!
//! Patterns (see the design guides): PartitionKey is the department, so a department and its
//! employees share a partition and can change together in one entity group transaction
//! (*heterogeneous entity types* told apart by the `EntityType` property). The RowKey carries a
//! type prefix and a zero-padded id (`empid_000042`), so ids sort numerically and a range of ids
//! is a RowKey range. The *intra-partition secondary index* stores a copy under
//! `email_{email}` in the same partition, written in the same transaction as the employee; the
//! *inter-partition secondary index* stores a copy under `lastname_{department}` keyed by last
//! name, for lookups by name.

use table_runtime::batch::BatchOperation;
use table_runtime::{QueryClass, Store, StoreError, TableEntity};

/// An employee.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Employees",
    partition_key = "{department}",
    row_key = "empid_{employee_id:06}"
)]
#[table(entity_type = "Employee", rename_all = "PascalCase")]
#[table(index(name = "by_email", row_key = "email_{email}"))]
#[table(index(
    name = "by_last_name",
    partition_key = "lastname_{department}",
    row_key = "{last_name}_{employee_id:06}"
))]
#[table(allow(
    TK005,
    reason = "employee ids are issued below 1,000,000; a larger one is refused, never mis-sorted"
))]
#[table(allow(
    TK013,
    reason = "hire() writes the last-name copy right after the transaction; queue-based upkeep is the typed API's next step"
))]
pub struct Employee {
    /// The department (the partition).
    #[table(max_len = 64)]
    pub department: String,
    /// The id, unique within the company.
    pub employee_id: u32,
    /// Work email, unique.
    #[table(max_len = 160)]
    pub email: String,
    /// Given name.
    pub first_name: String,
    /// Family name.
    #[table(max_len = 100)]
    pub last_name: String,
    /// Age in years.
    pub age: i32,
}

/// A department, stored in its own partition beside its employees.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Employees", partition_key = "{name}", row_key = "department")]
#[table(entity_type = "Department", rename_all = "PascalCase")]
#[table(allow(
    TK002,
    reason = "the department shares its partition with its employees; the constant RowKey marks its own row"
))]
pub struct Department {
    /// The department's name (the partition).
    #[table(max_len = 64)]
    pub name: String,
    /// The manager's employee id.
    pub manager_id: u32,
    /// How many employees it has.
    pub employee_count: i32,
}

/// Anything stored in the Employees table.
#[derive(Debug, Clone, PartialEq, TableEntity)]
pub enum HrEntity {
    /// An employee.
    Employee(Employee),
    /// A department.
    Department(Department),
}

/// Hires an employee: the employee, its same-partition email copy and the department's new
/// count change in one transaction; the last-name copy (another partition) is written after.
pub fn hire(store: &Store, employee: &Employee) -> Result<(), StoreError> {
    let mut department = Department::from_entity(&store.get(
        Employee::TABLE,
        &employee.department,
        "department",
        None,
    )?)?;
    department.employee_count += 1;
    let mut ops = vec![
        BatchOperation::Insert(employee.to_entity()?),
        BatchOperation::Replace(department.to_entity()?, table_runtime::IfMatch::Any),
    ];
    let copies = employee.index_entities()?;
    for copy in copies.iter().filter(|c| c.index.same_partition) {
        ops.push(BatchOperation::Insert(copy.entity.clone()));
    }
    store.execute_batch(Employee::TABLE, &ops)?;
    for copy in copies.iter().filter(|c| !c.index.same_partition) {
        store.upsert_replace(Employee::TABLE, &copy.entity)?;
    }
    Ok(())
}

/// What [`run`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Names of employees with ids 100 to 199 in Sales.
    pub ids_100_to_199: Vec<String>,
    /// The class of that query.
    pub id_range_class: QueryClass,
    /// The employee found by email.
    pub by_email: Option<String>,
    /// Employees of Sales named Jones (from the other-partition index).
    pub jones: Vec<u32>,
    /// The Sales partition read as one enum: (departments, distinct employees).
    pub sales_mix: (usize, usize),
    /// Sales' employee count after the hires.
    pub sales_count: i32,
    /// Whether hiring a duplicate id was refused as a whole.
    pub duplicate_refused: bool,
}

/// Creates departments, hires employees and runs the design's lookups.
pub fn run(store: &Store) -> Result<Report, StoreError> {
    store.create_table(Employee::TABLE)?;
    for name in ["Sales", "Support"] {
        let d = Department {
            name: name.into(),
            manager_id: 1,
            employee_count: 0,
        };
        store.insert(Employee::TABLE, &d.to_entity()?)?;
    }
    let people = [
        ("Sales", 42, "Ann", "Smith"),
        ("Sales", 117, "Bob", "Jones"),
        ("Sales", 150, "Cid", "Jones"),
        ("Sales", 230, "Dee", "Brown"),
        ("Support", 120, "Eve", "Jones"),
    ];
    for (department, id, first, last) in people {
        hire(
            store,
            &Employee {
                department: department.into(),
                employee_id: id,
                email: format!(
                    "{}.{}@contoso.com",
                    first.to_lowercase(),
                    last.to_lowercase()
                ),
                first_name: first.into(),
                last_name: last.into(),
                age: 30 + (id % 20) as i32,
            },
        )?;
    }
    // A duplicate id fails the whole transaction: the department count is not bumped.
    let duplicate = Employee {
        department: "Sales".into(),
        employee_id: 42,
        email: "other@contoso.com".into(),
        first_name: "X".into(),
        last_name: "Y".into(),
        age: 1,
    };
    let duplicate_refused = hire(store, &duplicate).is_err();

    let range = Employee::range_by_employee_id("Sales", 100..200)?;
    let page = store.query(Employee::TABLE, &range.to_query()?)?;
    let ids_100_to_199 = page
        .entities
        .iter()
        .map(|e| Employee::from_entity(e).map(|e| e.first_name))
        .collect::<Result<_, _>>()?;

    let by_email = store
        .query(
            Employee::TABLE,
            &Employee::by_email_point_query("Sales", "bob.jones@contoso.com")?.to_query()?,
        )?
        .entities
        .first()
        .map(Employee::from_entity)
        .transpose()?
        .map(|e| e.first_name);

    let jones_query = Employee::by_last_name_last_name_starting_with("Sales", "Jones")?;
    let jones = store
        .query_all(Employee::TABLE, &jones_query.to_query()?)?
        .iter()
        .map(|e| Employee::from_entity(e).map(|e| e.employee_id))
        .collect::<Result<_, _>>()?;

    // The Sales partition holds the department, its employees and their email copies: read it
    // whole as one enum, counting distinct employees.
    let partition = store.query_all(
        Employee::TABLE,
        &table_runtime::Query::filter("PartitionKey eq 'Sales'")?,
    )?;
    let mut departments = 0;
    let mut employees = std::collections::BTreeSet::new();
    for e in &partition {
        match HrEntity::from_entity(e)? {
            HrEntity::Department(_) => departments += 1,
            HrEntity::Employee(emp) => {
                employees.insert(emp.employee_id);
            }
        }
    }
    let sales_mix = (departments, employees.len());
    let sales =
        Department::from_entity(&store.get(Employee::TABLE, "Sales", "department", None)?)?;

    Ok(Report {
        ids_100_to_199,
        id_range_class: range.class(),
        by_email,
        jones,
        sales_mix,
        sales_count: sales.employee_count,
        duplicate_refused,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hr_design_works_end_to_end() {
        let report = run(&Store::new()).unwrap();
        assert_eq!(report.ids_100_to_199, ["Bob", "Cid"]);
        assert_eq!(report.id_range_class, QueryClass::RangeQuery);
        assert_eq!(report.by_email.as_deref(), Some("Bob"));
        assert_eq!(report.jones, [117, 150]);
        assert_eq!(report.sales_mix, (1, 4));
        assert_eq!(report.sales_count, 4);
        assert!(report.duplicate_refused);
    }

    #[test]
    fn the_id_range_filter_is_the_guides() {
        let q = Employee::range_by_employee_id("Sales", 100..200).unwrap();
        assert_eq!(
            q.filter(),
            "PartitionKey eq 'Sales' and RowKey ge 'empid_000100' and RowKey lt 'empid_000200'"
        );
    }
}

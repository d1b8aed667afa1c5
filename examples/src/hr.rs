//! HR: employees, departments and yearly reviews in one table.
//!
//! Patterns (see the design guides): PartitionKey is the department, so a department, its
//! employees and their reviews share a partition and can change together in one entity group
//! transaction (*heterogeneous entity types* told apart by the `EntityType` property). The
//! RowKey carries a type prefix and a zero-padded id (`empid_000042`), so ids sort numerically
//! and a range of ids is a RowKey range. The *intra-partition secondary index* stores a copy
//! under `email_{email}` in the same partition, written in the same transaction as the employee;
//! the *inter-partition secondary index* stores a copy under `lastname_{department}` keyed by
//! last name, kept *eventually consistent* through a queue and a worker.
//!
//! *Denormalization*: the department carries a copy of its manager's name and email, so one
//! point query answers "who runs Sales and how do I reach them". The copy and the employee are
//! only ever changed in one [`Transaction`], so they never disagree.
//!
//! *Compound key*: a review's RowKey is `review_{employee_id:06}_{year:04}`, so all reviews of
//! one employee are one RowKey range, in year order, and a review is written in the same
//! transaction as the employee's summary of it.

use pollster::block_on;
use table_runtime::index::maintain::{IndexQueue, IndexWorker};
use table_runtime::query::keyed::KeyQuery;
use table_runtime::transaction::Transaction;
use table_runtime::{
    Backend, ETag, ErrorCode, IfMatch, QueryClass, StoreError, Table, TableEntity,
};

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
    row_key = "{last_name}_{employee_id:06}",
    eventual
))]
#[table(allow(
    TK005,
    reason = "employee ids are issued below 1,000,000; a larger one is refused, never mis-sorted"
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
    /// The year of the latest review, kept in step with the review entities.
    pub last_review_year: Option<u16>,
}

/// A department, stored in its own partition beside its employees, with a copy of its
/// manager's details.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Employees", partition_key = "{name}", row_key = "department")]
#[table(entity_type = "Department", rename_all = "PascalCase")]
pub struct Department {
    /// The department's name (the partition).
    #[table(max_len = 64)]
    pub name: String,
    /// How many employees it has.
    pub employee_count: i32,
    /// The manager's employee id, once one is appointed.
    pub manager_id: Option<u32>,
    /// The manager's full name, copied from the employee.
    pub manager_name: Option<String>,
    /// The manager's email, copied from the employee.
    pub manager_email: Option<String>,
}

impl Department {
    /// A department with no employees and no manager yet.
    pub fn new(name: impl Into<String>) -> Self {
        Department {
            name: name.into(),
            employee_count: 0,
            manager_id: None,
            manager_name: None,
            manager_email: None,
        }
    }

    /// The department with `manager`'s details copied in.
    pub fn with_manager(self, manager: &Employee) -> Self {
        Department {
            manager_id: Some(manager.employee_id),
            manager_name: Some(format!("{} {}", manager.first_name, manager.last_name)),
            manager_email: Some(manager.email.clone()),
            ..self
        }
    }

    /// Whether the copy of the manager's details matches `employee`, the manager.
    pub fn manager_matches(&self, employee: &Employee) -> bool {
        self.clone().with_manager(employee) == *self
    }
}

/// One yearly review of an employee, beside the employee in the department's partition.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Employees",
    partition_key = "{department}",
    row_key = "review_{employee_id:06}_{year:04}"
)]
#[table(entity_type = "EmployeeReview", rename_all = "PascalCase")]
#[table(allow(
    TK005,
    reason = "ids stay below 1,000,000 and years have four digits; a wider value is refused, never mis-sorted"
))]
pub struct EmployeeReview {
    /// The employee's department (the partition).
    #[table(max_len = 64)]
    pub department: String,
    /// The employee reviewed.
    pub employee_id: u32,
    /// The year under review.
    pub year: u16,
    /// The manager's rating, 1 to 5.
    pub manager_rating: i32,
    /// The peers' rating, 1 to 5.
    pub peer_rating: i32,
    /// Free text.
    pub comments: String,
}

/// Anything stored in the Employees table's department partitions.
#[derive(Debug, Clone, PartialEq, TableEntity)]
pub enum HrEntity {
    /// An employee.
    Employee(Employee),
    /// A department.
    Department(Department),
    /// A review.
    EmployeeReview(EmployeeReview),
}

/// How often a write is rebuilt from fresh reads when another writer got in between.
const ATTEMPTS: usize = 8;

/// Reads the one value a point query names, with the condition that it is still that version.
async fn read<B: Backend, T: TableEntity>(
    backend: &B,
    query: &KeyQuery,
) -> Result<(T, IfMatch), StoreError> {
    let page = backend.query_page(T::TABLE, &query.to_query()?).await?;
    let entity = page.entities.first().ok_or_else(|| {
        StoreError::new(
            ErrorCode::ResourceNotFound,
            format!("nothing answers `{}`", query.filter()),
        )
    })?;
    let version = entity.etag.clone().map_or(IfMatch::Any, IfMatch::ETag);
    Ok((T::from_entity(entity)?, version))
}

/// Builds and commits a transaction, building it again from fresh reads when an entity it read
/// changed before the commit (412).
async fn commit_fresh<'q, B: Backend>(
    backend: &B,
    mut build: impl AsyncFnMut() -> Result<Transaction<'q>, StoreError>,
) -> Result<Vec<Option<ETag>>, StoreError> {
    let mut last = None;
    for _ in 0..ATTEMPTS {
        match build().await?.commit(backend).await {
            Err(e) if e.code == ErrorCode::UpdateConditionNotSatisfied => last = Some(e),
            done => return done,
        }
    }
    Err(last.unwrap_or_else(|| {
        StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            "no attempt was made",
        )
    }))
}

/// A transaction that may hold employees, whose last-name copies go through `queue`.
fn transaction(queue: &IndexQueue) -> Transaction<'_> {
    let mut tx = Transaction::new();
    tx.index_queue::<Employee>(queue);
    tx
}

/// Creates the Employees table and the departments `names`, with no employees yet.
pub async fn create_departments<B: Backend>(backend: &B, names: &[&str]) -> Result<(), StoreError> {
    let departments = Table::<_, Department>::new(backend);
    departments.create().await?;
    for name in names {
        departments.insert(&Department::new(*name)).await?;
    }
    Ok(())
}

/// Hires an employee: the employee, its email copy and the department's new count change in
/// one transaction; the last-name copy is announced on `queue` for the worker.
pub async fn hire<B: Backend>(
    backend: &B,
    queue: &IndexQueue,
    employee: &Employee,
) -> Result<(), StoreError> {
    let department = Department::point_query(&employee.department)?;
    commit_fresh(backend, async || {
        let (current, version) = read::<_, Department>(backend, &department).await?;
        let counted = Department {
            employee_count: current.employee_count + 1,
            ..current
        };
        let mut tx = transaction(queue);
        tx.insert(employee)?.replace(&counted, version)?;
        Ok(tx)
    })
    .await
    .map(drop)
}

/// Makes an employee the manager of their department. The department's copy of the manager's
/// details is taken from the employee, and the transaction rewrites the employee exactly as
/// read, on its ETag: the copy is stored only if the employee is still that version.
pub async fn appoint_manager<B: Backend>(
    backend: &B,
    queue: &IndexQueue,
    department: &str,
    employee_id: u32,
) -> Result<(), StoreError> {
    let employee = Employee::point_query(department, employee_id)?;
    let department = Department::point_query(department)?;
    commit_fresh(backend, async || {
        let (manager, manager_version) = read::<_, Employee>(backend, &employee).await?;
        let (current, version) = read::<_, Department>(backend, &department).await?;
        let mut tx = transaction(queue);
        tx.replace(&manager, manager_version)?
            .replace(&current.with_manager(&manager), version)?;
        Ok(tx)
    })
    .await
    .map(drop)
}

/// Changes an employee's details. When the employee manages the department, the department's
/// copy changes in the same transaction; a manager appointed meanwhile makes it start over.
pub async fn update_employee<B: Backend>(
    backend: &B,
    queue: &IndexQueue,
    employee: &Employee,
) -> Result<(), StoreError> {
    let department = Department::point_query(&employee.department)?;
    commit_fresh(backend, async || {
        let (current, version) = read::<_, Department>(backend, &department).await?;
        let mut tx = transaction(queue);
        tx.replace(employee, IfMatch::Any)?;
        if current.manager_id == Some(employee.employee_id) {
            tx.replace(&current.with_manager(employee), version)?;
        }
        Ok(tx)
    })
    .await
    .map(drop)
}

/// Records a review and the employee's latest review year in one transaction: a review that
/// exists already fails the whole of it.
pub async fn record_review<B: Backend>(
    backend: &B,
    queue: &IndexQueue,
    review: &EmployeeReview,
) -> Result<(), StoreError> {
    let reviewed = Employee::point_query(&review.department, review.employee_id)?;
    commit_fresh(backend, async || {
        let (employee, version) = read::<_, Employee>(backend, &reviewed).await?;
        let latest = employee.last_review_year.max(Some(review.year));
        let mut tx = transaction(queue);
        tx.insert(review)?.replace(
            &Employee {
                last_review_year: latest,
                ..employee
            },
            version,
        )?;
        Ok(tx)
    })
    .await
    .map(drop)
}

/// The query for every review of one employee: one RowKey range, oldest year first.
pub fn reviews_query(department: &str, employee_id: u32) -> Result<KeyQuery, StoreError> {
    Ok(EmployeeReview::range_by_employee_id(
        department,
        employee_id..=employee_id,
    )?)
}

/// Brings the last-name copies in line with the employees.
pub async fn run_index_worker<B: Backend>(backend: &B, queue: &IndexQueue) -> usize {
    IndexWorker::<_, Employee>::new(backend, queue)
        .run_until_idle()
        .await
        .done
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
    /// The Sales partition read as one enum: (departments, distinct employees, reviews).
    pub sales_mix: (usize, usize, usize),
    /// Sales' employee count after the hires.
    pub sales_count: i32,
    /// Whether hiring a duplicate id was refused as a whole.
    pub duplicate_refused: bool,
    /// Sales' manager as the department's copy has it: (id, name, email).
    pub sales_manager: Option<(u32, String, String)>,
    /// Whether that copy matches the manager's employee entity.
    pub manager_copy_consistent: bool,
    /// Bob's reviews from one range query: (year, manager rating).
    pub bob_reviews: Vec<(u16, i32)>,
    /// The class of that query.
    pub reviews_class: QueryClass,
    /// Bob's latest review year, as his employee entity has it.
    pub bob_last_review: Option<u16>,
    /// Whether recording a review twice was refused, leaving Bob as he was.
    pub duplicate_review_refused: bool,
    /// Index jobs the worker finished.
    pub index_jobs: usize,
}

/// Creates departments, hires employees, appoints and updates a manager, records reviews and
/// runs the design's lookups.
pub fn run<B: Backend>(backend: &B) -> Result<Report, StoreError> {
    block_on(run_async(backend))
}

async fn run_async<B: Backend>(backend: &B) -> Result<Report, StoreError> {
    let queue = IndexQueue::default();
    create_departments(backend, &["Sales", "Support"]).await?;
    let people = [
        ("Sales", 42, "Ann", "Smith"),
        ("Sales", 117, "Bob", "Jones"),
        ("Sales", 150, "Cid", "Jones"),
        ("Sales", 230, "Dee", "Brown"),
        ("Support", 120, "Eve", "Jones"),
    ];
    for (department, id, first, last) in people {
        let employee = Employee {
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
            last_review_year: None,
        };
        hire(backend, &queue, &employee).await?;
    }
    // A duplicate id fails the whole transaction: the department count is not bumped.
    let duplicate = Employee {
        department: "Sales".into(),
        employee_id: 42,
        email: "other@contoso.com".into(),
        first_name: "X".into(),
        last_name: "Y".into(),
        age: 1,
        last_review_year: None,
    };
    let duplicate_refused = hire(backend, &queue, &duplicate).await.is_err();

    // Denormalization: Ann runs Sales, then marries and changes her name and email. The
    // department's copy changes with her, in the same transaction.
    appoint_manager(backend, &queue, "Sales", 42).await?;
    let (ann, _) = read::<_, Employee>(backend, &Employee::point_query("Sales", 42)?).await?;
    let married = Employee {
        last_name: "Jones".into(),
        email: "ann.jones@contoso.com".into(),
        ..ann
    };
    update_employee(backend, &queue, &married).await?;

    // Compound key: Bob's reviews, each with his summary.
    for (year, rating) in [(2023, 3), (2024, 4), (2022, 2)] {
        let review = EmployeeReview {
            department: "Sales".into(),
            employee_id: 117,
            year,
            manager_rating: rating,
            peer_rating: rating,
            comments: format!("{year}: rated {rating}"),
        };
        record_review(backend, &queue, &review).await?;
    }
    let bob_query = Employee::point_query("Sales", 117)?;
    let (bob_before, _) = read::<_, Employee>(backend, &bob_query).await?;
    let again = EmployeeReview {
        department: "Sales".into(),
        employee_id: 117,
        year: 2024,
        manager_rating: 1,
        peer_rating: 1,
        comments: "again".into(),
    };
    let refused = record_review(backend, &queue, &again).await.is_err();
    let (bob, _) = read::<_, Employee>(backend, &bob_query).await?;
    let duplicate_review_refused = refused && bob == bob_before;

    // The last-name index in other partitions catches up.
    let index_jobs = run_index_worker(backend, &queue).await;

    let employees = Table::<_, Employee>::new(backend);
    let range = Employee::range_by_employee_id("Sales", 100..200)?;
    let ids_100_to_199 = employees
        .query_all(&range)
        .await?
        .into_iter()
        .map(|e| e.first_name)
        .collect();

    let by_email_query = Employee::by_email_point_query("Sales", "bob.jones@contoso.com")?;
    let by_email = employees
        .query_all(&by_email_query)
        .await?
        .into_iter()
        .next()
        .map(|e| e.first_name);

    let jones_query = Employee::by_last_name_last_name_starting_with("Sales", "Jones")?;
    let jones = employees
        .query_all(&jones_query)
        .await?
        .into_iter()
        .map(|e| e.employee_id)
        .collect();

    let reviews = reviews_query("Sales", 117)?;
    let bob_reviews = Table::<_, EmployeeReview>::new(backend)
        .query_all(&reviews)
        .await?
        .into_iter()
        .map(|r| (r.year, r.manager_rating))
        .collect();

    // The Sales partition holds the department, its employees, their email copies and their
    // reviews: read it whole as one enum (the typed query passes over the index copies).
    let partition = Table::<_, HrEntity>::new(backend)
        .query_all(&Department::partition_query("Sales")?)
        .await?;
    let (mut departments, mut reviews_seen) = (0, 0);
    let mut employee_ids = std::collections::BTreeSet::new();
    for entity in &partition {
        match entity {
            HrEntity::Department(_) => departments += 1,
            HrEntity::Employee(emp) => {
                employee_ids.insert(emp.employee_id);
            }
            HrEntity::EmployeeReview(_) => reviews_seen += 1,
        }
    }
    let sales_mix = (departments, employee_ids.len(), reviews_seen);

    // One point query answers who runs Sales and how to reach them.
    let (sales, _) = read::<_, Department>(backend, &Department::point_query("Sales")?).await?;
    let (manager, _) = read::<_, Employee>(backend, &Employee::point_query("Sales", 42)?).await?;
    let manager_copy_consistent =
        sales.manager_id == Some(manager.employee_id) && sales.manager_matches(&manager);
    let sales_manager = match (sales.manager_id, &sales.manager_name, &sales.manager_email) {
        (Some(id), Some(name), Some(email)) => Some((id, name.clone(), email.clone())),
        _ => None,
    };

    Ok(Report {
        ids_100_to_199,
        id_range_class: range.class(),
        by_email,
        jones,
        sales_mix,
        sales_count: sales.employee_count,
        duplicate_refused,
        sales_manager,
        manager_copy_consistent,
        bob_reviews,
        reviews_class: reviews.class(),
        bob_last_review: bob.last_review_year,
        duplicate_review_refused,
        index_jobs,
    })
}

#[cfg(test)]
mod tests {
    use table_runtime::Store;

    use super::*;

    #[test]
    fn the_hr_design_works_end_to_end() {
        let report = run(&Store::new()).unwrap();
        assert_eq!(report.ids_100_to_199, ["Bob", "Cid"]);
        assert_eq!(report.id_range_class, QueryClass::RangeQuery);
        assert_eq!(report.by_email.as_deref(), Some("Bob"));
        // Ann's new last name reached the other partition's index through the queue.
        assert_eq!(report.jones, [42, 117, 150]);
        assert_eq!(report.sales_mix, (1, 4, 3));
        assert_eq!(report.sales_count, 4);
        assert!(report.duplicate_refused);
        assert_eq!(
            report.sales_manager,
            Some((42, "Ann Jones".into(), "ann.jones@contoso.com".into()))
        );
        assert!(report.manager_copy_consistent);
        assert_eq!(report.bob_reviews, [(2022, 2), (2023, 3), (2024, 4)]);
        assert_eq!(report.reviews_class, QueryClass::RangeQuery);
        assert_eq!(report.bob_last_review, Some(2024));
        assert!(report.duplicate_review_refused);
        // 5 hires, the appointment, the update and 3 reviews each rewrote an employee.
        assert_eq!(report.index_jobs, 10);
    }

    #[test]
    fn the_id_range_filter_is_the_guides() {
        let q = Employee::range_by_employee_id("Sales", 100..200).unwrap();
        assert_eq!(
            q.filter(),
            "PartitionKey eq 'Sales' and RowKey ge 'empid_000100' and RowKey lt 'empid_000200'"
        );
    }

    #[test]
    fn one_employees_reviews_are_one_range() {
        let q = reviews_query("Sales", 123).unwrap();
        assert_eq!(
            q.filter(),
            "PartitionKey eq 'Sales' and RowKey ge 'review_000123' and RowKey lt 'review_000124'"
        );
        assert_eq!(q.class(), QueryClass::RangeQuery);
    }
}

//! Every example on both backends: the in-process store and Azurite through the HTTP backend.
//!
//! Each example's `run` must give the same report on both. The other scenarios (a refused
//! transaction, a worker that dies halfway, a table dropped twice…) are written once, generic
//! over the backend, and run on each.
//!
//! Azurite comes from the test-support fixture of table-http: `AZURITE_TABLE_CONNECTION_STRING`
//! if set, else whatever answers on `127.0.0.1:$AZURITE_TABLE_PORT` (default 10002), else an
//! Azurite this test binary starts and stops itself. Nothing is skipped.
//!
//! The examples use their designs' table names (`Employees`, `Events202610`…). On a service
//! shared with other tests and earlier runs, each Azurite run goes through [`Prefixed`], which
//! keeps its tables under a prefix of its own and deletes them afterwards.

#[path = "../../table-http/tests/support/azurite_fixture.rs"]
mod azurite_fixture;

use std::future::Future;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use examples::{event_log, hr, iot, orders, query_entities, records, saas};
use pollster::block_on;
use table_http::HttpBackend;
use table_runtime::batch::BatchOperation;
use table_runtime::entity::Entity;
use table_runtime::query::keyed::KeyQuery;
use table_runtime::store::{BatchResult, QueryPage, TablePage, WriteResult};
use table_runtime::{Backend, ErrorCode, Query, Store, StoreError, Table, TableEntity, Value};

/// One HTTP backend for the whole test binary (its clones share a connection pool and runtime).
fn http() -> &'static HttpBackend {
    static BACKEND: OnceLock<HttpBackend> = OnceLock::new();
    BACKEND.get_or_init(|| {
        HttpBackend::from_connection_string(&azurite_fixture::connection_string())
            .expect("the fixture's connection string")
    })
}

/// A backend that stores table `T` as `{prefix}T` on the service and lists only the tables under
/// its prefix, with the prefix taken off: the examples see an account of their own.
///
/// The prefix has a fixed width, so no run's prefix starts another's.
struct Prefixed {
    inner: HttpBackend,
    prefix: String,
}

impl Prefixed {
    fn fresh() -> Prefixed {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("a clock after 1970")
            .subsec_nanos();
        let count = COUNTER.fetch_add(1, Ordering::Relaxed) & 0xffff;
        Prefixed {
            inner: http().clone(),
            // Table names are letters and digits, starting with a letter.
            prefix: format!("ex{:08x}{nanos:08x}{count:04x}", std::process::id()),
        }
    }

    fn name(&self, table: &str) -> String {
        format!("{}{table}", self.prefix)
    }

    /// Deletes every table under the prefix.
    fn clean_up(&self) -> Result<(), StoreError> {
        let mut ours = Vec::new();
        let mut continuation = None;
        loop {
            let page = block_on(self.inner.list_tables(None, continuation))?;
            ours.extend(
                page.tables
                    .into_iter()
                    .filter(|t| t.starts_with(&self.prefix)),
            );
            match page.continuation {
                Some(next) => continuation = Some(next),
                None => break,
            }
        }
        for table in ours {
            block_on(self.inner.delete_table(&table))?;
        }
        Ok(())
    }
}

impl Drop for Prefixed {
    fn drop(&mut self) {
        if let Err(e) = self.clean_up() {
            eprintln!("tables under `{}` were not all deleted: {e}", self.prefix);
        }
    }
}

impl Backend for Prefixed {
    fn create_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        let name = self.name(table);
        async move { self.inner.create_table(&name).await }
    }
    fn delete_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        let name = self.name(table);
        async move { self.inner.delete_table(&name).await }
    }
    async fn list_tables(
        &self,
        max: Option<usize>,
        continuation: Option<String>,
    ) -> Result<TablePage, StoreError> {
        let mut page = self.inner.list_tables(max, continuation).await?;
        page.tables = page
            .tables
            .iter()
            .filter_map(|t| t.strip_prefix(&self.prefix).map(str::to_owned))
            .collect();
        Ok(page)
    }
    fn write(
        &self,
        table: &str,
        op: BatchOperation,
    ) -> impl Future<Output = Result<WriteResult, StoreError>> + Send {
        let name = self.name(table);
        async move { self.inner.write(&name, op).await }
    }
    fn get(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        select: Option<&[&str]>,
    ) -> impl Future<Output = Result<Entity, StoreError>> + Send {
        let name = self.name(table);
        async move { self.inner.get(&name, partition_key, row_key, select).await }
    }
    fn query_page(
        &self,
        table: &str,
        query: &Query,
    ) -> impl Future<Output = Result<QueryPage, StoreError>> + Send {
        let name = self.name(table);
        async move { self.inner.query_page(&name, query).await }
    }
    fn execute_batch(
        &self,
        table: &str,
        ops: Vec<BatchOperation>,
    ) -> impl Future<Output = Result<Vec<BatchResult>, StoreError>> + Send {
        let name = self.name(table);
        async move { self.inner.execute_batch(&name, ops).await }
    }
}

/// Runs `f` on a fresh prefix of the Azurite account, whose tables are deleted afterwards
/// (also when `f` panics).
fn on_azurite<R>(f: impl FnOnce(&Prefixed) -> R) -> R {
    let backend = Prefixed::fresh();
    f(&backend)
}

/// For each `test: run`, a test that runs the example on a fresh store and on Azurite and
/// expects the same report.
macro_rules! same_report_on_both_backends {
    ($($test:ident: $run:path),* $(,)?) => {$(
        #[test]
        fn $test() {
            let on_store = $run(&Store::new()).expect("the example on the store");
            let on_azurite = on_azurite(|b| $run(b)).expect("the example on Azurite");
            assert_eq!(on_azurite, on_store, "Azurite (left) and the store (right) disagree");
        }
    )*};
}

same_report_on_both_backends! {
    event_log_report_is_the_same_on_both_backends: event_log::run,
    hr_report_is_the_same_on_both_backends: hr::run,
    iot_report_is_the_same_on_both_backends: iot::run,
    orders_report_is_the_same_on_both_backends: orders::run,
    records_report_is_the_same_on_both_backends: records::run,
    saas_report_is_the_same_on_both_backends: saas::run,
}

/// For each generic scenario `name`, a module `name` with the tests `store` and `azurite`.
macro_rules! on_both_backends {
    ($($scenario:ident),* $(,)?) => {$(
        mod $scenario {
            #[test]
            fn store() {
                super::$scenario(&table_runtime::Store::new());
            }

            #[test]
            fn azurite() {
                super::on_azurite(|b| super::$scenario(b));
            }
        }
    )*};
}

on_both_backends! {
    hr_the_manager_copy_never_disagrees_with_the_manager,
    iot_a_year_is_one_logical_entity_of_two_parts,
    orders_a_failed_line_leaves_no_half_written_order,
    event_log_dropping_a_month_again_is_not_an_error,
    saas_the_owner_list_lives_in_the_tenants_partition_and_the_assignee_list_in_its_own,
    records_a_mover_that_dies_halfway_is_finished_by_the_next,
}

/// The one value a point query finds.
fn point<B: Backend, T: TableEntity>(backend: &B, query: KeyQuery) -> T {
    block_on(Table::<_, T>::new(backend).query_all(&query))
        .expect("a point query")
        .into_iter()
        .next()
        .expect("a value at these keys")
}

fn hr_the_manager_copy_never_disagrees_with_the_manager<B: Backend>(backend: &B) {
    use hr::{Department, Employee};
    use table_runtime::index::maintain::IndexQueue;

    let queue = IndexQueue::default();
    let sales = || Department::point_query("Sales").unwrap();
    let employee = |id| Employee::point_query("Sales", id).unwrap();
    block_on(hr::create_departments(backend, &["Sales"])).unwrap();
    let ann = Employee {
        department: "Sales".into(),
        employee_id: 1,
        email: "ann@contoso.com".into(),
        first_name: "Ann".into(),
        last_name: "Smith".into(),
        age: 40,
        last_review_year: None,
    };
    block_on(hr::hire(backend, &queue, &ann)).unwrap();
    block_on(hr::appoint_manager(backend, &queue, "Sales", 1)).unwrap();

    // An update the transaction refuses (an email over its `max_len`) changes neither the
    // employee nor the department's copy.
    let too_long = Employee {
        email: format!("{}@contoso.com", "a".repeat(200)),
        ..ann.clone()
    };
    let err = block_on(hr::update_employee(backend, &queue, &too_long)).unwrap_err();
    assert_eq!(err.failed_index, Some(0));
    let stored: Employee = point(backend, employee(1));
    assert_eq!(stored, ann);
    assert!(point::<_, Department>(backend, sales()).manager_matches(&stored));

    // Appointing someone who does not exist is refused, and Ann stays.
    let err = block_on(hr::appoint_manager(backend, &queue, "Sales", 9)).unwrap_err();
    assert_eq!(err.code, ErrorCode::ResourceNotFound);
    assert_eq!(point::<_, Department>(backend, sales()).manager_id, Some(1));

    // Someone else's details don't touch the department.
    let bob = Employee {
        employee_id: 2,
        email: "bob@contoso.com".into(),
        first_name: "Bob".into(),
        ..ann.clone()
    };
    block_on(hr::hire(backend, &queue, &bob)).unwrap();
    let older = Employee { age: 41, ..bob };
    block_on(hr::update_employee(backend, &queue, &older)).unwrap();
    let after: Department = point(backend, sales());
    assert_eq!(after.manager_name.as_deref(), Some("Ann Smith"));
    assert_eq!(after.employee_count, 2);
}

fn iot_a_year_is_one_logical_entity_of_two_parts<B: Backend>(backend: &B) {
    let report = iot::run(backend).unwrap();
    assert_eq!(report.year_parts, 2);
    assert_eq!(report.year_days, 365);
    let rows = block_on(query_entities(
        backend,
        iot::YEARS_TABLE,
        &Query::filter("PartitionKey eq 'dev-001'").unwrap(),
    ))
    .unwrap();
    let keys: Vec<_> = rows.iter().map(|e| e.row_key.as_str()).collect();
    assert_eq!(keys, ["2026_p00", "2026_p01"]);
    assert!(rows.iter().all(|e| e.properties.len() <= 252));
    // November 1st is day 305; its made-up value was replaced by the measured mean.
    assert_eq!(iot::day_property(iot::day_start()), "D305");
    let mean = block_on(iot::day_mean(backend, "dev-001")).unwrap();
    assert_eq!(report.day_mean, Some(mean));
    let made_up = iot::year_of_means("x", 2026).properties["D305"].clone();
    assert_ne!(made_up, Value::Double(mean));
}

fn orders_a_failed_line_leaves_no_half_written_order<B: Backend>(backend: &B) {
    use orders::{Order, OrderLine};

    block_on(Table::<_, Order>::new(backend).create()).unwrap();
    let order_id = uuid::Uuid::from_u128(9);
    let order = Order {
        customer_id: "c".into(),
        placed_at: time::OffsetDateTime::UNIX_EPOCH,
        order_id,
        total_cents: 0,
    };
    let line = |line_no| OrderLine {
        customer_id: "c".into(),
        order_id,
        line_no,
        sku: "x".into(),
        quantity: 1,
        unit_cents: 1,
    };
    // The same line twice: refused before anything is sent.
    let err = block_on(orders::place(backend, &order, &[line(1), line(1)])).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidDuplicateRow);
    assert_eq!(err.failed_index, Some(2));
    // table-lint: allow(TK101, reason = "the test checks that nothing at all was written")
    let everything = || block_on(query_entities(backend, Order::TABLE, &Query::all())).unwrap();
    assert!(everything().is_empty());

    // A line that exists already: the service refuses the whole transaction, naming the line.
    block_on(Table::<_, OrderLine>::new(backend).insert(&line(2))).unwrap();
    let err = block_on(orders::place(backend, &order, &[line(1), line(2)])).unwrap_err();
    assert_eq!(err.code, ErrorCode::EntityAlreadyExists);
    assert_eq!(err.failed_index, Some(2));
    let keys: Vec<String> = everything().into_iter().map(|e| e.row_key).collect();
    assert_eq!(keys, [line(2).row_key().unwrap()]);
}

fn event_log_dropping_a_month_again_is_not_an_error<B: Backend>(backend: &B) {
    event_log::run(backend).unwrap();
    let october = time::macros::datetime!(2026-10-15 00:00 UTC);
    let again = block_on(event_log::event_tables().drop_period(backend, october)).unwrap();
    assert_eq!(again.period.table, "Events202610");
    assert!(!again.existed);
    // November's events are all there: ten hours of it, two services, every 5 minutes.
    let november = event_log::event_tables()
        .table_for(october + time::Duration::days(20))
        .unwrap();
    // table-lint: allow(TK101, reason = "the test counts every entity of the period's table")
    let all = block_on(query_entities(backend, &november, &Query::all())).unwrap();
    assert_eq!(all.len(), 10 * 12 * 2);
}

fn saas_the_owner_list_lives_in_the_tenants_partition_and_the_assignee_list_in_its_own<
    B: Backend,
>(
    backend: &B,
) {
    saas::run(backend).unwrap();
    let owner = saas::projects_by_owner().keys_for("acme", "ann");
    assert_eq!(owner.partition_key, "acme");
    block_on(backend.get("Projects", &owner.partition_key, &owner.row_key, None))
        .expect("the owner list in the tenant's partition");
    let assignee = saas::tasks_by_assignee().keys_for("", &saas::assignee_value("acme", "bob"));
    assert!(assignee.partition_key.starts_with("idx_assignee_acme"));
    block_on(backend.get("Tasks", &assignee.partition_key, &assignee.row_key, None))
        .expect("the assignee list in a partition of its own");
    // No list mixes tenants.
    let globex = saas::tasks_by_assignee().keys_for("", &saas::assignee_value("globex", "bob"));
    assert_ne!(globex.partition_key, assignee.partition_key);
}

fn records_a_mover_that_dies_halfway_is_finished_by_the_next<B: Backend>(backend: &B) {
    use std::time::Duration;

    use records::{ARCHIVE, CURRENT, EmployeeRecord, Records};
    use table_runtime::archive::ArchiveQueue;
    use table_runtime::blob::{BlobQueue, BlobStore};
    use table_runtime::queue::{Clock, QueueOptions, Steps, WorkOutcome};

    block_on(records::create_tables(backend)).unwrap();
    let clock = Clock::manual();
    let options = QueueOptions {
        visibility_timeout: Duration::from_secs(30),
        max_dequeue_count: 5,
    };
    let blobs = BlobStore::new();
    let blob_queue = BlobQueue::with_clock(options, clock.clone());
    let archive_queue = ArchiveQueue::with_clock(options, clock.clone());
    let records = Records::new(backend, &blobs, &blob_queue, &archive_queue);
    let current = records.table(CURRENT).unwrap();
    let dan = EmployeeRecord {
        department: "Ops".into(),
        employee_id: 4,
        name: "Dan".into(),
        photo: vec![1; 100_000],
    };
    block_on(current.insert(&dan)).unwrap();
    block_on(records.leave(&dan)).unwrap();
    let ids = |table| block_on(records::ids(backend, table)).unwrap();
    // Killed after copying into the archive, before deleting from the current table.
    assert_eq!(
        block_on(records.mover().run_once(&mut Steps::crash_after(2))),
        WorkOutcome::Crashed
    );
    assert_eq!(ids(CURRENT), [4]);
    assert_eq!(ids(ARCHIVE), [4]);
    clock.advance(options.visibility_timeout);
    assert_eq!(block_on(records.mover().run_until_idle()).done, 1);
    block_on(records.cleaner().run_until_idle());
    assert!(ids(CURRENT).is_empty());
    let archive = records.table(ARCHIVE).unwrap();
    let back = block_on(archive.get(&dan.key())).unwrap();
    assert_eq!(back, Some(dan));
    assert!(block_on(archive.check_blobs()).unwrap().is_consistent());
}

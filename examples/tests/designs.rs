//! Design snapshots: each example entity's `design()` (keys with example values, indexes,
//! every generated query and its filter), and the code the derive generates for one example
//! file. A change to a key template shows up here as a diff.

use examples::{event_log, hr, iot, orders, records, saas};
use table_runtime::TableEntity;

#[test]
fn hr_designs() {
    insta::assert_snapshot!("hr_employee", hr::Employee::design());
    insta::assert_snapshot!("hr_department", hr::Department::design());
    insta::assert_snapshot!("hr_employee_review", hr::EmployeeReview::design());
    insta::assert_snapshot!("hr_entity", hr::HrEntity::design());
}

#[test]
fn iot_design() {
    insta::assert_snapshot!("iot_reading", iot::Reading::design());
}

#[test]
fn orders_designs() {
    insta::assert_snapshot!("orders_order", orders::Order::design());
    insta::assert_snapshot!("orders_order_line", orders::OrderLine::design());
    insta::assert_snapshot!("orders_customer_entity", orders::CustomerEntity::design());
}

#[test]
fn saas_designs() {
    insta::assert_snapshot!("saas_project", saas::Project::design());
    insta::assert_snapshot!("saas_task", saas::Task::design());
}

#[test]
fn event_log_design() {
    insta::assert_snapshot!("event_log_event", event_log::Event::design());
}

#[test]
fn records_design() {
    insta::assert_snapshot!("records_employee_record", records::EmployeeRecord::design());
}

#[test]
fn code_generated_for_the_orders_example() {
    insta::assert_snapshot!(
        table_derive_internals::expand_source(include_str!("../src/orders.rs")).unwrap()
    );
}

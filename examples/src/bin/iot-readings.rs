//! Runs the IoT readings design against the in-process store and prints what each query cost.

use examples::iot;
use table_runtime::{Store, TableEntity};

fn main() -> Result<(), table_runtime::StoreError> {
    let report = iot::run(&Store::new())?;
    println!(
        "table {}: {} readings written for 3 devices",
        iot::Reading::TABLE,
        report.written
    );
    println!(
        "latest 3 readings of dev-001: {:?} °C  ({}, examined {})",
        report.latest, report.latest_plan.0, report.latest_plan.1
    );
    println!(
        "dev-002 between 01:00 and 02:00: {} readings  ({}, examined {})",
        report.window_count, report.window_plan.0, report.window_plan.1
    );
    println!(
        "readings above 30 °C on any device: {}  ({}, examined {})",
        report.hot_count, report.hot_plan.0, report.hot_plan.1
    );
    Ok(())
}

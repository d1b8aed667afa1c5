//! Runs the IoT readings design against the in-process store and prints what each query cost.

use examples::iot;
use table_runtime::{Store, TableEntity};

fn main() -> Result<(), table_runtime::StoreError> {
    let store = Store::new();
    let report = iot::run(&store)?;
    // How many entities each query examined: statistics only the in-process store keeps.
    let costs = iot::query_costs(&store)?;
    println!(
        "table {}: {} readings written for 3 devices",
        iot::Reading::TABLE,
        report.written
    );
    println!(
        "latest 3 readings of dev-001: {:?} °C  ({}, examined {})",
        report.latest, costs.latest.class, costs.latest.examined
    );
    println!(
        "dev-002 between 01:00 and 02:00: {} readings  ({}, examined {})",
        report.window_count, costs.window.class, costs.window.examined
    );
    println!(
        "readings above 30 °C on any device: {}  ({}, examined {})",
        report.hot_count, costs.hot.class, costs.hot.examined
    );
    Ok(())
}

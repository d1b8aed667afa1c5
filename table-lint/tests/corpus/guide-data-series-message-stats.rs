//! The design guide's data series pattern: an employee's IM message counts for each hour of the
//! last day stored as 24 properties of one entity, updated with merge. Source:
//! /work/shared/seeds/003_12f0337a9bd846f3.txt, "Data series pattern".

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "MessageStats", partition_key = "{department}", row_key = "{employee_id:06}")]
struct MessageStats {
    department: String,
    #[table(max = 999_999)]
    employee_id: u32,
    #[table(rename = "Count00")]
    count_00: i32,
    #[table(rename = "Count01")]
    count_01: i32,
    #[table(rename = "Count02")]
    count_02: i32,
    #[table(rename = "Count03")]
    count_03: i32,
    #[table(rename = "Count04")]
    count_04: i32,
    #[table(rename = "Count05")]
    count_05: i32,
    #[table(rename = "Count06")]
    count_06: i32,
    #[table(rename = "Count07")]
    count_07: i32,
    #[table(rename = "Count08")]
    count_08: i32,
    #[table(rename = "Count09")]
    count_09: i32,
    #[table(rename = "Count10")]
    count_10: i32,
    #[table(rename = "Count11")]
    count_11: i32,
    #[table(rename = "Count12")]
    count_12: i32,
    #[table(rename = "Count13")]
    count_13: i32,
    #[table(rename = "Count14")]
    count_14: i32,
    #[table(rename = "Count15")]
    count_15: i32,
    #[table(rename = "Count16")]
    count_16: i32,
    #[table(rename = "Count17")]
    count_17: i32,
    #[table(rename = "Count18")]
    count_18: i32,
    #[table(rename = "Count19")]
    count_19: i32,
    #[table(rename = "Count20")]
    count_20: i32,
    #[table(rename = "Count21")]
    count_21: i32,
    #[table(rename = "Count22")]
    count_22: i32,
    #[table(rename = "Count23")]
    count_23: i32,
}

/// The whole 24-hour series of one employee: one point query.
fn series_of_000123() -> Query {
    Query::filter("PartitionKey eq 'Sales' and RowKey eq '000123'").unwrap()
}

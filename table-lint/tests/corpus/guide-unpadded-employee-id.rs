//! The sorting problem the design guide warns about: integer employee ids used as RowKeys without
//! padding, then read as a numeric range. Source: /work/shared/seeds/003_12f0337a9bd846f3.txt,
//! "Sort data in Table storage" (pad 123 to 00000123) and "Intra-partition secondary index
//! pattern" (padding enables filtering on upper and lower bounds).

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "{employee_id:unpadded}")]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    /// `employeeId.ToString()`: 123, not 00000123.
    employee_id: u32,
    first_name: String,
    last_name: String,
}

/// Employees 100 to 199, written against unpadded ids.
fn ids_100_to_199() -> Query {
    Query::filter("PartitionKey eq 'Sales' and RowKey ge '100' and RowKey le '199'").unwrap()
}

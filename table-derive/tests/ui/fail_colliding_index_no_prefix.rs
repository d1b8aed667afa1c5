use table_runtime::TableEntity;

// The primary RowKey has no literal prefix, so an employee id could look like an index row.
#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "{employee_id}")]
#[table(index(name = "by_email", row_key = "email_{email}"))]
struct Employee {
    department: String,
    employee_id: String,
    email: String,
}

fn main() {}

use table_runtime::TableEntity;

// `e` starts `emp_`: an email `mp_...` would give the same RowKey as an employee.
#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "emp_{employee_id}")]
#[table(index(name = "by_email", row_key = "e{email}"))]
struct Employee {
    department: String,
    employee_id: u32,
    email: String,
}

fn main() {}

use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:escaped}")]
struct Employee {
    department: String,
    employee_id: u32,
}

fn main() {}

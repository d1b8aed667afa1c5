use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id}")]
struct Employee {
    department: String,
    employee_id: Option<u32>,
    name: String,
}

fn main() {}

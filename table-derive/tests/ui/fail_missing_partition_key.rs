use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Employees", row_key = "empid_{employee_id:06}")]
struct Employee {
    department: String,
    employee_id: u32,
}

fn main() {}

use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]
struct Employee {
    department: String,
    #[table(max = 9_999_999)]
    employee_id: u32,
}

fn main() {}

use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "{last_name}{employee_id}")]
struct Employee {
    department: String,
    last_name: String,
    employee_id: u32,
}

fn main() {}

use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]
struct Employee<T> {
    department: String,
    employee_id: u32,
    extra: T,
}

fn main() {}

use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "{employee_id:unpadded}")]
struct Employee {
    department: String,
    employee_id: String,
}

fn main() {}

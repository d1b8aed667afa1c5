use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "dept#{department}", row_key = "emp_{employee_id}")]
struct Employee {
    department: String,
    employee_id: u32,
}

fn main() {}

use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]
#[table(index(name = "by_email", row_key = "email_{email}"))]
#[table(index(name = "by_email", partition_key = "email_{department}", row_key = "{email}"))]
struct Employee {
    department: String,
    employee_id: u32,
    email: String,
}

fn main() {}

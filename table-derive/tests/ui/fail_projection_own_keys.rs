use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "{employee_id}")]
struct Employee {
    department: String,
    employee_id: u32,
}

#[derive(TableEntity)]
#[table(projection_of = "Employee", partition_key = "{department}")]
struct Badge {
    department: String,
}

fn main() {}

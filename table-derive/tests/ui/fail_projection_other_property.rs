use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "{employee_id}")]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    employee_id: u32,
    name: String,
}

// Without the design's `rename_all`, `name` would be read from `name`, not `Name`.
#[derive(TableEntity)]
#[table(projection_of = "Employee")]
struct Badge {
    name: String,
}

fn main() {}

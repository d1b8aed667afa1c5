use table_runtime::TableEntity;

// Every problem is reported in one compilation, each at its own literal or field.
#[derive(TableEntity)]
#[table(name = "x", partition_key = "dept/{department}", row_key = "{employe_id}")]
#[table(index(name = "by_email", row_key = "{email:06}"))]
struct Employee {
    department: String,
    employee_id: u32,
    email: String,
    #[table(rename = "Row Key")]
    note: String,
}

fn main() {}

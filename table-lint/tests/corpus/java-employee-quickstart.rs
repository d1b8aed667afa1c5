//! azuredevelopment (Java, azure-data-tables): an Employee table quickstart.
//! Source: https://github.com/phebbal/azuredevelopment/blob/2083988471a9a2f41f5043a9ed983fea5712fd52/src/main/java/com/blobs/quickstart/ew/App.java
//! and src/main/java/com/blobs/quickstart/ew/AzureTableStorageTest.java.
//!
//! `client.addEntity("Employee", "Department", "EmpCode", properties)` passes the literal
//! strings "Department" and "EmpCode" as PartitionKey and RowKey (the property names, not their
//! values); getEntityData lists the table with only a `$select`.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Employee", partition_key = "Department", row_key = "EmpCode")]
struct Employee {
    #[table(rename = "Name")]
    name: String,
    #[table(rename = "EmpCode")]
    emp_code: i32,
    #[table(rename = "Department")]
    department: String,
    #[table(rename = "Phone")]
    phone: String,
}

/// getEntityData: `tableclient.listEntities(options, null, null)` with a select list only.
fn all_employees() -> Query {
    Query::all()
}

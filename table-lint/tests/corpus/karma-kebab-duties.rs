//! Karma Kebab duty-service (Go, aztables): the catalogue of duties per staff role of a
//! food-truck business, from a student microservices project. Sources (commit
//! 309034e9a20229f3fd0439b85a7a638cba52ac4d of https://github.com/Catalin246/karma-kebab):
//! https://github.com/Catalin246/karma-kebab/blob/309034e9a20229f3fd0439b85a7a638cba52ac4d/duty-service/repositories/duty_repository.go,
//! with duty-service/models/duty.go, duty-service/handlers/duty_handler.go,
//! duty-service/services/duty_service.go and duty-service/services/duty_assignment_service.go.
//!
//! One table, `duties`: PartitionKey = `Duty` (the handler's default when the request names
//! none), RowKey = a new UUID; properties RoleId (an integer role code from the employee
//! service), DutyName and DutyDescription. The list endpoint sends `Name eq '<name>'` when a name
//! is given and no filter otherwise; on every clock-in the assignment service reads the duties of
//! the employee's role with `RoleId eq <n>` and no PartitionKey. A duty is read, replaced and
//! deleted by its keys from the URL; new duties are added with AddEntity by an administrator.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "duties", partition_key = "Duty", row_key = "{duty_id}")]
#[table(rename_all = "PascalCase")]
struct Duty {
    duty_id: Uuid,
    /// The role's number in the employee service's enum.
    role_id: i32,
    duty_name: String,
    duty_description: String,
}

/// GetAllDuties with a name: the filter names a property the rows do not have.
fn duties_named(name: &str) -> Query {
    Query::filter(&format!("Name eq '{}'", name)).unwrap()
}

/// GetAllDuties with no name.
fn all_duties() -> Query {
    Query::all()
}

/// GetDutiesByRole, on every clock-in.
fn duties_of_role(role_id: i32) -> Query {
    Query::filter(&format!("RoleId eq {}", role_id)).unwrap()
}

/// GetDutyById.
fn duty(partition: &str, duty_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", partition, duty_id)).unwrap()
}

/// CreateDuty (AddEntity), UpdateDuty (UpdateEntity, default merge, any ETag), DeleteDuty.
async fn writes<B: Backend>(table: &Table<'_, B, Duty>, row: &Duty, key: &<Duty as TableEntity>::Key) {
    let _ = table.insert(row).await;
    let _ = table.merge(row, IfMatch::Any).await;
    let _ = table.delete(key, IfMatch::Any).await;
}

//! Karma Kebab duty-service (Go, aztables): the checklist of duties each staff shift has to do
//! (clean the grill, restock, …), created when an employee clocks in and ticked off during the
//! shift, from a student microservices project. Sources (commit
//! 309034e9a20229f3fd0439b85a7a638cba52ac4d of https://github.com/Catalin246/karma-kebab):
//! https://github.com/Catalin246/karma-kebab/blob/309034e9a20229f3fd0439b85a7a638cba52ac4d/duty-service/repositories/duty_assignment_repository.go,
//! with duty-service/models/duty_assignment.go and duty-service/services/duty_assignment_service.go.
//!
//! One table, `dutyAssignments`: PartitionKey = the shift's id (a UUID), RowKey = a new UUID per
//! assignment; properties DutyAssignmentStatus (Completed or Incomplete), and the optional
//! DutyAssignmentImageUrl (a blob named after the two keys) and DutyAssignmentNote. On a
//! clock-in message the service reads the duties of the employee's role and adds one assignment
//! per duty with AddEntity, one request each. The shift's checklist is read with
//! `PartitionKey eq '<shift id>'`; ticking a duty off merges the status, photo URL and note into
//! the row by its keys (UpdateEntity, merge); an assignment is deleted by its keys.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "dutyAssignments", partition_key = "{shift_id}", row_key = "{assignment_id}")]
#[table(rename_all = "PascalCase")]
struct DutyAssignment {
    /// The shift the checklist belongs to.
    shift_id: Uuid,
    /// `uuid.New()` per assignment (the model's comment calls it the duty id).
    assignment_id: Uuid,
    /// Completed or Incomplete.
    duty_assignment_status: String,
    duty_assignment_image_url: Option<String>,
    duty_assignment_note: Option<String>,
}

/// GetAllDutyAssignmentsByShiftId: the checklist of one shift.
fn checklist(shift_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", shift_id)).unwrap()
}

/// CreateDutyAssignments (one AddEntity per duty), UpdateDutyAssignment (merge, no ETag),
/// DeleteDutyAssignment.
async fn writes<B: Backend>(
    table: &Table<'_, B, DutyAssignment>,
    row: &DutyAssignment,
    key: &<DutyAssignment as TableEntity>::Key,
) {
    let _ = table.insert(row).await;
    let _ = table.merge(row, IfMatch::Any).await;
    let _ = table.delete(key, IfMatch::Any).await;
}

//! Multi-tenant SaaS: every tenant's data in its own partitions, never a scan across tenants.
//!
//! Patterns (see the design guides): the tenant id leads every PartitionKey
//! (`{tenant_id}_{project_id}`), so one tenant's load spreads over its projects' partitions and
//! no query for one tenant can touch another's partitions; a tenant's projects list is its own
//! partition (`{tenant_id}`) with one entity per project. Task ids are zero-padded, so "tasks 100
//! to 199 of a project" is a RowKey range, and a compound RowKey (`{status}_{task_id}`) in a
//! *same-partition index* answers "open tasks of a project" with a range too.

use table_runtime::{QueryClass, Store, StoreError, TableEntity};

/// A project of a tenant.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Projects",
    partition_key = "{tenant_id}",
    row_key = "project_{project_id:06}"
)]
#[table(rename_all = "PascalCase")]
#[table(allow(TK005, reason = "a tenant has fewer than 1,000,000 projects"))]
pub struct Project {
    /// The tenant (the partition).
    #[table(max_len = 64)]
    pub tenant_id: String,
    /// The project's number within the tenant.
    pub project_id: u32,
    /// Its name.
    pub name: String,
}

/// A task of a project.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Tasks",
    partition_key = "{tenant_id}_{project_id:06}",
    row_key = "task_{task_id:08}"
)]
#[table(index(name = "by_status", row_key = "status_{status}_{task_id:08}"))]
#[table(rename_all = "PascalCase")]
#[table(allow(
    TK005,
    reason = "project and task numbers stay below the widths; a larger one is refused, never mis-sorted"
))]
pub struct Task {
    /// The tenant.
    #[table(max_len = 64)]
    pub tenant_id: String,
    /// The project.
    pub project_id: u32,
    /// The task's number within the project.
    pub task_id: u32,
    /// `open` or `done`.
    #[table(max_len = 16)]
    pub status: String,
    /// What to do.
    pub title: String,
}

/// What [`run`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Names of tenant `acme`'s projects.
    pub acme_projects: Vec<String>,
    /// Task ids 100..200 of acme's project 1.
    pub task_range: Vec<u32>,
    /// Open tasks of acme's project 1, by the status index.
    pub open_tasks: Vec<u32>,
    /// The partition every query touched, and its class.
    pub plans: Vec<(String, QueryClass)>,
}

/// Loads two tenants and answers one tenant's questions without touching the other.
pub fn run(store: &Store) -> Result<Report, StoreError> {
    store.create_table(Project::TABLE)?;
    store.create_table(Task::TABLE)?;
    for (tenant, names) in [
        ("acme", ["Website", "Billing"]),
        ("globex", ["Ops", "Infra"]),
    ] {
        for (i, name) in names.iter().enumerate() {
            let p = Project {
                tenant_id: tenant.into(),
                project_id: i as u32 + 1,
                name: (*name).into(),
            };
            store.insert(Project::TABLE, &p.to_entity()?)?;
            for task_id in (50..250).step_by(25) {
                let task = Task {
                    tenant_id: tenant.into(),
                    project_id: p.project_id,
                    task_id,
                    status: if task_id % 50 == 0 {
                        "open".into()
                    } else {
                        "done".into()
                    },
                    title: format!("task {task_id}"),
                };
                // The task and its status copy share a partition: one transaction.
                let mut ops = vec![table_runtime::BatchOperation::Insert(task.to_entity()?)];
                ops.extend(
                    task.index_entities()?
                        .into_iter()
                        .map(|c| table_runtime::BatchOperation::Insert(c.entity)),
                );
                store.execute_batch(Task::TABLE, &ops)?;
            }
        }
    }

    let projects_q = Project::partition_query("acme")?;
    let acme_projects = store
        .query_all(Project::TABLE, &projects_q.to_query()?)?
        .iter()
        .map(|e| Project::from_entity(e).map(|p| p.name))
        .collect::<Result<_, _>>()?;
    let range_q = Task::range_by_task_id("acme", 1, 100..200)?;
    let task_range = store
        .query_all(Task::TABLE, &range_q.to_query()?)?
        .iter()
        .map(|e| Task::from_entity(e).map(|t| t.task_id))
        .collect::<Result<_, _>>()?;
    let open_q = Task::by_status_range_by_task_id("acme", 1, "open", ..)?;
    let open_tasks = store
        .query_all(Task::TABLE, &open_q.to_query()?)?
        .iter()
        .map(|e| Task::from_entity(e).map(|t| t.task_id))
        .collect::<Result<_, _>>()?;
    let plans = [projects_q, range_q, open_q]
        .iter()
        .map(|q| (q.partition_key().to_owned(), q.class()))
        .collect();
    Ok(Report {
        acme_projects,
        task_range,
        open_tasks,
        plans,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_tenant_never_reads_another() {
        let report = run(&Store::new()).unwrap();
        assert_eq!(report.acme_projects, ["Website", "Billing"]);
        assert_eq!(report.task_range, [100, 125, 150, 175]);
        assert_eq!(report.open_tasks, [50, 100, 150, 200]);
        assert_eq!(
            report.plans,
            [
                ("acme".to_owned(), QueryClass::PartitionScan),
                ("acme _000001".to_owned(), QueryClass::RangeQuery),
                ("acme _000001".to_owned(), QueryClass::RangeQuery),
            ]
        );
    }
}

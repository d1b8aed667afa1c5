//! Multi-tenant SaaS: every tenant's data in its own partitions, never a scan across tenants.
//!
//! Patterns (see the design guides): the tenant id leads every PartitionKey
//! (`{tenant_id}_{project_id}`), so one tenant's load spreads over its projects' partitions and
//! no query for one tenant can touch another's partitions; a tenant's projects list is its own
//! partition (`{tenant_id}`) with one entity per project. Task ids are zero-padded, so "tasks 100
//! to 199 of a project" is a RowKey range, and a compound RowKey (`{status}_{task_id}`) in a
//! *same-partition index* answers "open tasks of a project" with a range too.
//!
//! Two *index entities* answer "which ones have this value" without a scan: a tenant's projects
//! by owner, listed in the tenant's own partition and kept in the same transaction as each
//! project (the guide's option 2), and a tenant's tasks by assignee across all its projects,
//! listed in a partition of their own and kept through a queue (option 3).

use pollster::block_on;
use table_runtime::index::entities::{IdListIndex, IdListJob, IdListWorker, Placement};
use table_runtime::queue::Queue;
use table_runtime::{Backend, QueryClass, StoreError, Table, TableEntity};

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
    /// Who owns it (listed by the `owner` index entities).
    pub owner: String,
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
    /// Who works on it (listed tenant-wide by the `assignee` index entities).
    pub assignee: String,
}

/// The owner index: a tenant's projects by owner, in the tenant's partition.
pub fn projects_by_owner() -> IdListIndex<Project> {
    IdListIndex::new("owner", |p| p.owner.clone(), Placement::SamePartition)
}

/// The assignee index: a tenant's tasks by assignee across its projects, in partitions of
/// their own (the value is tenant and assignee, so tenants never share a list).
pub fn tasks_by_assignee() -> IdListIndex<Task> {
    IdListIndex::new(
        "assignee",
        |t| assignee_value(&t.tenant_id, &t.assignee),
        Placement::OwnPartition,
    )
}

/// The indexed value of the assignee index for one tenant's person.
pub fn assignee_value(tenant_id: &str, assignee: &str) -> String {
    format!("{tenant_id}/{assignee}")
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
    /// Acme's projects owned by `ann`, through the owner index entity.
    pub owned_by_ann: Vec<String>,
    /// Acme's tasks assigned to `bob` in any project, as (project, task), through the assignee
    /// index entity.
    pub bobs_tasks: Vec<(u32, u32)>,
    /// Bob's tasks at acme after one of them moved to `cy`.
    pub bobs_tasks_after_handover: usize,
    /// The partition every query touched, and its class.
    pub plans: Vec<(String, QueryClass)>,
}

/// Loads two tenants and answers one tenant's questions without touching the other.
pub fn run<B: Backend>(backend: &B) -> Result<Report, StoreError> {
    block_on(run_async(backend))
}

async fn run_async<B: Backend>(backend: &B) -> Result<Report, StoreError> {
    let projects = Table::<_, Project>::new(backend);
    let tasks = Table::<_, Task>::new(backend);
    projects.create().await?;
    tasks.create().await?;
    let owners = projects_by_owner();
    let assignees = tasks_by_assignee();
    let jobs: Queue<IdListJob> = Queue::default();
    let tenant_lists = assignees.eventual(&jobs);
    for (tenant, names) in [
        ("acme", ["Website", "Billing"]),
        ("globex", ["Ops", "Infra"]),
    ] {
        for (i, name) in names.iter().enumerate() {
            let p = Project {
                tenant_id: tenant.into(),
                project_id: i as u32 + 1,
                name: (*name).into(),
                owner: ["ann", "dan"][i % 2].into(),
            };
            // The project and its owner list change in one transaction.
            owners.insert(&projects, &p).await?;
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
                    assignee: if task_id % 100 == 0 { "bob" } else { "eve" }.into(),
                };
                // The task and its status copy share a partition: one transaction; the
                // tenant-wide assignee list follows through the queue.
                tenant_lists.upsert(&tasks, &task).await?;
            }
        }
    }
    let worker = IdListWorker::new(backend, &assignees, &jobs);
    worker.run_until_idle().await;

    let projects_q = Project::partition_query("acme")?;
    let acme_projects = projects
        .query_all(&projects_q)
        .await?
        .into_iter()
        .map(|p| p.name)
        .collect();
    let range_q = Task::range_by_task_id("acme", 1, 100..200)?;
    let task_range = tasks
        .query_all(&range_q)
        .await?
        .into_iter()
        .map(|t| t.task_id)
        .collect();
    let open_q = Task::by_status_range_by_task_id("acme", 1, "open", ..)?;
    let open_tasks = tasks
        .query_all(&open_q)
        .await?
        .into_iter()
        .map(|t| t.task_id)
        .collect();
    let owned_by_ann = owners
        .lookup(&projects, "acme", "ann")
        .await?
        .into_iter()
        .map(|p| p.name)
        .collect();
    let bob = assignee_value("acme", "bob");
    let bobs = assignees.lookup(&tasks, "", &bob).await?;
    let bobs_tasks = bobs.iter().map(|t| (t.project_id, t.task_id)).collect();
    // Bob hands one task over; the lists catch up once the worker has run.
    if let Some(first) = bobs.first() {
        let handed = Task {
            assignee: "cy".into(),
            ..first.clone()
        };
        tenant_lists.upsert(&tasks, &handed).await?;
        worker.run_until_idle().await;
    }
    let bobs_tasks_after_handover = assignees.ids(&tasks, "", &bob).await?.len();
    let plans = [projects_q, range_q, open_q]
        .iter()
        .map(|q| (q.partition_key().to_owned(), q.class()))
        .collect();
    Ok(Report {
        acme_projects,
        task_range,
        open_tasks,
        owned_by_ann,
        bobs_tasks,
        bobs_tasks_after_handover,
        plans,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use table_runtime::Store;

    #[test]
    fn one_tenant_never_reads_another() {
        let report = run(&Store::new()).unwrap();
        assert_eq!(report.acme_projects, ["Website", "Billing"]);
        assert_eq!(report.task_range, [100, 125, 150, 175]);
        assert_eq!(report.open_tasks, [50, 100, 150, 200]);
        assert_eq!(report.owned_by_ann, ["Website"]);
        assert_eq!(report.bobs_tasks, [(1, 100), (1, 200), (2, 100), (2, 200)]);
        assert_eq!(report.bobs_tasks_after_handover, 3);
        assert_eq!(
            report.plans,
            [
                ("acme".to_owned(), QueryClass::PartitionScan),
                ("acme_000001".to_owned(), QueryClass::RangeQuery),
                ("acme_000001".to_owned(), QueryClass::RangeQuery),
            ]
        );
    }
}

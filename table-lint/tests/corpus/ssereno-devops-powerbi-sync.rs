//! AzureDevOpsToTableStorage (C#, Azure.Data.Tables): a console tool that copies the user
//! stories, tasks, bugs, areas, iterations and sprint capacities of configured Azure DevOps
//! projects into Table storage, for a Power BI report to read (Ssereno). Sources (commit
//! e518dbd4c47eb9737da01ce2f900a0bf0f81c0a3 of
//! https://github.com/Ssereno/AzureDevOpsToTableStorage):
//! https://github.com/Ssereno/AzureDevOpsToTableStorage/blob/e518dbd4c47eb9737da01ce2f900a0bf0f81c0a3/AzureDevOpsToPoweBI/Manager/AzureTableManager.cs,
//! with AzureDevOpsToPoweBI/Program.cs, Manager/UserStoryManager.cs, TaskManager.cs,
//! BugManager.cs, AreaManager.cs, IterationManager.cs, SprintCapacityManager.cs,
//! Entities/*.cs, AzureEntities/TableUserStory.cs and App.config.
//!
//! Every entity has PartitionKey = the project key of the app.config entry; the RowKey is the
//! work item id (`WorkItemId.ToString()`) for UserStories, Tasks and Bugs, the AreaSK GUID for
//! Areas, the IterationSK GUID for Iteration and the iteration id for SprintCapacity. The user
//! picks a mode at start:
//! 1. by date: in each work-item table, every row with `CreatedDate ge '<sync date>'` is found
//!    by a query and deleted one by one; then each project's items created since the date are
//!    fetched from DevOps and added in concurrent 100-row transactions;
//! 2. by state: every row with `State ne 'Closed'` is found and deleted one by one, then each
//!    project's items are upserted (merge) one request per item;
//! 3. full: each work-item table is read whole and every row deleted one by one, then
//!    everything is added in 100-row transactions.
//! In every mode areas, iterations and sprint capacities are upserted one by one.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "UserStories", partition_key = "{project_key}", row_key = "{work_item_id:unpadded}")]
#[table(rename_all = "PascalCase")]
struct UserStory {
    #[table(max_len = 50)]
    project_key: String,
    work_item_id: i32,
    title: String,
    state: String,
    work_item_type: Option<String>,
    story_points: Option<f64>,
    lead_time_days: Option<f64>,
    cycle_time_days: Option<f64>,
    created_date: Option<String>,
    resolved_date: Option<String>,
    #[table(rename = "AreaSK")]
    area_sk: String,
    #[table(rename = "IterationSK")]
    iteration_sk: String,
    activated_date: Option<String>,
    closed_date: Option<String>,
    parent_work_item_id: Option<i32>,
    tag_names: Option<String>,
    completed_date: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "Tasks", partition_key = "{project_key}", row_key = "{work_item_id:unpadded}")]
#[table(rename_all = "PascalCase")]
struct TfsTasks {
    #[table(max_len = 50)]
    project_key: String,
    work_item_id: i32,
    title: Option<String>,
    state: Option<String>,
    work_item_type: Option<String>,
    #[table(rename = "AreaSK")]
    area_sk: Option<String>,
    #[table(rename = "IterationSK")]
    iteration_sk: Option<String>,
    tag_names: Option<String>,
    parent_work_item_id: Option<i32>,
    original_estimate: Option<f64>,
    completed_work: Option<f64>,
    created_date: Option<String>,
    closed_date: Option<String>,
    completed_date: String,
}

#[derive(TableEntity)]
#[table(name = "Bugs", partition_key = "{project_key}", row_key = "{work_item_id:unpadded}")]
#[table(rename_all = "PascalCase")]
struct Bug {
    #[table(max_len = 50)]
    project_key: String,
    work_item_id: i32,
    title: Option<String>,
    state: String,
    #[table(rename = "AreaSK")]
    area_sk: String,
    #[table(rename = "IterationSK")]
    iteration_sk: String,
    created_date: String,
    activated_date: String,
    closed_date: String,
    resolved_date: String,
    completed_date: String,
    severity: String,
    parent_work_item_id: Option<String>,
    #[table(rename = "Custom_BugType")]
    custom_bug_type: Option<String>,
    #[table(rename = "Custom_TicketID")]
    custom_ticket_id: Option<String>,
    #[table(rename = "Custom_TicketPriority")]
    custom_ticket_priority: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "Areas", partition_key = "{project_key}", row_key = "{area_sk}")]
#[table(rename_all = "PascalCase")]
struct Area {
    #[table(max_len = 50)]
    project_key: String,
    /// The Analytics AreaSK, a GUID.
    #[table(rename = "AreaSK", max_len = 36)]
    area_sk: String,
    area_path: String,
    area_id: String,
}

#[derive(TableEntity)]
#[table(name = "Iteration", partition_key = "{project_key}", row_key = "{iteration_sk}")]
#[table(rename_all = "PascalCase")]
struct Iteration {
    #[table(max_len = 50)]
    project_key: String,
    /// The Analytics IterationSK, a GUID.
    #[table(rename = "IterationSK", max_len = 36)]
    iteration_sk: String,
    iteration_name: String,
    iteration_path: String,
    start_date: Option<String>,
    end_date: Option<String>,
    sprint_hours_capacity: Option<f64>,
}

/// Mode 3, DeleteAllEntitiesAsync on each work-item table: every row, page by page, deleted
/// one request at a time.
async fn full_update_clear<B: Backend>(backend: &B) {
    let everything = Query::all();
    for table in [UserStory::TABLE, TfsTasks::TABLE, Bug::TABLE] {
        let page = backend.query_page(table, &everything).await.unwrap();
        for row in page.entities {
            let _ = backend
                .write(
                    table,
                    BatchOperation::Delete {
                        partition_key: row.partition_key,
                        row_key: row.row_key,
                        if_match: IfMatch::Any,
                    },
                )
                .await;
        }
    }
}

/// Modes 1 and 2, DeleteAllEntitieswithWithFilterAsync: the rows created since the sync date,
/// or not closed, in every project, deleted one request at a time.
async fn filtered_clear<B: Backend>(backend: &B, sync_date: &str) {
    let since = Query::filter(&format!("CreatedDate ge '{}'", sync_date)).unwrap();
    let open = Query::filter("State ne 'Closed'").unwrap();
    for query in [&since, &open] {
        for table in [UserStory::TABLE, TfsTasks::TABLE, Bug::TABLE] {
            let page = backend.query_page(table, query).await.unwrap();
            for row in page.entities {
                let _ = backend
                    .write(
                        table,
                        BatchOperation::Delete {
                            partition_key: row.partition_key,
                            row_key: row.row_key,
                            if_match: IfMatch::Any,
                        },
                    )
                    .await;
            }
        }
    }
}

/// Modes 1 and 3, InsertIntoAzureTableBulkAsync: one project's stories added in transactions
/// of up to 100 (all in that project's partition).
async fn bulk_add<B: Backend>(backend: &B, stories: &[UserStory]) {
    for chunk in stories.chunks(100) {
        let ops = chunk
            .iter()
            .map(|s| BatchOperation::Insert(s.to_entity().unwrap()))
            .collect();
        let _ = backend.execute_batch(UserStory::TABLE, ops).await;
    }
}

/// Mode 2 and the reference tables, UpsertIntoAzureTableAsync: one upsert per row.
async fn upserts<B: Backend>(
    stories: &Table<'_, B, UserStory>,
    tasks: &Table<'_, B, TfsTasks>,
    bugs: &Table<'_, B, Bug>,
    areas: &Table<'_, B, Area>,
    iterations: &Table<'_, B, Iteration>,
    story: &UserStory,
    task: &TfsTasks,
    bug: &Bug,
    area: &Area,
    iteration: &Iteration,
) {
    let _ = stories.upsert(story).await;
    let _ = tasks.upsert(task).await;
    let _ = bugs.upsert(bug).await;
    let _ = areas.upsert(area).await;
    let _ = iterations.upsert(iteration).await;
}

//! Grow Your Skills (C#, ASP.NET Core Teams app, WindowsAzure.Storage, with Azure Cognitive
//! Search): a Microsoft Teams app in which employees post short projects that need skills and
//! colleagues join them. This is its project table. Sources (commit
//! 201faece1b8ca98af2012f52b7d4768ff9731ee5 of
//! https://github.com/OfficeDev/microsoft-teams-apps-growyourskills):
//! https://github.com/OfficeDev/microsoft-teams-apps-growyourskills/blob/201faece1b8ca98af2012f52b7d4768ff9731ee5/Source/Microsoft.Teams.Apps.Grow/Common/Providers/ProjectStorageProvider.cs,
//! with Source/Microsoft.Teams.Apps.Grow/Models/ProjectEntity.cs,
//! Common/Providers/BaseStorageProvider.cs, Common/SearchServices/ProjectSearchService.cs,
//! Controllers/ProjectController.cs, Controllers/ProjectWorkflowController.cs and
//! Bot/GrowActivityHandler.cs.
//!
//! Table `ProjectEntity`. PartitionKey = the creator's Azure AD object id (exposed as
//! CreatedByUserId), RowKey = the project id, a new GUID (exposed as ProjectId). Properties
//! Status (int), Title, Description, SupportDocuments, RequiredSkills (text lists), the start,
//! end, created, updated and closed dates, CreatedByName, TeamSize (1 to 20), IsRemoved, and the
//! participants as two `;`-joined strings. Every list, search and filter of projects (all
//! projects, my projects, joined projects, by skill, by team skills, the messaging extension) is
//! answered by an Azure Cognitive Search index that an indexer fills from this table (the indexer
//! is run on demand after every write, and treats IsRemoved = true as a deletion). The table
//! itself is read only by key: `PartitionKey eq '<creator>' and RowKey eq '<project>' and
//! IsRemoved eq false`, for editing, deleting, closing, joining and leaving a project (the join
//! card carries both ids). Writes: create, edit, soft delete (IsRemoved = true), join and leave
//! are InsertOrReplace of the entity as read and changed; closing a project and removing members
//! are Replace with the ETag read. The provider also has a whole-table query on IsRemoved and a
//! RowKey-only lookup, which nothing calls.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "ProjectEntity", partition_key = "{created_by_user_id}", row_key = "{project_id}")]
#[table(rename_all = "PascalCase")]
struct ProjectEntity {
    /// The creator's AAD object id (a GUID as text).
    #[table(max_len = 36)]
    created_by_user_id: String,
    /// `Guid.NewGuid().ToString()` at creation.
    #[table(max_len = 36)]
    project_id: String,
    /// The ProjectStatus enum as an int.
    status: i32,
    #[table(max_len = 100)]
    title: String,
    #[table(max_len = 400)]
    description: String,
    support_documents: Option<String>,
    required_skills: String,
    project_start_date: OffsetDateTime,
    project_end_date: OffsetDateTime,
    created_date: OffsetDateTime,
    created_by_name: String,
    updated_date: OffsetDateTime,
    team_size: i32,
    is_removed: bool,
    /// `;`-joined AAD object ids.
    project_participants_user_ids: Option<String>,
    /// `;`-joined `id:name` pairs.
    project_participants_user_mapping: Option<String>,
    project_closed_date: OffsetDateTime,
}

/// GetProjectAsync: one project by both keys, unless soft-deleted.
async fn project<B: Backend>(backend: &B, creator: &str, project: &str) {
    let q = Query::filter(&format!(
        "((PartitionKey eq '{}') and (RowKey eq '{}')) and (IsRemoved eq false)",
        creator, project
    ))
    .unwrap();
    let _ = backend.query_page(ProjectEntity::TABLE, &q).await;
}

/// UpsertProjectAsync (InsertOrReplace: create, edit, soft delete, join, leave) and
/// UpdateProjectAsync (Replace with the read ETag: close, remove members).
async fn writes<B: Backend>(
    projects: &Table<'_, B, ProjectEntity>,
    project: &ProjectEntity,
    etag: table_runtime::ETag,
) {
    let _ = projects.upsert(project).await;
    let _ = projects.replace(project, IfMatch::ETag(etag)).await;
}

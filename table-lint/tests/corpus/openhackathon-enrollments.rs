//! Open Hackathon (C#, WindowsAzure.Storage): the hackathon platform of Kaiyuanshe (the China
//! open source alliance); enrollments and team memberships of its API server. Source (commit
//! 945c4fd2755f5b0dea11e54eb649eeb37ec93d01 of https://github.com/kaiyuanshe/open-hackathon):
//! https://github.com/kaiyuanshe/open-hackathon/blob/945c4fd2755f5b0dea11e54eb649eeb37ec93d01/src/open-hackathon-server/Kaiyuanshe.OpenHackathon.Server/Biz/EnrollmentManagement.cs
//! with Biz/TeamManagement.cs, Storage/Entities/{EnrollmentEntity,TeamMemberEntity,AdvancedTableEntity}.cs,
//! Storage/Tables/{AzureTable,TeamMemberTable,TableNames}.cs and Models/Hackathon.cs under the
//! same server directory.
//!
//! `kysenrollment`: PartitionKey = the hackathon name (1 to 100 letters and digits, lower-cased),
//! RowKey = the user id; Status (an enum stored as an integer), Extensions (JSON) and CreatedAt.
//! Enroll is Insert; status and extension changes are Merge; the enrollment check and
//! GetEnrollmentAsync are Retrieve(hackathon, user); the organisers' list is `PartitionKey eq
//! '<hackathon>'` (optionally `and Status eq <n>`) with Take(top, default 100) and a
//! continuation token; for hackathons capped at 1,000 entrants the first page of the partition is
//! cached for four hours. `kysteammember`: PartitionKey = the hackathon name, RowKey = the user id
//! (one team per user per hackathon), TeamId, Role and Status; Insert when a team is created,
//! InsertOrMerge when a member joins, Merge on changes, Delete on leave, Retrieve(hackathon,
//! user); a team's members are `PartitionKey eq '<hackathon>' and TeamId eq '<team>'` (plus
//! optional Status/Role), cached for a minute, and the member count runs the same filter.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "kysenrollment", partition_key = "{hackathon_name}", row_key = "{user_id}")]
#[table(rename_all = "PascalCase")]
struct EnrollmentEntity {
    /// Letters and digits only, at most 100, lower-cased.
    #[table(max_len = 100)]
    hackathon_name: String,
    /// The platform's user id.
    #[table(max_len = 64)]
    user_id: String,
    /// `EnrollmentStatus`: pendingApproval, approved, rejected.
    status: i32,
    /// `Extension[]` as JSON.
    extensions: String,
    created_at: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "kysteammember", partition_key = "{hackathon_name}", row_key = "{user_id}")]
#[table(rename_all = "PascalCase")]
struct TeamMemberEntity {
    #[table(max_len = 100)]
    hackathon_name: String,
    #[table(max_len = 64)]
    user_id: String,
    /// The team's id (a GUID string).
    #[table(as_string)]
    team_id: Uuid,
    description: String,
    /// `TeamMemberRole`: admin or member.
    role: i32,
    /// `TeamMemberStatus`: pendingApproval or approved.
    status: i32,
    created_at: OffsetDateTime,
}

/// GetEnrollmentAsync / IsUserEnrolledAsync: `Retrieve(hackathon, user)`.
async fn enrollment<B: Backend>(backend: &B, hackathon: &str, user_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", hackathon, user_id)).unwrap();
    let _ = backend.query_page(EnrollmentEntity::TABLE, &q).await;
}

/// ListPaginatedEnrollmentsAsync: a hackathon's enrollments, optionally of one status.
async fn enrollments<B: Backend>(backend: &B, hackathon: &str, status: Option<i32>, top: usize) {
    let mut filter = format!("PartitionKey eq '{}'", hackathon);
    if let Some(status) = status {
        filter += &format!(" and Status eq {}", status);
    }
    let q = Query::filter(&filter).unwrap().top(top);
    let _ = backend.query_page(EnrollmentEntity::TABLE, &q).await;
}

/// CreateEnrollmentAsync: Insert; status and extension updates: Merge.
async fn enroll<B: Backend>(enrollments: &Table<'_, B, EnrollmentEntity>, entity: &EnrollmentEntity) {
    let _ = enrollments.insert(entity).await;
    let _ = enrollments.merge(entity, IfMatch::Any).await;
}

/// GetTeamMemberAsync: `Retrieve(hackathon, user)`.
async fn team_member<B: Backend>(backend: &B, hackathon: &str, user_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", hackathon, user_id)).unwrap();
    let _ = backend.query_page(TeamMemberEntity::TABLE, &q).await;
}

/// ListTeamMembersAsync / GetMemberCountAsync / ListPaginatedTeamMembersAsync.
async fn members_of_team<B: Backend>(backend: &B, hackathon: &str, team_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and TeamId eq '{}'", hackathon, team_id)).unwrap();
    let _ = backend.query_page(TeamMemberEntity::TABLE, &q).await;
}

/// CreateTeamAsync: Insert of the creator; CreateTeamMemberAsync: InsertOrMerge; updates: Merge;
/// DeleteTeamMemberAsync: Delete.
async fn membership_writes<B: Backend>(
    members: &Table<'_, B, TeamMemberEntity>,
    member: &TeamMemberEntity,
    key: &<TeamMemberEntity as TableEntity>::Key,
) {
    let _ = members.insert(member).await;
    let _ = members.upsert(member).await;
    let _ = members.merge(member, IfMatch::Any).await;
    let _ = members.delete(key, IfMatch::Any).await;
}

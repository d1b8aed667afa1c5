//! Goal Tracker (C#, ASP.NET Core bot for Microsoft Teams, WindowsAzure.Storage tables):
//! Microsoft's Teams app template in which people set personal goals, align them with goals
//! their team owners set for a channel, add notes, and get reminder cards. Sources (commit
//! 81a62e5f9360637694371fada0070d8c949c381b of
//! https://github.com/OfficeDev/microsoft-teams-apps-goaltracker):
//! https://github.com/OfficeDev/microsoft-teams-apps-goaltracker/blob/81a62e5f9360637694371fada0070d8c949c381b/Source/Microsoft.Teams.Apps.GoalTracker/Common/Providers/PersonalGoalStorageProvider.cs,
//! with Common/Providers/PersonalGoalNoteStorageProvider.cs, TeamGoalStorageProvider.cs,
//! TeamStorageProvider.cs, Models/PersonalGoalDetail.cs, PersonalGoalNoteDetail.cs,
//! TeamGoalDetail.cs, TeamDetail.cs, Common/BackgroundService/GoalDeletionBackgroundService.cs,
//! GoalReminderNotificationService.cs, Controllers/PersonalGoalController.cs and
//! Helpers/CardHelper.cs (all under Source/Microsoft.Teams.Apps.GoalTracker).
//!
//! Four tables. `PersonalGoalDetail`: PartitionKey = the user's AAD object id, RowKey = the goal
//! id (a GUID string from the client); flags IsActive, IsAligned, IsDeleted, IsReminderActive,
//! ReminderFrequency (int), EndDateUTC (text `MM-dd-yyyy`), TeamId and TeamGoalId when aligned,
//! names, dates and card ids. `PersonalGoalNoteDetail`: PartitionKey = the user, RowKey = a new
//! GUID; PersonalGoalId, the note text, IsActive. `TeamGoalDetail`: PartitionKey = the team id,
//! RowKey = the team goal id; the same flags and reminder fields. `TeamDetail`: PartitionKey =
//! RowKey = the team id; BotInstalledOn and ServiceUrl.
//!
//! Reads: a user's goals and notes are `PartitionKey eq user` with IsActive/IsDeleted tests; one
//! goal or note adds `RowKey eq`; a user's goals aligned to a team adds `IsAligned eq true and
//! TeamId eq`; a team's goals are `PartitionKey eq team` with the flags; the team row is a point
//! read. Two reads fix no partition: the notes of a goal (GetPersonalGoalNoteDetailsAsync builds
//! the user condition but leaves it out of the filter, so it sends only `PersonalGoalId eq ...
//! and IsActive eq true`), and the daily reminder job, which asks both goal tables for every
//! active goal whose EndDateUTC is yesterday or three days ahead or whose ReminderFrequency is
//! due today. Writes: InsertOrReplace of single rows or of lists in TableBatchOperations of up
//! to 100 (goals, notes, team goals), Replace batches for notes. Deleting a goal only sets
//! IsDeleted = true and IsActive = false; every Sunday a background service lists
//! `IsDeleted eq true` over each goal table and deletes what it found in batches.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "PersonalGoalDetail", partition_key = "{user_aad_object_id}", row_key = "{personal_goal_id}")]
#[table(rename_all = "PascalCase")]
struct PersonalGoalDetail {
    #[table(max_len = 36)]
    user_aad_object_id: String,
    /// A GUID string made by the client.
    #[table(max_len = 36)]
    personal_goal_id: String,
    goal_name: String,
    status: i32,
    start_date: String,
    end_date: String,
    /// `MM-dd-yyyy`.
    #[table(rename = "EndDateUTC")]
    end_date_utc: String,
    reminder_frequency: i32,
    is_active: bool,
    is_aligned: bool,
    is_deleted: bool,
    is_reminder_active: bool,
    goal_cycle_id: String,
    team_id: Option<String>,
    team_goal_id: Option<String>,
    conversation_id: String,
    adaptive_card_activity_id: String,
    service_url: String,
    created_on: String,
    created_by: String,
    last_modified_on: String,
    last_modified_by: String,
}

#[derive(TableEntity)]
#[table(name = "PersonalGoalNoteDetail", partition_key = "{user_aad_object_id}", row_key = "{personal_goal_note_id}")]
#[table(rename_all = "PascalCase")]
struct PersonalGoalNoteDetail {
    #[table(max_len = 36)]
    user_aad_object_id: String,
    /// `Guid.NewGuid().ToString()`.
    personal_goal_note_id: Uuid,
    personal_goal_id: String,
    personal_goal_note_description: String,
    source_name: String,
    is_active: bool,
    conversation_id: String,
    adaptive_card_activity_id: String,
    created_on: String,
    created_by: String,
    last_modified_on: String,
    last_modified_by: String,
}

#[derive(TableEntity)]
#[table(name = "TeamGoalDetail", partition_key = "{team_id}", row_key = "{team_goal_id}")]
#[table(rename_all = "PascalCase")]
struct TeamGoalDetail {
    #[table(max_len = 128)]
    team_id: String,
    #[table(max_len = 36)]
    team_goal_id: String,
    team_goal_name: String,
    team_goal_start_date: String,
    team_goal_end_date: String,
    #[table(rename = "TeamGoalEndDateUTC")]
    team_goal_end_date_utc: String,
    reminder_frequency: i32,
    is_active: bool,
    is_deleted: bool,
    is_reminder_active: bool,
    goal_cycle_id: String,
    channel_conversation_id: String,
    adaptive_card_activity_id: String,
    service_url: String,
    created_on: String,
    created_by: String,
    last_modified_on: String,
    last_modified_by: String,
}

#[derive(TableEntity)]
#[table(name = "TeamDetail", partition_key = "{team_id}", row_key = "{team_id}")]
#[table(rename_all = "PascalCase")]
struct TeamDetail {
    #[table(max_len = 128)]
    team_id: String,
    bot_installed_on: OffsetDateTime,
    service_url: String,
}

/// The per-user and per-team reads of the personal and team goal providers.
async fn user_and_team_reads<B: Backend>(backend: &B, user: &str, goal: &str, team: &str) {
    let mine = Query::filter(&format!(
        "IsActive eq true and IsDeleted eq false and PartitionKey eq '{}'",
        user
    ))
    .unwrap();
    let _ = backend.query_page(PersonalGoalDetail::TABLE, &mine).await;
    let one = Query::filter(&format!(
        "RowKey eq '{}' and PartitionKey eq '{}' and IsActive eq true and IsDeleted eq false",
        goal, user
    ))
    .unwrap();
    let _ = backend.query_page(PersonalGoalDetail::TABLE, &one).await;
    let aligned = Query::filter(&format!(
        "IsActive eq true and IsDeleted eq false and IsAligned eq true and TeamId eq '{}' and PartitionKey eq '{}'",
        team, user
    ))
    .unwrap();
    let _ = backend.query_page(PersonalGoalDetail::TABLE, &aligned).await;
    let team_goals = Query::filter(&format!(
        "IsActive eq true and IsDeleted eq false and PartitionKey eq '{}'",
        team
    ))
    .unwrap();
    let _ = backend.query_page(TeamGoalDetail::TABLE, &team_goals).await;
    let team_goal = Query::filter(&format!("RowKey eq '{}' and PartitionKey eq '{}'", goal, team)).unwrap();
    let _ = backend.query_page(TeamGoalDetail::TABLE, &team_goal).await;
}

/// The note provider's reads; GetPersonalGoalNoteDetailsAsync leaves the user out of its filter.
async fn note_reads<B: Backend>(backend: &B, user: &str, goal: &str, note: &str) {
    let one = Query::filter(&format!(
        "PartitionKey eq '{}' and IsActive eq true and RowKey eq '{}'",
        user, note
    ))
    .unwrap();
    let _ = backend.query_page(PersonalGoalNoteDetail::TABLE, &one).await;
    let count = Query::filter(&format!(
        "PartitionKey eq '{}' and PersonalGoalId eq '{}' and IsActive eq true",
        user, goal
    ))
    .unwrap();
    let _ = backend.query_page(PersonalGoalNoteDetail::TABLE, &count).await;
    let mine = Query::filter(&format!("IsActive eq true and PartitionKey eq '{}'", user)).unwrap();
    let _ = backend.query_page(PersonalGoalNoteDetail::TABLE, &mine).await;
    let of_goal = Query::filter(&format!(
        "PersonalGoalId eq '{}' and IsActive eq true",
        goal
    ))
    .unwrap();
    let _ = backend.query_page(PersonalGoalNoteDetail::TABLE, &of_goal).await;
}

/// GoalReminderNotificationService, daily: every goal due for a reminder, over both tables.
async fn reminders<B: Backend>(backend: &B, yesterday: &str, in_three_days: &str) {
    let personal = Query::filter(&format!(
        "(EndDateUTC eq '{}' or EndDateUTC eq '{}' or ReminderFrequency eq 0 or ReminderFrequency eq 1 or ReminderFrequency eq 2 or ReminderFrequency eq 3) and IsAligned eq false and IsActive eq true and IsDeleted eq false and IsReminderActive eq true",
        yesterday, in_three_days
    ))
    .unwrap();
    let _ = backend.query_page(PersonalGoalDetail::TABLE, &personal).await;
    let team = Query::filter(&format!(
        "(TeamGoalEndDateUTC eq '{}' or TeamGoalEndDateUTC eq '{}' or ReminderFrequency eq 0 or ReminderFrequency eq 1 or ReminderFrequency eq 2 or ReminderFrequency eq 3) and IsActive eq true and IsDeleted eq false and IsReminderActive eq true",
        yesterday, in_three_days
    ))
    .unwrap();
    let _ = backend.query_page(TeamGoalDetail::TABLE, &team).await;
}

/// GoalDeletionBackgroundService, every Sunday: the soft-deleted goals of each table, then
/// DeletePersonalGoalDetailsAsync / DeleteTeamGoalDetailsAsync in TableBatchOperations.
async fn purge_deleted<B: Backend>(backend: &B) {
    let deleted = Query::filter("IsDeleted eq true").unwrap();
    let page = backend.query_page(PersonalGoalDetail::TABLE, &deleted).await.unwrap();
    let ops = page
        .entities
        .into_iter()
        .map(|e| BatchOperation::Delete {
            partition_key: e.partition_key,
            row_key: e.row_key,
            if_match: IfMatch::Any,
        })
        .collect();
    let _ = backend.execute_batch(PersonalGoalDetail::TABLE, ops).await;
    let page = backend.query_page(TeamGoalDetail::TABLE, &deleted).await.unwrap();
    let ops = page
        .entities
        .into_iter()
        .map(|e| BatchOperation::Delete {
            partition_key: e.partition_key,
            row_key: e.row_key,
            if_match: IfMatch::Any,
        })
        .collect();
    let _ = backend.execute_batch(TeamGoalDetail::TABLE, ops).await;
}

/// The writes: InsertOrReplace of goals, notes and team goals (single or batched), Replace of
/// notes, and the team row stored, point-read and deleted through TeamStorageProvider.
async fn writes<B: Backend>(
    goals: &Table<'_, B, PersonalGoalDetail>,
    notes: &Table<'_, B, PersonalGoalNoteDetail>,
    team_goals: &Table<'_, B, TeamGoalDetail>,
    teams: &Table<'_, B, TeamDetail>,
    goal: &PersonalGoalDetail,
    note: &PersonalGoalNoteDetail,
    team_goal: &TeamGoalDetail,
    team: &TeamDetail,
    team_key: &<TeamDetail as TableEntity>::Key,
) {
    let _ = goals.upsert(goal).await;
    let _ = notes.upsert(note).await;
    let _ = notes.replace(note, IfMatch::Any).await;
    let _ = team_goals.upsert(team_goal).await;
    let _ = teams.upsert(team).await;
    let _ = teams.get(team_key).await;
    let _ = teams.delete(team_key, IfMatch::Any).await;
}

//! GenAI.Course.Interactive (TypeScript, Next.js, @azure/data-tables): the participant tracking
//! of an interactive workshop site on generative AI: sign-ins, topics completed, the course
//! completion and feedback per topic. Source, at commit 0adfe89b3f14d18c01420ca2de92b11ae2404cb2:
//! https://github.com/Expecho/GenAI.Course.Interactive/blob/0adfe89b3f14d18c01420ca2de92b11ae2404cb2/src/lib/tableStorage.ts
//!
//! Three tables.
//! - `UserActivity`, PartitionKey = the participant's email lower-cased. A sign-in upserts
//!   (Merge) RowKey `login-` + `new Date().toISOString()`; a finished topic upserts RowKey
//!   `topic-<topicId>-<ISO time>`; finishing the course creates RowKey `course-complete` (a 409
//!   for a second one is ignored). Properties eventType, userName, userId, topicId, timestamp
//!   (ISO text). Nothing in this module reads the table.
//! - `UserProgress`, PartitionKey = the email lower-cased, RowKey = the topic id (17 topics),
//!   upserted (Merge) with completedAt (ISO text) and userName. Read: the count of a
//!   participant's rows (`PartitionKey eq <email>`), and the admin summary, which lists the
//!   whole table and groups it by PartitionKey in memory.
//! - `UserFeedback`, PartitionKey = the topic id (or `general`), RowKey =
//!   `String(9999999999999 - now.getTime()).padStart(13, "0")` + `-` + up to 8 random base-36
//!   characters; properties kind, message, topicId, topicTitle, email, userName, createdAt (ISO
//!   text). Created with createEntity. Read: the admin view lists the whole table and sorts the
//!   rows by createdAt, newest first, in memory.

use table_runtime::time::OffsetDateTime;
use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "UserActivity", partition_key = "{email}", row_key = "login-{at:iso}")]
#[table(rename_all = "camelCase")]
struct LoginEvent {
    /// Lower-cased by the code before use.
    #[table(key_only)]
    email: String,
    /// `new Date().toISOString()` of the sign-in, only in the RowKey.
    #[table(key_only)]
    at: OffsetDateTime,
    /// `login`.
    event_type: String,
    user_name: String,
    user_id: String,
    /// The ISO text of (nearly) the same instant.
    timestamp: String,
}

#[derive(TableEntity)]
#[table(name = "UserActivity", partition_key = "{email}", row_key = "topic-{topic_id}-{at:iso}")]
#[table(rename_all = "camelCase")]
struct TopicCompleteEvent {
    #[table(key_only)]
    email: String,
    topic_id: String,
    #[table(key_only)]
    at: OffsetDateTime,
    /// `topic-complete`.
    event_type: String,
    user_name: String,
    user_id: String,
    timestamp: String,
}

#[derive(TableEntity)]
#[table(name = "UserActivity", partition_key = "{email}", row_key = "course-complete")]
#[table(rename_all = "camelCase")]
struct CourseCompleteEvent {
    #[table(key_only)]
    email: String,
    /// `course-complete`.
    event_type: String,
    user_name: String,
    user_id: String,
    timestamp: String,
}

#[derive(TableEntity)]
#[table(name = "UserProgress", partition_key = "{email}", row_key = "{topic_id}")]
#[table(rename_all = "camelCase")]
struct TopicProgress {
    #[table(key_only)]
    email: String,
    /// One of the 17 topics' ids.
    #[table(key_only)]
    topic_id: String,
    /// ISO text.
    completed_at: String,
    user_name: String,
}

#[derive(TableEntity)]
#[table(name = "UserFeedback", partition_key = "{topic_id}", row_key = "{created_at:inverted_unix_ms}-{suffix}")]
#[table(rename_all = "camelCase")]
struct Feedback {
    /// The topic the participant was on, or `general`.
    topic_id: String,
    /// `new Date()` of the submission: inverted in the RowKey, ISO text in createdAt.
    created_at: OffsetDateTime,
    /// `Math.random().toString(36).slice(2, 10)`, only in the RowKey.
    #[table(key_only, max_len = 8)]
    suffix: String,
    /// `problem`, `suggestion`, `praise` or `question`.
    kind: String,
    message: String,
    topic_title: String,
    /// Empty when anonymous.
    email: String,
    user_name: String,
}

/// logLoginEvent: upsert (Merge).
async fn log_login<B: Backend>(activity: &Table<'_, B, LoginEvent>, row: &LoginEvent) {
    let _ = activity.upsert_merge(row).await;
}

/// logTopicComplete: the progress row and an activity row, both upserted (Merge).
async fn log_topic_complete<B: Backend>(
    progress: &Table<'_, B, TopicProgress>,
    activity: &Table<'_, B, TopicCompleteEvent>,
    done: &TopicProgress,
    event: &TopicCompleteEvent,
) {
    let _ = progress.upsert_merge(done).await;
    let _ = activity.upsert_merge(event).await;
}

/// logCourseComplete: createEntity, a conflict ignored.
async fn log_course_complete<B: Backend>(activity: &Table<'_, B, CourseCompleteEvent>, row: &CourseCompleteEvent) {
    let _ = activity.insert(row).await;
}

/// getAllUserProgress: every row, grouped by participant in memory.
async fn all_user_progress<B: Backend>(progress: &Table<'_, B, TopicProgress>) {
    let _ = progress.query_all(&Query::all()).await;
}

/// getCompletedTopicCount: one participant's partition, counted.
async fn completed_topic_count<B: Backend>(progress: &Table<'_, B, TopicProgress>, email: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", email)).unwrap();
    if let Ok(rows) = progress.query_all(&q).await {
        let _count = rows.len();
    }
}

/// logFeedback: createEntity (after creating the table on a 404).
async fn log_feedback<B: Backend>(feedback: &Table<'_, B, Feedback>, row: &Feedback) {
    let _ = feedback.insert(row).await;
}

/// getAllFeedback: every row, sorted by createdAt newest first in memory.
async fn all_feedback<B: Backend>(feedback: &Table<'_, B, Feedback>) {
    if let Ok(mut rows) = feedback.query_all(&Query::all()).await {
        rows.sort_by_key(|r| std::cmp::Reverse(r.created_at));
    }
}

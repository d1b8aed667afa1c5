//! MarsOffice TVG jobs (C#, Azure Functions, Microsoft.Azure.Cosmos.Table): the job service of a
//! text-to-video generator, where each user keeps recurring jobs (a cron expression plus content,
//! speech, audio, video and upload settings) that a timer turns into video-generation requests.
//! Sources (commit 1f81f635acb0f56120b3eec710cb9fa15f22481b of https://github.com/marsoffice/tvg-jobs):
//! https://github.com/marsoffice/tvg-jobs/blob/1f81f635acb0f56120b3eec710cb9fa15f22481b/MarsOffice.Tvg.Jobs/JobStarter.cs,
//! with MarsOffice.Tvg.Jobs/Jobs.cs, MarsOffice.Tvg.Jobs/Entities/JobEntity.cs and
//! MarsOffice.Tvg.Jobs/Validators/JobValidator.cs.
//!
//! One table, `Jobs`. PartitionKey = the signed-in user's id (the `id` claim), RowKey = the job's
//! id, a `Guid.NewGuid().ToString()` made on creation; the entity also keeps both as `UserId` and
//! `Id`, with the user's e-mail, the job's name and about forty optional settings, among them
//! `Disabled` (a nullable bool) and `Cron` (text). The scheduler is a timer function that runs
//! every minute: it sends `Disabled ne 'true' and Cron gt ''` with no PartitionKey, follows every
//! continuation token to collect all matching jobs of all users, and queues a generation request
//! for each whose cron fires this minute. The user's list pages through the user's partition
//! with `PartitionKey eq '<user>'`, `$top` = the page size and an order by Timestamp descending,
//! handing the next RowKey back as the cursor. Reading, and starting, one job is a key filter.
//! Creating is InsertOrReplace, updating a Replace with ETag `*`, deleting a Delete with `*`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Jobs", partition_key = "{user_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct JobEntity {
    /// The `id` claim of the caller.
    user_id: String,
    /// `Guid.NewGuid().ToString()` in CreateJob, kept as text.
    #[table(as_string)]
    id: Uuid,
    user_email: String,
    /// The only property the validator requires.
    name: String,
    final_file_duration_in_millis: Option<i64>,
    trim_gracefully_to_max_duration: Option<bool>,
    /// `bool?`: absent when the client sends nothing, an Edm.Boolean otherwise.
    disabled: Option<bool>,
    /// An NCrontab expression with seconds.
    cron: Option<String>,
    content_type: Option<String>,
    content_topic: Option<String>,
    content_get_latest_posts: Option<bool>,
    content_start_date: Option<OffsetDateTime>,
    selected_content: Option<String>,
    content_min_chars: Option<i32>,
    content_max_chars: Option<i32>,
    content_translate_from_language: Option<String>,
    content_translate_to_language: Option<String>,
    content_no_of_included_top_comments: Option<i32>,
    content_include_links: Option<bool>,
    content_min_posts: Option<i32>,
    content_max_posts: Option<i32>,
    speech_pitch: Option<i32>,
    speech_language: Option<String>,
    speech_speed: Option<i32>,
    speech_type: Option<String>,
    speech_pause_before_in_millis: Option<i64>,
    speech_pause_after_in_millis: Option<i64>,
    audio_background_quality: Option<i32>,
    selected_audio_background: Option<String>,
    audio_background_volume_in_percent: Option<i32>,
    video_background_resolution: Option<String>,
    selected_video_background: Option<String>,
    text_font_family: Option<String>,
    text_font_size: Option<i32>,
    text_box_color: Option<String>,
    text_color: Option<String>,
    text_box_opacity: Option<i32>,
    text_box_border_color: Option<String>,
    disabled_auto_upload: Option<bool>,
    post_description: Option<String>,
    editor_video_resolution: Option<String>,
    auto_upload_tik_tok_accounts: Option<String>,
}

/// JobStarter, every minute: every enabled job with a cron, across all users, read to the last
/// continuation token. GenerateFilterCondition writes the bool test with a string literal.
async fn due_candidates<B: Backend>(jobs: &Table<'_, B, JobEntity>) {
    let q = Query::filter("Disabled ne 'true' and Cron gt ''").unwrap();
    let _ = jobs.query_page(&q, None).await;
}

/// GetJobs: one page of the caller's jobs (`Take(pageSize)`; the original also asks for
/// `OrderByDesc("Timestamp")`), continued from the RowKey the client sends back.
async fn jobs_page<B: Backend>(jobs: &Table<'_, B, JobEntity>, user_id: &str, page_size: usize) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user_id))
        .unwrap()
        .top(page_size);
    let _ = jobs.query_page(&q, None).await;
}

/// GetJob, GetJobInternal and StartJob: one job by its keys (`Take(1)`).
fn job(user_id: &str, id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", user_id, id))
        .unwrap()
        .top(1)
}

/// CreateJob (InsertOrReplace), UpdateJob (Replace, ETag `*`), DeleteJob (Delete, ETag `*`).
async fn job_writes<B: Backend>(
    jobs: &Table<'_, B, JobEntity>,
    row: &JobEntity,
    key: &<JobEntity as TableEntity>::Key,
) {
    let _ = jobs.upsert(row).await;
    let _ = jobs.replace(row, IfMatch::Any).await;
    let _ = jobs.delete(key, IfMatch::Any).await;
}

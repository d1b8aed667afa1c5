//! ScavengerHunt (C#, ASP.NET MVC/Web API, WindowsAzure.Storage 8.x): an office scavenger hunt;
//! players see the day's challenges and the team scoreboard, organisers post challenges and
//! scores. Sources (commit b81fa8074aeec19ce1ed6649f721a705d52fd546 of
//! https://github.com/chrischen86/scavengerhunt):
//! https://github.com/chrischen86/scavengerhunt/blob/b81fa8074aeec19ce1ed6649f721a705d52fd546/ScavengerHunt/Services/ObjectService.cs
//! with ScavengerHunt/Services/{ChallengeService,ScoreService}.cs,
//! ScavengerHunt/Controllers/{TablesController,TeamsController,ScoresController}.cs and
//! ScavengerHunt/Models/{ChallengeEntity,ScoreEntity,TeamEntity,UpdateInfoEntity}.cs.
//!
//! One table, `challenge`. Each entity class fixes its PartitionKey in its constructor:
//! challenges `challenge`, scores `score`, the last-update marker `updateinfo`; the RowKey is
//! `Id.ToString()` (challenge number, team number), and the marker's is `1`. TeamEntity is a
//! second class over the same `score` rows that reads only the team name. ObjectService reads a
//! type's whole partition (`PartitionKey eq '<its literal>'`, all segments), optionally `and` a
//! filter: the daily challenges add `Date eq datetime'<today 00:00 Eastern>'`, the past ones
//! `Date le datetime'<yesterday>'`. Writes are InsertOrReplace, alone or as a batch of the posted
//! challenges or scores (one partition each). Scores and teams are sorted in memory.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "challenge", partition_key = "challenge", row_key = "{id:unpadded}")]
#[table(rename_all = "PascalCase")]
struct ChallengeEntity {
    /// The challenge number; `Id.ToString()` is the RowKey.
    #[table(max = 999)]
    id: u32,
    title: String,
    description: String,
    #[table(rename = "Type")]
    challenge_type: String,
    points: i32,
    media_file_name: Option<String>,
    is_past_available: bool,
    /// Midnight Eastern of the day the challenge runs.
    date: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "challenge", partition_key = "score", row_key = "{id:unpadded}")]
#[table(rename_all = "PascalCase")]
struct ScoreEntity {
    /// The team number.
    #[table(max = 99)]
    id: u32,
    team: String,
    score: i32,
}

/// TeamEntity: the team name of the score rows.
#[derive(TableEntity)]
#[table(projection_of = "ScoreEntity")]
#[table(rename_all = "PascalCase")]
struct TeamEntity {
    team: String,
}

#[derive(TableEntity)]
#[table(name = "challenge", partition_key = "updateinfo", row_key = "1")]
#[table(rename_all = "PascalCase")]
struct UpdateInfoEntity {
    last_updated: OffsetDateTime,
}

/// GetChallenges (admin) and the partition reads of GetEntities<T>().
async fn all_challenges<B: Backend>(challenges: &Table<'_, B, ChallengeEntity>) {
    let q = Query::filter("PartitionKey eq 'challenge'").unwrap();
    let _ = challenges.query_page(&q, None).await;
}

/// GetDailyChallenges: today's challenges.
async fn daily_challenges<B: Backend>(challenges: &Table<'_, B, ChallengeEntity>, today: &str) {
    let q = Query::filter(&format!(
        "(PartitionKey eq 'challenge') and (Date eq datetime'{}')",
        today
    ))
    .unwrap();
    let _ = challenges.query_page(&q, None).await;
}

/// GetPastChallenges: up to yesterday.
async fn past_challenges<B: Backend>(challenges: &Table<'_, B, ChallengeEntity>, yesterday: &str) {
    let q = Query::filter(&format!(
        "(PartitionKey eq 'challenge') and (Date le datetime'{}')",
        yesterday
    ))
    .unwrap();
    let _ = challenges.query_page(&q, None).await;
}

/// GetScores, the teams list, and the update marker.
async fn scoreboard<B: Backend>(
    scores: &Table<'_, B, ScoreEntity>,
    teams: &Table<'_, B, TeamEntity>,
    marker: &Table<'_, B, UpdateInfoEntity>,
) {
    let q = Query::filter("PartitionKey eq 'score'").unwrap();
    let _ = scores.query_page(&q, None).await;
    let _ = teams.query_page(&q, None).await;
    let m = Query::filter("PartitionKey eq 'updateinfo'").unwrap();
    let _ = marker.query_page(&m, None).await;
}

/// AddEntity / AddEntities: InsertOrReplace, one entity or a batch of one partition.
async fn writes<B: Backend>(
    challenges: &Table<'_, B, ChallengeEntity>,
    scores: &Table<'_, B, ScoreEntity>,
    marker: &Table<'_, B, UpdateInfoEntity>,
    c: &ChallengeEntity,
    s: &ScoreEntity,
    u: &UpdateInfoEntity,
) {
    let _ = challenges.upsert(c).await;
    let _ = scores.upsert(s).await;
    let _ = marker.upsert(u).await;
}

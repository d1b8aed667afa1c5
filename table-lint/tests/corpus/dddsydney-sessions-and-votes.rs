//! DDD Sydney API (F#, Azure Functions, FSharp.Azure.Storage over WindowsAzure.Storage): the
//! backend of the DDD Sydney community conference, which publishes the submitted and approved
//! talks, lets attendees vote on the talks during a two-week voting window, and gives the
//! organisers Slack commands to approve talks and tally the votes. Sources (commit
//! 60b64cc36ce6af84b00324f597f8c1040bb2e780 of https://github.com/dddsydney/dddapi):
//! https://github.com/dddsydney/dddapi/blob/60b64cc36ce6af84b00324f597f8c1040bb2e780/DDDApi.Functions/v2/VotingFunctions.fs,
//! with DDDApi/Vote.fs, DDDApi/SessionV2.fs, DDDApi/azureTableUtils.fs,
//! DDDApi.Functions/v2/SessionFunctions.fs, DDDApi.Functions/v2/SessionAdminFunctions.fs,
//! DDDApi.Functions/v2/SlackCommands.fs and DDDApi.Functions/v2/SlackVoteCommands.fs.
//!
//! Tables (the record fields marked [<PartitionKey>] and [<RowKey>] are the keys, and the query
//! translator turns conditions on them into key conditions). `Session`: PartitionKey = the event
//! year (`2019`), RowKey = the talk's Sessionize id; properties Title, Abstract,
//! RecommendedAudience, SubmittedDateUtc, Status (`Unapproved`, `Approved`, `Rejected`),
//! SessionLength, Track, Topic. `Presenter`: PartitionKey = the talk's Sessionize id (TalkId),
//! RowKey = the speaker's id; properties the speaker's names, contact details, bio, diversity
//! answers, and EventYear. `Vote`: PartitionKey = the year, RowKey = a new GUID per vote;
//! properties IpAddress, SessionId, SubmittedDateUTC, TicketNumber, VoterSessionId, Id and
//! VotingStartTime.
//!
//! Reads: the public talk list of a year (the voting and agenda pages) reads the year's approved
//! sessions, `PartitionKey eq '<year>' and Status eq 'Approved'`, and the year's presenters,
//! `EventYear eq '<year>'`; a single talk is `Status eq 'Approved' and RowKey eq '<id>'` plus the
//! talk's presenters `PartitionKey eq '<id>'`; the organisers' lists of unapproved talks read the
//! same way with `Unapproved`; approving a talk finds it by `RowKey eq '<id>'` and writes it back
//! with InsertOrMerge (in entity group batches); a Slack command lists up to 1,000 sessions of all
//! years with no filter. Saving a vote reads the year's approved sessions to validate the ids,
//! then inserts one Vote per chosen talk, in batches of up to 100 (all in the year's partition).
//! The tally reads the whole year's partition of votes, the year's approved sessions and the
//! year's presenters. (The hourly import from Sessionize that wrote the sessions and presenters
//! is commented out at this commit; the v1 functions read legacy tables and are not translated.)

use table_runtime::{Backend, BatchOperation, Query, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "Session", partition_key = "{event_year}", row_key = "{sessionize_id}")]
#[table(rename_all = "PascalCase")]
struct SessionV2 {
    /// The conference year as text, e.g. `2019`.
    #[table(max_len = 4)]
    event_year: String,
    /// Sessionize's talk id.
    sessionize_id: String,
    title: String,
    #[table(rename = "Abstract")]
    abstract_text: String,
    recommended_audience: String,
    submitted_date_utc: OffsetDateTime,
    /// `Unapproved`, `Approved` or `Rejected`.
    status: String,
    session_length: String,
    track: String,
    topic: String,
}

#[derive(TableEntity)]
#[table(name = "Presenter", partition_key = "{talk_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct Presenter {
    /// The talk's Sessionize id.
    talk_id: String,
    /// The speaker's Sessionize id.
    id: String,
    first_name: String,
    last_name: String,
    full_name: String,
    email: String,
    url: String,
    bio: String,
    twitter: String,
    tagline: String,
    photo: String,
    mobile_number: String,
    preferred_pronoun: String,
    preferred_pronoun_other: String,
    level: String,
    experience: String,
    under_rep: String,
    linked_in: String,
    event_year: String,
}

#[derive(TableEntity)]
#[table(name = "Vote", partition_key = "{year}", row_key = "{vote_id}")]
#[table(rename_all = "PascalCase")]
struct Vote {
    #[table(max_len = 4)]
    year: String,
    /// `Guid.NewGuid().ToString()`.
    #[table(max_len = 36)]
    vote_id: String,
    ip_address: String,
    session_id: String,
    #[table(rename = "SubmittedDateUTC")]
    submitted_date_utc: OffsetDateTime,
    ticket_number: String,
    voter_session_id: String,
    id: String,
    voting_start_time: String,
}

/// The year's approved (or, for the organisers, unapproved) sessions: the talk list, the vote
/// validation and the tally.
fn year_sessions(year: &str, status: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (Status eq '{}')",
        year, status
    ))
    .unwrap()
}

/// The year's presenters, read with every talk list and with the tally.
async fn year_presenters<B: Backend>(backend: &B, year: &str) {
    let q = Query::filter(&format!("EventYear eq '{}'", year)).unwrap();
    let _ = backend.query_page(Presenter::TABLE, &q).await;
}

/// One talk (public page) and the approve command's lookup, by RowKey alone; its presenters.
async fn one_talk<B: Backend>(backend: &B, id: &str) {
    let public = Query::filter(&format!("(Status eq 'Approved') and (RowKey eq '{}')", id)).unwrap();
    let _ = backend.query_page(SessionV2::TABLE, &public).await;
    let approve = Query::filter(&format!("RowKey eq '{}'", id)).unwrap();
    let _ = backend.query_page(SessionV2::TABLE, &approve).await;
    let speakers = Query::filter(&format!("PartitionKey eq '{}'", id)).unwrap();
    let _ = backend.query_page(Presenter::TABLE, &speakers).await;
}

/// The Slack "all sessions" command: the first 1,000 rows of the table.
async fn all_sessions<B: Backend>(backend: &B) {
    let _ = backend.query_page(SessionV2::TABLE, &Query::all().top(1000)).await;
}

/// The tally: every vote of the year.
async fn year_votes<B: Backend>(backend: &B, year: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", year)).unwrap();
    let _ = backend.query_page(Vote::TABLE, &q).await;
}

/// Saving a ballot: one Insert per chosen talk, batched by partition (the year).
async fn save_votes<B: Backend>(backend: &B, ballot: &[Vote]) {
    let ops: Vec<BatchOperation> = ballot
        .iter()
        .map(|v| BatchOperation::Insert(v.to_entity().unwrap()))
        .collect();
    let _ = backend.execute_batch(Vote::TABLE, ops).await;
}

/// Approving: InsertOrMerge of the found session(s), in a batch.
async fn approve<B: Backend>(backend: &B, approved: &SessionV2) {
    let ops = vec![BatchOperation::UpsertMerge(approved.to_entity().unwrap())];
    let _ = backend.execute_batch(SessionV2::TABLE, ops).await;
}

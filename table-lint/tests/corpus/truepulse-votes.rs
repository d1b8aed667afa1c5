//! TruePulse (Python, azure-data-tables async): anonymous poll votes. Source:
//! https://github.com/KevinRabun/TruePulse/blob/1981862a70d586ce201f1040cad31ccd00f14cfa/src/backend/services/table_service.py
//!
//! Table `votes`. store_vote: `create_entity({"PartitionKey": poll_id, "RowKey": vote_hash,
//! "choice_id", "demographics_bucket", "created_at"})`, where vote_hash is the SHA-256 (64 hex
//! digits) of the user id and poll id; `ResourceExistsError` means the user already voted.
//! get_vote: `get_entity(poll_id, vote_hash)`. get_poll_votes / count_poll_votes:
//! `query_entities("PartitionKey eq '{poll_id}'")` and a count per choice in memory.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "votes", partition_key = "{poll_id}", row_key = "{vote_hash}")]
struct Vote {
    poll_id: String,
    /// `sha256(user_id + poll_id)` as 64 hex digits.
    #[table(max_len = 64)]
    vote_hash: String,
    choice_id: String,
    demographics_bucket: String,
    /// `datetime.now(timezone.utc).isoformat()`, stored as a string.
    created_at: String,
}

/// get_vote(poll_id, vote_hash).
fn vote(poll_id: &str, vote_hash: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", poll_id, vote_hash)).unwrap()
}

/// get_poll_votes(poll_id), also behind count_poll_votes.
fn votes_of_poll(poll_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", poll_id)).unwrap()
}

/// store_vote: `create_entity`; a conflict is a duplicate vote.
async fn store_vote<B: Backend>(votes: &Table<'_, B, Vote>, vote: &Vote) {
    let _ = votes.insert(vote).await;
}

//! Spoti-bot (C#, Azure Functions, Azure.Data.Tables): a Telegram bot that adds the Spotify
//! tracks posted in a group chat to the group's playlist and lets members upvote and downvote
//! them from the message's buttons; enough downvotes remove a track. Sources (commit
//! e2ba74c2392709da9000d3f8a41f0d1c03e36cc5 of https://github.com/lwhuybrechts/spoti-bot):
//! https://github.com/lwhuybrechts/spoti-bot/blob/e2ba74c2392709da9000d3f8a41f0d1c03e36cc5/Spoti-bot/Bot/Votes/VoteRepository.cs,
//! with Spoti-bot/Library/BaseRepository.cs, Bot/Votes/Vote.cs, Bot/Votes/VoteService.cs,
//! Bot/HandleUpdate/Commands/HandleInlineQueryCommandService.cs, Spotify/Tracks/Track.cs,
//! Spotify/Tracks/TrackRepository.cs, Spotify/Tracks/AddTrack/AddTrackService.cs,
//! Spotify/Tracks/RemoveTrack/RemoveTrackService.cs, Spotify/Tracks/SyncTracks/SyncTracksService.cs,
//! Bot/HandleUpdate/Dto/UpdateDtoService.cs, Callback.cs, Tracks.cs and Upvotes.cs.
//!
//! A generic BaseRepository serves every table (each named after its entity class): a point
//! read by both keys (404 read as "none"), LINQ queries paged to the end, UpsertEntity (the SDK's
//! default Merge mode), an unconditional DeleteEntity, and transactions of UpsertMerge or Delete
//! actions for a list of entities, all submitted as one transaction whatever their number.
//!
//! `Track`: PartitionKey = the Spotify playlist id, RowKey = the Spotify track id. Properties
//! Name, FirstArtistName, AlbumName, AddedByTelegramUserId (Int64), CreatedAt, StateValue (the
//! TrackState enum as an Int32). A posted link is checked with a point read of (playlist, track)
//! and the track is upserted when added; removal by downvotes upserts it with a new state; the
//! message and callback handlers point-read the track. The `/sync` command lists the playlist's
//! partition (`PartitionKey eq '<playlist>'`), compares it with Spotify's copy, upserts the
//! missing or changed tracks in one transaction and deletes the stale ones in another. The web
//! app's Tracks endpoint lists the playlist's partition too.
//!
//! `Vote`: PartitionKey = the playlist id, RowKey = `{TrackId}_{UserId}_{TypeValue}` (the track
//! id, the voter's Telegram user id and the VoteType as an integer, kept in step by the property
//! setters). Properties TrackId, UserId (Int64), TypeValue (Int32), CreatedAt. Pressing a vote
//! button point-reads the vote by its keys; if absent it is upserted, else deleted; then the
//! track's votes are listed with `PartitionKey eq '<playlist>' and TrackId eq '<track>'` to
//! redraw the buttons and count downvotes. The inline "see votes" query lists the same. The web
//! app's Upvotes endpoint lists the whole partition of the main playlist and keeps the upvotes.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "Track", partition_key = "{playlist_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct Track {
    /// The Spotify playlist id (22 base-62 characters).
    playlist_id: String,
    /// The Spotify track id.
    id: String,
    name: String,
    first_artist_name: String,
    album_name: String,
    added_by_telegram_user_id: i64,
    created_at: OffsetDateTime,
    /// TrackState as an integer.
    state_value: i32,
}

#[derive(TableEntity)]
#[table(
    name = "Vote",
    partition_key = "{playlist_id}",
    row_key = "{track_id}_{user_id:unpadded}_{type_value:unpadded}"
)]
#[table(rename_all = "PascalCase")]
struct Vote {
    playlist_id: String,
    track_id: String,
    /// The voter's Telegram user id.
    user_id: i64,
    /// VoteType as an integer (upvote, downvote, ...).
    type_value: i32,
    created_at: OffsetDateTime,
}

/// GetVotes (after every vote and for the inline "see votes" query): a track's votes.
fn votes_of_track(playlist_id: &str, track_id: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (TrackId eq '{}')",
        playlist_id, track_id
    ))
    .unwrap()
}

/// The Upvotes endpoint (GetAllByPartitionKey) and the Tracks endpoint and /sync: one
/// playlist's partition.
fn playlist_partition(playlist_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", playlist_id)).unwrap()
}

/// HandleVote: the voter's vote on the track by its keys; upserted (Merge) if absent, deleted
/// (no ETag) if present.
async fn toggle_vote<B: Backend>(
    votes: &Table<'_, B, Vote>,
    key: &<Vote as TableEntity>::Key,
    vote: &Vote,
) {
    match votes.get(key).await {
        Ok(None) => {
            let _ = votes.upsert(vote).await;
        }
        _ => {
            let _ = votes.delete(key, IfMatch::Any).await;
        }
    }
}

/// AddTrack and RemoveTrack: the track point-read by its keys, then upserted (Merge).
async fn add_or_mark_track<B: Backend>(
    tracks: &Table<'_, B, Track>,
    key: &<Track as TableEntity>::Key,
    track: &Track,
) {
    let _ = tracks.get(key).await;
    let _ = tracks.upsert(track).await;
}

/// SyncTracks (/sync): the playlist's tracks, then one transaction of UpsertMerge for the
/// tracks to save and one of Delete for the stale ones, however many there are.
async fn sync_tracks<B: Backend>(
    backend: &B,
    playlist_id: &str,
    to_save: &[Track],
    stale: &[String],
) {
    let page = backend
        .query_page(Track::TABLE, &playlist_partition(playlist_id))
        .await
        .unwrap();
    let upserts: Vec<BatchOperation> = to_save
        .iter()
        .map(|t| BatchOperation::UpsertMerge(t.to_entity().unwrap()))
        .collect();
    let _ = backend.execute_batch(Track::TABLE, upserts).await;
    // The stale tracks are chosen in memory: listed here, gone from Spotify's copy, and not
    // removed by downvotes.
    let deletes: Vec<BatchOperation> = page
        .entities
        .into_iter()
        .filter(|row| stale.contains(&row.row_key))
        .map(|row| BatchOperation::Delete {
            partition_key: row.partition_key,
            row_key: row.row_key,
            if_match: IfMatch::Any,
        })
        .collect();
    let _ = backend.execute_batch(Track::TABLE, deletes).await;
}

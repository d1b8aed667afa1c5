//! Page Patrol backend (Python, FastAPI, azure-data-tables on a Cosmos DB Table API account): a
//! user registers a web page, an XPath and a search string; a scheduler scrapes every enabled
//! page at its interval and keeps a history of the element's HTML whenever it changes. Source
//! (commit f2568e3ecdf9258e06166965088f07ccb0eddc1d of
//! https://github.com/BekaOkromchedlidze/page_patrol_backend): src/models.py, with
//! src/table_storage.py, src/api/patrol_mgmt.py, src/api/patrol_history_mgmt.py and
//! src/api/scraper.py at the same commit.
//!
//! - PagePatrol: PartitionKey = the signed-in user's Entra object id (`oid` claim), RowKey =
//!   `str(uuid.uuid4())` made by the pydantic model; the page, XPath, search text, interval in
//!   minutes, enabled/deleted flags, the push token and the last scrape's outcome and HTML.
//! - PatrolHistory: PartitionKey = the patrol owner's oid, RowKey = a fresh `str(uuid.uuid4())`,
//!   with the patrol's RowKey copied into `page_patrol_id`, the scrape time and the HTML.
//!
//! The API lists a user's patrols (`PartitionKey eq oid and is_deleted eq false`, sorted by
//! date_added in memory), point-reads one to edit, toggle or soft-delete it (REPLACE of the whole
//! entity, unconditional), and rewrites the push token on every live patrol of the user. The
//! scheduler scans `is_enabled eq true and is_deleted eq false` over the whole table, replaces
//! each due patrol with the scrape's outcome, then reads that patrol's history by
//! `page_patrol_id eq '…'` (no PartitionKey), sorts it by scrape_time in memory and compares the
//! newest HTML with the new one; if it differs it inserts a history row. The history endpoint
//! runs the same `page_patrol_id` filter and sorts.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "PagePatrol", partition_key = "{owner_oid}", row_key = "{patrol_id}")]
struct PagePatrol {
    /// The user's `oid` claim, a GUID in text form.
    owner_oid: Uuid,
    /// `str(uuid.uuid4())`, the default of the pydantic model.
    patrol_id: Uuid,
    expo_push_token: Option<String>,
    /// `int(datetime.now().timestamp())`: epoch seconds (the SDK writes a Python int that fits
    /// 32 bits as Int32, a larger one as Int64).
    date_added: i64,
    url: String,
    xpath: String,
    search_string: String,
    /// Minutes, one of 1, 5, 15, 30, 60, 240, 720, 1440.
    scrape_interval: i32,
    is_enabled: bool,
    is_deleted: bool,
    last_scrape_time: Option<OffsetDateTime>,
    last_scrape_status: Option<String>,
    last_scrape_status_detail: Option<String>,
    /// The matched element's HTML as scraped, no length cap.
    last_scrape_html_content: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "PatrolHistory", partition_key = "{owner_oid}", row_key = "{history_id}")]
struct PatrolHistory {
    /// The PartitionKey of the patrol that was scraped (its owner's oid).
    owner_oid: Uuid,
    /// `str(uuid.uuid4())`, new for every recorded change.
    history_id: Uuid,
    /// The patrol's RowKey, stored as text.
    page_patrol_id: String,
    scrape_time: OffsetDateTime,
    /// The matched element's HTML as scraped, no length cap.
    scrape_html_content: String,
}

/// add_page_patrol_entity: `create_entity`.
async fn add_patrol<B: Backend>(patrols: &Table<'_, B, PagePatrol>, patrol: &PagePatrol) {
    let _ = patrols.insert(patrol).await;
}

/// get_patrol_entities: the user's live patrols, then sorted by date_added in memory.
async fn list_patrols<B: Backend>(patrols: &Table<'_, B, PagePatrol>, oid: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and is_deleted eq false", oid)).unwrap();
    if let Ok(mut rows) = patrols.query_all(&q).await {
        rows.sort_by_key(|p| p.date_added);
    }
}

/// update_patrol_entity, delete_patrol_entity (sets is_deleted) and toggle_patrol_entity (flips
/// is_enabled): `get_entity(oid, id)`, then `update_entity(mode=REPLACE)` with no ETag.
async fn edit_patrol<B: Backend>(patrols: &Table<'_, B, PagePatrol>, key: &<PagePatrol as TableEntity>::Key, edited: &PagePatrol) {
    let _ = patrols.get(key).await;
    let _ = patrols.replace(edited, IfMatch::Any).await;
}

/// update_push_token: the user's live patrols, each replaced with the new token.
async fn update_push_token<B: Backend>(patrols: &Table<'_, B, PagePatrol>, oid: &str, patrol: &PagePatrol) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and is_deleted eq false", oid)).unwrap();
    let _ = patrols.query_all(&q).await;
    let _ = patrols.replace(patrol, IfMatch::Any).await;
}

/// Scraper.process_page_patrol (the scheduled job): every enabled, undeleted patrol of every
/// user; each one that is due is replaced with the scrape's outcome.
async fn process_page_patrol<B: Backend>(patrols: &Table<'_, B, PagePatrol>, scraped: &PagePatrol) {
    let q = Query::filter("is_enabled eq true and is_deleted eq false").unwrap();
    let _ = patrols.query_all(&q).await;
    let _ = patrols.replace(scraped, IfMatch::Any).await;
}

/// is_scrape_history_needed: the patrol's whole history, sorted by scrape_time in memory to
/// compare the newest HTML with the new scrape.
async fn newest_history<B: Backend>(history: &Table<'_, B, PatrolHistory>, page_patrol_id: &str) {
    let q = Query::filter(&format!("page_patrol_id eq '{}'", page_patrol_id)).unwrap();
    if let Ok(rows) = history.query_all(&q).await {
        let _newest = rows.iter().max_by_key(|r| r.scrape_time);
    }
}

/// record_scrape_history: `create_entity` of a new history row.
async fn record_scrape_history<B: Backend>(history: &Table<'_, B, PatrolHistory>, row: &PatrolHistory) {
    let _ = history.insert(row).await;
}

/// get_patrol_history (`GET /page-patrol/{id}/history`): the same filter, sorted newest first.
async fn patrol_history<B: Backend>(history: &Table<'_, B, PatrolHistory>, page_patrol_id: &str) {
    let q = Query::filter(&format!("page_patrol_id eq '{}'", page_patrol_id)).unwrap();
    if let Ok(rows) = history.query_all(&q).await {
        let _newest = rows.iter().max_by_key(|r| r.scrape_time);
    }
}

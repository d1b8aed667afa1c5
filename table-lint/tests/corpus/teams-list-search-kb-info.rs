//! List Search (C#, Microsoft Teams app template, WindowsAzure.Storage): a Teams messaging
//! extension that searches SharePoint lists through QnA Maker knowledge bases, one per list an
//! administrator configures in a web app; a timer calls a refresh endpoint that re-imports lists
//! that are due. Sources (commit 830dd2199549947a020a8f7870194d707d8a9022 of
//! https://github.com/OfficeDev/microsoft-teams-apps-list-search):
//! https://github.com/OfficeDev/microsoft-teams-apps-list-search/blob/830dd2199549947a020a8f7870194d707d8a9022/Source/Microsoft.Teams.Apps.ListSearch.Common/Helpers/KBInfoHelper.cs
//! with Source/Microsoft.Teams.Apps.ListSearch.Common/Helpers/TokenHelper.cs, Models/KBInfo.cs,
//! Models/TokenEntity.cs and Models/StorageInfo.cs, and the controllers
//! Source/Microsoft.Teams.Apps.ListSearch/Controllers/{SearchController,RefreshController}.cs and
//! Source/Microsoft.Teams.Apps.ListSearch.Configuration/Controllers/HomeController.cs.
//!
//! `KBInfo` holds one row per configured list: PartitionKey = the literal `KbInfo`, RowKey = the
//! QnA Maker knowledge base id; properties name the KB, the SharePoint site, list and URL, the
//! question and answer columns (JSON), the ranker, the refresh frequency in hours, and the last
//! refresh time, attempt time and error. The admin page edits one KB by a point read and
//! InsertOrMerge and removes one with an unconditional delete. GetAllKBs lists the whole table
//! with no filter and a `$select`: the search page does it each time it opens (name, id and the
//! column definitions) and the refresh endpoint each time the timer fires (the refresh fields).
//! `Token` holds the administrator's delegated Graph token: PartitionKey = the literal `Token`,
//! RowKey = the token type (`GraphToken`), read by point and written with InsertOrMerge when it
//! is refreshed.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "KBInfo", partition_key = "KbInfo", row_key = "{kb_id}")]
#[table(rename_all = "PascalCase")]
struct KbInfo {
    /// The QnA Maker knowledge base id (a GUID, kept as text).
    #[table(max_len = 36)]
    kb_id: String,
    #[table(rename = "KBName")]
    kb_name: String,
    share_point_url: String,
    share_point_site_id: String,
    share_point_list_id: String,
    /// JSON of the question column.
    question_field: String,
    /// JSON of the answer columns.
    answer_fields: String,
    last_refresh_date_time: OffsetDateTime,
    refresh_frequency_in_hours: i32,
    last_refresh_attempt_date_time: OffsetDateTime,
    last_refresh_attempt_error: Option<String>,
    ranker_type: String,
}

#[derive(TableEntity)]
#[table(name = "Token", partition_key = "Token", row_key = "{token_type}")]
#[table(rename_all = "PascalCase")]
struct TokenRow {
    /// `GraphToken`.
    #[table(max_len = 32)]
    token_type: String,
    user_principal_name: String,
    access_token: String,
    refresh_token: String,
    /// The C# property ExpiryDateTime, stored under its own name.
    expiry_date_time: OffsetDateTime,
    scopes: String,
}

/// SearchController.Index: every KB, a few columns, on each open of the search page.
async fn search_page_kbs<B: Backend>(backend: &B) {
    let q = Query::all().select(["KBName", "KBId", "QuestionField", "AnswerFields"]);
    let _ = backend.query_page(KbInfo::TABLE, &q).await;
}

/// RefreshController.RefreshAllKBs: every KB's refresh settings, each time the timer fires.
async fn refresh_kbs<B: Backend>(backend: &B) {
    let q = Query::all().select([
        "LastRefreshDateTime",
        "RefreshFrequencyInHours",
        "SharePointListId",
        "QuestionField",
        "AnswerFields",
        "SharePointSiteId",
        "LastRefreshAttemptDateTime",
        "LastRefreshAttemptError",
    ]);
    let _ = backend.query_page(KbInfo::TABLE, &q).await;
}

/// GetKBInfo, InsertOrMergeKBInfo and DeleteKB (ETag `*`).
async fn kb_writes<B: Backend>(kbs: &Table<'_, B, KbInfo>, kb: &KbInfo, key: &<KbInfo as TableEntity>::Key) {
    let _ = kbs.get(key).await;
    let _ = kbs.upsert(kb).await;
    let _ = kbs.delete(key, IfMatch::Any).await;
}

/// TokenHelper: the stored Graph token by point, and its InsertOrMerge on refresh.
async fn token_rw<B: Backend>(tokens: &Table<'_, B, TokenRow>, row: &TokenRow, key: &<TokenRow as TableEntity>::Key) {
    let _ = tokens.get(key).await;
    let _ = tokens.upsert(row).await;
}

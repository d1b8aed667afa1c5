//! Alpakasölde (C#, Azure Functions isolated worker, Azure.Data.Tables): the website of an
//! alpaca farm counts its own page views in a `pageviews` table, which the farm's dashboard
//! charts. Sources at commit f1bf4f3a6829e3fb76afd076ff97b5b4a8291b8a of
//! https://github.com/JakobFerdinand/alpakasoelde:
//! https://github.com/JakobFerdinand/alpakasoelde/blob/f1bf4f3a6829e3fb76afd076ff97b5b4a8291b8a/src/website-api/features/pageviews/PageView.cs
//! with src/website-api/shared/entities/PageViewEntity.cs and
//! src/dashboard-api/features/pageviews/GetPageViewStats.cs.
//!
//! The anonymous `pageview` function adds one row per view: PartitionKey = `Pv|` and the UTC day
//! (`Pv|{DateTime.UtcNow:yyyy-MM-dd}`), RowKey = a new GUID, properties Path, ReferrerHost
//! (optional) and ViewportWidth. After each add it reads a marker row (PartitionKey `Cleanup`,
//! RowKey `last`, property LastCleanupUtc); once a day it reads `PartitionKey lt 'Pv|<36 months
//! ago>'`, submits what it finds as delete transactions of up to 100 rows, and upserts the
//! marker. The dashboard reads `PartitionKey ge 'Pv|<180 days ago>' and PartitionKey le
//! 'Pv|<today>'` and aggregates in memory.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "pageviews", partition_key = "Pv|{viewed_at:date}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct PageView {
    /// `DateTime.UtcNow` when the view is stored; the original keeps only its day, in the key.
    viewed_at: OffsetDateTime,
    /// `Guid.NewGuid()`.
    #[table(key_only)]
    id: Uuid,
    /// Up to 200 characters, starting with `/`.
    #[table(max_len = 200)]
    path: String,
    #[table(max_len = 200)]
    referrer_host: Option<String>,
    viewport_width: i32,
}

#[derive(TableEntity)]
#[table(name = "pageviews", partition_key = "Cleanup", row_key = "last")]
#[table(rename_all = "PascalCase")]
struct CleanupMarker {
    last_cleanup_utc: OffsetDateTime,
}

/// TablePageViewReadStore.GetAllAsync: the days of the last 180, whatever the chart shows.
fn dashboard_window(start_day: &str, today: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey ge 'Pv|{}' and PartitionKey le 'Pv|{}'",
        start_day, today
    ))
    .unwrap()
}

/// TablePageViewStore.AddAsync: the view, then the marker, and the sweep when a day has passed.
async fn add_view<B: Backend>(
    views: &Table<'_, B, PageView>,
    markers: &Table<'_, B, CleanupMarker>,
    view: &PageView,
    marker_key: &<CleanupMarker as TableEntity>::Key,
    marker: &CleanupMarker,
    cutoff_day: &str,
) {
    let _ = views.insert(view).await;
    let _ = markers.get(marker_key).await;
    purge_expired(views, cutoff_day).await;
    let _ = markers.upsert(marker).await;
}

/// MaybePurgeExpiredAsync: every row before the cutoff day, deleted (the original groups them
/// in transactions of 100 across partitions).
async fn purge_expired<B: Backend>(views: &Table<'_, B, PageView>, cutoff_day: &str) {
    let old = Query::filter(&format!("PartitionKey lt 'Pv|{}'", cutoff_day)).unwrap();
    let page = views.query_page(&old, None).await.unwrap();
    for row in page.items {
        let _ = views.delete(&row.key(), IfMatch::Any).await;
    }
}

//! An event log: high write volume, read by service and time, newest first, deleted by whole
//! tables.
//!
//! Patterns (see the design guides): a time-only PartitionKey would send every write to the
//! newest partition (the *prepend/append anti-pattern*), so the PartitionKey leads with the
//! service that wrote the event and adds an hour bucket (`{service}_{at:hour}`): writes spread
//! over services, and one hour of one service is one partition. RowKeys are inverted ticks plus
//! the event id (the *log tail* pattern): the newest event of a partition sorts first, so "the
//! last n events" is one query with `$top`, and a time window is still a RowKey range (the
//! generated range query flips the bounds). Old events go by month in the *high-volume delete*
//! pattern: [`PeriodTables`] gives each month its own table (`Events202611`), and dropping a
//! month is one table delete instead of a delete per event.
//!
//! [`run`] works on any backend; [`log_tail_examined`] measures on the in-process store how few
//! entities the log tail query reads, a statistic the service does not give.

use pollster::block_on;
use table_runtime::period::{Granularity, PeriodTables};
use table_runtime::query::keyed::KeyQuery;
use table_runtime::{Backend, Query, QueryClass, Store, StoreError, TableEntity};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

/// One event.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Events",
    partition_key = "{service}_{at:hour}",
    row_key = "{at:inverted_ticks}_{event_id}"
)]
#[table(rename_all = "PascalCase")]
pub struct Event {
    /// The service that wrote it.
    #[table(max_len = 64)]
    pub service: String,
    /// When it happened.
    pub at: OffsetDateTime,
    /// Its id (unique, so two events at the same tick don't collide).
    pub event_id: Uuid,
    /// `info`, `warn` or `error`.
    pub level: String,
    /// What happened.
    pub message: String,
}

/// The monthly tables of the log: `Events` plus the month, `Events202611`.
pub fn event_tables() -> PeriodTables {
    // "Events" is a valid base: letters only, so the names can't be misread.
    PeriodTables::new(Event::TABLE, Granularity::Month)
        .unwrap_or_else(|e| unreachable!("a constant, valid base: {e}"))
}

/// What [`run`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The monthly tables the events were written to.
    pub tables_written: Vec<String>,
    /// Events of `billing` between 10:15 and 10:45 on the first day.
    pub window: usize,
    /// The class of that query.
    pub window_class: QueryClass,
    /// Errors of `auth` in the 10:00 hour of the first day.
    pub auth_errors: usize,
    /// Messages of the three newest `auth` events of the 10:00 hour, newest first.
    pub latest: Vec<String>,
    /// The tables dropped as older than November, and whether each still existed.
    pub dropped: Vec<(String, bool)>,
    /// The log's monthly tables left after the October table was dropped.
    pub tables_left: Vec<String>,
}

/// The first instant of the log: 10:00 on October 31st, 2026.
pub fn log_start() -> OffsetDateTime {
    time::macros::datetime!(2026-10-31 10:00 UTC)
}

/// Writes a day of events from [`log_start`], one per service every five minutes, creating each
/// month's table before its first write, and returns the tables written to.
pub async fn write_events<B: Backend>(backend: &B) -> Result<Vec<String>, StoreError> {
    let start = log_start();
    let end = start + Duration::days(1);
    let tables = event_tables();
    // One table per month the events fall in, created before the first write to it.
    let mut tables_written = Vec::new();
    for period in tables.periods_between(start, end)? {
        tables.ensure_table(backend, period.start).await?;
        tables_written.push(period.table);
    }
    let mut n = 0u128;
    for minute in (0..24 * 60).step_by(5) {
        let at = start + Duration::minutes(minute);
        let month = tables.typed::<_, Event>(backend, at)?;
        for service in ["auth", "billing"] {
            n += 1;
            let event = Event {
                service: service.into(),
                at,
                event_id: Uuid::from_u128(n),
                level: if minute % 30 == 0 {
                    "error".into()
                } else {
                    "info".into()
                },
                message: format!("{service} at minute {minute}"),
            };
            month.insert(&event).await?;
        }
    }
    Ok(tables_written)
}

/// The log tail: the three newest `auth` events of the first hour.
pub fn tail_query() -> Result<KeyQuery, StoreError> {
    Ok(Event::latest("auth", log_start(), 3)?)
}

/// Writes events for two months, queries a window and the log tail, then drops the older
/// month.
pub fn run<B: Backend>(backend: &B) -> Result<Report, StoreError> {
    block_on(run_async(backend))
}

async fn run_async<B: Backend>(backend: &B) -> Result<Report, StoreError> {
    let tables = event_tables();
    let tables_written = write_events(backend).await?;

    let hour = log_start();
    let october = tables.typed::<_, Event>(backend, hour)?;
    let window_q = Event::range_by_at(
        "billing",
        hour,
        hour + Duration::minutes(15)..hour + Duration::minutes(45),
    )?;
    let window = october.query_all(&window_q).await?.len();
    // The hour's partition, filtered on a property by the service.
    let auth_hour = Query::filter(&format!(
        "{} and Level eq 'error'",
        Event::partition_query("auth", hour)?.filter()
    ))?;
    let auth_errors = crate::query_entities(backend, october.name(), &auth_hour)
        .await?
        .len();

    // The log tail: the newest events come first, so the first page of three is the answer.
    let latest = october
        .query_all(&tail_query()?)
        .await?
        .into_iter()
        .map(|e| e.message)
        .collect();

    // Everything before November goes: one table delete for the whole of October.
    let cutoff = time::macros::datetime!(2026-11-01 00:00 UTC);
    let dropped = tables
        .drop_before(backend, cutoff)
        .await?
        .into_iter()
        .map(|d| (d.period.table, d.existed))
        .collect();
    let tables_left = tables
        .existing(backend)
        .await?
        .into_iter()
        .map(|p| p.table)
        .collect();
    Ok(Report {
        tables_written,
        window,
        window_class: window_q.class(),
        auth_errors,
        latest,
        dropped,
        tables_left,
    })
}

/// Store only: writes the log into a fresh in-process store and returns how many entities the
/// store examined to answer the log tail query ([`tail_query`]), a statistic the service does
/// not give.
pub fn log_tail_examined() -> Result<usize, StoreError> {
    let store = Store::new();
    block_on(write_events(&store))?;
    let october = event_tables().table_for(log_start())?;
    let page = store.query(&october, &tail_query()?.to_query()?)?;
    Ok(page.stats.examined)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_ranges_and_months_drop_whole() {
        let report = run(&Store::new()).unwrap();
        // 10:15, 10:20, ..., 10:40: six events.
        assert_eq!(report.window, 6);
        assert_eq!(report.window_class, QueryClass::RangeQuery);
        // 10:00 and 10:30 are errors.
        assert_eq!(report.auth_errors, 2);
        assert_eq!(report.tables_written, ["Events202610", "Events202611"]);
        assert_eq!(report.dropped, [("Events202610".to_owned(), true)]);
        assert_eq!(report.tables_left, ["Events202611"]);
    }

    #[test]
    fn the_log_tail_is_the_first_rows_of_one_partition() {
        let report = run(&Store::new()).unwrap();
        assert_eq!(
            report.latest,
            [
                "auth at minute 55",
                "auth at minute 50",
                "auth at minute 45"
            ]
        );
    }

    #[test]
    fn the_store_reads_only_the_rows_of_the_log_tail() {
        // Three rows read for three returned: no scan of the hour, let alone the table.
        assert_eq!(log_tail_examined().unwrap(), 3);
    }

    #[test]
    fn the_partition_key_leads_with_the_service() {
        let e = Event {
            service: "auth".into(),
            at: time::macros::datetime!(2026-10-31 10:20 UTC),
            event_id: Uuid::nil(),
            level: "info".into(),
            message: String::new(),
        };
        assert_eq!(e.partition_key().unwrap(), "auth_2026-10-31T10");
        let key = EventKey::parse(&e.partition_key().unwrap(), &e.row_key().unwrap()).unwrap();
        assert_eq!(key.service, "auth");
        assert_eq!(key.at, e.at);
    }
}

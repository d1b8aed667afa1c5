//! An event log: high write volume, read by service and time, deleted by whole tables.
//!
//! Patterns (see the design guides): a time-only PartitionKey would send every write to the
//! newest partition (the *prepend/append anti-pattern*), so the PartitionKey leads with the
//! service that wrote the event and adds an hour bucket (`{service}_{at:hour}`): writes spread
//! over services, and one hour of one service is one partition. RowKeys are ascending ticks plus
//! the event id, so events read in time order and a time window is a RowKey range. Old events
//! go by month in the *high-volume delete* pattern: each month has its own table
//! (`Events202611`), and dropping a month is one table delete instead of a delete per event.

use table_runtime::{QueryClass, Store, StoreError, TableEntity};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

/// One event.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Events",
    partition_key = "{service}_{at:hour}",
    row_key = "{at:ticks}_{event_id}"
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

/// The table holding one month's events (the high-volume delete pattern).
pub fn month_table(at: OffsetDateTime) -> String {
    format!("Events{:04}{:02}", at.year(), u8::from(at.month()))
}

/// What [`run`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Events of `billing` between 10:15 and 10:45 on the first day.
    pub window: usize,
    /// The class of that query.
    pub window_class: QueryClass,
    /// Errors of `auth` in the 10:00 hour of the first day.
    pub auth_errors: usize,
    /// Tables left after the October table was dropped.
    pub tables_left: Vec<String>,
}

/// Writes events for two months, queries a window, then drops the older month.
pub fn run(store: &Store) -> Result<Report, StoreError> {
    let start = time::macros::datetime!(2026-10-31 10:00 UTC);
    let mut n = 0u128;
    for minute in (0..24 * 60).step_by(5) {
        let at = start + Duration::minutes(minute);
        let table = month_table(at);
        if store.create_table(&table).is_ok() {
            // New month, new table.
        }
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
            store.insert(&table, &event.to_entity()?)?;
        }
    }

    let october = month_table(start);
    let hour = start;
    let window_q = Event::range_by_at(
        "billing",
        hour,
        hour + Duration::minutes(15)..hour + Duration::minutes(45),
    )?;
    let window = store.query_all(&october, &window_q.to_query()?)?.len();
    let mut auth_hour = Event::partition_query("auth", hour)?.to_query()?;
    auth_hour.filter = Some(table_runtime::Filter::parse(&format!(
        "{} and Level eq 'error'",
        Event::partition_query("auth", hour)?.filter()
    ))?);
    let auth_errors = store.query_all(&october, &auth_hour)?.len();

    store.delete_table(&october)?;
    let tables_left = store.list_tables(None, None)?.tables;
    Ok(Report {
        window,
        window_class: window_q.class(),
        auth_errors,
        tables_left,
    })
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
        assert_eq!(report.tables_left, ["Events202611"]);
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
        assert_eq!(e.partition_key().unwrap(), "auth _2026-10-31T10");
        let key = EventKey::parse(&e.partition_key().unwrap(), &e.row_key().unwrap()).unwrap();
        assert_eq!(key.service, "auth");
        assert_eq!(key.at, e.at);
    }
}

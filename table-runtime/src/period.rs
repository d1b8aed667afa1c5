//! The *high-volume delete* pattern: entities that expire together live in a table of their
//! own, one table per period, so removing a period is one table delete however many entities
//! it holds.
//!
//! [`PeriodTables`] names the tables of one family (a base name plus the period's UTC digits:
//! `Events202611` for a month, `Events20261123` for a day, `Events2026112310` for an hour),
//! lists the periods between two instants, reads a table name back into its period, and drops
//! whole periods through any [`Backend`]: [`PeriodTables::drop_period`] for one,
//! [`PeriodTables::drop_before`] for every period that ended before a cutoff (found by listing
//! the account's tables page by page).
//!
//! Every period gets a name of its own and a name is never reused for a later period, which is
//! what the service wants: a table name can't be created again for a while after its table is
//! deleted.
//!
//! ```
//! use pollster::block_on;
//! use table_runtime::Store;
//! use table_runtime::period::{Granularity, PeriodTables};
//! use time::macros::datetime;
//!
//! let store = Store::new();
//! let logins = PeriodTables::new("Logins", Granularity::Day).unwrap();
//! for day in 20..23 {
//!     let at = datetime!(2026-11-01 08:00 UTC).replace_day(day).unwrap();
//!     block_on(logins.ensure_table(&store, at)).unwrap();
//! }
//! assert_eq!(logins.table_for(datetime!(2026-11-21 17:30 UTC)).unwrap(), "Logins20261121");
//!
//! // Everything older than the 22nd goes, one table delete per day.
//! let dropped = block_on(logins.drop_before(&store, datetime!(2026-11-22 00:00 UTC))).unwrap();
//! let names: Vec<_> = dropped.iter().map(|d| d.period.table.as_str()).collect();
//! assert_eq!(names, ["Logins20261120", "Logins20261121"]);
//! assert_eq!(store.list_tables(None, None).unwrap().tables, ["Logins20261122"]);
//! ```

use std::fmt;

use time::{Date, Duration, Month, OffsetDateTime, Time, UtcOffset};

use crate::backend::Backend;
use crate::error::{ErrorCode, StoreError};
use crate::key::encode::Bucket;
use crate::table::Table;
use crate::typed::TableEntity;

/// The longest table name the service accepts.
const MAX_TABLE_NAME: usize = 63;

/// The first year a period can start in (the service's DateTime starts at year 1).
pub const FIRST_YEAR: i32 = 1;
/// The last year a period can start in: the end of every period must still be a date the
/// `time` crate represents.
pub const LAST_YEAR: i32 = 9998;

/// How long one period (and so one table) lasts: the units of the key encoding's time
/// buckets, so a table of a day is named with the digits a `{at:yyyyMMdd}` key holds.
pub use crate::key::encode::Granularity;

impl Granularity {
    /// The first instant (UTC) of the period holding `at`, or `None` when `at` lies outside
    /// the supported years ([`FIRST_YEAR`] to [`LAST_YEAR`] in UTC).
    pub fn start_of(self, at: OffsetDateTime) -> Option<OffsetDateTime> {
        let utc = at.checked_to_offset(UtcOffset::UTC)?;
        if !(FIRST_YEAR..=LAST_YEAR).contains(&utc.year()) {
            return None;
        }
        Some(match self {
            Granularity::Hour => utc.replace_time(Time::from_hms(utc.hour(), 0, 0).ok()?),
            Granularity::Day => utc.replace_time(Time::MIDNIGHT),
            Granularity::Month => utc.replace_time(Time::MIDNIGHT).replace_day(1).ok()?,
        })
    }

    /// The first instant after the period that starts at `start`.
    fn end_of(self, start: OffsetDateTime) -> Option<OffsetDateTime> {
        match self {
            Granularity::Hour => start.checked_add(Duration::HOUR),
            Granularity::Day => start.checked_add(Duration::DAY),
            Granularity::Month => {
                let (year, month) = match start.month() {
                    Month::December => (start.year().checked_add(1)?, Month::January),
                    m => (start.year(), m.next()),
                };
                let date = Date::from_calendar_date(year, month, 1).ok()?;
                Some(start.replace_date(date))
            }
        }
    }
}

impl fmt::Display for Granularity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Granularity::Hour => "hour",
            Granularity::Day => "day",
            Granularity::Month => "month",
        })
    }
}

/// One period of a family: its table and the instants it covers, `start..end`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Period {
    /// The first instant of the period (UTC).
    pub start: OffsetDateTime,
    /// The first instant after the period (UTC).
    pub end: OffsetDateTime,
    /// The table holding the period's entities.
    pub table: String,
}

impl Period {
    /// Whether `at` falls in the period.
    pub fn contains(&self, at: OffsetDateTime) -> bool {
        self.start <= at && at < self.end
    }
}

/// The outcome of dropping one period's table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// The period whose table was dropped.
    pub period: Period,
    /// `true` when the table existed and this call deleted it; `false` when it was already
    /// gone (never created, or deleted earlier), which is not an error.
    pub existed: bool,
}

/// A family of tables, one per period: a base name and a [`Granularity`].
///
/// The base must be ASCII letters and digits, start *and end* with a letter, and leave room
/// for the period's digits within the service's 63 characters. Ending with a letter keeps the
/// names unambiguous: no other family's table can be read as one of this family's periods.
/// Names are compared without regard to case, as the service does.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PeriodTables {
    base: String,
    granularity: Granularity,
}

impl PeriodTables {
    /// A family of tables named `{base}{period digits}`; an `InvalidResourceName` error if the
    /// base can't make valid, unambiguous table names.
    ///
    /// ```
    /// use table_runtime::period::{Granularity, PeriodTables};
    /// assert!(PeriodTables::new("Events", Granularity::Month).is_ok());
    /// assert!(PeriodTables::new("2Events", Granularity::Month).is_err()); // starts with a digit
    /// assert!(PeriodTables::new("Events2", Granularity::Month).is_err()); // ends with a digit
    /// assert!(PeriodTables::new("Sign_ins", Granularity::Day).is_err()); // not alphanumeric
    /// ```
    pub fn new(base: impl Into<String>, granularity: Granularity) -> Result<Self, StoreError> {
        let base = base.into();
        let invalid = |why: &str| {
            Err(StoreError::new(
                ErrorCode::InvalidResourceName,
                format!("`{base}` can't be the base of per-{granularity} table names: {why}"),
            ))
        };
        if base.is_empty() {
            return invalid("it is empty; table names must start with a letter");
        }
        if let Some(c) = base.chars().find(|c| !c.is_ascii_alphanumeric()) {
            return invalid(&format!(
                "table names hold only ASCII letters and digits, and it holds {c:?}"
            ));
        }
        if !base.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return invalid("table names must start with a letter");
        }
        if !base.ends_with(|c: char| c.is_ascii_alphabetic()) {
            return invalid(
                "it must end with a letter, so the period's digits can't be mistaken for part of the base",
            );
        }
        let longest = MAX_TABLE_NAME - granularity.digits();
        if base.len() > longest {
            return invalid(&format!(
                "it has {} characters; with the {} digits of a {granularity} the name would pass the {MAX_TABLE_NAME}-character limit (at most {longest} for the base)",
                base.len(),
                granularity.digits()
            ));
        }
        Ok(PeriodTables { base, granularity })
    }

    /// The base name.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The length of each period.
    pub fn granularity(&self) -> Granularity {
        self.granularity
    }

    /// The period holding `at` (any offset; periods are UTC); an `OutOfRangeInput` error
    /// outside the years [`FIRST_YEAR`] to [`LAST_YEAR`].
    pub fn period_of(&self, at: OffsetDateTime) -> Result<Period, StoreError> {
        let start = self.granularity.start_of(at).ok_or_else(|| {
            StoreError::new(
                ErrorCode::OutOfRangeInput,
                format!(
                    "{at} is outside the years {FIRST_YEAR} to {LAST_YEAR} (UTC) that period tables cover"
                ),
            )
        })?;
        Ok(self.period_starting(start))
    }

    /// The period starting at `start`, which is a period boundary in the supported years.
    fn period_starting(&self, start: OffsetDateTime) -> Period {
        // The supported years end a year before the last date `time` can hold, so the end of
        // a period in them always exists; the fallback is never taken.
        let end = self
            .granularity
            .end_of(start)
            .unwrap_or(OffsetDateTime::UNIX_EPOCH);
        let mut table = String::with_capacity(self.base.len() + self.granularity.digits());
        table.push_str(&self.base);
        Bucket::new(self.granularity, true).push_calendar(&mut table, start);
        Period { start, end, table }
    }

    /// The name of the table holding `at`'s period.
    ///
    /// ```
    /// use table_runtime::period::{Granularity, PeriodTables};
    /// use time::macros::datetime;
    /// let hourly = PeriodTables::new("Clicks", Granularity::Hour).unwrap();
    /// // Periods are UTC: 23:30 at UTC-02:00 is 01:30 the next day.
    /// let at = datetime!(2026-11-23 23:30 -02:00);
    /// assert_eq!(hourly.table_for(at).unwrap(), "Clicks2026112401");
    /// ```
    pub fn table_for(&self, at: OffsetDateTime) -> Result<String, StoreError> {
        self.period_of(at).map(|p| p.table)
    }

    /// The periods that hold an instant of `from..to` (end excluded), oldest first; empty when
    /// `to` is not after `from`. The iterator is lazy, so a long range costs nothing until it
    /// is read.
    ///
    /// ```
    /// use table_runtime::period::{Granularity, PeriodTables};
    /// use time::macros::datetime;
    /// let monthly = PeriodTables::new("Events", Granularity::Month).unwrap();
    /// let names: Vec<_> = monthly
    ///     .periods_between(datetime!(2026-11-15 00:00 UTC), datetime!(2027-02-01 00:00 UTC))
    ///     .unwrap()
    ///     .map(|p| p.table)
    ///     .collect();
    /// assert_eq!(names, ["Events202611", "Events202612", "Events202701"]);
    /// ```
    pub fn periods_between(
        &self,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> Result<Periods<'_>, StoreError> {
        let first = self.period_of(from)?;
        Ok(Periods {
            family: self,
            next: (from < to).then_some(first),
            to,
        })
    }

    /// The period a table of this family holds, read from its name (case ignored); `None` for
    /// a table of another family or a name that is not a valid period.
    ///
    /// ```
    /// use table_runtime::period::{Granularity, PeriodTables};
    /// let daily = PeriodTables::new("Logins", Granularity::Day).unwrap();
    /// assert!(daily.parse_table("logins20261123").is_some());
    /// assert!(daily.parse_table("Logins20261323").is_none()); // no 13th month
    /// assert!(daily.parse_table("Logins202611").is_none()); // a month, not a day
    /// assert!(daily.parse_table("Audit20261123").is_none());
    /// ```
    pub fn parse_table(&self, name: &str) -> Option<Period> {
        if name.len() != self.base.len() + self.granularity.digits()
            || !name.is_char_boundary(self.base.len())
        {
            return None;
        }
        let (base, digits) = name.split_at(self.base.len());
        if !base.eq_ignore_ascii_case(&self.base) {
            return None;
        }
        let start = Bucket::new(self.granularity, true)
            .parse_calendar(digits)
            .ok()?;
        // Only the canonical spelling of a supported period is one of ours.
        let period = self.period_of(start).ok()?;
        (period.start == start).then_some(period)
    }

    /// A typed handle over the table of `at`'s period, for entities of `T` stored per period.
    pub fn typed<'b, B: Backend, T: TableEntity>(
        &self,
        backend: &'b B,
        at: OffsetDateTime,
    ) -> Result<Table<'b, B, T>, StoreError> {
        Ok(Table::named(backend, self.table_for(at)?))
    }

    /// Creates the table of `at`'s period unless it exists, and returns the period.
    pub async fn ensure_table<B: Backend>(
        &self,
        backend: &B,
        at: OffsetDateTime,
    ) -> Result<Period, StoreError> {
        let period = self.period_of(at)?;
        match backend.create_table(&period.table).await {
            Ok(()) => Ok(period),
            Err(e) if e.code == ErrorCode::TableAlreadyExists => Ok(period),
            Err(e) => Err(e),
        }
    }

    /// The periods of this family whose tables exist, oldest first, found by listing every
    /// table of the account (following continuations).
    pub async fn existing<B: Backend>(&self, backend: &B) -> Result<Vec<Period>, StoreError> {
        let mut found = Vec::new();
        let mut continuation = None;
        loop {
            let page = backend.list_tables(None, continuation).await?;
            found.extend(page.tables.iter().filter_map(|t| self.parse_table(t)));
            match page.continuation {
                Some(next) => continuation = Some(next),
                None => break,
            }
        }
        found.sort();
        found.dedup_by(|a, b| a.start == b.start);
        Ok(found)
    }

    /// Drops the table of `at`'s period: every entity of the period goes in one operation. A
    /// table that is already gone is reported with `existed: false`, not as an error.
    pub async fn drop_period<B: Backend>(
        &self,
        backend: &B,
        at: OffsetDateTime,
    ) -> Result<Dropped, StoreError> {
        let period = self.period_of(at)?;
        Self::drop_table(backend, period).await
    }

    /// Drops the table of every period that ended at or before `cutoff` (the period holding
    /// `cutoff` is kept), one table delete each, oldest first. Tables deleted by someone else
    /// in the meantime are reported with `existed: false`. If a delete fails, the tables
    /// dropped before it stay dropped and the error is returned; calling again carries on.
    pub async fn drop_before<B: Backend>(
        &self,
        backend: &B,
        cutoff: OffsetDateTime,
    ) -> Result<Vec<Dropped>, StoreError> {
        let mut dropped = Vec::new();
        for period in self.existing(backend).await? {
            if period.end <= cutoff {
                dropped.push(Self::drop_table(backend, period).await?);
            }
        }
        Ok(dropped)
    }

    async fn drop_table<B: Backend>(backend: &B, period: Period) -> Result<Dropped, StoreError> {
        match backend.delete_table(&period.table).await {
            Ok(()) => Ok(Dropped {
                period,
                existed: true,
            }),
            Err(e)
                if matches!(
                    e.code,
                    ErrorCode::ResourceNotFound | ErrorCode::TableNotFound
                ) =>
            {
                Ok(Dropped {
                    period,
                    existed: false,
                })
            }
            Err(e) => Err(e),
        }
    }
}

/// The periods between two instants, oldest first (see [`PeriodTables::periods_between`]).
#[derive(Debug, Clone)]
pub struct Periods<'a> {
    family: &'a PeriodTables,
    next: Option<Period>,
    to: OffsetDateTime,
}

impl Iterator for Periods<'_> {
    type Item = Period;

    fn next(&mut self) -> Option<Period> {
        let current = self.next.take()?;
        if current.end < self.to {
            self.next = self.family.period_of(current.end).ok();
        }
        Some(current)
    }
}

impl std::iter::FusedIterator for Periods<'_> {}

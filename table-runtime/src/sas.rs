//! Table shared access signatures (service SAS for one table): what one lets its holder do, and
//! an in-process store that enforces it, so access rules can be tested without the service.
//!
//! A [`SasScope`] is the part of a table SAS that decides access: the table, some of four
//! permissions ([`TablePermissions`]: `r` query, `a` add, `u` update, `d` delete), a validity
//! window, and optionally a range of entity keys. The HTTP backend (`table-http`) signs the same
//! scope into a token. [`Scoped`] wraps any [`Backend`] so that it answers like the service does
//! to a request made with that token: [`Store::scoped`] wraps the in-process store, and
//! `table-http` wraps its HTTP transport whenever it is given a SAS, so that what the SAS does
//! not allow is refused before it is sent, whatever the server would have done with it.
//!
//! # The rules, as the service documents them
//!
//! - **Time**: the SAS is valid from its start (or at once, without one) until its expiry; at or
//!   after the expiry, or before the start, every request is refused with 403
//!   `AuthenticationFailed`. A [`Scoped`] backend reads the time from a [`Clock`], which a test
//!   can set.
//! - **Table**: only the SAS's table (its name compared without regard to case); any other table
//!   is 403 `AuthorizationFailure`. Creating, deleting and listing tables are account-level
//!   operations a table SAS never grants: 403 `AuthorizationFailure`.
//! - **Permissions**: get and query need `r`; insert `a`; replace and merge `u`; the upserts
//!   (insert-or-replace, insert-or-merge) both `a` and `u`; delete `d`. A transaction needs, for
//!   each of its operations, what that operation needs. A missing permission is 403
//!   `AuthorizationPermissionMismatch`.
//! - **Key range**: with `spk`/`srk`/`epk`/`erk`, an entity is in range when its
//!   (PartitionKey, RowKey) pair is at or after (`spk`, `srk`) and at or before (`epk`, `erk`),
//!   comparing PartitionKeys first and RowKeys only between equal PartitionKeys (keys compare by
//!   UTF-16 code unit, as everywhere in the service). A missing start RowKey leaves the start
//!   partition open from its first row, a missing end RowKey the end partition open to its
//!   last; a missing start or end PartitionKey leaves that side unbounded. So `spk = "AU"`,
//!   `srk = "EMP001"`, `epk = "NZ"`, `erk = "EMP010"` reaches all of partition `EU`, the rows of
//!   `AU` from `EMP001` on and the rows of `NZ` up to `EMP010`.
//!
//!   A write, delete or point read of an entity outside the range is refused with 403
//!   `AuthorizationFailure`, and in a transaction one such operation fails the whole
//!   transaction (with its index). A **query is not refused**: the service documents that a
//!   query made with a range-restricted SAS returns only the entities within the range, so a
//!   [`Scoped`] backend adds the range to the query's filter, and a query reaching past the range
//!   simply returns fewer entities (paging and `$top` work on what remains).
//!
//! A refused request changes nothing. The checks run in the order above, so an expired SAS is
//! reported as such whatever the request.
//!
//! ```
//! use table_runtime::sas::{ManualClock, SasScope, TablePermissions};
//! use table_runtime::{Backend, BatchOperation, Entity, Store};
//! use time::macros::datetime;
//!
//! let store = Store::new();
//! store.create_table("Orders").unwrap();
//! let mut scope = SasScope::new("Orders", TablePermissions::parse("ra").unwrap(), datetime!(2030-01-01 0:00 UTC));
//! scope.start_partition_key = Some("cust-1".into());
//! scope.end_partition_key = Some("cust-1".into());
//!
//! let clock = ManualClock::new(datetime!(2029-06-01 0:00 UTC));
//! let client = store.scoped(&scope).with_clock(clock.clone());
//! let insert = |pk: &str| pollster::block_on(client.write("Orders", BatchOperation::Insert(Entity::new(pk, "o1"))));
//! assert!(insert("cust-1").is_ok());
//! assert_eq!(insert("cust-2").unwrap_err().code.as_str(), "AuthorizationFailure");
//! clock.set(datetime!(2030-01-01 0:00 UTC));
//! assert_eq!(insert("cust-1").unwrap_err().code.as_str(), "AuthenticationFailed");
//! ```

use std::cmp::Ordering;
use std::fmt;
use std::future::{Future, ready};
use std::sync::{Arc, Mutex};

use time::OffsetDateTime;

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::Entity;
use crate::error::{ErrorCode, StoreError};
use crate::key::compare_utf16;
use crate::query::{CompareOp, Expr, Filter, Query, Target, quote};
use crate::store::{BatchResult, EntityView, PageEnd, QueryPage, Store, TablePage, WriteResult};
use crate::value::Value;

/// A SAS whose fields do not agree, or a permission string that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid shared access signature: {0}")]
pub struct SasError(pub String);

/// The operations a table SAS allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TablePermissions {
    /// `r`: get entities and query.
    pub query: bool,
    /// `a`: insert entities (and the insert half of upserts).
    pub add: bool,
    /// `u`: replace and merge entities (and the update half of upserts).
    pub update: bool,
    /// `d`: delete entities.
    pub delete: bool,
}

impl TablePermissions {
    /// Every permission: `raud`.
    pub const ALL: TablePermissions = TablePermissions {
        query: true,
        add: true,
        update: true,
        delete: true,
    };
    /// Queries only: `r`.
    pub const READ: TablePermissions = TablePermissions {
        query: true,
        add: false,
        update: false,
        delete: false,
    };
    /// No permission at all.
    pub const NONE: TablePermissions = TablePermissions {
        query: false,
        add: false,
        update: false,
        delete: false,
    };

    /// Reads a permission string such as `raud` or `ru` (letters in any order, each once).
    ///
    /// ```
    /// use table_runtime::sas::TablePermissions;
    /// let p = TablePermissions::parse("ur").unwrap();
    /// assert_eq!(p.to_string(), "ru");
    /// assert!(TablePermissions::parse("rw").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<TablePermissions, SasError> {
        let mut p = TablePermissions::default();
        for c in text.chars() {
            let flag = match c {
                'r' => &mut p.query,
                'a' => &mut p.add,
                'u' => &mut p.update,
                'd' => &mut p.delete,
                other => {
                    return Err(SasError(format!(
                        "`{other}` is not a table permission (r, a, u, d)"
                    )));
                }
            };
            if *flag {
                return Err(SasError(format!("permission `{c}` is given twice")));
            }
            *flag = true;
        }
        Ok(p)
    }

    /// Whether no permission is granted.
    pub fn is_empty(self) -> bool {
        self == TablePermissions::NONE
    }

    /// Whether every permission of `other` is granted here too.
    ///
    /// ```
    /// use table_runtime::sas::TablePermissions;
    /// assert!(TablePermissions::ALL.contains(TablePermissions::READ));
    /// assert!(!TablePermissions::READ.contains(TablePermissions::ALL));
    /// ```
    pub fn contains(self, other: TablePermissions) -> bool {
        (self.query || !other.query)
            && (self.add || !other.add)
            && (self.update || !other.update)
            && (self.delete || !other.delete)
    }

    /// The permissions of `other` missing here.
    pub fn missing(self, other: TablePermissions) -> TablePermissions {
        TablePermissions {
            query: other.query && !self.query,
            add: other.add && !self.add,
            update: other.update && !self.update,
            delete: other.delete && !self.delete,
        }
    }

    /// What a write needs: `a` to insert, `u` to replace or merge, both for an upsert, `d` to
    /// delete.
    ///
    /// ```
    /// use table_runtime::sas::TablePermissions;
    /// use table_runtime::{BatchOperation, Entity};
    /// let upsert = BatchOperation::UpsertMerge(Entity::new("p", "r"));
    /// assert_eq!(TablePermissions::needed_by(&upsert).to_string(), "au");
    /// ```
    pub fn needed_by(op: &BatchOperation) -> TablePermissions {
        let mut p = TablePermissions::NONE;
        match op {
            BatchOperation::Insert(_) => p.add = true,
            BatchOperation::Replace(..) | BatchOperation::Merge(..) => p.update = true,
            BatchOperation::UpsertReplace(_) | BatchOperation::UpsertMerge(_) => {
                p.add = true;
                p.update = true;
            }
            BatchOperation::Delete { .. } => p.delete = true,
        }
        p
    }
}

impl fmt::Display for TablePermissions {
    /// The permissions in the service's order, `raud`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (set, letter) in [
            (self.query, "r"),
            (self.add, "a"),
            (self.update, "u"),
            (self.delete, "d"),
        ] {
            if set {
                f.write_str(letter)?;
            }
        }
        Ok(())
    }
}

/// What a table SAS lets its holder do: one table, some permissions, a validity window and an
/// optional range of entity keys (see the [module documentation](self) for the rules).
///
/// The same value is signed into a token by `table-http` and enforced by [`Scoped`] (over the
/// in-process store, [`Store::scoped`]; over HTTP, `table-http`'s backend when given a SAS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SasScope {
    /// The table the SAS is for (`tn`).
    pub table: String,
    /// What it allows (`sp`).
    pub permissions: TablePermissions,
    /// When it becomes valid (`st`; `None`: at once).
    pub start: Option<OffsetDateTime>,
    /// When it stops being valid (`se`).
    pub expiry: OffsetDateTime,
    /// The smallest PartitionKey it reaches (`spk`).
    pub start_partition_key: Option<String>,
    /// With `start_partition_key`, the smallest RowKey within that partition (`srk`).
    pub start_row_key: Option<String>,
    /// The largest PartitionKey it reaches (`epk`).
    pub end_partition_key: Option<String>,
    /// With `end_partition_key`, the largest RowKey within that partition (`erk`).
    pub end_row_key: Option<String>,
}

impl SasScope {
    /// A scope over the whole of `table` with `permissions` until `expiry`.
    pub fn new(
        table: impl Into<String>,
        permissions: TablePermissions,
        expiry: OffsetDateTime,
    ) -> SasScope {
        SasScope {
            table: table.into(),
            permissions,
            start: None,
            expiry,
            start_partition_key: None,
            start_row_key: None,
            end_partition_key: None,
            end_row_key: None,
        }
    }

    /// A scope over one partition of `table`: what a SAS for one value of a PartitionKey's
    /// fields reaches (the derive generates `sas_for_partition` for each design).
    ///
    /// ```
    /// use table_runtime::sas::{SasScope, TablePermissions};
    /// let scope = SasScope::partition("Orders", "cust-1", TablePermissions::READ, time::OffsetDateTime::now_utc());
    /// assert!(scope.contains_key("cust-1", "any order"));
    /// assert!(!scope.contains_key("cust-10", ""));
    /// ```
    pub fn partition(
        table: impl Into<String>,
        partition_key: impl Into<String>,
        permissions: TablePermissions,
        expiry: OffsetDateTime,
    ) -> SasScope {
        let partition_key = partition_key.into();
        SasScope {
            start_partition_key: Some(partition_key.clone()),
            end_partition_key: Some(partition_key),
            ..SasScope::new(table, permissions, expiry)
        }
    }

    /// A scope over every partition of `table` whose key starts with `prefix` (`acme_` for
    /// tenant `acme` of `{tenant}_{region}`). A SAS's range is inclusive at both ends, so the
    /// range ends at the first key after the prefix's keys, `prefix_successor(prefix)` with
    /// an empty RowKey: that one key is the only one outside the prefix it reaches, and a
    /// template whose prefix ends with a separator never produces it.
    ///
    /// ```
    /// use table_runtime::sas::{SasScope, TablePermissions};
    /// let scope = SasScope::partition_prefix("Usage", "acme_", TablePermissions::READ, time::OffsetDateTime::now_utc());
    /// assert!(scope.contains_key("acme_eu", "x") && scope.contains_key("acme_", "x"));
    /// assert!(!scope.contains_key("acme", "x") && !scope.contains_key("acmf", "x"));
    /// assert!(!scope.contains_key("acme2_eu", "x"));
    /// ```
    pub fn partition_prefix(
        table: impl Into<String>,
        prefix: &str,
        permissions: TablePermissions,
        expiry: OffsetDateTime,
    ) -> SasScope {
        let end = crate::query::keyed::prefix_successor(prefix);
        SasScope {
            start_partition_key: Some(prefix.to_owned()),
            end_row_key: end.as_ref().map(|_| String::new()),
            end_partition_key: end,
            ..SasScope::new(table, permissions, expiry)
        }
    }

    /// Checks that the fields agree: a table is named, the start is before the expiry, and a
    /// start (end) RowKey comes with a start (end) PartitionKey.
    pub fn check(&self) -> Result<(), SasError> {
        let fail = |m: &str| Err(SasError(m.to_owned()));
        if self.table.is_empty() {
            return fail("no table is named");
        }
        if self.start.is_some_and(|s| s >= self.expiry) {
            return fail("it expires before it starts");
        }
        if self.start_row_key.is_some() && self.start_partition_key.is_none() {
            return fail("a start RowKey needs a start PartitionKey");
        }
        if self.end_row_key.is_some() && self.end_partition_key.is_none() {
            return fail("an end RowKey needs an end PartitionKey");
        }
        Ok(())
    }

    /// Whether the SAS limits the keys it reaches.
    pub fn has_key_range(&self) -> bool {
        self.start_partition_key.is_some() || self.end_partition_key.is_some()
    }

    /// Whether the entity with these keys is within the SAS's key range.
    ///
    /// ```
    /// use table_runtime::sas::{SasScope, TablePermissions};
    /// let mut scope = SasScope::new("t", TablePermissions::READ, time::OffsetDateTime::now_utc());
    /// scope.start_partition_key = Some("AU".into());
    /// scope.start_row_key = Some("EMP001".into());
    /// scope.end_partition_key = Some("NZ".into());
    /// scope.end_row_key = Some("EMP010".into());
    /// assert!(scope.contains_key("EU", "EMP999"));
    /// assert!(scope.contains_key("AU", "EMP001"));
    /// assert!(!scope.contains_key("AU", "EMP000"));
    /// assert!(scope.contains_key("NZ", "EMP010"));
    /// assert!(!scope.contains_key("NZ", "EMP011"));
    /// ```
    pub fn contains_key(&self, partition_key: &str, row_key: &str) -> bool {
        let after_start = match &self.start_partition_key {
            None => true,
            Some(spk) => match compare_utf16(partition_key, spk) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal => self
                    .start_row_key
                    .as_ref()
                    .is_none_or(|srk| compare_utf16(row_key, srk) != Ordering::Less),
            },
        };
        let before_end = match &self.end_partition_key {
            None => true,
            Some(epk) => match compare_utf16(partition_key, epk) {
                Ordering::Less => true,
                Ordering::Greater => false,
                Ordering::Equal => self
                    .end_row_key
                    .as_ref()
                    .is_none_or(|erk| compare_utf16(row_key, erk) != Ordering::Greater),
            },
        };
        after_start && before_end
    }

    /// The key range as a `$filter`, or `None` without a range: what a [`Scoped`] backend adds to
    /// every query.
    ///
    /// ```
    /// use table_runtime::sas::{SasScope, TablePermissions};
    /// let mut scope = SasScope::new("t", TablePermissions::READ, time::OffsetDateTime::now_utc());
    /// scope.start_partition_key = Some("a".into());
    /// scope.start_row_key = Some("r1".into());
    /// scope.end_partition_key = Some("b".into());
    /// assert_eq!(
    ///     scope.range_filter().unwrap().text,
    ///     "PartitionKey ge 'a' and (PartitionKey gt 'a' or RowKey ge 'r1') and PartitionKey le 'b'"
    /// );
    /// ```
    pub fn range_filter(&self) -> Option<Filter> {
        let key = |target: Target, op: CompareOp, value: &str| Expr::Compare {
            target,
            op,
            literal: Value::String(value.to_owned()),
        };
        let or = |a: Expr, b: Expr| Expr::Or(Box::new(a), Box::new(b));
        let mut parts: Vec<(Expr, String)> = Vec::new();
        if let Some(spk) = &self.start_partition_key {
            parts.push((
                key(Target::PartitionKey, CompareOp::Ge, spk),
                format!("PartitionKey ge {}", quote(spk)),
            ));
            if let Some(srk) = &self.start_row_key {
                parts.push((
                    or(
                        key(Target::PartitionKey, CompareOp::Gt, spk),
                        key(Target::RowKey, CompareOp::Ge, srk),
                    ),
                    format!(
                        "(PartitionKey gt {} or RowKey ge {})",
                        quote(spk),
                        quote(srk)
                    ),
                ));
            }
        }
        if let Some(epk) = &self.end_partition_key {
            parts.push((
                key(Target::PartitionKey, CompareOp::Le, epk),
                format!("PartitionKey le {}", quote(epk)),
            ));
            if let Some(erk) = &self.end_row_key {
                parts.push((
                    or(
                        key(Target::PartitionKey, CompareOp::Lt, epk),
                        key(Target::RowKey, CompareOp::Le, erk),
                    ),
                    format!(
                        "(PartitionKey lt {} or RowKey le {})",
                        quote(epk),
                        quote(erk)
                    ),
                ));
            }
        }
        let mut parts = parts.into_iter();
        let (mut expr, mut text) = parts.next()?;
        for (e, t) in parts {
            expr = Expr::And(Box::new(expr), Box::new(e));
            text = format!("{text} and {t}");
        }
        Some(Filter {
            expr,
            properties: Vec::new(),
            text,
        })
    }

    /// Checks that the SAS is valid at `now` and reaches `table` (the first checks of every
    /// request).
    pub fn admit(&self, table: &str, now: OffsetDateTime) -> Result<(), StoreError> {
        self.check_time(now)?;
        if !self.table.eq_ignore_ascii_case(table) {
            return Err(StoreError::new(
                ErrorCode::AuthorizationFailure,
                format!("this SAS is for table `{}`, not `{table}`", self.table),
            ));
        }
        Ok(())
    }

    /// Checks that the SAS is well formed and valid at `now`.
    pub fn check_time(&self, now: OffsetDateTime) -> Result<(), StoreError> {
        self.check()
            .map_err(|e| StoreError::new(ErrorCode::AuthenticationFailed, e.to_string()))?;
        let not_yet = self.start.is_some_and(|start| now < start);
        if not_yet || now >= self.expiry {
            return Err(StoreError::new(
                ErrorCode::AuthenticationFailed,
                format!(
                    "the SAS is not valid at {now}: it is valid from {} until {}",
                    self.start
                        .map_or_else(|| "its creation".to_owned(), |s| s.to_string()),
                    self.expiry
                ),
            ));
        }
        Ok(())
    }

    /// Checks that the SAS grants `needed`.
    pub fn check_permissions(&self, needed: TablePermissions) -> Result<(), StoreError> {
        if self.permissions.contains(needed) {
            return Ok(());
        }
        Err(StoreError::new(
            ErrorCode::AuthorizationPermissionMismatch,
            format!(
                "this operation needs permission `{}`, which the SAS (`{}`) does not grant",
                self.permissions.missing(needed),
                self.permissions
            ),
        ))
    }

    /// Checks that the entity with these keys is within the SAS's key range.
    pub fn check_key(&self, partition_key: &str, row_key: &str) -> Result<(), StoreError> {
        if self.contains_key(partition_key, row_key) {
            return Ok(());
        }
        Err(StoreError::new(
            ErrorCode::AuthorizationFailure,
            format!(
                "PartitionKey `{partition_key}`, RowKey `{row_key}` is outside the SAS's key range"
            ),
        ))
    }

    /// Checks one write (permission, then key range).
    pub fn check_write(&self, op: &BatchOperation) -> Result<(), StoreError> {
        self.check_permissions(TablePermissions::needed_by(op))?;
        let (pk, rk) = op.keys();
        self.check_key(pk, rk)
    }

    /// `query` limited to the SAS's key range: its filter and the range, both.
    pub fn limit_query(&self, query: &Query) -> Query {
        let Some(range) = self.range_filter() else {
            return query.clone();
        };
        let filter = match &query.filter {
            None => range,
            Some(own) => Filter {
                expr: Expr::And(Box::new(own.expr.clone()), Box::new(range.expr)),
                // The range names no user property, so the filter's own indexes stay valid.
                properties: own.properties.clone(),
                text: format!("({}) and {}", own.text, range.text),
            },
        };
        Query {
            filter: Some(filter),
            ..query.clone()
        }
    }
}

fn table_operation_refused(what: &str) -> StoreError {
    StoreError::new(
        ErrorCode::AuthorizationFailure,
        format!("a table SAS does not allow {what}; that needs the account key or an account SAS"),
    )
}

/// A clock a test can set, shared by its clones.
///
/// ```
/// use table_runtime::sas::ManualClock;
/// use time::macros::datetime;
/// let clock = ManualClock::new(datetime!(2024-01-01 0:00 UTC));
/// clock.advance(time::Duration::hours(2));
/// assert_eq!(clock.now(), datetime!(2024-01-01 2:00 UTC));
/// ```
#[derive(Debug, Clone)]
pub struct ManualClock(Arc<Mutex<OffsetDateTime>>);

impl ManualClock {
    /// A clock that reads `now` until it is changed.
    pub fn new(now: OffsetDateTime) -> ManualClock {
        ManualClock(Arc::new(Mutex::new(now)))
    }

    /// The time it reads.
    pub fn now(&self) -> OffsetDateTime {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Sets the time it reads.
    pub fn set(&self, now: OffsetDateTime) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = now;
    }

    /// Moves it by `by` (backwards when negative).
    pub fn advance(&self, by: time::Duration) {
        let mut now = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *now = now.saturating_add(by);
    }
}

/// Where a [`Scoped`] backend reads the current time.
#[derive(Debug, Clone, Default)]
pub enum Clock {
    /// The system's clock (UTC).
    #[default]
    System,
    /// A clock the test sets.
    Manual(ManualClock),
}

impl Clock {
    /// The current time.
    pub fn now(&self) -> OffsetDateTime {
        match self {
            Clock::System => OffsetDateTime::now_utc(),
            Clock::Manual(m) => m.now(),
        }
    }
}

impl From<ManualClock> for Clock {
    fn from(clock: ManualClock) -> Clock {
        Clock::Manual(clock)
    }
}

/// A backend as seen through a table SAS: a [`Backend`] that refuses, with the service's 403
/// codes, what the SAS does not allow, and hands everything else to the backend it wraps, with
/// queries limited to the SAS's key range (see the [module documentation](self) for the rules).
///
/// Every check runs when a method is called, before anything reaches the wrapped backend, so a
/// refused request is never seen by it. Creating, deleting and listing tables are always refused
/// (after the time check): a table SAS does not grant them.
///
/// [`Store::scoped`] wraps the in-process store; `table-http` wraps its HTTP transport in the
/// same way when it is given a SAS, so that a request the SAS does not allow is refused on the
/// client even when the server (an emulator, say) would not check it.
///
/// ```
/// use table_runtime::sas::{SasScope, Scoped, TablePermissions};
/// use table_runtime::{Backend, BatchOperation, Entity, Query, Store};
///
/// let store = Store::new();
/// store.create_table("Orders").unwrap();
/// let expiry = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
/// // An owned backend (here an `Arc` of the store) works as well as a borrowed one.
/// let shared = std::sync::Arc::new(store);
/// let reader = Scoped::new(shared.clone(), SasScope::new("Orders", TablePermissions::READ, expiry));
/// let insert = BatchOperation::Insert(Entity::new("p", "r"));
/// let refused = pollster::block_on(reader.write("Orders", insert)).unwrap_err();
/// assert_eq!(refused.code.as_str(), "AuthorizationPermissionMismatch");
/// assert!(shared.query_all("Orders", &Query::all()).unwrap().is_empty());
/// ```
#[derive(Debug, Clone)]
pub struct Scoped<B> {
    backend: B,
    scope: SasScope,
    clock: Clock,
}

/// The in-process store seen through a table SAS, as [`Store::scoped`] gives it.
pub type ScopedStore<'s> = Scoped<&'s Store>;

impl Store {
    /// The store as a client holding a table SAS with `scope` sees it (see the [`sas`](crate::sas)
    /// module for the rules). Time is read from the system clock; change that with
    /// [`Scoped::with_clock`].
    pub fn scoped(&self, scope: &SasScope) -> Scoped<&Store> {
        Scoped::new(self, scope.clone())
    }
}

impl<B> Scoped<B> {
    /// `backend` as a client holding a table SAS with `scope` sees it, with time read from the
    /// system clock.
    pub fn new(backend: B, scope: SasScope) -> Scoped<B> {
        Scoped {
            backend,
            scope,
            clock: Clock::System,
        }
    }

    /// The same handle reading the time from `clock`.
    pub fn with_clock(self, clock: impl Into<Clock>) -> Scoped<B> {
        Scoped {
            clock: clock.into(),
            ..self
        }
    }

    /// The scope enforced.
    pub fn scope(&self) -> &SasScope {
        &self.scope
    }

    /// The clock the time checks read.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The backend behind the scope, reached without any check.
    pub fn inner(&self) -> &B {
        &self.backend
    }

    /// The backend behind the scope, unwrapped.
    pub fn into_inner(self) -> B {
        self.backend
    }

    fn table_operation(&self, what: &str) -> Result<(), StoreError> {
        self.scope.check_time(self.clock.now())?;
        Err(table_operation_refused(what))
    }

    fn check_read(&self, table: &str) -> Result<(), StoreError> {
        self.scope.admit(table, self.clock.now())?;
        self.scope.check_permissions(TablePermissions::READ)
    }

    fn check_get(&self, table: &str, partition_key: &str, row_key: &str) -> Result<(), StoreError> {
        self.check_read(table)?;
        self.scope.check_key(partition_key, row_key)
    }

    /// The query limited to the key range, once reading is allowed.
    fn check_query(&self, table: &str, query: &Query) -> Result<Query, StoreError> {
        self.check_read(table)?;
        Ok(self.scope.limit_query(query))
    }

    fn check_write(&self, table: &str, op: &BatchOperation) -> Result<(), StoreError> {
        self.scope.admit(table, self.clock.now())?;
        self.scope.check_write(op)
    }

    fn check_batch(&self, table: &str, ops: &[BatchOperation]) -> Result<(), StoreError> {
        self.scope.admit(table, self.clock.now())?;
        for (index, op) in ops.iter().enumerate() {
            self.scope.check_write(op).map_err(|e| e.at_index(index))?;
        }
        Ok(())
    }
}

impl<'s> Scoped<&'s Store> {
    /// The store behind the scope.
    pub fn store(&self) -> &'s Store {
        self.backend
    }
}

impl<B: Backend> Backend for Scoped<B> {
    fn create_table(&self, _table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        ready(self.table_operation("creating a table"))
    }

    fn delete_table(&self, _table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        ready(self.table_operation("deleting a table"))
    }

    fn list_tables(
        &self,
        _max: Option<usize>,
        _continuation: Option<String>,
    ) -> impl Future<Output = Result<TablePage, StoreError>> + Send {
        ready(self.table_operation("listing tables").map(|()| TablePage {
            tables: Vec::new(),
            continuation: None,
        }))
    }

    fn write(
        &self,
        table: &str,
        op: BatchOperation,
    ) -> impl Future<Output = Result<WriteResult, StoreError>> + Send {
        let checked = self.check_write(table, &op);
        async move {
            checked?;
            self.backend.write(table, op).await
        }
    }

    fn get(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        select: Option<&[&str]>,
    ) -> impl Future<Output = Result<Entity, StoreError>> + Send {
        let checked = self.check_get(table, partition_key, row_key);
        async move {
            checked?;
            self.backend
                .get(table, partition_key, row_key, select)
                .await
        }
    }

    fn query_page(
        &self,
        table: &str,
        query: &Query,
    ) -> impl Future<Output = Result<QueryPage, StoreError>> + Send {
        let limited = self.check_query(table, query);
        async move {
            let limited = limited?;
            self.backend.query_page(table, &limited).await
        }
    }

    fn visit_page<F>(
        &self,
        table: &str,
        query: &Query,
        visit: F,
    ) -> impl Future<Output = Result<PageEnd, StoreError>> + Send
    where
        F: FnMut(EntityView<'_>) + Send,
    {
        let limited = self.check_query(table, query);
        async move {
            let limited = limited?;
            self.backend.visit_page(table, &limited, visit).await
        }
    }

    fn execute_batch(
        &self,
        table: &str,
        ops: Vec<BatchOperation>,
    ) -> impl Future<Output = Result<Vec<BatchResult>, StoreError>> + Send {
        let checked = self.check_batch(table, &ops);
        async move {
            checked?;
            self.backend.execute_batch(table, ops).await
        }
    }
}

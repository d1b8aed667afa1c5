//! A backend that injects faults, to test code against the ways a real service fails.
//!
//! [`Faulty`] wraps any [`Backend`] and forwards every call to it, counting the calls of each
//! [`CallKind`]. Before each call it asks a rule, a closure given a description of the [`Call`],
//! what to do with it: forward it, refuse it, lose its answer, never answer, or let someone else
//! change the data first (see [`Fault`]). The rule is called with the call's arguments when the
//! method is called, before anything is forwarded, and may keep state of its own (it is an
//! `FnMut`); it runs under a lock, so it must not call the backend itself (a hook may). What it
//! chose happens when the returned future is polled. [`once`] and [`seeded`] build common rules.
//!
//! ```
//! use pollster::block_on;
//! use table_runtime::backend::faults::{CallKind, Fault, Faulty};
//! use table_runtime::{Backend, BatchOperation, Entity, ErrorCode, Store, StoreError};
//!
//! let store = Store::new();
//! store.create_table("Staff").unwrap();
//! // Every transaction lands, but its answer is lost on the way back.
//! let backend = Faulty::with_rule(store, |call| match call.kind() {
//!     CallKind::ExecuteBatch => Fault::FailAfter(StoreError::new(
//!         ErrorCode::OperationTimedOut,
//!         "no answer in time",
//!     )),
//!     _ => Fault::Proceed,
//! });
//! let ops = vec![BatchOperation::Insert(Entity::new("Sales", "empid_000042"))];
//! let err = block_on(backend.execute_batch("Staff", ops)).unwrap_err();
//! assert_eq!(err.code, ErrorCode::OperationTimedOut);
//! // The caller saw an error, yet the entity is there.
//! assert!(backend.inner().get("Staff", "Sales", "empid_000042", None).is_ok());
//! assert_eq!(backend.calls(CallKind::ExecuteBatch), 1);
//!
//! // Once the rule is cleared, calls go through as they are.
//! backend.clear_rule();
//! block_on(backend.get("Staff", "Sales", "empid_000042", None)).unwrap();
//! ```

use std::fmt;
use std::future::{Future, pending};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::Entity;
use crate::error::StoreError;
use crate::query::Query;
use crate::store::{BatchResult, QueryPage, TablePage, WriteResult};

/// Which method of [`Backend`] a call is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallKind {
    /// [`Backend::create_table`].
    CreateTable,
    /// [`Backend::delete_table`].
    DeleteTable,
    /// [`Backend::list_tables`].
    ListTables,
    /// [`Backend::write`].
    Write,
    /// [`Backend::get`].
    Get,
    /// [`Backend::query_page`].
    QueryPage,
    /// [`Backend::execute_batch`].
    ExecuteBatch,
}

impl CallKind {
    /// Every kind, in declaration order.
    pub const ALL: [CallKind; 7] = [
        CallKind::CreateTable,
        CallKind::DeleteTable,
        CallKind::ListTables,
        CallKind::Write,
        CallKind::Get,
        CallKind::QueryPage,
        CallKind::ExecuteBatch,
    ];
}

/// One call to the backend, with its arguments, as a rule sees it.
#[derive(Debug, Clone, Copy)]
pub enum Call<'a> {
    /// Creating a table.
    CreateTable {
        /// The table.
        table: &'a str,
    },
    /// Deleting a table.
    DeleteTable {
        /// The table.
        table: &'a str,
    },
    /// Listing one page of table names.
    ListTables {
        /// The most names asked for.
        max: Option<usize>,
        /// Where the page starts.
        continuation: Option<&'a str>,
    },
    /// One write outside a transaction.
    Write {
        /// The table.
        table: &'a str,
        /// The write.
        op: &'a BatchOperation,
    },
    /// Reading one entity.
    Get {
        /// The table.
        table: &'a str,
        /// The entity's PartitionKey.
        partition_key: &'a str,
        /// The entity's RowKey.
        row_key: &'a str,
        /// The properties asked for, if not all.
        select: Option<&'a [&'a str]>,
    },
    /// Reading one page of a query.
    QueryPage {
        /// The table.
        table: &'a str,
        /// The query.
        query: &'a Query,
    },
    /// An entity group transaction.
    ExecuteBatch {
        /// The table.
        table: &'a str,
        /// Its operations.
        ops: &'a [BatchOperation],
    },
}

impl<'a> Call<'a> {
    /// Which method this is.
    pub fn kind(&self) -> CallKind {
        match self {
            Call::CreateTable { .. } => CallKind::CreateTable,
            Call::DeleteTable { .. } => CallKind::DeleteTable,
            Call::ListTables { .. } => CallKind::ListTables,
            Call::Write { .. } => CallKind::Write,
            Call::Get { .. } => CallKind::Get,
            Call::QueryPage { .. } => CallKind::QueryPage,
            Call::ExecuteBatch { .. } => CallKind::ExecuteBatch,
        }
    }

    /// The table the call is about; `None` for a listing.
    pub fn table(&self) -> Option<&'a str> {
        match *self {
            Call::CreateTable { table }
            | Call::DeleteTable { table }
            | Call::Write { table, .. }
            | Call::Get { table, .. }
            | Call::QueryPage { table, .. }
            | Call::ExecuteBatch { table, .. } => Some(table),
            Call::ListTables { .. } => None,
        }
    }

    /// The entity operations the call carries: one for a write, all of a transaction's, none
    /// otherwise.
    pub fn operations(&self) -> &'a [BatchOperation] {
        match *self {
            Call::Write { op, .. } => std::slice::from_ref(op),
            Call::ExecuteBatch { ops, .. } => ops,
            _ => &[],
        }
    }
}

/// Work run against the inner backend on behalf of someone else, such as a competing writer.
/// It runs synchronously inside the poll of the call it is attached to, so a hook on a backend
/// whose futures wait must block on them (with `pollster::block_on`, say).
pub type Hook<B> = Box<dyn FnOnce(&B) + Send>;

/// What to do with one call.
pub enum Fault<B> {
    /// Forward the call and answer its result.
    Proceed,
    /// Answer this error without forwarding the call: the service refused it, nothing changed.
    FailBefore(StoreError),
    /// Forward the call, then answer this error instead of its result: the change landed but
    /// the caller can't know it (a connection reset, a timeout).
    FailAfter(StoreError),
    /// Neither forward the call nor ever answer: the process died before the request left.
    HangBefore,
    /// Forward the call, then never answer: the process died while the request was in flight
    /// (drop the pending future to end the "process").
    HangAfter,
    /// Run the hook on the inner backend, then forward the call: another writer got in just
    /// before it.
    RunBefore(Hook<B>),
    /// Forward the call, run the hook on the inner backend, then answer the call's result:
    /// another writer got in just after it.
    RunAfter(Hook<B>),
}

impl<B> Fault<B> {
    /// [`Fault::RunBefore`] with the hook boxed.
    pub fn run_before(hook: impl FnOnce(&B) + Send + 'static) -> Fault<B> {
        Fault::RunBefore(Box::new(hook))
    }

    /// [`Fault::RunAfter`] with the hook boxed.
    pub fn run_after(hook: impl FnOnce(&B) + Send + 'static) -> Fault<B> {
        Fault::RunAfter(Box::new(hook))
    }
}

impl<B> fmt::Debug for Fault<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Proceed => f.write_str("Proceed"),
            Fault::FailBefore(e) => f.debug_tuple("FailBefore").field(e).finish(),
            Fault::FailAfter(e) => f.debug_tuple("FailAfter").field(e).finish(),
            Fault::HangBefore => f.write_str("HangBefore"),
            Fault::HangAfter => f.write_str("HangAfter"),
            Fault::RunBefore(_) => f.write_str("RunBefore(..)"),
            Fault::RunAfter(_) => f.write_str("RunAfter(..)"),
        }
    }
}

type Rule<B> = Box<dyn FnMut(&Call<'_>) -> Fault<B> + Send>;

/// A [`Backend`] that forwards every call to `B` as its rule says; see the [module](self).
pub struct Faulty<B> {
    inner: B,
    rule: Mutex<Rule<B>>,
    calls: [AtomicUsize; CallKind::ALL.len()],
}

impl<B: Backend> Faulty<B> {
    /// Forwards every call as it is (only counting them) until a rule is set.
    pub fn new(inner: B) -> Faulty<B> {
        Faulty::with_rule(inner, |_| Fault::Proceed)
    }

    /// Asks `rule` what to do with every call.
    pub fn with_rule(
        inner: B,
        rule: impl FnMut(&Call<'_>) -> Fault<B> + Send + 'static,
    ) -> Faulty<B> {
        Faulty {
            inner,
            rule: Mutex::new(Box::new(rule)),
            calls: Default::default(),
        }
    }

    /// Replaces the rule, for the calls from now on.
    pub fn set_rule(&self, rule: impl FnMut(&Call<'_>) -> Fault<B> + Send + 'static) {
        *self.rule.lock().unwrap_or_else(PoisonError::into_inner) = Box::new(rule);
    }

    /// Forwards every call from now on: the faults stop.
    pub fn clear_rule(&self) {
        self.set_rule(|_| Fault::Proceed);
    }

    /// The wrapped backend, to look at or change the data behind the rule's back.
    pub fn inner(&self) -> &B {
        &self.inner
    }

    /// The wrapped backend.
    pub fn into_inner(self) -> B {
        self.inner
    }

    /// How many calls of this kind were made (whatever the rule did with them) since creation
    /// or the last [`reset_calls`](Self::reset_calls).
    pub fn calls(&self, kind: CallKind) -> usize {
        self.calls[kind as usize].load(Ordering::SeqCst)
    }

    /// Sets every call count back to zero.
    pub fn reset_calls(&self) {
        for count in &self.calls {
            count.store(0, Ordering::SeqCst);
        }
    }

    fn decide(&self, call: Call<'_>) -> Fault<B> {
        self.calls[call.kind() as usize].fetch_add(1, Ordering::SeqCst);
        let mut rule = self.rule.lock().unwrap_or_else(PoisonError::into_inner);
        rule(&call)
    }

    /// Carries out `fault`, with `forward` making the call on the inner backend.
    async fn apply<T, F>(
        &self,
        fault: Fault<B>,
        forward: impl FnOnce() -> F,
    ) -> Result<T, StoreError>
    where
        F: Future<Output = Result<T, StoreError>>,
    {
        match fault {
            Fault::Proceed => forward().await,
            Fault::FailBefore(error) => Err(error),
            Fault::FailAfter(error) => {
                let _ = forward().await;
                Err(error)
            }
            Fault::HangBefore => pending().await,
            Fault::HangAfter => {
                let _ = forward().await;
                pending().await
            }
            Fault::RunBefore(hook) => {
                hook(&self.inner);
                forward().await
            }
            Fault::RunAfter(hook) => {
                let result = forward().await;
                hook(&self.inner);
                result
            }
        }
    }
}

impl<B: fmt::Debug> fmt::Debug for Faulty<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Faulty")
            .field("inner", &self.inner)
            .field("calls", &self.calls)
            .finish_non_exhaustive()
    }
}

impl<B: Backend> Backend for Faulty<B> {
    fn create_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        let fault = self.decide(Call::CreateTable { table });
        self.apply(fault, move || self.inner.create_table(table))
    }
    fn delete_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        let fault = self.decide(Call::DeleteTable { table });
        self.apply(fault, move || self.inner.delete_table(table))
    }
    fn list_tables(
        &self,
        max: Option<usize>,
        continuation: Option<String>,
    ) -> impl Future<Output = Result<TablePage, StoreError>> + Send {
        let fault = self.decide(Call::ListTables {
            max,
            continuation: continuation.as_deref(),
        });
        self.apply(fault, move || self.inner.list_tables(max, continuation))
    }
    fn write(
        &self,
        table: &str,
        op: BatchOperation,
    ) -> impl Future<Output = Result<WriteResult, StoreError>> + Send {
        let fault = self.decide(Call::Write { table, op: &op });
        self.apply(fault, move || self.inner.write(table, op))
    }
    fn get(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        select: Option<&[&str]>,
    ) -> impl Future<Output = Result<Entity, StoreError>> + Send {
        let fault = self.decide(Call::Get {
            table,
            partition_key,
            row_key,
            select,
        });
        self.apply(fault, move || {
            self.inner.get(table, partition_key, row_key, select)
        })
    }
    fn query_page(
        &self,
        table: &str,
        query: &Query,
    ) -> impl Future<Output = Result<QueryPage, StoreError>> + Send {
        let fault = self.decide(Call::QueryPage { table, query });
        self.apply(fault, move || self.inner.query_page(table, query))
    }
    fn execute_batch(
        &self,
        table: &str,
        ops: Vec<BatchOperation>,
    ) -> impl Future<Output = Result<Vec<BatchResult>, StoreError>> + Send {
        let fault = self.decide(Call::ExecuteBatch { table, ops: &ops });
        self.apply(fault, move || self.inner.execute_batch(table, ops))
    }
}

/// A rule that gives `fault` to the first call `matches` accepts, and forwards every other
/// call.
pub fn once<B>(
    matches: impl Fn(&Call<'_>) -> bool + Send + 'static,
    fault: Fault<B>,
) -> impl FnMut(&Call<'_>) -> Fault<B> + Send + 'static
where
    B: 'static,
{
    let mut fault = Some(fault);
    move |call| match fault.take_if(|_| matches(call)) {
        Some(fault) => fault,
        None => Fault::Proceed,
    }
}

/// A rule that hands `rule` a fresh pseudo-random number with every call, from a xorshift
/// generator started at `seed` (0 counts as 1), so a run reproduces from its seed.
pub fn seeded<B>(
    seed: u64,
    mut rule: impl FnMut(&Call<'_>, u64) -> Fault<B> + Send + 'static,
) -> impl FnMut(&Call<'_>) -> Fault<B> + Send + 'static
where
    B: 'static,
{
    let mut state = seed.max(1);
    move |call| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        rule(call, state)
    }
}

//! The operations of the Table service as one trait, so typed code runs unchanged on the
//! in-process [`Store`] and on a network backend.
//!
//! The methods return futures (`Send`, so they can run on any executor). The in-process store's
//! futures are ready at once; a network backend's wait on the service.
//!
//! [`faults::Faulty`] wraps a backend to make chosen calls fail, hang or race another writer,
//! for testing what callers do when the service misbehaves.

use std::future::{Future, ready};

use crate::batch::BatchOperation;
use crate::entity::Entity;
use crate::error::StoreError;
use crate::query::Query;
use crate::store::{BatchResult, EntityView, PageEnd, QueryPage, Store, TablePage, WriteResult};

pub mod faults;

/// A Table service: tables, entity operations, transactions and one query page at a time.
pub trait Backend: Send + Sync {
    /// Creates a table.
    fn create_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Deletes a table and everything in it.
    fn delete_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// One page of table names.
    fn list_tables(
        &self,
        max: Option<usize>,
        continuation: Option<String>,
    ) -> impl Future<Output = Result<TablePage, StoreError>> + Send;
    /// One write: insert, replace, merge, insert-or-replace, insert-or-merge or delete.
    fn write(
        &self,
        table: &str,
        op: BatchOperation,
    ) -> impl Future<Output = Result<WriteResult, StoreError>> + Send;
    /// One entity by its keys, with only the `select`ed properties if given.
    fn get(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        select: Option<&[&str]>,
    ) -> impl Future<Output = Result<Entity, StoreError>> + Send;
    /// One page of a query.
    fn query_page(
        &self,
        table: &str,
        query: &Query,
    ) -> impl Future<Output = Result<QueryPage, StoreError>> + Send;
    /// One page of a query, each entity handed to `visit` as a view rather than returned: a
    /// backend that holds its entities (the in-process store) lends them where they lie, so a
    /// caller that only writes them out copies nothing. `visit` sees every property; applying
    /// the query's `$select` is its part. Unless a backend lends its entities, this runs
    /// [`Backend::query_page`] and views what it returns.
    fn visit_page<F>(
        &self,
        table: &str,
        query: &Query,
        mut visit: F,
    ) -> impl Future<Output = Result<PageEnd, StoreError>> + Send
    where
        F: FnMut(EntityView<'_>) + Send,
    {
        let page = self.query_page(table, query);
        async move {
            let page = page.await?;
            for entity in &page.entities {
                visit(EntityView::of(entity));
            }
            Ok(PageEnd {
                continuation: page.continuation,
                stats: page.stats,
            })
        }
    }
    /// An entity group transaction.
    fn execute_batch(
        &self,
        table: &str,
        ops: Vec<BatchOperation>,
    ) -> impl Future<Output = Result<Vec<BatchResult>, StoreError>> + Send;
}

impl Backend for Store {
    fn create_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        ready(Store::create_table(self, table))
    }
    fn delete_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        ready(Store::delete_table(self, table))
    }
    fn list_tables(
        &self,
        max: Option<usize>,
        continuation: Option<String>,
    ) -> impl Future<Output = Result<TablePage, StoreError>> + Send {
        ready(Store::list_tables(self, max, continuation.as_deref()))
    }
    fn write(
        &self,
        table: &str,
        op: BatchOperation,
    ) -> impl Future<Output = Result<WriteResult, StoreError>> + Send {
        ready(Store::write(self, table, op))
    }
    fn get(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        select: Option<&[&str]>,
    ) -> impl Future<Output = Result<Entity, StoreError>> + Send {
        ready(Store::get_selected(
            self,
            table,
            partition_key,
            row_key,
            select,
        ))
    }
    fn query_page(
        &self,
        table: &str,
        query: &Query,
    ) -> impl Future<Output = Result<QueryPage, StoreError>> + Send {
        ready(Store::query(self, table, query))
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
        ready(Store::visit_page(self, table, query, visit))
    }
    fn execute_batch(
        &self,
        table: &str,
        ops: Vec<BatchOperation>,
    ) -> impl Future<Output = Result<Vec<BatchResult>, StoreError>> + Send {
        ready(Store::execute_batch(self, table, &ops))
    }
}

/// Implements [`Backend`] for a pointer to a backend by forwarding every call to it.
macro_rules! forward_backend {
    ($($(#[$doc:meta])* $pointer:ty;)*) => {$(
        $(#[$doc])*
        impl<B: Backend> Backend for $pointer {
            fn create_table(
                &self,
                table: &str,
            ) -> impl Future<Output = Result<(), StoreError>> + Send {
                (**self).create_table(table)
            }
            fn delete_table(
                &self,
                table: &str,
            ) -> impl Future<Output = Result<(), StoreError>> + Send {
                (**self).delete_table(table)
            }
            fn list_tables(
                &self,
                max: Option<usize>,
                continuation: Option<String>,
            ) -> impl Future<Output = Result<TablePage, StoreError>> + Send {
                (**self).list_tables(max, continuation)
            }
            fn write(
                &self,
                table: &str,
                op: BatchOperation,
            ) -> impl Future<Output = Result<WriteResult, StoreError>> + Send {
                (**self).write(table, op)
            }
            fn get(
                &self,
                table: &str,
                partition_key: &str,
                row_key: &str,
                select: Option<&[&str]>,
            ) -> impl Future<Output = Result<Entity, StoreError>> + Send {
                (**self).get(table, partition_key, row_key, select)
            }
            fn query_page(
                &self,
                table: &str,
                query: &Query,
            ) -> impl Future<Output = Result<QueryPage, StoreError>> + Send {
                (**self).query_page(table, query)
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
                (**self).visit_page(table, query, visit)
            }
            fn execute_batch(
                &self,
                table: &str,
                ops: Vec<BatchOperation>,
            ) -> impl Future<Output = Result<Vec<BatchResult>, StoreError>> + Send {
                (**self).execute_batch(table, ops)
            }
        }
    )*};
}

forward_backend! {
    /// A shared reference to a backend is a backend too, so wrappers such as
    /// [`sas::Scoped`](crate::sas::Scoped) can borrow one instead of owning it.
    &B;
    /// A backend shared between tasks or threads.
    std::sync::Arc<B>;
}

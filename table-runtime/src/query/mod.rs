//! Queries: the OData `$filter` language (lexer, parser, evaluator), the query planner, and the
//! options of one query (`$select`, `$top`, continuation).

pub mod ast;
pub mod eval;
pub mod keyed;
pub mod lexer;
pub mod parser;
pub mod plan;

use std::fmt;

use crate::entity::Entity;
use crate::error::{ErrorCode, StoreError};
pub use ast::{CompareOp, Comparison, Expr, Target};
pub use eval::{FilterRow, ValueRef};
pub use plan::{KeyRange, QueryClass, QueryPlan};

/// A malformed `$filter`: where, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterError {
    /// 0-based character offset of the problem in the filter text.
    pub column: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

impl FilterError {
    /// An error at a 0-based character offset.
    pub fn new(column: usize, message: impl Into<String>) -> FilterError {
        FilterError {
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid $filter at column {}: {}",
            self.column + 1,
            self.message
        )
    }
}

impl std::error::Error for FilterError {}

impl From<FilterError> for StoreError {
    fn from(e: FilterError) -> StoreError {
        StoreError::new(ErrorCode::InvalidInput, e.to_string())
    }
}

/// A parsed `$filter`.
#[derive(Debug, Clone, PartialEq)]
pub struct Filter {
    /// The expression.
    pub expr: Expr,
    /// The user properties the expression reads; [`Target::Property`] indexes this list.
    pub properties: Vec<String>,
    /// The text the filter was parsed from.
    pub text: String,
}

impl Filter {
    /// Parses a `$filter` expression.
    ///
    /// ```
    /// use table_runtime::query::{Filter, QueryClass};
    /// let f = Filter::parse("PartitionKey eq 'p' and RowKey ge '2024' and Age gt 30").unwrap();
    /// assert_eq!(f.plan().class, QueryClass::RangeQuery);
    /// assert!(Filter::parse("Age gt").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Filter, FilterError> {
        parser::parse(text)
    }

    /// The plan: query class and key ranges.
    pub fn plan(&self) -> QueryPlan {
        QueryPlan::of(&self.expr)
    }

    /// Whether the filter holds for an entity.
    pub fn matches(&self, entity: &Entity) -> bool {
        eval::matches(
            &self.expr,
            &EntityRow {
                entity,
                names: &self.properties,
            },
        )
    }
}

struct EntityRow<'a> {
    entity: &'a Entity,
    names: &'a [String],
}

impl FilterRow for EntityRow<'_> {
    fn partition_key(&self) -> &str {
        &self.entity.partition_key
    }
    fn row_key(&self) -> &str {
        &self.entity.row_key
    }
    fn timestamp_ticks(&self) -> Option<i64> {
        self.entity.timestamp.map(|t| t.ticks())
    }
    fn property(&self, index: usize) -> Option<ValueRef<'_>> {
        self.entity
            .properties
            .get(&self.names[index])
            .map(ValueRef::of)
    }
}

/// A continuation token: where the next page starts (the service's `NextPartitionKey` and
/// `NextRowKey`). It serializes, so a paging loop can be stored and resumed after a crash.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Continuation {
    /// The PartitionKey of the next entity to read.
    pub next_partition_key: String,
    /// The RowKey of the next entity to read.
    pub next_row_key: String,
}

/// One query: an optional filter, projection and page size, and where to continue.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Query {
    /// `$filter`; `None` reads every entity.
    pub filter: Option<Filter>,
    /// `$select`: the properties to return; `None` returns all.
    pub select: Option<Vec<String>>,
    /// `$top`: at most this many entities in one page.
    pub top: Option<usize>,
    /// The page to continue from.
    pub continuation: Option<Continuation>,
}

impl Query {
    /// A query for every entity.
    pub fn all() -> Query {
        Query::default()
    }

    /// A query with a filter; a malformed filter is an `InvalidInput` error.
    pub fn filter(text: &str) -> Result<Query, StoreError> {
        Ok(Query {
            filter: Some(Filter::parse(text)?),
            ..Query::default()
        })
    }

    /// Sets `$select`.
    pub fn select<I: IntoIterator<Item = S>, S: Into<String>>(mut self, names: I) -> Query {
        self.select = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Sets `$top`.
    pub fn top(mut self, n: usize) -> Query {
        self.top = Some(n);
        self
    }

    /// Continues from a token returned by an earlier page.
    pub fn after(mut self, continuation: Option<Continuation>) -> Query {
        self.continuation = continuation;
        self
    }

    /// The plan of this query.
    pub fn plan(&self) -> QueryPlan {
        self.filter
            .as_ref()
            .map_or_else(QueryPlan::everything, Filter::plan)
    }
}

/// Escapes a string for use inside a single-quoted filter literal (`'` becomes `''`).
///
/// ```
/// assert_eq!(table_runtime::query::quote("O'Brien"), "'O''Brien'");
/// ```
pub fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

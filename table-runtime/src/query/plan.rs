//! Classifies a filter as the design guides do and derives the key ranges it needs to read.
//!
//! - **Point query**: `PartitionKey eq` and `RowKey eq`: one lookup.
//! - **Range query**: `PartitionKey eq` and a RowKey range (`gt ge lt le`): one partition, only
//!   the rows between the bounds.
//! - **Partition scan**: `PartitionKey eq` and anything else on other properties, including an
//!   `or` between RowKey values (an `or` never narrows a range).
//! - **Table scan**: no `PartitionKey eq`: every partition is read (a PartitionKey range narrows
//!   which, but the query is still a scan across partitions).
//!
//! Only comparisons joined to the whole filter by `and` narrow the ranges; whatever sits under an
//! `or` or a `not` is checked row by row.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Bound;

use super::ast::{CompareOp, Expr, Target};
use crate::key::compare_utf16;
use crate::value::Value;

/// The classes of query the design guides distinguish, from cheapest to dearest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum QueryClass {
    /// One entity by PartitionKey and RowKey.
    PointQuery,
    /// A RowKey range within one partition.
    RangeQuery,
    /// Every entity of one partition.
    PartitionScan,
    /// Entities of every partition.
    TableScan,
}

impl QueryClass {
    /// The class's name as the guides write it.
    pub fn name(self) -> &'static str {
        match self {
            QueryClass::PointQuery => "point query",
            QueryClass::RangeQuery => "range query",
            QueryClass::PartitionScan => "partition scan",
            QueryClass::TableScan => "table scan",
        }
    }
}

impl fmt::Display for QueryClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A range of key values, compared by UTF-16 code unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRange {
    /// The lower bound.
    pub lower: Bound<String>,
    /// The upper bound.
    pub upper: Bound<String>,
}

impl Default for KeyRange {
    fn default() -> KeyRange {
        KeyRange {
            lower: Bound::Unbounded,
            upper: Bound::Unbounded,
        }
    }
}

impl KeyRange {
    /// The bounds, borrowed.
    pub fn bounds(&self) -> (Bound<&str>, Bound<&str>) {
        (
            self.lower.as_ref().map(String::as_str),
            self.upper.as_ref().map(String::as_str),
        )
    }

    /// Whether the range is bounded on either side.
    pub fn is_bounded(&self) -> bool {
        !matches!(
            (&self.lower, &self.upper),
            (Bound::Unbounded, Bound::Unbounded)
        )
    }

    /// Whether no key can fall in the range.
    pub fn is_empty(&self) -> bool {
        match (&self.lower, &self.upper) {
            (Bound::Included(a), Bound::Included(b)) => compare_utf16(a, b) == Ordering::Greater,
            (Bound::Included(a) | Bound::Excluded(a), Bound::Excluded(b))
            | (Bound::Excluded(a), Bound::Included(b)) => compare_utf16(a, b) != Ordering::Less,
            _ => false,
        }
    }

    /// Whether `key` falls in the range.
    pub fn contains(&self, key: &str) -> bool {
        let above = match &self.lower {
            Bound::Unbounded => true,
            Bound::Included(l) => compare_utf16(key, l) != Ordering::Less,
            Bound::Excluded(l) => compare_utf16(key, l) == Ordering::Greater,
        };
        let below = match &self.upper {
            Bound::Unbounded => true,
            Bound::Included(u) => compare_utf16(key, u) != Ordering::Greater,
            Bound::Excluded(u) => compare_utf16(key, u) == Ordering::Less,
        };
        above && below
    }

    /// The single key the range holds, when both bounds include the same key.
    pub fn single(&self) -> Option<&str> {
        match (&self.lower, &self.upper) {
            (Bound::Included(a), Bound::Included(b)) if a == b => Some(a),
            _ => None,
        }
    }

    fn narrow(&mut self, op: CompareOp, key: &str) {
        let key = key.to_owned();
        match op {
            CompareOp::Eq => {
                self.raise(Bound::Included(key.clone()));
                self.lower_upper(Bound::Included(key));
            }
            CompareOp::Gt => self.raise(Bound::Excluded(key)),
            CompareOp::Ge => self.raise(Bound::Included(key)),
            CompareOp::Lt => self.lower_upper(Bound::Excluded(key)),
            CompareOp::Le => self.lower_upper(Bound::Included(key)),
            CompareOp::Ne => {}
        }
    }

    fn raise(&mut self, bound: Bound<String>) {
        let tighter = match (&self.lower, &bound) {
            (Bound::Unbounded, _) => true,
            (Bound::Included(a) | Bound::Excluded(a), Bound::Included(b) | Bound::Excluded(b)) => {
                match compare_utf16(b, a) {
                    Ordering::Greater => true,
                    Ordering::Equal => matches!(bound, Bound::Excluded(_)),
                    Ordering::Less => false,
                }
            }
            (_, Bound::Unbounded) => false,
        };
        if tighter {
            self.lower = bound;
        }
    }

    fn lower_upper(&mut self, bound: Bound<String>) {
        let tighter = match (&self.upper, &bound) {
            (Bound::Unbounded, _) => true,
            (Bound::Included(a) | Bound::Excluded(a), Bound::Included(b) | Bound::Excluded(b)) => {
                match compare_utf16(b, a) {
                    Ordering::Less => true,
                    Ordering::Equal => matches!(bound, Bound::Excluded(_)),
                    Ordering::Greater => false,
                }
            }
            (_, Bound::Unbounded) => false,
        };
        if tighter {
            self.upper = bound;
        }
    }
}

/// How a filter will be executed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryPlan {
    /// The query's class.
    pub class: QueryClass,
    /// The PartitionKeys to read.
    pub partitions: KeyRange,
    /// The RowKeys to read within each partition.
    pub rows: KeyRange,
    /// Whether the filter is only the key comparisons that `partitions` and `rows` express, so
    /// every entity in the ranges matches without checking.
    pub keys_only: bool,
}

impl QueryPlan {
    /// The plan for a query without a filter: a table scan.
    pub fn everything() -> QueryPlan {
        QueryPlan {
            class: QueryClass::TableScan,
            partitions: KeyRange::default(),
            rows: KeyRange::default(),
            keys_only: true,
        }
    }

    /// Derives the plan of a filter expression.
    pub fn of(expr: &Expr) -> QueryPlan {
        let mut partitions = KeyRange::default();
        let mut rows = KeyRange::default();
        let mut partition_eq = false;
        let mut row_eq = false;
        let mut keys_only = true;
        let mut conjuncts = vec![expr];
        while let Some(e) = conjuncts.pop() {
            match e {
                Expr::And(a, b) => {
                    conjuncts.push(a);
                    conjuncts.push(b);
                }
                Expr::Compare {
                    target,
                    op,
                    literal: Value::String(key),
                } => {
                    keys_only &= *op != CompareOp::Ne;
                    match target {
                        Target::PartitionKey => {
                            partition_eq |= *op == CompareOp::Eq;
                            partitions.narrow(*op, key);
                        }
                        Target::RowKey => {
                            row_eq |= *op == CompareOp::Eq;
                            rows.narrow(*op, key);
                        }
                        _ => keys_only = false,
                    }
                }
                _ => keys_only = false,
            }
        }
        let class = match (partition_eq, row_eq, rows.is_bounded()) {
            (false, _, _) => QueryClass::TableScan,
            (true, true, _) => QueryClass::PointQuery,
            (true, false, true) => QueryClass::RangeQuery,
            (true, false, false) => QueryClass::PartitionScan,
        };
        QueryPlan {
            class,
            partitions,
            rows,
            keys_only,
        }
    }

    /// Whether the plan can match nothing at all (contradictory key conditions).
    pub fn is_empty(&self) -> bool {
        self.partitions.is_empty() || self.rows.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::Filter;

    fn class(text: &str) -> QueryClass {
        Filter::parse(text).unwrap().plan().class
    }

    #[test]
    fn the_guides_classes() {
        assert_eq!(
            class("PartitionKey eq 'p' and RowKey eq 'r'"),
            QueryClass::PointQuery
        );
        assert_eq!(
            class("RowKey eq 'r' and PartitionKey eq 'p' and Age gt 3"),
            QueryClass::PointQuery
        );
        assert_eq!(
            class("PartitionKey eq 'p' and RowKey ge 'a' and RowKey lt 'b'"),
            QueryClass::RangeQuery
        );
        assert_eq!(
            class("PartitionKey eq 'p' and RowKey gt 'a'"),
            QueryClass::RangeQuery
        );
        assert_eq!(class("PartitionKey eq 'p'"), QueryClass::PartitionScan);
        assert_eq!(
            class("PartitionKey eq 'p' and Age gt 3"),
            QueryClass::PartitionScan
        );
        assert_eq!(
            class("PartitionKey eq 'p' and (RowKey eq '1' or RowKey eq '2')"),
            QueryClass::PartitionScan
        );
        assert_eq!(class("RowKey eq 'r'"), QueryClass::TableScan);
        assert_eq!(
            class("PartitionKey eq 'p' or PartitionKey eq 'q'"),
            QueryClass::TableScan
        );
        assert_eq!(
            class("PartitionKey ge 'a' and PartitionKey lt 'b'"),
            QueryClass::TableScan
        );
        assert_eq!(class("not (PartitionKey ne 'p')"), QueryClass::TableScan);
        assert_eq!(
            class("'p' eq PartitionKey and 'r' eq RowKey"),
            QueryClass::PointQuery
        );
    }

    #[test]
    fn ranges_are_the_tightest_bounds() {
        let plan = Filter::parse("PartitionKey eq 'p' and RowKey ge 'a' and RowKey gt 'b' and RowKey le 'z' and RowKey lt 'y'")
            .unwrap()
            .plan();
        assert_eq!(plan.rows.lower, Bound::Excluded("b".into()));
        assert_eq!(plan.rows.upper, Bound::Excluded("y".into()));
        assert_eq!(plan.partitions.single(), Some("p"));
        let contradiction = Filter::parse("PartitionKey eq 'p' and PartitionKey eq 'q'")
            .unwrap()
            .plan();
        assert!(contradiction.is_empty());
        assert!(plan.keys_only);
        assert!(
            !Filter::parse("PartitionKey eq 'p' and Age gt 3")
                .unwrap()
                .plan()
                .keys_only
        );
        assert!(
            !Filter::parse("PartitionKey ne 'p'")
                .unwrap()
                .plan()
                .keys_only
        );
        assert!(
            !Filter::parse("PartitionKey eq 'p' or RowKey eq 'r'")
                .unwrap()
                .plan()
                .keys_only
        );
    }
}

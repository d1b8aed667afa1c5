//! Evaluates a filter against one entity, in whatever form the entity is kept.

use std::cmp::Ordering;

use super::ast::{Expr, Target};
use crate::key::compare_utf16;
use crate::value::{DateTime, Value};

/// A borrowed property value, as read from an entity without copying it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValueRef<'a> {
    /// `Edm.String`.
    String(&'a str),
    /// `Edm.Binary`.
    Binary(&'a [u8]),
    /// `Edm.Boolean`.
    Boolean(bool),
    /// `Edm.DateTime`, as ticks.
    DateTime(i64),
    /// `Edm.Double`.
    Double(f64),
    /// `Edm.Guid`, as its 16 bytes in RFC 4122 order.
    Guid(&'a [u8; 16]),
    /// `Edm.Int32`.
    Int32(i32),
    /// `Edm.Int64`.
    Int64(i64),
}

impl<'a> ValueRef<'a> {
    /// Borrows an owned value.
    pub fn of(value: &'a Value) -> ValueRef<'a> {
        match value {
            Value::String(s) => ValueRef::String(s),
            Value::Binary(b) => ValueRef::Binary(b),
            Value::Boolean(b) => ValueRef::Boolean(*b),
            Value::DateTime(d) => ValueRef::DateTime(d.ticks()),
            Value::Double(d) => ValueRef::Double(*d),
            Value::Guid(g) => ValueRef::Guid(g.as_bytes()),
            Value::Int32(i) => ValueRef::Int32(*i),
            Value::Int64(i) => ValueRef::Int64(*i),
        }
    }

    /// Compares with a literal of the same type; `None` across types (and for NaN).
    pub fn compare(self, literal: &Value) -> Option<Ordering> {
        match (self, literal) {
            (ValueRef::String(a), Value::String(b)) => Some(compare_utf16(a, b)),
            (ValueRef::Binary(a), Value::Binary(b)) => Some(a.cmp(b.as_slice())),
            (ValueRef::Boolean(a), Value::Boolean(b)) => Some(a.cmp(b)),
            (ValueRef::DateTime(a), Value::DateTime(b)) => Some(a.cmp(&b.ticks())),
            (ValueRef::Double(a), Value::Double(b)) => a.partial_cmp(b),
            (ValueRef::Guid(a), Value::Guid(b)) => Some(a.cmp(b.as_bytes())),
            (ValueRef::Int32(a), Value::Int32(b)) => Some(a.cmp(b)),
            (ValueRef::Int64(a), Value::Int64(b)) => Some(a.cmp(b)),
            _ => None,
        }
    }

    /// Copies the value out.
    pub fn to_value(self) -> Value {
        match self {
            ValueRef::String(s) => Value::String(s.to_owned()),
            ValueRef::Binary(b) => Value::Binary(b.to_vec()),
            ValueRef::Boolean(b) => Value::Boolean(b),
            // Stored ticks were range-checked when written.
            ValueRef::DateTime(t) => {
                Value::DateTime(DateTime::from_ticks(t).unwrap_or(DateTime::MIN))
            }
            ValueRef::Double(d) => Value::Double(d),
            ValueRef::Guid(g) => Value::Guid(uuid::Uuid::from_bytes(*g)),
            ValueRef::Int32(i) => Value::Int32(i),
            ValueRef::Int64(i) => Value::Int64(i),
        }
    }
}

/// What a filter reads from an entity.
pub trait FilterRow {
    /// The PartitionKey.
    fn partition_key(&self) -> &str;
    /// The RowKey.
    fn row_key(&self) -> &str;
    /// The Timestamp, as ticks, if the entity has one.
    fn timestamp_ticks(&self) -> Option<i64>;
    /// User property number `index` of the filter's property list, if the entity has it.
    fn property(&self, index: usize) -> Option<ValueRef<'_>>;
}

/// Whether `expr` holds for `row`.
pub fn matches(expr: &Expr, row: &impl FilterRow) -> bool {
    match expr {
        Expr::And(a, b) => matches(a, row) && matches(b, row),
        Expr::Or(a, b) => matches(a, row) || matches(b, row),
        Expr::Not(e) => !matches(e, row),
        Expr::Constant(b) => *b,
        Expr::IsTrue(target) => matches!(read(target, row), Some(ValueRef::Boolean(true))),
        Expr::Compare {
            target,
            op,
            literal,
        } => match read(target, row) {
            // A missing property fails every comparison, `ne` included.
            None => false,
            Some(value) => match value.compare(literal) {
                Some(ordering) => op.holds(ordering),
                // Same type but unordered (NaN): only `ne` holds, as in IEEE 754.
                None if matches!((value, literal), (ValueRef::Double(_), Value::Double(_))) => {
                    *op == super::ast::CompareOp::Ne
                }
                None => false,
            },
        },
    }
}

fn read<'r>(target: &Target, row: &'r impl FilterRow) -> Option<ValueRef<'r>> {
    match target {
        Target::PartitionKey => Some(ValueRef::String(row.partition_key())),
        Target::RowKey => Some(ValueRef::String(row.row_key())),
        Target::Timestamp => row.timestamp_ticks().map(ValueRef::DateTime),
        Target::Property(i) => row.property(*i),
    }
}

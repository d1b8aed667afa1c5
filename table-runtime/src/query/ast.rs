//! The parsed form of a `$filter`.

use std::fmt;

use crate::value::Value;

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompareOp {
    /// `eq`
    Eq,
    /// `ne`
    Ne,
    /// `gt`
    Gt,
    /// `ge`
    Ge,
    /// `lt`
    Lt,
    /// `le`
    Le,
}

impl CompareOp {
    /// The operator as written in a filter.
    pub fn as_str(self) -> &'static str {
        match self {
            CompareOp::Eq => "eq",
            CompareOp::Ne => "ne",
            CompareOp::Gt => "gt",
            CompareOp::Ge => "ge",
            CompareOp::Lt => "lt",
            CompareOp::Le => "le",
        }
    }

    /// The operator with its operands swapped: `5 lt Age` is `Age gt 5`.
    pub fn flipped(self) -> CompareOp {
        match self {
            CompareOp::Gt => CompareOp::Lt,
            CompareOp::Ge => CompareOp::Le,
            CompareOp::Lt => CompareOp::Gt,
            CompareOp::Le => CompareOp::Ge,
            other => other,
        }
    }

    /// Whether `ordering` (left compared with right) satisfies the operator.
    pub fn holds(self, ordering: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            CompareOp::Eq => ordering == Equal,
            CompareOp::Ne => ordering != Equal,
            CompareOp::Gt => ordering == Greater,
            CompareOp::Ge => ordering != Less,
            CompareOp::Lt => ordering == Less,
            CompareOp::Le => ordering != Greater,
        }
    }
}

/// The property a comparison reads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// The PartitionKey system property.
    PartitionKey,
    /// The RowKey system property.
    RowKey,
    /// The Timestamp system property.
    Timestamp,
    /// A user property, by its index in [`Filter::properties`](super::Filter::properties).
    Property(usize),
}

/// A filter expression. Comparisons are normalised so that the property is on the left.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// Both sides hold.
    And(Box<Expr>, Box<Expr>),
    /// Either side holds.
    Or(Box<Expr>, Box<Expr>),
    /// The inner expression does not hold.
    Not(Box<Expr>),
    /// A property compared with a literal; false when the property is missing or of another
    /// type than the literal.
    Compare {
        /// The property.
        target: Target,
        /// The operator.
        op: CompareOp,
        /// The typed literal.
        literal: Value,
    },
    /// A boolean property standing alone (`Active`): true when it is `true`.
    IsTrue(Target),
    /// A constant (a literal `true`, or a comparison of two literals).
    Constant(bool),
}

/// One comparison of a property with a literal, as [`Expr::comparisons`] lists them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison<'e> {
    /// The property.
    pub target: &'e Target,
    /// The operator.
    pub op: CompareOp,
    /// The typed literal.
    pub literal: &'e Value,
    /// Whether an odd number of `not`s encloses it, so that the filter asks for it to fail.
    pub negated: bool,
}

impl Expr {
    /// Every comparison of a property with a literal, in the order written.
    pub fn comparisons(&self) -> Vec<Comparison<'_>> {
        fn walk<'e>(e: &'e Expr, negated: bool, out: &mut Vec<Comparison<'e>>) {
            match e {
                Expr::And(a, b) | Expr::Or(a, b) => {
                    walk(a, negated, out);
                    walk(b, negated, out);
                }
                Expr::Not(a) => walk(a, !negated, out),
                Expr::Compare {
                    target,
                    op,
                    literal,
                } => out.push(Comparison {
                    target,
                    op: *op,
                    literal,
                    negated,
                }),
                Expr::IsTrue(_) | Expr::Constant(_) => {}
            }
        }
        let mut out = Vec::new();
        walk(self, false, &mut out);
        out
    }
}

impl fmt::Display for CompareOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

//! Builds a [`Filter`] from tokens, with the service's precedence: `not` binds tightest, then
//! comparisons, then `and`, then `or`.

use super::ast::{CompareOp, Expr, Target};
use super::lexer::{Token, TokenKind, tokenize};
use super::{Filter, FilterError};
use crate::value::Value;

/// Deepest nesting of parentheses and `not` accepted, so hostile input cannot exhaust the stack.
pub const MAX_NESTING: usize = 100;

/// Most comparisons in one filter: the service documents a limit of 15 discrete comparisons.
pub const MAX_COMPARISONS: usize = 15;

/// Parses a `$filter` expression.
pub fn parse(text: &str) -> Result<Filter, FilterError> {
    let tokens = tokenize(text)?;
    let end_column = text.chars().count();
    let mut parser = Parser {
        tokens,
        pos: 0,
        end_column,
        properties: Vec::new(),
        depth: 0,
        comparisons: 0,
    };
    if parser.tokens.is_empty() {
        return Err(FilterError::new(
            0,
            "the filter is empty; expected an expression",
        ));
    }
    let expr = parser.or()?;
    if let Some(token) = parser.peek() {
        return Err(FilterError::new(
            token.column,
            format!(
                "unexpected {}; expected `and`, `or` or the end of the filter",
                describe(&token.kind)
            ),
        ));
    }
    Ok(Filter {
        expr,
        properties: parser.properties,
        text: text.to_owned(),
    })
}

/// One side of a comparison before it is normalised.
enum Operand {
    Property(Target, usize),
    Literal(Value, usize),
    Null(usize),
    Expr(Expr, usize),
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    end_column: usize,
    properties: Vec<String>,
    depth: usize,
    comparisons: usize,
}

fn describe(kind: &TokenKind) -> String {
    match kind {
        TokenKind::Open => "`(`".into(),
        TokenKind::Close => "`)`".into(),
        TokenKind::Name(n) => format!("`{n}`"),
        TokenKind::Literal(v) => format!("{} literal", v.edm_type()),
        TokenKind::Null => "`null`".into(),
    }
}

fn keyword(kind: &TokenKind, word: &str) -> bool {
    matches!(kind, TokenKind::Name(n) if n.eq_ignore_ascii_case(word))
}

fn compare_op(kind: &TokenKind) -> Option<CompareOp> {
    let TokenKind::Name(n) = kind else {
        return None;
    };
    Some(match n.to_ascii_lowercase().as_str() {
        "eq" => CompareOp::Eq,
        "ne" => CompareOp::Ne,
        "gt" => CompareOp::Gt,
        "ge" => CompareOp::Ge,
        "lt" => CompareOp::Lt,
        "le" => CompareOp::Le,
        _ => return None,
    })
}

const RESERVED: [&str; 9] = ["and", "or", "not", "eq", "ne", "gt", "ge", "lt", "le"];

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn column(&self) -> usize {
        self.peek().map_or(self.end_column, |t| t.column)
    }

    fn found(&self) -> String {
        self.peek()
            .map_or("the end of the filter".into(), |t| describe(&t.kind))
    }

    fn eat_keyword(&mut self, word: &str) -> bool {
        if self.peek().is_some_and(|t| keyword(&t.kind, word)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn enter(&mut self) -> Result<(), FilterError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(FilterError::new(
                self.column(),
                format!("the filter nests deeper than {MAX_NESTING} levels"),
            ));
        }
        Ok(())
    }

    fn or(&mut self) -> Result<Expr, FilterError> {
        let mut left = self.and()?;
        while self.eat_keyword("or") {
            let right = self.and()?;
            left = Expr::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, FilterError> {
        let mut left = self.unary()?;
        while self.eat_keyword("and") {
            let right = self.unary()?;
            left = Expr::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, FilterError> {
        if self.eat_keyword("not") {
            self.enter()?;
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(inner)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Expr, FilterError> {
        let column = self.column();
        let left = self.operand()?;
        if !matches!(left, Operand::Expr(..)) {
            self.comparisons += 1;
            if self.comparisons > MAX_COMPARISONS {
                return Err(FilterError::new(
                    column,
                    format!(
                        "the filter has more than {MAX_COMPARISONS} comparisons, the service's limit"
                    ),
                ));
            }
        }
        let Some(op) = self.peek().and_then(|t| compare_op(&t.kind)) else {
            return self.standalone(left);
        };
        let op_column = self.column();
        self.pos += 1;
        let right = self.operand()?;
        match (left, right) {
            (Operand::Null(c), _) | (_, Operand::Null(c)) => Err(FilterError::new(
                c,
                "comparison with `null` is not supported; a missing property fails every comparison",
            )),
            (Operand::Property(target, _), Operand::Literal(literal, _)) => Ok(Expr::Compare {
                target,
                op,
                literal,
            }),
            (Operand::Literal(literal, _), Operand::Property(target, _)) => Ok(Expr::Compare {
                target,
                op: op.flipped(),
                literal,
            }),
            (Operand::Literal(..), Operand::Literal(_, c)) => Err(FilterError::new(
                c,
                format!("`{op}` compares two literals; the service needs a property on one side"),
            )),
            (Operand::Property(..), Operand::Property(_, c)) => Err(FilterError::new(
                c,
                format!(
                    "`{op}` compares two properties; the service compares a property only with a literal"
                ),
            )),
            (Operand::Expr(_, c), _) | (_, Operand::Expr(_, c)) => Err(FilterError::new(
                c.min(op_column),
                format!("`{op}` needs a property and a literal, not a parenthesized expression"),
            )),
        }
    }

    /// An operand with no comparison after it must be a boolean on its own.
    fn standalone(&mut self, operand: Operand) -> Result<Expr, FilterError> {
        match operand {
            Operand::Expr(e, _) => Ok(e),
            Operand::Property(target, _) => Ok(Expr::IsTrue(target)),
            Operand::Literal(Value::Boolean(b), _) => Ok(Expr::Constant(b)),
            Operand::Literal(v, c) => Err(FilterError::new(
                c,
                format!(
                    "a {} literal is not a condition; expected a comparison operator after it",
                    v.edm_type()
                ),
            )),
            Operand::Null(c) => Err(FilterError::new(c, "`null` is not a condition")),
        }
    }

    fn operand(&mut self) -> Result<Operand, FilterError> {
        let column = self.column();
        let Some(token) = self.peek().cloned() else {
            return Err(FilterError::new(
                column,
                "unexpected end of the filter; expected a property, a literal or `(`",
            ));
        };
        self.pos += 1;
        match token.kind {
            TokenKind::Open => {
                self.enter()?;
                let inner = self.or()?;
                self.depth -= 1;
                if !matches!(self.peek().map(|t| &t.kind), Some(TokenKind::Close)) {
                    return Err(FilterError::new(
                        self.column(),
                        format!(
                            "expected `)` to close the `(` at column {}, found {}",
                            column + 1,
                            self.found()
                        ),
                    ));
                }
                self.pos += 1;
                Ok(Operand::Expr(inner, column))
            }
            TokenKind::Literal(v) => Ok(Operand::Literal(v, column)),
            TokenKind::Null => Ok(Operand::Null(column)),
            TokenKind::Name(name) => {
                if RESERVED.iter().any(|r| name.eq_ignore_ascii_case(r)) {
                    return Err(FilterError::new(
                        column,
                        format!("unexpected `{name}`; expected a property, a literal or `(`"),
                    ));
                }
                let target = match name.as_str() {
                    "PartitionKey" => Target::PartitionKey,
                    "RowKey" => Target::RowKey,
                    "Timestamp" => Target::Timestamp,
                    _ => {
                        let index = match self.properties.iter().position(|p| *p == name) {
                            Some(i) => i,
                            None => {
                                self.properties.push(name);
                                self.properties.len() - 1
                            }
                        };
                        Target::Property(index)
                    }
                };
                Ok(Operand::Property(target, column))
            }
            TokenKind::Close => Err(FilterError::new(
                column,
                "unexpected `)`; expected a property, a literal or `(`",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> FilterError {
        parse(text).unwrap_err()
    }

    #[test]
    fn comparisons_need_a_property() {
        for text in ["1 eq 1", "'a' lt 'b'", "true eq true and A eq 1"] {
            let e = parse(text).unwrap_err();
            assert!(e.message.contains("two literals"), "{text}: {}", e.message);
        }
        assert!(parse("1 eq A").is_ok());
    }

    /// The comparisons of a filter in the order written, each knowing whether a `not` turns it
    /// around; a property standing alone is not a comparison.
    #[test]
    fn the_comparisons_of_a_filter() {
        let f = parse("A eq 1 and not (B ne 'x' or not (C lt 2L)) or Flag").unwrap();
        let listed: Vec<(String, CompareOp, bool)> = f
            .expr
            .comparisons()
            .iter()
            .map(|c| match c.target {
                crate::query::Target::Property(i) => (f.properties[*i].clone(), c.op, c.negated),
                other => (format!("{other:?}"), c.op, c.negated),
            })
            .collect();
        assert_eq!(
            listed,
            [
                ("A".to_owned(), CompareOp::Eq, false),
                ("B".to_owned(), CompareOp::Ne, true),
                ("C".to_owned(), CompareOp::Lt, false),
            ]
        );
    }

    #[test]
    fn precedence_and_binds_tighter_than_or() {
        let f = parse("A eq 1 or B eq 2 and C eq 3").unwrap();
        assert!(matches!(f.expr, Expr::Or(_, ref r) if matches!(**r, Expr::And(..))));
    }

    #[test]
    fn literal_on_the_left_is_flipped() {
        let f = parse("30 lt Age").unwrap();
        assert_eq!(
            f.expr,
            Expr::Compare {
                target: Target::Property(0),
                op: CompareOp::Gt,
                literal: Value::Int32(30)
            }
        );
    }

    #[test]
    fn keys_are_case_sensitive_names() {
        // `partitionkey` is a user property, not the PartitionKey.
        let f = parse("partitionkey eq 'p'").unwrap();
        assert_eq!(f.properties, ["partitionkey"]);
    }

    #[test]
    fn malformed_filters_name_position_and_expectation() {
        let e = err("Age gt");
        assert_eq!(e.column, 6);
        assert!(
            e.message.contains("expected a property, a literal"),
            "{}",
            e.message
        );
        let e = err("(Age gt 3");
        assert!(e.message.contains("expected `)`"), "{}", e.message);
        let e = err("Age gt 3 Name");
        assert_eq!(e.column, 9);
        assert!(err("Age eq null").message.contains("null"));
        assert!(err("A eq B").message.contains("two properties"));
        assert!(err("").message.contains("empty"));
        assert!(err("5").message.contains("not a condition"));
        assert!(err("and").message.contains("unexpected `and`"));
        assert!(err("A eq 1 or").message.contains("end of the filter"));
    }

    #[test]
    fn at_most_fifteen_comparisons() {
        let ok = vec!["A eq 1"; 15].join(" or ");
        assert!(parse(&ok).is_ok());
        let over = vec!["A eq 1"; 16].join(" or ");
        assert!(err(&over).message.contains("more than 15"));
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let deep = format!("{}A{}", "(".repeat(10_000), ")".repeat(10_000));
        assert!(err(&deep).message.contains("nests deeper"));
        let nots = format!("{}A", "not ".repeat(10_000));
        assert!(err(&nots).message.contains("nests deeper"));
    }
}

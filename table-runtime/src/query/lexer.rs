//! Splits a `$filter` into tokens: parentheses, names, keywords and typed literals.

use base64::Engine as _;

use super::FilterError;
use crate::value::{DateTime, Value};

/// One token and the character column (0-based) where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// What the token is.
    pub kind: TokenKind,
    /// 0-based character offset of its first character.
    pub column: usize,
}

/// The kinds of token.
#[derive(Debug, Clone, PartialEq)]
pub enum TokenKind {
    /// `(`
    Open,
    /// `)`
    Close,
    /// A name: a property, or a keyword (`and`, `eq`, `not`, ...), matched case-insensitively by
    /// the parser.
    Name(String),
    /// A typed literal.
    Literal(Value),
    /// The `null` literal, which the service refuses in comparisons.
    Null,
}

/// Tokenizes `text`; an error names the column and what was wrong.
pub fn tokenize(text: &str) -> Result<Vec<Token>, FilterError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        let kind = match c {
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            '(' => {
                i += 1;
                TokenKind::Open
            }
            ')' => {
                i += 1;
                TokenKind::Close
            }
            '\'' => {
                let (s, next) = quoted(&chars, i)?;
                i = next;
                TokenKind::Literal(Value::String(s))
            }
            '-' | '0'..='9' | '.' => {
                let (value, next) = number(&chars, i)?;
                i = next;
                TokenKind::Literal(value)
            }
            c if c.is_alphabetic() || c == '_' => {
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                if chars.get(i) == Some(&'\'') {
                    let (body, next) = quoted(&chars, i)?;
                    i = next;
                    TokenKind::Literal(typed_literal(&word, &body, start)?)
                } else if word.eq_ignore_ascii_case("true") {
                    TokenKind::Literal(Value::Boolean(true))
                } else if word.eq_ignore_ascii_case("false") {
                    TokenKind::Literal(Value::Boolean(false))
                } else if word.eq_ignore_ascii_case("null") {
                    TokenKind::Null
                } else {
                    TokenKind::Name(word)
                }
            }
            other => {
                return Err(FilterError::new(
                    start,
                    format!(
                        "unexpected character `{other}`; expected a property, a literal, an operator or a parenthesis"
                    ),
                ));
            }
        };
        tokens.push(Token {
            kind,
            column: start,
        });
    }
    Ok(tokens)
}

/// Reads a single-quoted string starting at `open`, where `''` stands for one quote.
fn quoted(chars: &[char], open: usize) -> Result<(String, usize), FilterError> {
    let mut out = String::new();
    let mut i = open + 1;
    loop {
        match chars.get(i) {
            None => {
                return Err(FilterError::new(
                    open,
                    "unterminated string literal; expected a closing `'`",
                ));
            }
            Some('\'') if chars.get(i + 1) == Some(&'\'') => {
                out.push('\'');
                i += 2;
            }
            Some('\'') => return Ok((out, i + 1)),
            Some(&c) => {
                out.push(c);
                i += 1;
            }
        }
    }
}

fn typed_literal(prefix: &str, body: &str, column: usize) -> Result<Value, FilterError> {
    let lower = prefix.to_ascii_lowercase();
    match lower.as_str() {
        "datetime" => DateTime::parse(body).map(Value::DateTime).map_err(|e| {
            FilterError::new(column, format!("invalid datetime literal: {}", e.message))
        }),
        "guid" => uuid::Uuid::parse_str(body)
            .map(Value::Guid)
            .map_err(|_| FilterError::new(column, format!("`{body}` is not a GUID"))),
        "x" | "binary" => decode_hex(body).map(Value::Binary).ok_or_else(|| {
            FilterError::new(
                column,
                format!("`{body}` is not an even number of hex digits"),
            )
        }),
        "base64" => base64::engine::general_purpose::STANDARD
            .decode(body)
            .map(Value::Binary)
            .map_err(|_| FilterError::new(column, format!("`{body}` is not base64"))),
        _ => Err(FilterError::new(
            column,
            format!(
                "unknown literal type `{prefix}`; expected `datetime`, `guid`, `X` or `binary`"
            ),
        )),
    }
}

fn decode_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

/// Reads a number: `42` (Int32), `42L` (Int64), `4.2`, `4e2` or `4.2d` (Double).
fn number(chars: &[char], start: usize) -> Result<(Value, usize), FilterError> {
    let mut i = start;
    if chars[i] == '-' {
        i += 1;
    }
    let digits_start = i;
    let mut is_double = false;
    while i < chars.len() {
        match chars[i] {
            '0'..='9' => i += 1,
            '.' => {
                is_double = true;
                i += 1;
            }
            'e' | 'E' if i > digits_start => {
                is_double = true;
                i += 1;
                if matches!(chars.get(i), Some('+' | '-')) {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    let text: String = chars[start..i].iter().collect();
    if i == digits_start {
        return Err(FilterError::new(start, "expected digits after `-`"));
    }
    let suffix = chars.get(i).copied();
    let bad =
        |what: &str| FilterError::new(start, format!("`{text}` is not a valid {what} literal"));
    let value = match suffix {
        Some('L' | 'l') if !is_double => {
            i += 1;
            Value::Int64(text.parse().map_err(|_| bad("Int64"))?)
        }
        Some('d' | 'D' | 'm' | 'M' | 'f' | 'F') => {
            i += 1;
            Value::Double(text.parse().map_err(|_| bad("Double"))?)
        }
        _ if is_double => Value::Double(text.parse().map_err(|_| bad("Double"))?),
        _ => Value::Int32(text.parse().map_err(|_| {
            FilterError::new(
                start,
                format!("`{text}` does not fit Int32; write `{text}L` for an Int64 literal"),
            )
        })?),
    };
    if let Some(&c) = chars.get(i)
        && (c.is_alphanumeric() || c == '_' || c == '.')
    {
        return Err(FilterError::new(
            i,
            format!("unexpected `{c}` after the number `{text}`"),
        ));
    }
    Ok((value, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        tokenize(text)
            .unwrap()
            .into_iter()
            .map(|t| t.kind)
            .collect()
    }

    #[test]
    fn typed_literals() {
        assert_eq!(kinds("123L"), [TokenKind::Literal(Value::Int64(123))]);
        assert_eq!(kinds("-5"), [TokenKind::Literal(Value::Int32(-5))]);
        assert_eq!(kinds("2.0"), [TokenKind::Literal(Value::Double(2.0))]);
        assert_eq!(kinds("1e3"), [TokenKind::Literal(Value::Double(1000.0))]);
        assert_eq!(
            kinds("X'0aFF'"),
            [TokenKind::Literal(Value::Binary(vec![10, 255]))]
        );
        assert_eq!(
            kinds("binary'00'"),
            [TokenKind::Literal(Value::Binary(vec![0]))]
        );
        assert_eq!(
            kinds("'O''Brien'"),
            [TokenKind::Literal(Value::String("O'Brien".into()))]
        );
        assert_eq!(kinds("TRUE"), [TokenKind::Literal(Value::Boolean(true))]);
        assert!(matches!(
            kinds("datetime'2024-05-01T10:20:30Z'")[0],
            TokenKind::Literal(Value::DateTime(_))
        ));
        assert!(matches!(
            kinds("guid'c9da6455-213d-42c9-9a79-3e9149a57833'")[0],
            TokenKind::Literal(Value::Guid(_))
        ));
    }

    #[test]
    fn errors_name_the_column() {
        let err = tokenize("Name eq 'abc").unwrap_err();
        assert_eq!(err.column, 8);
        assert!(err.message.contains("unterminated"));
        assert_eq!(tokenize("A eq 3000000000").unwrap_err().column, 5);
        assert_eq!(tokenize("A eq X'abc'").unwrap_err().column, 5);
        assert_eq!(tokenize("A eq 12abc").unwrap_err().column, 7);
        assert_eq!(tokenize("A eq $").unwrap_err().column, 5);
        assert!(tokenize("A eq foo'x'").is_err());
    }
}

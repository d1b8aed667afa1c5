//! A lexer for Rust source text that makes, in one flat array of small `Copy` tokens, the token
//! trees proc-macro2 makes of the same text: the same identifiers, punctuation (with the same
//! spacing), literals and groups, and a doc comment as the same `#[doc = "…"]`. Nothing is
//! allocated per token; a group is the range of the array from its opening token to its
//! closing one, each knowing where the other is.
//!
//! It follows proc-macro2's own lexer (its fallback, which lexes the text when no compiler is
//! there) rule for rule, so that what the linter reads is what it read through proc-macro2 and
//! a file it rejects (an unbalanced delimiter, an unterminated string or comment) is rejected
//! here, at the same place. One thing is added: a shebang line (`#!/usr/bin/env …` at the start
//! of a file, not followed by `[`) is skipped, as rustc skips it.

use std::cell::RefCell;

use proc_macro2::{TokenStream, TokenTree};

/// A group's delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Delimiter {
    /// `( … )`
    Parenthesis,
    /// `[ … ]`
    Bracket,
    /// `{ … }`
    Brace,
}

/// What kind of literal a literal token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LitKind {
    /// `"…"`, with a suffix when one follows.
    Str,
    /// `r"…"`, `r#"…"#`.
    RawStr,
    /// `b"…"`.
    ByteStr,
    /// `br"…"`, `br#"…"#`.
    RawByteStr,
    /// `c"…"`.
    CStr,
    /// `cr"…"`, `cr#"…"#`.
    RawCStr,
    /// `b'…'`.
    Byte,
    /// `'…'`.
    Char,
    /// `1`, `0x1F_u8`, `1usize`.
    Int,
    /// `1.0`, `1e10`, `1.0f64`.
    Float,
    /// `(/*ERROR*/)`: rustc's stand-in for a failed macro expansion, a literal to proc-macro2.
    Error,
    /// The text of a doc comment (the token's range is the comment's text, which is also the
    /// value of the string proc-macro2 makes of it).
    Doc,
}

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An identifier or keyword (a raw one keeps its `r#`); the name of a lifetime or label
    /// too, after its `'` punctuation, as proc-macro2 splits them.
    Ident,
    /// The `doc` of the `#[doc = "…"]` a doc comment stands for (not in the text).
    DocIdent,
    /// One punctuation character, and whether another one follows it at once (proc-macro2's
    /// `Spacing::Joint`).
    Punct {
        /// The character (always ASCII).
        ch: u8,
        /// Whether the next character is punctuation too.
        joint: bool,
    },
    /// A literal.
    Literal(LitKind),
    /// The opening delimiter of a group, with the index of its closing token.
    Open {
        /// The delimiter.
        delimiter: Delimiter,
        /// The index of the group's [`Kind::Close`] token.
        close: u32,
    },
    /// The closing delimiter of a group, with the index of its opening token.
    Close {
        /// The delimiter.
        delimiter: Delimiter,
        /// The index of the group's [`Kind::Open`] token.
        open: u32,
    },
}

/// A token: its kind and its byte range in the text. The tokens a doc comment stands for all
/// have the comment's range, but for its text's literal, which has the text's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Token {
    /// What it is.
    pub kind: Kind,
    /// Where it starts (a byte offset).
    pub start: u32,
    /// Where it ends (exclusive).
    pub end: u32,
}

impl Token {
    /// The token's text: an identifier's name, a literal as written (a doc comment's text for
    /// its literal), a punctuation character, a delimiter.
    pub fn text(self, src: &str) -> &str {
        match self.kind {
            Kind::DocIdent => "doc",
            _ => src
                .get(self.start as usize..self.end as usize)
                .unwrap_or(""),
        }
    }
}

/// Where lexing stopped: text that is not a token, a delimiter without its match, an
/// unterminated literal or comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LexError {
    /// The byte offset proc-macro2 reports: the token that could not be read, the closing
    /// delimiter without its match, or the innermost group left open at the end.
    pub offset: usize,
}

impl std::fmt::Display for LexError {
    /// proc-macro2's message, which findings have always quoted.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("cannot parse string into token stream")
    }
}

impl std::error::Error for LexError {}

/// `(/*ERROR*/)`, which proc-macro2 reads as one literal.
const ERROR: &str = "(/*ERROR*/)";

/// Lexes a whole text into `out` (cleared first). On an error `out` holds the tokens before it.
pub fn lex(text: &str, out: &mut Vec<Token>) -> Result<(), LexError> {
    out.clear();
    if u32::try_from(text.len()).is_err() {
        // Offsets are 32-bit (as proc-macro2's are): a text of 4 GiB or more is not read.
        return Err(LexError { offset: 0 });
    }
    let mut lexer = Lexer {
        src: text,
        bytes: text.as_bytes(),
        tokens: out,
        stack: Vec::new(),
    };
    lexer.run()
}

/// Lexes a whole text into a new vector.
pub fn tokenize(text: &str) -> Result<Vec<Token>, LexError> {
    let mut out = Vec::with_capacity(text.len() / 5);
    lex(text, &mut out)?;
    Ok(out)
}

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    tokens: &'a mut Vec<Token>,
    /// The indices of the groups open.
    stack: Vec<u32>,
}

impl Lexer<'_> {
    fn run(&mut self) -> Result<(), LexError> {
        let mut pos = 0;
        // proc-macro2 skips a byte order mark (its columns still count it).
        if self.src.starts_with('\u{feff}') {
            pos = '\u{feff}'.len_utf8();
        }
        pos = self.shebang(pos);
        loop {
            pos = self.skip_whitespace(pos);
            if self.byte(pos) == Some(b'/')
                && let Some(doc) = self.doc_comment(pos)
            {
                self.push_doc(pos, doc);
                pos = doc.end;
                continue;
            }
            let Some(&first) = self.bytes.get(pos) else {
                return match self.stack.last() {
                    None => Ok(()),
                    Some(&open) => Err(LexError {
                        offset: self.tokens[open as usize].start as usize,
                    }),
                };
            };
            let open = match first {
                b'(' if !self.starts_with(pos, ERROR) => Some(Delimiter::Parenthesis),
                b'[' => Some(Delimiter::Bracket),
                b'{' => Some(Delimiter::Brace),
                _ => None,
            };
            if let Some(delimiter) = open {
                self.stack.push(self.tokens.len() as u32);
                self.push(
                    Kind::Open {
                        delimiter,
                        close: 0,
                    },
                    pos,
                    pos + 1,
                );
                pos += 1;
                continue;
            }
            let close = match first {
                b')' => Some(Delimiter::Parenthesis),
                b']' => Some(Delimiter::Bracket),
                b'}' => Some(Delimiter::Brace),
                _ => None,
            };
            if let Some(delimiter) = close {
                let Some(open) = self.stack.pop() else {
                    return Err(LexError { offset: pos });
                };
                let here = self.tokens.len() as u32;
                match &mut self.tokens[open as usize].kind {
                    Kind::Open {
                        delimiter: opened,
                        close,
                    } if *opened == delimiter => *close = here,
                    _ => return Err(LexError { offset: pos }),
                }
                self.push(Kind::Close { delimiter, open }, pos, pos + 1);
                pos += 1;
                continue;
            }
            let Some((kind, end)) = self.leaf(pos) else {
                return Err(LexError { offset: pos });
            };
            self.push(kind, pos, end);
            pos = end;
        }
    }

    fn push(&mut self, kind: Kind, start: usize, end: usize) {
        // The text is shorter than 4 GiB (checked in `lex`).
        self.tokens.push(Token {
            kind,
            start: start as u32,
            end: end as u32,
        });
    }

    fn starts_with(&self, pos: usize, s: &str) -> bool {
        self.bytes
            .get(pos..)
            .is_some_and(|rest| rest.starts_with(s.as_bytes()))
    }

    fn byte(&self, pos: usize) -> Option<u8> {
        self.bytes.get(pos).copied()
    }

    /// The character at `pos` (a character boundary).
    fn char_at(&self, pos: usize) -> Option<char> {
        self.src.get(pos..).and_then(|rest| rest.chars().next())
    }

    /// After a shebang line at `pos` (the start of the text), as rustc skips it: `#!` not
    /// followed (after whitespace and comments) by `[`, up to the end of the line.
    fn shebang(&self, pos: usize) -> usize {
        if !self.starts_with(pos, "#!") {
            return pos;
        }
        let after = self.skip_whitespace(pos + 2);
        if self.doc_comment(after).is_none() && self.byte(after) == Some(b'[') {
            return pos;
        }
        let line = self.src.get(pos..).and_then(|rest| rest.lines().next());
        pos + line.map_or(0, str::len)
    }

    /// After whitespace and comments that are not doc comments.
    fn skip_whitespace(&self, mut s: usize) -> usize {
        while let Some(byte) = self.byte(s) {
            if byte == b'/' {
                if self.starts_with(s, "//")
                    && (!self.starts_with(s, "///") || self.starts_with(s, "////"))
                    && !self.starts_with(s, "//!")
                {
                    s = self.line_end(s).0;
                    continue;
                } else if self.starts_with(s, "/**/") {
                    s += 4;
                    continue;
                } else if self.starts_with(s, "/*")
                    && (!self.starts_with(s, "/**") || self.starts_with(s, "/***"))
                    && !self.starts_with(s, "/*!")
                {
                    match self.block_comment(s) {
                        Some(end) => {
                            s = end;
                            continue;
                        }
                        None => return s,
                    }
                }
            }
            match byte {
                b' ' | 0x09..=0x0d => {
                    s += 1;
                    continue;
                }
                b if b.is_ascii() => {}
                _ => {
                    if let Some(ch) = self.char_at(s)
                        && is_whitespace(ch)
                    {
                        s += ch.len_utf8();
                        continue;
                    }
                }
            }
            return s;
        }
        s
    }

    /// The end of a line comment's text from `s` (proc-macro2's `take_until_newline_or_eof`),
    /// and where the comment ends: at the `\n` (after a `\r` before it), or the end of text.
    fn line_end(&self, s: usize) -> (usize, usize) {
        match memchr::memchr(b'\n', &self.bytes[s..]) {
            Some(n) => {
                let nl = s + n;
                if nl > s && self.bytes[nl - 1] == b'\r' {
                    (nl, nl - 1)
                } else {
                    (nl, nl)
                }
            }
            None => (self.bytes.len(), self.bytes.len()),
        }
    }

    /// The end of the (nested) block comment starting at `s`, if it is closed.
    fn block_comment(&self, s: usize) -> Option<usize> {
        let bytes = &self.bytes[s..];
        if !bytes.starts_with(b"/*") {
            return None;
        }
        let mut depth = 0usize;
        let mut i = 0;
        while i + 1 < bytes.len() {
            match memchr::memchr2(b'/', b'*', &bytes[i..]) {
                Some(n) => i += n,
                None => return None,
            }
            if i + 1 >= bytes.len() {
                return None;
            }
            if bytes[i] == b'/' && bytes[i + 1] == b'*' {
                depth += 1;
                i += 1;
            } else if bytes[i] == b'*' && bytes[i + 1] == b'/' {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(s + i + 2);
                }
                i += 1;
            }
            i += 1;
        }
        None
    }

    /// The doc comment at `s`: `///`, `//!`, `/** */`, `/*! */`, with no lone `\r` in it.
    fn doc_comment(&self, s: usize) -> Option<Doc> {
        let (end, text, inner) = if self.starts_with(s, "//!") {
            let (end, text_end) = self.line_end(s + 3);
            (end, (s + 3, text_end), true)
        } else if self.starts_with(s, "/*!") {
            let end = self.block_comment(s)?;
            (end, (s + 3, (end - 2).max(s + 3)), true)
        } else if self.starts_with(s, "///") {
            if self.byte(s + 3) == Some(b'/') {
                return None;
            }
            let (end, text_end) = self.line_end(s + 3);
            (end, (s + 3, text_end), false)
        } else if self.starts_with(s, "/**") && self.byte(s + 3) != Some(b'*') {
            let end = self.block_comment(s)?;
            (end, (s + 3, (end - 2).max(s + 3)), false)
        } else {
            return None;
        };
        let body = &self.bytes[text.0..text.1];
        let mut from = 0;
        while let Some(cr) = memchr::memchr(b'\r', &body[from..]) {
            if body.get(from + cr + 1) != Some(&b'\n') {
                return None;
            }
            from += cr + 1;
        }
        Some(Doc { end, text, inner })
    }

    /// The tokens of `#[doc = "…"]` (`#![doc = "…"]` for an inner doc comment).
    fn push_doc(&mut self, s: usize, doc: Doc) {
        let alone = |ch| Kind::Punct { ch, joint: false };
        self.push(alone(b'#'), s, doc.end);
        if doc.inner {
            self.push(alone(b'!'), s, doc.end);
        }
        let open = self.tokens.len() as u32;
        let delimiter = Delimiter::Bracket;
        self.push(
            Kind::Open {
                delimiter,
                close: open + 4,
            },
            s,
            doc.end,
        );
        self.push(Kind::DocIdent, s, doc.end);
        self.push(alone(b'='), s, doc.end);
        self.push(Kind::Literal(LitKind::Doc), doc.text.0, doc.text.1);
        self.push(Kind::Close { delimiter, open }, s, doc.end);
    }

    /// A literal, punctuation or identifier at `s`, and where it ends.
    fn leaf(&self, s: usize) -> Option<(Kind, usize)> {
        let b = self.byte(s)?;
        // A word: a literal only after the prefix `r`, `b` or `c`, never punctuation.
        if b.is_ascii_alphabetic() || b == b'_' || !b.is_ascii() {
            if matches!(b, b'r' | b'b' | b'c') {
                if let Some((kind, end)) = self.literal(s) {
                    return Some((Kind::Literal(kind), end));
                }
                return self.ident(s).map(|end| (Kind::Ident, end));
            }
            return self.ident_any(s).map(|end| (Kind::Ident, end));
        }
        if let Some((kind, end)) = self.literal(s) {
            Some((Kind::Literal(kind), end))
        } else if let Some((ch, joint)) = self.punct(s) {
            Some((Kind::Punct { ch, joint }, s + 1))
        } else if let Some(end) = self.ident(s) {
            Some((Kind::Ident, end))
        } else if self.starts_with(s, ERROR) {
            Some((Kind::Literal(LitKind::Error), s + ERROR.len()))
        } else {
            None
        }
    }

    fn ident(&self, s: usize) -> Option<usize> {
        const LITERAL_PREFIXES: [&str; 10] = [
            "r\"", "r#\"", "r##", "b\"", "b'", "br\"", "br#", "c\"", "cr\"", "cr#",
        ];
        if LITERAL_PREFIXES.iter().any(|p| self.starts_with(s, p)) {
            None
        } else {
            self.ident_any(s)
        }
    }

    /// An identifier, raw or not, at `s`.
    fn ident_any(&self, s: usize) -> Option<usize> {
        let raw = self.starts_with(s, "r#");
        let from = if raw { s + 2 } else { s };
        let end = self.ident_not_raw(from)?;
        if raw
            && matches!(
                &self.src[from..end],
                "_" | "super" | "self" | "Self" | "crate"
            )
        {
            return None;
        }
        Some(end)
    }

    /// An identifier (not raw) at `s`.
    fn ident_not_raw(&self, s: usize) -> Option<usize> {
        let mut end = match self.byte(s)? {
            b if b.is_ascii_alphabetic() || b == b'_' => s + 1,
            b if b.is_ascii() => return None,
            _ => {
                let first = self.char_at(s)?;
                if !is_ident_start(first) {
                    return None;
                }
                s + first.len_utf8()
            }
        };
        while let Some(&b) = self.bytes.get(end) {
            if b.is_ascii() {
                if b.is_ascii_alphanumeric() || b == b'_' {
                    end += 1;
                    continue;
                }
                break;
            }
            match self.char_at(end) {
                Some(ch) if is_ident_continue(ch) => end += ch.len_utf8(),
                _ => break,
            }
        }
        Some(end)
    }

    /// After a literal's suffix (an identifier right after it), if any.
    fn suffix(&self, s: usize) -> usize {
        self.ident_not_raw(s).unwrap_or(s)
    }

    /// Whether the character at `s` may continue an identifier.
    fn continues_ident(&self, s: usize) -> bool {
        self.char_at(s).is_some_and(is_ident_continue)
    }

    fn starts_ident(&self, s: usize) -> bool {
        self.char_at(s).is_some_and(is_ident_start)
    }

    fn punct_char(&self, s: usize) -> Option<u8> {
        if self.starts_with(s, "//") || self.starts_with(s, "/*") {
            return None;
        }
        let b = self.byte(s)?;
        matches!(
            b,
            b'~' | b'!'
                | b'@'
                | b'#'
                | b'$'
                | b'%'
                | b'^'
                | b'&'
                | b'*'
                | b'-'
                | b'='
                | b'+'
                | b'|'
                | b';'
                | b':'
                | b','
                | b'<'
                | b'.'
                | b'>'
                | b'/'
                | b'?'
                | b'\''
        )
        .then_some(b)
    }

    fn punct(&self, s: usize) -> Option<(u8, bool)> {
        let ch = self.punct_char(s)?;
        if ch == b'\'' {
            // A lifetime's or label's `'`: an identifier must follow, and no `'` after it
            // (that would be a character literal that failed to lex).
            let after = self.ident_any(s + 1)?;
            if self.byte(after) == Some(b'\'')
                || (self.byte(after) == Some(b'#') && !self.starts_with(s + 1, "r#"))
            {
                return None;
            }
            Some((ch, true))
        } else {
            Some((ch, self.punct_char(s + 1).is_some()))
        }
    }

    fn literal(&self, s: usize) -> Option<(LitKind, usize)> {
        let b = self.byte(s)?;
        if b == b'"' {
            return self.cooked_string(s + 1).map(|e| (LitKind::Str, e));
        }
        if b == b'r' {
            if let Some(end) = self.raw_string(s + 1, RawKind::Str) {
                return Some((LitKind::RawStr, end));
            }
        } else if self.starts_with(s, "b\"") {
            return self
                .cooked_byte_string(s + 2)
                .map(|e| (LitKind::ByteStr, e));
        } else if self.starts_with(s, "br") {
            if let Some(end) = self.raw_string(s + 2, RawKind::Byte) {
                return Some((LitKind::RawByteStr, end));
            }
        } else if self.starts_with(s, "c\"") {
            return self.cooked_c_string(s + 2).map(|e| (LitKind::CStr, e));
        } else if self.starts_with(s, "cr") {
            if let Some(end) = self.raw_string(s + 2, RawKind::C) {
                return Some((LitKind::RawCStr, end));
            }
        } else if self.starts_with(s, "b'") {
            return self.byte_literal(s + 2).map(|e| (LitKind::Byte, e));
        } else if b == b'\'' {
            return self.character(s + 1).map(|e| (LitKind::Char, e));
        } else if b.is_ascii_digit() {
            if let Some(end) = self.float(s) {
                return Some((LitKind::Float, end));
            }
            return self.int(s).map(|e| (LitKind::Int, e));
        }
        None
    }

    /// A `"…"` string's end (after its suffix), from just after its opening quote.
    fn cooked_string(&self, mut i: usize) -> Option<usize> {
        loop {
            // Only `"`, `\` and `\r` matter; every other character is taken as it is.
            i += memchr::memchr3(b'"', b'\\', b'\r', self.bytes.get(i..)?)?;
            match self.bytes[i] {
                b'"' => return Some(self.suffix(i + 1)),
                b'\r' => {
                    if self.byte(i + 1) != Some(b'\n') {
                        return None;
                    }
                    i += 2;
                }
                _ => match self.byte(i + 1)? {
                    b'x' => i = self.backslash_x_char(i + 2)?,
                    b'n' | b'r' | b't' | b'\\' | b'\'' | b'"' | b'0' => i += 2,
                    b'u' => i = self.backslash_u(i + 2)?.1,
                    b @ (b'\n' | b'\r') => i = self.trailing_backslash(i + 2, b)?,
                    _ => return None,
                },
            }
        }
    }

    /// A `c"…"` string's end (after its suffix), from just after its opening quote: no NUL in it,
    /// escaped or not.
    fn cooked_c_string(&self, mut i: usize) -> Option<usize> {
        loop {
            match self.byte(i)? {
                b'"' => return Some(self.suffix(i + 1)),
                b'\r' => {
                    if self.byte(i + 1) != Some(b'\n') {
                        return None;
                    }
                    i += 2;
                }
                b'\\' => match self.byte(i + 1)? {
                    b'x' => {
                        let hi = hex(self.byte(i + 2)?)?;
                        let lo = hex(self.byte(i + 3)?)?;
                        if hi == 0 && lo == 0 {
                            return None;
                        }
                        i += 4;
                    }
                    b'n' | b'r' | b't' | b'\\' | b'\'' | b'"' => i += 2,
                    b'u' => {
                        let (ch, end) = self.backslash_u(i + 2)?;
                        if ch == '\0' {
                            return None;
                        }
                        i = end;
                    }
                    b @ (b'\n' | b'\r') => i = self.trailing_backslash(i + 2, b)?,
                    _ => return None,
                },
                0 => return None,
                _ => i += 1,
            }
        }
    }

    /// A `b"…"` string's end (after its suffix), from just after its opening quote: ASCII only.
    fn cooked_byte_string(&self, mut i: usize) -> Option<usize> {
        loop {
            match self.byte(i)? {
                b'"' => return Some(self.suffix(i + 1)),
                b'\r' => {
                    if self.byte(i + 1) != Some(b'\n') {
                        return None;
                    }
                    i += 2;
                }
                b'\\' => match self.byte(i + 1)? {
                    b'x' => {
                        hex(self.byte(i + 2)?)?;
                        hex(self.byte(i + 3)?)?;
                        i += 4;
                    }
                    b'n' | b'r' | b't' | b'\\' | b'0' | b'\'' | b'"' => i += 2,
                    b @ (b'\n' | b'\r') => i = self.trailing_backslash(i + 2, b)?,
                    _ => return None,
                },
                b if b.is_ascii() => i += 1,
                _ => return None,
            }
        }
    }

    /// A raw string's end (after its suffix), from just after its `r`: `#`s (at most 255),
    /// `"`, the text, `"` and as many `#`s. A byte string is ASCII only; a C string has no NUL.
    fn raw_string(&self, s: usize, kind: RawKind) -> Option<usize> {
        let hashes = self
            .bytes
            .get(s..)?
            .iter()
            .take_while(|&&b| b == b'#')
            .count();
        if self.byte(s + hashes) != Some(b'"') || hashes > 255 {
            return None;
        }
        let mut i = s + hashes + 1;
        loop {
            let b = self.byte(i)?;
            if b == b'"'
                && self
                    .bytes
                    .get(i + 1..i + 1 + hashes)
                    .is_some_and(|h| h.iter().all(|&b| b == b'#'))
            {
                return Some(self.suffix(i + 1 + hashes));
            }
            match b {
                b'\r' => {
                    if self.byte(i + 1) != Some(b'\n') {
                        return None;
                    }
                    i += 2;
                }
                0 if kind == RawKind::C => return None,
                b if !b.is_ascii() && kind == RawKind::Byte => return None,
                _ => i += 1,
            }
        }
    }

    /// After `\x` in a string or character: two hex digits, the first at most 7.
    fn backslash_x_char(&self, i: usize) -> Option<usize> {
        if !matches!(self.byte(i)?, b'0'..=b'7') {
            return None;
        }
        hex(self.byte(i + 1)?)?;
        Some(i + 2)
    }

    /// After `\u`: `{`, one to six hex digits (`_` between them), `}`, naming a character; the
    /// character and where the escape ends.
    fn backslash_u(&self, mut i: usize) -> Option<(char, usize)> {
        if self.byte(i)? != b'{' {
            return None;
        }
        i += 1;
        let mut value = 0u32;
        let mut len = 0;
        loop {
            let b = self.byte(i)?;
            i += 1;
            let digit = match b {
                b'_' if len > 0 => continue,
                b'}' if len > 0 => return char::from_u32(value).map(|c| (c, i)),
                b => hex(b)?,
            };
            if len == 6 {
                return None;
            }
            value = value * 0x10 + u32::from(digit);
            len += 1;
        }
    }

    /// After a `\` that ends a line in a string (`i` just after the line break `last`): the
    /// whitespace is skipped up to the next character, which must be there.
    fn trailing_backslash(&self, mut i: usize, mut last: u8) -> Option<usize> {
        loop {
            if last == b'\r' {
                if self.byte(i) != Some(b'\n') {
                    return None;
                }
                i += 1;
            }
            match self.byte(i)? {
                b @ (b' ' | b'\t' | b'\n' | b'\r') => {
                    last = b;
                    i += 1;
                }
                _ => return Some(i),
            }
        }
    }

    /// A `b'…'` literal's end (after its suffix), from just after `b'`.
    fn byte_literal(&self, p: usize) -> Option<usize> {
        let q = match self.byte(p)? {
            b'\\' => match self.byte(p + 1)? {
                b'x' => {
                    hex(self.byte(p + 2)?)?;
                    hex(self.byte(p + 3)?)?;
                    p + 4
                }
                b'n' | b'r' | b't' | b'\\' | b'0' | b'\'' | b'"' => p + 2,
                _ => return None,
            },
            _ => p + 1,
        };
        if !self.src.is_char_boundary(q) || self.byte(q)? != b'\'' {
            return None;
        }
        Some(self.suffix(q + 1))
    }

    /// A `'…'` character literal's end (after its suffix), from just after `'`.
    fn character(&self, p: usize) -> Option<usize> {
        let q = match self.char_at(p)? {
            '\\' => match self.byte(p + 1)? {
                b'x' => self.backslash_x_char(p + 2)?,
                b'u' => self.backslash_u(p + 2)?.1,
                b'n' | b'r' | b't' | b'\\' | b'0' | b'\'' | b'"' => p + 2,
                _ => return None,
            },
            ch => p + ch.len_utf8(),
        };
        if self.byte(q)? != b'\'' {
            return None;
        }
        Some(self.suffix(q + 1))
    }

    /// A float literal's end (after its suffix): digits with a `.` or an exponent.
    fn float(&self, s: usize) -> Option<usize> {
        let mut rest = self.float_digits(s)?;
        if self.starts_ident(rest) {
            rest = self.ident_not_raw(rest)?;
        }
        (!self.continues_ident(rest)).then_some(rest)
    }

    fn float_digits(&self, s: usize) -> Option<usize> {
        if !self.byte(s)?.is_ascii_digit() {
            return None;
        }
        let mut len = 1;
        let mut has_dot = false;
        let mut has_exp = false;
        while let Some(b) = self.byte(s + len) {
            match b {
                b'0'..=b'9' | b'_' => len += 1,
                b'.' => {
                    if has_dot {
                        break;
                    }
                    let after = s + len + 1;
                    if self.byte(after) == Some(b'.') || self.starts_ident(after) {
                        return None;
                    }
                    len += 1;
                    has_dot = true;
                }
                b'e' | b'E' => {
                    len += 1;
                    has_exp = true;
                    break;
                }
                _ => break,
            }
        }
        if !(has_dot || has_exp) {
            return None;
        }
        if has_exp {
            let before_exp = has_dot.then_some(s + len - 1);
            let mut has_sign = false;
            let mut has_exp_value = false;
            while let Some(b) = self.byte(s + len) {
                match b {
                    b'+' | b'-' => {
                        if has_exp_value {
                            break;
                        }
                        if has_sign {
                            return before_exp;
                        }
                        len += 1;
                        has_sign = true;
                    }
                    b'0'..=b'9' => {
                        len += 1;
                        has_exp_value = true;
                    }
                    b'_' => len += 1,
                    _ => break,
                }
            }
            if !has_exp_value {
                return before_exp;
            }
        }
        Some(s + len)
    }

    /// An integer literal's end (after its suffix).
    fn int(&self, s: usize) -> Option<usize> {
        let mut rest = self.digits(s)?;
        if self.starts_ident(rest) {
            rest = self.ident_not_raw(rest)?;
        }
        (!self.continues_ident(rest)).then_some(rest)
    }

    fn digits(&self, mut s: usize) -> Option<usize> {
        let base = if self.starts_with(s, "0x") {
            16
        } else if self.starts_with(s, "0o") {
            8
        } else if self.starts_with(s, "0b") {
            2
        } else {
            10
        };
        if base != 10 {
            s += 2;
        }
        let mut len = 0;
        let mut empty = true;
        while let Some(b) = self.byte(s + len) {
            match b {
                b'0'..=b'9' => {
                    if u32::from(b - b'0') >= base {
                        return None;
                    }
                }
                b'a'..=b'f' | b'A'..=b'F' => {
                    if 10 + u32::from(b.to_ascii_lowercase() - b'a') >= base {
                        break;
                    }
                }
                b'_' => {
                    if empty && base == 10 {
                        return None;
                    }
                    len += 1;
                    continue;
                }
                _ => break,
            }
            len += 1;
            empty = false;
        }
        (!empty).then_some(s + len)
    }
}

/// A doc comment: where it ends, the range of its text, and whether it is an inner one.
#[derive(Clone, Copy)]
struct Doc {
    end: usize,
    text: (usize, usize),
    inner: bool,
}

/// Which raw string is read: its content rules differ.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RawKind {
    Str,
    Byte,
    C,
}

/// A hex digit's value.
fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Whitespace as Rust has it: Unicode's, and the left-to-right and right-to-left marks.
fn is_whitespace(ch: char) -> bool {
    ch.is_whitespace() || ch == '\u{200e}' || ch == '\u{200f}'
}

/// Whether a character may start an identifier (`_` or XID_Start).
fn is_ident_start(ch: char) -> bool {
    if ch.is_ascii() {
        ch.is_ascii_alphabetic() || ch == '_'
    } else {
        unicode_class(ch).0
    }
}

/// Whether a character may continue an identifier (XID_Continue).
fn is_ident_continue(ch: char) -> bool {
    if ch.is_ascii() {
        ch.is_ascii_alphanumeric() || ch == '_'
    } else {
        unicode_class(ch).1
    }
}

thread_local! {
    /// The non-ASCII characters already classified: (XID_Start, XID_Continue).
    static CLASSES: RefCell<rustc_hash::FxHashMap<char, (bool, bool)>> = RefCell::default();
}

/// Whether a non-ASCII character is XID_Start and XID_Continue. Unicode's identifier tables
/// are proc-macro2's (through `unicode-ident`), which this crate does not depend on directly:
/// the character is asked about by lexing it alone (an identifier exactly when it starts one)
/// and after `_` (one identifier exactly when it continues one). Rare outside strings and
/// comments; each answer is kept for the thread.
fn unicode_class(ch: char) -> (bool, bool) {
    if let Some(known) = CLASSES.with(|c| c.borrow().get(&ch).copied()) {
        return known;
    }
    let one_ident = |text: &str| {
        text.parse::<TokenStream>().is_ok_and(|tokens| {
            let mut tokens = tokens.into_iter();
            matches!(
                (tokens.next(), tokens.next()),
                (Some(TokenTree::Ident(id)), None) if id == text
            )
        })
    };
    let mut buf = [0u8; 8];
    let alone = ch.encode_utf8(&mut buf[1..]).len();
    buf[0] = b'_';
    let start = std::str::from_utf8(&buf[1..1 + alone]).is_ok_and(one_ident);
    let cont = std::str::from_utf8(&buf[..1 + alone]).is_ok_and(one_ident);
    CLASSES.with(|c| c.borrow_mut().insert(ch, (start, cont)));
    (start, cont)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proc_macro2::{LineColumn, Spacing};

    /// A token as both lexers can describe it: what it is, its text, where it starts and ends.
    #[derive(Debug, PartialEq, Eq)]
    struct Seen {
        what: String,
        start: LineColumn,
        end: LineColumn,
    }

    /// The line and (character) column of a byte offset, as proc-macro2 counts them.
    fn line_column(text: &str, offset: usize) -> LineColumn {
        let before = &text[..offset];
        let line = memchr::memchr_iter(b'\n', before.as_bytes()).count() + 1;
        let from = memchr::memrchr(b'\n', before.as_bytes()).map_or(0, |n| n + 1);
        LineColumn {
            line,
            column: before[from..].chars().count(),
        }
    }

    /// [`line_column`] for increasing offsets, each found from the last.
    struct Walker<'t> {
        text: &'t str,
        offset: usize,
        at: LineColumn,
    }

    impl Walker<'_> {
        fn to(&mut self, offset: usize) -> LineColumn {
            if offset < self.offset {
                return line_column(self.text, offset);
            }
            let between = &self.text[self.offset..offset];
            match memchr::memrchr(b'\n', between.as_bytes()) {
                Some(n) => {
                    self.at.line += memchr::memchr_iter(b'\n', between.as_bytes()).count();
                    self.at.column = between[n + 1..].chars().count();
                }
                None => self.at.column += between.chars().count(),
            }
            self.offset = offset;
            self.at
        }
    }

    /// proc-macro2's token trees, flattened as the lexer flattens them.
    fn flatten(stream: TokenStream, out: &mut Vec<Seen>) {
        for tree in stream {
            let (what, span) = match &tree {
                TokenTree::Ident(i) => (format!("ident {i}"), i.span()),
                TokenTree::Punct(p) => (
                    format!(
                        "punct {}{}",
                        p.as_char(),
                        if p.spacing() == Spacing::Joint {
                            " joint"
                        } else {
                            ""
                        }
                    ),
                    p.span(),
                ),
                TokenTree::Literal(l) => (format!("literal {l}"), l.span()),
                TokenTree::Group(g) => {
                    // A group's span runs from its opening delimiter to its closing one
                    // (the whole comment, for a doc comment's).
                    let d = format!("{:?}", g.delimiter());
                    out.push(Seen {
                        what: format!("open {d}"),
                        start: g.span().start(),
                        end: g.span().start(),
                    });
                    flatten(g.stream(), out);
                    out.push(Seen {
                        what: format!("close {d}"),
                        start: g.span().end(),
                        end: g.span().end(),
                    });
                    continue;
                }
            };
            out.push(Seen {
                what,
                start: span.start(),
                end: span.end(),
            });
        }
    }

    /// The lexer's tokens, described as [`flatten`] describes proc-macro2's.
    fn describe(text: &str, tokens: &[Token]) -> Vec<Seen> {
        let mut out = Vec::new();
        let mut walker = Walker {
            text,
            offset: 0,
            at: LineColumn { line: 1, column: 0 },
        };
        for (i, t) in tokens.iter().enumerate() {
            let what = match t.kind {
                Kind::Ident | Kind::DocIdent => format!("ident {}", t.text(text)),
                Kind::Punct { ch, joint } => {
                    format!("punct {}{}", ch as char, if joint { " joint" } else { "" })
                }
                Kind::Literal(LitKind::Doc) => {
                    format!("literal {}", proc_macro2::Literal::string(t.text(text)))
                }
                Kind::Literal(_) => format!("literal {}", t.text(text)),
                Kind::Open { delimiter, close } => {
                    assert!(
                        matches!(tokens[close as usize].kind, Kind::Close { open, delimiter: d } if open as usize == i && d == delimiter)
                    );
                    format!("open {delimiter:?}")
                }
                Kind::Close { delimiter, .. } => format!("close {delimiter:?}"),
            };
            // A doc comment's pieces all have the comment's span in proc-macro2.
            let (start, end) = match t.kind {
                Kind::Literal(LitKind::Doc) => (tokens[i - 2].start, tokens[i - 2].end),
                Kind::Open { .. } => (t.start, t.start),
                Kind::Close { .. } => (t.end, t.end),
                _ => (t.start, t.end),
            };
            out.push(Seen {
                what,
                start: walker.to(start as usize),
                end: walker.to(end as usize),
            });
        }
        out
    }

    /// Lexes `text` with both lexers and checks they agree: the same tokens at the same
    /// places, or an error at the same place. The lexer's literal kinds are checked against
    /// syn's reading of each literal.
    pub(crate) fn agree(text: &str) {
        let ours = tokenize(text);
        // proc-macro2 does not know shebangs: it is given the text with the shebang line
        // blanked (a space for each character, so lines and columns stay).
        let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let lexer = Lexer {
            src: text,
            bytes: text.as_bytes(),
            tokens: &mut Vec::new(),
            stack: Vec::new(),
        };
        let shebang = lexer.shebang(bom);
        let blanked: String = text[..bom]
            .chars()
            .chain(text[bom..shebang].chars().map(|_| ' '))
            .chain(text[shebang..].chars())
            .collect();
        let theirs = blanked.parse::<TokenStream>();
        match (ours, theirs) {
            (Ok(tokens), Ok(stream)) => {
                let mut expected = Vec::new();
                flatten(stream, &mut expected);
                let found = describe(text, &tokens);
                if found != expected {
                    let at = found
                        .iter()
                        .zip(&expected)
                        .position(|(a, b)| a != b)
                        .unwrap_or(found.len().min(expected.len()));
                    panic!(
                        "lexers disagree on {text:?} at token {at}:\n ours:   {:?}\n theirs: {:?}",
                        found.get(at),
                        expected.get(at)
                    );
                }
                for t in &tokens {
                    if let Kind::Literal(kind) = t.kind {
                        check_literal_kind(kind, t.text(text));
                    }
                }
            }
            (Err(ours), Err(theirs)) => assert_eq!(
                line_column(text, ours.offset),
                theirs.span().start(),
                "errors at different places in {text:?}"
            ),
            (ours, theirs) => panic!(
                "lexers disagree on {text:?}: ours {:?}, proc-macro2's {:?}",
                ours.map(|t| t.len()),
                theirs.map(|_| ())
            ),
        }
        proc_macro2::extra::invalidate_current_thread_spans();
    }

    /// A literal's kind is the kind syn reads it as.
    fn check_literal_kind(kind: LitKind, text: &str) {
        if kind == LitKind::Doc {
            return;
        }
        let Ok(literal) = text.parse::<proc_macro2::Literal>() else {
            assert_eq!(kind, LitKind::Error, "{text}");
            return;
        };
        let ok = match syn::Lit::new(literal) {
            syn::Lit::Str(_) => matches!(kind, LitKind::Str | LitKind::RawStr),
            syn::Lit::ByteStr(_) => matches!(kind, LitKind::ByteStr | LitKind::RawByteStr),
            syn::Lit::CStr(_) => matches!(kind, LitKind::CStr | LitKind::RawCStr),
            syn::Lit::Byte(_) => kind == LitKind::Byte,
            syn::Lit::Char(_) => kind == LitKind::Char,
            syn::Lit::Int(_) | syn::Lit::Float(_) => {
                matches!(kind, LitKind::Int | LitKind::Float)
            }
            _ => true,
        };
        assert!(ok, "{text} lexed as {kind:?}");
    }

    /// Inputs where lexers go wrong.
    pub(crate) const TRICKY: &[&str] = &[
        "",
        "   \n\t  ",
        "a b_c _ __ r#type r#match _9 x9 é ñandú 变量 a\u{301}",
        "// line\n/* block /* nested */ still */ x /**/ y /***/ z //// four",
        "/// outer doc\n//! inner doc\n/** block doc */ /*! inner block doc */ x",
        "///\n//!\n/***/\n/*!*/ x",
        "/// doc with \"quotes\" and \\ and \t tab\r\nfn f() {}",
        "/** multi\r\n line \r\n doc */ x",
        "\"plain\" \"esc \\n \\t \\\\ \\' \\\" \\0 \\x7f \\u{1F600} \\u{1_F6_00}\" \"multi\nline\"",
        "\"cont \\\n    inued\" \"crlf\r\nin string\" \"suffix\"suf",
        "r\"raw\" r#\"ra\"w\"# r##\"a\"#b\"## r\"\" r#\"\"#suf",
        "b\"bytes\\x80\\n\" br\"raw bytes\" br#\"x\"# b'a' b'\\x7f' b'\\'' b'\"'",
        "c\"cstr\" cr\"raw c\" cr#\"raw c\"# c\"\\u{7f}\\x01\"",
        "'a' '\\n' '\\'' '\\u{1F600}' '\\x41' 'é' '''",
        "'a 'static 'r#b '_ for<'a> &'a str 'outer: loop { break 'outer; }",
        "1 1_000 0x1F_u8 0o17 0b1010 1u32 1usize 1e10 1E-3 1.0f64 1.5e+3 2. 3.0",
        "1..2 1...2 1..=2 1.max(2) 1.e3 1.0.1 0x1.5 x.0.1 tuple.0 1e 1e+ 1.0e 1.0e+-2 1_e3",
        "0x 08 1f32 1.f32",
        "+ - * / % ^ ! & | && || << >> += -= == != <= >= -> => :: ; , . .. ... ..= # $ ? ~ @",
        "=// comment\n+/* c */- a=b a= b a =b a==b ='x' =&'a x",
        "fn f() -> Vec<u8> { vec![1, 2, (3)] } [a; 2] {}",
        "(/*ERROR*/) f((/*ERROR*/))",
        "\u{feff}fn with_bom() {}",
        "x\u{200e}y\u{200f}z\u{2003}w\u{85}v",
        "let s = \"Pa\u{301}rtition\"; Query::filter(\"PartitionKey eq 'é'\")",
        // Errors.
        "(",
        ")",
        "(]",
        "{ ( }",
        "\"unterminated",
        "r#\"unterminated\"",
        "r##\"x\"#",
        "b\"\u{e9}\"",
        "/* unterminated /* nested */",
        "/** unterminated doc",
        "'ab'",
        "'\\q'",
        "`backtick`",
        "a \\ b",
        "r#_ x",
        "r#self",
        "'a#",
        "\"bare\rcr\"",
        "/// bare\rcr\n",
        "// fine\rcomment\n x",
        "\"\\x80\"",
        "\"\\u{110000}\"",
        "'\\u{}'",
        "c\"\\0\"",
        "c\"\\x00\"",
        "0b12",
        "1.0e+",
        "x → y",
        "😀",
    ];

    #[test]
    fn tricky_inputs_lex_as_proc_macro2_lexes_them() {
        for text in TRICKY {
            agree(text);
        }
    }

    /// Every `.rs` file under `dir`, recursively.
    pub(crate) fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// The `.rs` files of the linter's tests and of the examples.
    pub(crate) fn sample_files() -> Vec<(std::path::PathBuf, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut paths = Vec::new();
        rust_files(&root.join("tests"), &mut paths);
        rust_files(&root.join("../examples/src"), &mut paths);
        assert!(paths.len() > 100, "{}", paths.len());
        paths
            .into_iter()
            .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
            .collect()
    }

    #[test]
    fn every_sample_file_lexes_as_proc_macro2_lexes_it() {
        for (_, text) in sample_files() {
            agree(&text);
        }
    }

    /// A small deterministic random number generator (xorshift).
    pub(crate) struct Rng(pub(crate) u64);

    impl Rng {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        pub(crate) fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn truncated_and_mutated_files_lex_as_proc_macro2_lexes_them() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let pieces = [
            "\"", "'", "r#", "b'", "br\"", "#", "/*", "*/", "//", "///", "\\", "{", "}", "(", ")",
            "[", "]", "\r", "\n", "é", "1e", ".", "0x", "c\"", "\u{2003}",
        ];
        for (_, text) in sample_files() {
            let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            for _ in 0..8 {
                let cut = boundaries[rng.below(boundaries.len())];
                agree(&text[..cut]);
                let mut mutated = text.clone();
                for _ in 0..3 {
                    let at = boundaries[rng.below(boundaries.len())].min(mutated.len());
                    if mutated.is_char_boundary(at) {
                        mutated.insert_str(at, pieces[rng.below(pieces.len())]);
                    }
                }
                agree(&mutated);
            }
        }
    }

    #[test]
    fn byte_soup_never_panics_and_lexes_as_proc_macro2_lexes_it() {
        // `LEX_FUZZ_ROUNDS=10000000` for a longer run.
        let rounds = std::env::var("LEX_FUZZ_ROUNDS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(20_000);
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        let alphabet: Vec<char> =
            "\"'#rbc/\\*!{}()[]\r\n\t 0123456789eE._xuab-+=<>:;,&|?$@~%^`é😀\u{2003}\u{301}\0"
                .chars()
                .collect();
        for round in 0..rounds {
            let len = rng.below(if round % 10 == 0 { 200 } else { 24 });
            let text: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            agree(&text);
        }
        // Any bytes at all, read as UTF-8 where they can be: no panic.
        for _ in 0..2_000 {
            let len = rng.below(64);
            let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            let text = String::from_utf8_lossy(&bytes);
            let _ = tokenize(&text);
        }
    }

    /// Run by hand over a tree of Rust (the cargo registry, say):
    /// `LEX_COMPARE_DIR=$HOME/.cargo/registry/src cargo test -p table-lint --lib -- --ignored
    /// every_rust_file_under`. Files proc-macro2 cannot read as UTF-8 are skipped.
    #[test]
    #[ignore]
    fn every_rust_file_under_lex_compare_dir_lexes_as_proc_macro2_lexes_it() {
        let Some(dir) = std::env::var_os("LEX_COMPARE_DIR") else {
            return;
        };
        let mut paths = Vec::new();
        rust_files(std::path::Path::new(&dir), &mut paths);
        for path in &paths {
            if let Ok(text) = std::fs::read_to_string(path) {
                let caught = std::panic::catch_unwind(|| agree(&text));
                assert!(caught.is_ok(), "{}", path.display());
            }
        }
        eprintln!("{} files", paths.len());
    }

    #[test]
    fn groups_know_their_ends_and_doc_comments_are_attributes() {
        let text = "/// Hi\nfn f(a: [u8; 2]) {}";
        let tokens = tokenize(text).unwrap();
        let kinds: Vec<Kind> = tokens.iter().map(|t| t.kind).collect();
        assert_eq!(
            kinds[..7],
            [
                Kind::Punct {
                    ch: b'#',
                    joint: false
                },
                Kind::Open {
                    delimiter: Delimiter::Bracket,
                    close: 5
                },
                Kind::DocIdent,
                Kind::Punct {
                    ch: b'=',
                    joint: false
                },
                Kind::Literal(LitKind::Doc),
                Kind::Close {
                    delimiter: Delimiter::Bracket,
                    open: 1
                },
                Kind::Ident,
            ]
        );
        assert_eq!(tokens[4].text(text), " Hi");
        assert_eq!(tokens[2].text(text), "doc");
        let texts: Vec<&str> = tokens[6..].iter().map(|t| t.text(text)).collect();
        assert_eq!(
            texts,
            [
                "fn", "f", "(", "a", ":", "[", "u8", ";", "2", "]", ")", "{", "}"
            ]
        );
        assert_eq!(
            tokens[8].kind,
            Kind::Open {
                delimiter: Delimiter::Parenthesis,
                close: 16
            }
        );
    }

    #[test]
    fn literals_have_their_kinds() {
        let text =
            r####"r"a" r#"b"# "c" b"d" br"e" c"f" cr"g" b'h' 'i' 1 1.0 1e3 0x1F_u8 (/*ERROR*/)"####;
        let kinds: Vec<LitKind> = tokenize(text)
            .unwrap()
            .iter()
            .filter_map(|t| match t.kind {
                Kind::Literal(k) => Some(k),
                _ => None,
            })
            .collect();
        use LitKind::*;
        assert_eq!(
            kinds,
            [
                RawStr, RawStr, Str, ByteStr, RawByteStr, CStr, RawCStr, Byte, Char, Int, Float,
                Float, Int, Error
            ]
        );
    }

    #[test]
    fn a_range_between_numbers_is_three_tokens() {
        let text = "1..2";
        let tokens = tokenize(text).unwrap();
        let texts: Vec<&str> = tokens.iter().map(|t| t.text(text)).collect();
        assert_eq!(texts, ["1", ".", ".", "2"]);
        assert_eq!(tokens[0].kind, Kind::Literal(LitKind::Int));
    }

    #[test]
    fn a_lifetime_is_an_apostrophe_then_its_name() {
        let text = "&'a str 'x'";
        let tokens = tokenize(text).unwrap();
        let texts: Vec<&str> = tokens.iter().map(|t| t.text(text)).collect();
        assert_eq!(texts, ["&", "'", "a", "str", "'x'"]);
        assert_eq!(
            tokens[1].kind,
            Kind::Punct {
                ch: b'\'',
                joint: true
            }
        );
        assert_eq!(tokens[4].kind, Kind::Literal(LitKind::Char));
    }

    #[test]
    fn errors_are_where_proc_macro2_puts_them() {
        let at = |text: &str| tokenize(text).unwrap_err().offset;
        // The `}` that meets the `(` left open.
        assert_eq!(at("fn f() {\n  let x = (1, 2;\n}"), 26);
        assert_eq!(at("fn f() {\n  let x = (1, 2;\n"), 19);
        assert_eq!(at("struct A {"), 9);
        assert_eq!(at("a ] b"), 2);
        assert_eq!(at("x \"open"), 2);
        assert_eq!(at("x /* open"), 2);
        assert_eq!(at("{ ( }"), 4);
    }

    #[test]
    fn a_shebang_line_is_skipped_but_an_inner_attribute_is_not() {
        let text = "#!/usr/bin/env -S cargo +nightly -Zscript 'x\nfn main() {}";
        let tokens = tokenize(text).unwrap();
        assert_eq!(tokens[0].text(text), "fn");
        assert_eq!(tokens[0].start as usize, text.find("fn").unwrap());
        let text = "#![allow(dead_code)]\nfn main() {}";
        assert_eq!(tokenize(text).unwrap()[0].text(text), "#");
        agree(text);
        let text = "#! // comment\n [allow(x)] fn main() {}";
        assert_eq!(tokenize(text).unwrap()[0].text(text), "#");
        agree(text);
        let text = "\u{feff}#!/bin/shebang\r\nfn x() {}";
        assert_eq!(tokenize(text).unwrap()[0].text(text), "fn");
    }
}

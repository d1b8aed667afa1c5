//! What the linter looks at in a file: every `#[derive(TableEntity)]` struct (through the
//! derive's own parser and checks, never a second reading of the attributes), and every
//! `$filter` string the code writes.
//!
//! A file is lexed by [`lex`] into one flat array of tokens (the token trees proc-macro2 would
//! make, a group being a range of the array), which the visitor walks with identifiers compared
//! as slices of the text. Only the items that derive `TableEntity` are parsed, by syn, from their
//! own text placed at their line and column, so every span in a design is the file's.

pub mod lex;
#[cfg(test)]
mod reference;

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};

use proc_macro2::Span;
use rustc_hash::FxHashMap;
use syn::spanned::Spanned;
use table_derive_internals::Design;
use table_derive_internals::check::{Problem, reported_problems};

use crate::diagnostic::Position;
use lex::{Delimiter, Kind, LitKind, Token};

/// A struct that derives `TableEntity`.
pub struct EntitySite {
    /// The struct's name.
    pub ident: syn::Ident,
    /// The table the design is for, when its attributes could be read that far (also for a
    /// design with errors).
    pub table: Option<String>,
    /// The design, when its attributes could be read.
    pub design: Result<Design, darling::Error>,
    /// What the derive's checks found (they fail compilation too), each once: without the
    /// pointers the compiler is also given.
    pub problems: Vec<Problem>,
    /// Whether the struct is inside a `#[cfg(test)]` item: built only into its crate's unit
    /// tests.
    pub unit_test: bool,
}

impl EntitySite {
    /// The site of a struct that derives `TableEntity`, as both scanners record it: as much of
    /// the design as can be read, with what could not be read reported in the derive's own
    /// messages, and the derive's checks run on the rest. `None` for an enum of designs and a
    /// projection of another design, which bring no design of their own.
    pub(crate) fn read(input: syn::DeriveInput, unit_test: bool) -> Option<EntitySite> {
        if matches!(input.data, syn::Data::Enum(_))
            || table_derive_internals::projection::is_projection(&input)
        {
            return None;
        }
        let ident = input.ident.clone();
        let read = Design::read(&input);
        let table = match &read {
            Ok((Some(design), _)) => Some(design.table.clone()),
            _ => None,
        };
        let design = match read {
            Ok((Some(design), errors)) if errors.is_empty() => Ok(design),
            Ok((design, errors)) => {
                let mut all = errors;
                if let Some(d) = &design {
                    all.extend(reported_problems(d).into_iter().map(|p| p.error));
                }
                Err(darling::Error::multiple(all))
            }
            Err(e) => Err(e),
        };
        let problems = design.as_ref().map(reported_problems).unwrap_or_default();
        Some(EntitySite {
            ident,
            table,
            design,
            problems,
            unit_test,
        })
    }
}

/// Which table a query runs on, as the code around it shows.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TableHint {
    /// The table of the design with this struct name: `Employee::TABLE`, a `Table<_, Employee>`.
    Design(String),
    /// A table named by a string literal (kept only when a design has that table).
    Name(String),
}

/// A `$filter` string that reaches the query API, or a `Query::all()`.
pub struct FilterSite {
    /// The filter text, with `{…}` format placeholders replaced by values of the type the
    /// position asks for; empty for `Query::all()`.
    pub text: String,
    /// Where the literal (or the `Query::all` call) starts.
    pub start: Position,
    /// Where it ends (exclusive).
    pub end: Position,
    /// Whether the literal had format placeholders (then columns inside it are approximate).
    pub templated: bool,
    /// Whether a placeholder stood outside quotes, where it may be any piece of a filter: the
    /// text is then unknown, and a parse failure may be the placeholder's.
    pub open_placeholders: bool,
    /// The text again, when a placeholder outside quotes is filled from a list of filter terms
    /// joined with `or` or `and` (`ids.iter().map(|id| format!("RowKey eq '{id}'"))…join(" or ")`):
    /// that placeholder written as two such terms joined so (`RowKey eq 'x' or RowKey eq 'x'`).
    pub joined: Option<String>,
    /// The text again, when the filter is a name bound to a string that later statements add
    /// to or rebuild before the query (`f.push_str(" and …")`, `f += &format!(…)`,
    /// `write!(f, …)`, `f = format!("{f} and …")`): the text as it reaches the query, every
    /// addition made, and whether a placeholder outside quotes stood in any piece of it (as
    /// [`FilterSite::open_placeholders`]). `None` when nothing was added.
    pub built: Option<(String, bool)>,
    /// Whether the literal is only the first piece of a filter built from pieces (a string
    /// bound empty and added to, a list of strings joined): the filter is then `built`, its
    /// start and end those of the first piece.
    pub pieces: bool,
    /// Whether the literal is what a function of the file returns, and the query is given
    /// that function's result (`.filter(by_owner(id))`, or a name bound to it): the site is
    /// the literal in the function, the tables those named around the first such query.
    pub returned: bool,
    /// Whether this is `Query::all()`: every entity of the table.
    pub all: bool,
    /// The tables the code around the query names.
    pub tables: Vec<TableHint>,
    /// When the code around the query names no table and the query is built in a function of
    /// the file (`fn all_sessions() -> Query { Query::filter("…").unwrap() }`): the tables the
    /// code around the calls of that function names (`sessions.query_all(&all_sessions())` on
    /// a `Table<_, Session>`), all of them: a function called for two tables reads both.
    pub call_tables: Vec<TableHint>,
    /// Whether the block that runs the query also deletes entities.
    pub deletes: bool,
    /// Whether the query is limited to its first rows (`.top(n)`, or `top` set on it).
    pub limited: bool,
    /// Whether the query is inside a `#[cfg(test)]` item.
    pub unit_test: bool,
}

/// Everything found in one file.
#[derive(Default)]
pub struct Scan {
    /// Derived entities.
    pub entities: Vec<EntitySite>,
    /// Filters.
    pub filters: Vec<FilterSite>,
    /// Enums of unit variants declared in the file, with their number of variants: the values
    /// a key field of that type can take.
    pub enums: Vec<(String, usize)>,
    /// Whether the file inserts entities (calls something named `insert…`, `add_entity` or
    /// `create_entity`).
    pub inserts: bool,
    /// The designs whose typed tables the file inserts into (`events.insert(…)` where `events`
    /// is a `Table<_, Event>`), each once.
    pub inserted: Vec<String>,
    /// Whether the file inserts into something whose design it can't tell (a receiver of no
    /// known type): such an insert may be of any design of the file.
    pub inserts_untyped: bool,
    /// The designs the file reads by key through their typed tables (`people.get(…)` where
    /// `people` is a `Table<_, Person>`), each once: reads of one entity, in no key's order.
    pub got: Vec<String>,
    /// The designs whose entities the file keeps through a `LargeTable<_, _, T>` (the large
    /// entities pattern: a value over a property's limit moves to a blob), each once.
    pub large: Vec<String>,
    /// Whether the file writes entities in any way: inserts, or calls something named
    /// `upsert…`, `update…`, `merge…`, `replace…`, `submit_transaction` or `execute_batch`.
    pub writes: bool,
    /// What the file orders values by in memory: each call that sorts, or picks the least or
    /// the greatest, by a field its closure reads (`rows.sort_by_key(|r| r.at)`,
    /// `a.at.cmp(&b.at)` in `sort_by`, `max_by_key(|r| r.score)`), as the method and the
    /// field, each pair once.
    pub ordered_by: Vec<(String, String)>,
    /// The fields the file keeps or finds rows by in memory: each field a closure given to
    /// `filter`, `find`, `retain`, `any`, `all` or `position` reads from its parameter
    /// (`rows.iter().filter(|r| r.user_id == id)`), each once.
    pub kept_by: Vec<String>,
    /// Items that derive `TableEntity` but could not be read, so no design of theirs is
    /// checked: where each one starts and ends, and why.
    pub unread: Vec<Unread>,
}

/// An item that derives `TableEntity` and that the scanner could not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    /// Where the item starts (its first attribute).
    pub start: Position,
    /// Where it ends.
    pub end: Position,
    /// Why, in words.
    pub why: String,
}

/// A file that does not lex: where, and proc-macro2's message for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanError {
    /// Where lexing stopped (see [`lex::LexError`]).
    pub start: Position,
    /// One character further.
    pub end: Position,
}

impl std::fmt::Display for ScanError {
    /// proc-macro2's message, which findings have always quoted.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&lex::LexError { offset: 0 }, f)
    }
}

impl std::error::Error for ScanError {}

thread_local! {
    /// The token array of the last file a thread scanned, reused for the next one.
    static TOKENS: RefCell<Vec<Token>> = const { RefCell::new(Vec::new()) };
}

/// A reused token array bigger than this (16 MiB) is freed after its file.
const KEEP_TOKENS: usize = 1 << 20;

/// Whether an identifier names a write other than an insert (see [`Scan::writes`]).
pub(crate) fn writes(word: &str) -> bool {
    ["upsert", "update", "merge", "replace"]
        .iter()
        .any(|w| word.starts_with(w))
        || word == "submit_transaction"
        || word == "execute_batch"
}

/// What a `BatchOperation::…` variant of the runtime writes: `Some(true)` for an insert,
/// `Some(false)` for another write (a replace, a merge, an upsert), `None` for a delete or a
/// name that is no write.
pub(crate) fn batch_write(variant: &str) -> Option<bool> {
    match variant {
        "Insert" => Some(true),
        "Replace" | "Merge" | "UpsertReplace" | "UpsertMerge" => Some(false),
        _ => None,
    }
}

/// Scans a file's text: it is lexed whole, and only the items that derive `TableEntity` are
/// parsed. A lexing error (an unbalanced delimiter, an unterminated string) is returned.
pub fn scan(text: &str) -> Result<Scan, ScanError> {
    let mut tokens = TOKENS.with(|t| t.take());
    let result = scan_with(text, &mut tokens);
    if tokens.capacity() <= KEEP_TOKENS {
        TOKENS.with(|t| t.replace(tokens));
    }
    result
}

/// [`scan`], lexing into `tokens`.
fn scan_with(text: &str, tokens: &mut Vec<Token>) -> Result<Scan, ScanError> {
    walk_file(text, tokens, None).map(|(scan, _)| scan)
}

/// The structs of `text` that derive `TableEntity`, as syn reads them, found as [`scan`] finds
/// designs (nesting bounded, spans the file's), with the derived items that could not be read.
pub fn derived_structs(text: &str) -> Result<(Vec<syn::DeriveInput>, Vec<Unread>), ScanError> {
    let (scan, inputs) = walk_file(text, &mut Vec::new(), Some(Vec::new()))?;
    Ok((inputs.unwrap_or_default(), scan.unread))
}

/// Lexes `text` into `tokens` and walks it: the scan, and the derived structs as syn read them
/// when `inputs` is given (they are then kept there rather than read as designs).
fn walk_file(
    text: &str,
    tokens: &mut Vec<Token>,
    inputs: Option<Vec<syn::DeriveInput>>,
) -> Result<(Scan, Option<Vec<syn::DeriveInput>>), ScanError> {
    if let Err(e) = lex::lex(text, tokens) {
        let lines = Lines::new(text);
        let (start, end) = lines.positions(e.offset, e.offset);
        return Err(ScanError { start, end });
    }
    let mut visitor = Visitor {
        toks: Toks {
            src: text,
            tokens: tokens.as_slice(),
        },
        lines: Lines::new(text),
        scan: Scan::default(),
        seen: Vec::new(),
        in_unit_test: 0,
        strings: FxHashMap::default(),
        appends: FxHashMap::default(),
        terms: FxHashMap::default(),
        joins: FxHashMap::default(),
        tables: FxHashMap::default(),
        returns: FxHashMap::default(),
        inputs,
        in_functions: Vec::new(),
    };
    visitor.returns();
    visitor.bindings();
    visitor.walk();
    visitor.call_tables();
    Ok((visitor.scan, visitor.inputs))
}

/// The line starts of a text (found when first asked), to turn byte offsets into lines and
/// columns as proc-macro2 counts them: lines split at `\n`, columns in characters.
struct Lines<'s> {
    text: &'s str,
    starts: OnceCell<Vec<usize>>,
}

impl<'s> Lines<'s> {
    fn new(text: &'s str) -> Lines<'s> {
        Lines {
            text,
            starts: OnceCell::new(),
        }
    }

    /// The 1-based line and 1-based character column of a byte offset.
    fn position(&self, offset: usize) -> Position {
        let starts = self.starts.get_or_init(|| {
            std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|n| n + 1))
                .collect()
        });
        let line = starts.partition_point(|&s| s <= offset).max(1);
        let from = starts[line - 1];
        let column = self.text.get(from..offset).map_or(0, |s| s.chars().count());
        Position {
            line,
            column: column + 1,
        }
    }

    /// The positions of a byte range, as [`crate::diagnostic::Diagnostic::span_positions`]
    /// gives a span's: an empty range ends one column after it starts.
    fn positions(&self, start: usize, end: usize) -> (Position, Position) {
        let start = self.position(start);
        let mut end = self.position(end);
        if end <= start {
            end = Position {
                line: start.line,
                column: start.column + 1,
            };
        }
        (start, end)
    }
}

/// The text and its tokens, with the ways the visitor looks at them. The tokens of one level
/// (the file, or a group's inside) are its siblings: a group is one of them, spanning the
/// array from its opening token to its closing one. A range of a level is `start..end` in the
/// array; a group's closing token ends its level as the end of a range does.
#[derive(Clone, Copy)]
struct Toks<'s> {
    src: &'s str,
    tokens: &'s [Token],
}

impl<'s> Toks<'s> {
    /// The token at `i`, if it is before `end` and not the closing token of a group.
    fn get(self, i: usize, end: usize) -> Option<Token> {
        if i >= end {
            return None;
        }
        let t = *self.tokens.get(i)?;
        (!matches!(t.kind, Kind::Close { .. })).then_some(t)
    }

    /// The identifier at `i` (before `end`).
    fn ident(self, i: usize, end: usize) -> Option<&'s str> {
        let t = self.get(i, end)?;
        matches!(t.kind, Kind::Ident | Kind::DocIdent).then(|| t.text(self.src))
    }

    /// Whether the identifier `word` is at `i` (before `end`).
    fn is_ident(self, i: usize, end: usize, word: &str) -> bool {
        self.ident(i, end) == Some(word)
    }

    /// The punctuation at `i` (before `end`), and whether it is joint to the next.
    fn punct(self, i: usize, end: usize) -> Option<(u8, bool)> {
        match self.get(i, end)?.kind {
            Kind::Punct { ch, joint } => Some((ch, joint)),
            _ => None,
        }
    }

    /// Whether the punctuation `ch` is at `i` (before `end`).
    fn is_punct(self, i: usize, end: usize, ch: u8) -> bool {
        matches!(self.punct(i, end), Some((c, _)) if c == ch)
    }

    /// The group opening at `i` (before `end`): its delimiter and the index of its closing
    /// token.
    fn group(self, i: usize, end: usize) -> Option<(Delimiter, usize)> {
        match self.get(i, end)?.kind {
            Kind::Open { delimiter, close } => Some((delimiter, close as usize)),
            _ => None,
        }
    }

    /// Whether a literal is at `i` (before `end`).
    fn is_literal(self, i: usize, end: usize) -> bool {
        matches!(self.get(i, end), Some(t) if matches!(t.kind, Kind::Literal(_)))
    }

    /// The token after the one at `i` on its level (after the whole group, for a group).
    fn next(self, i: usize) -> usize {
        match self.tokens.get(i).map(|t| t.kind) {
            Some(Kind::Open { close, .. }) => close as usize + 1,
            _ => i + 1,
        }
    }

    /// The token before the one at `i` on its level (the whole group, for a group), not
    /// before `start`.
    fn prev(self, i: usize, start: usize) -> Option<usize> {
        if i <= start {
            return None;
        }
        match self.tokens.get(i - 1)?.kind {
            Kind::Close { open, .. } => Some(open as usize),
            _ => Some(i - 1),
        }
    }

    /// The tokens of a level from `from`, up to `end` or the end of the group.
    fn siblings(self, from: usize, end: usize) -> impl Iterator<Item = usize> {
        let mut i = from;
        std::iter::from_fn(move || {
            self.get(i, end)?;
            let at = i;
            i = self.next(i);
            Some(at)
        })
    }

    /// The first token from `from` (before `end`) that is not `&` or `*`.
    fn skip_refs(self, from: usize, end: usize) -> usize {
        let mut i = from;
        while matches!(self.punct(i, end), Some((b'&' | b'*', _))) {
            i += 1;
        }
        i
    }

    /// The value of the string literal at `i`, as `syn::LitStr::value` gives it (`None` for
    /// other literals, and for a string syn would not read).
    fn string(self, i: usize, end: usize) -> Option<Cow<'s, str>> {
        let t = self.get(i, end)?;
        match t.kind {
            Kind::Literal(kind) => lit_str_value(kind, t.text(self.src)),
            _ => None,
        }
    }
}

struct Visitor<'s> {
    toks: Toks<'s>,
    lines: Lines<'s>,
    scan: Scan,
    /// Literals already recorded (by byte offset).
    seen: Vec<u32>,
    /// How many `#[cfg(test)]` items the walk is inside.
    in_unit_test: usize,
    /// Every binding of each name (`let f = …`, `const F: &str = …`), in the order of the file,
    /// so that `Query::filter(&f)` finds the text of the binding it sees.
    strings: FxHashMap<&'s str, Vec<Binding<'s>>>,
    /// The statements that change what a name is bound to (`f.push_str(…)`, `f += …`,
    /// `write!(f, …)`, `f = format!("{f} and …")`, `parts.push(…)`, `f.clear()`), in the order
    /// of the file.
    appends: FxHashMap<&'s str, Vec<Append>>,
    /// Names bound to a collection of filter terms made by one `format!` (`let ors: Vec<_> =
    /// keys.iter().map(|k| format!("RowKey eq '{k}'")).collect()`): that literal's token.
    terms: FxHashMap<&'s str, usize>,
    /// Names bound to such terms joined into one string (`let any = ors.join(" or ")`).
    joins: FxHashMap<&'s str, Joined>,
    /// Names bound to a typed table (`let t = Table::<_, Employee>::new(…)`, a parameter
    /// `t: &Table<B, Employee>`): the design's struct name.
    tables: FxHashMap<&'s str, &'s str>,
    /// Functions of the file that return one string: a literal or a `format!` of one as the
    /// body's last expression (`fn by_owner(id: &str) -> String { format!("PartitionKey eq
    /// '{id}'") }`): that literal's token and whether it is a `format!`'s. `None` for a name
    /// that more than one function of the file takes, whose caller can't be told apart.
    returns: FxHashMap<&'s str, Option<(usize, bool)>>,
    /// When set, the derived structs are kept here as syn read them, for the views, rather
    /// than read as designs.
    inputs: Option<Vec<syn::DeriveInput>>,
    /// The filters whose own code names no table, with the function of the file they are
    /// built in: its name and its body's tokens (see [`FilterSite::call_tables`]).
    in_functions: Vec<(usize, &'s str, usize, usize)>,
}

/// How deep groups may nest in an item that derives `TableEntity` for it to be parsed.
const MAX_ITEM_DEPTH: usize = 64;

/// How deep syn's recursive descent goes in `tokens`, at most: groups, generic arguments
/// (`<` … `>`), and a chain of prefix operators and arrows within one field or argument
/// (`&'a mut *const -!x`, `fn() -> fn() -> u8`), each of which syn parses a level down. Counted
/// high rather than low: a chain ends only at a `,`, a `;` or a closing `>`.
fn nesting(tokens: &[lex::Token]) -> usize {
    let (mut groups, mut angles, mut chain, mut deepest) = (0usize, 0usize, 0usize, 0usize);
    let mut previous: Option<Kind> = None;
    for token in tokens {
        match token.kind {
            Kind::Open { .. } => groups += 1,
            Kind::Close { .. } => groups = groups.saturating_sub(1),
            Kind::Punct { ch: b'<', .. } => angles += 1,
            // `->` and `=>` are arrows (the `-` already counted), not closing `>`s.
            Kind::Punct { ch: b'>', .. }
                if matches!(
                    previous,
                    Some(Kind::Punct {
                        ch: b'-' | b'=',
                        joint: true
                    })
                ) => {}
            Kind::Punct { ch: b'>', .. } => {
                angles = angles.saturating_sub(1);
                chain = 0;
            }
            Kind::Punct {
                ch: b',' | b';', ..
            } => chain = 0,
            Kind::Punct {
                ch: b'&' | b'*' | b'-' | b'!' | b'\'',
                ..
            } => chain += 1,
            _ => {}
        }
        deepest = deepest.max(groups + angles + chain);
        previous = Some(token.kind);
    }
    deepest
}

/// One level of the token tree the walk is in: the range of the level's tokens (a group's
/// inside, the file, or a `#[cfg(test)]` item's tokens), where the walk is, and the attributes
/// it has seen before that token. The walk keeps its levels in a stack (a vector), so a file
/// nested however deep never overflows the thread's stack.
struct Level {
    start: usize,
    end: usize,
    /// The token the walk is at: the group walked into, while a deeper level is walked.
    at: usize,
    /// Where the walk goes on.
    next: usize,
    /// The group's delimiter (`None` for the file).
    delimiter: Option<Delimiter>,
    /// The enclosing level, by its index in the stack (for a `#[cfg(test)]` item's tokens,
    /// the enclosing level of the level they are in).
    parent: Option<usize>,
    /// Where the attributes before the token start, if any.
    attributes_start: Option<usize>,
    /// Whether those attributes derive `TableEntity`.
    derives: bool,
    /// Whether they hold `#[cfg(test)]`.
    cfg_test: bool,
    /// Whether the level is a `#[cfg(test)]` item's tokens (counted in `in_unit_test`).
    unit_test: bool,
}

impl Level {
    fn new(
        start: usize,
        end: usize,
        delimiter: Option<Delimiter>,
        parent: Option<usize>,
        unit_test: bool,
    ) -> Level {
        Level {
            start,
            end,
            at: start,
            next: start,
            delimiter,
            parent,
            attributes_start: None,
            derives: false,
            cfg_test: false,
            unit_test,
        }
    }
}

/// A format string filled in: its text, whether it had placeholders, and whether one stood
/// outside quotes.
struct Filled {
    text: String,
    templated: bool,
    open: bool,
}

/// What a `{…}` placeholder inside plain quotes becomes: `'{id}'` is read as `'x'`.
pub const QUOTED_PLACEHOLDER: &str = "x";

/// Replaces `{…}` format placeholders with a value of the type their position asks for: inside
/// `datetime'…'` an instant, inside `guid'…'` a GUID, inside `X'…'` a byte, inside other
/// quotes `x`, and outside quotes `0` (where the placeholder may as well be any piece of a
/// filter, which [`Filled::open`] records), except between two quotes with nothing between them
/// and it (`''{}'_a'`, a value whose literal is quoted wrong), where it is a bare `0` and the
/// text is not open.
fn fill_placeholders(text: &str) -> Filled {
    fill_placeholders_with(text, |_, _| None)
}

/// [`fill_placeholders`], writing a placeholder outside quotes as `open` gives it (given the
/// argument it names, the text before any `:`, and for one that names none, `{}` or `{:?}`,
/// its number among those) where it gives one: such a placeholder leaves the text open only
/// when `open` gives none.
fn fill_placeholders_with(
    text: &str,
    mut open_value: impl FnMut(Option<usize>, &str) -> Option<String>,
) -> Filled {
    let mut out = String::with_capacity(text.len());
    let mut positional = 0usize;
    let mut in_quotes = false;
    let mut quoted_kind = "";
    let mut templated = false;
    let mut open = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                if !in_quotes {
                    let before = out.trim_end_matches(|c: char| c.is_ascii_alphanumeric());
                    quoted_kind = match out[before.len()..].to_ascii_lowercase().as_str() {
                        "datetime" => "2000-01-01T00:00:00Z",
                        "guid" => "00000000-0000-0000-0000-000000000000",
                        "x" | "binary" => "00",
                        _ => QUOTED_PLACEHOLDER,
                    };
                }
                in_quotes = !in_quotes;
                out.push(c);
            }
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                templated = true;
                let mut spec = String::new();
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                    spec.push(d);
                }
                let name = spec.split(':').next().unwrap_or_default().trim();
                let number = name.is_empty().then(|| {
                    positional += 1;
                    positional - 1
                });
                // Glued between a closing quote and an opening one (`''{}'_a'`), a placeholder is
                // a value meant for a literal whose quotes went wrong, not a clause (which needs
                // spaces around it): a bare value, for the parser to judge. (A number: a letter
                // before the quote would read as a typed literal's prefix, `x'…'`.)
                let glued = out.ends_with('\'') && chars.peek() == Some(&'\'');
                if in_quotes {
                    out.push_str(quoted_kind);
                } else if glued {
                    out.push('0');
                } else if let Some(value) = open_value(number, name) {
                    out.push_str(&value);
                } else {
                    open = true;
                    out.push('0');
                }
            }
            c => out.push(c),
        }
    }
    Filled {
        text: out,
        templated,
        open,
    }
}

/// Filter terms joined into one string: the literal of the `format!` that makes each term (its
/// token), and the word that joins them.
#[derive(Debug, Clone, Copy)]
struct Joined {
    term: usize,
    word: &'static str,
}

/// How many bindings deep [`Visitor::text_at`] follows a string rebuilt from itself (`let f =
/// format!("{f} and …")` after `let f = …`): more than any real code has, few enough that a
/// file of nothing else can't exhaust the stack.
const MAX_REBUILDS: usize = 64;

/// One binding of a name: the tokens that see it (from the `let`, or for a `const` or `static`,
/// which is seen before it is declared, from the start of its block; up to the end of the
/// block), and what it binds. A binding of anything else hides the bindings before it.
#[derive(Debug, Clone, Copy)]
struct Binding<'s> {
    from: usize,
    to: usize,
    value: Bound<'s>,
}

/// What a name is bound to, as far as filters go.
#[derive(Debug, Clone, Copy)]
enum Bound<'s> {
    /// A string literal or a `format!` of one: the literal's token, and whether it is a
    /// `format!`'s.
    Literal(usize, bool),
    /// An empty string, for later statements to add to: `String::new()`,
    /// `String::with_capacity(n)`, `String::default()`.
    Empty,
    /// A list of strings, for later statements to push to: `Vec::new()`,
    /// `Vec::with_capacity(n)`, or `vec![…]` of strings (its items are the tokens `start..end`).
    List(usize, usize),
    /// A list joined into one string (`parts.join(" and ")`): the list's name, and the
    /// separator's literal token.
    Join(&'s str, usize),
    /// Anything else.
    Other,
}

/// The string a filter API is given: the literal's token, whether it is a `format!`'s, the
/// text as built in steps (see [`FilterSite::built`]), and whether the literal is only the
/// first piece of that text (see [`FilterSite::pieces`]).
struct Argument {
    lit: usize,
    format: bool,
    built: Option<(String, bool)>,
    pieces: bool,
}

/// A string as statements built it: its text, whether a placeholder outside quotes stood in
/// any piece, whether it was built in steps at all, and the literal of its first piece (the
/// literal's token, and whether it is a `format!`'s).
struct Built {
    text: String,
    open: bool,
    changed: bool,
    first: Option<(usize, bool)>,
}

/// A literal filled in by [`Visitor::fill_naming`]: its text, whether a placeholder outside
/// quotes stayed unknown, and whether one named the string being built.
struct Naming {
    text: String,
    open: bool,
    named: bool,
}

/// A statement that changes the string or list bound to a name: at token `at`, the literal at
/// `lit` (a `format!`'s when `format`, where a placeholder naming the string stands for its
/// text so far), added to the end of a string (`f.push_str(…)`, `f += …`, `write!(f, …)`),
/// pushed onto a list (`parts.push(…)`), or put in the string's place (`f = format!("{} and
/// …", f)`).
#[derive(Debug, Clone, Copy)]
struct Append {
    at: usize,
    lit: usize,
    format: bool,
    how: Change,
}

/// How an [`Append`] changes what it changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    Add,
    Push,
    Replace,
    /// In a way not followed: assigned something else than a string, a method called on it
    /// other than a push (`clear`, `truncate`, `retain`, …). What it holds after is unknown.
    Other,
}

/// The literal of the one `format!` in the tokens `start..end` (at any depth), when the tokens
/// map something to terms (`map` is among them) and no other `format!` is there.
fn mapped_term(t: Toks<'_>, start: usize, end: usize) -> Option<usize> {
    let mut maps = false;
    let mut found = None;
    for i in start..end {
        let Some(name) = t.ident(i, end) else {
            continue;
        };
        maps |= name == "map";
        if is_format_macro(name) && t.is_punct(i + 1, end, b'!') && t.group(i + 2, end).is_some() {
            if found.is_some() || t.string(i + 3, end).is_none() {
                return None;
            }
            found = Some(i + 3);
        }
    }
    found.filter(|_| maps)
}

/// What a format placeholder stands for.
enum Placeholder<'a> {
    /// The argument it names, as the tokens `start..end`.
    Argument(usize, usize),
    /// A name no argument has, captured from the scope (`format!("… {ors}")`).
    Captured(&'a str),
}

/// What the placeholder `{name}` (or the `positional`-th `{}`) of a format string stands for,
/// given the string's arguments: `{}` and `{0}` by position, `{rows}` by a named argument, else
/// a name captured from the scope. `None` for a position past the arguments.
fn placeholder_value<'a>(
    args: &[(Option<&str>, usize, usize)],
    positional: Option<usize>,
    name: &'a str,
) -> Option<Placeholder<'a>> {
    let argument = match positional.or_else(|| name.parse::<usize>().ok()) {
        Some(at) => Some(*args.get(at)?),
        None => args.iter().find(|(n, ..)| *n == Some(name)).copied(),
    };
    Some(match argument {
        Some((_, start, end)) => Placeholder::Argument(start, end),
        None => Placeholder::Captured(name),
    })
}

/// The arguments after a format string's literal at `lit`, up to the end of its macro's group:
/// each one's range, and its name when it is written `name = value`.
fn format_arguments<'s>(t: Toks<'s>, lit: usize) -> Vec<(Option<&'s str>, usize, usize)> {
    let Some(close) = lit
        .checked_sub(1)
        .and_then(|open| t.group(open, t.tokens.len()))
    else {
        return Vec::new();
    };
    let close = close.1;
    let mut args = Vec::new();
    let mut from = None;
    for i in t.siblings(lit + 1, close) {
        if t.is_punct(i, close, b',') {
            if let Some(start) = from.take() {
                args.push(start..i);
            }
            from = Some(i + 1);
        }
    }
    if let Some(start) = from
        && start < close
    {
        args.push(start..close);
    }
    args.into_iter()
        .map(|r| {
            let named = t.ident(r.start, r.end).filter(|_| {
                t.is_punct(r.start + 1, r.end, b'=') && !t.is_punct(r.start + 2, r.end, b'=')
            });
            match named {
                Some(name) => (Some(name), r.start + 2, r.end),
                None => (None, r.start, r.end),
            }
        })
        .collect()
}

impl<'s> Visitor<'s> {
    /// Parses the item of tokens `first..end` (its attributes, then a struct, enum or union)
    /// and records it when it is a design. The item's text is parsed where it stands: after
    /// as many line breaks and spaces as there are lines and characters before it in the file,
    /// so the spans of the design are the file's lines and columns.
    fn derived_item(&mut self, first: usize, end: usize) {
        let tokens = self.toks.tokens;
        let (Some(from), Some(to)) = (
            tokens.get(first),
            end.checked_sub(1).and_then(|l| tokens.get(l)),
        ) else {
            return;
        };
        let (from, to) = (from.start as usize, to.end as usize);
        let at = self.lines.position(from);
        let Some(item) = self.toks.src.get(from..to) else {
            return;
        };
        let item_tokens = tokens.get(first..end).unwrap_or_default();
        // A macro's template (`struct $name { … }`) is read where the macro is used.
        if item_tokens
            .iter()
            .any(|t| matches!(t.kind, Kind::Punct { ch: b'$', .. }))
        {
            return;
        }
        let unread = |why: String| Unread {
            start: at,
            end: self.lines.position(to),
            why,
        };
        // syn parses nesting by recursion: an item nested deeper than any real one is not
        // parsed (the thread's stack would not hold it), and is reported as not read.
        if nesting(item_tokens) > MAX_ITEM_DEPTH {
            let why = format!(
                "it nests more than {MAX_ITEM_DEPTH} levels deep (groups, generic arguments or prefix operators), deeper than the linter reads"
            );
            self.scan.unread.push(unread(why));
            return;
        }
        let mut text = String::with_capacity(at.line - 1 + at.column - 1 + item.len());
        text.extend(std::iter::repeat_n('\n', at.line - 1));
        text.extend(std::iter::repeat_n(' ', at.column - 1));
        text.push_str(&short_docs(item, from, item_tokens));
        match syn::parse_str::<syn::DeriveInput>(&text) {
            Ok(input) => match &mut self.inputs {
                Some(inputs) => {
                    if matches!(input.data, syn::Data::Struct(_)) {
                        inputs.push(input);
                    }
                }
                None => self.entity(input),
            },
            Err(e) => {
                let why = format!("it does not parse as a struct, enum or union: {e}");
                self.scan.unread.push(unread(why));
            }
        }
    }

    fn entity(&mut self, input: syn::DeriveInput) {
        if let Some(site) = EntitySite::read(input, self.in_unit_test > 0) {
            self.scan.entities.push(site);
        }
    }

    /// Records a filter that reaches the query API: the string literal at token `lit`, its
    /// text, and what the code around it says about the table and about deleting.
    fn filter_literal(
        &mut self,
        Argument {
            lit,
            format: in_format_macro,
            built,
            pieces,
        }: Argument,
        levels: &[Level],
        at: usize,
    ) {
        let Some(&token) = self.toks.tokens.get(lit) else {
            return;
        };
        if self.seen.contains(&token.start) {
            return;
        }
        self.seen.push(token.start);
        let Some(value) = self.toks.string(lit, lit + 1) else {
            return;
        };
        let (filled, joined) = if in_format_macro {
            let filled = fill_placeholders(&value);
            let joined = if filled.open {
                self.joined_text(lit, &value)
            } else {
                None
            };
            (filled, joined)
        } else {
            let filled = Filled {
                text: value.into_owned(),
                templated: false,
                open: false,
            };
            (filled, None)
        };
        let (tables, deletes, limited) = self.context(levels, at);
        if tables.is_empty() {
            self.note_function(levels, at);
        }
        let (start, end) = self
            .lines
            .positions(token.start as usize, token.end as usize);
        let returned = self
            .returns
            .values()
            .any(|r| matches!(r, Some((l, _)) if *l == lit));
        self.scan.filters.push(FilterSite {
            text: filled.text,
            start,
            end,
            templated: filled.templated,
            open_placeholders: filled.open,
            joined,
            built,
            pieces,
            returned,
            all: false,
            tables,
            call_tables: Vec::new(),
            deletes,
            limited,
            unit_test: self.in_unit_test > 0,
        });
    }

    /// The tables named around the query where the walk is at level `at` of `levels` (in
    /// its statement, in the enclosing expressions up to the block, and in later statements
    /// of that block that use the variable the statement binds), whether that block deletes,
    /// and whether the statement or those later ones limit the query to its first rows.
    fn context(&self, levels: &[Level], at: usize) -> (Vec<TableHint>, bool, bool) {
        let t = self.toks;
        let mut tables = Vec::new();
        let mut deletes = false;
        let mut limited = false;
        let mut level = levels.get(at);
        while let Some(f) = level {
            let (start, end) = statement_bounds(t, f.start, f.end, f.at);
            self.hints(start, end, &mut tables);
            limited |= mentions_top(t, start, end);
            if f.delimiter == Some(Delimiter::Brace) || f.parent.is_none() {
                if let Some(name) = let_binding(t, start, end) {
                    // The later statements tell the table only when the query's own statement
                    // does not name a design: `let page = ops.query(…)` runs on `ops`, whatever
                    // a loop over `page` reads next. (A literal there may be a property's name,
                    // `select(["RowKey"])`, rather than a table's.)
                    let shown = tables.iter().any(|h| matches!(h, TableHint::Design(_)));
                    for (from, stop) in statements_using(t, f.start, f.end, end, name) {
                        if !shown {
                            self.hints(from, stop, &mut tables);
                        }
                        limited |= mentions_top(t, from, stop);
                    }
                }
                // A delete before the query's statement cannot remove what the query finds,
                // unless the block runs again (a loop's body).
                deletes = (mentions_delete(t, start, f.end)
                    || (mentions_delete(t, f.start, start) && loop_body(t, levels, f)))
                    && !picks_one_row(t, f.start, f.end);
                break;
            }
            level = f.parent.and_then(|p| levels.get(p));
        }
        tables.sort();
        tables.dedup();
        (tables, deletes, limited)
    }

    /// Notes the function of the file that the filter about to be recorded is built in, when
    /// there is one: the innermost `fn NAME(…) … { … }` around the walk at level `at`.
    fn note_function(&mut self, levels: &[Level], at: usize) {
        let t = self.toks;
        let mut level = levels.get(at);
        while let Some(f) = level {
            let parent = f.parent.and_then(|p| levels.get(p));
            if f.delimiter == Some(Delimiter::Brace)
                && let Some(parent) = parent
            {
                // Back from the block over its signature (`fn NAME<…>(…) -> T where …`), to
                // `fn`; a `;` or another block first means the block is no function's (a
                // closure's, a loop's).
                let mut j = parent.at;
                let mut name = None;
                while let Some(p) = t.prev(j, parent.start) {
                    if t.is_ident(p, parent.end, "fn") {
                        name = t.ident(p + 1, parent.end);
                        break;
                    }
                    if t.is_punct(p, parent.end, b';')
                        || matches!(t.group(p, parent.end), Some((Delimiter::Brace, _)))
                    {
                        break;
                    }
                    j = p;
                }
                if let Some(name) = name {
                    let filter = self.scan.filters.len();
                    self.in_functions.push((filter, name, f.start, f.end));
                    return;
                }
            }
            level = parent;
        }
    }

    /// Fills [`FilterSite::call_tables`] of the filters built in a function of the file: the
    /// tables named around the calls of that function (outside its own body).
    fn call_tables(&mut self) {
        if self.in_functions.is_empty() {
            return;
        }
        let t = self.toks;
        let n = t.tokens.len();
        let pending = std::mem::take(&mut self.in_functions);
        // The calls of each function named, found in one pass over the file (a file names a
        // few such functions: a search by length and text beats hashing every word).
        let mut names: Vec<&str> = pending.iter().map(|&(_, name, _, _)| name).collect();
        names.sort_unstable();
        names.dedup();
        let mut calls: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
        for (j, token) in t.tokens.iter().enumerate() {
            if !matches!(token.kind, Kind::Ident) {
                continue;
            }
            let word = token.text(t.src);
            if let Some(at) = names
                .iter()
                .position(|name| name.len() == word.len() && *name == word)
                && matches!(t.group(j + 1, n), Some((Delimiter::Parenthesis, _)))
                && !(j > 0 && t.is_ident(j - 1, n, "fn"))
            {
                calls[at].push(j);
            }
        }
        for (filter, name, body_start, body_end) in pending {
            let at = names.binary_search(&name).unwrap_or_default();
            let mut hints: Vec<TableHint> = calls[at]
                .iter()
                .filter(|j| !(body_start..body_end).contains(*j))
                .flat_map(|&j| self.hints_around(j))
                .collect();
            hints.sort();
            hints.dedup();
            if let Some(site) = self.scan.filters.get_mut(filter) {
                site.call_tables = hints;
            }
        }
    }

    /// The table hints of the code around token `i`: its statement in each enclosing group,
    /// up to the block it is in (as [`Visitor::context`] reads a query's).
    fn hints_around(&self, i: usize) -> Vec<TableHint> {
        let t = self.toks;
        let n = t.tokens.len();
        // The groups around `i`, outermost first; a group that closes before `i` is skipped
        // whole.
        let mut groups: Vec<(usize, usize, Delimiter)> = Vec::new();
        let mut j = 0;
        while j < i {
            match t.tokens[j].kind {
                Kind::Open { delimiter, close } if close as usize > i => {
                    groups.push((j, close as usize, delimiter));
                    j += 1;
                }
                Kind::Open { close, .. } => j = close as usize + 1,
                _ => j += 1,
            }
        }
        let mut out = Vec::new();
        let mut at = i;
        let mut block = None;
        for &(open, close, delimiter) in groups.iter().rev() {
            if delimiter == Delimiter::Brace {
                block = Some((open + 1, close));
                break;
            }
            let (start, end) = statement_bounds(t, open + 1, close, at);
            self.hints(start, end, &mut out);
            at = open;
        }
        let (from, to) = block.unwrap_or((0, n));
        let (start, end) = statement_bounds(t, from, to, at);
        self.hints(start, end, &mut out);
        // A call bound to a name (`let q = by_owner(id);`) is run where the name is used: the
        // later statements of the block that use it tell the table, when this one does not.
        if out.is_empty()
            && let Some(name) = let_binding(t, start, end)
        {
            for (next, stop) in statements_using(t, from, to, end, name) {
                self.hints(next, stop, &mut out);
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Table hints in the tokens `start..end`, at any depth: `X::TABLE`, `Table::<_, X>`, a
    /// variable bound to a typed table, and literals shaped like table names.
    fn hints(&self, start: usize, end: usize, out: &mut Vec<TableHint>) {
        let t = self.toks;
        for i in start..end.min(t.tokens.len()) {
            let token = t.tokens[i];
            match token.kind {
                Kind::Ident | Kind::DocIdent => {
                    let name = token.text(t.src);
                    // `X::TABLE`: three tokens before it on its level (the third is not
                    // the opening of the group it is in), the last two `::`.
                    if name == "TABLE"
                        && i >= start + 3
                        && !matches!(t.tokens[i - 3].kind, Kind::Open { .. })
                        && path_sep(t, i - 2, i)
                    {
                        if let Some(owner) = t.ident(i - 3, i) {
                            out.push(TableHint::Design(owner.to_owned()));
                        }
                    } else if name == "Table" {
                        if let Some(design) = table_type_argument(t, i + 1, end) {
                            out.push(TableHint::Design(design.to_owned()));
                        }
                    } else if let Some(design) = self.tables.get(name) {
                        out.push(TableHint::Design((*design).to_owned()));
                    }
                }
                Kind::Literal(_) => {
                    if let Some(v) = t.string(i, end)
                        && (3..=63).contains(&v.len())
                        && v.starts_with(|c: char| c.is_ascii_alphabetic())
                        && v.chars().all(|c| c.is_ascii_alphanumeric())
                    {
                        out.push(TableHint::Name(v.into_owned()));
                    }
                }
                _ => {}
            }
        }
    }

    /// The design of the typed table a method called at token `i` runs on: `events` in
    /// `events.insert(…)`, when `events` is bound to a `Table<_, Event>`.
    fn typed_receiver(&self, i: usize) -> Option<&'s str> {
        let t = self.toks;
        let n = t.tokens.len();
        let dot = t.prev(i, 0).filter(|&dot| t.is_punct(dot, n, b'.'))?;
        let receiver = t.ident(t.prev(dot, 0)?, n)?;
        self.tables.get(receiver).copied()
    }

    /// The joined terms the expression `start..end` is: `TERMS.join(" or ")` where `TERMS` is a
    /// name bound to terms or maps to them in place, or a name bound to such a join.
    fn joined(&self, start: usize, end: usize) -> Option<Joined> {
        let t = self.toks;
        let at = t.skip_refs(start, end);
        if let Some(name) = t.ident(at, end)
            && only_conversions(t, at + 1, end)
        {
            return self.joins.get(name).copied();
        }
        // The last three tokens of the level: `.`, `join`, `(…)`.
        let args = t.prev(end, start)?;
        let join = t.prev(args, start)?;
        let dot = t.prev(join, start)?;
        let (Delimiter::Parenthesis, close) = t.group(args, end)? else {
            return None;
        };
        if !t.is_punct(dot, end, b'.') || !t.is_ident(join, end, "join") || close != args + 2 {
            return None;
        }
        let separator = t.string(args + 1, close)?;
        let word = match separator
            .trim_matches(|c: char| c.is_whitespace() || c == '(' || c == ')')
            .to_ascii_lowercase()
            .as_str()
        {
            "or" => "or",
            "and" => "and",
            _ => return None,
        };
        let receiver = t.skip_refs(start, dot);
        let term = match t.ident(receiver, dot) {
            Some(name) if only_conversions(t, receiver + 1, dot) => *self.terms.get(name)?,
            _ => mapped_term(t, start, dot)?,
        };
        Some(Joined { term, word })
    }

    /// The text a `format!` string at `lit` gets when its placeholders outside quotes that are
    /// filled from joined terms are written as two terms: `None` when none is.
    fn joined_text(&self, lit: usize, value: &str) -> Option<String> {
        let t = self.toks;
        let args = format_arguments(t, lit);
        let mut any = false;
        let filled = fill_placeholders_with(value, |positional, name| {
            let joined = match placeholder_value(&args, positional, name)? {
                Placeholder::Argument(start, end) => self.joined(start, end),
                Placeholder::Captured(name) => self.joins.get(name).copied(),
            }?;
            let term = fill_placeholders(&t.string(joined.term, t.tokens.len())?).text;
            any = true;
            Some(format!("{term} {} {term}", joined.word))
        });
        any.then_some(filled.text)
    }

    /// Finds the functions of the file that return one string (see [`Visitor::returns`]).
    fn returns(&mut self) {
        let t = self.toks;
        let n = t.tokens.len();
        for i in 0..n {
            if !t.is_ident(i, n, "fn") {
                continue;
            }
            let Some(name) = t.ident(i + 1, n) else {
                continue;
            };
            // The body: the first brace group after the name, the signature's groups skipped
            // (a trait's `fn f();` has none before its `;`).
            let Some((open, close)) = t
                .siblings(i + 2, n)
                .take_while(|&j| !t.is_punct(j, n, b';'))
                .find_map(|j| match t.group(j, n) {
                    Some((Delimiter::Brace, close)) => Some((j, close)),
                    _ => None,
                })
            else {
                continue;
            };
            // The last expression: what follows the body's last `;` at its own level.
            let tail = t
                .siblings(open + 1, close)
                .filter(|&j| t.is_punct(j, close, b';'))
                .last()
                .map_or(open + 1, |j| j + 1);
            // `return "…"` is no string value: an early return is not read.
            let value = whole_string_value(t, tail, close);
            self.returns
                .entry(name)
                .and_modify(|seen| *seen = None)
                .or_insert(value);
        }
    }

    /// The first pass over the file: names bound to strings and to typed tables, what
    /// statements add to those strings, enums of unit variants, and whether it inserts. Every
    /// identifier is looked at, at any depth, with the tokens after it on its level.
    fn bindings(&mut self) {
        let t = self.toks;
        let n = t.tokens.len();
        // The groups the token is in, innermost last: each one's opening and closing token.
        let mut groups: Vec<(usize, usize)> = Vec::new();
        for i in 0..n {
            while groups.last().is_some_and(|&(_, close)| close <= i) {
                groups.pop();
            }
            if let Some((_, close)) = t.group(i, n) {
                groups.push((i, close));
                continue;
            }
            let (block_start, block_end) = groups
                .last()
                .map_or((0, n), |&(open, close)| (open + 1, close));
            let Some(word) = t.ident(i, n) else {
                continue;
            };
            if let Some((name, append)) = self.append_at(i, block_start, block_end) {
                self.appends.entry(name).or_default().push(append);
            }
            if (word == "let" || word == "const" || word == "static")
                && let Some((name, value, value_end)) = bound_value(t, i + 1, n)
            {
                let bound = match bound(t, value, value_end) {
                    Bound::Other => self
                        .returned_string(value, value_end)
                        .map_or(Bound::Other, |(lit, format)| Bound::Literal(lit, format)),
                    bound => bound,
                };
                self.strings.entry(name).or_default().push(Binding {
                    from: if word == "let" { i } else { block_start },
                    to: block_end,
                    value: bound,
                });
                if !matches!(bound, Bound::Literal(..)) {
                    if let Some(joined) = self.joined(value, value_end) {
                        self.joins.insert(name, joined);
                    } else if let Some(term) = mapped_term(t, value, value_end) {
                        self.terms.insert(name, term);
                    }
                }
                if let Some(at) = t
                    .siblings(value, value_end)
                    .find(|&j| t.is_ident(j, value_end, "Table"))
                    && let Some(design) = table_type_argument(t, t.next(at), value_end)
                {
                    self.tables.insert(name, design);
                }
            } else if word == "enum"
                && let (Some(name), Some((Delimiter::Brace, close))) =
                    (t.ident(i + 1, n), t.group(i + 2, n))
                && let Some(count) = unit_variants(t, i + 3, close)
            {
                self.scan.enums.push((name.to_owned(), count));
            } else if word.starts_with("insert") || word == "add_entity" || word == "create_entity"
            {
                self.scan.inserts = true;
                self.scan.writes = true;
                match self.typed_receiver(i) {
                    Some(design) => push_once(&mut self.scan.inserted, design),
                    None => self.scan.inserts_untyped = true,
                }
            } else if writes(word) {
                self.scan.writes = true;
            } else if let Some(insert) = batch_write(word)
                && i >= 3
                && t.is_punct(i - 1, n, b':')
                && t.is_punct(i - 2, n, b':')
                && t.is_ident(i - 3, n, "BatchOperation")
            {
                // An operation of a transaction or of `Backend::write`: which design it writes
                // is in the entity it carries, not known here.
                self.scan.writes = true;
                if insert {
                    self.scan.inserts = true;
                    self.scan.inserts_untyped = true;
                }
            } else if word == "LargeTable"
                && let Some(design) = table_type_argument(t, t.next(i), n)
            {
                // `LargeTable<'a, B, Record>`: the design's large values go to blobs.
                push_once(&mut self.scan.large, design);
            } else if let Some(used) = in_memory(word)
                && i > 0
                && t.is_punct(i - 1, n, b'.')
                && let Some(field) = closure_field(t, i + 1, n)
            {
                match used {
                    // Rows sorted in the client: `rows.sort_by_key(|r| r.at)`.
                    InMemory::Order => {
                        let pair = (word.to_owned(), field.to_owned());
                        if !self.scan.ordered_by.contains(&pair) {
                            self.scan.ordered_by.push(pair);
                        }
                    }
                    // Rows kept by a property: `rows.iter().filter(|r| r.owner == id)`.
                    InMemory::Keep => push_once(&mut self.scan.kept_by, field),
                }
            } else if word == "get"
                && let Some(design) = self.typed_receiver(i)
            {
                // A typed table's point read: `people.get(key)`.
                push_once(&mut self.scan.got, design);
            } else if t.is_punct(i + 1, n, b':')
                && !path_sep(t, i + 1, n)
                && let Some(at) = t
                    .siblings(i + 2, n)
                    .take(4)
                    .find(|&j| t.is_ident(j, n, "Table"))
                && let Some(design) = table_type_argument(t, t.next(at), n)
            {
                // A parameter or field typed `&Table<B, Employee>`.
                self.tables.insert(word, design);
            }
        }
    }

    /// Walks the file: derived items are parsed as items, the arguments of the filter APIs
    /// read as filters, groups walked into (depth first, each level of the tree as a
    /// [`Level`]). Only the items that derive `TableEntity` are parsed into syntax trees;
    /// everything else is only lexed.
    fn walk(&mut self) {
        let t = self.toks;
        let mut levels = vec![Level::new(0, t.tokens.len(), None, None, false)];
        while let Some(top) = levels.len().checked_sub(1) {
            let level = &mut levels[top];
            let (i, start, end) = (level.next, level.start, level.end);
            if i >= end {
                if level.unit_test {
                    self.in_unit_test -= 1;
                }
                levels.pop();
                continue;
            }
            // An attribute: `#` then `[...]`.
            if t.is_punct(i, end, b'#')
                && let Some((Delimiter::Bracket, close)) = t.group(i + 1, end)
            {
                level.attributes_start.get_or_insert(i);
                level.derives |= is_table_entity_derive(t, i + 2, close);
                level.cfg_test |= is_cfg_test(t, i + 2, close);
                level.next = close + 1;
                continue;
            }
            if let Some(first) = level.attributes_start.take()
                && std::mem::take(&mut level.derives)
                && let Some(item_end) = item_end(t, i, end)
            {
                level.next = item_end;
                self.derived_item(first, item_end);
                continue;
            }
            level.derives = false;
            level.at = i;
            // A `#[cfg(test)]` item (usually `mod tests { … }`): walked as unit-test code, on
            // a level of its own with the same delimiter and enclosing level.
            if std::mem::take(&mut level.cfg_test)
                && let Some(module_end) = module_end(t, i, end)
            {
                level.next = module_end;
                let (delimiter, parent) = (level.delimiter, level.parent);
                self.in_unit_test += 1;
                levels.push(Level::new(i, module_end, delimiter, parent, true));
                continue;
            }
            let Some(token) = t.get(i, end) else {
                // A group's closing token: the level is over.
                level.next = end;
                continue;
            };
            level.next = i + 1;
            match token.kind {
                Kind::Ident
                    if t.is_ident(i, end, "Query")
                        && query_all_call(t, i, end)
                        && !self.seen.contains(&token.start) =>
                {
                    self.seen.push(token.start);
                    let (tables, deletes, limited) = self.context(&levels, top);
                    if tables.is_empty() {
                        self.note_function(&levels, top);
                    }
                    let all_end = t.tokens[i + 3].end;
                    let (start, end) = self.lines.positions(token.start as usize, all_end as usize);
                    self.scan.filters.push(FilterSite {
                        text: String::new(),
                        start,
                        end,
                        templated: false,
                        open_placeholders: false,
                        joined: None,
                        built: None,
                        pieces: false,
                        returned: false,
                        all: true,
                        tables,
                        call_tables: Vec::new(),
                        deletes,
                        limited,
                        unit_test: self.in_unit_test > 0,
                    });
                }
                Kind::Open {
                    delimiter: inner,
                    close,
                } => {
                    let close = close as usize;
                    level.next = close + 1;
                    if filter_api_call(t, start, i)
                        && let Some(argument) = self.filter_argument(i + 1, close)
                    {
                        self.filter_literal(argument, &levels, top);
                    }
                    levels.push(Level::new(i + 1, close, Some(inner), Some(top), false));
                }
                _ => {}
            }
        }
    }

    /// The string a filter API's first argument (in the tokens `start..end` of its argument
    /// list) is: a literal, a `format!` of one, a name bound to either (`&f`, `f.as_str()`,
    /// `&*f`) as the binding the argument sees binds it, or a string built from pieces (a name
    /// bound to an empty string or to a list joined, or a list joined in place). The literal's
    /// token (the first piece's), whether it is a `format!`'s, and for a name, its text as built
    /// by the statements since it was bound (see [`FilterSite::built`]).
    fn filter_argument(&self, start: usize, end: usize) -> Option<Argument> {
        let t = self.toks;
        let end = t
            .siblings(start, end)
            .find(|&j| t.is_punct(j, end, b','))
            .unwrap_or(end);
        if let Some((lit, format)) = string_value(t, start, end) {
            return Some(Argument {
                lit,
                format,
                built: None,
                pieces: false,
            });
        }
        // A call of a function of the file that returns the filter: its literal.
        if let Some((lit, format)) = self.returned_string(start, end) {
            return Some(Argument {
                lit,
                format,
                built: None,
                pieces: false,
            });
        }
        let at = t.skip_refs(start, end);
        let name = t.ident(at, end)?;
        // A list joined in place: `&parts.join(" and ")`.
        if let Some((separator, after)) = join_call(t, at + 1, end) {
            if !only_conversions(t, after, end) {
                return None;
            }
            let built = self.joined_list(name, separator, at)?;
            let (lit, format) = built.first?;
            return Some(Argument {
                lit,
                format,
                built: Some((built.text, built.open)),
                pieces: true,
            });
        }
        // A name, alone or with conversions after it (`f`, `&f`, `f.as_str()`, `f.clone()`):
        // a name inside a bigger expression (a closure `|x| x.ok()`, a call) is not the filter.
        if !only_conversions(t, at + 1, end) {
            return None;
        }
        let binding = self.binding_at(name, at)?;
        let built = self.text_at(name, binding, at);
        // A literal stays the filter, as first bound, when what was done to it is not known.
        if let Bound::Literal(lit, format) = binding.value {
            return Some(Argument {
                lit,
                format,
                built: built.filter(|b| b.changed).map(|b| (b.text, b.open)),
                pieces: false,
            });
        }
        let built = built?;
        let (lit, format) = built.first?;
        Some(Argument {
            lit,
            format,
            built: Some((built.text, built.open)),
            pieces: true,
        })
    }

    /// The string a call of one of the file's functions returns, when the tokens `start..end`
    /// are that call alone, with conversions after it at most (`by_owner(id)`,
    /// `&Self::by_owner(id)`, `self.by_owner(id).as_str()`): the literal's token, and whether
    /// it is a `format!`'s (see [`Visitor::returns`]).
    fn returned_string(&self, start: usize, end: usize) -> Option<(usize, bool)> {
        let t = self.toks;
        let mut at = t.skip_refs(start, end);
        if t.is_ident(at, end, "Self") && path_sep(t, at + 1, end) {
            at += 3;
        } else if t.is_ident(at, end, "self") && t.is_punct(at + 1, end, b'.') {
            at += 2;
        }
        let name = t.ident(at, end)?;
        let (Delimiter::Parenthesis, close) = t.group(at + 1, end)? else {
            return None;
        };
        if !only_conversions(t, close + 1, end) {
            return None;
        }
        *self.returns.get(name)?
    }

    /// The binding of `name` that the token `at` sees: the last one whose block holds it.
    fn binding_at(&self, name: &str, at: usize) -> Option<Binding<'s>> {
        let mut seen: Option<Binding<'s>> = None;
        for b in self.strings.get(name)? {
            if b.from < at && at < b.to && seen.is_none_or(|s| b.from >= s.from) {
                seen = Some(*b);
            }
        }
        seen
    }

    /// The changes made to `name` after `binding` and before the token `at`, in order.
    fn changes(&self, name: &str, binding: Binding<'s>, at: usize) -> impl Iterator<Item = Append> {
        self.appends
            .get(name)
            .into_iter()
            .flatten()
            .filter(move |a| binding.from < a.at && a.at < at)
            .copied()
    }

    /// The text the string of `binding` holds at token `at`: what it was bound to (a literal
    /// filled in, where a placeholder that names the string itself, in `let f = format!("{f}
    /// and …")`, is filled with the text the binding before it holds there; an empty string; a
    /// list joined), then changed by the statements between the binding and `at`. `None` for a
    /// binding of no string, and for an empty string nothing was added to.
    fn text_at(&self, name: &str, binding: Binding<'s>, at: usize) -> Option<Built> {
        self.text_at_depth(name, binding, at, 0)
    }

    /// [`Visitor::text_at`], `depth` bindings deep in rebuilds of the string from itself: past
    /// [`MAX_REBUILDS`], the binding before is not looked at (its text is unknown).
    fn text_at_depth(
        &self,
        name: &str,
        binding: Binding<'s>,
        at: usize,
        depth: usize,
    ) -> Option<Built> {
        let mut built = match binding.value {
            Bound::Literal(lit, true) => {
                let mut filled = self.fill_naming(lit, true, name, None)?;
                let mut open_before = false;
                // `let f = format!("{f} and …")`: the text the binding before holds here.
                if filled.named
                    && depth < MAX_REBUILDS
                    && let Some(before) = self
                        .binding_at(name, binding.from)
                        .and_then(|b| self.text_at_depth(name, b, binding.from, depth + 1))
                {
                    filled = self.fill_naming(lit, true, name, Some(&before.text))?;
                    open_before = before.open;
                }
                Built {
                    text: filled.text,
                    open: filled.open || open_before,
                    changed: filled.named,
                    first: Some((lit, true)),
                }
            }
            Bound::Literal(lit, false) => Built {
                text: self.toks.string(lit, lit + 1)?.into_owned(),
                open: false,
                changed: false,
                first: Some((lit, false)),
            },
            Bound::Empty => Built {
                text: String::new(),
                open: false,
                changed: false,
                first: None,
            },
            Bound::Join(list, separator) => self.joined_list(list, separator, binding.from)?,
            Bound::List(..) | Bound::Other => return None,
        };
        for append in self.changes(name, binding, at) {
            if append.how == Change::Other {
                return None;
            }
            let piece = self.fill_naming(append.lit, append.format, name, Some(&built.text))?;
            built.first.get_or_insert((append.lit, append.format));
            // Put in the string's place, a piece that does not name it drops what was open.
            if append.how == Change::Replace {
                built.text = piece.text;
                built.open = piece.open || (built.open && piece.named);
            } else {
                built.text.push_str(&piece.text);
                built.open |= piece.open;
            }
            built.changed = true;
        }
        built.first.is_some().then_some(built)
    }

    /// The list bound to `list` as the token `at` sees it (its items, then what was pushed onto
    /// it), joined by the string literal at `separator`: `None` when it is no list of strings,
    /// when something else than a push changed it, or when it is empty.
    fn joined_list(&self, list: &str, separator: usize, at: usize) -> Option<Built> {
        let t = self.toks;
        let binding = self.binding_at(list, at)?;
        let Bound::List(start, end) = binding.value else {
            return None;
        };
        let separator = t.string(separator, separator + 1)?;
        let mut items: Vec<(usize, bool)> = list_items(t, start, end)?;
        for append in self.changes(list, binding, at) {
            if append.how != Change::Push {
                return None;
            }
            items.push((append.lit, append.format));
        }
        let first = *items.first()?;
        let mut built = Built {
            text: String::new(),
            open: false,
            changed: true,
            first: Some(first),
        };
        for (k, (lit, format)) in items.into_iter().enumerate() {
            let piece = self.fill_naming(lit, format, list, None)?;
            if k > 0 {
                built.text.push_str(&separator);
            }
            built.text.push_str(&piece.text);
            built.open |= piece.open;
        }
        Some(built)
    }

    /// The literal at `lit` filled in (when `format`), a placeholder outside quotes that names
    /// the string bound to `name` written as `current` (open when there is none).
    fn fill_naming(
        &self,
        lit: usize,
        format: bool,
        name: &str,
        current: Option<&str>,
    ) -> Option<Naming> {
        let t = self.toks;
        let value = t.string(lit, lit + 1)?;
        if !format {
            return Some(Naming {
                text: value.into_owned(),
                open: false,
                named: false,
            });
        }
        let args = format_arguments(t, lit);
        let mut named = false;
        let filled = fill_placeholders_with(&value, |positional, placeholder| {
            let itself = match placeholder_value(&args, positional, placeholder) {
                Some(Placeholder::Argument(start, end)) => {
                    let at = t.skip_refs(start, end);
                    t.is_ident(at, end, name) && only_conversions(t, at + 1, end)
                }
                Some(Placeholder::Captured(captured)) => captured == name,
                None => false,
            };
            named |= itself;
            current.filter(|_| itself).map(str::to_owned)
        });
        Some(Naming {
            text: filled.text,
            open: filled.open,
            named,
        })
    }

    /// The statement starting at token `i` (in the block `start..end`) when it changes a string
    /// bound to a name: `f.push_str(S)`, `f += S`, `f = f + S`, `write!(f, "…", …)` or
    /// `writeln!`, or `f = S` (S a literal or a `format!` of one, after `&`, converted at
    /// most). The name and the change.
    fn append_at(&self, i: usize, start: usize, end: usize) -> Option<(&'s str, Append)> {
        let t = self.toks;
        let word = t.ident(i, end)?;
        // A statement starts at the block's first token, after `;` or after a block.
        let starts = match t.prev(i, start) {
            None => true,
            Some(p) => {
                t.is_punct(p, end, b';') || matches!(t.group(p, end), Some((Delimiter::Brace, _)))
            }
        };
        if !starts {
            return None;
        }
        if (word == "write" || word == "writeln")
            && t.is_punct(i + 1, end, b'!')
            && let Some((Delimiter::Parenthesis, close)) = t.group(i + 2, end)
        {
            let mut at = t.skip_refs(i + 3, close);
            if t.is_ident(at, close, "mut") {
                at += 1;
            }
            let name = t.ident(at, close)?;
            let written = t.is_punct(at + 1, close, b',') && t.string(at + 2, close).is_some();
            let append = Append {
                at: i,
                lit: at + 2,
                format: true,
                how: if written { Change::Add } else { Change::Other },
            };
            return Some((name, append));
        }
        let method = (t.is_punct(i + 1, end, b'.'))
            .then(|| t.ident(i + 2, end))
            .flatten();
        let push = matches!(method, Some("push_str" | "push"));
        let add = t.punct(i + 1, end) == Some((b'+', true)) && t.is_punct(i + 2, end, b'=');
        let set = t.punct(i + 1, end) == Some((b'=', false));
        let other = Append {
            at: i,
            lit: i,
            format: false,
            how: Change::Other,
        };
        if !(push || add || set) {
            // Any other method called as a statement (`f.clear()`, `parts.retain(…)`) may
            // change it in a way not followed.
            return method
                .filter(|_| matches!(t.group(i + 3, end), Some((Delimiter::Parenthesis, _))))
                .map(|_| (word, other));
        }
        let stop = t
            .siblings(i, end)
            .find(|&j| t.is_punct(j, end, b';'))
            .unwrap_or(end);
        let (value, how) = if push {
            let Some((Delimiter::Parenthesis, close)) = t.group(i + 3, end) else {
                return Some((word, other));
            };
            if close + 1 != stop {
                return Some((word, other));
            }
            let how = if method == Some("push") {
                Change::Push
            } else {
                Change::Add
            };
            (i + 4..close, how)
        } else if add {
            (i + 3..stop, Change::Add)
        } else {
            // `f = f + S`, `f = f.clone() + S`: an addition; else the string is replaced.
            let plus = t
                .siblings(i + 2, stop)
                .find(|&j| t.is_punct(j, stop, b'+'))
                .filter(|&plus| t.is_ident(i + 2, plus, word) && only_conversions(t, i + 3, plus));
            match plus {
                Some(plus) => (plus + 1..stop, Change::Add),
                None => (i + 2..stop, Change::Replace),
            }
        };
        let Some((lit, format)) = whole_string_value(t, value.start, value.end) else {
            return Some((word, other));
        };
        Some((
            word,
            Append {
                at: i,
                lit,
                format,
                how,
            },
        ))
    }
}

/// Whether the tokens `from..end` are only argument-less method calls (`.as_str()`,
/// `.to_owned()`): a value converted, not computed from.
fn only_conversions(t: Toks<'_>, from: usize, end: usize) -> bool {
    let mut i = from;
    while t.get(i, end).is_some() {
        if !t.is_punct(i, end, b'.') || t.ident(i + 1, end).is_none() {
            return false;
        }
        match t.group(i + 2, end) {
            Some((_, close)) if close == i + 3 => i = close + 1,
            _ => return false,
        }
    }
    true
}

/// The string the bound value `start..end` is as a whole: a literal or a `format!`, converted
/// at most (`"…".to_owned()`); `"not ".repeat(9) + "x"` is computed from a literal and is not
/// it.
fn whole_string_value(t: Toks<'_>, start: usize, end: usize) -> Option<(usize, bool)> {
    let at = t.skip_refs(start, end);
    let after = if t.is_literal(at, end) {
        at + 1
    } else if t.ident(at, end).is_some() && t.punct(at + 1, end).is_some() {
        let (_, close) = t.group(at + 2, end)?;
        close + 1
    } else {
        return None;
    };
    if !only_conversions(t, after, end) {
        return None;
    }
    string_value(t, start, end)
}

/// What the bound value `start..end` is, as far as filters go (see [`Bound`]).
fn bound<'s>(t: Toks<'s>, start: usize, end: usize) -> Bound<'s> {
    if let Some((lit, format)) = whole_string_value(t, start, end) {
        return Bound::Literal(lit, format);
    }
    // `String::new()`, `Vec::with_capacity(n)`: a type, `::`, a constructor and its arguments.
    if let (Some(ty), Some(made)) = (t.ident(start, end), t.ident(start + 3, end))
        && path_sep(t, start + 1, end)
        && let Some((Delimiter::Parenthesis, close)) = t.group(start + 4, end)
        && close + 1 == end
    {
        return match (ty, made) {
            ("String", "new" | "with_capacity" | "default") => Bound::Empty,
            ("Vec", "new" | "with_capacity") => Bound::List(close, close),
            _ => Bound::Other,
        };
    }
    // `vec![…]` of strings.
    if t.is_ident(start, end, "vec")
        && t.is_punct(start + 1, end, b'!')
        && let Some((_, close)) = t.group(start + 2, end)
        && close + 1 == end
        && list_items(t, start + 3, close).is_some()
    {
        return Bound::List(start + 3, close);
    }
    // `parts.join(" and ")`.
    if let Some(list) = t.ident(start, end)
        && let Some((separator, after)) = join_call(t, start + 1, end)
        && only_conversions(t, after, end)
    {
        return Bound::Join(list, separator);
    }
    Bound::Other
}

/// The items of a list (the tokens `start..end`, between commas) when each is a string
/// literal or a `format!` of one: each literal's token, and whether it is a `format!`'s.
fn list_items(t: Toks<'_>, start: usize, end: usize) -> Option<Vec<(usize, bool)>> {
    let mut items = Vec::new();
    let mut from = start;
    while from < end {
        let stop = t
            .siblings(from, end)
            .find(|&j| t.is_punct(j, end, b','))
            .unwrap_or(end);
        if stop > from {
            items.push(whole_string_value(t, from, stop)?);
        }
        from = stop + 1;
    }
    Some(items)
}

/// `.join("…")` from token `at` (before `end`): the separator's literal token, and the token
/// after the call.
fn join_call(t: Toks<'_>, at: usize, end: usize) -> Option<(usize, usize)> {
    if !t.is_punct(at, end, b'.') || !t.is_ident(at + 1, end, "join") {
        return None;
    }
    let (Delimiter::Parenthesis, close) = t.group(at + 2, end)? else {
        return None;
    };
    (close == at + 4 && t.string(at + 3, close).is_some()).then_some((at + 3, close + 1))
}

/// The literal the tokens `start..end` are (after `&`, `*`): a string literal, or
/// `format!("…", …)` (then `true`). The literal's token.
fn string_value(t: Toks<'_>, start: usize, end: usize) -> Option<(usize, bool)> {
    let at = t.skip_refs(start, end);
    if t.is_literal(at, end) {
        return t.string(at, end).map(|_| (at, false));
    }
    if let Some(name) = t.ident(at, end)
        && t.is_punct(at + 1, end, b'!')
        && let Some((_, close)) = t.group(at + 2, end)
        && is_format_macro(name)
    {
        return t.string(at + 3, close).map(|_| (at + 3, true));
    }
    None
}

/// After `let`, `const` or `static` (the tokens from `start`, up to `end` or the end of the
/// group): the bound name and the range of its value (up to `;`).
fn bound_value<'s>(t: Toks<'s>, start: usize, end: usize) -> Option<(&'s str, usize, usize)> {
    let mut i = start;
    if t.is_ident(i, end, "mut") {
        i += 1;
    }
    let name = t.ident(i, end)?;
    let eq = t
        .siblings(i, end)
        .take_while(|&j| !t.is_punct(j, end, b';'))
        .find(|&j| t.punct(j, end) == Some((b'=', false)))?;
    let value = eq + 1;
    let value_end = t
        .siblings(value, end)
        .find(|&j| t.is_punct(j, end, b';'))
        .unwrap_or_else(|| t.siblings(value, end).last().map_or(value, |j| t.next(j)));
    Some((name, value, value_end))
}

/// The struct name in `Table<B, Employee>` or `Table::<_, Employee>` (the tokens after
/// `Table`, from `start`, up to `end` or the end of the group).
fn table_type_argument<'s>(t: Toks<'s>, start: usize, end: usize) -> Option<&'s str> {
    let mut i = start;
    if path_sep(t, start, end) {
        i += 2;
    }
    if !t.is_punct(i, end, b'<') {
        return None;
    }
    let close = t.siblings(i, end).find(|&j| t.is_punct(j, end, b'>'))?;
    t.ident(t.prev(close, i)?, end)
}

/// The number of variants of an enum body (the tokens `start..end`) when every one is a unit
/// variant.
fn unit_variants(t: Toks<'_>, start: usize, end: usize) -> Option<usize> {
    let mut count = 0;
    let mut variant = start;
    loop {
        let variant_end = t
            .siblings(variant, end)
            .find(|&j| t.is_punct(j, end, b','))
            .unwrap_or(end);
        // Attributes (`#[…]`) and a discriminant (`= 3`) are allowed; fields are not.
        let mut names = 0;
        let mut j = variant;
        while let Some(token) = t.get(j, variant_end) {
            match token.kind {
                Kind::Punct { ch: b'#', .. } => {
                    j = t.next(j);
                    if j < variant_end {
                        j = t.next(j);
                    }
                }
                Kind::Punct { ch: b'=', .. } => break,
                Kind::Ident | Kind::DocIdent => {
                    names += 1;
                    j += 1;
                }
                Kind::Open { .. } => return None,
                _ => j += 1,
            }
        }
        match names {
            0 => {}
            1 => count += 1,
            _ => return None,
        }
        if variant_end >= end {
            break;
        }
        variant = variant_end + 1;
    }
    (count > 0).then_some(count)
}

/// Where the statement holding `at` starts and ends (exclusive) in the tokens `start..end` of
/// a level: between the `;` before it and the `;` after it (kept out), or the level's ends. A
/// block (`for … { }`, `if … { }`) followed by a word other than `else` ends a statement too.
fn statement_bounds(t: Toks<'_>, start: usize, end: usize, at: usize) -> (usize, usize) {
    let ends_after = |j: usize| {
        if t.is_punct(j, end, b';') {
            return true;
        }
        matches!(t.group(j, end), Some((Delimiter::Brace, close))
            if matches!(t.ident(close + 1, end), Some(next) if next != "else" && next != "as"))
    };
    let at = at.min(end);
    let mut from = start;
    let mut j = at;
    while let Some(p) = t.prev(j, start) {
        if ends_after(p) {
            from = t.next(p);
            break;
        }
        j = p;
    }
    let to = t
        .siblings(at, end)
        .find(|&j| ends_after(j))
        .map_or(end, |j| {
            if t.punct(j, end).is_some() {
                j
            } else {
                t.next(j)
            }
        });
    (from, to)
}

/// The name a `let NAME = …` statement (the tokens `start..end`) binds.
fn let_binding<'s>(t: Toks<'s>, start: usize, end: usize) -> Option<&'s str> {
    if !t.is_ident(start, end, "let") {
        return None;
    }
    let second = t.ident(start + 1, end)?;
    match t.ident(start + 2, end) {
        Some(name) if second == "mut" => Some(name),
        _ => Some(second),
    }
}

/// The statements of the level `start..end` from token `after` on that use the identifier
/// `name` (as [`mentions`] finds it): each one's first token and its end.
fn statements_using<'t>(
    t: Toks<'t>,
    start: usize,
    end: usize,
    after: usize,
    name: &'t str,
) -> impl Iterator<Item = (usize, usize)> + 't {
    let mut from = after;
    std::iter::from_fn(move || {
        while from < end {
            let (_, stop) = statement_bounds(t, start, end, from);
            let statement = (from, stop);
            from = if stop > from { stop } else { t.next(from) };
            if mentions(t, statement.0, statement.1, name) {
                return Some(statement);
            }
        }
        None
    })
}

/// Whether the identifier appears in the tokens `start..end`, at any depth.
fn mentions(t: Toks<'_>, start: usize, end: usize, name: &str) -> bool {
    t.tokens[start.min(end)..end.min(t.tokens.len())]
        .iter()
        .any(|k| matches!(k.kind, Kind::Ident | Kind::DocIdent) && k.text(t.src) == name)
}

/// Whether the tokens `start..end` limit a query to its first rows: `.top(n)`, or
/// `.top = Some(n)`, at any depth.
fn mentions_top(t: Toks<'_>, start: usize, end: usize) -> bool {
    (start..end.min(t.tokens.len())).any(|i| {
        t.is_ident(i, end, "top")
            && i > start
            && t.is_punct(i - 1, end, b'.')
            && (matches!(t.group(i + 1, end), Some((Delimiter::Parenthesis, _)))
                || t.punct(i + 1, end) == Some((b'=', false)))
    })
}

/// Whether the block of `level` is a loop's body: the statement holding it in the enclosing
/// level has `loop`, `while` or `for` before it.
fn loop_body(t: Toks<'_>, levels: &[Level], level: &Level) -> bool {
    let Some(parent) = level.parent.and_then(|p| levels.get(p)) else {
        return false;
    };
    let (from, _) = statement_bounds(t, parent.start, parent.end, parent.at);
    (from..parent.at.min(parent.end))
        .any(|j| matches!(t.ident(j, parent.end), Some("loop" | "while" | "for")))
}

/// Whether the tokens `start..end` call something that deletes entities (`delete…`,
/// `DeleteEntity`), at any depth. Deleting a table is not deleting its entities one by one:
/// `delete_table`, `deleteTable`, and `.delete()` with no argument called on something named as
/// a table (`table_client.delete()`, `service.table_client("t").delete()`).
fn mentions_delete(t: Toks<'_>, start: usize, end: usize) -> bool {
    let end = end.min(t.tokens.len());
    let start = start.min(end);
    t.tokens[start..end].iter().enumerate().any(|(k, token)| {
        matches!(token.kind, Kind::Ident | Kind::DocIdent) && {
            let word = token.text(t.src).as_bytes();
            word.len() >= 6
                && word[..6].eq_ignore_ascii_case(b"delete")
                && !word.eq_ignore_ascii_case(b"deleted")
                && !deletes_a_table(t, start + k, end)
        }
    })
}

/// Whether the delete called at token `i` deletes a whole table (see [`mentions_delete`]).
fn deletes_a_table(t: Toks<'_>, i: usize, end: usize) -> bool {
    let Some(word) = t.ident(i, end) else {
        return false;
    };
    let plain: String = word
        .chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if plain.starts_with("deletetable") {
        return true;
    }
    // `.delete()`: no argument, and the receiver (the name before the dot, or the method
    // called just before it) is named as a table.
    let no_argument =
        matches!(t.group(i + 1, end), Some((Delimiter::Parenthesis, close)) if close == i + 2);
    if word != "delete" || !no_argument || i < 2 || !t.is_punct(i - 1, end, b'.') {
        return false;
    }
    let receiver = match t.tokens.get(i - 2).map(|k| k.kind) {
        Some(Kind::Close { open, .. }) => (open as usize).checked_sub(1),
        _ => Some(i - 2),
    };
    receiver.and_then(|r| t.ident(r, end)).is_some_and(|name| {
        let name = name.to_ascii_lowercase();
        name == "table" || name.ends_with("_table") || name.ends_with("table_client")
    })
}

/// Whether the tokens `start..end` take one row out of what they read (`.next()`, `.first()`,
/// `.last()`, `.nth(…)`, `.find(…)`) and never go over all of it (no `for`, `while` or `loop`,
/// no `.for_each(…)` or `.map(…)`): a delete there removes the one row picked (a queue's
/// head, a marker row), not every row a scan found.
fn picks_one_row(t: Toks<'_>, start: usize, end: usize) -> bool {
    let end = end.min(t.tokens.len());
    let mut picks = false;
    for i in start..end {
        let Some(word) = t.ident(i, end) else {
            continue;
        };
        let method = i > start
            && t.is_punct(i - 1, end, b'.')
            && matches!(t.group(i + 1, end), Some((Delimiter::Parenthesis, _)));
        match word {
            "for" | "while" | "loop" => return false,
            "for_each" | "map" | "try_for_each" if method => return false,
            "next" | "first" | "last" | "nth" | "find" if method => picks = true,
            _ => {}
        }
    }
    picks
}

/// Whether tokens `at` and `at + 1` (before `end`) are `::`.
fn path_sep(t: Toks<'_>, at: usize, end: usize) -> bool {
    t.is_punct(at, end, b':') && t.is_punct(at + 1, end, b':')
}

/// Whether `Query::all()` starts at `i` (before `end`).
fn query_all_call(t: Toks<'_>, i: usize, end: usize) -> bool {
    path_sep(t, i + 1, end)
        && t.is_ident(i + 3, end, "all")
        && matches!(t.group(i + 4, end), Some((Delimiter::Parenthesis, close)) if close == i + 5)
}

/// Whether an attribute's contents (the tokens `start..end` inside `#[…]`) are `cfg(test)`.
fn is_cfg_test(t: Toks<'_>, start: usize, end: usize) -> bool {
    t.is_ident(start, end, "cfg")
        && matches!(t.group(start + 1, end), Some((_, close))
            if t.get(close + 1, end).is_none() && close == start + 3 && t.is_ident(start + 2, close, "test"))
}

/// Where the `mod NAME { … }` item starting at `from` ends (just after its braces), in the
/// tokens up to `end`.
fn module_end(t: Toks<'_>, from: usize, end: usize) -> Option<usize> {
    let mut seen_mod = false;
    for j in t.siblings(from, end) {
        if t.is_ident(j, end, "mod") {
            seen_mod = true;
        } else if let Some((delimiter, close)) = t.group(j, end) {
            if seen_mod && delimiter == Delimiter::Brace {
                return Some(close + 1);
            }
            // Anything but a visibility's `(crate)` before `mod`: not a module.
            if !seen_mod && delimiter != Delimiter::Parenthesis {
                return None;
            }
        } else if t.is_punct(j, end, b';') {
            return None;
        }
    }
    None
}

/// Whether an attribute's contents (the tokens `start..end` inside `#[…]`) are
/// `derive(..., TableEntity, ...)`.
fn is_table_entity_derive(t: Toks<'_>, start: usize, end: usize) -> bool {
    t.is_ident(start, end, "derive")
        && matches!(t.group(start + 1, end), Some((_, close))
            if t.siblings(start + 2, close).any(|j| t.is_ident(j, close, "TableEntity")))
}

/// The end (exclusive) of the item starting at `from`, in the tokens up to `end`: after its
/// `{...}` body, or its `;`.
fn item_end(t: Toks<'_>, from: usize, end: usize) -> Option<usize> {
    let mut seen_keyword = false;
    for j in t.siblings(from, end) {
        if matches!(t.ident(j, end), Some("struct" | "enum" | "union")) {
            seen_keyword = true;
        } else if seen_keyword && let Some((Delimiter::Brace, close)) = t.group(j, end) {
            return Some(close + 1);
        } else if seen_keyword && t.is_punct(j, end, b';') {
            return Some(j + 1);
        }
    }
    None
}

/// `item` (the text at byte `from` of the file `tokens` were lexed from) with each doc comment
/// written as the attribute `#[d]` (`#![d]` for an inner one) and blanks, keeping every line and
/// column. A design never reads its doc comments, and each is an attribute with a string that
/// syn and darling would read past; `#[d]` is accepted exactly where a doc comment is. A doc
/// comment inside an attribute's brackets is tokens that attribute's reader sees, and a comment
/// too short for the attribute, or broken across lines at its start, stays as it is.
fn short_docs<'i>(item: &'i str, from: usize, tokens: &[lex::Token]) -> Cow<'i, str> {
    // Copied at the first doc comment written shorter; an item without one is lent as it is.
    let mut bytes: Option<Vec<u8>> = None;
    let mut brackets = 0usize;
    for token in tokens {
        match token.kind {
            Kind::Open {
                delimiter: Delimiter::Bracket,
                ..
            } => brackets += 1,
            Kind::Close {
                delimiter: Delimiter::Bracket,
                ..
            } => brackets = brackets.saturating_sub(1),
            _ => {}
        }
        // The doc comment's own `[` is open at its `doc`.
        if token.kind != Kind::DocIdent || brackets > 1 {
            continue;
        }
        let (Some(start), Some(stop)) = (
            (token.start as usize).checked_sub(from),
            (token.end as usize).checked_sub(from),
        ) else {
            continue;
        };
        let Some(comment) = item.get(start..stop) else {
            continue;
        };
        let short = if comment.starts_with("//!") || comment.starts_with("/*!") {
            "#![d]"
        } else {
            "#[d]"
        };
        // Bytes, not a `str` slice: a comment such as `///é` has no char boundary there.
        if comment.len() < short.len() || comment.as_bytes()[..short.len()].contains(&b'\n') {
            continue;
        }
        let bytes = bytes.get_or_insert_with(|| item.as_bytes().to_vec());
        for (i, b) in bytes[start..stop].iter_mut().enumerate() {
            if let Some(&c) = short.as_bytes().get(i) {
                *b = c;
            } else if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    match bytes {
        None => Cow::Borrowed(item),
        // Only whole comments became ASCII, so the text is still UTF-8.
        Some(bytes) => Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| item.to_owned())),
    }
}

/// Whether the group at `i` (on the level starting at `start`) is the argument list of a
/// filter API: `Query::filter`, `Filter::parse`, or a `.filter(…)` method (the query builders
/// of the Azure SDKs); an iterator's `.filter` takes a closure, which
/// [`Visitor::filter_argument`] never reads as a string.
fn filter_api_call(t: Toks<'_>, start: usize, i: usize) -> bool {
    let n = t.tokens.len();
    let Some(before) = t.prev(i, start) else {
        return false;
    };
    let Some(two_before) = t.prev(before, start) else {
        return false;
    };
    let method = t.ident(before, n);
    if t.is_punct(two_before, n, b'.') {
        return method == Some("filter");
    }
    let Some(three_before) = t.prev(two_before, start) else {
        return false;
    };
    let Some(four_before) = t.prev(three_before, start) else {
        return false;
    };
    t.is_punct(three_before, n, b':')
        && t.is_punct(two_before, n, b':')
        && matches!(
            (t.ident(four_before, n), method),
            (Some("Query"), Some("filter")) | (Some("Filter"), Some("parse"))
        )
}

/// What a method called with a closure does with the values it is called on in memory.
#[derive(Clone, Copy)]
enum InMemory {
    /// Orders them, or picks the least or the greatest (the standard library's sorts and
    /// extremes, itertools' sorted iterators), by what its closure returns or compares.
    Order,
    /// Keeps or finds some of them by what its closure tests.
    Keep,
}

/// What the method `word` does in memory, if it is one of [`InMemory`]'s.
fn in_memory(word: &str) -> Option<InMemory> {
    match word {
        "sort_by_key"
        | "sort_unstable_by_key"
        | "sort_by_cached_key"
        | "sort_by"
        | "sort_unstable_by"
        | "max_by_key"
        | "min_by_key"
        | "max_by"
        | "min_by"
        | "sorted_by_key"
        | "sorted_unstable_by_key"
        | "sorted_by_cached_key"
        | "sorted_by"
        | "sorted_unstable_by" => Some(InMemory::Order),
        "filter" | "find" | "retain" | "any" | "all" | "position" => Some(InMemory::Keep),
        _ => None,
    }
}

/// The field the closure given to the call whose argument list opens at `open` reads from one
/// of its parameters first (`|r| r.at`, `|a, b| b.at.cmp(&a.at)`, `|r| Reverse(r.score)`): a
/// field access, not a method call. `None` for an argument that is not a closure (a function's
/// name) or reads no parameter's field.
fn closure_field(t: Toks<'_>, open: usize, n: usize) -> Option<&str> {
    let (Delimiter::Parenthesis, close) = t.group(open, n)? else {
        return None;
    };
    let mut i = open + 1;
    if !t.is_punct(i, close, b'|') {
        return None;
    }
    i += 1;
    // The parameters: names, maybe behind `&`, maybe with a type after `:`.
    let mut params = Vec::new();
    while i < close && !t.is_punct(i, close, b'|') {
        if let Some(name) = t.ident(i, close)
            && !t.is_punct(i.wrapping_sub(1), close, b':')
        {
            params.push(name);
        }
        i = t.next(i);
    }
    if params.is_empty() || i >= close {
        return None;
    }
    (i + 1..close).find_map(|j| {
        let param = t.ident(j, close)?;
        if !params.contains(&param) || !t.is_punct(j + 1, close, b'.') {
            return None;
        }
        let field = t.ident(j + 2, close)?;
        let called = matches!(t.group(j + 3, close), Some((Delimiter::Parenthesis, _)));
        (!called).then_some(field)
    })
}

/// Adds `design` to `list` unless it is there already.
fn push_once(list: &mut Vec<String>, design: &str) {
    if !list.iter().any(|d| d == design) {
        list.push(design.to_owned());
    }
}

/// Whether a macro formats a string (`format!` and its kin).
fn is_format_macro(name: &str) -> bool {
    matches!(name, "format" | "format_args")
}

/// The value of a string literal as `syn::LitStr::value` gives it, from the literal's text
/// (with its suffix, if any): `None` for a literal that is not a string (`b"…"`, `'c'`, a
/// number) or that syn would not read. A doc comment's text is its own value (proc-macro2
/// makes an escaped string literal of it, which syn reads back to the text).
fn lit_str_value(kind: LitKind, text: &str) -> Option<Cow<'_, str>> {
    match kind {
        LitKind::Str => cooked_str_value(text),
        LitKind::RawStr => raw_str_value(text),
        LitKind::Doc => Some(Cow::Borrowed(text)),
        _ => None,
    }
}

/// syn's reading of a `"…"` literal (`parse_lit_str_cooked`): escapes replaced, a `\r\n` read
/// as `\n`, a `\` at the end of a line skipping the whitespace after it.
fn cooked_str_value(repr: &str) -> Option<Cow<'_, str>> {
    let body = repr.strip_prefix('"')?;
    let special = memchr::memchr3(b'"', b'\\', b'\r', body.as_bytes())?;
    if body.as_bytes()[special] == b'"' {
        return Some(Cow::Borrowed(&body[..special]));
    }
    let byte = |s: &str, i: usize| s.as_bytes().get(i).copied().unwrap_or(0);
    let mut s = body;
    let mut content = String::with_capacity(s.len());
    'outer: loop {
        let ch = match byte(s, 0) {
            b'"' => break,
            b'\\' => {
                let b = byte(s, 1);
                s = s.get(2..)?;
                match b {
                    b'x' => {
                        let value = hex_value(byte(s, 0))? * 0x10 + hex_value(byte(s, 1))?;
                        s = s.get(2..)?;
                        if value > 0x7F {
                            return None;
                        }
                        char::from(value)
                    }
                    b'u' => {
                        let (ch, rest) = backslash_u(s)?;
                        s = rest;
                        ch
                    }
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'\\' => '\\',
                    b'0' => '\0',
                    b'\'' => '\'',
                    b'"' => '"',
                    b'\r' | b'\n' => loop {
                        match byte(s, 0) {
                            b' ' | b'\t' | b'\n' | b'\r' => s = &s[1..],
                            _ => continue 'outer,
                        }
                    },
                    _ => return None,
                }
            }
            b'\r' => {
                if byte(s, 1) != b'\n' {
                    return None;
                }
                s = &s[2..];
                '\n'
            }
            _ => {
                let ch = s.chars().next()?;
                s = &s[ch.len_utf8()..];
                ch
            }
        };
        content.push(ch);
    }
    Some(Cow::Owned(content))
}

/// syn's reading of `\u{…}` (after the `\u`): the character and the text after the escape.
fn backslash_u(s: &str) -> Option<(char, &str)> {
    let mut s = s.strip_prefix('{')?;
    let mut ch = 0u32;
    let mut digits = 0;
    loop {
        let b = s.as_bytes().first().copied().unwrap_or(0);
        let digit = match b {
            b'_' if digits > 0 => {
                s = &s[1..];
                continue;
            }
            b'}' if digits > 0 => break,
            b => hex_value(b)?,
        };
        if digits == 6 {
            return None;
        }
        ch = ch * 0x10 + u32::from(digit);
        digits += 1;
        s = &s[1..];
    }
    Some((char::from_u32(ch)?, s.get(1..)?))
}

/// A hex digit's value.
fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// syn's reading of a raw string literal (`parse_lit_str_raw`): the text between the quotes.
fn raw_str_value(repr: &str) -> Option<Cow<'_, str>> {
    let s = repr.strip_prefix('r')?;
    let pounds = s.bytes().take_while(|&b| b == b'#').count();
    if s.as_bytes().get(pounds) != Some(&b'"') {
        return None;
    }
    let close = s.rfind('"')?;
    if !s
        .get(close + 1..close + 1 + pounds)?
        .bytes()
        .all(|b| b == b'#')
    {
        return None;
    }
    s.get(pounds + 1..close).map(Cow::Borrowed)
}

/// The span of a struct for findings about it as a whole.
pub fn entity_span(site: &EntitySite) -> Span {
    site.ident.span()
}

/// The span of a darling error (its own, or the struct's when it has none).
pub fn error_span(error: &darling::Error, site: &EntitySite) -> Span {
    if error.has_span() {
        error.span()
    } else {
        site.ident.span()
    }
}

/// A span covering the whole node, for labels.
pub fn node_span(node: &impl Spanned) -> Span {
    node.span()
}
#[cfg(test)]
mod tests {
    use super::*;

    fn filters(source: &str) -> Vec<FilterSite> {
        scan(source).unwrap().filters
    }

    /// A `LargeTable<…, T>` anywhere in the file, a return type or a parameter's, names `T` as
    /// kept through the large entities pattern; a plain `Table<…, T>` does not.
    #[test]
    fn large_tables_name_their_designs() {
        let found = scan(
            "fn open<'a, B>(b: &'a B) -> Result<LargeTable<'a, B, EmployeeRecord>, E> { todo() }
             fn plain(t: &Table<'_, B, Other>, u: &blob::LargeTable<B, Scan>) {}",
        )
        .unwrap();
        assert_eq!(found.large, ["EmployeeRecord", "Scan"]);
    }

    /// Doc comments become `#[d]` in place; those inside an attribute's brackets, and those
    /// too short to hold it, stay; lines, columns and the text around them are unchanged.
    #[test]
    fn doc_comments_become_short_attributes_in_place() {
        let src = "x\n/// the table\n#[t(i(/// kept\n n))]\n/** block\n doc é */\nstruct A {\n    /// é\n    a: u8,\n    //!x\n}";
        let mut tokens = Vec::new();
        lex::lex(src, &mut tokens).unwrap();
        let from = 2;
        let first = tokens
            .iter()
            .position(|t| t.start as usize >= from)
            .unwrap();
        let out = short_docs(&src[from..], from, &tokens[first..]);
        assert_eq!(
            out,
            "#[d]         \n#[t(i(/// kept\n n))]\n#[d]     \n          \nstruct A {\n    #[d]  \n    a: u8,\n    //!x\n}"
        );
        // Same lines, same columns (the `é` became one-byte blanks: byte offsets hold).
        assert_eq!(out.len(), src.len() - from);
        assert_eq!(out.lines().count(), src[from..].lines().count());
        // syn reads the outer ones as attributes, where the doc comments stood.
        let item: syn::DeriveInput = syn::parse_str(&out.replace("//!x", "")).unwrap();
        assert_eq!(item.attrs.len(), 3);
        let syn::Data::Struct(data) = item.data else {
            panic!("a struct")
        };
        assert_eq!(data.fields.iter().next().unwrap().attrs.len(), 1);
        // A comment whose text starts with a character of several bytes right after `///`.
        let src = "///é x\nstruct B;";
        lex::lex(src, &mut tokens).unwrap();
        assert_eq!(short_docs(src, 0, &tokens), "#[d]   \nstruct B;");
    }

    #[test]
    fn only_strings_that_reach_the_query_api_are_filters() {
        let found = filters(
            r#"
            const BY_DAY: &str = "PartitionKey eq 'day' and RowKey ge 'a'";
            fn f(t: &str) {
                eprintln!("usage: --filter \"PartitionKey eq 'x'\"");
                let text = "RowKey eq 'just prose'";
                let direct = Query::filter("PartitionKey eq 'a'");
                let formatted = Query::filter(&format!("PartitionKey eq '{t}' and At lt datetime'{}'", 1));
                let bound = Query::filter(BY_DAY);
                let sdk = client.query().filter("Age gt 30");
                let closure = items.iter().filter(|x| x.ok);
                // A bound string named like something inside a closure is not its argument,
                // and a string computed from a literal is not that literal.
                let ok = "--batch_1\r\n";
                let pairs = headers.filter(|(a, b)| a.parse::<usize>().ok() == Some(b.len()));
                let nots = "not ".repeat(90) + "Active";
                let parsed = Filter::parse(&nots);
                let owned = "Age lt 3".to_owned();
                let converted = Filter::parse(owned.as_str());
            }
            "#,
        );
        let texts: Vec<&str> = found.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "PartitionKey eq 'a'",
                "PartitionKey eq 'x' and At lt datetime'2000-01-01T00:00:00Z'",
                "PartitionKey eq 'day' and RowKey ge 'a'",
                "Age gt 30",
                "Age lt 3",
            ]
        );
        assert!(found[1].templated && !found[1].open_placeholders);
    }

    #[test]
    fn placeholders_outside_quotes_leave_the_text_open() {
        let found =
            filters(r#"fn f() { Query::filter(&format!("PartitionKey eq 'a' and {}", cond)); }"#);
        assert!(found[0].open_placeholders);
    }

    /// A placeholder glued between a closing quote and an opening one is a value in a literal
    /// quoted wrong: the text is judged, and does not parse. With spaces around it, it may be a
    /// clause, and the text stays open.
    #[test]
    fn a_placeholder_glued_between_quotes_is_a_value() {
        let found = filters(
            r#"fn f() { Query::filter(&format!("RowKey ge ''{}'_a'", id)); Query::filter(&format!("RowKey ge '' {} '_a'", c)); }"#,
        );
        assert_eq!(found[0].text, "RowKey ge ''0'_a'");
        assert!(!found[0].open_placeholders);
        assert!(found[1].open_placeholders);
    }

    /// A filter bound to a name and added to before the query is read as it reaches the query:
    /// `push_str`, `+=`, `write!`, `f = f + …` and a rebuild by `format!` that names the
    /// string itself (by position, by name or captured, also as a new `let`).
    #[test]
    fn a_filter_built_in_steps_is_read_as_it_reaches_the_query() {
        let built = |body: &str| {
            let found = filters(&format!("fn f(pk: &str, on: bool) {{ {body} }}"));
            assert_eq!(found.len(), 1, "{body}");
            (found[0].text.clone(), found[0].built.clone())
        };
        let pk = "PartitionKey eq 'x'".to_owned();
        let both = |open: bool| Some(("PartitionKey eq 'x' and Done eq false".to_owned(), open));
        for body in [
            r#"let mut f = format!("PartitionKey eq '{}'", pk); if on { f.push_str(" and Done eq false"); } Query::filter(&f);"#,
            r#"let mut f = format!("PartitionKey eq '{pk}'"); f += " and Done eq false"; Query::filter(f.as_str());"#,
            r#"let mut f = format!("PartitionKey eq '{pk}'"); if on { write!(&mut f, " and Done eq false").unwrap(); } Query::filter(&f);"#,
            r#"let mut f = format!("PartitionKey eq '{pk}'"); f = f + " and Done eq false"; Query::filter(&f);"#,
            r#"let mut f = format!("PartitionKey eq '{pk}'"); f = format!("{} and Done eq false", f); Query::filter(&f);"#,
            r#"let mut f = format!("PartitionKey eq '{pk}'"); f = format!("{f} and Done eq false"); Query::filter(&f);"#,
            r#"let mut f = format!("PartitionKey eq '{pk}'"); f = format!("{0} and Done eq false", f); Query::filter(&f);"#,
        ] {
            assert_eq!(built(body), (pk.clone(), both(false)), "{body}");
        }
        // A placeholder outside quotes in an added piece is open, as in a `format!` of its own.
        assert_eq!(
            built(
                r#"let mut f = format!("PartitionKey eq '{pk}'"); write!(f, " and Done eq {}", done); Query::filter(&f);"#
            ),
            (
                pk.clone(),
                Some(("PartitionKey eq 'x' and Done eq 0".to_owned(), true))
            )
        );
        // A new `let` that rebuilds the string: its own text is open, the built one known.
        assert_eq!(
            built(
                r#"let f = format!("PartitionKey eq '{pk}'"); let f = format!("{f} and Done eq false"); Query::filter(&f);"#
            ),
            ("0 and Done eq false".to_owned(), both(false))
        );
        // Replaced outright: the last text.
        assert_eq!(
            built(r#"let mut f = "A eq 1"; f = "PartitionKey eq 'x'"; Query::filter(f);"#),
            ("A eq 1".to_owned(), Some((pk.clone(), false)))
        );
        // Nothing added, or added only after the query: nothing built.
        assert_eq!(
            built(r#"let f = format!("PartitionKey eq '{pk}'"); Query::filter(&f); "#),
            (pk.clone(), None)
        );
        assert_eq!(
            built(
                r#"let mut f = format!("PartitionKey eq '{pk}'"); let q = Query::filter(&f); f.push_str(" and X eq 1");"#
            ),
            (pk.clone(), None)
        );
        // Changed in a way not followed: the text as first bound.
        assert_eq!(
            built(
                r#"let mut f = format!("PartitionKey eq '{pk}'"); f.clear(); f.push_str("A eq 1"); Query::filter(&f);"#
            ),
            (pk.clone(), None)
        );
        // Additions to another string of the same name, in another block, are not this one's.
        let found = filters(
            r#"fn a() { let mut f = format!("A eq 1"); f.push_str(" and B eq 2"); }
               fn b() { let f = format!("PartitionKey eq 'x'"); Query::filter(&f); }"#,
        );
        assert_eq!(
            (found[0].text.as_str(), &found[0].built),
            (pk.as_str(), &None)
        );
    }

    /// A string rebuilt from itself more times than any real code does is followed only so far:
    /// its text is then unknown (open), and the scan neither overflows the stack nor slows down.
    #[test]
    fn a_string_rebuilt_from_itself_endlessly_is_open() {
        let mut body = String::from(r#"let f = format!("PartitionKey eq 'x'"); "#);
        for _ in 0..20_000 {
            body.push_str(r#"let f = format!("{f} and A eq 1"); "#);
        }
        body.push_str("Query::filter(&f);");
        let found = filters(&format!("fn f() {{ {body} }}"));
        assert_eq!(found.len(), 1);
        assert!(found[0].open_placeholders);
        let (text, open) = found[0].built.clone().unwrap();
        assert!(open, "{text}");
        assert!(text.ends_with("and A eq 1"), "{text}");
        // A few rebuilds are followed all the way.
        let found = filters(
            r#"fn f() { let f = format!("PartitionKey eq 'x'"); let f = format!("{f} and A eq 1"); let f = format!("{f} and B eq 2"); Query::filter(&f); }"#,
        );
        assert_eq!(
            found[0].built,
            Some((
                "PartitionKey eq 'x' and A eq 1 and B eq 2".to_owned(),
                false
            ))
        );
    }

    /// A filter made of pieces (an empty string added to, a list of strings pushed to and
    /// joined) is its pieces in order, placed at the first one's literal.
    #[test]
    fn a_filter_made_of_pieces_is_its_pieces_in_order() {
        let whole = |body: &str| {
            let source = format!("fn f(pk: &str, on: bool) {{ {body} }}");
            let found = filters(&source);
            assert_eq!(found.len(), 1, "{body}");
            let f = &found[0];
            assert!(f.pieces, "{body}");
            // The site is the first piece's literal.
            let first = source.find("\"PartitionKey").unwrap();
            let column = source[..first].chars().count() + 1;
            assert_eq!(f.start.column, column, "{body}");
            f.built.clone()
        };
        let both = Some(("PartitionKey eq 'x' and Done eq false".to_owned(), false));
        for body in [
            r#"let mut f = String::new(); f.push_str(&format!("PartitionKey eq '{pk}'")); if on { f += " and Done eq false"; } Query::filter(&f);"#,
            r#"let mut parts = Vec::new(); parts.push(format!("PartitionKey eq '{}'", pk)); if on { parts.push("Done eq false".to_owned()); } Query::filter(&parts.join(" and "));"#,
            r#"let mut parts = vec![format!("PartitionKey eq '{pk}'")]; parts.push("Done eq false".into()); let f = parts.join(" and "); Query::filter(f.as_str());"#,
            r#"let parts = vec!["PartitionKey eq 'x'", "Done eq false"]; let mut f = parts.join(" "); f = format!("{f}"); Query::filter(&f);"#,
        ] {
            let expected = if body.contains(r#"join(" ")"#) {
                Some(("PartitionKey eq 'x' Done eq false".to_owned(), false))
            } else {
                both.clone()
            };
            assert_eq!(whole(body), expected, "{body}");
        }
        // Nothing added, a list changed other than by a push, or an item that is no string:
        // no filter.
        for body in [
            r#"let f = String::new(); Query::filter(&f);"#,
            r#"let mut parts = Vec::new(); parts.push(format!("PartitionKey eq '{pk}'")); parts.clear(); parts = other(); Query::filter(&parts.join(" and "));"#,
            r#"let parts = vec![format!("PartitionKey eq '{pk}'"), cond]; Query::filter(&parts.join(" and "));"#,
        ] {
            let found = filters(&format!("fn f(pk: &str) {{ {body} }}"));
            assert!(
                found.is_empty(),
                "{body}: {:?}",
                found.first().map(|f| &f.text)
            );
        }
    }

    /// Made of pieces, a filter is judged as a whole: one whose pieces, every one taken, do
    /// not make a filter (a separator pushed before each) is open, never a parse error.
    #[test]
    fn a_filter_of_pieces_that_does_not_parse_is_open() {
        let source = r#"fn f(pk: &str, done: bool) {
            let mut f = String::new();
            f.push_str(" and ");
            f.push_str(&format!("PartitionKey eq '{pk}'"));
            Query::filter(&f);
        }"#;
        let found = filters(source);
        assert_eq!(found.len(), 1);
        assert!(found[0].pieces);
        let report = crate::lint::lint_sources(
            vec![crate::source::SourceFile {
                path: "src/lib.rs".into(),
                text: source.to_owned(),
            }],
            &crate::config::Config::default(),
        );
        assert!(
            report.diagnostics.iter().all(|d| d.code != "TK100"),
            "{:?}",
            report
                .diagnostics
                .iter()
                .map(|d| &d.message)
                .collect::<Vec<_>>()
        );
    }

    /// A name used as a filter is the binding it sees: the last one before it in its block or
    /// the blocks around it (a `const` wherever in its block), and none when that binding is not
    /// a string.
    #[test]
    fn a_filter_name_is_the_binding_in_scope() {
        let text = |source: &str| filters(source).first().map(|f| f.text.clone());
        assert_eq!(
            text(r#"fn a() { let f = "A eq 1"; Query::filter(&f); } fn b() { let f = "B eq 2"; }"#),
            Some("A eq 1".to_owned())
        );
        assert_eq!(
            text(r#"fn a() { let f = "A eq 1"; let f = compute(); Query::filter(&f); }"#),
            None
        );
        assert_eq!(
            text(r#"fn a() { if x { let f = "A eq 1"; } Query::filter(&f); }"#),
            None
        );
        assert_eq!(
            text(r#"fn a() { Query::filter(F); } const F: &str = "C eq 3";"#),
            Some("C eq 3".to_owned())
        );
        for source in [
            r#"fn a() { let f = "A eq 1"; Query::filter(&f); } fn b() { let f = "B eq 2"; }"#,
            r#"fn a() { let f = "A eq 1"; let f = compute(); Query::filter(&f); }"#,
            r#"fn a() { Query::filter(F); } const F: &str = "C eq 3";"#,
        ] {
            same_as_before(source);
        }
    }

    /// The table a query runs on is the one its own statement names; later statements that use
    /// what it bound (a loop over the page that reads another table) tell it only when the
    /// statement names none.
    #[test]
    fn the_query_statement_names_its_table_before_later_statements_do() {
        let found = filters(
            r#"async fn work(ops: &Table<B, Op>, tenants: &Table<B, Tenant>) {
                let page = ops.query_page(&Query::all(), None).await.unwrap();
                for op in page.items { let _ = tenants.get(&op.key()).await; }
                let q = Query::filter("Done eq true").unwrap();
                let _ = tenants.query_page(&q, None).await;
            }"#,
        );
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].tables, vec![TableHint::Design("Op".into())]);
        assert_eq!(found[1].tables, vec![TableHint::Design("Tenant".into())]);
    }

    /// A filter a function of the file returns (a literal or a `format!` as its body's last
    /// expression) is read where the query is given the call, or a name bound to it; the site
    /// is the literal in the function. A name two functions take, a function that returns
    /// anything else, and a call with more after it are not read.
    #[test]
    fn a_filter_returned_by_a_function_of_the_file_is_read() {
        let found = |source: &str| filters(source);
        let helper = r#"fn by_owner(owner: &str) -> String { format!("PartitionKey eq '{}' and Done eq false", owner) }"#;
        for call in [
            "client.query().filter(by_owner(o))",
            "t.query(&Query::filter(&by_owner(o)))",
            "t.query(&Query::filter(by_owner(o).as_str()))",
            "let f = by_owner(o); t.query(&Query::filter(&f))",
        ] {
            let source = format!("{helper}\nfn run(t: &Table<B, Task>) {{ {call}; }}");
            let found = found(&source);
            assert_eq!(found.len(), 1, "{call}");
            assert_eq!(
                found[0].text, "PartitionKey eq 'x' and Done eq false",
                "{call}"
            );
            assert!(found[0].returned, "{call}");
            assert_eq!(
                found[0].start.line, 1,
                "{call}: the site is the function's literal"
            );
            if !call.starts_with("client") {
                assert_eq!(
                    found[0].tables.len(),
                    1,
                    "{call}: the table named around the query"
                );
            }
        }
        // Methods, through `Self::` and `self.`, and a literal returned as it is.
        let method = r#"impl Repo {
            fn open(&self) -> &'static str { "Status eq 'open'" }
            fn list(&self) { self.client.query().filter(self.open()); }
            fn again(&self) { self.client.query().filter(Self::open(self)); }
        }"#;
        let found_here = found(method);
        assert_eq!(found_here.len(), 1, "one literal, one site");
        assert_eq!(found_here[0].text, "Status eq 'open'");
        for unread in [
            // Two functions of one name: which one is called is not known.
            r#"fn f() -> String { "A eq 1".into() } mod m { fn f() -> String { "B eq 2".into() } } fn g() { Query::filter(&f()); }"#,
            // A function whose last expression is no string.
            r#"fn f() -> String { let s = "A eq 1"; s.repeat(2) } fn g() { Query::filter(&f()); }"#,
            // A call with more after it.
            r#"fn f() -> String { "A eq 1".into() } fn g() { Query::filter(&(f() + " and B eq 2")); }"#,
            // A function that returns early.
            r#"fn f() -> String { return "A eq 1".into(); } fn g() { Query::filter(&f()); }"#,
        ] {
            assert!(found(unread).is_empty(), "{unread}");
        }
    }

    /// A placeholder outside quotes filled from terms joined with `or` or `and` is written as
    /// two terms: by position, by name, captured, inline or through bindings; a separator that
    /// is no filter operator, or terms from more than one `format!`, leave it open.
    #[test]
    fn joined_terms_fill_their_placeholder_with_two_terms() {
        let joined = |body: &str| {
            let found = filters(&format!("fn f(pk: &str, ids: &[&str]) {{ {body} }}"));
            found[0].joined.clone()
        };
        let two = Some("PartitionKey eq 'x' and (RowKey eq 'x' or RowKey eq 'x')".to_owned());
        assert_eq!(
            joined(
                r#"let ors: Vec<String> = ids.iter().map(|k| format!("RowKey eq '{}'", k)).collect();
                Query::filter(&format!("PartitionKey eq '{}' and ({})", pk, ors.join(" or ")));"#
            ),
            two
        );
        assert_eq!(
            joined(
                r#"let any = ids.iter().map(|k| format!("RowKey eq '{k}'")).collect::<Vec<_>>().join(" or ");
                Query::filter(&format!("PartitionKey eq '{pk}' and ({any})"));"#
            ),
            two
        );
        assert_eq!(
            joined(
                r#"Query::filter(&format!("PartitionKey eq '{0}' and ({rows})", pk,
                    rows = ids.iter().map(|k| format!("RowKey eq '{}'", k)).collect::<Vec<_>>().join(") or (")));"#
            ),
            two
        );
        assert_eq!(
            joined(
                r#"let f = format!("{}", ids.iter().map(|k| format!("Tag eq '{}'", k)).collect::<Vec<_>>().join(" and "));
                Query::filter(&f);"#
            ),
            Some("Tag eq 'x' and Tag eq 'x'".to_owned())
        );
        assert_eq!(
            joined(
                r#"let list = ids.iter().map(|k| format!("'{}'", k)).collect::<Vec<_>>().join(", ");
                Query::filter(&format!("PartitionKey eq '{}' and ({})", pk, list));"#
            ),
            None
        );
        assert_eq!(
            joined(
                r#"let ors = ids.iter().map(|k| if k.is_empty() { format!("A eq '{}'", k) } else { format!("B eq '{}'", k) }).collect::<Vec<_>>();
                Query::filter(&format!("PartitionKey eq '{}' and ({})", pk, ors.join(" or ")));"#
            ),
            None
        );
        // Quoted placeholders count among the positional ones.
        let found = filters(
            r#"fn f() { Query::filter(&format!("PartitionKey eq '{}' and {}", a, cond)); }"#,
        );
        assert!(found[0].open_placeholders && found[0].joined.is_none());
    }

    /// The runtime's `BatchOperation` variants are writes, `Insert` an insert, whether they go
    /// to `Backend::write` or into a transaction; a variant of another enum is not.
    #[test]
    fn batch_operations_are_writes() {
        let facts = |body: &str| {
            let found = scan(&format!(
                "async fn f<B: Backend>(b: &B, e: Entity) {{ {body} }}"
            ))
            .unwrap();
            (found.writes, found.inserts)
        };
        assert_eq!(
            facts(r#"b.write("T", BatchOperation::UpsertMerge(e)).await;"#),
            (true, false)
        );
        assert_eq!(
            facts(r#"b.execute_batch("T", vec![BatchOperation::Insert(e)]).await;"#),
            (true, true)
        );
        assert_eq!(
            facts(r#"b.write("T", BatchOperation::Insert(e)).await;"#),
            (true, true)
        );
        assert_eq!(
            facts("let m = Strategy::Merge; let i = Kind::Insert;"),
            (false, false)
        );
    }

    /// The sorts and extremes taken in memory are read by the field their closure reads from a
    /// parameter: through `cmp`, a wrapper, or a reference; a method called on the parameter,
    /// a function passed by name and a closure of no parameter are not.
    #[test]
    fn orders_in_memory_name_the_field_they_order_by() {
        let ordered = |body: &str| scan(&format!("fn f() {{ {body} }}")).unwrap().ordered_by;
        let pair = |m: &str, f: &str| (m.to_owned(), f.to_owned());
        assert_eq!(
            ordered("rows.sort_by_key(|r| r.at); rows.sort_by_key(|r| r.at);"),
            [pair("sort_by_key", "at")]
        );
        assert_eq!(
            ordered("rows.sort_by(|a, b| b.timestamp.cmp(&a.timestamp));"),
            [pair("sort_by", "timestamp")]
        );
        assert_eq!(
            ordered("let newest = rows.iter().max_by_key(|r: &&Row| Reverse(r.scrape_time));"),
            [pair("max_by_key", "scrape_time")]
        );
        assert!(ordered("rows.sort_by_key(|r| r.name());").is_empty());
        assert!(ordered("rows.sort_by_key(Row::at); rows.sort_by(|| todo());").is_empty());
        assert!(ordered("let sort_by_key = 1; x.sort_by_key;").is_empty());
        let kept = |body: &str| scan(&format!("fn f() {{ {body} }}")).unwrap().kept_by;
        assert_eq!(
            kept("rows.iter().filter(|r| r.user_id == id).count(); rows.retain(|r| !r.done);"),
            ["user_id", "done"]
        );
        assert!(kept(r#"client.query().filter("RowKey eq 'a'");"#).is_empty());
    }

    /// A query built in a function of the file, whose own code names no table, runs on the
    /// tables named around the calls of that function; a query whose own code names its table
    /// keeps it, and a function called nowhere leaves the query's table unknown.
    #[test]
    fn a_query_built_in_a_function_runs_on_its_callers_tables() {
        let found = filters(
            r#"
            fn everyone() -> Query { Query::filter("Status eq 'x'").unwrap() }
            fn all() -> Query { Query::all() }
            fn unused() -> Query { Query::filter("Kind eq 'y'").unwrap() }
            fn named(t: &Table<B, Order>) { t.query_all(&Query::filter("Size eq 1").unwrap()); }
            async fn a(sessions: &Table<'_, B, Session>) {
                if let Ok(rows) = sessions.query_all(&everyone()).await { rows.len(); }
                sessions.query_all(&all()).await;
            }
            async fn b(users: &Table<'_, B, User>) { users.query_page(&everyone(), None).await; }
            fn each(ids: &[u8]) -> Vec<Query> {
                ids.iter().map(|i| { Query::filter("Size eq 2").unwrap() }).collect()
            }
            fn c(orders: &Table<B, Order>) { for q in each(&[1]) { orders.query_all(&q); } }
            fn later() -> Query { Query::filter("Colour eq 'red'").unwrap() }
            fn d(items: &Table<B, Item>) { let q = later(); let n = 1; items.query_all(&q); }
            "#,
        );
        let tables = |i: usize| (found[i].tables.clone(), found[i].call_tables.clone());
        let design = |d: &str| TableHint::Design(d.to_owned());
        assert_eq!(found.len(), 6);
        assert_eq!(tables(0), (vec![], vec![design("Session"), design("User")]));
        assert_eq!(tables(1), (vec![], vec![design("Session")]));
        assert_eq!(tables(2), (vec![], vec![]));
        assert_eq!(tables(3), (vec![design("Order")], vec![]));
        // Built in a closure of the function: the function's callers still tell the table.
        assert_eq!(tables(4), (vec![], vec![design("Order")]));
        // Bound to a name first: the statement that uses the name tells it.
        assert_eq!(tables(5), (vec![], vec![design("Item")]));
    }

    /// Only a delete that can remove what the query found counts: one after the query's
    /// statement, or anywhere in a loop's body (the next round deletes what this one read);
    /// deleting the table itself is not deleting rows.
    #[test]
    fn a_delete_counts_after_the_query_or_in_a_loop_and_never_of_a_table() {
        let deletes = |body: &str| {
            let found = filters(&format!("async fn f() {{ {body} }}"));
            assert_eq!(found.len(), 1, "{body}");
            found[0].deletes
        };
        let query = r#"let rows = client.query().filter("name eq 'Carl'");"#;
        assert!(deletes(&format!(
            "{query} for r in rows {{ c.delete_entity(r); }}"
        )));
        assert!(!deletes(&format!("entity_client.delete().await; {query}")));
        assert!(deletes(&format!(
            "loop {{ c.delete_entity(last); {query} }}"
        )));
        assert!(!deletes(&format!("{query} table_client.delete().await;")));
        assert!(!deletes(&format!(
            r#"{query} service.table_client("t").delete().await; svc.delete_table("t");"#
        )));
        assert!(deletes(&format!("{query} entity_client.delete().await;")));
    }

    #[test]
    fn the_table_and_deletes_come_from_the_code_around_the_query() {
        let found = filters(
            r#"
            async fn purge(events: &Table<B, Event>, backend: &B) {
                let old = Query::filter("Timestamp lt datetime'2024-01-01T00:00:00Z'")?;
                for e in events.query_all(&old).await? {
                    events.delete(&e.key()).await?;
                }
                let page = backend.query_page(Order::TABLE, &Query::all()).await?;
                let named = backend.query_page("Readings", &Query::filter("Temp gt 3")?).await?;
            }
            "#,
        );
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].tables, [TableHint::Design("Event".into())]);
        assert!(found[0].deletes);
        assert!(found[1].all);
        assert_eq!(found[1].tables, [TableHint::Design("Order".into())]);
        assert!(
            found[2]
                .tables
                .contains(&TableHint::Name("Readings".into()))
        );
    }

    #[test]
    fn queries_limited_to_their_first_rows_are_seen() {
        let found = filters(
            r#"
            async fn reads(backend: &B) {
                let latest = Query::filter("PartitionKey eq 'a'")?.top(10);
                let mut best = Query::filter("PartitionKey eq 'b'")?;
                best.top = Some(30);
                let some = backend.query_page("Scores", &Query::all().top(5)).await?;
                let whole = Query::filter("PartitionKey eq 'c'")?;
                if whole.top == None {}
            }
            "#,
        );
        let limited: Vec<bool> = found.iter().map(|f| f.limited).collect();
        assert_eq!(limited, [true, true, true, false]);
    }

    #[test]
    fn enums_of_unit_variants_are_counted() {
        let found =
            scan("enum Status { Open, #[default] Closed, Gone = 3 } enum Shape { Dot(u8) }")
                .unwrap();
        assert_eq!(found.enums, [("Status".to_owned(), 3)]);
    }

    use crate::diagnostic::Diagnostic;

    /// A span's positions, as findings show them.
    fn at(span: Span) -> String {
        let (start, end) = Diagnostic::span_positions(span);
        format!(
            "{}:{}-{}:{}",
            start.line, start.column, end.line, end.column
        )
    }

    /// A design's every field, without proc-macro2's span offsets (which differ between a file
    /// lexed whole and an item lexed alone), and where its spans are in the file.
    fn design_summary(d: &Design) -> String {
        let mut debug = format!("{d:?}");
        while let Some(from) = debug.find("bytes(") {
            let to = debug[from..]
                .find(')')
                .map_or(debug.len(), |n| from + n + 1);
            debug.replace_range(from..to, "_");
        }
        let mut spans = vec![
            at(d.ident.span()),
            at(d.table_span),
            at(d.partition_key.span),
            at(d.row_key.span),
            at(d.span),
        ];
        spans.extend(
            d.fields
                .iter()
                .map(|f| at(f.ident.span()) + &at(f.property_span)),
        );
        spans.extend(d.indexes.iter().map(|i| at(i.name_span)));
        spans.extend(d.allows.iter().map(|a| at(a.span)));
        spans.extend(d.entity_type.iter().map(|e| at(e.span)));
        format!("{debug}\n{spans:?}")
    }

    fn errors_summary(e: &darling::Error, ident: &syn::Ident) -> Vec<String> {
        e.clone()
            .flatten()
            .into_iter()
            .map(|e| {
                let span = if e.has_span() { e.span() } else { ident.span() };
                format!("{e} @ {}", at(span))
            })
            .collect()
    }

    fn problems_summary(problems: &[Problem], ident: &syn::Ident) -> Vec<String> {
        problems
            .iter()
            .map(|p| {
                let span = if p.error.has_span() {
                    p.error.span()
                } else {
                    ident.span()
                };
                format!("{:?} {} @ {}", p.kind, p.error, at(span))
            })
            .collect()
    }

    /// The entities both scanners found, as text: a line of where and what, a line of the
    /// design or its errors.
    fn entity_lines(entities: &[EntitySite]) -> Vec<String> {
        let mut out = Vec::new();
        for e in entities {
            out.push(format!(
                "entity {} at {} table {:?} unit {} problems {:?}",
                e.ident,
                at(e.ident.span()),
                e.table,
                e.unit_test,
                problems_summary(&e.problems, &e.ident)
            ));
            out.push(match &e.design {
                Ok(d) => design_summary(d),
                Err(err) => format!("{:?}", errors_summary(err, &e.ident)),
            });
        }
        out
    }

    /// The file's facts both scanners report, as text.
    fn facts_line(enums: &[(String, usize)], inserts: bool, writes: bool) -> String {
        format!("enums {enums:?} inserts {inserts} writes {writes}")
    }

    /// What the new scanner finds in a text, as text.
    fn ours(text: &str) -> String {
        let found = match scan(text) {
            Err(e) => return format!("error {e} at {:?}-{:?}", e.start, e.end),
            Ok(found) => found,
        };
        let mut out = entity_lines(&found.entities);
        // Filters made of pieces, and filters a function returns, are newer than the scanner
        // of before, which has neither.
        for f in found.filters.iter().filter(|f| !f.pieces && !f.returned) {
            out.push(format!(
                "filter {:?} at {}:{}-{}:{} templated {} open {} all {} tables {:?} deletes {} limited {} unit {}",
                f.text,
                f.start.line,
                f.start.column,
                f.end.line,
                f.end.column,
                f.templated,
                f.open_placeholders,
                f.all,
                f.tables,
                f.deletes,
                f.limited,
                f.unit_test
            ));
        }
        out.push(facts_line(&found.enums, found.inserts, found.writes));
        out.join("\n")
    }

    /// What the scanner of before (proc-macro2's token trees) finds in a text, as text.
    fn theirs(text: &str) -> String {
        let found = match reference::scan(text) {
            Err(e) => {
                let (start, end) = Diagnostic::span_positions(e.span());
                return format!("error {e} at {start:?}-{end:?}");
            }
            Ok(found) => found,
        };
        let mut out = entity_lines(&found.entities);
        for f in &found.filters {
            let (start, end) = Diagnostic::span_positions(f.span);
            out.push(format!(
                "filter {:?} at {}:{}-{}:{} templated {} open {} all {} tables {:?} deletes {} limited {} unit {}",
                f.text,
                start.line,
                start.column,
                end.line,
                end.column,
                f.templated,
                f.open_placeholders,
                f.all,
                f.tables,
                f.deletes,
                f.limited,
                f.unit_test
            ));
        }
        out.push(facts_line(&found.enums, found.inserts, found.writes));
        out.join("\n")
    }

    /// Both scanners find the same in `text`.
    fn same_as_before(text: &str) {
        let (ours, theirs) = (ours(text), theirs(text));
        proc_macro2::extra::invalidate_current_thread_spans();
        if ours != theirs {
            let line = ours
                .lines()
                .zip(theirs.lines())
                .find(|(a, b)| a != b)
                .map_or_else(|| ("(one is longer)", ""), |(a, b)| (a, b));
            panic!(
                "the scanners disagree on:\n{text}\n--- ours:\n{}\n--- theirs:\n{}",
                line.0, line.1
            );
        }
    }

    #[test]
    fn every_sample_file_is_scanned_as_before() {
        for (path, text) in lex::tests::sample_files() {
            let caught = std::panic::catch_unwind(|| same_as_before(&text));
            assert!(caught.is_ok(), "{}", path.display());
        }
    }

    #[test]
    fn tricky_inputs_are_scanned_as_before() {
        for text in lex::tests::TRICKY {
            same_as_before(text);
        }
        let cases = [
            "/// Orders\n#[derive(TableEntity)]\n#[table(name = \"Orders\", partition_key = \"{c}\", row_key = \"{o}\")]\nstruct O { c: String, o: u32 }",
            "fn f() {} #[derive(TableEntity)] /** doc */ #[table(name = \"T\", partition_key = \"x\", row_key = \"{a}\")] struct A { a: u8 }",
            "é; #[derive(Debug, table_runtime::TableEntity)]\n    #[table(name = \"Ünï\", partition_key = \"{a}\", row_key = \"{b}\")] pub struct B { a: String, b: String }",
            "#[cfg(test)] /// doc\nmod tests { fn t() { let q = Query::filter(\"RowKey eq 'a'\"); } }",
            "#[cfg(test)] #[derive(TableEntity)] #[table(name = \"T\", partition_key = \"x\", row_key = \"{a}\")] struct A { a: u8 } mod m { fn f() { Query::all(); } }",
            "fn f(doc: &Table<B, Doc>) { /// Readings\n let x = Query::filter(\"A eq 1\"); doc.delete(); }",
            "fn f() { let (a, b) = (1, 2); let mut (x) = Query::filter(\"A eq 1\"); x.top(3); }",
            "fn f() { let TABLE: Table<B, E> = t(); let q = (::TABLE, Query::all()); }",
            "fn f() { let x =-1; let y ='a'; let z = \"A eq 1\"; Filter::parse(&*z); Query::filter(z.as_str().trim()) }",
            "fn f() { let s = \"A eq 1\" /* c */ ; Query::filter(s.to_owned(/*ERROR*/)) }",
            "fn f() { let s = format!(\"A eq '{}' and {x}\", 1); Query::filter(&s) }",
            "fn f() { client.query().filter(r#\"B eq \"x\"\"#).filter(\"C eq 'a\\\n   b'\") }",
            "fn f() { Query::filter(\"PartitionKey eq 'caf\\u{e9}' and X eq '\\x41'\"suffix) }",
            "enum E { A, /// doc\n B, #[x] C = 3, } enum F { //! inner\n A } enum G {} enum H { A B }",
            "fn f() { for x in Table::<_, Employee>::all() { } Query::filter(\"A eq 1\") }",
            "fn f() { if x { } else { } let q = Query::filter(\"A eq 1\"); q.top = Some(3); }",
            "é ü 😀 fn f() { let q = Query::filter(\"PartitionKey eq 'ü'\"); }",
        ];
        for text in cases {
            same_as_before(text);
        }
    }

    #[test]
    fn columns_count_characters_before_a_filter() {
        let text = "fn f() { let é = \"ünï\"; Query::filter(\"PartitionKey eq 'ü'\"); }";
        let found = filters(text);
        assert_eq!(found.len(), 1);
        let quote = text.find("\"PartitionKey").unwrap();
        let column = text[..quote].chars().count() + 1;
        assert_eq!(found[0].start, Position { line: 1, column });
        let end = column + "\"PartitionKey eq 'ü'\"".chars().count();
        assert_eq!(
            found[0].end,
            Position {
                line: 1,
                column: end
            }
        );
        same_as_before(text);
    }

    #[test]
    fn a_file_that_does_not_lex_is_an_error_where_proc_macro2_put_it() {
        let Err(e) = scan("use x;\n\nstruct Order {\n    a: u8,\n") else {
            panic!("an unclosed brace lexed");
        };
        assert_eq!(
            e.start,
            Position {
                line: 3,
                column: 14
            }
        );
        assert_eq!(
            e.end,
            Position {
                line: 3,
                column: 15
            }
        );
        assert_eq!(e.to_string(), "cannot parse string into token stream");
        same_as_before("use x;\n\nstruct Order {\n    a: u8,\n");
        same_as_before("fn f() { \"ü\" ] }");
    }

    #[test]
    fn deep_nesting_is_walked_without_overflowing_the_stack() {
        // Deeper than the recursion of before could go on a thread's 2 MiB (the filter's
        // context then climbs every level, as before: time grows with depth squared).
        let depth = 10_000;
        let text = format!(
            "fn f() {{ {}Query::filter(\"A eq 1\"){} }}",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        let found = filters(&text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].text, "A eq 1");
    }

    #[test]
    fn a_derived_item_nested_deeper_than_any_real_one_is_not_parsed() {
        let design = |ty: &str| {
            format!(
                "#[derive(TableEntity)]\n#[table(name = \"T\", partition_key = \"{{a}}\", row_key = \"{{b}}\")]\nstruct A {{ a: String, b: String, c: {ty} }}"
            )
        };
        let nested = |open: &str, inner: &str, close: &str, depth: usize| {
            format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
        };
        // As deep as may be parsed, in the ways a type nests: read as before.
        let deepest = MAX_ITEM_DEPTH - 1;
        for ty in [
            nested("(", "u8", ")", deepest),
            nested("[", "u8", "; 1]", deepest),
            format!("[u8; {}]", nested("{", "1", "}", deepest - 1)),
            format!("[u8; {}]", nested("(", "1", ")", deepest - 1)),
        ] {
            let text = design(&ty);
            // A thread's stack of a release build holds several hundred levels of syn's
            // recursion; a debug build's, with its bigger frames, needs more room.
            let found = std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn(move || {
                    let found = scan(&text).map(|s| s.entities.len()).unwrap_or(9);
                    proc_macro2::extra::invalidate_current_thread_spans();
                    found
                })
                .unwrap()
                .join()
                .unwrap();
            assert_eq!(found, 1);
        }
        // Deeper, in any of the ways syn descends (generic arguments, references, pointers,
        // arrows, prefix operators): not parsed, no design, no overflow, and reported as not read.
        for ty in [
            nested("(", "u8", ")", 100_000),
            nested("Vec<", "u8", ">", 100_000),
            format!("{}u8", "&'static ".repeat(100_000)),
            format!("{}u8", "*const ".repeat(100_000)),
            format!("{}u8", "fn() -> ".repeat(100_000)),
            format!("[u8; {}1]", "- ".repeat(100_000)),
        ] {
            let found = scan(&design(&ty)).unwrap();
            assert_eq!(found.entities.len(), 0);
            assert_eq!(found.unread.len(), 1);
            let unread = &found.unread[0];
            assert!(
                unread.why.contains("nests more than 64 levels"),
                "{unread:?}"
            );
            assert_eq!((unread.start.line, unread.end.line), (1, 3));
        }
    }

    /// Commas and closing `>`s end a chain of prefix operators: a struct of many reference
    /// fields, or of fields with generic arguments, is not deep.
    #[test]
    fn nesting_counts_depth_not_length() {
        let many = (0..200)
            .map(|i| format!("f{i}: &'static Option<Vec<u8>>"))
            .collect::<Vec<_>>()
            .join(", ");
        let text = format!(
            "#[derive(TableEntity)]\n#[table(name = \"T\", partition_key = \"{{a}}\", row_key = \"{{b}}\")]\nstruct A {{ a: String, b: String, {many} }}"
        );
        let found = scan(&text).unwrap();
        assert_eq!((found.entities.len(), found.unread.len()), (1, 0));
        let mut tokens = Vec::new();
        lex::lex(&text, &mut tokens).unwrap();
        assert!(nesting(&tokens) < 8, "{}", nesting(&tokens));
    }

    /// An item that derives `TableEntity` and does not parse is reported, not skipped in
    /// silence; a macro's template (`struct $name`) is left for the macro's uses.
    #[test]
    fn a_derived_item_that_does_not_parse_is_reported() {
        let found = scan("#[derive(TableEntity)]\nstruct A { a: String b: String }").unwrap();
        assert_eq!(found.entities.len(), 0);
        assert_eq!(found.unread.len(), 1);
        assert!(
            found.unread[0]
                .why
                .starts_with("it does not parse as a struct"),
            "{:?}",
            found.unread
        );
        let template = scan(
            "macro_rules! design { ($n:ident) => { #[derive(TableEntity)]\n#[table(name = \"T\", partition_key = \"{a}\", row_key = \"{b}\")]\nstruct $n { a: String, b: String } } }",
        )
        .unwrap();
        assert_eq!((template.entities.len(), template.unread.len()), (0, 0));
    }

    /// Random programs of the words the scanner looks for, with balanced groups.
    fn token_soup(rng: &mut lex::tests::Rng) -> String {
        const WORDS: &[&str] = &[
            "let",
            "mut",
            "const",
            "static",
            "enum",
            "Status",
            ";",
            ",",
            ":",
            "::",
            ".",
            "=",
            "==",
            "&",
            "*",
            "!",
            "#",
            "Query",
            "Filter",
            "filter",
            "parse",
            "all",
            "top",
            "Table",
            "TABLE",
            "<",
            ">",
            "_",
            "Employee",
            "format",
            "format_args",
            "f",
            "t",
            "x",
            "as_str",
            "to_owned",
            "delete",
            "Deleted",
            "insert_row",
            "else",
            "as",
            "if",
            "for",
            "in",
            "mod",
            "tests",
            "cfg",
            "test",
            "derive",
            "TableEntity",
            "struct",
            "union",
            "Some",
            "3",
            "'a",
            "pub",
            "crate",
            "doc",
            "fn",
            "\"PartitionKey eq 'a'\"",
            "\"Readings\"",
            "\"{x} eq '{}'\"",
            "r#\"Age gt 3\"#",
            "\"é\"",
            "/// doc\n",
            "//! inner\n",
            "/** Orders */",
            "é",
            "b\"x\"",
        ];
        const OPEN: &[(&str, &str)] = &[
            ("(", ")"),
            ("[", "]"),
            ("{", "}"),
            ("Query::filter(", ")"),
            ("Query::filter(&", ")"),
            ("Filter::parse(", ")"),
            (".filter(", ")"),
            ("format!(", ")"),
            ("#[", "]"),
            ("#[cfg(test)] mod tests {", "}"),
            ("fn f() {", "}"),
            ("enum E {", "}"),
            ("let q = Query::filter(", ");"),
        ];
        const PHRASES: &[&str] = &[
            "Query::all()",
            ".top(3)",
            ".top = Some(1);",
            "::TABLE",
            "Table<B, X>",
            "Table::<_, Y>",
            "let f = \"RowKey eq 'b'\";",
            "let t: &Table<B, Z> = x;",
            "q.delete();",
            "x.as_str()",
            "#[derive(TableEntity)]",
        ];
        let mut out = String::new();
        let mut open: Vec<&str> = Vec::new();
        for _ in 0..rng.below(60) {
            match rng.below(12) {
                0 => {
                    let (o, c) = OPEN[rng.below(OPEN.len())];
                    out.push_str(o);
                    open.push(c);
                }
                1 | 2 if !open.is_empty() => out.push_str(open.pop().unwrap_or_default()),
                3 => out.push_str(PHRASES[rng.below(PHRASES.len())]),
                _ => out.push_str(WORDS[rng.below(WORDS.len())]),
            }
            out.push(if rng.below(4) == 0 { '\n' } else { ' ' });
        }
        while let Some(c) = open.pop() {
            out.push_str(c);
        }
        out
    }

    /// Pieces of designs and queries, put together at random.
    fn design_soup(rng: &mut lex::tests::Rng) -> String {
        const PIECES: &[&str] = &[
            "#[derive(TableEntity)]\n",
            "#[derive(Debug, TableEntity)] ",
            "/// An entity.\n",
            "#[cfg(test)]\n",
            "#[table(name = \"Orders\", partition_key = \"{customer}\", row_key = \"{id:010}\")]\n",
            "#[table(name = \"Orders\", partition_key = \"orders\", row_key = \"{id}\")]\n",
            "#[table(name = \"Bad\", partition_key = \"{nope}\")]\n",
            "struct Order { customer: String, id: u32 }\n",
            "pub struct Order { #[table(rename = \"Cust\")] customer: String, id: u64, total: Option<i64> }\n",
            "enum Kind { A, B }\n",
            "mod tests { fn t() { let q = Query::filter(\"PartitionKey eq 'x'\"); } }\n",
            "fn f(t: &Table<B, Order>) { let q = Query::filter(\"RowKey ge '1'\")?.top(5); t.delete(&q); }\n",
            "fn g() { let page = backend.query_page(Order::TABLE, &Query::all()); }\n",
            "const F: &str = \"Timestamp lt datetime'2024-01-01T00:00:00Z'\";\nfn h() { Query::filter(F) }\n",
            "fn é() { let ü = \"ß\"; Query::filter(&format!(\"PartitionKey eq '{ü}'\")) }\n",
        ];
        (0..rng.below(8))
            .map(|_| PIECES[rng.below(PIECES.len())])
            .collect()
    }

    #[test]
    fn random_programs_are_scanned_as_before() {
        let mut rng = lex::tests::Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..3_000 {
            same_as_before(&token_soup(&mut rng));
        }
        for _ in 0..500 {
            same_as_before(&design_soup(&mut rng));
        }
    }

    #[test]
    fn mutated_sample_files_are_scanned_as_before() {
        let mut rng = lex::tests::Rng(0x8BAD_F00D_DEAD_BEEF);
        let pieces = [
            ";",
            "{",
            "}",
            "(",
            ")",
            "#[cfg(test)]",
            "let x = ",
            "Query::filter(",
            "\"A eq 1\"",
            "/// d\n",
            ".top(1)",
            "delete",
            "Table<B, X>",
            "é",
            "::TABLE",
            ",",
            "=",
        ];
        for (_, text) in lex::tests::sample_files() {
            let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            for _ in 0..4 {
                let mut mutated = text.clone();
                for _ in 0..1 + rng.below(3) {
                    let at = boundaries[rng.below(boundaries.len())].min(mutated.len());
                    if mutated.is_char_boundary(at) {
                        mutated.insert_str(at, pieces[rng.below(pieces.len())]);
                    }
                }
                same_as_before(&mutated);
            }
        }
    }
}

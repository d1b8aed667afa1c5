//! The scanner as it was before the lexer of [`super::lex`]: proc-macro2 lexes the whole file
//! and the visitor walks its token trees. Kept for the tests only, which check that the new
//! scanner finds exactly what this one finds. What the scanner learned since (filters built in
//! steps or from pieces, terms joined into a placeholder) has tests of its own: this one knows
//! only which binding of a name a filter sees.
#![allow(dead_code)]

use std::collections::HashMap;

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

use super::{EntitySite, Filled, TableHint, fill_placeholders, is_format_macro};

/// A `$filter` string that reaches the query API, or a `Query::all()`.
pub struct FilterSite {
    /// The filter text, with `{…}` format placeholders replaced by values of the type the
    /// position asks for; empty for `Query::all()`.
    pub text: String,
    /// The literal (or the `Query::all` call).
    pub span: Span,
    /// Whether the literal had format placeholders (then columns inside it are approximate).
    pub templated: bool,
    /// Whether a placeholder stood outside quotes, where it may be any piece of a filter: the
    /// text is then unknown, and a parse failure may be the placeholder's.
    pub open_placeholders: bool,
    /// Whether this is `Query::all()`: every entity of the table.
    pub all: bool,
    /// The tables the code around the query names.
    pub tables: Vec<TableHint>,
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
    /// Whether the file writes entities in any way: inserts, or calls something named
    /// `upsert…`, `update…`, `merge…`, `replace…`, `submit_transaction` or `execute_batch`.
    pub writes: bool,
}

/// Scans a file's text: it is lexed whole, and only the items that derive `TableEntity` are
/// parsed. A lexing error (an unbalanced delimiter, an unterminated string) is returned.
pub fn scan(text: &str) -> Result<Scan, syn::Error> {
    let tokens: TokenStream = text
        .parse()
        .map_err(|e: proc_macro2::LexError| syn::Error::new(e.span(), e.to_string()))?;
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut visitor = Visitor::default();
    visitor.bindings(&tokens, ((0, 0), (usize::MAX, usize::MAX)));
    visitor.walk(&tokens, None, None);
    Ok(visitor.scan)
}

/// Where a binding is seen from and up to (line and column), and its string.
struct Binding {
    from: (usize, usize),
    to: (usize, usize),
    string: Option<(syn::LitStr, bool)>,
}

/// The line and column a span starts at.
fn start_of(span: Span) -> (usize, usize) {
    let at = span.start();
    (at.line, at.column)
}

#[derive(Default)]
struct Visitor {
    scan: Scan,
    /// Literals already recorded (by line and column).
    seen: Vec<(usize, usize)>,
    /// How many `#[cfg(test)]` items the walk is inside.
    in_unit_test: usize,
    /// Names bound to a string literal or a `format!` of one (`let f = "…"`, `const F: &str`),
    /// so that `Query::filter(&f)` finds its text.
    /// Every binding of each name, in the order of the file: from where and up to where it
    /// is seen (line and column), and the string it binds, if any (see the scanner's
    /// `Binding`).
    strings: HashMap<String, Vec<Binding>>,
    /// Names bound to a typed table (`let t = Table::<_, Employee>::new(…)`, a parameter
    /// `t: &Table<B, Employee>`): the design's struct name.
    tables: HashMap<String, String>,
}

/// One level of the token tree the walk is in: the tokens of a group and where the walk is.
struct Frame<'a> {
    tokens: &'a [TokenTree],
    at: usize,
    /// The group's delimiter (`None` for the file).
    delimiter: Option<Delimiter>,
    parent: Option<&'a Frame<'a>>,
}

impl Visitor {
    fn entity(&mut self, input: syn::DeriveInput) {
        if let Some(site) = EntitySite::read(input, self.in_unit_test > 0) {
            self.scan.entities.push(site);
        }
    }

    /// Records a filter that reaches the query API: its text, and what the code around it
    /// says about the table and about deleting.
    fn filter_literal(&mut self, lit: &syn::LitStr, in_format_macro: bool, frame: &Frame<'_>) {
        let at = (lit.span().start().line, lit.span().start().column);
        if self.seen.contains(&at) {
            return;
        }
        self.seen.push(at);
        let value = lit.value();
        let filled = if in_format_macro {
            fill_placeholders(&value)
        } else {
            Filled {
                text: value,
                templated: false,
                open: false,
            }
        };
        let (tables, deletes, limited) = self.context(frame);
        self.scan.filters.push(FilterSite {
            text: filled.text,
            span: lit.span(),
            templated: filled.templated,
            open_placeholders: filled.open,
            all: false,
            tables,
            deletes,
            limited,
            unit_test: self.in_unit_test > 0,
        });
    }

    /// The tables named around the query at `frame` (in its statement, in the enclosing
    /// expressions up to the block, and in later statements of that block that use the
    /// variable the statement binds), whether that block deletes, and whether the statement
    /// or those later ones limit the query to its first rows.
    fn context(&self, frame: &Frame<'_>) -> (Vec<TableHint>, bool, bool) {
        let mut tables = Vec::new();
        let mut deletes = false;
        let mut limited = false;
        let mut level = Some(frame);
        while let Some(f) = level {
            let (start, end) = statement_bounds(f.tokens, f.at);
            self.hints(&f.tokens[start..end], &mut tables);
            limited |= mentions_top(&f.tokens[start..end]);
            if f.delimiter == Some(Delimiter::Brace) || f.parent.is_none() {
                if let Some(name) = let_binding(&f.tokens[start..end]) {
                    let shown = tables.iter().any(|h| matches!(h, TableHint::Design(_)));
                    let mut from = end;
                    while from < f.tokens.len() {
                        let (_, stop) = statement_bounds(f.tokens, from);
                        let statement = &f.tokens[from..stop];
                        if mentions(statement, &name) {
                            if !shown {
                                self.hints(statement, &mut tables);
                            }
                            limited |= mentions_top(statement);
                        }
                        from = stop.max(from + 1);
                    }
                }
                let from = if loop_body(f) { 0 } else { start };
                deletes = mentions_delete(&f.tokens[from..]) && !picks_one_row(f.tokens);
                break;
            }
            level = f.parent;
        }
        tables.sort();
        tables.dedup();
        (tables, deletes, limited)
    }

    /// Table hints in a run of tokens: `X::TABLE`, `Table::<_, X>`, a variable bound to a typed
    /// table, and literals shaped like table names.
    fn hints(&self, tokens: &[TokenTree], out: &mut Vec<TableHint>) {
        for (i, t) in tokens.iter().enumerate() {
            match t {
                TokenTree::Ident(id) => {
                    let name = id.to_string();
                    if name == "TABLE" && i >= 3 && path_sep(tokens, i - 2) {
                        if let TokenTree::Ident(owner) = &tokens[i - 3] {
                            out.push(TableHint::Design(owner.to_string()));
                        }
                    } else if name == "Table" {
                        if let Some(design) = table_type_argument(&tokens[i + 1..]) {
                            out.push(TableHint::Design(design));
                        }
                    } else if let Some(design) = self.tables.get(&name) {
                        out.push(TableHint::Design(design.clone()));
                    }
                }
                TokenTree::Literal(lit) => {
                    if let Some(s) = as_lit_str(lit) {
                        let v = s.value();
                        if (3..=63).contains(&v.len())
                            && v.starts_with(|c: char| c.is_ascii_alphabetic())
                            && v.chars().all(|c| c.is_ascii_alphanumeric())
                        {
                            out.push(TableHint::Name(v));
                        }
                    }
                }
                TokenTree::Group(g) => {
                    self.hints(&g.stream().into_iter().collect::<Vec<_>>(), out);
                }
                TokenTree::Punct(_) => {}
            }
        }
    }

    /// The first pass over the file: names bound to strings and to typed tables, enums of unit
    /// variants, and whether it inserts.
    fn bindings(&mut self, tokens: &[TokenTree], block: ((usize, usize), (usize, usize))) {
        for (i, t) in tokens.iter().enumerate() {
            match t {
                TokenTree::Ident(id) => {
                    let word = id.to_string();
                    if (word == "let" || word == "const" || word == "static")
                        && let Some((name, value)) = bound_value(&tokens[i + 1..])
                    {
                        self.strings.entry(name.clone()).or_default().push(Binding {
                            from: if word == "let" {
                                start_of(id.span())
                            } else {
                                block.0
                            },
                            to: block.1,
                            string: whole_string_value(value),
                        });
                        if let Some(at) = value
                            .iter()
                            .position(|t| matches!(t, TokenTree::Ident(i) if i == "Table"))
                            && let Some(design) = table_type_argument(&value[at + 1..])
                        {
                            self.tables.insert(name, design);
                        }
                    } else if word == "enum"
                        && let (Some(TokenTree::Ident(name)), Some(TokenTree::Group(body))) =
                            (tokens.get(i + 1), tokens.get(i + 2))
                        && body.delimiter() == Delimiter::Brace
                        && let Some(n) = unit_variants(body.stream())
                    {
                        self.scan.enums.push((name.to_string(), n));
                    } else if word.starts_with("insert")
                        || word == "add_entity"
                        || word == "create_entity"
                    {
                        self.scan.inserts = true;
                        self.scan.writes = true;
                    } else if super::writes(&word) {
                        self.scan.writes = true;
                    } else if let Some(insert) = super::batch_write(&word)
                        && i >= 3
                        && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == ':')
                        && matches!(&tokens[i - 2], TokenTree::Punct(p) if p.as_char() == ':')
                        && matches!(&tokens[i - 3], TokenTree::Ident(b) if b == "BatchOperation")
                    {
                        self.scan.writes = true;
                        self.scan.inserts |= insert;
                    } else if let (Some(TokenTree::Punct(colon)), Some(ty)) =
                        (tokens.get(i + 1), tokens.get(i + 2..))
                        && colon.as_char() == ':'
                        && !path_sep(tokens, i + 1)
                        && let Some(at) = ty
                            .iter()
                            .take(4)
                            .position(|t| matches!(t, TokenTree::Ident(i) if i == "Table"))
                        && let Some(design) = table_type_argument(&ty[at + 1..])
                    {
                        // A parameter or field typed `&Table<B, Employee>`.
                        self.tables.insert(word, design);
                    }
                }
                TokenTree::Group(g) => {
                    let inner = (start_of(g.span_open()), start_of(g.span_close()));
                    self.bindings(&g.stream().into_iter().collect::<Vec<_>>(), inner);
                }
                _ => {}
            }
        }
    }

    /// Walks a token list: derived items are parsed as items, the arguments of the filter APIs
    /// read as filters, groups walked into. Only the items that derive `TableEntity` are parsed
    /// into syntax trees; everything else is only lexed.
    fn walk(
        &mut self,
        tokens: &[TokenTree],
        delimiter: Option<Delimiter>,
        parent: Option<&Frame<'_>>,
    ) {
        let mut i = 0;
        let mut attributes_start: Option<usize> = None;
        let mut derives = false;
        let mut cfg_test = false;
        while i < tokens.len() {
            // An attribute: `#` then `[...]`.
            if let (TokenTree::Punct(p), Some(TokenTree::Group(g))) =
                (&tokens[i], tokens.get(i + 1))
                && p.as_char() == '#'
                && g.delimiter() == Delimiter::Bracket
            {
                attributes_start.get_or_insert(i);
                derives |= is_table_entity_derive(g.stream());
                cfg_test |= is_cfg_test(g.stream());
                i += 2;
                continue;
            }
            if let Some(start) = attributes_start.take()
                && std::mem::take(&mut derives)
                && let Some(end) = item_end(tokens, i)
            {
                let item: TokenStream = tokens[start..end].iter().cloned().collect();
                if let Ok(input) = syn::parse2::<syn::DeriveInput>(item) {
                    self.entity(input);
                }
                i = end;
                continue;
            }
            derives = false;
            let frame = Frame {
                tokens,
                at: i,
                delimiter,
                parent,
            };
            // A `#[cfg(test)]` item (usually `mod tests { … }`): walked as unit-test code.
            if std::mem::take(&mut cfg_test)
                && let Some(end) = module_end(tokens, i)
            {
                self.in_unit_test += 1;
                self.walk(&tokens[i..end], delimiter, parent);
                self.in_unit_test -= 1;
                i = end;
                continue;
            }
            match &tokens[i] {
                TokenTree::Ident(id) if id == "Query" && query_all_call(tokens, i) => {
                    let at = (id.span().start().line, id.span().start().column);
                    if !self.seen.contains(&at) {
                        self.seen.push(at);
                        let (tables, deletes, limited) = self.context(&frame);
                        let span = id.span().join(tokens[i + 3].span()).unwrap_or(id.span());
                        self.scan.filters.push(FilterSite {
                            text: String::new(),
                            span,
                            templated: false,
                            open_placeholders: false,
                            all: true,
                            tables,
                            deletes,
                            limited,
                            unit_test: self.in_unit_test > 0,
                        });
                    }
                }
                TokenTree::Group(g) => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    if filter_api_call(tokens, i)
                        && let Some((lit, format)) = self.filter_argument(&inner)
                    {
                        self.filter_literal(&lit, format, &frame);
                    }
                    self.walk(&inner, Some(g.delimiter()), Some(&frame));
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// The string a filter API's first argument is: a literal, a `format!` of one, or a name
    /// bound to either (`&f`, `f.as_str()`, `&*f`).
    fn filter_argument(&self, args: &[TokenTree]) -> Option<(syn::LitStr, bool)> {
        let end = args
            .iter()
            .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
            .unwrap_or(args.len());
        let first = &args[..end];
        if let Some(found) = string_value(first) {
            return Some(found);
        }
        // A name, alone or with conversions after it (`f`, `&f`, `f.as_str()`, `f.clone()`):
        // a name inside a bigger expression (a closure `|x| x.ok()`, a call) is not the filter.
        let rest: Vec<&TokenTree> = first
            .iter()
            .skip_while(|t| matches!(t, TokenTree::Punct(p) if matches!(p.as_char(), '&' | '*')))
            .collect();
        let (TokenTree::Ident(name), conversions) = rest.split_first()? else {
            return None;
        };
        if !only_conversions(conversions) {
            return None;
        }
        // The last binding whose block holds the name.
        let at = start_of(name.span());
        self.strings
            .get(&name.to_string())?
            .iter()
            .filter(|b| b.from < at && at < b.to)
            .reduce(|seen, b| if b.from >= seen.from { b } else { seen })?
            .string
            .clone()
    }
}

/// Whether tokens are only argument-less method calls (`.as_str()`, `.to_owned()`): a value
/// converted, not computed from.
fn only_conversions(tokens: &[&TokenTree]) -> bool {
    tokens.chunks(3).all(|c| {
        matches!(c, [TokenTree::Punct(dot), TokenTree::Ident(_), TokenTree::Group(args)]
            if dot.as_char() == '.' && args.stream().is_empty())
    })
}

/// The string a bound value is as a whole: a literal or a `format!`, converted at most
/// (`"…".to_owned()`); `"not ".repeat(9) + "x"` is computed from a literal and is not it.
fn whole_string_value(tokens: &[TokenTree]) -> Option<(syn::LitStr, bool)> {
    let rest: Vec<&TokenTree> = tokens
        .iter()
        .skip_while(|t| matches!(t, TokenTree::Punct(p) if matches!(p.as_char(), '&' | '*')))
        .collect();
    let after = match rest.as_slice() {
        [TokenTree::Literal(_), after @ ..] => after,
        [
            TokenTree::Ident(_),
            TokenTree::Punct(_),
            TokenTree::Group(_),
            after @ ..,
        ] => after,
        _ => return None,
    };
    if !only_conversions(after) {
        return None;
    }
    string_value(tokens)
}

/// The literal a run of tokens is (after `&`, `*`): a string literal, or `format!("…", …)`
/// (then `true`).
fn string_value(tokens: &[TokenTree]) -> Option<(syn::LitStr, bool)> {
    let rest: Vec<&TokenTree> = tokens
        .iter()
        .skip_while(|t| matches!(t, TokenTree::Punct(p) if matches!(p.as_char(), '&' | '*')))
        .collect();
    match rest.as_slice() {
        [TokenTree::Literal(lit), ..] => as_lit_str(lit).map(|s| (s, false)),
        [
            TokenTree::Ident(name),
            TokenTree::Punct(bang),
            TokenTree::Group(args),
            ..,
        ] if bang.as_char() == '!' && is_format_macro(&name.to_string()) => {
            match args.stream().into_iter().next() {
                Some(TokenTree::Literal(lit)) => as_lit_str(&lit).map(|s| (s, true)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// After `let`, `const` or `static`: the bound name and the tokens of its value (up to `;`).
fn bound_value(tokens: &[TokenTree]) -> Option<(String, &[TokenTree])> {
    let mut i = 0;
    if matches!(tokens.first(), Some(TokenTree::Ident(m)) if m == "mut") {
        i = 1;
    }
    let TokenTree::Ident(name) = tokens.get(i)? else {
        return None;
    };
    let eq = tokens[i..]
        .iter()
        .take_while(|t| !matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '=' && p.spacing() == proc_macro2::Spacing::Alone))?;
    let value = &tokens[i + eq + 1..];
    let end = value
        .iter()
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
        .unwrap_or(value.len());
    Some((name.to_string(), &value[..end]))
}

/// The struct name in `Table<B, Employee>` or `Table::<_, Employee>` (tokens after `Table`).
fn table_type_argument(tokens: &[TokenTree]) -> Option<String> {
    let mut i = 0;
    if path_sep(tokens, 0) {
        i = 2;
    }
    if !matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == '<') {
        return None;
    }
    let close = tokens[i..]
        .iter()
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '>'))?;
    match tokens.get(i + close - 1) {
        Some(TokenTree::Ident(name)) if close >= 2 => Some(name.to_string()),
        _ => None,
    }
}

/// The number of variants of an enum body when every one is a unit variant.
fn unit_variants(body: TokenStream) -> Option<usize> {
    let tokens: Vec<TokenTree> = body.into_iter().collect();
    let mut count = 0;
    for variant in tokens.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
        // Attributes (`#[…]`) and a discriminant (`= 3`) are allowed; fields are not.
        let mut names = 0;
        let mut j = 0;
        while j < variant.len() {
            match &variant[j] {
                TokenTree::Punct(p) if p.as_char() == '#' => j += 2,
                TokenTree::Punct(p) if p.as_char() == '=' => break,
                TokenTree::Ident(_) => {
                    names += 1;
                    j += 1;
                }
                TokenTree::Group(_) => return None,
                _ => j += 1,
            }
        }
        match names {
            0 => {}
            1 => count += 1,
            _ => return None,
        }
    }
    (count > 0).then_some(count)
}

/// Where the statement holding `at` starts and ends (exclusive) in a token list: between the
/// `;` before it and the `;` after it (kept out), or the list's ends. A block (`for … { }`,
/// `if … { }`) followed by a word other than `else` ends a statement too.
fn statement_bounds(tokens: &[TokenTree], at: usize) -> (usize, usize) {
    let ends_after = |j: usize| match &tokens[j] {
        TokenTree::Punct(p) => p.as_char() == ';',
        TokenTree::Group(g) => {
            g.delimiter() == Delimiter::Brace
                && matches!(tokens.get(j + 1), Some(TokenTree::Ident(next)) if next != "else" && next != "as")
        }
        _ => false,
    };
    let at = at.min(tokens.len());
    let start = (0..at).rev().find(|&j| ends_after(j)).map_or(0, |j| j + 1);
    let end = (at..tokens.len())
        .find(|&j| ends_after(j))
        .map_or(tokens.len(), |j| {
            if matches!(tokens[j], TokenTree::Punct(_)) {
                j
            } else {
                j + 1
            }
        });
    (start, end)
}

/// The name a `let NAME = …` statement binds.
fn let_binding(statement: &[TokenTree]) -> Option<String> {
    match statement {
        [
            TokenTree::Ident(l),
            TokenTree::Ident(m),
            TokenTree::Ident(name),
            ..,
        ] if l == "let" && m == "mut" => Some(name.to_string()),
        [TokenTree::Ident(l), TokenTree::Ident(name), ..] if l == "let" => Some(name.to_string()),
        _ => None,
    }
}

/// Whether the identifier appears in the tokens, at any depth.
fn mentions(tokens: &[TokenTree], name: &str) -> bool {
    tokens.iter().any(|t| match t {
        TokenTree::Ident(id) => id == name,
        TokenTree::Group(g) => mentions(&g.stream().into_iter().collect::<Vec<_>>(), name),
        _ => false,
    })
}

/// Whether the tokens limit a query to its first rows: `.top(n)`, or `.top = Some(n)`.
fn mentions_top(tokens: &[TokenTree]) -> bool {
    tokens.iter().enumerate().any(|(i, t)| match t {
        TokenTree::Ident(id) if id == "top" => {
            let after_dot =
                i > 0 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '.');
            let used = match tokens.get(i + 1) {
                Some(TokenTree::Group(g)) => g.delimiter() == Delimiter::Parenthesis,
                Some(TokenTree::Punct(p)) => {
                    p.as_char() == '=' && p.spacing() == proc_macro2::Spacing::Alone
                }
                _ => false,
            };
            after_dot && used
        }
        TokenTree::Group(g) => mentions_top(&g.stream().into_iter().collect::<Vec<_>>()),
        _ => false,
    })
}

/// Whether the block of `frame` is a loop's body: `loop`, `while` or `for` before it in its
/// statement of the enclosing frame, at any depth.
fn loop_body(frame: &Frame<'_>) -> bool {
    fn has_loop_word(tokens: &[TokenTree]) -> bool {
        tokens.iter().any(|t| match t {
            TokenTree::Ident(id) => matches!(id.to_string().as_str(), "loop" | "while" | "for"),
            TokenTree::Group(g) => has_loop_word(&g.stream().into_iter().collect::<Vec<_>>()),
            _ => false,
        })
    }
    let Some(parent) = frame.parent else {
        return false;
    };
    let (from, _) = statement_bounds(parent.tokens, parent.at);
    has_loop_word(&parent.tokens[from..parent.at.min(parent.tokens.len())])
}

/// Whether the tokens call something that deletes entities (`delete…`, `DeleteEntity`); not a
/// whole table (`delete_table`, `deleteTable`, `table_client.delete()`).
fn mentions_delete(tokens: &[TokenTree]) -> bool {
    let table_named = |t: Option<&TokenTree>| {
        matches!(t, Some(TokenTree::Ident(id)) if {
            let name = id.to_string().to_ascii_lowercase();
            name == "table" || name.ends_with("_table") || name.ends_with("table_client")
        })
    };
    tokens.iter().enumerate().any(|(i, t)| match t {
        TokenTree::Ident(id) => {
            let word = id.to_string();
            let lower = word.to_ascii_lowercase();
            if !lower.starts_with("delete") || lower == "deleted" {
                return false;
            }
            if lower.replace('_', "").starts_with("deletetable") {
                return false;
            }
            let no_argument = matches!(tokens.get(i + 1), Some(TokenTree::Group(g))
                if g.delimiter() == Delimiter::Parenthesis && g.stream().is_empty());
            let after_dot =
                i >= 2 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '.');
            let on_table = after_dot
                && match &tokens[i - 2] {
                    TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => {
                        i >= 3 && table_named(tokens.get(i - 3))
                    }
                    other => table_named(Some(other)),
                };
            !(word == "delete" && no_argument && on_table)
        }
        TokenTree::Group(g) => mentions_delete(&g.stream().into_iter().collect::<Vec<_>>()),
        _ => false,
    })
}

/// Whether the tokens take one row out of what they read (`.next()`, `.first()`, `.last()`,
/// `.nth(…)`, `.find(…)`) and never go over all of it (no `for`, `while` or `loop`, no
/// `.for_each(…)` or `.map(…)`), at any depth.
fn picks_one_row(tokens: &[TokenTree]) -> bool {
    fn walk(tokens: &[TokenTree], picks: &mut bool) -> bool {
        for (i, t) in tokens.iter().enumerate() {
            match t {
                TokenTree::Ident(id) => {
                    let word = id.to_string();
                    let method = i > 0
                        && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '.')
                        && matches!(tokens.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis);
                    if matches!(word.as_str(), "for" | "while" | "loop")
                        || (method && matches!(word.as_str(), "for_each" | "map" | "try_for_each"))
                    {
                        return false;
                    }
                    *picks |= method
                        && matches!(word.as_str(), "next" | "first" | "last" | "nth" | "find");
                }
                TokenTree::Group(g)
                    if !walk(&g.stream().into_iter().collect::<Vec<_>>(), picks) =>
                {
                    return false;
                }
                _ => {}
            }
        }
        true
    }
    let mut picks = false;
    walk(tokens, &mut picks) && picks
}

/// Whether tokens `at` and `at + 1` are `::`.
fn path_sep(tokens: &[TokenTree], at: usize) -> bool {
    matches!(
        (tokens.get(at), tokens.get(at + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':'
    )
}

/// Whether `Query::all()` starts at `i`.
fn query_all_call(tokens: &[TokenTree], i: usize) -> bool {
    path_sep(tokens, i + 1)
        && matches!(tokens.get(i + 3), Some(TokenTree::Ident(m)) if m == "all")
        && matches!(tokens.get(i + 4), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis && g.stream().is_empty())
}

/// Whether `#[...]`'s contents are `cfg(test)`.
fn is_cfg_test(stream: TokenStream) -> bool {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    matches!(
        tokens.as_slice(),
        [TokenTree::Ident(cfg), TokenTree::Group(args)]
            if cfg == "cfg" && args.stream().to_string().trim() == "test"
    )
}

/// Where the `mod NAME { … }` item starting at `from` ends (just after its braces).
fn module_end(tokens: &[TokenTree], from: usize) -> Option<usize> {
    let mut seen_mod = false;
    for (j, t) in tokens.iter().enumerate().skip(from) {
        match t {
            TokenTree::Ident(i) if i == "mod" => seen_mod = true,
            TokenTree::Group(g) if seen_mod && g.delimiter() == Delimiter::Brace => {
                return Some(j + 1);
            }
            TokenTree::Punct(p) if p.as_char() == ';' => return None,
            // Anything but a visibility's `(crate)` before `mod`: not a module.
            TokenTree::Group(g) if !seen_mod && g.delimiter() != Delimiter::Parenthesis => {
                return None;
            }
            _ => {}
        }
    }
    None
}

/// Whether `#[...]`'s contents are `derive(..., TableEntity, ...)`.
fn is_table_entity_derive(stream: TokenStream) -> bool {
    let mut tokens = stream.into_iter();
    matches!(tokens.next(), Some(TokenTree::Ident(i)) if i == "derive")
        && matches!(tokens.next(), Some(TokenTree::Group(g)) if g.stream().into_iter().any(|t| matches!(t, TokenTree::Ident(i) if i == "TableEntity")))
}

/// The end (exclusive) of the item starting at `from`: after its `{...}` body, or its `;`.
fn item_end(tokens: &[TokenTree], from: usize) -> Option<usize> {
    let mut seen_keyword = false;
    for (j, t) in tokens.iter().enumerate().skip(from) {
        match t {
            TokenTree::Ident(i) if i == "struct" || i == "enum" || i == "union" => {
                seen_keyword = true
            }
            TokenTree::Group(g) if seen_keyword && g.delimiter() == Delimiter::Brace => {
                return Some(j + 1);
            }
            TokenTree::Punct(p) if seen_keyword && p.as_char() == ';' => return Some(j + 1),
            _ => {}
        }
    }
    None
}

/// Whether the group at `i` is the argument list of a filter API: `Query::filter`,
/// `Filter::parse`, or a `.filter(…)` method (the query builders of the Azure SDKs); an
/// iterator's `.filter` takes a closure, which [`Visitor::filter_argument`] never reads as a
/// string.
fn filter_api_call(tokens: &[TokenTree], i: usize) -> bool {
    if i < 2 {
        return false;
    }
    let name = |t: &TokenTree| match t {
        TokenTree::Ident(id) => Some(id.to_string()),
        _ => None,
    };
    let method = name(&tokens[i - 1]);
    if matches!(&tokens[i - 2], TokenTree::Punct(p) if p.as_char() == '.') {
        return matches!(method.as_deref(), Some("filter"));
    }
    i >= 4
        && path_sep(tokens, i - 3)
        && matches!(
            (name(&tokens[i - 4]).as_deref(), method.as_deref()),
            (Some("Query"), Some("filter")) | (Some("Filter"), Some("parse"))
        )
}

/// A string literal token as a `LitStr` (`None` for other literals).
fn as_lit_str(lit: &proc_macro2::Literal) -> Option<syn::LitStr> {
    let text = lit.to_string();
    if !(text.starts_with('"') || text.starts_with("r\"") || text.starts_with("r#")) {
        return None;
    }
    syn::parse2::<syn::LitStr>(TokenTree::Literal(lit.clone()).into()).ok()
}

//! What the linter looks at in a file: every `#[derive(TableEntity)]` struct (through the
//! derive's own parser and checks, never a second reading of the attributes), and every
//! `$filter` string the code writes.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::spanned::Spanned;
use table_derive_internals::Design;
use table_derive_internals::check::{Problem, problems};

/// A struct that derives `TableEntity`.
pub struct EntitySite {
    /// The struct's name.
    pub ident: syn::Ident,
    /// The table the design is for, when its attributes could be read that far (also for a
    /// design with errors).
    pub table: Option<String>,
    /// The design, when its attributes could be read.
    pub design: Result<Design, darling::Error>,
    /// What the derive's checks found (they fail compilation too).
    pub problems: Vec<Problem>,
    /// Whether the struct is inside a `#[cfg(test)]` item: built only into its crate's unit
    /// tests.
    pub unit_test: bool,
}

/// A string literal that is (or looks like) a `$filter`.
pub struct FilterSite {
    /// The filter text, with `{…}` format placeholders replaced by sample values.
    pub text: String,
    /// The literal.
    pub span: Span,
    /// Whether the literal had format placeholders (then columns inside it are approximate).
    pub templated: bool,
}

/// Everything found in one file.
#[derive(Default)]
pub struct Scan {
    /// Derived entities.
    pub entities: Vec<EntitySite>,
    /// Filters.
    pub filters: Vec<FilterSite>,
}

/// Scans a file's text: it is lexed whole, and only the items that derive `TableEntity` are
/// parsed. A lexing error (an unbalanced delimiter, an unterminated string) is returned.
pub fn scan(text: &str) -> Result<Scan, syn::Error> {
    let tokens: TokenStream = text
        .parse()
        .map_err(|e: proc_macro2::LexError| syn::Error::new(e.span(), e.to_string()))?;
    let mut visitor = Visitor::default();
    visitor.walk(&tokens.into_iter().collect::<Vec<_>>());
    Ok(visitor.scan)
}

#[derive(Default)]
struct Visitor {
    scan: Scan,
    /// Literals already recorded (by line and column).
    seen: Vec<(usize, usize)>,
    /// How many `#[cfg(test)]` items the walk is inside.
    in_unit_test: usize,
}

/// Whether a string reads like a `$filter`: a key or Timestamp compared with an operator.
pub fn looks_like_filter(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).any(|w| {
        matches!(w[0], "PartitionKey" | "RowKey" | "Timestamp")
            && matches!(
                w[1].to_ascii_lowercase().as_str(),
                "eq" | "ne" | "gt" | "ge" | "lt" | "le"
            )
    })
}

/// Replaces `{…}` format placeholders: inside quotes with `x`, elsewhere with `0`.
fn fill_placeholders(text: &str) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut in_quotes = false;
    let mut templated = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
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
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
                out.push(if in_quotes { 'x' } else { '0' });
            }
            c => out.push(c),
        }
    }
    (out, templated)
}

impl Visitor {
    fn entity(&mut self, input: syn::DeriveInput) {
        // An enum of designs, and a projection of another design, bring no design of their own.
        if matches!(input.data, syn::Data::Enum(_))
            || table_derive_internals::projection::is_projection(&input)
        {
            return;
        }
        let ident = input.ident.clone();
        // As much of the design as can be read; what could not be read is reported with the
        // derive's own messages, and the checks still run on the rest.
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
                    all.extend(problems(d).into_iter().map(|p| p.error));
                }
                Err(darling::Error::multiple(all))
            }
            Err(e) => Err(e),
        };
        let problems = design.as_ref().map(problems).unwrap_or_default();
        self.scan.entities.push(EntitySite {
            ident,
            table,
            design,
            problems,
            unit_test: self.in_unit_test > 0,
        });
    }

    /// Records a literal as a filter when it is passed to a filter API or reads like one.
    fn filter_literal(&mut self, lit: &syn::LitStr, in_format_macro: bool, passed_as_filter: bool) {
        let value = lit.value();
        if !passed_as_filter && !looks_like_filter(&value) {
            return;
        }
        let at = (lit.span().start().line, lit.span().start().column);
        if self.seen.contains(&at) {
            return;
        }
        self.seen.push(at);
        let (text, templated) = if in_format_macro {
            fill_placeholders(&value)
        } else {
            (value, false)
        };
        self.scan.filters.push(FilterSite {
            text,
            span: lit.span(),
            templated,
        });
    }

    /// Walks a token list: derived items are parsed as items, string literals checked as
    /// filters, groups walked into. Only the items that derive `TableEntity` are parsed into
    /// syntax trees; everything else is only lexed.
    fn walk(&mut self, tokens: &[TokenTree]) {
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
                self.walk(&g.stream().into_iter().collect::<Vec<_>>());
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
            // A `#[cfg(test)]` item (usually `mod tests { … }`): walked as unit-test code.
            if std::mem::take(&mut cfg_test)
                && let Some(end) = module_end(tokens, i)
            {
                self.in_unit_test += 1;
                self.walk(&tokens[i..end]);
                self.in_unit_test -= 1;
                i = end;
                continue;
            }
            match &tokens[i] {
                TokenTree::Literal(lit) => {
                    // Words are the same escaped or not: test the raw text before unescaping.
                    if looks_like_filter(&lit.to_string())
                        && let Some(s) = as_lit_str(lit)
                    {
                        self.filter_literal(&s, false, false);
                    }
                }
                TokenTree::Group(g) => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    let api = filter_api_call(tokens, i);
                    let format = format_macro_call(tokens, i);
                    if (api || format)
                        && let Some(TokenTree::Literal(lit)) = inner.first()
                        && let Some(s) = as_lit_str(lit)
                    {
                        self.filter_literal(&s, format, api);
                    }
                    self.walk(&inner);
                }
                _ => {}
            }
            i += 1;
        }
    }
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

/// Whether the group at `i` is the argument list of `Query::filter` or `Filter::parse`.
fn filter_api_call(tokens: &[TokenTree], i: usize) -> bool {
    if i < 4 {
        return false;
    }
    let name = |t: &TokenTree| match t {
        TokenTree::Ident(id) => Some(id.to_string()),
        _ => None,
    };
    let colon = |t: &TokenTree| matches!(t, TokenTree::Punct(p) if p.as_char() == ':');
    let (owner, method) = (name(&tokens[i - 4]), name(&tokens[i - 1]));
    colon(&tokens[i - 3])
        && colon(&tokens[i - 2])
        && matches!(
            (owner.as_deref(), method.as_deref()),
            (Some("Query"), Some("filter")) | (Some("Filter"), Some("parse"))
        )
}

/// Whether the group at `i` is the argument list of `format!` and its kin.
fn format_macro_call(tokens: &[TokenTree], i: usize) -> bool {
    i >= 2
        && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '!')
        && matches!(&tokens[i - 2], TokenTree::Ident(id) if matches!(
            id.to_string().as_str(),
            "format" | "format_args" | "write" | "writeln" | "print" | "println" | "eprintln" | "panic"
        ))
}

/// A string literal token as a `LitStr` (`None` for other literals).
fn as_lit_str(lit: &proc_macro2::Literal) -> Option<syn::LitStr> {
    let text = lit.to_string();
    if !(text.starts_with('"') || text.starts_with("r\"") || text.starts_with("r#")) {
        return None;
    }
    syn::parse2::<syn::LitStr>(TokenTree::Literal(lit.clone()).into()).ok()
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

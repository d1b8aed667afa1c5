//! What the linter looks at in a file: every `#[derive(TableEntity)]` struct (through the
//! derive's own parser and checks, never a second reading of the attributes), and every
//! `$filter` string the code writes.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::visit::Visit;
use table_derive_internals::Design;
use table_derive_internals::check::{Problem, problems};

/// A struct that derives `TableEntity`.
pub struct EntitySite {
    /// The struct's name.
    pub ident: syn::Ident,
    /// The design, when its attributes could be read.
    pub design: Result<Design, darling::Error>,
    /// What the derive's checks found (they fail compilation too).
    pub problems: Vec<Problem>,
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

/// Scans a parsed file.
pub fn scan(file: &syn::File) -> Scan {
    let mut visitor = Visitor::default();
    visitor.visit_file(file);
    visitor.scan
}

#[derive(Default)]
struct Visitor {
    scan: Scan,
    /// Literals already recorded (by line and column).
    seen: Vec<(usize, usize)>,
}

/// Whether a call's callee is a filter API: `Query::filter`, `Filter::parse`.
fn is_filter_api(callee: &syn::Expr) -> bool {
    let syn::Expr::Path(p) = callee else {
        return false;
    };
    let names: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    matches!(
        names
            .iter()
            .rev()
            .take(2)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
        ["filter", "Query"] | ["parse", "Filter"]
    )
}

fn derives_table_entity(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|paths| {
                paths
                    .iter()
                    .any(|p| p.segments.last().is_some_and(|s| s.ident == "TableEntity"))
            })
    })
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
        if matches!(input.data, syn::Data::Enum(_)) {
            return;
        }
        let ident = input.ident.clone();
        let design = Design::from_derive_input(&input);
        let problems = design.as_ref().map(problems).unwrap_or_default();
        self.scan.entities.push(EntitySite {
            ident,
            design,
            problems,
        });
    }

    fn literal(&mut self, lit: &syn::LitStr, in_format_macro: bool) {
        self.filter_literal(lit, in_format_macro, false);
    }

    /// Records a literal as a filter when it is passed to a filter API or reads like one.
    fn filter_literal(&mut self, lit: &syn::LitStr, in_format_macro: bool, passed_as_filter: bool) {
        let value = lit.value();
        if !passed_as_filter && !looks_like_filter(&value) {
            return;
        }
        if self
            .seen
            .contains(&(lit.span().start().line, lit.span().start().column))
        {
            return;
        }
        self.seen
            .push((lit.span().start().line, lit.span().start().column));
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
}

impl<'ast> Visit<'ast> for Visitor {
    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        if derives_table_entity(&item.attrs) {
            self.entity(syn::DeriveInput::from(item.clone()));
        }
        syn::visit::visit_item_struct(self, item);
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        if is_filter_api(&call.func)
            && let Some(syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            })) = call.args.first()
        {
            self.filter_literal(s, false, true);
        }
        syn::visit::visit_expr_call(self, call);
    }

    fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
        self.literal(lit, false);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // Macro arguments are tokens to syn; read them as expressions where they are.
        let is_format = mac.path.segments.last().is_some_and(|s| {
            matches!(
                s.ident.to_string().as_str(),
                "format"
                    | "format_args"
                    | "write"
                    | "writeln"
                    | "print"
                    | "println"
                    | "eprintln"
                    | "panic"
            )
        });
        if let Ok(args) = mac.parse_body_with(
            syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
        ) {
            for (i, arg) in args.iter().enumerate() {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) = arg
                {
                    self.literal(s, is_format && i == 0);
                } else {
                    self.visit_expr(arg);
                }
            }
        }
    }
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

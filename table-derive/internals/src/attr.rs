//! The `#[table(...)]` attributes as written, read with darling. Nothing here is checked beyond
//! syntax; [`crate::ast`] turns these into the model and [`crate::check`] validates it.

use darling::ast::NestedMeta;
use darling::util::{PathList, SpannedValue};
use darling::{FromDeriveInput, FromField, FromMeta};
use syn::spanned::Spanned;

/// The struct-level attributes.
#[derive(Debug, FromDeriveInput)]
#[darling(attributes(table), supports(struct_named))]
pub struct ContainerAttrs {
    /// The struct's name.
    pub ident: syn::Ident,
    /// The struct's visibility (generated key types get the same).
    pub vis: syn::Visibility,
    /// The struct's generics (refused by the checks).
    pub generics: syn::Generics,
    /// The fields.
    pub data: darling::ast::Data<(), FieldAttrs>,
    /// `name = "Employees"`: the table.
    #[darling(default)]
    pub name: Option<SpannedValue<String>>,
    /// `partition_key = "…"`: the PartitionKey template.
    #[darling(default)]
    pub partition_key: Option<SpannedValue<String>>,
    /// `row_key = "…"`: the RowKey template.
    #[darling(default)]
    pub row_key: Option<SpannedValue<String>>,
    /// `rename_all = "PascalCase"`: how field names become property names.
    #[darling(default)]
    pub rename_all: Option<SpannedValue<String>>,
    /// `entity_type = "Employee"`: the discriminator stored in the `EntityType` property, for
    /// tables that hold several entity types.
    #[darling(default)]
    pub entity_type: Option<SpannedValue<String>>,
    /// `version = 2`: the version of the entity type, stored in `EntityVersion`.
    #[darling(default)]
    pub version: Option<SpannedValue<i32>>,
    /// `index(…)`: secondary-index copies.
    #[darling(multiple)]
    pub index: Vec<IndexAttrs>,
    /// `allow(RULE, reason = "…")`: linter suppressions.
    #[darling(multiple)]
    pub allow: Vec<AllowAttrs>,
    /// `projection_of = "Employee"`: the struct reads some fields of another design's entities
    /// (same table, same keys); see [`crate::projection`].
    #[darling(default)]
    pub projection_of: Option<SpannedValue<String>>,
    /// `load(writes_per_second = 5, rows = 400)`: the load the design is built for, which the
    /// linter weighs against what one partition takes.
    #[darling(default)]
    pub load: Option<SpannedValue<LoadAttrs>>,
}

/// `load(writes_per_second = N, rows = N)`, as written.
#[derive(Debug, Clone, Default, FromMeta)]
pub struct LoadAttrs {
    /// The most entities of the design written in a second, at the peak.
    #[darling(default)]
    pub writes_per_second: Option<u64>,
    /// The most entities of the design the table holds.
    #[darling(default)]
    pub rows: Option<u64>,
}

/// The field-level attributes.
#[derive(Debug, FromField)]
#[darling(attributes(table))]
pub struct FieldAttrs {
    /// The field's name.
    pub ident: Option<syn::Ident>,
    /// The field's type.
    pub ty: syn::Type,
    /// `rename = "Name"`: the property's name.
    #[darling(default)]
    pub rename: Option<SpannedValue<String>>,
    /// `skip`: not stored; rebuilt with `Default` on reads.
    #[darling(default)]
    pub skip: SpannedValue<bool>,
    /// `key_only`: not stored as a property; the PartitionKey or RowKey holds it, and reads
    /// take it back from there.
    #[darling(default)]
    pub key_only: SpannedValue<bool>,
    /// `json`: stored as a JSON string (serde).
    #[darling(default)]
    pub json: SpannedValue<bool>,
    /// `as_string`: stored as its `Display` text, read with `FromStr`.
    #[darling(default)]
    pub as_string: SpannedValue<bool>,
    /// `max_len = 64`: the most UTF-16 code units a string field holds, or bytes a `Vec<u8>`
    /// holds; enforced when the entity is written, and used by the linter to bound key and
    /// entity sizes.
    #[darling(default)]
    pub max_len: Option<SpannedValue<usize>>,
    /// `max = 999_999`: the largest value an integer field holds; enforced when a key or the
    /// entity is written, and what lets a width narrower than the type (`{id:06}` on a `u32`).
    #[darling(default)]
    pub max: Option<SpannedValue<u64>>,
    /// `min = 1`: the smallest value an integer field holds; enforced when a key or the entity
    /// is written, and what tells a key that never takes a value below it (a sequence that
    /// starts at 1 beside a row keyed `0000000000`).
    #[darling(default)]
    pub min: Option<SpannedValue<u64>>,
}

/// `index(name = "…", partition_key = "…", row_key = "…", project(a, b))`.
#[derive(Debug, FromMeta)]
pub struct IndexAttrs {
    /// The index's name, used in generated method names.
    pub name: SpannedValue<String>,
    /// The copy's PartitionKey template; absent means the entity's own (same partition).
    #[darling(default)]
    pub partition_key: Option<SpannedValue<String>>,
    /// The copy's RowKey template.
    pub row_key: SpannedValue<String>,
    /// Only these fields are copied (a projection); absent means every stored field.
    #[darling(default)]
    pub project: Option<PathList>,
    /// `eventual`: a copy in another partition, kept up to date by the runtime's
    /// eventually consistent index maintenance rather than by the caller.
    #[darling(default)]
    pub eventual: bool,
}

/// `allow(RULE, reason = "…")`: suppresses a lint rule for this struct.
#[derive(Debug, Clone)]
pub struct AllowAttrs {
    /// The rule's code or name, as written.
    pub rule: String,
    /// Why the rule does not apply.
    pub reason: Option<String>,
    /// Where the suppression is written.
    pub span: proc_macro2::Span,
}

impl FromMeta for AllowAttrs {
    fn from_list(items: &[NestedMeta]) -> darling::Result<AllowAttrs> {
        let mut rule = None;
        let mut reason = None;
        let mut errors = darling::Error::accumulator();
        for item in items {
            match item {
                NestedMeta::Meta(syn::Meta::Path(path)) if rule.is_none() => {
                    rule = Some((path_text(path), path.span()));
                }
                NestedMeta::Lit(syn::Lit::Str(s)) if rule.is_none() => {
                    rule = Some((s.value(), s.span()));
                }
                NestedMeta::Meta(syn::Meta::NameValue(nv)) if nv.path.is_ident("reason") => {
                    match &nv.value {
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(s),
                            ..
                        }) => reason = Some(s.value()),
                        other => errors.push(
                            darling::Error::custom("`reason` must be a string literal")
                                .with_span(other),
                        ),
                    }
                }
                other => errors.push(
                    darling::Error::custom(
                        "expected `allow(RULE, reason = \"…\")` with one rule code or name",
                    )
                    .with_span(other),
                ),
            }
        }
        errors.finish()?;
        let (rule, span) = rule.ok_or_else(|| {
            darling::Error::custom(
                "`allow` needs a rule code or name: `allow(RULE, reason = \"…\")`",
            )
        })?;
        Ok(AllowAttrs { rule, reason, span })
    }
}

fn path_text(path: &syn::Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

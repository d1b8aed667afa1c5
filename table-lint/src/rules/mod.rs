//! The rules: one file each, with its code, name, default level, documentation and check.
//!
//! Codes are stable and never reused: `TK0xx` for designs, `TK1xx` for `$filter` strings,
//! `TK9xx` for the linter's own findings about its input, `TD0xx` for the data of live tables
//! (`table-lint data`, in [`data`]).

use proc_macro2::Span;
use table_derive_internals::Design;
use table_runtime::query::{CompareOp, Expr, Filter, QueryPlan, Target};

use crate::config::RuleOptions;
use crate::diagnostic::{Diagnostic, Position};
use crate::lint::{DesignSummary, FilterSummary};

pub mod colliding_row_keys;
pub mod constant_partition_key;
pub mod data;
pub mod delete_by_scan;
pub mod entity_too_large;
pub mod eq_null;
pub mod filter_type_mismatch;
pub mod forbidden_key_literal;
pub mod hash_bucket_lookup;
pub mod invalid_design;
pub mod key_only_property;
pub mod key_too_long;
pub mod keys;
pub mod log_data_partition;
pub mod low_cardinality_partition_key;
pub mod missing_discriminator;
pub mod ne_on_key;
pub mod ne_on_optional;
pub mod number_as_text_ranged;
pub mod or_on_row_key;
pub mod personal_name_key;
pub mod property_name_case;
pub mod property_only_partition_filter;
pub mod random_row_key_ordered;
pub mod random_row_key_range;
pub mod suppression_without_reason;
pub mod table_scan_filter;
pub mod text_segment_separator;
pub mod time_leading_partition_key;
pub mod time_only_partition_key;
pub mod time_row_key_without_tie_breaker;
pub mod unique_partition_key;
pub mod unmaintained_index;
pub mod unparsable_filter;
pub mod unparsable_source;
pub mod unsortable_number;
pub mod unsortable_time;
pub mod unused_suppression;

/// How a rule's findings are reported, set per rule in the configuration.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Not reported.
    Allow,
    /// Reported as a note.
    Note,
    /// Reported as a warning.
    Warn,
    /// Reported as an error: the run fails.
    Deny,
}

impl Level {
    /// The word used in configuration and listings.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Note => "note",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }
}

/// A check over every design of the run; each finding names its design by index.
pub type DesignsCheck =
    fn(&[DesignSummary], &RuleOptions, &crate::lint::RowOverlaps, &mut Vec<(usize, Finding)>);

/// A check over the statistics of a live table's data.
pub type DataCheck = fn(&crate::data::DataContext<'_>, &mut Vec<crate::data::DataFinding>);

/// What a rule looks at.
pub enum Check {
    /// One entity design at a time.
    Entity(fn(&EntityContext<'_>, &mut Vec<Finding>)),
    /// Every design of the run together (rules about several entities sharing a table); a
    /// finding names the design it is about by its index.
    Designs(DesignsCheck),
    /// One parsed `$filter` at a time.
    Filter(fn(&FilterContext<'_>, &mut Vec<Finding>)),
    /// The data of a live table (`table-lint data`).
    Data(DataCheck),
    /// Reported by the linter itself while reading its input.
    Builtin,
}

/// A rule's identity, documentation and check.
pub struct Rule {
    /// Stable code, `TK001`.
    pub code: &'static str,
    /// Kebab-case name, `constant-partition-key`.
    pub name: &'static str,
    /// The level when the configuration says nothing.
    pub default_level: Level,
    /// The pattern or anti-pattern of the design guides the rule is about, named in every
    /// finding (`hot partition`, `prepend/append anti-pattern`).
    pub pattern: &'static str,
    /// One line: what it flags.
    pub summary: &'static str,
    /// The documentation: what it flags, why it is bad, an example, the fix, and the pattern or
    /// anti-pattern of the design guides it comes from (Markdown).
    pub docs: &'static str,
    /// The thresholds it reads from the configuration.
    pub options: &'static [RuleOption],
    /// The check.
    pub check: Check,
}

/// A threshold a rule reads from the configuration.
pub struct RuleOption {
    /// The key in the rule's table.
    pub name: &'static str,
    /// What it sets, and its default.
    pub doc: &'static str,
}

/// The option of the rules that weigh a load against one partition (TK001, TK003, TK016).
pub const PARTITION_WRITES: RuleOption = RuleOption {
    name: "partition_writes_per_second",
    doc: "what one partition takes, in entities a second (default 2000)",
};

/// What a design's declared peak write rate says of one partition taking all its writes: when
/// it declares one (`#[table(load(writes_per_second = N))]`) at most the partition's rate
/// ([`PARTITION_WRITES`]), the sentence that makes a finding a note.
pub fn declared_writes_fit(
    design: &table_derive_internals::Design,
    options: &RuleOptions,
) -> Option<String> {
    let declared = design.load.writes_per_second?;
    let per_partition = options.usize(PARTITION_WRITES.name, 2000) as u64;
    (declared <= per_partition).then(|| {
        format!(
            "the design declares at most {declared} writes a second (`load(writes_per_second = {declared})`), which one partition takes (about {per_partition} entities a second): a risk to note should the load grow"
        )
    })
}

/// The most entities one page of a query's answer holds: a table or partition of at most this
/// many rows is read whole in one request.
pub const PAGE_ROWS: u64 = 1000;

/// The enum a field's type names and how many variants it has, when the file declares that
/// enum with unit variants only.
pub fn enum_variants<'e>(
    design: &Design,
    enums: &'e [(String, usize)],
    field: &str,
) -> Option<(&'e str, u64)> {
    let f = design.field(field)?;
    if !matches!(f.kind.value(), table_derive_internals::ast::TypeKind::Other) {
        return None;
    }
    let ty = quote::ToTokens::to_token_stream(&f.ty).to_string();
    let name = ty.rsplit("::").next().unwrap_or(&ty).trim();
    enums
        .iter()
        .find(|(e, _)| e == name)
        .map(|(e, n)| (e.as_str(), *n as u64))
}

/// The most rows one partition of `design` can hold, by its RowKey's key space: when every
/// placeholder is an integer with a bounded number of values, or an enum the file declares
/// (`RANK_{rank:03}` is at most 1,000 rows). `None` when the RowKey takes unbounded values (a
/// string, a time, a GUID) or names no field the model can read.
pub fn rows_per_partition(design: &Design, enums: &[(String, usize)]) -> Option<u128> {
    let space =
        table_derive_internals::keyspace::KeySpace::new(design, &design.row_key.template).ok()?;
    space.count(|segment| {
        let field = segment.field.as_deref()?;
        enum_variants(design, enums, field).map(|(_, n)| u128::from(n))
    })
}

/// The PartitionKey every row of the queried table is written under, when the code shows the
/// table and its designs write all their rows (the entity's and each index copy's) under one
/// and the same constant PartitionKey.
pub fn only_partition(ctx: &FilterContext<'_>) -> Option<String> {
    let mut only: Option<String> = None;
    for d in ctx.tables {
        // A row the model can't describe could be written anywhere.
        if d.rows.len() != 1 + d.indexes.len() {
            return None;
        }
        for (_, partition, _) in &d.rows {
            let key = partition.constant()?;
            match &only {
                Some(k) if *k != key => return None,
                _ => only = Some(key),
            }
        }
    }
    only
}

/// What an entity rule sees.
pub struct EntityContext<'a> {
    /// The design.
    pub design: &'a Design,
    /// The rule's options from the configuration.
    pub options: &'a RuleOptions,
    /// What the design's file says around it.
    pub file: &'a FileFacts,
}

/// What a design's file says beyond the design: the enums it declares, whether it inserts.
#[derive(Debug, Clone, Default)]
pub struct FileFacts {
    /// Enums of unit variants, with how many variants each has.
    pub enums: Vec<(String, usize)>,
    /// Whether the file inserts entities.
    pub inserts: bool,
    /// The designs the file inserts through their typed tables.
    pub inserted: Vec<String>,
    /// Whether the file inserts through something whose design it can't tell.
    pub inserts_untyped: bool,
    /// The designs the file reads by key through their typed tables (`table.get(key)`).
    pub got: Vec<String>,
    /// Whether the file writes entities in any way (inserts, upserts, updates, batches).
    pub writes: bool,
    /// The designs the file keeps through a `LargeTable` (their large values go to blobs).
    pub large: Vec<String>,
    /// What the file orders values by in memory: the method (`sort_by_key`, `max_by_key`, ...)
    /// and the field its closure reads.
    pub ordered_by: Vec<(String, String)>,
    /// The queries of the file, with the tables the code around them names.
    pub reads: Vec<Read>,
    /// Whether the file declares designs and they all have one table: a query that names no
    /// table runs on it (as the filter rules judge such a query against the file's designs).
    pub one_table: bool,
}

/// A query the code sends.
#[derive(Debug, Clone)]
pub struct Read {
    /// Its filter (empty for `Query::all()`).
    pub filter: String,
    /// The tables the code around it names.
    pub tables: Vec<crate::scan::TableHint>,
    /// Whether the code limits it to its first rows (`.top(n)`).
    pub limited: bool,
    /// Which keys' order what it returns depends on ([`depends_on_order`]).
    pub ordered: Order,
    /// Its filter, parsed once when the file's facts are built (`None` for `Query::all()` and
    /// for a filter that does not parse).
    pub parsed: Option<Filter>,
    /// When the code names no table and the file declares several designs: the one design
    /// that stores every property the filter tests besides the keys, if only one does.
    pub owner: Option<String>,
}

impl FileFacts {
    /// Whether the file inserts `design`'s entities: through its typed table, or through
    /// something whose design it can't tell (which may be any design of the file).
    pub fn inserts_into(&self, design: &table_derive_internals::Design) -> bool {
        self.inserts_untyped || self.inserted.iter().any(|d| design.ident == d.as_str())
    }
}

impl Read {
    /// Whether this read runs on `design`'s table: the code names it; or names no table, and
    /// the filter tests properties only this design of the file stores, or (no such design)
    /// the file's designs all have one table.
    pub fn reads(&self, design: &table_derive_internals::Design, facts: &FileFacts) -> bool {
        if self.tables.is_empty() {
            return match &self.owner {
                Some(owner) => design.ident == owner.as_str(),
                None => facts.one_table,
            };
        }
        self.tables.iter().any(|hint| match hint {
            crate::scan::TableHint::Design(ident) => design.ident == ident.as_str(),
            crate::scan::TableHint::Name(name) => name.eq_ignore_ascii_case(&design.table),
        })
    }
}

/// Which keys' order what a read returns depends on ([`depends_on_order`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Order {
    /// The PartitionKeys': the read ranges over them, or takes its first rows.
    pub partitions: bool,
    /// The RowKeys': the read ranges over them, or takes its first rows. A read of whole
    /// partitions (one, or a range of them) returns each partition's every row, whatever their
    /// order.
    pub rows: bool,
}

/// Which keys' order what a read returns depends on: each key its filter (`text`, parsed as
/// `parsed`) ranges over, anything but one value or every value; and when the read takes the
/// first rows (`limited`), each key it does not fix to one value (the first rows of one
/// partition depend on the RowKeys' order, not the PartitionKeys'). A filter that does not
/// parse is taken to depend on both.
pub fn depends_on_order(limited: bool, text: &str, parsed: Option<&Filter>) -> Order {
    let both = Order {
        partitions: true,
        rows: true,
    };
    if text.is_empty() {
        return if limited { both } else { Order::default() };
    }
    let Some(filter) = parsed else {
        return both;
    };
    let plan = filter.plan();
    let point = |r: &table_runtime::query::KeyRange| {
        matches!((&r.lower, &r.upper),
            (std::ops::Bound::Included(a), std::ops::Bound::Included(b)) if a == b)
    };
    let ranged = |r: &table_runtime::query::KeyRange| {
        let open = r.lower == std::ops::Bound::Unbounded && r.upper == std::ops::Bound::Unbounded;
        !point(r) && (limited || !open)
    };
    Order {
        partitions: ranged(&plan.partitions),
        rows: ranged(&plan.rows),
    }
}

/// The plan of one branch of a filter's expression (a side of an `or`), as the service would
/// plan that branch alone.
pub fn branch_plan(filter: &Filter, expr: &Expr) -> QueryPlan {
    Filter {
        expr: expr.clone(),
        properties: filter.properties.clone(),
        text: String::new(),
    }
    .plan()
}

/// What a filter rule sees.
pub struct FilterContext<'a> {
    /// Where the filter is written.
    pub site: &'a FilterSummary,
    /// The parsed filter.
    pub filter: &'a Filter,
    /// Its plan.
    pub plan: &'a QueryPlan,
    /// The rule's options.
    pub options: &'a RuleOptions,
    /// The designs the query's program can meet ([`crate::scope::Scope::meets`]), whatever
    /// their table.
    pub program: &'a [&'a DesignSummary],
    /// The designs of the table the code runs the query on, when it shows which (in a
    /// program where they can meet the query); empty when unknown.
    pub tables: &'a [&'a DesignSummary],
}

impl FilterContext<'_> {
    /// `` `p` `` for the single partition the filter fixes, with a leading space; empty if none.
    pub fn partition_label(&self) -> String {
        self.plan
            .partitions
            .single()
            .map(|p| format!(" `{p}`"))
            .unwrap_or_default()
    }

    /// The properties the filter fixes with `eq` in its top-level `and`s.
    pub fn equalities(&self) -> Vec<&str> {
        fn walk<'f>(e: &Expr, props: &'f [String], out: &mut Vec<&'f str>) {
            match e {
                Expr::And(a, b) => {
                    walk(a, props, out);
                    walk(b, props, out);
                }
                Expr::Compare {
                    target: Target::Property(i),
                    op: CompareOp::Eq,
                    ..
                } => out.extend(props.get(*i).map(String::as_str)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(&self.filter.expr, &self.filter.properties, &mut out);
        out
    }

    /// Help that names the best generated query of a design of the queried table that answers
    /// what this filter fixes (`Employee::by_email_point_query(department, email)`) and its
    /// class: a query whose every argument the filter fixes comes first, then one that needs
    /// only the partition's fields besides; point queries before ranges before partition scans.
    /// When the query takes arguments the filter does not give, the help says which:
    /// `partition_query(user_id, conversation_id)` answers a filter of `userId` only once
    /// `conversation_id` is known too.
    pub fn generated_query_help(&self) -> Option<String> {
        let (_, call, class, missing) = self.best_generated_query()?;
        Some(if missing.is_empty() {
            format!("`{call}` answers this as a {class}")
        } else {
            let missing: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
            format!(
                "`{call}` answers this as a {class} when {} {} known too, which this filter does not give; otherwise keep an index copy keyed by what you search for",
                missing.join(" and "),
                if missing.len() == 1 { "is" } else { "are" }
            )
        })
    }

    /// The generated query of [`Self::generated_query`] when the filter fixes every argument it
    /// takes (a partition's fields by `PartitionKey eq`): the same rows, asked by key.
    pub fn complete_generated_query(&self) -> Option<(String, &'static str)> {
        self.best_generated_query()
            .filter(|(_, _, _, missing)| missing.is_empty())
            .map(|(_, call, class, _)| (call, class))
    }

    /// The best generated query: its rank, call, class and how many arguments the filter
    /// leaves unknown.
    fn best_generated_query(&self) -> Option<(usize, String, &'static str, Vec<String>)> {
        self.best_generated_query_among(self.tables)
    }

    /// When the code does not show the table: the designs of the program whose every
    /// PartitionKey field the filter fixes by `eq` on the property that field is stored as
    /// (`TeamId eq …` beside `partition_key = "{team_id}"`), each with the generated query that
    /// reads the same rows of that design from its one partition, as a call.
    pub fn partition_fixed_by_properties(&self) -> Vec<(&DesignSummary, String)> {
        if !self.tables.is_empty() {
            return Vec::new();
        }
        let fixed = self.equalities();
        self.program
            .iter()
            .copied()
            .filter(|d| {
                !d.partition_fields.is_empty()
                    && d.partition_fields.iter().all(|field| {
                        d.fields
                            .iter()
                            .any(|f| &f.field == field && fixed.contains(&f.property.as_str()))
                    })
            })
            .filter_map(|d| {
                let (_, call, _, missing) = self.best_generated_query_among(&[d])?;
                missing.is_empty().then_some((d, call))
            })
            .collect()
    }

    /// [`Self::best_generated_query`] among `designs`.
    fn best_generated_query_among(
        &self,
        designs: &[&DesignSummary],
    ) -> Option<(usize, String, &'static str, Vec<String>)> {
        let fixed = self.equalities();
        let partition_fixed = self.plan.partitions.single().is_some();
        let mut best: Option<(usize, String, &'static str, Vec<String>)> = None;
        for design in designs {
            let known: Vec<&str> = fixed
                .iter()
                .filter_map(|p| design.property(p).map(|f| f.field.as_str()))
                .collect();
            if known.is_empty() {
                continue;
            }
            for spec in &design.queries {
                let needs: Vec<&str> = spec.fields.iter().map(String::as_str).collect();
                if !known.iter().any(|k| needs.contains(k)) {
                    continue;
                }
                let missing: Vec<&str> = needs
                    .iter()
                    .copied()
                    .filter(|n| {
                        let in_fixed_partition =
                            partition_fixed && design.partition_fields.iter().any(|p| p == n);
                        !(known.contains(n) || in_fixed_partition)
                    })
                    .collect();
                let class_rank = match spec.class {
                    "point query" => 0,
                    "range query" => 1,
                    _ => 2,
                };
                let rank = missing.len() * 4 + class_rank;
                if best.as_ref().is_none_or(|(r, _, _, _)| rank < *r) {
                    best = Some((
                        rank,
                        format!("{}::{}({})", design.ident, spec.method, needs.join(", ")),
                        spec.class,
                        missing.iter().map(|m| (*m).to_owned()).collect(),
                    ));
                }
            }
        }
        best
    }

    /// The user properties the filter names (once each) that no design of the queried table
    /// stores; none when the table is unknown.
    pub fn unstored_properties(&self) -> impl Iterator<Item = &String> {
        self.filter.properties.iter().filter(|name| {
            !self.tables.is_empty() && !self.tables.iter().any(|d| d.property(name).is_some())
        })
    }

    /// A finding on the filter's literal.
    pub fn finding(&self, message: impl Into<String>, help: impl Into<String>) -> Finding {
        Finding::at(self.site.start, self.site.end, message, help)
    }
}

/// One finding of a rule, before levels and suppressions apply.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Where the culprit starts.
    pub start: Position,
    /// Where it ends.
    pub end: Position,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Reported at most as a note, whatever the rule's level (a risk rather than a defect).
    pub note: bool,
}

impl Finding {
    /// The same finding, reported at most as a note.
    pub fn as_note(mut self) -> Finding {
        self.note = true;
        self
    }

    /// A finding with a message and a help line.
    pub fn new(span: Span, message: impl Into<String>, help: impl Into<String>) -> Finding {
        let (start, end) = Diagnostic::span_positions(span);
        Finding::at(start, end, message, help)
    }

    /// A finding at known positions.
    pub fn at(
        start: Position,
        end: Position,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> Finding {
        Finding {
            start,
            end,
            message: message.into(),
            help: Some(help.into()),
            note: false,
        }
    }
}

/// Every rule, in code order.
pub fn all() -> &'static [&'static Rule] {
    static RULES: &[&Rule] = &[
        &invalid_design::RULE,
        &constant_partition_key::RULE,
        &unique_partition_key::RULE,
        &time_only_partition_key::RULE,
        &random_row_key_ordered::RULE,
        &unsortable_number::RULE,
        &unsortable_time::RULE,
        &forbidden_key_literal::RULE,
        &text_segment_separator::RULE,
        &key_too_long::RULE,
        &entity_too_large::RULE,
        &colliding_row_keys::RULE,
        &missing_discriminator::RULE,
        &unmaintained_index::RULE,
        &log_data_partition::RULE,
        &time_leading_partition_key::RULE,
        &low_cardinality_partition_key::RULE,
        &time_row_key_without_tie_breaker::RULE,
        &personal_name_key::RULE,
        &unparsable_filter::RULE,
        &table_scan_filter::RULE,
        &or_on_row_key::RULE,
        &ne_on_key::RULE,
        &property_only_partition_filter::RULE,
        &ne_on_optional::RULE,
        &eq_null::RULE,
        &number_as_text_ranged::RULE,
        &delete_by_scan::RULE,
        &hash_bucket_lookup::RULE,
        &random_row_key_range::RULE,
        &filter_type_mismatch::RULE,
        &property_name_case::RULE,
        &key_only_property::RULE,
        &unparsable_source::RULE,
        &unused_suppression::RULE,
        &suppression_without_reason::RULE,
        &data::partition_skew::RULE,
        &data::write_heat::RULE,
        &data::newest_partition_takes_writes::RULE,
        &data::unpadded_numbers::RULE,
        &data::mixed_case_keys::RULE,
        &data::guid_keys_ranged::RULE,
        &data::awkward_key_characters::RULE,
        &data::undiscriminated_types::RULE,
        &data::keys_outside_design::RULE,
        &data::property_drift::RULE,
        &data::index_copy_drift::RULE,
    ];
    RULES
}

/// Whether a property's name says what a row is: `Kind`, `EntityType`, `Category`,
/// `Discriminator`, a name ending in `type` or `kind` (compared without case), or the runtime's
/// index-copy marker. TK012 takes such a property, stored by two designs, as their
/// discriminator; `table-lint data` reads it to tell property shapes apart.
pub fn says_row_type(name: &str) -> bool {
    let ends_with = |suffix: &str| {
        name.len() >= suffix.len()
            && name.as_bytes()[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
    };
    ends_with("type")
        || ends_with("kind")
        || name.eq_ignore_ascii_case("discriminator")
        || name.eq_ignore_ascii_case("category")
        || name.eq_ignore_ascii_case(table_runtime::index::INDEX_NAME_PROPERTY)
}

/// The words of a name, split at `_`, digits and case changes (`NLogTable` is `N`, `Log`,
/// `Table`; `AzureWebJobsHostLogs` ends with `Logs`), lowercased.
pub fn name_words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphabetic() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_ascii_uppercase()
            && prev.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
            });
        if boundary && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        word.push(c.to_ascii_lowercase());
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Whether one of `words` is a whole word of `name` (see [`name_words`]).
pub fn has_word(name: &str, words: &[&str]) -> bool {
    name_words(name).iter().any(|w| words.contains(&w.as_str()))
}

/// Whether a field is an instant kept as an integer count since an epoch: an integer whose
/// name says so (`at_ms`, `created_millis`, `epoch_seconds`, `unix_time`, `timestamp`), as
/// `Date.now()` or `time.time()` write it.
pub fn epoch_integer(design: &Design, field: &str) -> bool {
    use table_derive_internals::ast::TypeKind;
    design
        .field(field)
        .is_some_and(|f| matches!(f.kind.value(), TypeKind::Integer { .. }))
        && names_epoch_count(field)
}

/// [`epoch_integer`] for a design's summary: the field `field` is an integer named as a count
/// since an epoch.
pub fn summary_epoch_integer(design: &DesignSummary, field: &str) -> bool {
    use table_derive_internals::ast::TypeKind;
    design
        .key_field(field)
        .or_else(|| design.fields.iter().find(|f| f.field == field))
        .is_some_and(|f| matches!(f.kind.value(), TypeKind::Integer { .. }))
        && names_epoch_count(field)
}

/// Whether a name says it counts time units since an epoch (`at_ms`, `epoch_seconds`).
fn names_epoch_count(field: &str) -> bool {
    has_word(
        field,
        &[
            "ms",
            "millis",
            "milliseconds",
            "epoch",
            "unix",
            "timestamp",
            "ts",
            // .NET ticks: 100 ns since 0001-01-01 (`event_ticks`, `UtcTicks`).
            "ticks",
        ],
    )
}

/// Whether a name says it holds a time: one of its words ([`name_words`]) is `timestamp`,
/// `time` or `at`, or one of the words a rule adds for the times it looks for (`expires` for
/// data that ages out, `created` for a moment a row records).
pub fn names_a_time(name: &str, more: &[&str]) -> bool {
    let words = name_words(name);
    words
        .iter()
        .any(|w| ["timestamp", "time", "at"].contains(&w.as_str()) || more.contains(&w.as_str()))
}

/// Whether `field`'s name says it is the entity's own id: `id`, `guid`, `uuid`, `row_id`,
/// `entity_id`, or the struct's name with `_id` (`message_id` on `Message` or `MessageEntity`).
pub fn named_own_identity(design: &DesignSummary, field: &str) -> bool {
    names_own_identity(&design.ident, field)
}

/// [`named_own_identity`] by the struct's name: whether `field` is named as the own id of the
/// struct `ident`.
pub fn names_own_identity(ident: &str, field: &str) -> bool {
    let name = field.to_ascii_lowercase();
    let own = |stem: &str| {
        ["id", "guid", "uuid"]
            .iter()
            .any(|suffix| name == format!("{stem}_{suffix}"))
    };
    let ident = snake_name(ident);
    let stem = ident.strip_suffix("_entity").unwrap_or(&ident);
    matches!(name.as_str(), "id" | "guid" | "uuid") || own("row") || own("entity") || own(stem)
}

/// A struct's name in snake case, as its fields would name it: `MessageEntity` is
/// `message_entity`.
pub fn snake_name(ident: &str) -> String {
    name_words(ident).join("_")
}

/// The part of a date an integer field's name says it holds (`year`, `event_month`, `day`),
/// past a trailing `_number` or `_of_…`: a key written from a date's parts
/// (`{year:04}-{month:02}-{day:02}`) is the date it spells. A name that holds the year before
/// the part (`year_month`, `202405`) is a date with its year: `year`.
pub fn calendar_part(design: &Design, field: &str) -> Option<&'static str> {
    use table_derive_internals::ast::TypeKind;
    let f = design.field(field)?;
    if !matches!(f.kind.value(), TypeKind::Integer { .. }) {
        return None;
    }
    let words = name_words(field);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let words = match words.iter().position(|w| *w == "of") {
        Some(at) => &words[..at],
        None => &words[..],
    };
    let (last, before) = match words {
        [before @ .., w, "number" | "num" | "no"] => (*w, before),
        [before @ .., w] => (*w, before),
        [] => return None,
    };
    let part = ["year", "quarter", "month", "week", "day", "hour", "minute"]
        .into_iter()
        .find(|p| *p == last)?;
    // `year_month`, `year_week`: the year comes with the part, so the value is a date (of one
    // width, `202405`), not a part that comes round.
    Some(if before.contains(&"year") {
        "year"
    } else {
        part
    })
}

/// Whether a placeholder of `template` stands for a point in time: a time format, a time field,
/// an integer count since an epoch ([`epoch_integer`]: `{at_unix_seconds:019}`), or a part of a
/// date in a template that also holds the year (parts without a year repeat every year:
/// `{month}` alone is twelve values, not a moment).
pub fn is_time_placeholder(
    design: &Design,
    template: &table_derive_internals::template::Template,
    field: &str,
    format: table_derive_internals::template::SegmentFormat,
) -> bool {
    use table_derive_internals::ast::TypeKind;
    if format.is_time()
        || design
            .field(field)
            .is_some_and(|f| *f.kind.value() == TypeKind::Time)
        || epoch_integer(design, field)
    {
        return true;
    }
    calendar_part(design, field).is_some()
        && template
            .placeholders()
            .any(|(f, _)| calendar_part(design, f) == Some("year"))
}

/// A field of the design that could lead a PartitionKey and spread its load, for help text that
/// names what the struct in front of the reader has: a field (a string, GUID or integer, not
/// optional, not skipped, not in `exclude`) whose name says whose or where the data is
/// (tenant, customer, account, user, device, …), else the first field named like an id of
/// something (`owner_id`; not a bare `id`). Never a field of the RowKey: that one names the row,
/// and a PartitionKey of it would hold one entity. `None` when the struct has no such field; the
/// help then describes one in words.
pub fn spreading_field(
    design: &table_derive_internals::Design,
    exclude: &[&str],
) -> Option<String> {
    use table_derive_internals::ast::TypeKind;
    const OWNERS: [&str; 23] = [
        "tenant",
        "customer",
        "account",
        "device",
        "sensor",
        "source",
        "service",
        "host",
        "machine",
        "app",
        "component",
        "role",
        "node",
        "client",
        "user",
        "owner",
        "org",
        "company",
        "store",
        "shop",
        "player",
        "session",
        "project",
    ];
    let candidates: Vec<String> = design
        .fields
        .iter()
        .filter(|f| {
            !f.skip
                && matches!(
                    f.kind,
                    TypeKind::String | TypeKind::Uuid | TypeKind::Integer { .. }
                )
        })
        .map(|f| f.ident.to_string())
        .filter(|name| {
            !exclude.contains(&name.as_str())
                && !design
                    .row_key
                    .template
                    .placeholders()
                    .any(|(f, _)| f == name)
        })
        .collect();
    let lower = |name: &str| name.to_ascii_lowercase();
    OWNERS
        .iter()
        .find_map(|w| candidates.iter().find(|n| lower(n).contains(w)))
        .or_else(|| {
            candidates.iter().find(|n| {
                let n = lower(n);
                n.ends_with("_id") || n.ends_with("id") && n.len() > 2
            })
        })
        .cloned()
}

/// The rule with this code or name (case-insensitive).
pub fn find(code_or_name: &str) -> Option<&'static Rule> {
    all().iter().copied().find(|r| {
        r.code.eq_ignore_ascii_case(code_or_name) || r.name.eq_ignore_ascii_case(code_or_name)
    })
}

/// What the rule tests lint with: one file's findings of one rule.
#[cfg(test)]
pub(crate) fn findings_of(code: &str, text: &str) -> Vec<crate::diagnostic::Diagnostic> {
    let sources = vec![crate::source::SourceFile {
        path: "s.rs".into(),
        text: text.to_owned(),
    }];
    crate::lint::lint_sources(sources, &crate::config::Config::default())
        .diagnostics
        .into_iter()
        .filter(|d| d.code == code)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::spreading_field;

    /// A declared load that one partition takes (or rows that fit one page) turns the findings
    /// that weigh the load into notes; a larger one, or none, leaves them warnings.
    #[test]
    fn a_declared_load_is_weighed_against_one_partition() {
        use crate::diagnostic::Severity::{self, Note, Warning};
        let severity = |code: &str, design: &str, load: &str| -> Vec<Severity> {
            let text = format!(
                "#[derive(TableEntity)]\n{design}\n{load}\nstruct T {{ id: String, at: OffsetDateTime, level: Level, name: String }}\nenum Level {{ A, B }}\nfn q() -> Query {{ Query::filter(\"name eq 'x'\").unwrap() }}\n"
            );
            super::findings_of(code, &text)
                .iter()
                .map(|d| d.severity)
                .collect()
        };
        let constant = r#"#[table(name = "T", partition_key = "all", row_key = "{id}")]"#;
        let daily = r#"#[table(name = "T", partition_key = "{at:date}", row_key = "{id}")]"#;
        let levels = r#"#[table(name = "T", partition_key = "{level}", row_key = "{id}")]"#;
        let small = "#[table(load(writes_per_second = 5, rows = 300))]";
        let large = "#[table(load(writes_per_second = 50000, rows = 300000))]";
        assert_eq!(severity("TK001", constant, ""), [Warning]);
        assert_eq!(severity("TK001", constant, small), [Note]);
        assert_eq!(severity("TK001", constant, large), [Warning]);
        assert_eq!(severity("TK003", daily, ""), [Warning]);
        assert_eq!(severity("TK003", daily, small), [Note]);
        assert_eq!(severity("TK003", daily, large), [Warning]);
        // Two levels carry 4,000 writes a second: enough for 5, not for 50,000.
        assert_eq!(severity("TK016", levels, small), Vec::<Severity>::new());
        assert_eq!(severity("TK016", levels, large), [Warning]);
        // A scan of a table that holds at most 300 rows is one page.
        assert_eq!(severity("TK101", levels, ""), [Warning]);
        assert_eq!(severity("TK101", levels, small), [Note]);
        assert_eq!(severity("TK101", levels, large), [Warning]);
    }

    fn design(fields: &str) -> table_derive_internals::Design {
        let text = format!(
            "#[table(name = \"T\", partition_key = \"p\", row_key = \"{{id}}\")] struct T {{ {fields} }}"
        );
        let input: syn::DeriveInput = syn::parse_str(&text).unwrap();
        table_derive_internals::Design::from_derive_input(&input).unwrap()
    }

    /// The first rows of one partition depend on the RowKeys' order only; the first rows of a
    /// filter that fixes no key depend on both orders; a range depends on its key's order.
    #[test]
    fn the_order_a_read_depends_on() {
        let order = |limited: bool, text: &str| {
            let parsed = table_runtime::query::Filter::parse(text).ok();
            let o = super::depends_on_order(limited, text, parsed.as_ref());
            (o.partitions, o.rows)
        };
        assert_eq!(order(true, "PartitionKey eq 'a'"), (false, true));
        assert_eq!(
            order(true, "PartitionKey eq 'a' and RowKey eq 'b'"),
            (false, false)
        );
        assert_eq!(order(true, "Name eq 'x'"), (true, true));
        assert_eq!(order(true, ""), (true, true));
        assert_eq!(order(false, "PartitionKey eq 'a'"), (false, false));
        assert_eq!(
            order(false, "PartitionKey ge 'a' and PartitionKey lt 'b'"),
            (true, false)
        );
        assert_eq!(order(false, ""), (false, false));
    }

    /// A part of a date with the year before it is a date that only grows, like a year.
    #[test]
    fn a_year_and_month_is_a_date_with_its_year() {
        let text = "#[table(name = \"T\", partition_key = \"p\", row_key = \"{id}\")] struct T { id: String, year_month: u32, month: u8, month_of_year: u8, birth_year: u16 }";
        let input: syn::DeriveInput = syn::parse_str(text).unwrap();
        let design = table_derive_internals::Design::from_derive_input(&input).unwrap();
        let part = |f: &str| super::calendar_part(&design, f);
        assert_eq!(part("year_month"), Some("year"));
        assert_eq!(part("birth_year"), Some("year"));
        assert_eq!(part("month"), Some("month"));
        assert_eq!(part("month_of_year"), Some("month"));
        assert_eq!(part("id"), None);
    }

    #[test]
    fn the_suggested_field_is_one_the_struct_has() {
        let d = design("id: u32, total: i64, customer_id: String, at: time::OffsetDateTime");
        assert_eq!(spreading_field(&d, &[]).as_deref(), Some("customer_id"));
        // Not the RowKey's field, not a bare `id`.
        let d = design("id: u32, user_id: u32");
        assert_eq!(spreading_field(&d, &["user_id"]), None);
        // An owner's field comes before an id of the row itself.
        let d = design("order_id: u32, device_name: String");
        assert_eq!(spreading_field(&d, &[]).as_deref(), Some("device_name"));
        // Without an owner, any id the caller doesn't exclude.
        assert_eq!(
            spreading_field(&d, &["device_name"]).as_deref(),
            Some("order_id")
        );
        // Times, floats, flags, bytes and optional fields can't lead a key.
        let d = design(
            "id: u32, at: time::OffsetDateTime, score: f64, ok: bool, user_id: Option<String>",
        );
        assert_eq!(spreading_field(&d, &[]), None);
    }
}

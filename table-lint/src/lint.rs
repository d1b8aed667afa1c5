//! The engine: reads and checks files in parallel (syntax trees stay on the thread that parsed
//! them), then runs the rules that compare designs or read filters across files, applies levels
//! and suppressions, and returns the findings in file and line order.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};

use rustc_hash::FxHashSet;
use std::sync::Arc;
use table_derive_internals::keyspace::KeySpace;
use table_derive_internals::overlap;

use table_derive_internals::check::ProblemKind;
use table_derive_internals::template::Part;
use table_runtime::query::Filter;

use crate::config::Config;
use crate::diagnostic::{Diagnostic, Position, Severity};
use crate::rules::{self, Check, EntityContext, FilterContext, Finding, Level, Rule};
use crate::scan::{self, Scan};
use crate::source::{self, SourceFile};

/// The outcome of a run.
#[derive(Debug, Default)]
pub struct Report {
    /// Findings, sorted by file, line, column and code.
    pub diagnostics: Vec<Diagnostic>,
    /// Files linted.
    pub files: usize,
    /// The text of every file with a finding, for renderers that quote the source.
    pub sources: BTreeMap<PathBuf, Arc<String>>,
}

impl Report {
    /// Whether any finding is an error (exit status 1).
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// A declared index copy, as the checks of indexes read it.
#[derive(Debug, Clone)]
pub struct IndexSummary {
    /// Its name.
    pub name: String,
    /// Whether it is declared `eventual`.
    pub eventual: bool,
    /// Whether it shares the entity's partition (the entity's transaction can write it).
    pub same_partition: bool,
    /// Its PartitionKey template, when it has one of its own.
    pub partition_key: Option<String>,
    /// Where its name is written.
    pub name_at: (Position, Position),
}

/// The fields a key template writes as unpadded integers (`{n:unpadded}`).
fn unpadded_fields(template: &table_derive_internals::template::Template) -> Vec<String> {
    template
        .placeholders()
        .filter(|(_, format)| *format == table_derive_internals::template::SegmentFormat::Unpadded)
        .map(|(field, _)| field.to_owned())
        .collect()
}

/// A design, reduced to plain data that can leave the thread that parsed it.
#[derive(Debug, Clone)]
pub struct DesignSummary {
    /// The file.
    pub file: PathBuf,
    /// The struct's name.
    pub ident: String,
    /// Where the struct's name is.
    pub start: Position,
    /// Its end.
    pub end: Position,
    /// The table.
    pub table: String,
    /// The PartitionKey template.
    pub partition_key: String,
    /// The RowKey template.
    pub row_key: String,
    /// Where the PartitionKey template is written.
    pub partition_key_at: (Position, Position),
    /// Whether the PartitionKey's first field is a time, and its order: `Some(true)` when
    /// later times sort later, `Some(false)` for inverted ticks or Unix time (the newest
    /// first).
    pub partition_time_order: Option<bool>,
    /// Where the RowKey template is written.
    pub row_key_at: (Position, Position),
    /// Whether the RowKey template is a single literal.
    pub row_key_constant: bool,
    /// The `EntityType` discriminator.
    pub entity_type: Option<String>,
    /// Property names of `Option` fields (they may be absent).
    pub optional_properties: Vec<String>,
    /// Suppressions: rule, position, and whether a finding used it.
    pub allows: Vec<(String, Position, Position, bool)>,
    /// The program the design is part of ([`crate::scope`]): designs of programs that never
    /// run together are not compared.
    pub scope: crate::scope::Scope,
    /// Whether the struct is declared inside a `#[cfg(test)]` item (its crate's unit tests).
    pub unit_test: bool,
    /// The rows the design writes, as key spaces: the entity's (named `the entity`) and each
    /// index copy's (by index name), PartitionKey then RowKey. Keys the model can't describe
    /// are left out.
    pub rows: Vec<(String, KeySpace, KeySpace)>,
    /// The stored properties, with their fields and kinds.
    pub fields: Vec<FieldSummary>,
    /// The fields the entity's own PartitionKey and RowKey hold, stored or kept only in the key
    /// (`key_only`), with their kinds: what rules about a key's fields look up.
    pub key_fields: Vec<FieldSummary>,
    /// The fields in the PartitionKey template, in order.
    pub partition_fields: Vec<String>,
    /// The fields in the RowKey template, in order.
    pub row_fields: Vec<String>,
    /// Whether the RowKey can differ between two rows of one partition: it holds a field the
    /// PartitionKey doesn't, or one the PartitionKey holds only at a coarser grain (a day
    /// bucket in the PartitionKey, the instant in the RowKey).
    pub row_varies: bool,
    /// The declared index copies.
    pub indexes: Vec<IndexSummary>,
    /// Where the whole struct is.
    pub span_at: (Position, Position),
    /// The integer fields the PartitionKey writes unpadded (`{n:unpadded}`): text that holds a
    /// number.
    pub partition_unpadded: Vec<String>,
    /// The integer fields the RowKey writes unpadded.
    pub row_unpadded: Vec<String>,
    /// The typed queries the derive generates (method, class, filter with `{field}`s).
    pub queries: Vec<table_derive_internals::queries::QuerySpec>,
    /// The load the design declares (`#[table(load(…))]`).
    pub load: table_derive_internals::ast::Load,
    /// The fields kept only in the keys (`key_only`): field, the property name it would have,
    /// and the key that holds it (`RowKey`).
    pub key_only: Vec<(String, String, &'static str)>,
}

/// A stored property of a design.
#[derive(Debug, Clone)]
pub struct FieldSummary {
    /// The Rust field.
    pub field: String,
    /// The property name it is stored as.
    pub property: String,
    /// Its type's kind (inside an `Option` for optional fields).
    pub kind: table_derive_internals::ast::TypeKind,
    /// The most UTF-16 code units a string field holds, if declared (`max_len`).
    pub max_len: Option<usize>,
    /// The EDM type it is stored as, when the derive decides it (not a type of the user's own).
    pub edm: Option<table_derive_internals::edm::EdmType>,
}

impl DesignSummary {
    /// The stored property with this name.
    pub fn property(&self, name: &str) -> Option<&FieldSummary> {
        self.fields.iter().find(|f| f.property == name)
    }

    /// The field `field` of the entity's own keys, stored or `key_only`.
    pub fn key_field(&self, field: &str) -> Option<&FieldSummary> {
        self.key_fields.iter().find(|f| f.field == field)
    }

    /// The entity's own PartitionKey and RowKey key spaces (not an index copy's), when the
    /// model describes them.
    pub fn entity_keys(&self) -> Option<(&KeySpace, &KeySpace)> {
        self.rows
            .iter()
            .find(|(name, _, _)| name == ENTITY_ROW)
            .map(|(_, pk, rk)| (pk, rk))
    }
}

/// A field as the summary keeps it.
fn field_summary(f: &table_derive_internals::ast::Field) -> FieldSummary {
    FieldSummary {
        field: f.ident.to_string(),
        property: f.property.clone(),
        kind: f.kind.clone(),
        max_len: f.max_len,
        edm: match table_derive_internals::edm::Storage::of(f) {
            table_derive_internals::edm::Storage::Property { edm, .. } => edm,
            table_derive_internals::edm::Storage::Skipped
            | table_derive_internals::edm::Storage::KeyOnly => None,
        },
    }
}

/// The name [`DesignSummary::rows`] gives the entity's own row.
pub const ENTITY_ROW: &str = "the entity";

impl DesignSummary {
    /// Whether two structs are one entity type seen twice: the same `entity_type`, and the same
    /// key templates (a struct that reads or merges some of another's fields). Their rows are
    /// the same rows, so they neither collide nor need telling apart.
    pub fn same_entity_as(&self, other: &DesignSummary) -> bool {
        self.entity_type.is_some()
            && self.entity_type == other.entity_type
            && self.partition_key == other.partition_key
            && self.row_key == other.row_key
    }
}

/// What the rules across designs share, computed once per run: the pairs of designs that can
/// meet in one table ([`meeting_pairs`]), and whether a row of one design and a row of another
/// can be one key, searched on their key spaces at most once per run whichever rules ask
/// (collisions and discriminators ask the same), and once per distinct pair of key spaces:
/// designs that repeat one another's templates (copies in many crates, the same entity in
/// several binaries) share one search. The rules run on threads of their own: the answers are
/// read under a shared lock and a search is made with no lock held.
#[derive(Debug)]
pub struct RowOverlaps {
    pairs: Vec<(usize, usize)>,
    /// Each design's rows, as the numbers of their PartitionKey's and RowKey's key spaces
    /// (equal key spaces, equal numbers).
    rows: Vec<Vec<(u32, u32)>>,
    /// The answer for two rows' four key spaces.
    answers: std::sync::RwLock<FxHashMap<[u32; 4], Option<Arc<Overlap>>>>,
}

/// Two rows that can have one key: a witness, and how ordinary its free text is.
#[derive(Debug, Clone)]
pub struct Overlap {
    /// Values of both rows and the key they both write.
    pub witness: overlap::Witness,
    /// The most ordinary values that meet in the RowKey: [`overlap::Values::Ordinary`] when text
    /// meets text and numbers meet numbers (any data collides), [`overlap::Values::Plain`] when a
    /// text field must be written like a number, GUID or date of the other row, and
    /// [`overlap::Values::Any`] when it must spell a literal word of the other template.
    pub values: overlap::Values,
}

impl RowOverlaps {
    /// The run's shared facts about `designs`: its pairs and the numbers of its key spaces
    /// found now, its searches made when first asked.
    pub fn new(designs: &[DesignSummary]) -> RowOverlaps {
        let mut numbers: FxHashMap<&KeySpace, u32> = FxHashMap::default();
        let mut number = |space| {
            let next = u32::try_from(numbers.len()).unwrap_or(u32::MAX);
            *numbers.entry(space).or_insert(next)
        };
        let rows = designs
            .iter()
            .map(|d| {
                d.rows
                    .iter()
                    .map(|(_, pk, rk)| (number(pk), number(rk)))
                    .collect()
            })
            .collect();
        RowOverlaps {
            pairs: meeting_pairs(designs),
            rows,
            answers: std::sync::RwLock::default(),
        }
    }

    /// The pairs `(i, j)`, `i < j`, of designs that share a table and can meet in one program,
    /// ordered by `j` then `i` (see [`meeting_pairs`]).
    pub fn pairs(&self) -> &[(usize, usize)] {
        &self.pairs
    }

    /// A key row `ra` of design `i` and row `rb` of design `j` both write, if there is one,
    /// found with the most ordinary values that make one (partitions always meet with plain
    /// values: text that spells no literal of the templates).
    pub fn between(
        &self,
        designs: &[DesignSummary],
        (i, ra): (usize, usize),
        (j, rb): (usize, usize),
    ) -> Option<Arc<Overlap>> {
        let row = |d: usize, r: usize| self.rows.get(d).and_then(|rows| rows.get(r)).copied();
        let ((a_pk, a_rk), (b_pk, b_rk)) = (row(i, ra)?, row(j, rb)?);
        let spaces = [a_pk, a_rk, b_pk, b_rk];
        // A poisoned lock still holds sound answers: each is inserted whole.
        if let Some(answer) = self
            .answers
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&spaces)
        {
            return answer.clone();
        }
        // Searched with no lock held; two rules asking at once may both search, and find the
        // same answer.
        let answer = search(&designs[i].rows[ra], &designs[j].rows[rb]).map(Arc::new);
        self.answers
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(spaces, answer.clone());
        answer
    }
}

/// Whether two rows can have one key, with the most ordinary values that make one.
fn search(
    (_, a_pk, a_rk): &(String, KeySpace, KeySpace),
    (_, b_pk, b_rk): &(String, KeySpace, KeySpace),
) -> Option<Overlap> {
    use overlap::Values::{Any, Ordinary, Plain};
    let meet =
        |values: [overlap::Values; 2]| overlap::common_key(&[a_pk, a_rk], &[b_pk, b_rk], &values);
    // The widest search first: most pairs never meet, and that settles them.
    let any = meet([Plain, Any])?;
    if let Some(witness) = meet([Ordinary, Ordinary]) {
        return Some(Overlap {
            witness,
            values: Ordinary,
        });
    }
    Some(match meet([Plain, Plain]) {
        Some(witness) => Overlap {
            witness,
            values: Plain,
        },
        None => Overlap {
            witness: any,
            values: Any,
        },
    })
}

/// The pairs `(i, j)`, `i < j`, of designs that share a table (its name compared without case)
/// and can meet in one program, ordered by `j` then `i`. Designs are bucketed by package and
/// table first, so a run over thousands of designs never compares every one with every other.
pub fn meeting_pairs(designs: &[DesignSummary]) -> Vec<(usize, usize)> {
    use std::collections::HashMap;
    use std::ffi::OsStr;
    // Per package and table: the library's designs, and each other target's.
    type Targets<'a> = HashMap<&'a crate::scope::Target, Vec<usize>>;
    let mut buckets: HashMap<(Option<&OsStr>, String), Targets<'_>> = HashMap::new();
    for (i, d) in designs.iter().enumerate() {
        buckets
            .entry((
                d.scope.package.as_ref().map(|p| p.as_os_str()),
                d.table.to_ascii_lowercase(),
            ))
            .or_default()
            .entry(&d.scope.target)
            .or_default()
            .push(i);
    }
    let library = crate::scope::Target::Library;
    let mut pairs = Vec::new();
    let all_pairs = |members: &[usize], pairs: &mut Vec<(usize, usize)>| {
        for (n, &j) in members.iter().enumerate() {
            for &i in &members[..n] {
                pairs.push((i, j));
            }
        }
    };
    for targets in buckets.values() {
        let lib = targets.get(&library).map_or(&[][..], Vec::as_slice);
        for (target, members) in targets {
            all_pairs(members, &mut pairs);
            if **target != library {
                for &x in lib {
                    for &y in members {
                        pairs.push((x.min(y), x.max(y)));
                    }
                }
            }
        }
    }
    pairs.sort_by_key(|&(i, j)| (j, i));
    pairs
}

/// The key spaces of the rows a design writes: the entity's and its index copies'.
fn design_rows(design: &table_derive_internals::Design) -> Vec<(String, KeySpace, KeySpace)> {
    let mut members = vec![(
        ENTITY_ROW.to_owned(),
        &design.partition_key,
        &design.row_key,
    )];
    for index in &design.indexes {
        members.push((
            format!("index `{}`", index.name),
            index
                .partition_key
                .as_ref()
                .unwrap_or(&design.partition_key),
            &index.row_key,
        ));
    }
    members
        .into_iter()
        .filter_map(|(name, pk, rk)| {
            let pk = KeySpace::new(design, &pk.template).ok()?;
            let rk = KeySpace::new(design, &rk.template).ok()?;
            Some((name, pk, rk))
        })
        .collect()
}

/// A `$filter` string found in a file.
#[derive(Debug, Clone)]
pub struct FilterSummary {
    /// The file.
    pub file: PathBuf,
    /// The filter text (format placeholders filled in).
    pub text: String,
    /// Where the literal starts.
    pub start: Position,
    /// Where it ends.
    pub end: Position,
    /// Whether the literal had format placeholders.
    pub templated: bool,
    /// Whether a placeholder stood outside quotes (the text is partly unknown).
    pub open_placeholders: bool,
    /// Whether this is `Query::all()`.
    pub all: bool,
    /// The tables the code around the query names.
    pub tables: Vec<scan::TableHint>,
    /// When the code names no table and the file's designs have several tables: the one design
    /// of the file that stores every property the filter tests, if only one does
    /// ([`rules::Read::owner`]).
    pub owner: Option<String>,
    /// Whether the block that runs the query deletes entities.
    pub deletes: bool,
    /// Whether the query is limited to its first rows (`.top(n)`).
    pub limited: bool,
    /// The fields its file keeps or finds rows by in memory ([`scan::Scan::kept_by`]).
    pub kept_in_memory_by: Vec<String>,
    /// Whether the query is in test code: a `#[cfg(test)]` item, an integration test or a
    /// bench (set once scopes are known).
    pub test_code: bool,
    /// The program the query is part of (set once scopes are known).
    pub scope: crate::scope::Scope,
}

/// A finding before levels apply: rule, span, message, help, and whether it is only a note.
type RawFinding = (
    &'static Rule,
    Position,
    Position,
    String,
    Option<String>,
    bool,
);

/// See [`DesignSummary::row_varies`].
fn row_varies(design: &table_derive_internals::Design) -> bool {
    use table_derive_internals::template::{Grain, SegmentFormat};
    // How coarse a time is written: a month holds many days, a day many hours, an hour many
    // instants; anything else is the whole value.
    let grain = |format: SegmentFormat| match format {
        SegmentFormat::Bucket(bucket) => match bucket.grain {
            Grain::Month => 3,
            Grain::Day => 2,
            Grain::Hour => 1,
        },
        _ => 0,
    };
    design
        .row_key
        .template
        .placeholders()
        .any(|(field, format)| {
            design
                .partition_key
                .template
                .placeholders()
                .filter(|(f, _)| *f == field)
                .map(|(_, p)| grain(p))
                .min()
                .is_none_or(|finest| finest > grain(format))
        })
}

/// What one file contributes, built on the thread that parsed it.
struct FileOutcome {
    file: SourceFile,
    findings: Vec<RawFinding>,
    designs: Vec<DesignSummary>,
    filters: Vec<FilterSummary>,
    /// Whether the file declares a `fn main` of its own (read only for a file with designs or
    /// filters, whose program it helps find).
    has_main: bool,
    /// Whether the file holds a suppression comment ([`crate::suppress::marked`]).
    marked: bool,
}

/// Whether a file declares a `fn main` at the start of a line.
fn declares_main(text: &str) -> bool {
    memchr::memmem::find_iter(text.as_bytes(), b"fn main(").any(|at| {
        let line = text[..at].rfind('\n').map_or(0, |newline| newline + 1);
        matches!(&text[line..at], "" | "pub " | "async ")
    })
}

/// How a rule's findings are reported at a level; `None` when they are not.
pub(crate) fn severity(level: Level) -> Option<Severity> {
    match level {
        Level::Allow => None,
        Level::Note => Some(Severity::Note),
        Level::Warn => Some(Severity::Warning),
        Level::Deny => Some(Severity::Error),
    }
}

/// The rule a derive check belongs to.
pub fn rule_for_problem(kind: ProblemKind) -> &'static Rule {
    match kind {
        ProblemKind::ForbiddenLiteral => &rules::forbidden_key_literal::RULE,
        ProblemKind::CollidingRowKeys => &rules::colliding_row_keys::RULE,
        _ => &rules::invalid_design::RULE,
    }
}

/// The words without which a file holds nothing to lint: the derive, the keys and Timestamp
/// (in filter strings), and the filter APIs.
const RELEVANT: [&str; 6] = [
    "TableEntity",
    "PartitionKey",
    "RowKey",
    "Timestamp",
    "Query::filter",
    "Filter::parse",
];

/// A file that mentions none of [`RELEVANT`] is read, not lexed (SIMD substring searches).
fn might_matter(text: &str) -> bool {
    static FINDERS: std::sync::OnceLock<Vec<memchr::memmem::Finder<'static>>> =
        std::sync::OnceLock::new();
    FINDERS
        .get_or_init(|| {
            RELEVANT
                .iter()
                .map(|p| memchr::memmem::Finder::new(p.as_bytes()))
                .collect()
        })
        .iter()
        .any(|f| f.find(text.as_bytes()).is_some())
}

fn allowed(allows: &mut [(String, Position, Position, bool)], rule: &Rule) -> bool {
    match allows
        .iter_mut()
        .find(|a| a.0.eq_ignore_ascii_case(rule.code) || a.0.eq_ignore_ascii_case(rule.name))
    {
        Some(a) => {
            a.3 = true;
            true
        }
        None => false,
    }
}

/// The one design among `entities` that stores every property `filter` tests besides the
/// system properties, when exactly one does: the table a query that names none runs on.
fn property_owner(parsed: Option<&Filter>, entities: &[scan::EntitySite]) -> Option<String> {
    let parsed = parsed?;
    let tested: Vec<&str> = parsed
        .properties
        .iter()
        .map(String::as_str)
        .filter(|p| !matches!(*p, "PartitionKey" | "RowKey" | "Timestamp"))
        .collect();
    if tested.is_empty() {
        return None;
    }
    let mut owners = entities.iter().filter_map(|site| {
        let design = site.design.as_ref().ok()?;
        tested
            .iter()
            .all(|p| design.fields.iter().any(|f| f.stored() && f.property == *p))
            .then(|| site.ident.to_string())
    });
    let owner = owners.next()?;
    owners.next().is_none().then_some(owner)
}

/// Parses and checks one file: entity rules, derive problems, filters found.
fn check_file(file: SourceFile, config: &Config) -> FileOutcome {
    let mut outcome = FileOutcome {
        findings: Vec::new(),
        designs: Vec::new(),
        filters: Vec::new(),
        file,
        has_main: false,
        marked: false,
    };
    let path = outcome.file.path.clone();
    let parsed: Result<Scan, scan::ScanError> = scan::scan(&outcome.file.text);
    let mut scan = match parsed {
        Ok(scan) => scan,
        Err(e) => {
            let (start, end) = (e.start, e.end);
            outcome.findings.push((
                &rules::unparsable_source::RULE,
                start,
                end,
                format!("this file does not parse as Rust: {e}"),
                Some("fix the syntax, or exclude the file in table-lint.toml".into()),
                false,
            ));
            return outcome;
        }
    };
    for unread in std::mem::take(&mut scan.unread) {
        outcome.findings.push((
            &rules::unparsable_source::RULE,
            unread.start,
            unread.end,
            format!(
                "this item derives `TableEntity` but the linter can't read it, so its design is not checked: {}",
                unread.why
            ),
            Some("simplify the item until it reads (`table-lint keys` shows what the linter sees), or exclude the file in table-lint.toml".into()),
            false,
        ));
    }
    // A filter whose placeholder is a list of terms joined with `or` or `and` is judged with
    // two such terms in its place, when that text parses (the placeholder's `0` otherwise).
    // A filter built in steps (`f.push_str(" and …")`) is judged as it reaches the query, every
    // step taken, when that text parses (as first bound otherwise).
    for f in &mut scan.filters {
        // A query built in a function of the file runs on the table its caller names.
        if f.tables.is_empty() {
            f.tables = std::mem::take(&mut f.call_tables);
        }
        if let Some((built, open)) = f.built.take() {
            let parses = Filter::parse(&built).is_ok();
            // Made of pieces, the text is only ever the whole; one that does not parse may be
            // the pieces' order (a separator pushed before each), so it is open.
            if parses || f.pieces {
                f.text = built;
                f.templated = true;
                f.open_placeholders = open || !parses;
                continue;
            }
        }
        if let Some(joined) = f.joined.take()
            && Filter::parse(&joined).is_ok()
        {
            f.text = joined;
        }
    }
    let facts = rules::FileFacts {
        enums: scan.enums.clone(),
        inserts: scan.inserts,
        inserted: scan.inserted.clone(),
        got: scan.got.clone(),
        inserts_untyped: scan.inserts_untyped,
        writes: scan.writes,
        large: scan.large.clone(),
        ordered_by: scan.ordered_by.clone(),
        reads: scan
            .filters
            .iter()
            .map(|f| {
                // Parsed once, for the order it depends on and the design it tests.
                let parsed = (!f.text.is_empty())
                    .then(|| Filter::parse(&f.text).ok())
                    .flatten();
                rules::Read {
                    filter: f.text.clone(),
                    // A string literal that names no table of the file's designs is something
                    // else (a `$select`'s column, say); a struct named is kept wherever it is.
                    tables: f
                        .tables
                        .iter()
                        .filter(|h| match h {
                            scan::TableHint::Design(_) => true,
                            scan::TableHint::Name(name) => scan.entities.iter().any(|e| {
                                e.table
                                    .as_deref()
                                    .is_some_and(|t| t.eq_ignore_ascii_case(name))
                            }),
                        })
                        .cloned()
                        .collect(),
                    limited: f.limited,
                    ordered: rules::depends_on_order(f.limited, &f.text, parsed.as_ref()),
                    owner: if f
                        .tables
                        .iter()
                        .all(|h| matches!(h, scan::TableHint::Name(_)))
                        && scan.entities.len() > 1
                    {
                        property_owner(parsed.as_ref(), &scan.entities)
                    } else {
                        None
                    },
                    parsed,
                }
            })
            .collect(),
        one_table: scan.entities.first().is_some_and(|first| {
            scan.entities
                .iter()
                .all(|e| match (&e.table, &first.table) {
                    (Some(t), Some(f)) => t.eq_ignore_ascii_case(f),
                    _ => false,
                })
        }),
    };
    for site in &scan.entities {
        let design = match &site.design {
            Err(errors) => {
                for error in errors.clone().flatten() {
                    let (start, end) = Diagnostic::span_positions(scan::error_span(&error, site));
                    outcome.findings.push((
                        &rules::invalid_design::RULE,
                        start,
                        end,
                        error.to_string(),
                        Some(format!(
                            "`{}` does not compile until this is fixed; `table-lint explain TK000` and table_runtime's docs describe the attribute grammar",
                            site.ident
                        )),
                        false,
                    ));
                }
                continue;
            }
            Ok(design) => design,
        };
        for problem in &site.problems {
            let (start, end) = Diagnostic::span_positions(scan::error_span(&problem.error, site));
            outcome.findings.push((
                rule_for_problem(problem.kind),
                start,
                end,
                problem.error.to_string(),
                Some(problem.kind.help().to_owned()),
                false,
            ));
        }
        let mut allows: Vec<(String, Position, Position, bool)> = design
            .allows
            .iter()
            .map(|a| {
                let (s, e) = Diagnostic::span_positions(a.span);
                (a.rule.clone(), s, e, false)
            })
            .collect();
        for rule in rules::all() {
            if let Check::Entity(check) = rule.check {
                if config.level(rule) == Level::Allow {
                    continue;
                }
                let options = config.options(rule);
                let mut found = Vec::new();
                check(
                    &EntityContext {
                        design,
                        options: &options,
                        file: &facts,
                    },
                    &mut found,
                );
                for f in found {
                    if !allowed(&mut allows, rule) {
                        outcome
                            .findings
                            .push((rule, f.start, f.end, f.message, f.help, f.note));
                    }
                }
            }
        }
        let (start, end) = Diagnostic::span_positions(design.ident.span());
        outcome.designs.push(DesignSummary {
            file: path.clone(),
            ident: design.ident.to_string(),
            start,
            end,
            table: design.table.clone(),
            partition_key: design.partition_key.template.text.clone(),
            row_key: design.row_key.template.text.clone(),
            partition_key_at: Diagnostic::span_positions(design.partition_key.span),
            partition_time_order: design
                .partition_key
                .template
                .placeholders()
                .next()
                .filter(|(f, fmt)| {
                    rules::is_time_placeholder(design, &design.partition_key.template, f, *fmt)
                })
                .map(|(_, fmt)| !fmt.newest_first()),
            row_key_at: Diagnostic::span_positions(design.row_key.span),
            row_key_constant: design
                .row_key
                .template
                .parts
                .iter()
                .all(|p| matches!(p, Part::Literal(_))),
            rows: design_rows(design),
            unit_test: site.unit_test,
            scope: crate::scope::Scope {
                package: None,
                target: crate::scope::Target::Library,
            },
            entity_type: design.entity_type.as_ref().map(|t| t.name.clone()),
            optional_properties: design
                .fields
                .iter()
                .filter(|f| {
                    f.stored() && matches!(f.kind, table_derive_internals::ast::TypeKind::Option(_))
                })
                .map(|f| f.property.clone())
                .collect(),
            allows,
            fields: design
                .fields
                .iter()
                .filter(|f| f.stored())
                .map(field_summary)
                .collect(),
            key_fields: design
                .fields
                .iter()
                .filter(|f| design.in_own_keys(&f.ident.to_string()))
                .map(field_summary)
                .collect(),
            partition_fields: design
                .partition_key
                .template
                .placeholders()
                .map(|(f, _)| f.to_owned())
                .collect(),
            row_fields: design
                .row_key
                .template
                .placeholders()
                .map(|(f, _)| f.to_owned())
                .collect(),
            row_varies: row_varies(design),
            key_only: design
                .fields
                .iter()
                .filter(|f| f.key_only)
                .map(|f| {
                    let keys = [&design.partition_key, &design.row_key];
                    let key = match table_derive_internals::expand::reading_key(&keys, f) {
                        Some(0) => "PartitionKey",
                        _ => "RowKey",
                    };
                    (f.ident.to_string(), f.property.clone(), key)
                })
                .collect(),
            indexes: design
                .indexes
                .iter()
                .map(|index| IndexSummary {
                    name: index.name.clone(),
                    eventual: index.eventual,
                    same_partition: index.same_partition(design),
                    partition_key: index
                        .partition_key
                        .as_ref()
                        .map(|k| k.template.text.clone()),
                    name_at: Diagnostic::span_positions(index.name_span),
                })
                .collect(),
            span_at: Diagnostic::span_positions(design.span),
            partition_unpadded: unpadded_fields(&design.partition_key.template),
            row_unpadded: unpadded_fields(&design.row_key.template),
            queries: table_derive_internals::queries::specs(design),
            load: design.load,
        });
    }
    for (site, read) in scan.filters.into_iter().zip(&facts.reads) {
        let (start, end) = (site.start, site.end);
        outcome.filters.push(FilterSummary {
            owner: read.owner.clone(),
            file: path.clone(),
            text: site.text,
            start,
            end,
            templated: site.templated,
            open_placeholders: site.open_placeholders,
            all: site.all,
            tables: site.tables,
            deletes: site.deletes,
            limited: site.limited,
            kept_in_memory_by: scan.kept_by.clone(),
            test_code: site.unit_test,
            scope: crate::scope::Scope {
                package: None,
                target: crate::scope::Target::Library,
            },
        });
    }
    outcome
}

/// A file to lint: still on disk, or already in memory.
enum Input {
    Path(PathBuf),
    File(SourceFile),
}

/// One input's result: its outcome, or the path that could not be read and why.
type Checked = Result<FileOutcome, (PathBuf, String)>;

/// The stack of each thread that reads designs: room for syn's recursion on the deepest item
/// the scanner hands it (`MAX_ITEM_DEPTH` levels; a debug build's frames take tens of
/// kilobytes a level). The stack is reserved, not touched.
pub(crate) const WORKER_STACK: usize = 64 << 20;

/// Reads (when on disk) and checks every input, returning the results in the order given.
/// Threads take the next input as they free up, so reading overlaps lexing and one big file
/// holds up one thread only; a file without a relevant word is read, not lexed.
fn check_all(inputs: Vec<Input>, config: &Config) -> Vec<Checked> {
    par_map(thread_count(config.threads), inputs, |input| {
        let file = match input {
            Input::File(f) => f,
            Input::Path(p) => match source::read(&p) {
                Ok(f) => f,
                Err(e) => return Err((p, e)),
            },
        };
        let mut outcome = if might_matter(&file.text) {
            let outcome = check_file(file, config);
            // Every span of the file has become a line and column in `outcome`; dropping the
            // thread's span table frees the copy of the text proc-macro2 keeps for each derived
            // item parsed (and keeps its 32-bit offsets from wrapping on huge trees).
            proc_macro2::extra::invalidate_current_thread_spans();
            outcome
        } else {
            FileOutcome {
                findings: Vec::new(),
                designs: Vec::new(),
                filters: Vec::new(),
                file,
                has_main: false,
                marked: false,
            }
        };
        // Read here, on the threads, rather than when the outcomes are merged.
        outcome.has_main = (!outcome.designs.is_empty() || !outcome.filters.is_empty())
            && declares_main(&outcome.file.text);
        outcome.marked = crate::suppress::marked(&outcome.file.text);
        Ok(outcome)
    })
}

/// Maps `f` over `items` on at most `threads` threads, each taking the next item as it frees
/// up, and returns the results in the items' order. The threads are this module's own, with a
/// stack of [`WORKER_STACK`] (room for syn's recursion wherever a worker reads designs); the
/// calling thread only waits. When no thread can be started, the items are mapped here.
pub(crate) fn par_map<I: Send, T: Send>(
    threads: usize,
    items: Vec<I>,
    f: impl Fn(I) -> T + Sync,
) -> Vec<T> {
    let threads = threads.clamp(1, items.len().max(1));
    let queue = std::sync::Mutex::new(items.into_iter().enumerate());
    let work = || {
        let mut done = Vec::new();
        loop {
            // A poisoned lock still holds the items left.
            let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some((n, item)) = next else {
                return done;
            };
            done.push((n, f(item)));
        }
    };
    let mut results: Vec<(usize, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name("table-lint".into())
                    .stack_size(WORKER_STACK)
                    .spawn_scoped(s, work)
                    .ok()
            })
            .collect();
        if handles.is_empty() {
            return work();
        }
        let mut results = Vec::new();
        for h in handles {
            // A worker that panicked hit a bug: it goes on panicking here rather than losing
            // the results it held.
            results.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        results
    });
    results.sort_unstable_by_key(|(n, _)| *n);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Lints the Rust files under `paths`.
pub fn lint_paths(paths: &[PathBuf], config: &Config) -> Result<Report, String> {
    let mut phases = Phases::start();
    let files = source::discover(paths, &config.exclude)?;
    phases.done("finding files");
    Ok(lint_inputs(
        files.into_iter().map(Input::Path).collect(),
        config,
        phases,
    ))
}

/// Sorts the findings by file, line, column and code. The files are ordered once (paths
/// compare component by component, which is slow), and the findings by their file's rank.
fn sort(report: &mut Report) {
    let diagnostics = std::mem::take(&mut report.diagnostics);
    // Paths are hashed as their bytes (every path of a run is made the same way), which is far
    // cheaper than `Path`'s hash, component by component; they are sorted as paths.
    let distinct: FxHashSet<&std::ffi::OsStr> =
        diagnostics.iter().map(|d| d.file.as_os_str()).collect();
    let mut files: Vec<&Path> = distinct.into_iter().map(Path::new).collect();
    files.sort_unstable();
    let rank: FxHashMap<&std::ffi::OsStr, usize> =
        files.into_iter().map(Path::as_os_str).zip(0..).collect();
    let ranks: Vec<usize> = diagnostics
        .iter()
        .map(|d| rank.get(d.file.as_os_str()).copied().unwrap_or(usize::MAX))
        .collect();
    drop(rank);
    // The keys are sorted with each finding's place, then the findings are moved once, in
    // that order: far fewer bytes move than when sorting the findings themselves.
    let mut keys: Vec<(usize, Position, &'static str, usize)> = ranks
        .into_iter()
        .zip(&diagnostics)
        .enumerate()
        .map(|(n, (rank, d))| (rank, d.start, d.code, n))
        .collect();
    // The places make the keys distinct, so an unstable sort keeps equal findings in order.
    keys.sort_unstable();
    let mut slots: Vec<Option<Diagnostic>> = diagnostics.into_iter().map(Some).collect();
    report.diagnostics = keys
        .into_iter()
        .filter_map(|(.., n)| slots.get_mut(n).and_then(Option::take))
        .collect();
}

#[allow(clippy::too_many_arguments)]
fn push(
    report: &mut Report,
    config: &Config,
    rule: &'static Rule,
    file: PathBuf,
    start: Position,
    end: Position,
    message: String,
    help: Option<String>,
) {
    push_capped(report, config, rule, file, start, end, message, help, false);
}

/// Like [`push`], with `note` capping the severity at a note.
#[allow(clippy::too_many_arguments)]
fn push_capped(
    report: &mut Report,
    config: &Config,
    rule: &'static Rule,
    file: PathBuf,
    start: Position,
    end: Position,
    message: String,
    help: Option<String>,
    note: bool,
) {
    if let Some(severity) = severity(config.level(rule)) {
        let severity = if note {
            severity.min(Severity::Note)
        } else {
            severity
        };
        let end = if end <= start {
            Position {
                line: start.line,
                column: start.column + 1,
            }
        } else {
            end
        };
        report.diagnostics.push(Diagnostic {
            code: rule.code,
            name: rule.name,
            severity,
            file,
            start,
            end,
            message,
            help,
        });
    }
}

/// The designs one program can meet ([`crate::scope::Scope::meets`]), in the run's order, with
/// lookups by struct name and by table name (lowercased).
struct ProgramView<'a> {
    designs: Vec<&'a DesignSummary>,
    by_ident: FxHashMap<&'a str, Vec<usize>>,
    by_table: FxHashMap<String, Vec<usize>>,
}

/// The run's designs by package and target, and by file, so that a query is judged against
/// the designs of its own program without reading every design of the run for every query;
/// each program's view is built once, by the first query written in it.
struct DesignIndex<'a> {
    designs: &'a [DesignSummary],
    by_package:
        FxHashMap<Option<&'a std::ffi::OsStr>, FxHashMap<&'a crate::scope::Target, Vec<usize>>>,
    by_file: FxHashMap<&'a std::ffi::OsStr, Vec<usize>>,
    views: FxHashMap<crate::scope::Scope, ProgramView<'a>>,
}

impl<'a> DesignIndex<'a> {
    fn new(designs: &'a [DesignSummary]) -> DesignIndex<'a> {
        let mut index = DesignIndex {
            designs,
            by_package: FxHashMap::default(),
            by_file: FxHashMap::default(),
            views: FxHashMap::default(),
        };
        for (i, d) in designs.iter().enumerate() {
            index.by_file.entry(d.file.as_os_str()).or_default().push(i);
            index
                .by_package
                .entry(d.scope.package.as_deref().map(Path::as_os_str))
                .or_default()
                .entry(&d.scope.target)
                .or_default()
                .push(i);
        }
        index
    }

    /// Builds the view of the designs the program of `scope` can meet, unless it is built.
    fn build_program(&mut self, scope: &crate::scope::Scope) {
        if !self.views.contains_key(scope) {
            // The package's designs of the targets that meet this one.
            let mut members: Vec<usize> = self
                .by_package
                .get(&scope.package.as_deref().map(Path::as_os_str))
                .into_iter()
                .flatten()
                .filter(|(target, _)| crate::scope::Target::meet(target, &scope.target))
                .flat_map(|(_, designs)| designs.iter().copied())
                .collect();
            members.sort_unstable();
            let mut view = ProgramView {
                designs: Vec::with_capacity(members.len()),
                by_ident: FxHashMap::default(),
                by_table: FxHashMap::default(),
            };
            for (n, i) in members.into_iter().enumerate() {
                let d = &self.designs[i];
                view.designs.push(d);
                view.by_ident.entry(&d.ident).or_default().push(n);
                view.by_table
                    .entry(d.table.to_ascii_lowercase())
                    .or_default()
                    .push(n);
            }
            self.views.insert(scope.clone(), view);
        }
    }
}

/// The designs of the table a query runs on, as the code around it names it (a design's
/// struct, or a table name some design has), among the designs its program can meet.
fn tables_queried<'a>(
    site: &FilterSummary,
    program: &ProgramView<'a>,
    own_file: &[usize],
    designs: &'a [DesignSummary],
) -> Vec<&'a DesignSummary> {
    let mut tables: Vec<&str> = Vec::new();
    for hint in &site.tables {
        let found = match hint {
            scan::TableHint::Design(ident) => program.by_ident.get(ident.as_str()),
            scan::TableHint::Name(name) => program.by_table.get(&name.to_ascii_lowercase()),
        };
        for &n in found.map_or(&[][..], Vec::as_slice) {
            let table = program.designs[n].table.as_str();
            if !tables.iter().any(|t| t.eq_ignore_ascii_case(table)) {
                tables.push(table);
            }
        }
    }
    // No table named (string literals that name no design's table are other things, columns
    // of a `$select` say): the query runs on the table of its own file's designs, when they all
    // have one table, or else on the table of the one design that stores every property the
    // filter tests; those designs are the ones it is judged against.
    let names_a_struct = site
        .tables
        .iter()
        .any(|h| matches!(h, scan::TableHint::Design(_)));
    if tables.is_empty() && !names_a_struct {
        let own: Vec<&DesignSummary> = own_file.iter().map(|&i| &designs[i]).collect();
        let one_table = own.first().is_some_and(|first| {
            own.iter()
                .all(|d| d.table.eq_ignore_ascii_case(&first.table))
        });
        if one_table {
            return own;
        }
        // Several tables: the table of the one design that stores what the filter tests.
        let Some(owner) = site.owner.as_deref() else {
            return Vec::new();
        };
        let Some(table) = own.iter().find(|d| d.ident == owner).map(|d| &d.table) else {
            return Vec::new();
        };
        return own
            .iter()
            .filter(|d| d.table.eq_ignore_ascii_case(table))
            .copied()
            .collect();
    }
    tables
        .iter()
        .flat_map(|t| {
            program
                .by_table
                .get(&t.to_ascii_lowercase())
                .map_or(&[][..], Vec::as_slice)
        })
        .map(|&n| program.designs[n])
        .collect()
}

/// Lints files already in memory.
pub fn lint_sources(files: Vec<SourceFile>, config: &Config) -> Report {
    lint_inputs(
        files.into_iter().map(Input::File).collect(),
        config,
        Phases::start(),
    )
}

/// What each rule across designs finds, rule by rule in [`rules::all`]'s order: the design's
/// index and the finding.
type DesignFindings = Vec<(&'static Rule, Vec<(usize, Finding)>)>;

/// What the filter rules find, with the file each finding is in.
type FilterFindings = Vec<(&'static Rule, PathBuf, Finding)>;

/// The threads to use when `asked` (`--threads`) or, without it, every core; at least one.
pub(crate) fn thread_count(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// A piece of work for [`par_map`]: a call to make on one of its threads.
pub(crate) type Job<'a, T> = Box<dyn FnOnce() -> T + Send + 'a>;

/// What the rules across designs and the filter rules find, each rule and each share of the
/// filters a job of its own, on the run's threads (they only read the designs).
fn cross_findings(
    designs: &[DesignSummary],
    filters: &[FilterSummary],
    config: &Config,
) -> (DesignFindings, FilterFindings) {
    enum Found {
        Designs(&'static Rule, Vec<(usize, Finding)>),
        Filters(FilterFindings),
    }
    let threads = thread_count(config.threads);
    let overlaps = RowOverlaps::new(designs);
    let overlaps = &overlaps;
    let mut jobs: Vec<Job<'_, Found>> = Vec::new();
    for rule in rules::all() {
        if let Check::Designs(check) = rule.check {
            if config.level(rule) == Level::Allow {
                continue;
            }
            jobs.push(Box::new(move || {
                let options = config.options(rule);
                let mut found = Vec::new();
                check(designs, &options, overlaps, &mut found);
                Found::Designs(rule, found)
            }));
        }
    }
    // The filters in as many shares as threads, so the rules across designs and they finish
    // together.
    let share = filters.len().div_ceil(threads).max(1);
    for part in filters.chunks(share) {
        jobs.push(Box::new(move || {
            Found::Filters(filter_findings(part, designs, config))
        }));
    }
    let mut by_design = Vec::new();
    let mut by_filter = Vec::new();
    for found in par_map(threads, jobs, |job| job()) {
        match found {
            Found::Designs(rule, found) => by_design.push((rule, found)),
            Found::Filters(found) => by_filter.extend(found),
        }
    }
    (by_design, by_filter)
}

/// What the filter rules find on every filter, in the order of the filters, with the file each
/// finding is in; a filter that does not parse is TK100's finding (TK106's for `eq null`).
fn filter_findings(
    filters: &[FilterSummary],
    designs: &[DesignSummary],
    config: &Config,
) -> FilterFindings {
    let mut out = Vec::new();
    let mut index = DesignIndex::new(designs);
    for site in filters {
        index.build_program(&site.scope);
        let program = &index.views[&site.scope];
        let own_file = index
            .by_file
            .get(site.file.as_os_str())
            .map_or(&[][..], Vec::as_slice);
        let tables = tables_queried(site, program, own_file, designs);
        let parsed = if site.all {
            Ok(Filter {
                expr: table_runtime::query::Expr::Constant(true),
                properties: Vec::new(),
                text: String::new(),
            })
        } else {
            Filter::parse(&site.text)
        };
        match parsed {
            // A placeholder outside quotes may be any piece of a filter: no verdict on its text.
            Err(_) if site.open_placeholders => {}
            Err(e) => {
                let (mut start, mut end) = (site.start, site.end);
                if !site.templated && start.line == end.line {
                    // Inside a plain literal: past the opening quote, at the column.
                    start.column += 1 + e.column;
                    end = Position {
                        line: start.line,
                        column: start.column + 1,
                    };
                }
                let rule = if rules::eq_null::is_null_comparison(&site.text) {
                    &rules::eq_null::RULE
                } else {
                    &rules::unparsable_filter::RULE
                };
                let finding = Finding::at(
                    start,
                    end,
                    format!("this $filter does not parse: {}", e.message),
                    if site.templated {
                        format!(
                            "the service answers 400 InvalidInput (column {} of `{}`, the filter with sample values in its placeholders)",
                            e.column + 1,
                            site.text
                        )
                    } else {
                        format!(
                            "the service answers 400 InvalidInput (column {} of the filter)",
                            e.column + 1
                        )
                    },
                );
                out.push((rule, site.file.clone(), finding));
            }
            Ok(filter) => {
                let plan = if site.all {
                    table_runtime::query::QueryPlan::everything()
                } else {
                    filter.plan()
                };
                for rule in rules::all() {
                    if let Check::Filter(check) = rule.check {
                        let options = config.options(rule);
                        let mut found = Vec::new();
                        check(
                            &FilterContext {
                                site,
                                filter: &filter,
                                plan: &plan,
                                options: &options,
                                program: &program.designs,
                                tables: &tables,
                            },
                            &mut found,
                        );
                        out.extend(found.into_iter().map(|f| (*rule, site.file.clone(), f)));
                    }
                }
            }
        }
    }
    out
}

/// The time each phase of a run takes, written to stderr when the environment sets
/// `TABLE_LINT_TIMINGS` (`bench/lint-speed.sh` reports them beside its totals); nothing is
/// measured otherwise.
pub(crate) struct Phases(Option<std::time::Instant>);

impl Phases {
    /// Starts timing the first phase, if timings are asked for.
    pub(crate) fn start() -> Phases {
        Phases(std::env::var_os("TABLE_LINT_TIMINGS").map(|_| std::time::Instant::now()))
    }

    /// Reports the phase that just ended, and starts timing the next.
    pub(crate) fn done(&mut self, phase: &str) {
        if let Some(started) = &mut self.0 {
            // The memory the process holds (Linux only; blank elsewhere).
            let resident = std::fs::read_to_string("/proc/self/statm")
                .ok()
                .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
                .map_or(String::new(), |pages| {
                    format!("{:>7} MiB", (pages * 4096) >> 20)
                });
            eprintln!(
                "table-lint timings: {phase:<30} {:>8.3} s {resident}",
                started.elapsed().as_secs_f64()
            );
            *started = std::time::Instant::now();
        }
    }
}

/// Lints files, reading those still on disk; a file that can't be read is a finding.
fn lint_inputs(inputs: Vec<Input>, config: &Config, mut phases: Phases) -> Report {
    let mut report = Report {
        files: inputs.len(),
        ..Report::default()
    };
    let checked = check_all(inputs, config);
    phases.done("reading and checking files");
    let mut outcomes = Vec::new();
    for checked in checked {
        match checked {
            Ok(o) => outcomes.push(o),
            Err((path, message)) => {
                let at = Position { line: 1, column: 1 };
                push(
                    &mut report,
                    config,
                    &rules::unparsable_source::RULE,
                    path,
                    at,
                    at,
                    message,
                    Some("the file must be readable UTF-8".into()),
                );
            }
        }
    }
    let mut designs: Vec<DesignSummary> = Vec::new();
    let mut filters: Vec<FilterSummary> = Vec::new();
    // Every file's text, in input order; shared with the report's sources, not copied.
    let mut texts: Vec<(PathBuf, Arc<String>)> = Vec::new();
    // The files with suppression comments among them.
    let mut marked: Vec<(PathBuf, Arc<String>)> = Vec::new();
    // Each file's program, found once per file that has designs or filters.
    let mut scopes = crate::scope::Scopes::default();
    for mut o in outcomes {
        if !o.designs.is_empty() || !o.filters.is_empty() {
            let scope = scopes
                .of(&o.file.path, o.has_main)
                .grouped(&config.programs);
            for design in &mut o.designs {
                design.scope = scope.clone();
                if design.unit_test {
                    // Unit tests are a program of their own, linked with the code around them.
                    design.scope.target = crate::scope::Target::Program(format!(
                        "unit tests of {}",
                        design.scope.describe()
                    ));
                }
            }
            let test_target = matches!(&scope.target, crate::scope::Target::Program(name)
                if name.starts_with("test:") || name.starts_with("bench:"));
            for site in &mut o.filters {
                site.test_code |= test_target;
                site.scope = scope.clone();
            }
        }
        for (rule, start, end, message, help, note) in o.findings {
            push_capped(
                &mut report,
                config,
                rule,
                o.file.path.clone(),
                start,
                end,
                message,
                help,
                note,
            );
        }
        designs.extend(o.designs);
        filters.extend(o.filters);
        let text = Arc::new(o.file.text);
        if o.marked {
            marked.push((o.file.path.clone(), Arc::clone(&text)));
        }
        texts.push((o.file.path, text));
    }

    // Rules across designs, and filters: both only read the designs, so they run side by side;
    // their findings are then pushed in the order they always were (designs first), since
    // suppressions note which `allow` was used.
    phases.done("merging files' results");
    let (design_found, filter_found) = cross_findings(&designs, &filters, config);
    phases.done("rules across designs, filters");
    let mut found: Vec<(&'static Rule, PathBuf, Finding)> = Vec::new();
    for (rule, by_design) in design_found {
        for (di, f) in by_design {
            let Some(design) = designs.get_mut(di) else {
                continue;
            };
            if !allowed(&mut design.allows, rule) {
                found.push((rule, design.file.clone(), f));
            }
        }
    }
    found.extend(filter_found);
    for (rule, file, f) in found {
        push_capped(
            &mut report,
            config,
            rule,
            file,
            f.start,
            f.end,
            f.message,
            f.help,
            f.note,
        );
    }

    // Suppressions that suppressed nothing, or name no rule.
    for design in &designs {
        for (name, start, end, used) in &design.allows {
            let message = match rules::find(name) {
                None => format!("`allow({name})` names no rule"),
                Some(_) if *used => continue,
                Some(r) if config.level(r) == Level::Allow => continue,
                Some(r) => format!(
                    "`allow({name})` suppresses nothing: {} ({}) reports nothing on `{}`",
                    r.code, r.name, design.ident
                ),
            };
            push(
                &mut report,
                config,
                &rules::unused_suppression::RULE,
                design.file.clone(),
                *start,
                *end,
                message,
                Some("remove the suppression, or name the rule it is for (`table-lint rules` lists them)".into()),
            );
        }
    }

    crate::suppress::apply(&mut report.diagnostics, &marked, config);

    // The texts of the files with findings, for snippets (built at once, from texts in the
    // order of their paths when they came from disk, rather than inserted one by one).
    let with_findings: FxHashSet<&std::ffi::OsStr> = report
        .diagnostics
        .iter()
        .map(|d| d.file.as_os_str())
        .collect();
    report.sources = texts
        .into_iter()
        .filter(|(path, _)| with_findings.contains(path.as_os_str()))
        .collect();
    drop(with_findings);
    phases.done("suppressions, sources");
    sort(&mut report);
    phases.done("sorting findings");
    // Freeing tens of thousands of summaries (key spaces, query plans) one allocation at a time
    // takes a noticeable part of a large run; the report need not wait for it.
    if designs.len() + filters.len() > 10_000 {
        std::thread::spawn(move || drop((designs, filters)));
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `fn main` counts at the start of a line, alone or after `pub` or `async`; one inside
    /// a line, a comment or another name does not.
    #[test]
    fn a_main_is_declared_at_the_start_of_a_line() {
        assert!(declares_main("fn main() {}"));
        assert!(declares_main(
            "use x;\n#[tokio::main]\nasync fn main() {}\n"
        ));
        assert!(declares_main("mod a;\npub fn main() {}"));
        assert!(!declares_main("    fn main() {}"));
        assert!(!declares_main("// fn main() {}\nfn run_main() {}"));
        assert!(!declares_main("fn domain() {}"));
    }

    /// Jobs run on any number of threads give their results in the jobs' order, each once.
    #[test]
    fn jobs_answer_in_their_order() {
        for threads in 1..=5 {
            let jobs: Vec<Job<'_, usize>> = (0..9usize)
                .map(|n| {
                    Box::new(move || {
                        // Uneven work, so the threads finish out of order.
                        std::thread::sleep(std::time::Duration::from_millis(((9 - n) % 4) as u64));
                        n * n
                    }) as Job<'_, usize>
                })
                .collect();
            let squares: Vec<usize> = (0..9).map(|n| n * n).collect();
            assert_eq!(
                par_map(threads, jobs, |job| job()),
                squares,
                "{threads} threads"
            );
        }
        assert!(par_map(3, Vec::<Job<'_, ()>>::new(), |job| job()).is_empty());
    }
}

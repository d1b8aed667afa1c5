//! Design drift (`table-lint data --design PATH...`): every entity of the table compared with
//! the `#[derive(TableEntity)]` designs declared for it.
//!
//! - **Keys**: an entity belongs to the design whose PartitionKey and RowKey templates could
//!   have written its keys (the derive's key spaces, [`table_derive_internals::keyspace`]) and,
//!   for a design with an `entity_type`, whose `EntityType` it holds; an index copy (by its
//!   markers) to the design with that index, whose index templates must fit its keys. An
//!   entity no design can have written is *unparsable*.
//! - **Properties**: an entity of a design must hold every property the design always writes
//!   ([`Storage::required`]), each of the EDM type the design writes it as.
//! - **Index copies**: the runtime's own verifier ([`IndexAudit`]) compares the copies each
//!   entity should have with the copies stored. The copies an entity should have are computed
//!   here without the generated code, from the entity's properties: read as the generated
//!   `from_entity` reads them, their keys written by the runtime's encodings
//!   ([`crate::example_keys::write_key`]), their properties put back as `to_entity` puts them,
//!   and marked as the runtime's `copies_of` marks them. A sparse index (an `Option` field in
//!   an index's keys) expects no copy of an entity without the value.
//!
//! Known limits: a field of a type of the user's own (neither text, integer, GUID nor time)
//! can't be read here, so an index whose keys hold one is not audited, and such a field in the
//! primary keys leaves the check that the fields give the entity's own keys out. A field stored
//! as `json` or `as_string` is copied as the text stored (the generated code writes what its
//! type serializes back to, the same text for anything it wrote itself; integers and GUIDs
//! stored `as_string` are normalized as their `Display` writes them).

use std::path::PathBuf;

use serde::Serialize;
use table_derive_internals::Design;
use table_derive_internals::ast::{Field, Key, TypeKind};
use table_derive_internals::edm::Storage;
use table_derive_internals::expand::reading_key;
use table_derive_internals::keyspace::{KeySpace, Mismatch};
use table_derive_internals::queries::specs_for;
use table_derive_internals::template::{Part, SegmentFormat};
use table_runtime::index::verify::{CopySource, Divergence, ExpectedCopy, IndexAudit};
use table_runtime::index::{
    INDEX_NAME_PROPERTY, INDEX_SOURCE_PARTITION_PROPERTY, INDEX_SOURCE_ROW_PROPERTY, Keys,
    copy_marker,
};
use table_runtime::typed::support::{
    check_entity_type, check_max_len, check_max_value, check_min_value,
};
use table_runtime::typed::{ENTITY_TYPE_PROPERTY, ENTITY_VERSION_PROPERTY};
use table_runtime::uuid::Uuid;
use table_runtime::{ConversionError, Entity, Value};

use crate::example_keys::{KeyValue, read_key, write_key};
use crate::scan;
use crate::source;

/// The most examples kept for each kind of drift.
const MAX_EXAMPLES: usize = 5;

/// One design, with the key spaces of its templates.
struct DesignModel {
    design: Design,
    partition_key: KeySpace,
    row_key: KeySpace,
    indexes: Vec<IndexModel>,
    /// Whether the linter can hold a value of every field of the primary keys, so it can
    /// check that an entity's fields give its own keys.
    keys_writable: bool,
}

/// One index of a design.
struct IndexModel {
    name: String,
    partition_key: KeySpace,
    row_key: KeySpace,
    /// Whether the linter can write its keys (no field of a type of the user's own), so its
    /// copies are compared with what the entities call for.
    audited: bool,
}

impl DesignModel {
    fn new(design: Design) -> Result<DesignModel, String> {
        let name = design.ident.to_string();
        let space = |key: &Key| {
            KeySpace::new(&design, &key.template).map_err(|e| format!("design `{name}`: {e}"))
        };
        let partition_key = space(&design.partition_key)?;
        let row_key = space(&design.row_key)?;
        let keys_writable = writable(&design, &[&design.partition_key, &design.row_key]);
        let mut indexes = Vec::new();
        for index in &design.indexes {
            let pk = index
                .partition_key
                .as_ref()
                .unwrap_or(&design.partition_key);
            // A `key_only` field in the copy's keys is read from the entity's own keys, which
            // the linter can read only when it can read every field of them.
            let key_only_inside = [pk, &index.row_key]
                .iter()
                .flat_map(|k| k.template.placeholders())
                .any(|(name, _)| design.field(name).is_some_and(|f| f.key_only));
            indexes.push(IndexModel {
                name: index.name.clone(),
                partition_key: space(pk)?,
                row_key: space(&index.row_key)?,
                audited: writable(&design, &[pk, &index.row_key])
                    && (keys_writable || !key_only_inside),
            });
        }
        Ok(DesignModel {
            partition_key,
            row_key,
            indexes,
            keys_writable,
            design,
        })
    }

    fn name(&self) -> String {
        self.design.ident.to_string()
    }

    /// Whether the entity holds the design's `EntityType`, as the runtime's `is_own_entity`
    /// checks it; `Ok` for a design without one. The error says what it holds instead.
    fn entity_type_fits(&self, entity: &Entity) -> Result<(), String> {
        let Some(t) = &self.design.entity_type else {
            return Ok(());
        };
        match entity.get(ENTITY_TYPE_PROPERTY) {
            Some(Value::String(s)) if *s == t.name => Ok(()),
            Some(Value::String(s)) => Err(format!("its EntityType is `{s}`, not `{}`", t.name)),
            Some(other) => Err(format!(
                "its EntityType is an {}, not the text `{}`",
                other.edm_type(),
                t.name
            )),
            None => Err(format!("it has no EntityType (`{}` expected)", t.name)),
        }
    }

    /// Whether the design's primary keys could have written the entity's keys (and its
    /// `EntityType` is the design's); the error is a score of how far it got, and why not.
    fn owns(&self, entity: &Entity) -> Result<(), (usize, String)> {
        let pk = &entity.partition_key;
        self.partition_key
            .matches(pk)
            .map_err(|m| (m.offset, describe("PartitionKey", &m)))?;
        self.row_key
            .matches(&entity.row_key)
            .map_err(|m| (pk.len() + 1 + m.offset, describe("RowKey", &m)))?;
        self.entity_type_fits(entity)
            .map_err(|e| (pk.len() + entity.row_key.len() + 2, e))
    }

    /// The required properties the entity lacks, and those of another EDM type than the
    /// design writes (as `Total is Edm.String, design Order wants Edm.Double`).
    fn property_problems(&self, entity: &Entity) -> (Vec<String>, Vec<String>) {
        let (mut missing, mut mistyped) = (Vec::new(), Vec::new());
        for field in &self.design.fields {
            let Storage::Property { edm, optional } = Storage::of(field) else {
                continue;
            };
            match entity.get(&field.property) {
                None if !optional => missing.push(field.property.clone()),
                None => {}
                Some(value) => {
                    if let Some(edm) = edm
                        && value.edm_type().wire_name() != edm.name()
                    {
                        mistyped.push(format!(
                            "{} is {}, design {} wants {}",
                            field.property,
                            value.edm_type(),
                            self.name(),
                            edm
                        ));
                    }
                }
            }
        }
        (missing, mistyped)
    }

    /// The index named `name` whose copies are the design's.
    fn index(&self, name: &str) -> Option<&IndexModel> {
        self.indexes.iter().find(|i| i.name == name)
    }
}

fn describe(column: &str, mismatch: &Mismatch) -> String {
    format!("{column} {mismatch}")
}

/// Whether the linter can hold a value of every field these keys' placeholders name.
fn writable(design: &Design, keys: &[&Key]) -> bool {
    keys.iter()
        .flat_map(|k| k.template.placeholders())
        .all(|(name, _)| {
            // A sparse index's `Option` field as its value's type.
            design.field(name).is_some_and(|f| {
                matches!(
                    f.key_view().kind,
                    TypeKind::String
                        | TypeKind::Integer { .. }
                        | TypeKind::Uuid
                        | TypeKind::Time
                        | TypeKind::Date
                )
            })
        })
}

/// The designs whose table is the linted table.
pub struct DesignSet {
    models: Vec<DesignModel>,
}

impl DesignSet {
    /// Reads the `#[derive(TableEntity)]` designs in these Rust files or folders and keeps
    /// those whose table name equals `table` (case-insensitive, as the service compares names).
    /// An error (a clear message, listing the tables the designs found are for) when none is
    /// for this table, when a path can't be read, or when a design for this table is invalid.
    pub fn load(paths: &[PathBuf], table: &str) -> Result<DesignSet, String> {
        let mut files = Vec::new();
        for path in source::discover(paths, &[])? {
            let file = source::read(&path)?;
            files.push((file.path, file.text));
        }
        if files.is_empty() {
            return Err(format!(
                "no Rust files in {}",
                paths
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        DesignSet::from_sources(&files, table)
    }

    /// The same from source text (for tests): (path, text) pairs.
    pub fn from_sources(files: &[(PathBuf, String)], table: &str) -> Result<DesignSet, String> {
        let mut models = Vec::new();
        let mut elsewhere: Vec<String> = Vec::new();
        let mut problems: Vec<String> = Vec::new();
        for (path, text) in files {
            let found = scan::scan(text)
                .map_err(|e| format!("{}: not Rust that can be read: {e}", path.display()))?;
            for site in found.entities {
                let name = site.ident.to_string();
                let ours = site.table.as_deref().map(|t| t.eq_ignore_ascii_case(table));
                let errors: Vec<String> = match &site.design {
                    Err(e) => e
                        .clone()
                        .flatten()
                        .into_iter()
                        .map(|e| e.to_string())
                        .collect(),
                    Ok(_) => site.problems.iter().map(|p| p.error.to_string()).collect(),
                };
                match (ours, site.design) {
                    (Some(false), _) => {
                        elsewhere.push(format!("`{}` ({name})", site.table.unwrap_or_default()))
                    }
                    (Some(true), Ok(design)) if errors.is_empty() => {
                        models.push(DesignModel::new(design)?)
                    }
                    (Some(true), _) => problems.push(format!(
                        "{}: design `{name}` for table `{table}` is invalid: {}",
                        path.display(),
                        errors.join("; ")
                    )),
                    (None, _) => problems.push(format!(
                        "{}: design `{name}` can't be read, so its table is unknown: {}",
                        path.display(),
                        errors.join("; ")
                    )),
                }
            }
        }
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
        if models.is_empty() {
            let shown = files
                .iter()
                .map(|(p, _)| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ");
            return Err(if elsewhere.is_empty() {
                format!("no `#[derive(TableEntity)]` design in {shown}")
            } else {
                format!(
                    "no design in {shown} is for table `{table}`; the designs found are for {}",
                    elsewhere.join(", ")
                )
            });
        }
        Ok(DesignSet { models })
    }

    /// The struct names, for the report.
    pub fn names(&self) -> Vec<String> {
        self.models.iter().map(DesignModel::name).collect()
    }

    /// For each key column, whether some design generates range queries over it whose
    /// leading segment is a verbatim `String` field (so keys that are GUIDs there would make
    /// those ranges meaningless): (partition_key, row_key). Read from the queries the derive
    /// generates ([`specs_for`], for the primary keys and every index): a `range_by_{field}`
    /// or `{field}_starting_with` whose filter bounds the column, where `{field}` is the
    /// column's first placeholder (after a literal prefix at most) and a `String` written
    /// verbatim.
    pub fn ranged_string_columns(&self) -> (bool, bool) {
        let mut ranged = (false, false);
        for model in &self.models {
            let design = &model.design;
            let mut key_sets = vec![("".to_owned(), &design.partition_key, &design.row_key)];
            for index in &design.indexes {
                let pk = index
                    .partition_key
                    .as_ref()
                    .unwrap_or(&design.partition_key);
                key_sets.push((format!("{}_", index.name), pk, &index.row_key));
            }
            for (prefix, pk, rk) in key_sets {
                for spec in specs_for(design, &prefix, pk, rk) {
                    // The field a range method ranges over is in its name.
                    let Some(method) = spec.method.strip_prefix(prefix.as_str()) else {
                        continue;
                    };
                    let Some(field) = method
                        .strip_prefix("range_by_")
                        .or_else(|| method.strip_suffix("_starting_with"))
                    else {
                        continue;
                    };
                    if spec.class != "range query" {
                        continue;
                    }
                    if ranges_leading_text(design, pk, field, &spec.filter, "PartitionKey") {
                        ranged.0 = true;
                    }
                    if ranges_leading_text(design, rk, field, &spec.filter, "RowKey") {
                        ranged.1 = true;
                    }
                }
            }
        }
        ranged
    }
}

/// Whether a range query's `filter` bounds `column`, and the `field` it ranges over is the
/// column's first placeholder (after a literal prefix at most), a verbatim `String`.
fn ranges_leading_text(
    design: &Design,
    key: &Key,
    field: &str,
    filter: &str,
    column: &str,
) -> bool {
    let first = key.template.parts.iter().find_map(|p| match p {
        Part::Placeholder { field, format } => Some((field, *format)),
        Part::Literal(_) => None,
    });
    let Some((first, format)) = first else {
        return false;
    };
    first == field
        && format == SegmentFormat::Default
        && design
            .field(field)
            .is_some_and(|f| f.kind == TypeKind::String)
        && filter.contains(&format!("{column} ge '"))
}

/// A count, with a few examples.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Counted {
    /// How many.
    pub count: u64,
    /// At most five examples, each the entity's keys and what is wrong
    /// (`("pk", "rk"): Total is Edm.String, design Order wants Edm.Double`).
    pub examples: Vec<String>,
}

impl Counted {
    fn add(&mut self, example: impl FnOnce() -> String) {
        self.count += 1;
        if self.examples.len() < MAX_EXAMPLES {
            self.examples.push(example());
        }
    }
}

/// What the drift check found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DriftSummary {
    /// The designs compared with (struct names).
    pub designs: Vec<String>,
    /// Entities looked at.
    pub checked: u64,
    /// Entities matched by a design's primary keys, per design name.
    pub matched: Vec<(String, u64)>,
    /// Entities whose keys no design (primary keys, nor any index copy's keys for copies
    /// marked as such) can have written.
    pub unparsable: Counted,
    /// Matched entities lacking a property their design requires (not Option, not skipped).
    pub missing_properties: Counted,
    /// Matched entities with a property of another EDM type than the design's field.
    pub mistyped_properties: Counted,
    /// Index copies read (entities with the runtime's copy markers).
    pub copies: u64,
    /// Copies an entity should have that are not stored (the runtime's verify).
    pub missing_copies: Counted,
    /// Copies stored with other properties than their entity gives now.
    pub stale_copies: Counted,
    /// Copies no current entity accounts for.
    pub orphaned_copies: Counted,
    /// Entities of a design with indexes that can't be read, so their copies are unknown.
    pub unreadable: Counted,
}

/// Streaming drift check: entities are seen one at a time and not kept.
///
/// # Memory
///
/// Bounded by the designs and the index audits: the counts, at most five examples of each
/// kind, and for each design with indexes one runtime [`IndexAudit`], which keeps a few keys
/// per index copy (and a copy's properties only while the entity it belongs to has not been
/// seen, or when it diverges; see its notes).
pub struct DriftCheck<'a> {
    designs: &'a DesignSet,
    audits: Vec<Option<IndexAudit<DynamicCopies<'a>>>>,
    matched: Vec<u64>,
    summary: DriftSummary,
}

impl<'a> DriftCheck<'a> {
    /// A check against `designs`, with nothing seen yet.
    pub fn new(designs: &'a DesignSet) -> Self {
        let audits = designs
            .models
            .iter()
            .map(|model| {
                model
                    .indexes
                    .iter()
                    .any(|i| i.audited)
                    .then(|| IndexAudit::new(DynamicCopies { model }))
            })
            .collect();
        DriftCheck {
            designs,
            audits,
            matched: vec![0; designs.models.len()],
            summary: DriftSummary {
                designs: designs.names(),
                ..DriftSummary::default()
            },
        }
    }

    /// Compares one entity with the designs.
    pub fn observe(&mut self, entity: &Entity) {
        self.summary.checked += 1;
        let keys = Keys::of(entity);
        if let Some((index, source)) = copy_marker(entity) {
            self.summary.copies += 1;
            self.observe_copy(entity, &keys, index, &source);
            return;
        }
        let models = &self.designs.models;
        let mut owners = Vec::new();
        let mut nearest: Option<(usize, String)> = None;
        for (i, model) in models.iter().enumerate() {
            match model.owns(entity) {
                Ok(()) => owners.push(i),
                Err((score, why)) => {
                    if nearest.as_ref().is_none_or(|(s, _)| score > *s) {
                        nearest = Some((score, format!("{}: {why}", model.name())));
                    }
                }
            }
        }
        if owners.is_empty() {
            let why = nearest.map(|(_, why)| why).unwrap_or_default();
            self.summary.unparsable.add(|| format!("{keys}: {why}"));
            return;
        }
        // Where several designs could have written the keys, the one the properties fit best.
        let (owner, (missing, mistyped)) = owners
            .into_iter()
            .map(|i| (i, models[i].property_problems(entity)))
            .min_by_key(|(i, (m, t))| (m.len() + t.len(), *i))
            .expect("at least one owner");
        self.matched[owner] += 1;
        if !missing.is_empty() {
            let name = models[owner].name();
            self.summary
                .missing_properties
                .add(|| format!("{keys}: design {name} requires {}", missing.join(", ")));
        }
        if !mistyped.is_empty() {
            self.summary
                .mistyped_properties
                .add(|| format!("{keys}: {}", mistyped.join("; ")));
        }
        if let Some(audit) = &mut self.audits[owner] {
            audit.observe(entity);
        }
    }

    fn observe_copy(&mut self, entity: &Entity, keys: &Keys, index: &str, source: &Keys) {
        let models = &self.designs.models;
        let fits = |m: &DesignModel| {
            m.index(index).is_some_and(|i| {
                i.partition_key.contains(&entity.partition_key)
                    && i.row_key.contains(&entity.row_key)
            })
        };
        // A design with this index whose templates fit the copy and its entity's keys, else
        // one whose index templates fit, else the first with the index.
        let owner = models
            .iter()
            .position(|m| {
                fits(m)
                    && m.partition_key.contains(&source.partition_key)
                    && m.row_key.contains(&source.row_key)
            })
            .or_else(|| models.iter().position(fits))
            .or_else(|| models.iter().position(|m| m.index(index).is_some()));
        let Some(owner) = owner else {
            self.summary
                .unparsable
                .add(|| format!("{keys}: a copy of index `{index}`, which no design declares"));
            return;
        };
        if !fits(&models[owner]) {
            let i = models[owner].index(index).expect("the owner has the index");
            let why = match i.partition_key.matches(&entity.partition_key) {
                Err(m) => describe("PartitionKey", &m),
                Ok(_) => i
                    .row_key
                    .matches(&entity.row_key)
                    .err()
                    .map(|m| describe("RowKey", &m))
                    .unwrap_or_default(),
            };
            let name = models[owner].name();
            self.summary
                .unparsable
                .add(|| format!("{keys}: {name}'s index `{index}`: {why}"));
        }
        if let Some(audit) = &mut self.audits[owner] {
            audit.observe(entity);
        }
    }

    /// The summary, with the index audits' divergences counted by kind.
    pub fn finish(self) -> DriftSummary {
        let mut summary = self.summary;
        summary.matched = self.designs.names().into_iter().zip(self.matched).collect();
        for audit in self.audits.into_iter().flatten() {
            for d in audit.finish().divergences {
                let counted = match &d {
                    Divergence::Missing { .. } => &mut summary.missing_copies,
                    Divergence::Stale { .. } => &mut summary.stale_copies,
                    Divergence::Orphaned { .. } => &mut summary.orphaned_copies,
                    Divergence::Unreadable { .. } => &mut summary.unreadable,
                };
                counted.add(|| d.to_string());
            }
        }
        summary
    }
}

/// The copies of a design read from source, for the runtime's [`IndexAudit`]: computed from
/// an entity's properties as the generated code computes them from the value it reads.
struct DynamicCopies<'a> {
    model: &'a DesignModel,
}

/// One field as the generated `from_entity` reads it.
struct FieldRead {
    /// The property `to_entity` would write back (`None`: none, as for `None` or `skip`).
    stored: Option<Value>,
    /// The value as a key takes it, for the fields the linter can hold.
    key: Option<KeyValue>,
}

impl CopySource for DynamicCopies<'_> {
    fn index_names(&self) -> Vec<&str> {
        self.model
            .indexes
            .iter()
            .filter(|i| i.audited)
            .map(|i| i.name.as_str())
            .collect()
    }

    fn is_own_entity(&self, entity: &Entity) -> bool {
        match &self.model.design.entity_type {
            Some(_) => self.model.entity_type_fits(entity).is_ok(),
            None => entity
                .row_key
                .starts_with(self.model.design.row_key.template.literal_prefix()),
        }
    }

    fn expected_copies(&self, entity: &Entity) -> Result<Vec<ExpectedCopy>, String> {
        self.copies(entity)
    }
}

impl DynamicCopies<'_> {
    /// The copies the generated code would compute for the value read from `entity`, in the
    /// order of the design's indexes; the error is the message the typed path gives.
    fn copies(&self, entity: &Entity) -> Result<Vec<ExpectedCopy>, String> {
        let design = &self.model.design;
        let text = |e: ConversionError| e.to_string();
        if let Some(t) = &design.entity_type {
            check_entity_type(entity, &t.name, t.version).map_err(text)?;
        }
        let reads: Vec<FieldRead> = design
            .fields
            .iter()
            .map(|f| read_field(f, entity))
            .collect::<Result<_, _>>()
            .map_err(text)?;
        let own = Keys::of(entity);
        let from_keys = if self.model.keys_writable {
            key_only_values(design, &own).map_err(text)?
        } else {
            Vec::new()
        };
        let value_of = |f: &Field| {
            if f.key_only {
                return from_keys
                    .iter()
                    .find(|(name, _)| *name == f.ident)
                    .map(|(_, v)| v.clone());
            }
            design
                .fields
                .iter()
                .position(|g| g.ident == f.ident)
                .and_then(|i| reads[i].key.clone())
        };
        let key = |key: &Key, label: &str| {
            write_key(design, key, label, value_of).map_err(|e| e.error.to_string())
        };
        if self.model.keys_writable {
            let pk = key(&design.partition_key, "PartitionKey")?;
            let rk = key(&design.row_key, "RowKey")?;
            if pk != own.partition_key || rk != own.row_key {
                return Err(format!(
                    "its fields give the keys {}, not its own",
                    Keys::new(pk, rk)
                ));
            }
        }
        let mut copies = Vec::new();
        for (index, model) in design.indexes.iter().zip(&self.model.indexes) {
            if !model.audited {
                continue;
            }
            let pk_key = index
                .partition_key
                .as_ref()
                .unwrap_or(&design.partition_key);
            // A sparse index: an `Option` field of its keys without a value, no copy.
            let absent = |f: &Field| {
                f.is_optional()
                    && design
                        .fields
                        .iter()
                        .position(|g| g.ident == f.ident)
                        .is_some_and(|i| reads[i].stored.is_none())
            };
            let sparse = [pk_key, &index.row_key].iter().any(|k| {
                k.template
                    .placeholders()
                    .any(|(name, _)| design.field(name).is_some_and(absent))
            });
            if sparse {
                continue;
            }
            let pk = key(pk_key, &format!("PartitionKey of index `{}`", index.name))?;
            let rk = key(&index.row_key, &format!("RowKey of index `{}`", index.name))?;
            let mut copy = Entity::new(pk, rk);
            for (field, read) in design.fields.iter().zip(&reads) {
                let projected = index
                    .project
                    .as_ref()
                    .is_none_or(|p| p.contains(&field.ident));
                if !field.stored() || !projected {
                    continue;
                }
                check_bounds(field, read).map_err(text)?;
                if let Some(value) = &read.stored {
                    copy.properties
                        .insert(field.property.clone(), value.clone());
                }
            }
            if let Some(t) = &design.entity_type {
                copy.properties.insert(
                    ENTITY_TYPE_PROPERTY.to_owned(),
                    Value::String(t.name.clone()),
                );
                if let Some(v) = t.version {
                    copy.properties
                        .insert(ENTITY_VERSION_PROPERTY.to_owned(), Value::Int32(v));
                }
            }
            // The markers, as the runtime's `copies_of` adds them.
            copy.properties.insert(
                INDEX_NAME_PROPERTY.to_owned(),
                Value::String(index.name.clone()),
            );
            copy.properties.insert(
                INDEX_SOURCE_PARTITION_PROPERTY.to_owned(),
                Value::String(own.partition_key.clone()),
            );
            copy.properties.insert(
                INDEX_SOURCE_ROW_PROPERTY.to_owned(),
                Value::String(own.row_key.clone()),
            );
            copies.push(ExpectedCopy {
                index: index.name.clone(),
                entity: copy,
            });
        }
        Ok(copies)
    }
}

/// The values of the design's `key_only` fields, read back from the entity's own keys as the
/// generated `from_entity` reads them: each from the key that holds it whole.
fn key_only_values(
    design: &Design,
    own: &Keys,
) -> Result<Vec<(syn::Ident, KeyValue)>, ConversionError> {
    let keys = [&design.partition_key, &design.row_key];
    let texts = [own.partition_key.as_str(), own.row_key.as_str()];
    let mut out = Vec::new();
    for (i, (key, label)) in keys.iter().zip(["PartitionKey", "RowKey"]).enumerate() {
        let wanted = |f: &Field| f.key_only && reading_key(&keys, f) == Some(i);
        if !design.fields.iter().any(wanted) {
            continue;
        }
        for (field, value) in read_key(design, key, label, texts[i])? {
            if wanted(field) {
                out.push((field.ident.clone(), value));
            }
        }
    }
    Ok(out)
}

/// Checks the bounds `to_entity` and `index_entities` check before writing a field.
fn check_bounds(field: &Field, read: &FieldRead) -> Result<(), ConversionError> {
    if let (Some(max), Some(Value::String(text))) = (field.max_len, &read.stored)
        && !field.json
    {
        check_max_len(&field.property, text.as_str(), max)?;
    }
    if let (Some(max), Some(KeyValue::Integer(n))) = (field.max, &read.key) {
        check_max_value(&field.property, *n, max)?;
    }
    if let (Some(min), Some(KeyValue::Integer(n))) = (field.min, &read.key) {
        check_min_value(&field.property, *n, min)?;
    }
    Ok(())
}

/// How the runtime describes a value it can't read (its `WrongType` errors).
fn found(value: &Value) -> String {
    match value {
        Value::String(_) => "an Edm.String".into(),
        other => format!("{} {other:?}", other.edm_type()),
    }
}

fn wrong(property: &str, expected: &str, value: &Value) -> ConversionError {
    ConversionError::WrongType {
        property: property.to_owned(),
        expected: expected.to_owned(),
        found: found(value),
    }
}

/// Reads a field as the generated `from_entity` does (`get`, `get_json`, `get_string`), and
/// gives back the property `to_entity` would write from the value read.
fn read_field(field: &Field, entity: &Entity) -> Result<FieldRead, ConversionError> {
    let name = field.property.as_str();
    let value = entity.get(name);
    // A `key_only` field is read from the keys by the caller.
    if !field.stored() {
        return Ok(FieldRead {
            stored: None,
            key: None,
        });
    }
    if field.json || field.as_string {
        let text = match value {
            Some(Value::String(s)) => s,
            Some(other) => return Err(wrong(name, "an Edm.String", other)),
            None => {
                return Err(ConversionError::Missing {
                    property: name.to_owned(),
                });
            }
        };
        if field.json {
            serde_json::from_str::<serde_json::Value>(text).map_err(|e| ConversionError::Json {
                property: name.to_owned(),
                message: e.to_string(),
            })?;
            return Ok(FieldRead {
                stored: Some(Value::String(text.clone())),
                key: None,
            });
        }
        return as_string(field, name, text);
    }
    let (stored, key) = read_kind(&field.kind, is_f32(field), name, value)?;
    Ok(FieldRead { stored, key })
}

/// A field stored as its `Display` text: parsed as `FromStr` would for the types the linter
/// knows, and written back as `Display` writes it.
fn as_string(field: &Field, name: &str, text: &str) -> Result<FieldRead, ConversionError> {
    let unparsable = |what: &str| ConversionError::WrongType {
        property: name.to_owned(),
        expected: format!("text that parses as {what}"),
        found: format!("{text:?}"),
    };
    let (stored, key) = match &field.kind {
        TypeKind::Integer { bits, signed } => {
            let type_name = format!("{}{bits}", if *signed { 'i' } else { 'u' });
            let n = parse_integer(text, *bits, *signed).ok_or_else(|| unparsable(&type_name))?;
            (n.to_string(), Some(KeyValue::Integer(n)))
        }
        TypeKind::Uuid => {
            let id =
                Uuid::parse_str(text).map_err(|_| unparsable(std::any::type_name::<Uuid>()))?;
            (id.hyphenated().to_string(), Some(KeyValue::Guid(id)))
        }
        TypeKind::String => (text.to_owned(), Some(KeyValue::Text(text.to_owned()))),
        _ => (text.to_owned(), None),
    };
    Ok(FieldRead {
        stored: Some(Value::String(stored)),
        key,
    })
}

/// An integer of `bits` bits as Rust's `FromStr` reads it (an optional `+`, or `-` for a
/// signed type, then decimal digits), within the type's range.
fn parse_integer(text: &str, bits: u32, signed: bool) -> Option<i128> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    let negative = digits.starts_with('-');
    if negative && !signed {
        return None;
    }
    let unsigned = digits.strip_prefix('-').unwrap_or(digits);
    if unsigned.is_empty()
        || !unsigned.bytes().all(|b| b.is_ascii_digit())
        || text.starts_with("+-")
    {
        return None;
    }
    let n: i128 = digits.parse().ok()?;
    in_range(n, bits, signed).then_some(n)
}

/// What the runtime expects of an integer property, `an integer that fits i16`.
fn fits(bits: u32, signed: bool) -> String {
    format!(
        "an integer that fits {}{bits}",
        if signed { 'i' } else { 'u' }
    )
}

/// Whether `n` fits an integer type of `bits` bits.
fn in_range(n: i128, bits: u32, signed: bool) -> bool {
    if bits > 64 {
        return false;
    }
    if signed {
        let half = 1i128 << (bits - 1);
        (-half..half).contains(&n)
    } else {
        (0..(1i128 << bits)).contains(&n)
    }
}

/// Whether the field's type is `f32` (which, unlike `f64`, does not read Int32 values).
fn is_f32(field: &Field) -> bool {
    fn last_is_f32(ty: &syn::Type) -> bool {
        match ty {
            syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| {
                s.ident == "f32"
                    || (s.ident == "Option"
                        && matches!(&s.arguments, syn::PathArguments::AngleBracketed(a)
                            if a.args.iter().any(|arg| matches!(arg, syn::GenericArgument::Type(t) if last_is_f32(t)))))
            }),
            _ => false,
        }
    }
    last_is_f32(&field.ty)
}

/// A value read as the runtime's `FromValue` impls read it for a field of this kind, and the
/// property its `IntoValue` impls write back.
fn read_kind(
    kind: &TypeKind,
    f32_field: bool,
    name: &str,
    value: Option<&Value>,
) -> Result<(Option<Value>, Option<KeyValue>), ConversionError> {
    if let TypeKind::Option(inner) = kind {
        return match value {
            None => Ok((None, None)),
            Some(_) => read_kind(inner, f32_field, name, value),
        };
    }
    if *kind == TypeKind::Other {
        // A type of the user's own: its impls decide; the property is copied as it is.
        return Ok((value.cloned(), None));
    }
    let Some(value) = value else {
        return Err(ConversionError::Missing {
            property: name.to_owned(),
        });
    };
    Ok(match (kind, value) {
        (TypeKind::String, Value::String(s)) => {
            (Some(value.clone()), Some(KeyValue::Text(s.clone())))
        }
        (TypeKind::String, other) => return Err(wrong(name, "an Edm.String", other)),
        (TypeKind::Integer { bits, signed }, Value::Int32(_) | Value::Int64(_)) => {
            let n = match value {
                Value::Int32(i) => i128::from(*i),
                Value::Int64(i) => i128::from(*i),
                _ => unreachable!("matched above"),
            };
            if !in_range(n, *bits, *signed) {
                return Err(wrong(name, &fits(*bits, *signed), value));
            }
            let stored = match table_derive_internals::edm::EdmType::of_kind(kind) {
                Some(table_derive_internals::edm::EdmType::Int32) => Value::Int32(n as i32),
                Some(table_derive_internals::edm::EdmType::Int64) => Value::Int64(n as i64),
                _ => value.clone(),
            };
            (Some(stored), Some(KeyValue::Integer(n)))
        }
        (TypeKind::Integer { bits, signed }, other) => {
            return Err(wrong(name, &fits(*bits, *signed), other));
        }
        (TypeKind::Float, Value::Double(d)) if f32_field => {
            if !(d.is_nan() || f64::from(*d as f32) == *d) {
                return Err(wrong(name, "an Edm.Double that fits f32", value));
            }
            (Some(value.clone()), None)
        }
        (TypeKind::Float, Value::Double(_)) => (Some(value.clone()), None),
        (TypeKind::Float, Value::Int32(i)) if !f32_field => {
            (Some(Value::Double(f64::from(*i))), None)
        }
        (TypeKind::Float, other) => return Err(wrong(name, "an Edm.Double", other)),
        (TypeKind::Bool, Value::Boolean(_)) | (TypeKind::Bytes, Value::Binary(_)) => {
            (Some(value.clone()), None)
        }
        (TypeKind::Bool, other) => return Err(wrong(name, "an Edm.Boolean", other)),
        (TypeKind::Bytes, other) => return Err(wrong(name, "an Edm.Binary", other)),
        (TypeKind::Uuid, Value::Guid(g)) => (Some(value.clone()), Some(KeyValue::Guid(*g))),
        (TypeKind::Uuid, other) => return Err(wrong(name, "an Edm.Guid", other)),
        (TypeKind::Time, Value::DateTime(at)) => (Some(value.clone()), Some(KeyValue::Time(*at))),
        (TypeKind::Time, other) => return Err(wrong(name, "an Edm.DateTime", other)),
        // A day is stored as its midnight UTC; another time of day is not a day.
        (TypeKind::Date, Value::DateTime(at))
            if at.to_offset_date_time().time() == table_runtime::time::Time::MIDNIGHT =>
        {
            (Some(value.clone()), Some(KeyValue::Time(*at)))
        }
        (TypeKind::Date, other) => {
            return Err(wrong(
                name,
                "an Edm.DateTime at midnight UTC (a day)",
                other,
            ));
        }
        (TypeKind::Option(_) | TypeKind::Other, _) => unreachable!("handled above"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use table_runtime::TableEntity;
    use table_runtime::index::verify::TypedCopies;
    use table_runtime::time::OffsetDateTime;
    use table_runtime::time::macros::datetime;

    fn set(source: &str, table: &str) -> Result<DesignSet, String> {
        DesignSet::from_sources(&[(PathBuf::from("model.rs"), source.to_owned())], table)
    }

    const ORDERS: &str = r#"
        #[derive(TableEntity)]
        #[table(name = "Orders", partition_key = "{customer}", row_key = "order_{id:06}")]
        struct Order { customer: String, id: u32, total: f64, note: Option<String> }

        #[derive(TableEntity)]
        #[table(name = "Customers", partition_key = "c", row_key = "{name}")]
        struct Customer { name: String }
    "#;

    #[test]
    fn designs_are_kept_for_their_table_only() {
        let designs = set(ORDERS, "orders").unwrap();
        assert_eq!(designs.names(), ["Order"]);
        let err = set(ORDERS, "Invoices").err().unwrap();
        assert!(err.contains("`Orders` (Order)"), "{err}");
        assert!(err.contains("`Customers` (Customer)"), "{err}");
    }

    #[test]
    fn ranges_over_leading_text_are_found() {
        let designs = set(ORDERS, "Customers").unwrap();
        // `range_by_name` ranges over the whole RowKey, text.
        assert_eq!(designs.ranged_string_columns(), (false, true));
        // `range_by_id` ranges over a padded integer after a literal.
        assert_eq!(
            set(ORDERS, "Orders").unwrap().ranged_string_columns(),
            (false, false)
        );
        // A range over text that another field leads is a range within that field's value.
        let second = r#"
            #[derive(TableEntity)]
            #[table(name = "Pairs", partition_key = "p", row_key = "{a:06}_{b}")]
            struct Pair { a: u32, b: String }
        "#;
        assert_eq!(
            set(second, "Pairs").unwrap().ranged_string_columns(),
            (false, false)
        );
        let led = second.replace("{a:06}_{b}", "x_{b}_{a:06}");
        assert_eq!(
            set(&led, "Pairs").unwrap().ranged_string_columns(),
            (false, true)
        );
    }

    // The integration tests' macro, included as text.
    include!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/support/compiled_and_read.rs"
    ));

    compiled_and_read! { SHOP;
        #[derive(Debug, Clone, PartialEq, table_runtime::TableEntity)]
        #[table(name = "Shop", partition_key = "{customer}", row_key = "order_{id:06}_{placed_at:inverted_ticks}")]
        #[table(index(name = "by_day", partition_key = "day_{placed_at:date}", row_key = "{delta}_{ref_code:escaped}_{id:06}", project(total, customer), eventual))]
        #[table(index(name = "by_token", row_key = "token_{token}"))]
        struct Order {
            customer: String,
            id: u32,
            placed_at: OffsetDateTime,
            total: f64,
            delta: i16,
            ref_code: String,
            token: table_runtime::uuid::Uuid,
            note: Option<String>,
            #[table(skip)]
            cache: u8,
        }

        #[derive(Debug, Clone, PartialEq, table_runtime::TableEntity)]
        #[table(name = "Shop", partition_key = "{customer}", row_key = "review_{at:ticks}_{stars:03}")]
        #[table(entity_type = "Review", version = 2)]
        #[table(index(name = "by_when", row_key = "when_{at:hour}_{author}_{score}"))]
        #[table(index(name = "by_iso", partition_key = "iso_{at}", row_key = "{author}", eventual))]
        struct Review {
            customer: String,
            at: OffsetDateTime,
            #[table(max = 5)]
            stars: u8,
            #[table(max_len = 12)]
            author: String,
            score: i64,
            body: String,
            #[table(json)]
            tags: Vec<String>,
            #[table(as_string)]
            big: u64,
        }

        #[derive(Debug, Clone, PartialEq, table_runtime::TableEntity)]
        #[table(name = "Shop", partition_key = "{customer}", row_key = "visit_{at:inverted_ticks}_{code:escaped}_{seq:unpadded}")]
        #[table(index(name = "by_seq", row_key = "seq_{seq:06}_{at:date}", project(pages)))]
        #[table(index(name = "by_code", partition_key = "code_{code:escaped}", row_key = "{customer}_{at:iso}", eventual))]
        struct Visit {
            #[table(key_only)]
            customer: String,
            #[table(key_only)]
            at: OffsetDateTime,
            #[table(key_only)]
            code: String,
            #[table(key_only, max = 999_999)]
            seq: u32,
            pages: i32,
        }

        #[derive(Debug, Clone, PartialEq, table_runtime::TableEntity)]
        #[table(name = "Shop", partition_key = "{club}", row_key = "member_{id:06}")]
        #[table(index(name = "by_email", row_key = "mail_{email}"))]
        #[table(index(name = "by_card", partition_key = "card_{card:unix_ms}", row_key = "{club}_{id:06}", eventual))]
        struct Member {
            club: String,
            #[table(max = 999_999)]
            id: u32,
            email: Option<String>,
            card: Option<OffsetDateTime>,
            name: String,
        }
    }

    compiled_and_read! { DIARY;
        #[derive(Debug, Clone, PartialEq, table_runtime::TableEntity)]
        #[table(name = "Diary", partition_key = "{user}_{month:yyyyMM}", row_key = "{day}")]
        #[table(index(name = "by_paid", partition_key = "paid_{paid_on:yyyyMMdd}", row_key = "{user}_{day}"))]
        struct DiaryDay {
            user: String,
            month: table_runtime::time::Date,
            #[table(key_only)]
            day: table_runtime::time::Date,
            paid_on: Option<table_runtime::time::Date>,
        }
    }

    /// A calendar day read from a table as the derive reads it: whole from its key, stored as
    /// its midnight UTC, and refused at another time of day.
    #[test]
    fn days_are_read_as_the_derive_reads_them() {
        use table_runtime::time::macros::date;
        let designs = set(DIARY, "Diary").unwrap();
        let diary = model(&designs, "DiaryDay");
        let day = DiaryDay {
            user: "ann".into(),
            month: date!(2024 - 05 - 01),
            day: date!(2024 - 05 - 17),
            paid_on: Some(date!(2024 - 06 - 28)),
        };
        let entity = day.to_entity().unwrap();
        both::<DiaryDay>(&diary, &entity);
        assert_eq!(diary.expected_copies(&entity).unwrap().len(), 1);
        let mut late = entity.clone();
        late.properties.insert(
            "paid_on".into(),
            Value::DateTime(table_runtime::DateTime::parse("2024-06-28T09:00:00Z").unwrap()),
        );
        both::<DiaryDay>(&diary, &late);
        assert!(diary.expected_copies(&late).is_err());
    }

    fn order(i: u32) -> Order {
        Order {
            customer: ["Contoso Ltd.", "Zoë & Co", "a_b-c", ""][i as usize % 4].into(),
            id: i * 1000 + 7,
            placed_at: [
                datetime!(2024-05-01 10:20:30.1234567 UTC),
                datetime!(1601-01-01 00:00:00 UTC),
                datetime!(9999-12-31 23:59:59.9999999 UTC),
                datetime!(2026-02-28 23:00:00 UTC),
            ][i as usize % 4],
            total: [12.5, -0.0, 1e300, f64::from(i)][i as usize % 4],
            delta: [-32768, -5, 0, 32767][i as usize % 4],
            ref_code: ["A/B_c d#1", "plain", "~!.\"[>?", "ünï_cödé"][i as usize % 4].into(),
            token: table_runtime::uuid::Uuid::from_u128(
                0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8 + u128::from(i),
            ),
            note: i.is_multiple_of(2).then(|| format!("note {i}")),
            cache: 0,
        }
    }

    fn review(i: u8) -> Review {
        Review {
            customer: "Contoso Ltd.".into(),
            at: OffsetDateTime::UNIX_EPOCH + table_runtime::time::Duration::hours(i64::from(i) * 7),
            stars: i % 6,
            author: ["Ann Lee", "Bob-Ray", "Zoë", "x"][usize::from(i) % 4].into(),
            score: [i64::MIN, -1, 0, i64::MAX][usize::from(i) % 4],
            body: format!("review {i}"),
            tags: vec![format!("t{i}"), "shared".into()],
            big: u64::MAX - u64::from(i),
        }
    }

    fn model<'d>(designs: &'d DesignSet, name: &str) -> DynamicCopies<'d> {
        DynamicCopies {
            model: designs.models.iter().find(|m| m.name() == name).unwrap(),
        }
    }

    /// The copies the typed path expects for an entity (the runtime's `TypedCopies`, which
    /// reads the value and calls `copies_of`) and those computed here from the design's source.
    fn both<T: TableEntity>(dynamic: &DynamicCopies<'_>, entity: &Entity) {
        let typed = TypedCopies::<T>::new().expected_copies(entity);
        let ours = dynamic.expected_copies(entity);
        assert_eq!(ours, typed, "for {entity:?}");
    }

    #[test]
    fn the_copies_computed_from_source_are_the_derives() {
        let designs = set(SHOP, "Shop").unwrap();
        let (orders, reviews) = (model(&designs, "Order"), model(&designs, "Review"));
        for i in 0..12 {
            let o = order(i);
            let entity = o.to_entity().unwrap();
            assert!(!table_runtime::index::copies_of(&o).unwrap().is_empty());
            both::<Order>(&orders, &entity);
            let r = review(i as u8);
            both::<Review>(&reviews, &r.to_entity().unwrap());
        }
    }

    #[test]
    fn key_only_fields_are_read_from_the_keys_as_the_derive_reads_them() {
        let designs = set(SHOP, "Shop").unwrap();
        let visits = model(&designs, "Visit");
        for i in 0..12u32 {
            let v = Visit {
                customer: ["Contoso Ltd.", "Zoë & Co", "a-b.c", ""][i as usize % 4].into(),
                at: OffsetDateTime::UNIX_EPOCH
                    + table_runtime::time::Duration::minutes(i64::from(i) * 97),
                code: ["x y", "", "A/B_c", "ünï"][i as usize % 4].into(),
                seq: i * 83_000,
                pages: i as i32,
            };
            let entity = v.to_entity().unwrap();
            assert!(entity.get("customer").is_none() && entity.get("seq").is_none());
            both::<Visit>(&visits, &entity);
            assert_eq!(visits.expected_copies(&entity).unwrap().len(), 2);
            // Nothing is missing: the key-only fields are no properties.
            assert_eq!(visits.model.property_problems(&entity), (vec![], vec![]));
        }
        // A RowKey the fields can't be read back from is refused alike.
        let mut e = Visit {
            customer: "c".into(),
            at: OffsetDateTime::UNIX_EPOCH,
            code: "k".into(),
            seq: 1,
            pages: 1,
        }
        .to_entity()
        .unwrap();
        e.row_key = "visit_12_k_1".into();
        both::<Visit>(&visits, &e);
        assert!(visits.expected_copies(&e).is_err());
    }

    /// A sparse index: no copy for a member without the value, the same copies as the
    /// derive's for one with it, and the value's bounds and format checked alike.
    #[test]
    fn sparse_index_copies_are_the_derives() {
        let designs = set(SHOP, "Shop").unwrap();
        let members = model(&designs, "Member");
        for i in 0..12u32 {
            let m = Member {
                club: ["chess", "Zoë & Co", ""][i as usize % 3].into(),
                id: i * 70_001,
                email: (i % 2 == 0).then(|| format!("m{i}@example.com")),
                card: (i % 3 != 0).then(|| {
                    OffsetDateTime::UNIX_EPOCH
                        + table_runtime::time::Duration::days(i64::from(i) * 4_000)
                }),
                name: format!("member {i}"),
            };
            let entity = m.to_entity().unwrap();
            both::<Member>(&members, &entity);
            let expected = usize::from(m.email.is_some()) + usize::from(m.card.is_some());
            assert_eq!(members.expected_copies(&entity).unwrap().len(), expected);
        }
        // A time Unix milliseconds can't write (before 1970) is refused alike.
        let early = Member {
            club: "c".into(),
            id: 1,
            email: None,
            card: Some(datetime!(1969-07-20 20:17:00 UTC)),
            name: "n".into(),
        };
        let entity = early.to_entity().unwrap();
        both::<Member>(&members, &entity);
        assert!(members.expected_copies(&entity).is_err());
    }

    #[test]
    fn values_the_derive_refuses_are_refused_alike() {
        let designs = set(SHOP, "Shop").unwrap();
        let reviews = model(&designs, "Review");
        // An author holding the separator that ends its segment in `by_when`.
        let bad = Review {
            author: "Ann_Lee".into(),
            ..review(1)
        };
        let entity = bad.to_entity().unwrap();
        both::<Review>(&reviews, &entity);
        assert!(reviews.expected_copies(&entity).is_err());
        // Properties the typed read refuses, and keys the fields do not give.
        let good = review(2).to_entity().unwrap();
        let mut broken = Vec::new();
        let mut e = good.clone();
        e.properties.remove("body");
        broken.push(e);
        let mut e = good.clone();
        e.properties
            .insert("score".into(), Value::String("7".into()));
        broken.push(e);
        let mut e = good.clone();
        e.properties.insert("stars".into(), Value::Int32(4));
        broken.push(e);
        let mut e = good.clone();
        e.properties
            .insert("author".into(), Value::String("far too long a name".into()));
        broken.push(e);
        let mut e = good.clone();
        e.properties
            .insert("tags".into(), Value::String("not json".into()));
        broken.push(e);
        let mut e = good.clone();
        e.properties
            .insert("big".into(), Value::String("-1".into()));
        broken.push(e);
        let mut e = good.clone();
        e.properties
            .insert(ENTITY_VERSION_PROPERTY.into(), Value::Int32(3));
        broken.push(e);
        for e in &broken {
            both::<Review>(&reviews, e);
            assert!(reviews.expected_copies(e).is_err(), "{e:?}");
        }
        // Int32 in an i64 field and in an f64 field read as the typed path reads them.
        let orders = model(&designs, "Order");
        let mut e = order(3).to_entity().unwrap();
        e.properties.insert("total".into(), Value::Int32(3));
        both::<Order>(&orders, &e);
        let mut e = review(1).to_entity().unwrap();
        e.properties.insert("score".into(), Value::Int32(-1));
        both::<Review>(&reviews, &e);
    }
}

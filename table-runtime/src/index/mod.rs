//! Secondary indexes: copies of an entity under other keys, and lists of ids under an index
//! entity, with what keeps them consistent with the entities they index.
//!
//! - Copies in the entity's own partition (the *intra-partition secondary index* pattern) are
//!   written by [`Table`](crate::Table) in the entity's own transaction.
//! - Copies in other partitions (the *inter-partition secondary index* pattern) can't share that
//!   transaction; [`maintain`] keeps them through a [`Queue`](crate::queue::Queue) (the
//!   *eventually consistent transactions* pattern): the writer announces the change before it
//!   writes, and a worker brings the copies in line with the stored entity, by idempotent steps.
//! - [`verify`] compares every entity with its copies (missing, stale, orphaned) and repairs
//!   what it finds.
//! - [`entities`] keeps lists of ids under one index entity per indexed value (the *index
//!   entities* pattern), in the entity's partition by transaction or in another one by queue.
//!
//! Every copy carries three marker properties naming its index and the keys of the entity it
//! copies, so a copy whose entity is gone can be recognised and removed.

pub mod entities;
pub mod maintain;
pub mod verify;

use crate::entity::Entity;
use crate::typed::{ConversionError, IndexCopy, TableEntity};
use crate::value::Value;

/// The marker property holding the name of the index a copy belongs to.
pub const INDEX_NAME_PROPERTY: &str = "IndexName";
/// The marker property holding the PartitionKey of the entity a copy belongs to.
pub const INDEX_SOURCE_PARTITION_PROPERTY: &str = "IndexOfPartitionKey";
/// The marker property holding the RowKey of the entity a copy belongs to.
pub const INDEX_SOURCE_ROW_PROPERTY: &str = "IndexOfRowKey";

/// The keys of one stored entity.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Keys {
    /// Its PartitionKey.
    pub partition_key: String,
    /// Its RowKey.
    pub row_key: String,
}

impl Keys {
    /// Keys from their two parts.
    pub fn new(partition_key: impl Into<String>, row_key: impl Into<String>) -> Self {
        Keys {
            partition_key: partition_key.into(),
            row_key: row_key.into(),
        }
    }

    /// The keys of an entity.
    pub fn of(entity: &Entity) -> Self {
        Keys::new(entity.partition_key.clone(), entity.row_key.clone())
    }
}

impl std::fmt::Display for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({:?}, {:?})", self.partition_key, self.row_key)
    }
}

/// The index copies of a value, each marked with its index and the keys of the value.
///
/// This is what gets stored: [`TableEntity::index_entities`] plus the markers.
pub fn copies_of<T: TableEntity>(value: &T) -> Result<Vec<IndexCopy>, ConversionError> {
    let mut copies = value.index_entities()?;
    if copies.is_empty() {
        return Ok(copies);
    }
    let pk = value.partition_key()?;
    let rk = value.row_key()?;
    for copy in &mut copies {
        copy.entity.properties.insert(
            INDEX_NAME_PROPERTY.to_owned(),
            Value::String(copy.index.name.to_owned()),
        );
        copy.entity.properties.insert(
            INDEX_SOURCE_PARTITION_PROPERTY.to_owned(),
            Value::String(pk.clone()),
        );
        copy.entity.properties.insert(
            INDEX_SOURCE_ROW_PROPERTY.to_owned(),
            Value::String(rk.clone()),
        );
    }
    Ok(copies)
}

/// For a stored entity that is an index copy: its index's name and the keys of the entity it
/// copies. `None` for an entity without the markers.
pub fn copy_marker(entity: &Entity) -> Option<(&str, Keys)> {
    let (index, partition_key, row_key) = copy_markers(entity)?;
    Some((index, Keys::new(partition_key, row_key)))
}

/// An index copy's markers as they are stored: its index's name, and the PartitionKey and
/// RowKey of the entity it copies.
pub(crate) fn copy_markers(entity: &Entity) -> Option<(&str, &str, &str)> {
    let string = |name| match entity.get(name) {
        Some(Value::String(s)) => Some(s.as_str()),
        _ => None,
    };
    Some((
        string(INDEX_NAME_PROPERTY)?,
        string(INDEX_SOURCE_PARTITION_PROPERTY)?,
        string(INDEX_SOURCE_ROW_PROPERTY)?,
    ))
}

/// Whether a type has index copies outside the entity's partition (which need a queue).
pub fn has_cross_partition_copies<T: TableEntity>() -> bool {
    T::INDEXES.iter().any(|i| !i.same_partition)
}

//! An entity seen where it lies: a query page can hand out each of its entities borrowed from
//! the store (its PartitionKey from the partition, the rest from its stored record), so a
//! caller that only writes them somewhere (the local server's JSON answer) copies nothing. The
//! same view borrows an owned [`Entity`], so one writer serves both.

use std::collections::btree_map;

use super::record::{Names, Properties, Record};
use crate::entity::{ETag, Entity};
use crate::query::{Continuation, ValueRef};
use crate::store::QueryStats;
use crate::value::DateTime;

/// An entity borrowed from the store or from an owned [`Entity`]; properties come in name
/// order either way.
#[derive(Clone, Copy)]
pub struct EntityView<'a>(Repr<'a>);

#[derive(Clone, Copy)]
enum Repr<'a> {
    Owned(&'a Entity),
    Stored {
        partition_key: &'a str,
        record: &'a Record,
        names: &'a Names,
    },
}

impl std::fmt::Debug for EntityView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EntityView")
            .field("partition_key", &self.partition_key())
            .field("row_key", &self.row_key())
            .finish_non_exhaustive()
    }
}

impl<'a> EntityView<'a> {
    /// Views an owned entity.
    pub fn of(entity: &'a Entity) -> EntityView<'a> {
        EntityView(Repr::Owned(entity))
    }

    pub(super) fn stored(
        partition_key: &'a str,
        record: &'a Record,
        names: &'a Names,
    ) -> EntityView<'a> {
        EntityView(Repr::Stored {
            partition_key,
            record,
            names,
        })
    }

    /// The PartitionKey.
    pub fn partition_key(&self) -> &'a str {
        match self.0 {
            Repr::Owned(e) => &e.partition_key,
            Repr::Stored { partition_key, .. } => partition_key,
        }
    }

    /// The RowKey.
    pub fn row_key(&self) -> &'a str {
        match self.0 {
            Repr::Owned(e) => &e.row_key,
            Repr::Stored { record, .. } => record.row_key(),
        }
    }

    /// The Timestamp: always set on a stored entity, as the store set it.
    pub fn timestamp(&self) -> Option<DateTime> {
        match self.0 {
            Repr::Owned(e) => e.timestamp,
            Repr::Stored { record, .. } => Some(record.timestamp()),
        }
    }

    /// The ETag: a stored entity's names its Timestamp.
    pub fn etag(&self) -> Option<ETag> {
        match self.0 {
            Repr::Owned(e) => e.etag.clone(),
            Repr::Stored { record, .. } => Some(ETag::for_timestamp(record.timestamp())),
        }
    }

    /// The properties, by name order.
    pub fn properties(&self) -> ViewProperties<'a> {
        ViewProperties(match self.0 {
            Repr::Owned(e) => PropertiesRepr::Owned(e.properties.iter()),
            Repr::Stored { record, names, .. } => {
                PropertiesRepr::Stored(record.properties(), names)
            }
        })
    }

    /// The value of the property `name`, if the entity has it.
    pub fn property(&self, name: &str) -> Option<ValueRef<'a>> {
        match self.0 {
            Repr::Owned(e) => e.properties.get(name).map(ValueRef::of),
            Repr::Stored { record, names, .. } => names.id(name).and_then(|id| record.property(id)),
        }
    }

    /// An owned copy, with only the properties `keep` accepts.
    pub fn to_entity(&self, mut keep: impl FnMut(&str) -> bool) -> Entity {
        Entity {
            partition_key: self.partition_key().to_owned(),
            row_key: self.row_key().to_owned(),
            timestamp: self.timestamp(),
            etag: self.etag(),
            properties: self
                .properties()
                .filter(|(name, _)| keep(name))
                .map(|(name, value)| (name.to_owned(), value.to_value()))
                .collect(),
        }
    }
}

/// The properties of an [`EntityView`], as names and borrowed values.
pub struct ViewProperties<'a>(PropertiesRepr<'a>);

enum PropertiesRepr<'a> {
    Owned(btree_map::Iter<'a, String, crate::value::Value>),
    Stored(Properties<'a>, &'a Names),
}

impl<'a> Iterator for ViewProperties<'a> {
    type Item = (&'a str, ValueRef<'a>);

    fn next(&mut self) -> Option<(&'a str, ValueRef<'a>)> {
        match &mut self.0 {
            PropertiesRepr::Owned(iter) => iter
                .next()
                .map(|(name, value)| (name.as_str(), ValueRef::of(value))),
            PropertiesRepr::Stored(iter, names) => {
                let names: &'a Names = names;
                iter.next().map(|(id, value)| (names.name(id), value))
            }
        }
    }
}

/// What a query page says besides its entities: where the next page starts and what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageEnd {
    /// Where the next page starts; `None` when the query is complete.
    pub continuation: Option<Continuation>,
    /// What the page cost.
    pub stats: QueryStats,
}

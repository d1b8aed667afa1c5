//! The store's changes, handed one commit at a time to a [`Journal`] that keeps them somewhere
//! durable (the local server writes them to an embedded database).
//!
//! The store calls [`Journal::record`] while it still holds the lock the change was made under
//! (the partition's for entities, the table map's for tables), so the journal sees the changes
//! to any one entity in the order they took effect, and a transaction's changes arrive as one
//! commit. The call must only queue the commit: whoever acknowledges the write waits for it to be
//! durable afterwards, outside every lock.
//!
//! Tables carry a number ([`Change::CreateTable`]'s `id`) that is never reused, so a change that
//! reaches the journal after its table was dropped (a write that found the table just before the
//! drop) can be recognised and ignored, even when a table of the same name exists again.

use crate::entity::Entity;

/// One change to the store.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// A table was created.
    CreateTable {
        /// The table's number, unique for the store's lifetime (and across restores).
        id: u64,
        /// The name as created (case kept).
        name: String,
    },
    /// A table was dropped with everything in it.
    DeleteTable {
        /// The table's number.
        id: u64,
    },
    /// An entity now has this content (insert, replace, merge or upsert), with its Timestamp.
    Put {
        /// The table's number.
        table: u64,
        /// The entity as stored, with its Timestamp (and ETag).
        entity: Entity,
    },
    /// An entity was deleted.
    Delete {
        /// The table's number.
        table: u64,
        /// Its PartitionKey.
        partition_key: String,
        /// Its RowKey.
        row_key: String,
    },
}

/// Where a store sends its changes.
pub trait Journal: Send + Sync + std::fmt::Debug {
    /// Queues the changes of one write or one transaction, to be made durable together. Called
    /// under the store's locks: it must not wait for the disk.
    fn record(&self, changes: Vec<Change>);
}

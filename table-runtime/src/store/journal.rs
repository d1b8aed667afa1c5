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

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::batch::BatchOperation;
    use crate::entity::IfMatch;
    use crate::store::{Store, StoreOptions};

    #[derive(Debug, Default)]
    struct Kept(Mutex<Vec<Vec<Change>>>);

    impl Journal for Kept {
        fn record(&self, changes: Vec<Change>) {
            self.0.lock().unwrap().push(changes);
        }
    }

    /// Each write and each transaction is one commit; a refused one is none; restoring writes
    /// nothing; tables keep numbers never reused.
    #[test]
    fn commits_follow_the_writes() {
        let kept = Arc::new(Kept::default());
        let store = Store::new().with_journal(kept.clone());
        store.create_table("tab1").unwrap();
        store
            .insert("tab1", &Entity::new("p", "a").with("N", 1))
            .unwrap();
        assert!(store.insert("tab1", &Entity::new("p", "a")).is_err());
        store
            .execute_batch(
                "tab1",
                &[
                    BatchOperation::UpsertMerge(Entity::new("p", "a").with("M", 2)),
                    BatchOperation::Delete {
                        partition_key: "p".into(),
                        row_key: "gone".into(),
                        if_match: IfMatch::Any,
                    },
                ],
            )
            .unwrap_err();
        store
            .execute_batch(
                "tab1",
                &[
                    BatchOperation::UpsertMerge(Entity::new("p", "a").with("M", 2)),
                    BatchOperation::Insert(Entity::new("p", "b")),
                ],
            )
            .unwrap();
        store.delete_table("tab1").unwrap();
        store.create_table("tab1").unwrap();
        let commits = kept.0.lock().unwrap().clone();
        assert_eq!(commits.len(), 5, "{commits:?}");
        assert_eq!(
            commits[0],
            vec![Change::CreateTable {
                id: 1,
                name: "tab1".into()
            }]
        );
        match &commits[2][..] {
            [
                Change::Put { table: 1, entity },
                Change::Put { table: 1, .. },
            ] => {
                // The merged entity, as stored, with its Timestamp.
                assert_eq!(entity.get("N"), Some(&crate::Value::Int32(1)));
                assert_eq!(entity.get("M"), Some(&crate::Value::Int32(2)));
                assert!(entity.timestamp.is_some());
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(commits[3], vec![Change::DeleteTable { id: 1 }]);
        assert_eq!(
            commits[4],
            vec![Change::CreateTable {
                id: 2,
                name: "tab1".into()
            }]
        );

        // What a journal kept comes back without being journaled again.
        let again = Arc::new(Kept::default());
        let restored = Store::with_options(StoreOptions::default());
        restored.restore_table(7, "Back").unwrap();
        let mut e = Entity::new("p", "r");
        e.timestamp = Some(crate::DateTime::parse("2030-01-01T00:00:00Z").unwrap());
        restored.restore_entity("Back", &e).unwrap();
        let restored = restored.with_journal(again.clone());
        assert!(again.0.lock().unwrap().is_empty());
        let read = restored.get("Back", "p", "r", None).unwrap();
        assert_eq!(read.timestamp, e.timestamp);
        let later = restored
            .upsert_merge("Back", &Entity::new("p", "r"))
            .unwrap();
        assert!(Some(later.timestamp) > e.timestamp);
        restored.create_table("Next").unwrap();
        assert!(matches!(
            again.0.lock().unwrap().last().unwrap()[..],
            [Change::CreateTable { id: 8, .. }]
        ));
    }
}

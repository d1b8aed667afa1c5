//! Typed entity group transactions: values of several [`TableEntity`] types that live in one
//! partition of one table, written together so that either every change lands or none does.
//!
//! This is what keeps two designs from the guides consistent:
//!
//! - *Denormalization*: an entity carries a copy of another entity's fields (a department holding
//!   its manager's name and email). Changing the source and the copy in one [`Transaction`] means
//!   no reader ever sees them disagree.
//! - *Compound keys*: related entities of another type share the partition under a RowKey built
//!   from several fields (`review_{employee_id}_{year}`), so they can be written together with
//!   the entity they belong to.
//!
//! Each value brings its same-partition index copies into the same transaction, as
//! [`Table`](crate::Table) does: copies are written with insert-or-replace, a copy whose key
//! changed is deleted, and a deleted value takes its copies with it. Finding the copies to
//! delete needs the stored version, so for types with indexes [`Transaction::commit`] reads it
//! first and makes the write conditional on that version, starting over (up to
//! [`MAX_ATTEMPTS`] times) if someone changed it in between.
//!
//! What one transaction can't hold is refused with a [`StoreError`] when the value is added,
//! before anything is sent: values in another partition or table, more than 100 operations or
//! 4 MiB in all, a RowKey touched twice, and types whose index copies live in another partition.
//! Those copies can only be kept eventually consistent; [`Transaction::index_queue`] registers
//! the type's [`IndexQueue`] so each commit announces an [`IndexJob`] for an
//! [`IndexWorker`](crate::index::maintain::IndexWorker) to finish.
//!
//! A failure names the value it came from: [`StoreError::failed_index`] is the value's position
//! in the transaction (in the order it was added), not the position of the underlying operation.
//!
//! ```
//! use pollster::block_on;
//! use table_runtime::transaction::Transaction;
//! use table_runtime::{IfMatch, Store, TableEntity};
//!
//! #[derive(TableEntity)]
//! #[table(name = "Staff", partition_key = "{department}", row_key = "empid_{id:06}")]
//! #[table(entity_type = "Employee", rename_all = "PascalCase")]
//! struct Employee { department: String, id: u32, name: String }
//!
//! #[derive(TableEntity)]
//! #[table(name = "Staff", partition_key = "{name}", row_key = "department")]
//! #[table(entity_type = "Department", rename_all = "PascalCase")]
//! struct Department { name: String, headcount: i32 }
//!
//! let store = Store::new();
//! store.create_table("Staff").unwrap();
//! let sales = Department { name: "Sales".into(), headcount: 0 };
//! store.insert("Staff", &sales.to_entity().unwrap()).unwrap();
//!
//! // A hire and the new headcount: both or neither.
//! let ann = Employee { department: "Sales".into(), id: 7, name: "Ann".into() };
//! let mut tx = Transaction::new();
//! tx.insert(&ann)?.replace(&Department { headcount: 1, ..sales }, IfMatch::Any)?;
//! let etags = block_on(tx.commit(&store))?;
//! assert_eq!(etags.len(), 2);
//!
//! // Hiring Ann again fails as a whole, and the error points at the first value.
//! let mut again = Transaction::new();
//! again.insert(&ann)?.replace(&Department { name: "Sales".into(), headcount: 2 }, IfMatch::Any)?;
//! let err = block_on(again.commit(&store)).unwrap_err();
//! assert_eq!((err.status, err.failed_index), (409, Some(0)));
//! let stored = Department::from_entity(&store.get("Staff", "Sales", "department", None)?)?;
//! assert_eq!(stored.headcount, 1);
//!
//! // Another partition can't join.
//! let bob = Employee { department: "Support".into(), id: 8, name: "Bob".into() };
//! assert_eq!(Transaction::new().insert(&ann)?.insert(&bob).unwrap_err().failed_index, Some(1));
//! # Ok::<(), table_runtime::StoreError>(())
//! ```

use std::collections::HashSet;

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::{ETag, Entity, IfMatch};
use crate::error::{ErrorCode, StoreError};
use crate::index::maintain::IndexJob;
use crate::index::{Keys, copies_of, has_cross_partition_copies};
use crate::limits::Limits;
use crate::queue::{JobQueue, Receipt};
use crate::table::MAX_ATTEMPTS;
use crate::typed::{ConversionError, IndexCopy, TableEntity};

/// What a transaction does with one value.
#[derive(Debug, Clone, PartialEq)]
enum Action {
    Insert,
    Upsert,
    /// Insert or merge: the service's InsertOrMerge.
    UpsertMerge,
    Replace(IfMatch),
    Merge(IfMatch),
    Delete(IfMatch),
}

impl Action {
    fn verb(&self) -> &'static str {
        match self {
            Action::Insert => "insert",
            Action::Upsert => "upsert",
            Action::UpsertMerge => "upsert-merge",
            Action::Replace(_) => "replace",
            Action::Merge(_) => "merge",
            Action::Delete(_) => "delete",
        }
    }
}

/// The copies (with their markers) of a stored entity read as the slot's type.
type CopiesOf = fn(&Entity) -> Result<Vec<IndexCopy>, ConversionError>;

fn copies_of_entity<T: TableEntity>(entity: &Entity) -> Result<Vec<IndexCopy>, ConversionError> {
    copies_of(&T::from_entity(entity)?)
}

/// One value of the transaction, converted when it was added.
struct Slot<'q> {
    type_name: &'static str,
    action: Action,
    entity: Entity,
    /// The value's own same-partition copies.
    copies: Vec<Entity>,
    /// Whether the value has index copies, so commit reads the stored version first.
    indexed: bool,
    copies_of: CopiesOf,
    /// Where the type's other-partition copies are announced.
    queue: Option<&'q dyn JobQueue<IndexJob>>,
}

impl Slot<'_> {
    fn reads_first(&self) -> bool {
        self.indexed && self.action != Action::Insert
    }
}

/// What an operation of the batch is, for reporting and retrying.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// The value itself.
    Value,
    /// A copy written for the value.
    Copy,
    /// A copy removed because the value's keys for it changed or the value is deleted.
    OldCopy,
}

struct Owner {
    value: usize,
    role: Role,
    row_key: String,
    /// The operation's condition came from the commit's own read, not from the caller: failing
    /// it means someone wrote in between, and the commit starts over.
    ours: bool,
}

/// The batch for one attempt.
struct Plan {
    ops: Vec<BatchOperation>,
    owners: Vec<Owner>,
    /// The operation of each value, in value order.
    main: Vec<usize>,
}

fn push(plan: &mut Plan, value: usize, role: Role, ours: bool, op: BatchOperation) {
    plan.owners.push(Owner {
        value,
        role,
        row_key: op.keys().1.to_owned(),
        ours,
    });
    plan.ops.push(op);
}

/// Changes to values of one or more [`TableEntity`] types in one partition of one table,
/// committed as one entity group transaction.
///
/// Values are checked and converted as they are added; [`Transaction::commit`] runs it.
pub struct Transaction<'q> {
    table: Option<String>,
    design_table: Option<&'static str>,
    partition_key: Option<String>,
    slots: Vec<Slot<'q>>,
    queues: Vec<(&'static str, &'q dyn JobQueue<IndexJob>)>,
    row_keys: HashSet<String>,
    operations: usize,
    bytes: usize,
    limits: Limits,
}

impl std::fmt::Debug for Transaction<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let values: Vec<String> = self
            .slots
            .iter()
            .map(|s| {
                format!(
                    "{} {} {:?}",
                    s.action.verb(),
                    short_name(s.type_name),
                    s.entity.row_key
                )
            })
            .collect();
        f.debug_struct("Transaction")
            .field("table", &self.table())
            .field("partition_key", &self.partition_key)
            .field("values", &values)
            .field("operations", &self.operations)
            .finish()
    }
}

impl Default for Transaction<'_> {
    fn default() -> Self {
        Transaction::new()
    }
}

fn refused(code: ErrorCode, position: usize, message: String) -> StoreError {
    StoreError::new(code, message).at_index(position)
}

impl<'q> Transaction<'q> {
    /// An empty transaction on the table the first value's type names (`T::TABLE`).
    pub fn new() -> Self {
        Transaction {
            table: None,
            design_table: None,
            partition_key: None,
            slots: Vec::new(),
            queues: Vec::new(),
            row_keys: HashSet::new(),
            operations: 0,
            bytes: 0,
            limits: Limits::default(),
        }
    }

    /// An empty transaction on the table `name` instead of the types' own, for a design kept in
    /// several tables (per period, or an archive). The values must still share one `T::TABLE`.
    pub fn in_table(name: impl Into<String>) -> Self {
        Transaction {
            table: Some(name.into()),
            ..Transaction::new()
        }
    }

    /// Registers the queue that keeps `T`'s index copies in other partitions, so values of `T`
    /// may join: each commit announces an [`IndexJob`] for every such value (hidden until the
    /// transaction is answered, withdrawn if the service refused it) for an
    /// [`IndexWorker<_, T>`](crate::index::maintain::IndexWorker) to finish.
    pub fn index_queue<T: TableEntity>(&mut self, queue: &'q dyn JobQueue<IndexJob>) -> &mut Self {
        let name = std::any::type_name::<T>();
        self.queues.retain(|(n, _)| *n != name);
        self.queues.push((name, queue));
        self
    }

    /// The table the transaction writes, once known (given, or from the first value).
    pub fn table(&self) -> Option<&str> {
        self.table.as_deref().or(self.design_table)
    }

    /// The PartitionKey every value shares, once a value was added.
    pub fn partition_key(&self) -> Option<&str> {
        self.partition_key.as_deref()
    }

    /// How many values were added.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether no value was added.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Operations so far: each value and its same-partition copies. Deletes of copies whose
    /// keys change are found at commit and come on top.
    pub fn operations(&self) -> usize {
        self.operations
    }

    /// Inserts a value (`EntityAlreadyExists` at commit if it exists) with its copies.
    pub fn insert<T: TableEntity>(&mut self, value: &T) -> Result<&mut Self, StoreError> {
        self.add(value, Action::Insert)
    }

    /// Writes a value whether or not it exists, with its copies.
    pub fn upsert<T: TableEntity>(&mut self, value: &T) -> Result<&mut Self, StoreError> {
        self.add(value, Action::Upsert)
    }

    /// Inserts a value, or merges its properties into the stored entity when there is one
    /// (the service's InsertOrMerge): properties the value does not write are kept. Its copies
    /// are written from the merged result.
    pub fn upsert_merge<T: TableEntity>(&mut self, value: &T) -> Result<&mut Self, StoreError> {
        self.add(value, Action::UpsertMerge)
    }

    /// Replaces an existing value if it matches `if_match`, with its copies.
    pub fn replace<T: TableEntity>(
        &mut self,
        value: &T,
        if_match: IfMatch,
    ) -> Result<&mut Self, StoreError> {
        self.add(value, Action::Replace(if_match))
    }

    /// Merges a value's properties into the existing entity if it matches `if_match`:
    /// properties the value does not write (a projection's other fields, `None`s) are kept.
    /// Its copies are rewritten from the merged result.
    pub fn merge<T: TableEntity>(
        &mut self,
        value: &T,
        if_match: IfMatch,
    ) -> Result<&mut Self, StoreError> {
        self.add(value, Action::Merge(if_match))
    }

    /// Deletes an existing value if it matches `if_match`, with the copies it has.
    pub fn delete<T: TableEntity>(
        &mut self,
        value: &T,
        if_match: IfMatch,
    ) -> Result<&mut Self, StoreError> {
        self.add(value, Action::Delete(if_match))
    }

    fn add<T: TableEntity>(&mut self, value: &T, action: Action) -> Result<&mut Self, StoreError> {
        let position = self.slots.len();
        let type_name = std::any::type_name::<T>();
        let short = short_name(type_name);
        let fail = |code, message: String| {
            refused(
                code,
                position,
                format!(
                    "value {position} ({} of `{short}`): {message}",
                    action.verb()
                ),
            )
        };
        if let Some(table) = self.design_table
            && table != T::TABLE
        {
            return Err(fail(
                ErrorCode::CommandsInBatchActOnDifferentPartitions,
                format!(
                    "`{short}` is stored in table `{}`, the transaction's values in `{table}`; one transaction covers one table",
                    T::TABLE
                ),
            ));
        }
        let all_copies =
            copies_of(value).map_err(|e| fail(ErrorCode::InvalidInput, e.to_string()))?;
        // A derived enum declares no indexes itself; its variants' copies tell.
        let cross =
            has_cross_partition_copies::<T>() || all_copies.iter().any(|c| !c.index.same_partition);
        let queue = self
            .queues
            .iter()
            .find(|(n, _)| *n == type_name)
            .map(|(_, q)| *q)
            .filter(|_| cross);
        if queue.is_none() && cross {
            let names: Vec<String> = all_copies
                .iter()
                .filter(|c| !c.index.same_partition)
                .map(|c| format!("`{}`", c.index.name))
                .collect();
            return Err(fail(
                ErrorCode::InvalidInput,
                format!(
                    "`{short}` keeps index {} in another partition, which no transaction can include; those copies need the queue: register one with `Transaction::index_queue::<{short}>` and run an `IndexWorker` on it",
                    names.join(", ")
                ),
            ));
        }
        let entity = value
            .to_entity()
            .map_err(|e| fail(ErrorCode::InvalidInput, e.to_string()))?;
        let indexed = !T::INDEXES.is_empty() || !all_copies.is_empty();
        let copies: Vec<Entity> = same_partition(all_copies);
        if let Some(pk) = &self.partition_key
            && *pk != entity.partition_key
        {
            return Err(fail(
                ErrorCode::CommandsInBatchActOnDifferentPartitions,
                format!(
                    "its PartitionKey is `{}`, the transaction's `{pk}`; one transaction covers one partition",
                    entity.partition_key
                ),
            ));
        }
        let mut keys: Vec<&str> = Vec::with_capacity(1 + copies.len());
        for rk in std::iter::once(&entity.row_key).chain(copies.iter().map(|c| &c.row_key)) {
            if self.row_keys.contains(rk.as_str()) || keys.contains(&rk.as_str()) {
                return Err(fail(
                    ErrorCode::InvalidDuplicateRow,
                    format!("RowKey `{rk}` is already written by this transaction"),
                ));
            }
            keys.push(rk);
        }
        let operations = self.operations + 1 + copies.len();
        if operations > self.limits.max_batch_operations {
            return Err(fail(
                ErrorCode::InvalidInput,
                format!(
                    "with its {} index copies the transaction needs {operations} operations; the limit is {}",
                    copies.len(),
                    self.limits.max_batch_operations
                ),
            ));
        }
        let main_bytes = match &action {
            Action::Delete(_) => BatchOperation::Delete {
                partition_key: entity.partition_key.clone(),
                row_key: entity.row_key.clone(),
                if_match: IfMatch::Any,
            }
            .payload_bytes(),
            _ => BatchOperation::UpsertReplace(entity.clone()).payload_bytes(),
        };
        let bytes = self.bytes
            + main_bytes
            + copies
                .iter()
                .map(|c| BatchOperation::UpsertReplace(c.clone()).payload_bytes())
                .sum::<usize>();
        if bytes > self.limits.max_batch_bytes {
            return Err(fail(
                ErrorCode::RequestBodyTooLarge,
                format!(
                    "the transaction's payload would be about {bytes} bytes; the limit is {}",
                    self.limits.max_batch_bytes
                ),
            ));
        }

        self.row_keys.insert(entity.row_key.clone());
        self.row_keys
            .extend(copies.iter().map(|c| c.row_key.clone()));
        self.design_table = Some(T::TABLE);
        self.partition_key = Some(entity.partition_key.clone());
        self.operations = operations;
        self.bytes = bytes;
        self.slots.push(Slot {
            type_name,
            action,
            entity,
            copies,
            indexed,
            copies_of: copies_of_entity::<T>,
            queue,
        });
        Ok(self)
    }

    /// Runs the transaction: every change lands, or none does. Returns the ETag of each value
    /// in the order they were added (`None` for a delete); copies' ETags are not returned.
    ///
    /// An empty transaction does nothing. On failure, [`StoreError::failed_index`] is the
    /// position of the value whose operation (or whose index copy's) failed.
    pub async fn commit<B: Backend>(&self, backend: &B) -> Result<Vec<Option<ETag>>, StoreError> {
        let Some(table) = self.table() else {
            return Ok(Vec::new());
        };
        // Copies found already gone while deleting them: nothing left to delete.
        let mut gone: HashSet<String> = HashSet::new();
        let mut conflicts = 0;
        loop {
            let mut stored = Vec::with_capacity(self.slots.len());
            for (position, slot) in self.slots.iter().enumerate() {
                stored.push(read_stored(backend, table, position, slot).await?);
            }
            let plan = self.plan(&stored, &gone)?;
            let receipts = self.announce(table, &stored).await?;
            let Plan { ops, owners, main } = plan;
            match backend.execute_batch(table, ops).await {
                Ok(results) => {
                    for (queue, receipt) in &receipts {
                        // A job that already became visible (the commit outlasted the
                        // visibility timeout) may be with a worker; it runs either way.
                        queue.settle(receipt, false).await;
                    }
                    return Ok(main
                        .iter()
                        .map(|&i| results.get(i).and_then(|r| r.etag.clone()))
                        .collect());
                }
                Err(e) => {
                    // A refusal (4xx) wrote nothing: the jobs are withdrawn. Any other failure
                    // (no answer, 5xx) may have written, so the worker checks.
                    for (queue, receipt) in &receipts {
                        queue.settle(receipt, e.is_refusal()).await;
                    }
                    let Some(owner) = e.failed_index.and_then(|i| owners.get(i)) else {
                        return Err(e);
                    };
                    if owner.role == Role::OldCopy && e.code == ErrorCode::ResourceNotFound {
                        gone.insert(owner.row_key.clone());
                        continue;
                    }
                    let conflict = matches!(
                        e.code,
                        ErrorCode::UpdateConditionNotSatisfied
                            | ErrorCode::EntityAlreadyExists
                            | ErrorCode::ResourceNotFound
                    );
                    if owner.ours && conflict {
                        conflicts += 1;
                        if conflicts < MAX_ATTEMPTS {
                            continue;
                        }
                        return Err(self.value_error(
                            StoreError::new(
                                ErrorCode::UpdateConditionNotSatisfied,
                                format!("it kept changing: gave up after {MAX_ATTEMPTS} attempts"),
                            ),
                            owner,
                        ));
                    }
                    return Err(self.value_error(e, owner));
                }
            }
        }
    }

    /// The batch for one attempt, from the stored versions just read.
    fn plan(&self, stored: &[Option<Entity>], gone: &HashSet<String>) -> Result<Plan, StoreError> {
        let mut plan = Plan {
            ops: Vec::with_capacity(self.operations),
            owners: Vec::with_capacity(self.operations),
            main: Vec::with_capacity(self.slots.len()),
        };
        // Copies the stored versions have but the new ones don't, per value.
        let mut old_copies: Vec<Vec<String>> = Vec::with_capacity(self.slots.len());
        for (position, (slot, stored)) in self.slots.iter().zip(stored).enumerate() {
            let condition = |given: &IfMatch| match (given, stored) {
                (IfMatch::ETag(e), _) => (IfMatch::ETag(e.clone()), false),
                (IfMatch::Any, Some(s)) => {
                    (s.etag.clone().map_or(IfMatch::Any, IfMatch::ETag), true)
                }
                (IfMatch::Any, None) => (IfMatch::Any, false),
            };
            let entity = slot.entity.clone();
            plan.main.push(plan.ops.len());
            let mut copies = slot.copies.clone();
            match (&slot.action, stored) {
                (Action::Insert, _) => push(
                    &mut plan,
                    position,
                    Role::Value,
                    false,
                    BatchOperation::Insert(entity),
                ),
                (Action::Upsert | Action::UpsertMerge, _) if !slot.reads_first() => {
                    let op = if slot.action == Action::UpsertMerge {
                        BatchOperation::UpsertMerge(entity)
                    } else {
                        BatchOperation::UpsertReplace(entity)
                    };
                    push(&mut plan, position, Role::Value, false, op);
                }
                (Action::Upsert | Action::UpsertMerge, None) => push(
                    &mut plan,
                    position,
                    Role::Value,
                    true,
                    BatchOperation::Insert(entity),
                ),
                (Action::Upsert | Action::UpsertMerge, Some(s)) => {
                    let c = s.etag.clone().map_or(IfMatch::Any, IfMatch::ETag);
                    let op = if slot.action == Action::UpsertMerge {
                        // The copies of what the entity will be once merged.
                        if let Ok(all) = (slot.copies_of)(&merged_with(s, &entity)) {
                            copies = same_partition(all);
                        }
                        BatchOperation::Merge(entity, c)
                    } else {
                        BatchOperation::Replace(entity, c)
                    };
                    push(&mut plan, position, Role::Value, true, op);
                }
                (Action::Replace(given), _) => {
                    let (c, ours) = condition(given);
                    push(
                        &mut plan,
                        position,
                        Role::Value,
                        ours,
                        BatchOperation::Replace(entity, c),
                    );
                }
                (Action::Merge(given), _) => {
                    let (c, ours) = condition(given);
                    // The copies of what the entity will be once merged.
                    if let Some(s) = stored
                        && let Ok(all) = (slot.copies_of)(&merged_with(s, &entity))
                    {
                        copies = same_partition(all);
                    }
                    push(
                        &mut plan,
                        position,
                        Role::Value,
                        ours,
                        BatchOperation::Merge(entity, c),
                    );
                }
                (Action::Delete(given), _) => {
                    let (c, ours) = condition(given);
                    push(
                        &mut plan,
                        position,
                        Role::Value,
                        ours,
                        BatchOperation::Delete {
                            partition_key: entity.partition_key,
                            row_key: entity.row_key,
                            if_match: c,
                        },
                    );
                }
            }
            let deleting = matches!(slot.action, Action::Delete(_));
            let mut old: Vec<String> = match stored.as_ref().map(|s| (slot.copies_of)(s)) {
                Some(Ok(all)) => same_partition(all).into_iter().map(|c| c.row_key).collect(),
                // No stored version read, or one this type can't read: the copies it would
                // have are the value's own.
                _ if deleting => slot.copies.iter().map(|c| c.row_key.clone()).collect(),
                _ => Vec::new(),
            };
            if deleting {
                copies.clear();
            } else {
                old.retain(|rk| !copies.iter().any(|c| c.row_key == *rk));
                for copy in copies {
                    push(
                        &mut plan,
                        position,
                        Role::Copy,
                        false,
                        BatchOperation::UpsertReplace(copy),
                    );
                }
            }
            old_copies.push(old);
        }
        // Removing old copies comes last, skipping any key the transaction writes anyway.
        let written: HashSet<String> = plan.owners.iter().map(|o| o.row_key.clone()).collect();
        let pk = self.partition_key.clone().unwrap_or_default();
        for (position, old) in old_copies.into_iter().enumerate() {
            for rk in old {
                if written.contains(&rk) || gone.contains(&rk) {
                    continue;
                }
                let op = BatchOperation::Delete {
                    partition_key: pk.clone(),
                    row_key: rk,
                    if_match: IfMatch::Any,
                };
                push(&mut plan, position, Role::OldCopy, true, op);
                if plan.ops.len() > self.limits.max_batch_operations {
                    return Err(refused(
                        ErrorCode::InvalidInput,
                        position,
                        format!(
                            "value {position}: with the deletes of index copies whose keys changed, the transaction needs more than {} operations",
                            self.limits.max_batch_operations
                        ),
                    ));
                }
            }
        }
        Ok(plan)
    }

    /// Sends, hidden, a job for each value whose type keeps copies in other partitions. If one
    /// can't be sent, those sent are withdrawn and nothing is written: a write without its job
    /// would leave copies nobody updates.
    async fn announce(
        &self,
        table: &str,
        stored: &[Option<Entity>],
    ) -> Result<Vec<(&'q dyn JobQueue<IndexJob>, Receipt)>, StoreError> {
        let mut receipts = Vec::new();
        for (slot, stored) in self.slots.iter().zip(stored) {
            let Some(queue) = slot.queue else {
                continue;
            };
            let previous = stored
                .as_ref()
                .and_then(|s| (slot.copies_of)(s).ok())
                .unwrap_or_default()
                .into_iter()
                .filter(|c| !c.index.same_partition)
                .map(|c| Keys::of(&c.entity))
                .collect();
            let job = IndexJob {
                table: table.to_owned(),
                entity: Keys::of(&slot.entity),
                previous,
            };
            match queue.announce(job).await {
                Ok(receipt) => receipts.push((queue, receipt)),
                Err(e) => {
                    for (queue, receipt) in &receipts {
                        queue.settle(receipt, true).await;
                    }
                    return Err(e.into());
                }
            }
        }
        Ok(receipts)
    }

    /// An error of the batch, reported against the value it came from.
    fn value_error(&self, mut e: StoreError, owner: &Owner) -> StoreError {
        let slot = &self.slots[owner.value];
        let what = match owner.role {
            Role::Value => String::new(),
            Role::Copy => format!(", its index copy `{}`", owner.row_key),
            Role::OldCopy => format!(", removing its old index copy `{}`", owner.row_key),
        };
        e.message = format!(
            "value {} ({} of `{}` at RowKey `{}`{what}): {}",
            owner.value,
            slot.action.verb(),
            short_name(slot.type_name),
            slot.entity.row_key,
            e.message
        );
        e.failed_index = Some(owner.value);
        e
    }
}

fn same_partition(copies: Vec<IndexCopy>) -> Vec<Entity> {
    copies
        .into_iter()
        .filter(|c| c.index.same_partition)
        .map(|c| c.entity)
        .collect()
}

/// What a stored entity becomes once `entity` is merged into it: its properties, with the
/// merged ones written over them.
fn merged_with(stored: &Entity, entity: &Entity) -> Entity {
    let mut merged = stored.clone();
    merged.properties.extend(
        entity
            .properties
            .iter()
            .map(|(k, v)| (k.clone(), v.clone())),
    );
    merged
}

/// The stored version of a value, for types whose copies depend on it.
async fn read_stored<B: Backend>(
    backend: &B,
    table: &str,
    position: usize,
    slot: &Slot<'_>,
) -> Result<Option<Entity>, StoreError> {
    if !slot.reads_first() {
        return Ok(None);
    }
    match backend
        .get(
            table,
            &slot.entity.partition_key,
            &slot.entity.row_key,
            None,
        )
        .await
    {
        Ok(e) => Ok(Some(e)),
        Err(e)
            if e.code == ErrorCode::ResourceNotFound
                && matches!(slot.action, Action::Upsert | Action::UpsertMerge) =>
        {
            Ok(None)
        }
        Err(mut e) => {
            e.message = format!(
                "value {position} ({} of `{}` at RowKey `{}`): {}",
                slot.action.verb(),
                short_name(slot.type_name),
                slot.entity.row_key,
                e.message
            );
            Err(e.at_index(position))
        }
    }
}

/// A type's name without its module path (`hr::Employee` becomes `Employee`).
fn short_name(type_name: &'static str) -> &'static str {
    let base = type_name.split('<').next().unwrap_or(type_name);
    base.rsplit("::").next().unwrap_or(base)
}

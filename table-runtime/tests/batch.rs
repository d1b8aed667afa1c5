//! Entity group transactions: all or nothing (a failure at any position leaves the partition,
//! ETags included, exactly as it was and names the failing operation), the limits on size, count,
//! partitions and duplicates, and a successful transaction of every kind of operation.

use std::collections::BTreeMap;

use proptest::prelude::*;
use table_runtime::{BatchOperation, ETag, Entity, ErrorCode, IfMatch, Query, Store, Value};

const TABLE: &str = "Batches";

/// `n` cases, or `PROPTEST_CASES` when set, to run longer by hand.
fn cases(n: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n);
    ProptestConfig::with_cases(n)
}

/// Everything observable about a partition: keys, ETags, Timestamps and properties, in order.
fn snapshot(store: &Store, pk: &str) -> Vec<String> {
    let query = Query::filter(&format!(
        "PartitionKey eq {}",
        table_runtime::query::quote(pk)
    ))
    .unwrap();
    store
        .query_all(TABLE, &query)
        .unwrap()
        .iter()
        .map(|e| format!("{e:?}"))
        .collect()
}

fn new_store() -> Store {
    let store = Store::new();
    store.create_table(TABLE).unwrap();
    store
}

fn delete(pk: &str, rk: &str, if_match: IfMatch) -> BatchOperation {
    BatchOperation::Delete {
        partition_key: pk.into(),
        row_key: rk.into(),
        if_match,
    }
}

/// The ways to make one operation of a transaction fail.
#[derive(Debug, Clone, Copy)]
enum Conflict {
    InsertExisting,
    ReplaceMissing,
    MergeMissing,
    DeleteMissing,
    ReplaceStale,
    MergeStale,
    DeleteStale,
    /// An ETag that is not the service's form at all, as a proxy might send.
    OpaqueETag,
}

impl Conflict {
    fn expected(self) -> ErrorCode {
        match self {
            Conflict::InsertExisting => ErrorCode::EntityAlreadyExists,
            Conflict::ReplaceMissing | Conflict::MergeMissing | Conflict::DeleteMissing => {
                ErrorCode::ResourceNotFound
            }
            Conflict::ReplaceStale
            | Conflict::MergeStale
            | Conflict::DeleteStale
            | Conflict::OpaqueETag => ErrorCode::UpdateConditionNotSatisfied,
        }
    }
}

fn conflict_strategy() -> impl Strategy<Value = Conflict> {
    prop_oneof![
        Just(Conflict::InsertExisting),
        Just(Conflict::ReplaceMissing),
        Just(Conflict::MergeMissing),
        Just(Conflict::DeleteMissing),
        Just(Conflict::ReplaceStale),
        Just(Conflict::MergeStale),
        Just(Conflict::DeleteStale),
        Just(Conflict::OpaqueETag),
    ]
}

/// The operations that succeed on their own, applied around the failing one.
#[derive(Debug, Clone, Copy)]
enum Benign {
    InsertNew,
    UpsertReplace,
    UpsertMerge,
    ReplaceCurrent,
    MergeAny,
    DeleteCurrent,
}

fn benign_strategy() -> impl Strategy<Value = Benign> {
    prop_oneof![
        4 => Just(Benign::InsertNew),
        1 => Just(Benign::UpsertReplace),
        1 => Just(Benign::UpsertMerge),
        1 => Just(Benign::ReplaceCurrent),
        1 => Just(Benign::MergeAny),
        1 => Just(Benign::DeleteCurrent),
    ]
}

const PK: &str = "part";

/// Pre-existing rows `pre00`.. (each written twice, so each has a stale ETag) and a row `victim`
/// that only the failing operation touches. Returns the current and the stale ETags by RowKey.
fn setup(store: &Store, existing: usize) -> (BTreeMap<String, ETag>, BTreeMap<String, ETag>) {
    let mut current = BTreeMap::new();
    let mut stale = BTreeMap::new();
    let rows = (0..existing)
        .map(|i| format!("pre{i:02}"))
        .chain(["victim".to_owned()]);
    for rk in rows {
        let first = store
            .insert(TABLE, &Entity::new(PK, &rk).with("V", 1).with("Keep", "k"))
            .unwrap();
        let second = store
            .replace(
                TABLE,
                &Entity::new(PK, &rk).with("V", 2).with("Keep", "k"),
                IfMatch::ETag(first.etag.clone()),
            )
            .unwrap();
        stale.insert(rk.clone(), first.etag);
        current.insert(rk, second.etag);
    }
    (current, stale)
}

fn conflicting_op(conflict: Conflict, stale: &BTreeMap<String, ETag>) -> BatchOperation {
    let victim = || Entity::new(PK, "victim").with("V", 99);
    let missing = || Entity::new(PK, "missing").with("V", 99);
    let stale_etag = || IfMatch::ETag(stale["victim"].clone());
    match conflict {
        Conflict::InsertExisting => BatchOperation::Insert(victim()),
        Conflict::ReplaceMissing => BatchOperation::Replace(missing(), IfMatch::Any),
        Conflict::MergeMissing => BatchOperation::Merge(missing(), IfMatch::Any),
        Conflict::DeleteMissing => delete(PK, "missing", IfMatch::Any),
        Conflict::ReplaceStale => BatchOperation::Replace(victim(), stale_etag()),
        Conflict::MergeStale => BatchOperation::Merge(victim(), stale_etag()),
        Conflict::DeleteStale => delete(PK, "victim", stale_etag()),
        Conflict::OpaqueETag => BatchOperation::Replace(
            victim(),
            IfMatch::ETag(ETag::from_raw("\"0x8DC5D1A2B3C4D5E\"")),
        ),
    }
}

/// Builds the benign operations; those that need an existing row take the next unused one and
/// fall back to inserting a new row when none is left.
fn benign_ops(kinds: &[Benign], current: &BTreeMap<String, ETag>) -> Vec<BatchOperation> {
    let mut existing = current.iter().filter(|(rk, _)| rk.as_str() != "victim");
    kinds
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            let new_row = Entity::new(PK, format!("new{i:02}")).with("V", i as i32);
            let target = match kind {
                Benign::InsertNew => None,
                _ => existing.next(),
            };
            match (kind, target) {
                (_, None) => BatchOperation::Insert(new_row),
                (Benign::InsertNew, Some(_)) => unreachable!(),
                (Benign::UpsertReplace, Some((rk, _))) => {
                    BatchOperation::UpsertReplace(Entity::new(PK, rk).with("V", 10))
                }
                (Benign::UpsertMerge, Some((rk, _))) => {
                    BatchOperation::UpsertMerge(Entity::new(PK, rk).with("W", 11))
                }
                (Benign::ReplaceCurrent, Some((rk, etag))) => BatchOperation::Replace(
                    Entity::new(PK, rk).with("V", 12),
                    IfMatch::ETag(etag.clone()),
                ),
                (Benign::MergeAny, Some((rk, _))) => {
                    BatchOperation::Merge(Entity::new(PK, rk).with("W", 13), IfMatch::Any)
                }
                (Benign::DeleteCurrent, Some((rk, etag))) => {
                    delete(PK, rk, IfMatch::ETag(etag.clone()))
                }
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(cases(64))]

    /// A failure at any position k of a transaction of up to 20 operations names k and leaves
    /// the partition exactly as it was; the same transaction with operation k made harmless
    /// succeeds, so the failure really came from k.
    #[test]
    fn a_failure_anywhere_rolls_back_everything(
        (n, k) in (1usize..=20).prop_flat_map(|n| (Just(n), 0..n)),
        existing in 0usize..6,
        kinds in proptest::collection::vec(benign_strategy(), 20),
        conflict in conflict_strategy(),
    ) {
        let store = new_store();
        let (current, stale) = setup(&store, existing);
        // A neighbouring partition that must not change either.
        store.insert(TABLE, &Entity::new("other", "x").with("V", 1)).unwrap();
        let before = snapshot(&store, PK);
        let other_before = snapshot(&store, "other");

        let mut ops = benign_ops(&kinds[..n], &current);
        let harmless = ops[k].clone();
        ops[k] = conflicting_op(conflict, &stale);

        let err = store.execute_batch(TABLE, &ops).unwrap_err();
        prop_assert_eq!(err.failed_index, Some(k), "{:?}", err);
        prop_assert_eq!(err.code, conflict.expected(), "{:?}", err);
        prop_assert_eq!(err.status, conflict.expected().status());
        prop_assert_eq!(&snapshot(&store, PK), &before);
        prop_assert_eq!(&snapshot(&store, "other"), &other_before);
        prop_assert!(store.get(TABLE, PK, "missing", None).is_err());

        // The same transaction without the conflict succeeds and changes the partition.
        ops[k] = harmless;
        let results = store.execute_batch(TABLE, &ops).unwrap();
        prop_assert_eq!(results.len(), n);
        prop_assert_ne!(&snapshot(&store, PK), &before);
    }

    /// A failing transaction into a partition that does not exist yet leaves no trace of it.
    #[test]
    fn a_failed_transaction_into_a_new_partition_leaves_nothing(
        (n, k) in (1usize..=20).prop_flat_map(|n| (Just(n), 0..n)),
    ) {
        let store = new_store();
        let mut ops: Vec<BatchOperation> = (0..n)
            .map(|i| BatchOperation::Insert(Entity::new("fresh", format!("r{i:02}"))))
            .collect();
        ops[k] = delete("fresh", "absent", IfMatch::Any);
        let err = store.execute_batch(TABLE, &ops).unwrap_err();
        prop_assert_eq!(err.failed_index, Some(k));
        prop_assert_eq!(err.code, ErrorCode::ResourceNotFound);
        prop_assert!(store.query_all(TABLE, &Query::all()).unwrap().is_empty());
    }
}

#[test]
fn the_first_failing_operation_is_the_one_named() {
    let store = new_store();
    store.insert(TABLE, &Entity::new(PK, "a")).unwrap();
    store.insert(TABLE, &Entity::new(PK, "b")).unwrap();
    let ops = [
        BatchOperation::Insert(Entity::new(PK, "new")),
        BatchOperation::Insert(Entity::new(PK, "b")),
        BatchOperation::Insert(Entity::new(PK, "a")),
    ];
    let err = store.execute_batch(TABLE, &ops).unwrap_err();
    assert_eq!(err.failed_index, Some(1));
    assert_eq!(err.code, ErrorCode::EntityAlreadyExists);
    assert_eq!(err.status, 409);
    assert!(err.to_string().contains("operation 1"), "{err}");
}

#[test]
fn at_most_100_operations() {
    let store = new_store();
    let ops = |n: usize, pk: &str| -> Vec<BatchOperation> {
        (0..n)
            .map(|i| BatchOperation::Insert(Entity::new(pk, format!("r{i:03}"))))
            .collect()
    };
    let err = store.execute_batch(TABLE, &ops(101, "big")).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert_eq!(err.status, 400);
    assert!(store.query_all(TABLE, &Query::all()).unwrap().is_empty());
    let results = store.execute_batch(TABLE, &ops(100, "big")).unwrap();
    assert_eq!(results.len(), 100);
    assert_eq!(store.query_all(TABLE, &Query::all()).unwrap().len(), 100);
    // An empty transaction is refused too.
    let err = store.execute_batch(TABLE, &[]).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
}

#[test]
fn a_payload_over_4_mib_is_refused_with_413() {
    let store = new_store();
    // 50 entities with a 64 KiB binary property: about 4.4 MB of base64 JSON.
    let ops: Vec<BatchOperation> = (0..50)
        .map(|i| {
            BatchOperation::Insert(
                Entity::new("p", format!("r{i:02}")).with("B", vec![7u8; 65_536]),
            )
        })
        .collect();
    let payload: usize = ops.iter().map(BatchOperation::payload_bytes).sum();
    assert!(payload > 4 * 1024 * 1024, "{payload}");
    let err = store.execute_batch(TABLE, &ops).unwrap_err();
    assert_eq!(err.code, ErrorCode::RequestBodyTooLarge);
    assert_eq!(err.status, 413);
    assert!(store.query_all(TABLE, &Query::all()).unwrap().is_empty());
    // Fewer of the same operations fit.
    let results = store.execute_batch(TABLE, &ops[..40]).unwrap();
    assert_eq!(results.len(), 40);
}

#[test]
fn a_row_touched_twice_is_invalid_duplicate_row() {
    let store = new_store();
    store.insert(TABLE, &Entity::new(PK, "a")).unwrap();
    let before = snapshot(&store, PK);
    let cases = [
        vec![
            BatchOperation::Insert(Entity::new(PK, "x")),
            BatchOperation::Insert(Entity::new(PK, "y")),
            BatchOperation::Insert(Entity::new(PK, "x")),
        ],
        vec![
            BatchOperation::Merge(Entity::new(PK, "a").with("V", 1), IfMatch::Any),
            BatchOperation::Insert(Entity::new(PK, "z")),
            delete(PK, "a", IfMatch::Any),
        ],
    ];
    for ops in cases {
        let err = store.execute_batch(TABLE, &ops).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidDuplicateRow);
        assert_eq!(err.status, 400);
        assert_eq!(err.failed_index, Some(2));
        assert_eq!(snapshot(&store, PK), before);
    }
}

#[test]
fn operations_on_different_partitions_are_refused() {
    let store = new_store();
    let ops = [
        BatchOperation::Insert(Entity::new("p1", "a")),
        BatchOperation::Insert(Entity::new("p1", "b")),
        BatchOperation::Insert(Entity::new("p2", "c")),
    ];
    let err = store.execute_batch(TABLE, &ops).unwrap_err();
    assert_eq!(err.code, ErrorCode::CommandsInBatchActOnDifferentPartitions);
    assert_eq!(err.status, 400);
    assert_eq!(err.failed_index, Some(2));
    assert!(store.query_all(TABLE, &Query::all()).unwrap().is_empty());
    // PartitionKeys that differ only in case are different partitions.
    let ops = [
        delete("P", "a", IfMatch::Any),
        BatchOperation::Insert(Entity::new("p", "b")),
    ];
    let err = store.execute_batch(TABLE, &ops).unwrap_err();
    assert_eq!(err.code, ErrorCode::CommandsInBatchActOnDifferentPartitions);
    assert_eq!(err.failed_index, Some(1));
}

#[test]
fn an_invalid_entity_names_its_operation() {
    let store = new_store();
    let ops = [
        BatchOperation::Insert(Entity::new(PK, "a")),
        BatchOperation::Insert(Entity::new(PK, "b")),
        BatchOperation::Insert(Entity::new(PK, "c").with("bad-name", 1)),
    ];
    let err = store.execute_batch(TABLE, &ops).unwrap_err();
    assert_eq!(err.code, ErrorCode::PropertyNameInvalid);
    assert_eq!(err.failed_index, Some(2));
    let ops = [
        BatchOperation::Insert(Entity::new(PK, "a")),
        delete(PK, "bad#key", IfMatch::Any),
    ];
    let err = store.execute_batch(TABLE, &ops).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert_eq!(err.failed_index, Some(1));
    assert!(store.query_all(TABLE, &Query::all()).unwrap().is_empty());
    // A missing table.
    let err = store
        .execute_batch("Missing", &[BatchOperation::Insert(Entity::new(PK, "a"))])
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::TableNotFound);
    assert_eq!(err.status, 404);
}

#[test]
fn a_successful_transaction_of_every_kind_of_operation() {
    let store = new_store();
    let mut etags = BTreeMap::new();
    for rk in [
        "replace",
        "merge",
        "upsert_replace",
        "upsert_merge",
        "delete",
        "untouched",
    ] {
        let written = store
            .insert(TABLE, &Entity::new(PK, rk).with("Old", "o").with("V", 1))
            .unwrap();
        etags.insert(rk, written.etag);
    }
    let ops = vec![
        BatchOperation::Insert(Entity::new(PK, "insert").with("V", 2)),
        BatchOperation::Replace(
            Entity::new(PK, "replace").with("V", 3),
            IfMatch::ETag(etags["replace"].clone()),
        ),
        BatchOperation::Merge(
            Entity::new(PK, "merge").with("V", 4).with("New", true),
            IfMatch::Any,
        ),
        BatchOperation::UpsertReplace(Entity::new(PK, "upsert_replace").with("V", 5)),
        BatchOperation::UpsertReplace(Entity::new(PK, "upsert_replace_new").with("V", 6)),
        BatchOperation::UpsertMerge(Entity::new(PK, "upsert_merge").with("V", 7)),
        BatchOperation::UpsertMerge(Entity::new(PK, "upsert_merge_new").with("V", 8)),
        delete(PK, "delete", IfMatch::ETag(etags["delete"].clone())),
    ];
    let results = store.execute_batch(TABLE, &ops).unwrap();
    assert_eq!(results.len(), ops.len());

    // Every write has an ETag (one for the whole transaction); the delete has none.
    let batch_etag = results[0].etag.clone().expect("an insert has an ETag");
    for (op, result) in ops.iter().zip(&results) {
        match op {
            BatchOperation::Delete { .. } => assert_eq!(result.etag, None),
            _ => assert_eq!(result.etag.as_ref(), Some(&batch_etag), "{op:?}"),
        }
    }
    for op in &ops {
        let (pk, rk) = op.keys();
        if let Some(e) = op.entity() {
            let stored = store.get(TABLE, pk, rk, None).unwrap();
            assert_eq!(stored.etag.as_ref(), Some(&batch_etag), "{rk}");
            assert_ne!(etags.get(rk), Some(&batch_etag));
            assert_eq!(stored.get("V"), e.get("V"), "{rk}");
        }
    }

    let props = |rk: &str| -> BTreeMap<String, Value> {
        store.get(TABLE, PK, rk, None).unwrap().properties
    };
    let map = |pairs: &[(&str, Value)]| -> BTreeMap<String, Value> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.clone()))
            .collect()
    };
    let old = || Value::String("o".into());
    assert_eq!(props("insert"), map(&[("V", Value::Int32(2))]));
    // Replace and upsert-replace drop what the new entity lacks.
    assert_eq!(props("replace"), map(&[("V", Value::Int32(3))]));
    assert_eq!(props("upsert_replace"), map(&[("V", Value::Int32(5))]));
    assert_eq!(props("upsert_replace_new"), map(&[("V", Value::Int32(6))]));
    // Merge and upsert-merge keep it.
    assert_eq!(
        props("merge"),
        map(&[
            ("New", Value::Boolean(true)),
            ("Old", old()),
            ("V", Value::Int32(4))
        ])
    );
    assert_eq!(
        props("upsert_merge"),
        map(&[("Old", old()), ("V", Value::Int32(7))])
    );
    assert_eq!(props("upsert_merge_new"), map(&[("V", Value::Int32(8))]));
    let gone = store.get(TABLE, PK, "delete", None).unwrap_err();
    assert_eq!(gone.code, ErrorCode::ResourceNotFound);
    assert_eq!(gone.status, 404);
    let untouched = store.get(TABLE, PK, "untouched", None).unwrap();
    assert_eq!(untouched.etag.as_ref(), Some(&etags["untouched"]));

    let rows: Vec<String> = store
        .query_all(TABLE, &Query::all())
        .unwrap()
        .into_iter()
        .map(|e| e.row_key)
        .collect();
    assert_eq!(
        rows,
        [
            "insert",
            "merge",
            "replace",
            "untouched",
            "upsert_merge",
            "upsert_merge_new",
            "upsert_replace",
            "upsert_replace_new"
        ]
    );
}

#[test]
fn an_etag_received_as_text_still_matches() {
    let store = new_store();
    let written = store
        .insert(TABLE, &Entity::new(PK, "a").with("V", 1))
        .unwrap();
    // As a client gets it back: the header text, or a JSON string.
    let header = written.etag.to_string();
    assert!(header.starts_with("W/\"datetime'"), "{header}");
    let from_header = ETag::from_raw(header.clone());
    assert_eq!(from_header, written.etag);
    let from_json: ETag =
        serde_json::from_str(&serde_json::to_string(&written.etag).unwrap()).unwrap();
    assert_eq!(from_json, written.etag);
    let results = store
        .execute_batch(
            TABLE,
            &[BatchOperation::Merge(
                Entity::new(PK, "a").with("V", 2),
                IfMatch::ETag(from_header.clone()),
            )],
        )
        .unwrap();
    // The old text no longer matches.
    let err = store
        .replace(TABLE, &Entity::new(PK, "a"), IfMatch::ETag(from_json))
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::UpdateConditionNotSatisfied);
    assert_eq!(err.status, 412);
    // The new one, as text, does.
    let current = ETag::from_raw(results[0].etag.as_ref().unwrap().to_string());
    store
        .delete(TABLE, PK, "a", IfMatch::ETag(current))
        .unwrap();
    assert!(store.query_all(TABLE, &Query::all()).unwrap().is_empty());
}

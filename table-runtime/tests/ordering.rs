//! Key order: whatever the keys hold (ASCII, Latin-1, the rest of the BMP, U+E000–U+FFFF and
//! characters above U+FFFF), the store returns entities sorted by PartitionKey then RowKey,
//! compared by UTF-16 code unit as the service does, and key ranges follow the same order.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use proptest::prelude::*;
use table_runtime::key::is_forbidden_key_char;
use table_runtime::query::quote;
use table_runtime::{Entity, Query, Store};

const TABLE: &str = "Ordering";

/// `n` cases, or `PROPTEST_CASES` when set, to run longer by hand.
fn cases(n: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n);
    ProptestConfig::with_cases(n)
}

fn utf16(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

fn by_keys(a: &(String, String), b: &(String, String)) -> Ordering {
    utf16(&a.0, &b.0).then_with(|| utf16(&a.1, &b.1))
}

/// Any allowed key character, from every region where UTF-8 and UTF-16 orders can disagree.
fn key_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => proptest::char::range(' ', '~'),
        2 => proptest::char::range('\u{A0}', '\u{FF}'),
        1 => proptest::char::range('\u{100}', '\u{D7FF}'),
        3 => proptest::char::range('\u{E000}', '\u{FFFF}'),
        3 => proptest::char::range('\u{10000}', '\u{10FFFF}'),
    ]
    .prop_filter("forbidden in keys", |c| !is_forbidden_key_char(*c))
}

/// Characters chosen to collide: shared prefixes make the first differing unit land on the
/// boundaries between the regions.
fn colliding_char() -> impl Strategy<Value = char> {
    proptest::sample::select(vec![
        ' ',
        '0',
        'A',
        'a',
        '~',
        '\u{A0}',
        'é',
        '\u{FF}',
        '\u{100}',
        '\u{D7FF}',
        '\u{E000}',
        '\u{FFFD}',
        '\u{FFFF}',
        '\u{10000}',
        '😀',
        '𝄞',
        '\u{10FFFF}',
    ])
}

fn key(chars: impl Strategy<Value = char>) -> impl Strategy<Value = String> {
    proptest::collection::vec(chars, 0..6).prop_map(|c| c.into_iter().collect())
}

fn fill(keys: &BTreeSet<(String, String)>) -> Store {
    let store = Store::new();
    store.create_table(TABLE).unwrap();
    for (i, (pk, rk)) in keys.iter().enumerate() {
        store
            .insert(
                TABLE,
                &Entity::new(pk.clone(), rk.clone()).with("I", i as i32),
            )
            .unwrap();
    }
    store
}

fn returned_keys(entities: Vec<Entity>) -> Vec<(String, String)> {
    entities
        .into_iter()
        .map(|e| (e.partition_key, e.row_key))
        .collect()
}

fn check_order(keys: BTreeSet<(String, String)>) -> Result<(), TestCaseError> {
    let store = fill(&keys);
    let mut expected: Vec<(String, String)> = keys.into_iter().collect();
    expected.sort_by(by_keys);

    let all = returned_keys(store.query_all(TABLE, &Query::all()).unwrap());
    prop_assert_eq!(&all, &expected);
    // Small pages give the same order, so continuations follow it too.
    let paged = returned_keys(store.query_all(TABLE, &Query::all().top(3)).unwrap());
    prop_assert_eq!(&paged, &expected);

    // Each partition alone, and a RowKey range within it, follow the UTF-16 order.
    for (pk, rk) in expected.iter().step_by(3) {
        let in_partition: Vec<(String, String)> =
            expected.iter().filter(|(p, _)| p == pk).cloned().collect();
        let query = Query::filter(&format!("PartitionKey eq {}", quote(pk))).unwrap();
        prop_assert_eq!(
            returned_keys(store.query_all(TABLE, &query).unwrap()),
            in_partition.clone()
        );
        let from: Vec<(String, String)> = in_partition
            .iter()
            .filter(|(_, r)| utf16(r, rk) != Ordering::Less)
            .cloned()
            .collect();
        let query = Query::filter(&format!(
            "PartitionKey eq {} and RowKey ge {}",
            quote(pk),
            quote(rk)
        ))
        .unwrap();
        prop_assert_eq!(returned_keys(store.query_all(TABLE, &query).unwrap()), from);
        let before: Vec<(String, String)> = in_partition
            .iter()
            .filter(|(_, r)| utf16(r, rk) == Ordering::Less)
            .cloned()
            .collect();
        let query = Query::filter(&format!(
            "PartitionKey eq {} and RowKey lt {}",
            quote(pk),
            quote(rk)
        ))
        .unwrap();
        prop_assert_eq!(
            returned_keys(store.query_all(TABLE, &query).unwrap()),
            before
        );
        // A PartitionKey range across partitions.
        let later: Vec<(String, String)> = expected
            .iter()
            .filter(|(p, _)| utf16(p, pk) == Ordering::Greater)
            .cloned()
            .collect();
        let query = Query::filter(&format!("PartitionKey gt {}", quote(pk))).unwrap();
        prop_assert_eq!(
            returned_keys(store.query_all(TABLE, &query).unwrap()),
            later
        );
        // And the point read finds the entity.
        prop_assert!(store.get(TABLE, pk, rk, None).is_ok());
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn query_all_sorts_arbitrary_keys_by_utf16_code_units(
        keys in proptest::collection::btree_set((key(key_char()), key(key_char())), 1..40),
    ) {
        check_order(keys)?;
    }

    #[test]
    fn query_all_sorts_colliding_keys_by_utf16_code_units(
        keys in proptest::collection::btree_set((key(colliding_char()), key(colliding_char())), 1..40),
    ) {
        check_order(keys)?;
    }
}

#[test]
fn a_supplementary_character_sorts_before_the_top_of_the_bmp() {
    // UTF-8 byte order would put 😀 (F0 9F 98 80) after U+FFFF (EF BF BF); UTF-16 puts its high
    // surrogate (D83D) before FFFF, and after U+D7FF.
    let keys: BTreeSet<(String, String)> = [
        "\u{FFFF}",
        "😀",
        "\u{E000}",
        "\u{D7FF}",
        "z",
        "\u{10FFFF}",
        "\u{10000}",
    ]
    .iter()
    .map(|k| ("p".to_owned(), (*k).to_owned()))
    .collect();
    let store = fill(&keys);
    let rows: Vec<String> = returned_keys(store.query_all(TABLE, &Query::all()).unwrap())
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    assert_eq!(
        rows,
        [
            "z",
            "\u{D7FF}",
            "\u{10000}",
            "😀",
            "\u{10FFFF}",
            "\u{E000}",
            "\u{FFFF}"
        ]
    );
}

//! Verbatim and escaped keys, proved over adversarial strings: no two distinct values of a
//! design produce the same key, every key reads back as the values that wrote it, a value that
//! can't be written verbatim is an error (never another key), and every generated range returns
//! exactly the entities whose fields are in it.

use std::cmp::Ordering;
use std::collections::HashMap;

use pollster::block_on;
use proptest::prelude::*;
use table_runtime::key::compare_utf16;
use table_runtime::{Store, Table, TableEntity};

/// Text segments between separators of one and two characters, the second overlapping the
/// first (`_` then `__`), and a text segment last.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Verbatim",
    partition_key = "{tenant}_{region}",
    row_key = "{name}__{code}-{id:04}"
)]
#[table(allow(TK008, reason = "the test wants a separator that text holds"))]
struct Verbatim {
    tenant: String,
    region: String,
    name: String,
    code: String,
    #[table(max = 9_999)]
    id: u16,
}

/// The same shape with the text escaped: any text fits and keys sort like the values.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Escaped",
    partition_key = "{tenant:escaped}_{region}",
    row_key = "{name:escaped}__{code:escaped}-{id:04}"
)]
struct Escaped {
    tenant: String,
    region: String,
    name: String,
    code: String,
    #[table(max = 9_999)]
    id: u16,
}

/// A verbatim design whose text segment ends the RowKey: keys sort like the values.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Tail", partition_key = "{group}", row_key = "{n:05}_{label}")]
struct Tail {
    group: String,
    n: u16,
    label: String,
}

/// Characters that break naive key building: both separators, forbidden characters, spaces,
/// characters above U+FFFF and in U+E000..U+FFFF (where UTF-16 and UTF-8 orders differ).
fn nasty_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::char::range('a', 'c'),
        3 => Just('_'),
        2 => Just('-'),
        1 => Just(' '),
        1 => Just('!'),
        1 => Just('/'),
        1 => Just('#'),
        1 => Just('\u{7}'),
        1 => Just('\u{E000}'),
        1 => Just('😀'),
    ]
}

fn nasty() -> impl Strategy<Value = String> {
    prop::collection::vec(nasty_char(), 0..5).prop_map(|v| v.into_iter().collect())
}

fn verbatim() -> impl Strategy<Value = Verbatim> {
    (nasty(), nasty(), nasty(), nasty(), 0u16..10_000).prop_map(
        |(tenant, region, name, code, id)| Verbatim {
            tenant,
            region,
            name,
            code,
            id,
        },
    )
}

fn keys_of<T: TableEntity>(v: &T) -> Option<(String, String)> {
    Some((v.partition_key().ok()?, v.row_key().ok()?))
}

/// Whether `value` may stand verbatim before `separator`: no forbidden character, and the
/// first occurrence of the separator in `value + separator` is the one that ends it.
fn fits(value: &str, separator: Option<&str>) -> bool {
    let forbidden = value
        .chars()
        .any(|c| matches!(c, '/' | '\\' | '#' | '?') || c.is_control());
    let splits_early =
        separator.is_some_and(|s| format!("{value}{s}").find(s) != Some(value.len()));
    !forbidden && !splits_early
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn verbatim_keys_are_written_as_is_or_refused(v in verbatim()) {
        let expected_ok = fits(&v.tenant, Some("_"))
            && fits(&v.region, None)
            && fits(&v.name, Some("__"))
            && fits(&v.code, Some("-"));
        match keys_of(&v) {
            Some((pk, rk)) => {
                prop_assert!(expected_ok, "{v:?} was written as {pk:?} / {rk:?}");
                prop_assert_eq!(&pk, &format!("{}_{}", v.tenant, v.region));
                prop_assert_eq!(&rk, &format!("{}__{}-{:04}", v.name, v.code, v.id));
                let back = VerbatimKey::parse(&pk, &rk).unwrap();
                prop_assert_eq!(
                    (back.tenant, back.region, back.name, back.code, back.id),
                    (v.tenant, v.region, v.name, v.code, v.id)
                );
            }
            None => {
                prop_assert!(!expected_ok, "{v:?} was refused");
                // The error names the key and the reason.
                let err = v.to_entity().unwrap_err().to_string();
                prop_assert!(err.contains("Key"), "{err}");
            }
        }
    }

    #[test]
    fn no_two_verbatim_values_share_a_key(values in prop::collection::vec(verbatim(), 2..40)) {
        let mut seen: HashMap<(String, String), Verbatim> = HashMap::new();
        for v in values {
            if let Some(keys) = keys_of(&v)
                && let Some(other) = seen.insert(keys.clone(), v.clone())
            {
                prop_assert_eq!(&other, &v, "both write {:?}", keys);
            }
        }
    }

    #[test]
    fn pieces_that_join_alike_never_share_a_key(a in nasty(), b in nasty(), c in nasty()) {
        // ("a_b", "c") and ("a", "b_c") join to the same text; at most one may be written.
        let make = |tenant: String, region: String| Verbatim {
            tenant,
            region,
            name: "n".into(),
            code: "c".into(),
            id: 1,
        };
        let first = make(format!("{a}_{b}"), c.clone());
        let second = make(a.clone(), format!("{b}_{c}"));
        if let (Ok(x), Ok(y)) = (first.partition_key(), second.partition_key()) {
            prop_assert!(x != y || first == second, "{first:?} and {second:?} both write {x:?}");
        }
    }

    #[test]
    fn escaped_keys_take_anything_and_sort_like_the_values(
        a in (nasty(), nasty(), 0u16..10_000),
        b in (nasty(), nasty(), 0u16..10_000),
    ) {
        let make = |(name, code, id): (String, String, u16)| Escaped {
            tenant: "t/#?".into(),
            region: "r".into(),
            name,
            code,
            id,
        };
        let (x, y) = (make(a.clone()), make(b.clone()));
        let (kx, ky) = (x.row_key().unwrap(), y.row_key().unwrap());
        let back = EscapedKey::parse(&x.partition_key().unwrap(), &kx).unwrap();
        prop_assert_eq!((&back.name, &back.code, back.id), (&x.name, &x.code, x.id));
        let tuple = compare_utf16(&a.0, &b.0)
            .then_with(|| compare_utf16(&a.1, &b.1))
            .then_with(|| a.2.cmp(&b.2));
        prop_assert_eq!(compare_utf16(&kx, &ky), tuple);
    }

    #[test]
    fn verbatim_text_last_sorts_like_the_values(
        a in (0u16..100, nasty()),
        b in (0u16..100, nasty()),
    ) {
        let make = |(n, label): (u16, String)| Tail { group: "g".into(), n, label };
        let (x, y) = (make(a.clone()), make(b.clone()));
        if let (Ok(kx), Ok(ky)) = (x.row_key(), y.row_key()) {
            let tuple = a.0.cmp(&b.0).then_with(|| compare_utf16(&a.1, &b.1));
            prop_assert_eq!(compare_utf16(&kx, &ky), tuple);
            let back = TailKey::parse("g", &kx).unwrap();
            prop_assert_eq!((back.n, back.label), a);
        }
    }
}

fn in_range(v: &str, lo: &str, hi: &str) -> bool {
    compare_utf16(v, lo) != Ordering::Less && compare_utf16(v, hi) == Ordering::Less
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A range over a verbatim text segment that more key follows: the store's range reads a
    /// little more, and the typed read keeps exactly the values in the range.
    #[test]
    fn ranges_over_verbatim_text_return_exactly_the_values_in_them(
        names in prop::collection::vec(nasty(), 1..30),
        lo in nasty(),
        hi in nasty(),
        prefix in nasty(),
    ) {
        let store = Store::new();
        store.create_table("Verbatim").unwrap();
        let table = Table::<_, Verbatim>::new(&store);
        let mut written = Vec::new();
        for (i, name) in names.into_iter().enumerate() {
            let v = Verbatim {
                tenant: "t".into(),
                region: "r".into(),
                name,
                code: "c".into(),
                id: i as u16,
            };
            if keys_of(&v).is_some() {
                block_on(table.insert(&v)).unwrap();
                written.push(v);
            }
        }
        let sorted = |mut v: Vec<Verbatim>| {
            v.sort_by_key(|x| x.id);
            v
        };

        let query = Verbatim::range_by_name("t", "r", lo.as_str()..hi.as_str()).unwrap();
        let got = block_on(table.query_all(&query)).unwrap();
        let want: Vec<Verbatim> = written
            .iter()
            .filter(|v| in_range(&v.name, &lo, &hi))
            .cloned()
            .collect();
        prop_assert_eq!(sorted(got), sorted(want), "{}", query);

        let query = Verbatim::name_starting_with("t", "r", &prefix).unwrap();
        let got = block_on(table.query_all(&query)).unwrap();
        let want: Vec<Verbatim> = written
            .iter()
            .filter(|v| v.name.starts_with(prefix.as_str()))
            .cloned()
            .collect();
        prop_assert_eq!(sorted(got), sorted(want), "{}", query);

        let query = Verbatim::range_by_name("t", "r", lo.as_str()..=hi.as_str()).unwrap();
        let got = block_on(table.query_all(&query)).unwrap();
        let want: Vec<Verbatim> = written
            .iter()
            .filter(|v| compare_utf16(&v.name, &lo).is_ge() && compare_utf16(&v.name, &hi).is_le())
            .cloned()
            .collect();
        prop_assert_eq!(sorted(got), sorted(want), "{}", query);
    }
}

#[test]
fn a_range_that_reads_more_says_so() {
    let query = Verbatim::range_by_name("t", "r", "a".."b").unwrap();
    assert!(query.row_key_check().is_some());
    assert!(
        query.to_string().contains("read back from each key"),
        "{query}"
    );
    // Text that ends the key sorts like its values: the filter alone is exact.
    let query = Tail::range_by_label("g", 3, "a".."b").unwrap();
    assert!(query.row_key_check().is_none(), "{query}");
    assert_eq!(
        query.filter(),
        "PartitionKey eq 'g' and RowKey ge '00003_a' and RowKey lt '00003_b'"
    );
}

#[test]
fn refusals_name_the_field_value_and_reason() {
    let v = Verbatim {
        tenant: "acme_eu".into(),
        region: "west".into(),
        name: "n".into(),
        code: "c".into(),
        id: 1,
    };
    let err = v.to_entity().unwrap_err().to_string();
    assert!(
        err.contains("PartitionKey") && err.contains("acme_eu") && err.contains("separator"),
        "{err}"
    );
    let over = Verbatim {
        tenant: "acme".into(),
        id: 10_000,
        ..v
    };
    let err = over.to_entity().unwrap_err().to_string();
    assert!(err.contains("max = 9999"), "{err}");
}

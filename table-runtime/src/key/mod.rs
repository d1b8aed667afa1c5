//! PartitionKey and RowKey: which characters they may hold, how long they may be, and how the
//! service orders them.
//!
//! The service sorts keys by UTF-16 code unit. That matches byte order of UTF-8 except where a
//! character above U+FFFF (a surrogate pair in UTF-16, starting with 0xD800–0xDBFF) meets one in
//! U+E000–U+FFFF: UTF-16 puts the surrogate pair first, UTF-8 puts it last.

pub mod encode;
pub mod segment;

use std::borrow::Borrow;
use std::cmp::Ordering;

use crate::error::{ErrorCode, StoreError};

/// Compares two strings by UTF-16 code unit, as the service orders keys and string values.
///
/// ```
/// use std::cmp::Ordering;
/// use table_runtime::key::compare_utf16;
/// assert_eq!(compare_utf16("a😀", "a\u{FFFF}"), Ordering::Less); // byte order says Greater
/// assert_eq!(compare_utf16("10", "9"), Ordering::Less);
/// ```
pub fn compare_utf16(a: &str, b: &str) -> Ordering {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let n = x.len().min(y.len());
    let mut i = 0;
    // Skip the common prefix eight bytes at a time (the first differing byte of a word is
    // its lowest differing one, read little-endian), then byte by byte.
    let word = |bytes: &[u8], at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(w)
    };
    while i + 8 <= n {
        let difference = word(x, i) ^ word(y, i);
        if difference != 0 {
            i += (difference.trailing_zeros() / 8) as usize;
            break;
        }
        i += 8;
    }
    while i < n && x[i] == y[i] {
        i += 1;
    }
    if i == n {
        return x.len().cmp(&y.len());
    }
    // UTF-8 byte order equals UTF-16 order except between a character above U+FFFF (lead
    // byte 0xF0..) and one in U+E000..U+FFFF (lead byte 0xEE or 0xEF). A difference inside a
    // character (a continuation byte) is between characters of the same length, where byte
    // order is code-point order, which is UTF-16 order.
    if (x[i] < 0xEE && y[i] < 0xEE) || !a.is_char_boundary(i) {
        return x[i].cmp(&y[i]);
    }
    let ca = a[i..].chars().next().map_or(0, u32::from);
    let cb = b[i..].chars().next().map_or(0, u32::from);
    utf16_order_of_chars(ca, cb)
}

/// Orders two different characters by their first differing UTF-16 code unit.
fn utf16_order_of_chars(a: u32, b: u32) -> Ordering {
    let supplementary = |c: u32| c >= 0x1_0000;
    match (supplementary(a), supplementary(b)) {
        // Same encoding length class: code point order equals code unit order.
        (false, false) | (true, true) => a.cmp(&b),
        // A surrogate pair starts with 0xD800..=0xDBFF; BMP characters never use that range.
        (true, false) => {
            if b >= 0xE000 {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        }
        (false, true) => utf16_order_of_chars(b, a).reverse(),
    }
}

/// The number of UTF-16 code units in `s`, the unit the service measures keys and strings in.
pub fn utf16_len(s: &str) -> usize {
    // A char of 4 UTF-8 bytes is 2 UTF-16 units; every other char is 1. Counted on the bytes:
    // each byte that is not a continuation byte starts a char, and a lead byte of 0xF0 or more
    // starts a 4-byte one.
    s.bytes()
        .map(|b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0))
        .sum()
}

/// Whether the service refuses `c` in a PartitionKey or RowKey: `/ \ # ?`, U+0000–U+001F and
/// U+007F–U+009F.
pub fn is_forbidden_key_char(c: char) -> bool {
    matches!(c, '/' | '\\' | '#' | '?' | '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}')
}

/// Which of the two keys a value is, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// The PartitionKey.
    PartitionKey,
    /// The RowKey.
    RowKey,
}

impl KeyKind {
    /// The system property's name.
    pub fn name(self) -> &'static str {
        match self {
            KeyKind::PartitionKey => "PartitionKey",
            KeyKind::RowKey => "RowKey",
        }
    }
}

/// Checks a key value: no forbidden character (`InvalidInput`) and at most `max_utf16` UTF-16
/// code units (`KeyValueTooLarge`).
pub fn validate_key(kind: KeyKind, value: &str, max_utf16: usize) -> Result<(), StoreError> {
    // Every forbidden character has a byte of its own in UTF-8 (U+0080..U+009F starts with
    // 0xC2): a key without any of them is looked at no further.
    let suspect = |b: &u8| *b < 0x20 || matches!(*b, b'/' | b'\\' | b'#' | b'?' | 0x7F | 0xC2);
    if value.as_bytes().iter().any(suspect)
        && let Some((pos, c)) = value
            .char_indices()
            .find(|&(_, c)| is_forbidden_key_char(c))
    {
        return Err(StoreError::new(
            ErrorCode::InvalidInput,
            format!(
                "{} contains the forbidden character U+{:04X} at byte {pos}",
                kind.name(),
                c as u32
            ),
        ));
    }
    let len = utf16_len(value);
    if len > max_utf16 {
        return Err(StoreError::new(
            ErrorCode::KeyValueTooLarge,
            format!(
                "{} is {len} UTF-16 code units long; the limit is {max_utf16}",
                kind.name()
            ),
        ));
    }
    Ok(())
}

/// A borrowed key that orders by UTF-16 code unit: the lookup type of the store's ordered maps.
#[derive(Debug, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct KeyStr(str);

impl KeyStr {
    /// Views a `str` as a `KeyStr`.
    pub fn new(s: &str) -> &KeyStr {
        // SAFETY: `KeyStr` is `#[repr(transparent)]` over `str`, so both have the same layout
        // and pointer metadata (the length); the cast keeps the lifetime of `s`, and `KeyStr`
        // adds no invariant beyond those of `str`.
        unsafe { &*(s as *const str as *const KeyStr) }
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Ord for KeyStr {
    fn cmp(&self, other: &KeyStr) -> Ordering {
        compare_utf16(&self.0, &other.0)
    }
}

impl PartialOrd for KeyStr {
    fn partial_cmp(&self, other: &KeyStr) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// An owned key that orders by UTF-16 code unit.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OwnedKey(pub Box<str>);

impl Borrow<KeyStr> for OwnedKey {
    fn borrow(&self) -> &KeyStr {
        KeyStr::new(&self.0)
    }
}

impl Ord for OwnedKey {
    fn cmp(&self, other: &OwnedKey) -> Ordering {
        compare_utf16(&self.0, &other.0)
    }
}

impl PartialOrd for OwnedKey {
    fn partial_cmp(&self, other: &OwnedKey) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn utf16_reference(a: &str, b: &str) -> Ordering {
        a.encode_utf16().cmp(b.encode_utf16())
    }

    #[test]
    fn the_measured_order_holds() {
        let sorted = [
            "",
            "-",
            "10",
            "9",
            "A",
            "Z",
            "_",
            "a",
            "aa",
            "a😀",
            "a\u{FFFF}",
            "é",
        ];
        for w in sorted.windows(2) {
            assert_eq!(
                compare_utf16(w[0], w[1]),
                Ordering::Less,
                "{:?} < {:?}",
                w[0],
                w[1]
            );
            assert_eq!(compare_utf16(w[1], w[0]), Ordering::Greater);
        }
        assert_eq!(compare_utf16("a😀", "a😀"), Ordering::Equal);
    }

    #[test]
    fn forbidden_characters_are_refused() {
        for bad in [
            "a/b", "a\\b", "a#b", "a?b", "a\tb", "a\u{0}b", "a\u{7F}b", "a\u{85}b", "a\u{9F}b",
        ] {
            let err = validate_key(KeyKind::RowKey, bad, 512).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidInput, "{bad:?}");
        }
        for good in ["", "a b", "%", "'", "+&", "é", "😀", "\u{A0}"] {
            assert!(validate_key(KeyKind::RowKey, good, 512).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn utf16_length_is_counted_on_bytes() {
        for s in [
            "",
            "abc",
            "é",
            "\u{80}\u{7FF}\u{800}",
            "\u{FFFF}",
            "😀",
            "a😀é\u{10FFFF}z",
        ] {
            assert_eq!(utf16_len(s), s.encode_utf16().count(), "{s:?}");
        }
        // A forbidden character after characters whose UTF-8 shares its lead byte.
        assert!(validate_key(KeyKind::RowKey, "\u{A0}\u{80}", 512).is_err());
        assert!(validate_key(KeyKind::RowKey, "\u{A0}\u{BF}", 512).is_ok());
    }

    #[test]
    fn key_length_counts_utf16_units() {
        assert!(validate_key(KeyKind::PartitionKey, &"a".repeat(512), 512).is_ok());
        let err = validate_key(KeyKind::PartitionKey, &"a".repeat(513), 512).unwrap_err();
        assert_eq!(err.code, ErrorCode::KeyValueTooLarge);
        // 256 emoji are 512 UTF-16 units; one more is over.
        assert!(validate_key(KeyKind::RowKey, &"😀".repeat(256), 512).is_ok());
        assert!(validate_key(KeyKind::RowKey, &format!("{}a", "😀".repeat(256)), 512).is_err());
    }

    proptest! {
        #[test]
        fn compare_utf16_matches_encode_utf16(a in "\\PC{0,8}", b in "\\PC{0,8}") {
            prop_assert_eq!(compare_utf16(&a, &b), utf16_reference(&a, &b));
        }

        #[test]
        fn compare_utf16_on_mixed_planes(
            a in proptest::collection::vec(prop_oneof![Just('a'), Just('\u{E000}'), Just('\u{FFFF}'), Just('😀'), Just('\u{10FFFF}'), Just('é')], 0..6),
            b in proptest::collection::vec(prop_oneof![Just('a'), Just('\u{E000}'), Just('\u{FFFF}'), Just('😀'), Just('\u{10FFFF}'), Just('é')], 0..6),
        ) {
            let a: String = a.into_iter().collect();
            let b: String = b.into_iter().collect();
            prop_assert_eq!(compare_utf16(&a, &b), utf16_reference(&a, &b));
        }

        /// Keys that share a long start, as a partition's RowKeys do, differing anywhere in
        /// or after a word of eight bytes.
        #[test]
        fn compare_utf16_after_a_shared_start(
            shared in "[a-z0-9_\u{E000}\u{FFFF}😀é]{0,24}",
            a in "[a-c\u{E000}\u{FFFF}😀é]{0,12}",
            b in "[a-c\u{E000}\u{FFFF}😀é]{0,12}",
        ) {
            let (a, b) = (format!("{shared}{a}"), format!("{shared}{b}"));
            prop_assert_eq!(compare_utf16(&a, &b), utf16_reference(&a, &b));
        }
    }
}

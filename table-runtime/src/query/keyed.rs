//! Queries built from keys: the point queries, partition scans and RowKey ranges that derived
//! entities generate, each with the `$filter` the design guides recommend and an explanation of
//! its cost.

use std::fmt;
use std::ops::Bound;
use std::sync::Arc;

use super::{Filter, Query, QueryClass, quote};
use crate::error::StoreError;

/// A query on one table derived from key templates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyQuery {
    table: &'static str,
    index: Option<&'static str>,
    class: QueryClass,
    partition: String,
    filter: String,
    top: Option<usize>,
    check: Option<RowKeyCheck>,
}

/// A test every RowKey a query reads must pass: where verbatim text makes a RowKey range wider
/// than the values asked for (a range over a text segment that more key follows), the typed
/// read parses each RowKey and keeps only the values in the range.
#[derive(Clone)]
pub struct RowKeyCheck {
    what: String,
    test: Arc<dyn Fn(&str) -> bool + Send + Sync>,
}

impl RowKeyCheck {
    /// A check described by `what` (shown in the query's description).
    pub fn new(
        what: impl Into<String>,
        test: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> Self {
        RowKeyCheck {
            what: what.into(),
            test: Arc::new(test),
        }
    }

    /// What the check keeps.
    pub fn describe(&self) -> &str {
        &self.what
    }

    /// Whether a RowKey passes.
    pub fn passes(&self, row_key: &str) -> bool {
        (self.test)(row_key)
    }
}

impl fmt::Debug for RowKeyCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RowKeyCheck").field(&self.what).finish()
    }
}

impl PartialEq for RowKeyCheck {
    fn eq(&self, other: &RowKeyCheck) -> bool {
        self.what == other.what
    }
}

impl Eq for RowKeyCheck {}

impl KeyQuery {
    /// One entity by its keys.
    pub fn point(
        table: &'static str,
        index: Option<&'static str>,
        partition_key: String,
        row_key: &str,
    ) -> KeyQuery {
        let filter = format!(
            "PartitionKey eq {} and RowKey eq {}",
            quote(&partition_key),
            quote(row_key)
        );
        KeyQuery {
            table,
            index,
            class: QueryClass::PointQuery,
            partition: partition_key,
            filter,
            top: None,
            check: None,
        }
    }

    /// Every entity of one partition.
    pub fn partition(
        table: &'static str,
        index: Option<&'static str>,
        partition_key: String,
    ) -> KeyQuery {
        let filter = format!("PartitionKey eq {}", quote(&partition_key));
        KeyQuery {
            table,
            index,
            class: QueryClass::PartitionScan,
            partition: partition_key,
            filter,
            top: None,
            check: None,
        }
    }

    /// A RowKey range within one partition. Unbounded on both sides it is a partition scan.
    pub fn row_range(
        table: &'static str,
        index: Option<&'static str>,
        partition_key: String,
        lower: Bound<String>,
        upper: Bound<String>,
    ) -> KeyQuery {
        let mut filter = format!("PartitionKey eq {}", quote(&partition_key));
        let mut bounded = false;
        match &lower {
            Bound::Included(k) => {
                filter.push_str(&format!(" and RowKey ge {}", quote(k)));
                bounded = true;
            }
            Bound::Excluded(k) => {
                filter.push_str(&format!(" and RowKey gt {}", quote(k)));
                bounded = true;
            }
            Bound::Unbounded => {}
        }
        match &upper {
            Bound::Included(k) => {
                filter.push_str(&format!(" and RowKey le {}", quote(k)));
                bounded = true;
            }
            Bound::Excluded(k) => {
                filter.push_str(&format!(" and RowKey lt {}", quote(k)));
                bounded = true;
            }
            Bound::Unbounded => {}
        }
        KeyQuery {
            table,
            index,
            class: if bounded {
                QueryClass::RangeQuery
            } else {
                QueryClass::PartitionScan
            },
            partition: partition_key,
            filter,
            top: None,
            check: None,
        }
    }

    /// At most `n` entities (the first page only): with inverted-tick RowKeys, the latest `n`.
    pub fn top(mut self, n: usize) -> KeyQuery {
        self.top = Some(n);
        self
    }

    /// Keeps only the entities whose RowKey passes `check` (see [`RowKeyCheck`]).
    pub fn with_row_key_check(mut self, check: RowKeyCheck) -> KeyQuery {
        self.check = Some(check);
        self
    }

    /// The RowKey check the typed read applies after reading, if the filter alone is wider
    /// than the values asked for.
    pub fn row_key_check(&self) -> Option<&RowKeyCheck> {
        self.check.as_ref()
    }

    /// Whether an entity the filter returned is a result: its RowKey passes the check.
    pub fn keeps(&self, row_key: &str) -> bool {
        self.check.as_ref().is_none_or(|c| c.passes(row_key))
    }

    /// The table.
    pub fn table(&self) -> &'static str {
        self.table
    }

    /// The index whose copies the query reads, if not the primary entities.
    pub fn index(&self) -> Option<&'static str> {
        self.index
    }

    /// The query's class.
    pub fn class(&self) -> QueryClass {
        self.class
    }

    /// The one partition the query touches.
    pub fn partition_key(&self) -> &str {
        &self.partition
    }

    /// The `$filter`.
    pub fn filter(&self) -> &str {
        &self.filter
    }

    /// The `$top`, if any.
    pub fn top_count(&self) -> Option<usize> {
        self.top
    }

    /// The runtime query.
    pub fn to_query(&self) -> Result<Query, StoreError> {
        Ok(Query {
            filter: Some(Filter::parse(&self.filter)?),
            select: None,
            top: self.top,
            continuation: None,
        })
    }
}

impl fmt::Display for KeyQuery {
    /// `range query on partition 'Sales' of Employees: PartitionKey eq 'Sales' and …`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} on partition {} of {}",
            self.class,
            quote(&self.partition),
            self.table
        )?;
        if let Some(index) = self.index {
            write!(f, " (index {index})")?;
        }
        if let Some(top) = self.top {
            write!(f, ", first {top}")?;
        }
        write!(f, ": {}", self.filter)?;
        if let Some(check) = &self.check {
            write!(f, "; then {}", check.describe())?;
        }
        Ok(())
    }
}

/// The smallest string above every string that starts with `prefix`, in UTF-16 order; `None`
/// when there is none (every character of `prefix` is the highest).
///
/// ```
/// use table_runtime::query::keyed::prefix_successor;
/// assert_eq!(prefix_successor("email_a").as_deref(), Some("email_b"));
/// assert_eq!(prefix_successor("a\u{FFFF}").as_deref(), Some("b"));
/// ```
pub fn prefix_successor(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let next = match last as u32 {
            // After U+D7FF come the surrogate pairs (all characters above U+FFFF).
            0xD7FF => Some('\u{10000}'),
            // After the last surrogate pair comes U+E000.
            0x10FFFF => Some('\u{E000}'),
            0xFFFF => None,
            n => char::from_u32(n + 1),
        };
        if let Some(c) = next {
            chars.push(c);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

/// The RowKey bounds for a range over one segment of a template, whose encoded bounds are
/// `lower` and `upper` and whose fixed part before the segment is `prefix`.
///
/// When more of the template follows the segment, a bound selects every key that starts with
/// the prefix and the encoded value. An `inverted` encoding sorts in reverse, so the bounds swap.
pub fn segment_range(
    prefix: &str,
    lower: Bound<String>,
    upper: Bound<String>,
    more_follows: bool,
    inverted: bool,
) -> (Bound<String>, Bound<String>) {
    let (lower, upper) = if inverted {
        (upper, lower)
    } else {
        (lower, upper)
    };
    let at = |v: &str| format!("{prefix}{v}");
    let after = |v: &str| prefix_successor(&at(v));
    let low = match lower {
        Bound::Included(v) => Bound::Included(at(&v)),
        Bound::Excluded(v) if more_follows => {
            after(&v).map_or(Bound::Excluded(at(&v)), Bound::Included)
        }
        Bound::Excluded(v) => Bound::Excluded(at(&v)),
        Bound::Unbounded if prefix.is_empty() => Bound::Unbounded,
        Bound::Unbounded => Bound::Included(prefix.to_owned()),
    };
    let high = match upper {
        Bound::Included(v) if more_follows => after(&v).map_or(Bound::Unbounded, Bound::Excluded),
        Bound::Included(v) => Bound::Included(at(&v)),
        Bound::Excluded(v) => Bound::Excluded(at(&v)),
        Bound::Unbounded => prefix_successor(prefix)
            .filter(|_| !prefix.is_empty())
            .map_or(Bound::Unbounded, Bound::Excluded),
    };
    (low, high)
}

/// The RowKey bounds for a range over a verbatim text segment that `separator` and more key
/// follow. Verbatim text does not sort like the values once a separator follows (`a!_1` sorts
/// before `a_1` though `a!` is after `a`), so the bounds cover every key whose segment is in
/// the range, and a [`RowKeyCheck`] keeps the exact ones: the lower bound is the prefix and
/// the lower value; the upper one covers the upper value and every key whose segment is a
/// shorter piece of it followed by the separator.
///
/// ```
/// use std::ops::Bound;
/// use table_runtime::query::keyed::verbatim_range;
/// let (lo, hi) = verbatim_range("x_", Bound::Included("a"), Bound::Excluded("c"), "_");
/// assert_eq!(lo, Bound::Included("x_a".to_owned()));
/// // `c` itself is excluded, but no value below `c` makes a key above `x_c`.
/// assert_eq!(hi, Bound::Excluded("x_c".to_owned()));
/// ```
pub fn verbatim_range(
    prefix: &str,
    lower: Bound<&str>,
    upper: Bound<&str>,
    separator: &str,
) -> (Bound<String>, Bound<String>) {
    use crate::key::compare_utf16;
    let low = match lower {
        Bound::Included(v) | Bound::Excluded(v) => Bound::Included(format!("{prefix}{v}")),
        Bound::Unbounded if prefix.is_empty() => Bound::Unbounded,
        Bound::Unbounded => Bound::Included(prefix.to_owned()),
    };
    let whole_prefix_end = || prefix_successor(prefix).filter(|_| !prefix.is_empty());
    let high = match upper {
        Bound::Unbounded => whole_prefix_end(),
        Bound::Included(v) | Bound::Excluded(v) => {
            // Below `prefix + v`: every value under the upper one that is not a piece of it;
            // with the upper value included, its own keys (`prefix + v + separator + …`) too.
            let mut end = match upper {
                Bound::Included(_) => prefix_successor(&format!("{prefix}{v}{separator}")),
                _ => Some(format!("{prefix}{v}")),
            };
            // A value that is a shorter piece of the upper one, followed by the separator; only
            // a piece the lower bound admits is in the range at all.
            for (i, _) in v.char_indices() {
                let piece = &v[..i];
                let admitted = match lower {
                    Bound::Included(l) => compare_utf16(piece, l).is_ge(),
                    Bound::Excluded(l) => compare_utf16(piece, l).is_gt(),
                    Bound::Unbounded => true,
                };
                if !admitted {
                    continue;
                }
                let candidate = prefix_successor(&format!("{prefix}{}{separator}", &v[..i]));
                end = match (end, candidate) {
                    (Some(a), Some(b)) => Some(if compare_utf16(&a, &b).is_ge() { a } else { b }),
                    _ => None,
                };
            }
            end.or_else(whole_prefix_end)
        }
    }
    .map_or(Bound::Unbounded, Bound::Excluded);
    (low, high)
}

/// The verbatim text segment of `row_key` after `prefix`, up to the first `separator` (how the
/// derived key types read it back).
fn text_segment<'k>(row_key: &'k str, prefix: &str, separator: &str) -> Option<&'k str> {
    let rest = row_key.strip_prefix(prefix)?;
    rest.find(separator).map(|i| &rest[..i])
}

/// The check that keeps, of the keys a [`verbatim_range`] reads, those whose text segment (after
/// `prefix`, ended by `separator`) lies between `lower` and `upper` in the service's order.
pub fn verbatim_check(
    field: &str,
    prefix: String,
    separator: &'static str,
    lower: Bound<String>,
    upper: Bound<String>,
) -> RowKeyCheck {
    use crate::key::compare_utf16;
    let what =
        format!("keeps the RowKeys whose `{{{field}}}` is in the range (read back from each key)");
    RowKeyCheck::new(what, move |row_key: &str| {
        let Some(value) = text_segment(row_key, &prefix, separator) else {
            return false;
        };
        let above = match &lower {
            Bound::Included(l) => compare_utf16(value, l).is_ge(),
            Bound::Excluded(l) => compare_utf16(value, l).is_gt(),
            Bound::Unbounded => true,
        };
        let below = match &upper {
            Bound::Included(u) => compare_utf16(value, u).is_le(),
            Bound::Excluded(u) => compare_utf16(value, u).is_lt(),
            Bound::Unbounded => true,
        };
        above && below
    })
}

/// The check that keeps the RowKeys whose text segment (after `prefix`, ended by `separator`)
/// starts with `value_prefix`: a key can start with `prefix + value_prefix` when its value is a
/// shorter piece of `value_prefix` that the separator follows.
pub fn verbatim_prefix_check(
    field: &str,
    prefix: String,
    separator: &'static str,
    value_prefix: String,
) -> RowKeyCheck {
    let what = format!(
        "keeps the RowKeys whose `{{{field}}}` starts with the prefix (read back from each key)"
    );
    RowKeyCheck::new(what, move |row_key: &str| {
        text_segment(row_key, &prefix, separator)
            .is_some_and(|value| value.starts_with(value_prefix.as_str()))
    })
}

/// The RowKey bounds of every key whose segment starts with the encoded `value_prefix`.
pub fn starts_with_range(prefix: &str, value_prefix: &str) -> (Bound<String>, Bound<String>) {
    let start = format!("{prefix}{value_prefix}");
    let end = prefix_successor(&start).map_or(Bound::Unbounded, Bound::Excluded);
    (Bound::Included(start), end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guides_range_filter() {
        let (lo, hi) = segment_range(
            "empid_",
            Bound::Included("000100".into()),
            Bound::Excluded("000200".into()),
            false,
            false,
        );
        let q = KeyQuery::row_range("Employees", None, "Sales".into(), lo, hi);
        assert_eq!(
            q.filter(),
            "PartitionKey eq 'Sales' and RowKey ge 'empid_000100' and RowKey lt 'empid_000200'"
        );
        assert_eq!(q.class(), QueryClass::RangeQuery);
        assert_eq!(q.to_query().unwrap().plan().class, QueryClass::RangeQuery);
        assert!(
            q.to_string()
                .starts_with("range query on partition 'Sales' of Employees")
        );
    }

    #[test]
    fn quotes_are_escaped() {
        let q = KeyQuery::point("People", None, "O'Brien".into(), "x");
        assert_eq!(q.filter(), "PartitionKey eq 'O''Brien' and RowKey eq 'x'");
        assert_eq!(q.to_query().unwrap().plan().class, QueryClass::PointQuery);
    }

    #[test]
    fn inverted_ranges_swap_and_prefix_ranges_cover_what_follows() {
        let (lo, hi) = segment_range(
            "",
            Bound::Included("5".into()),
            Bound::Unbounded,
            false,
            true,
        );
        assert_eq!((lo, hi), (Bound::Unbounded, Bound::Included("5".into())));
        let (lo, hi) = segment_range(
            "x_",
            Bound::Included("a ".into()),
            Bound::Included("b ".into()),
            true,
            false,
        );
        assert_eq!(
            (lo, hi),
            (
                Bound::Included("x_a ".into()),
                Bound::Excluded("x_b!".into())
            )
        );
        let (lo, hi) = starts_with_range("email_", "a");
        assert_eq!(
            (lo, hi),
            (
                Bound::Included("email_a".into()),
                Bound::Excluded("email_b".into())
            )
        );
    }
}

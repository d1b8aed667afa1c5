//! Queries built from keys: the point queries, partition scans and RowKey ranges that derived
//! entities generate, each with the `$filter` the design guides recommend and an explanation of
//! its cost.

use std::fmt;
use std::ops::Bound;

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
}

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
        }
    }

    /// At most `n` entities (the first page only): with inverted-tick RowKeys, the latest `n`.
    pub fn top(mut self, n: usize) -> KeyQuery {
        self.top = Some(n);
        self
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
        write!(f, ": {}", self.filter)
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

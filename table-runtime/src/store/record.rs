//! The compact form in which the store keeps an entity: one allocation holding the RowKey, the
//! Timestamp and the properties, with property names replaced by numbers from the table's name
//! list.
//!
//! Layout (little-endian, lengths as LEB128 varints):
//! `rk_len rk_bytes ticks:i64 (name_id tag payload)*`, where the payload is 1 byte (Boolean),
//! 4 (Int32), 8 (Int64, Double, DateTime ticks), 16 (Guid) or `len bytes` (String, Binary).
//!
//! Records order by RowKey in UTF-16 code-unit order, so a partition is a `BTreeSet<Record>`.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::key::{KeyStr, compare_utf16};
use crate::query::ValueRef;
use crate::value::{DateTime, Value};

const TAG_STRING: u8 = 0;
const TAG_BINARY: u8 = 1;
const TAG_BOOLEAN: u8 = 2;
const TAG_DATETIME: u8 = 3;
const TAG_DOUBLE: u8 = 4;
const TAG_GUID: u8 = 5;
const TAG_INT32: u8 = 6;
const TAG_INT64: u8 = 7;

/// A table's property names, each given a number the first time it is written.
#[derive(Debug, Default)]
pub struct Names {
    ids: rustc_hash::FxHashMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
}

impl Names {
    /// The number of `name`, if it was ever written.
    pub fn id(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    /// The number of `name`, assigning the next one if it is new.
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(id) = self.ids.get(name) {
            return *id;
        }
        let id = self.names.len() as u32;
        let name: Arc<str> = Arc::from(name);
        self.names.push(name.clone());
        self.ids.insert(name, id);
        id
    }

    /// Bytes the name list holds (names plus map and list slots, estimated).
    pub fn heap_bytes(&self) -> usize {
        self.names.iter().map(|n| n.len() + 64).sum()
    }

    /// The name numbered `id`.
    pub fn name(&self, id: u32) -> &str {
        self.names.get(id as usize).map_or("", |n| n)
    }
}

/// One stored entity of a partition.
#[derive(Clone, PartialEq, Eq)]
pub struct Record(Box<[u8]>);

impl std::fmt::Debug for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Record")
            .field("row_key", &self.row_key())
            .field("ticks", &self.ticks())
            .finish()
    }
}

fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7F) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Reads a varint at `*pos`. Records are only built by [`Record::encode`], so the bytes are
/// always well formed.
fn get_varint(bytes: &[u8], pos: &mut usize) -> u64 {
    let mut n = 0u64;
    let mut shift = 0;
    loop {
        let byte = bytes[*pos];
        *pos += 1;
        n |= u64::from(byte & 0x7F) << shift;
        if byte & 0x80 == 0 {
            return n;
        }
        shift += 7;
    }
}

fn fixed<const N: usize>(bytes: &[u8], pos: &mut usize) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&bytes[*pos..*pos + N]);
    *pos += N;
    out
}

impl Record {
    /// Encodes a RowKey, Timestamp and properties whose names are numbered by `name_id`.
    pub fn encode<'a>(
        row_key: &str,
        ticks: i64,
        properties: impl IntoIterator<Item = (u32, &'a Value)>,
    ) -> Record {
        let mut out = Vec::with_capacity(row_key.len() + 32);
        put_varint(&mut out, row_key.len() as u64);
        out.extend_from_slice(row_key.as_bytes());
        out.extend_from_slice(&ticks.to_le_bytes());
        for (id, value) in properties {
            put_varint(&mut out, u64::from(id));
            match value {
                Value::String(s) => {
                    out.push(TAG_STRING);
                    put_varint(&mut out, s.len() as u64);
                    out.extend_from_slice(s.as_bytes());
                }
                Value::Binary(b) => {
                    out.push(TAG_BINARY);
                    put_varint(&mut out, b.len() as u64);
                    out.extend_from_slice(b);
                }
                Value::Boolean(b) => out.extend_from_slice(&[TAG_BOOLEAN, u8::from(*b)]),
                Value::DateTime(d) => {
                    out.push(TAG_DATETIME);
                    out.extend_from_slice(&d.ticks().to_le_bytes());
                }
                Value::Double(d) => {
                    out.push(TAG_DOUBLE);
                    out.extend_from_slice(&d.to_le_bytes());
                }
                Value::Guid(g) => {
                    out.push(TAG_GUID);
                    out.extend_from_slice(g.as_bytes());
                }
                Value::Int32(i) => {
                    out.push(TAG_INT32);
                    out.extend_from_slice(&i.to_le_bytes());
                }
                Value::Int64(i) => {
                    out.push(TAG_INT64);
                    out.extend_from_slice(&i.to_le_bytes());
                }
            }
        }
        Record(out.into_boxed_slice())
    }

    fn key_end(&self) -> (usize, usize) {
        let mut pos = 0;
        let len = get_varint(&self.0, &mut pos) as usize;
        (pos, pos + len)
    }

    /// The RowKey.
    pub fn row_key(&self) -> &str {
        let (start, end) = self.key_end();
        let bytes = &self.0[start..end];
        // SAFETY: `encode` is the only constructor, and it copies these bytes from a `&str`,
        // so they are valid UTF-8; a `Record` is never mutated after construction.
        unsafe { std::str::from_utf8_unchecked(bytes) }
    }

    /// The Timestamp as ticks.
    pub fn ticks(&self) -> i64 {
        let (_, end) = self.key_end();
        let mut pos = end;
        i64::from_le_bytes(fixed(&self.0, &mut pos))
    }

    /// The properties in stored order, as name numbers and borrowed values.
    pub fn properties(&self) -> Properties<'_> {
        let (_, end) = self.key_end();
        Properties {
            bytes: &self.0,
            pos: end + 8,
        }
    }

    /// The value of the property numbered `id`.
    pub fn property(&self, id: u32) -> Option<ValueRef<'_>> {
        self.properties().find(|(i, _)| *i == id).map(|(_, v)| v)
    }

    /// Decodes the properties into owned values, keeping those `keep` accepts.
    pub fn decode_properties(
        &self,
        names: &Names,
        mut keep: impl FnMut(&str) -> bool,
    ) -> BTreeMap<String, Value> {
        self.properties()
            .filter_map(|(id, v)| {
                let name = names.name(id);
                keep(name).then(|| (name.to_owned(), v.to_value()))
            })
            .collect()
    }

    /// Bytes held by this record, for memory accounting.
    pub fn heap_bytes(&self) -> usize {
        self.0.len()
    }

    /// The Timestamp as a [`DateTime`].
    pub fn timestamp(&self) -> DateTime {
        DateTime::from_ticks(self.ticks()).unwrap_or(DateTime::MIN)
    }
}

/// Iterator over a record's properties.
pub struct Properties<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Iterator for Properties<'a> {
    type Item = (u32, ValueRef<'a>);

    fn next(&mut self) -> Option<(u32, ValueRef<'a>)> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        let bytes = self.bytes;
        let pos = &mut self.pos;
        let id = get_varint(bytes, pos) as u32;
        let tag = bytes[*pos];
        *pos += 1;
        let value = match tag {
            TAG_STRING => {
                let len = get_varint(bytes, pos) as usize;
                let s = &bytes[*pos..*pos + len];
                *pos += len;
                // SAFETY: string payloads are copied from a `&str` by `Record::encode` and
                // never mutated, so they are valid UTF-8.
                ValueRef::String(unsafe { std::str::from_utf8_unchecked(s) })
            }
            TAG_BINARY => {
                let len = get_varint(bytes, pos) as usize;
                let b = &bytes[*pos..*pos + len];
                *pos += len;
                ValueRef::Binary(b)
            }
            TAG_BOOLEAN => {
                let b = bytes[*pos] != 0;
                *pos += 1;
                ValueRef::Boolean(b)
            }
            TAG_DATETIME => ValueRef::DateTime(i64::from_le_bytes(fixed(bytes, pos))),
            TAG_DOUBLE => ValueRef::Double(f64::from_le_bytes(fixed(bytes, pos))),
            TAG_GUID => {
                let g: &[u8; 16] = bytes[*pos..*pos + 16].try_into().ok()?;
                *pos += 16;
                ValueRef::Guid(g)
            }
            TAG_INT32 => ValueRef::Int32(i32::from_le_bytes(fixed(bytes, pos))),
            _ => ValueRef::Int64(i64::from_le_bytes(fixed(bytes, pos))),
        };
        Some((id, value))
    }
}

impl Borrow<KeyStr> for Record {
    fn borrow(&self) -> &KeyStr {
        KeyStr::new(self.row_key())
    }
}

impl Ord for Record {
    fn cmp(&self, other: &Record) -> Ordering {
        compare_utf16(self.row_key(), other.row_key())
    }
}

impl PartialOrd for Record {
    fn partial_cmp(&self, other: &Record) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_every_type() {
        let mut names = Names::default();
        let values = vec![
            ("S", Value::String("héllo 😀".into())),
            ("B", Value::Binary(vec![0, 1, 255])),
            ("T", Value::Boolean(true)),
            (
                "D",
                Value::DateTime(DateTime::parse("2024-05-01T10:20:30.1234567Z").unwrap()),
            ),
            ("F", Value::Double(-2.5)),
            ("G", Value::Guid(uuid::Uuid::from_u128(0x1234))),
            ("I", Value::Int32(-7)),
            ("L", Value::Int64(i64::MIN)),
            ("Long", Value::String("x".repeat(300))),
        ];
        let ids: Vec<u32> = values.iter().map(|(n, _)| names.intern(n)).collect();
        let record = Record::encode(
            "rk😀",
            42,
            ids.iter().copied().zip(values.iter().map(|(_, v)| v)),
        );
        assert_eq!(record.row_key(), "rk😀");
        assert_eq!(record.ticks(), 42);
        let decoded = record.decode_properties(&names, |_| true);
        for (name, value) in &values {
            assert_eq!(decoded.get(*name), Some(value), "{name}");
        }
        assert_eq!(
            record.property(names.id("I").unwrap()),
            Some(ValueRef::Int32(-7))
        );
        assert_eq!(record.property(999), None);
    }
}

//! Entities: PartitionKey, RowKey, Timestamp, ETag and a bag of typed properties.

use std::collections::BTreeMap;
use std::fmt;

use crate::error::{ErrorCode, StoreError};
use crate::key::{KeyKind, utf16_len, validate_key};
use crate::limits::Limits;
use crate::value::{DateTime, Value};

/// The names the service reserves for system properties; a user property may not use them.
pub const SYSTEM_PROPERTIES: [&str; 3] = ["PartitionKey", "RowKey", "Timestamp"];

/// An entity's version tag, in the service's weak form derived from its Timestamp:
/// `W/"datetime'2024-05-01T10%3A20%3A30.1234567Z'"`.
///
/// An ETag made by the store keeps its Timestamp and is formatted only when shown; one received
/// from elsewhere is kept as text (and read back into a Timestamp when it has the service's
/// form). Two ETags are equal when their text is.
#[derive(Debug, Clone)]
pub struct ETag(ETagRepr);

#[derive(Debug, Clone)]
enum ETagRepr {
    /// Made here: the text is written from the Timestamp when shown.
    Timestamp(DateTime),
    /// Received, naming a Timestamp in another form than this store writes (Azurite writes
    /// seven digits always): the text is kept as received, to be sent back as it came.
    Stamped(DateTime, String),
    /// Received, in no form that names a Timestamp.
    Text(String),
}

impl ETag {
    /// The ETag the service gives a write made at `timestamp`.
    pub fn for_timestamp(timestamp: DateTime) -> ETag {
        ETag(ETagRepr::Timestamp(timestamp))
    }

    /// Wraps an ETag received from elsewhere (a response header, a stored value).
    pub fn from_raw(raw: impl Into<String>) -> ETag {
        let raw = raw.into();
        let timestamp = raw
            .strip_prefix("W/\"datetime'")
            .and_then(|r| r.strip_suffix("'\""))
            .and_then(|t| DateTime::parse(&t.replace("%3A", ":")).ok());
        match timestamp {
            Some(t) if ETag::header_text(t) == raw => ETag(ETagRepr::Timestamp(t)),
            Some(t) => ETag(ETagRepr::Stamped(t, raw)),
            None => ETag(ETagRepr::Text(raw)),
        }
    }

    /// The Timestamp this ETag stands for, when it has the service's form.
    pub fn timestamp(&self) -> Option<DateTime> {
        match &self.0 {
            ETagRepr::Timestamp(t) | ETagRepr::Stamped(t, _) => Some(*t),
            ETagRepr::Text(_) => None,
        }
    }

    fn header_text(timestamp: DateTime) -> String {
        let mut etag = String::with_capacity(48);
        etag.push_str("W/\"datetime'");
        timestamp.write_wire(&mut etag, "%3A");
        etag.push_str("'\"");
        etag
    }

    /// The ETag as sent in `If-Match`.
    pub fn to_header(&self) -> String {
        match &self.0 {
            ETagRepr::Timestamp(t) => ETag::header_text(*t),
            ETagRepr::Stamped(_, s) | ETagRepr::Text(s) => s.clone(),
        }
    }
}

impl PartialEq for ETag {
    fn eq(&self, other: &ETag) -> bool {
        match (&self.0, &other.0) {
            (ETagRepr::Timestamp(a), ETagRepr::Timestamp(b)) => a == b,
            _ => self.to_header() == other.to_header(),
        }
    }
}

impl Eq for ETag {}

impl std::hash::Hash for ETag {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.to_header().hash(state);
    }
}

impl serde::Serialize for ETag {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_header())
    }
}

impl<'de> serde::Deserialize<'de> for ETag {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<ETag, D::Error> {
        String::deserialize(deserializer).map(ETag::from_raw)
    }
}

impl fmt::Display for ETag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_header())
    }
}

/// The condition of a replace, merge or delete: `If-Match: *` or a specific ETag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IfMatch {
    /// `*`: the entity must exist, whatever its version.
    Any,
    /// The entity's current ETag must be this one (optimistic concurrency).
    ETag(ETag),
}

/// An entity: its keys, the server-owned Timestamp and ETag, and its properties.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Entity {
    /// The PartitionKey.
    pub partition_key: String,
    /// The RowKey.
    pub row_key: String,
    /// The time of the last write, set by the store; ignored on writes.
    pub timestamp: Option<DateTime>,
    /// The version of the last write, set by the store; ignored on writes.
    pub etag: Option<ETag>,
    /// User properties by name.
    pub properties: BTreeMap<String, Value>,
}

impl Entity {
    /// An entity with the given keys and no properties.
    pub fn new(partition_key: impl Into<String>, row_key: impl Into<String>) -> Entity {
        Entity {
            partition_key: partition_key.into(),
            row_key: row_key.into(),
            ..Entity::default()
        }
    }

    /// Adds a property, builder style.
    pub fn with(mut self, name: impl Into<String>, value: impl Into<Value>) -> Entity {
        self.properties.insert(name.into(), value.into());
        self
    }

    /// A property's value.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.properties.get(name)
    }

    /// The entity's size as the service counts it against the 1 MiB limit:
    /// 4 bytes, plus 2 bytes per UTF-16 unit of PartitionKey and RowKey, plus for each property
    /// 8 bytes, 2 per UTF-16 unit of its name, and its value's size (String: 4 + 2 per unit;
    /// Binary: 4 + its length; DateTime, Double, Int64: 8; Guid: 16; Int32: 4; Boolean: 1).
    pub fn service_size(&self) -> usize {
        let keys = 4 + 2 * (utf16_len(&self.partition_key) + utf16_len(&self.row_key));
        let props: usize = self
            .properties
            .iter()
            .map(|(name, value)| 8 + 2 * utf16_len(name) + value_size(value))
            .sum();
        keys + props
    }

    /// Checks the entity against every limit of the service: keys, property names, property
    /// count, value sizes and the entity size.
    pub fn validate(&self, limits: &Limits) -> Result<(), StoreError> {
        validate_key(
            KeyKind::PartitionKey,
            &self.partition_key,
            limits.max_key_utf16,
        )?;
        validate_key(KeyKind::RowKey, &self.row_key, limits.max_key_utf16)?;
        if self.properties.len() > limits.max_user_properties {
            return Err(StoreError::new(
                ErrorCode::TooManyProperties,
                format!(
                    "the entity has {} properties; the limit is {}",
                    self.properties.len(),
                    limits.max_user_properties
                ),
            ));
        }
        // The whole entity's size is checked before its values: the service answers an
        // entity over 1 MiB with EntityTooLarge even when a value in it is also too long.
        let size = self.service_size();
        if size > limits.max_entity_bytes {
            return Err(StoreError::new(
                ErrorCode::EntityTooLarge,
                format!(
                    "the entity is {size} bytes; the limit is {}",
                    limits.max_entity_bytes
                ),
            ));
        }
        for (name, value) in &self.properties {
            validate_property_name(name, limits)?;
            validate_value(name, value, limits)?;
        }
        Ok(())
    }
}

fn value_size(value: &Value) -> usize {
    match value {
        Value::String(s) => 4 + 2 * utf16_len(s),
        Value::Binary(b) => 4 + b.len(),
        Value::Boolean(_) => 1,
        Value::DateTime(_) | Value::Double(_) | Value::Int64(_) => 8,
        Value::Guid(_) => 16,
        Value::Int32(_) => 4,
    }
}

/// Checks a property name: an identifier (a letter or `_`, then letters, digits or `_`), not a
/// system property's name, at most `max_property_name_len` characters counted in UTF-16 units
/// (as the service counts them: a character outside the BMP counts twice).
pub fn validate_property_name(name: &str, limits: &Limits) -> Result<(), StoreError> {
    let len = utf16_len(name);
    if len > limits.max_property_name_len {
        return Err(StoreError::new(
            ErrorCode::PropertyNameTooLong,
            format!(
                "property name `{}…` is {len} UTF-16 units; the limit is {}",
                name.chars().take(16).collect::<String>(),
                limits.max_property_name_len
            ),
        ));
    }
    let identifier = if name.is_ascii() {
        let mut bytes = name.bytes();
        bytes
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
    } else {
        let mut chars = name.chars();
        chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && chars.all(|c| c.is_alphanumeric() || c == '_')
    };
    if !identifier {
        return Err(StoreError::new(
            ErrorCode::PropertyNameInvalid,
            format!("property name `{name}` is not an identifier"),
        ));
    }
    if SYSTEM_PROPERTIES.contains(&name) {
        return Err(StoreError::new(
            ErrorCode::PropertyNameInvalid,
            format!("`{name}` is a system property and cannot be set as a user property"),
        ));
    }
    Ok(())
}

fn validate_value(name: &str, value: &Value, limits: &Limits) -> Result<(), StoreError> {
    match value {
        Value::String(s) => {
            let len = utf16_len(s);
            if len > limits.max_string_utf16 {
                return Err(StoreError::new(
                    ErrorCode::PropertyValueTooLarge,
                    format!(
                        "property `{name}` is {len} UTF-16 code units; the limit is {}",
                        limits.max_string_utf16
                    ),
                ));
            }
        }
        Value::Binary(b) if b.len() > limits.max_binary_bytes => {
            return Err(StoreError::new(
                ErrorCode::PropertyValueTooLarge,
                format!(
                    "property `{name}` is {} bytes; the limit is {}",
                    b.len(),
                    limits.max_binary_bytes
                ),
            ));
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etag_has_the_services_form() {
        let ts = DateTime::parse("2024-05-01T10:20:30.1234567Z").unwrap();
        let etag = ETag::for_timestamp(ts);
        assert_eq!(
            etag.to_header(),
            "W/\"datetime'2024-05-01T10%3A20%3A30.1234567Z'\""
        );
        let received = ETag::from_raw(etag.to_header());
        assert_eq!(received, etag);
        assert_eq!(received.timestamp(), Some(ts));
        let opaque = ETag::from_raw("\"0x8D\"");
        assert_eq!(opaque.timestamp(), None);
        assert_ne!(opaque, etag);
        assert_eq!(opaque.to_string(), "\"0x8D\"");
        // The service drops the fraction's trailing zeros; an ETag that keeps them (Azurite's)
        // still names its Timestamp, and goes back exactly as it came.
        let ms = DateTime::parse("2024-05-01T10:20:30.982Z").unwrap();
        assert_eq!(
            ETag::for_timestamp(ms).to_header(),
            "W/\"datetime'2024-05-01T10%3A20%3A30.982Z'\""
        );
        let padded = ETag::from_raw("W/\"datetime'2024-05-01T10%3A20%3A30.9820000Z'\"");
        assert_eq!(padded.timestamp(), Some(ms));
        assert_eq!(
            padded.to_header(),
            "W/\"datetime'2024-05-01T10%3A20%3A30.9820000Z'\""
        );
    }

    #[test]
    fn property_names_follow_identifier_rules() {
        let limits = Limits::default();
        for good in ["A", "_x", "Name1", "émile", "a_b_c"] {
            assert!(validate_property_name(good, &limits).is_ok(), "{good}");
        }
        for bad in ["", "1a", "a-b", "a b", "a.b", "PartitionKey", "Timestamp"] {
            let err = validate_property_name(bad, &limits).unwrap_err();
            assert_eq!(err.code, ErrorCode::PropertyNameInvalid, "{bad}");
        }
        assert!(validate_property_name(&"a".repeat(255), &limits).is_ok());
        let err = validate_property_name(&"a".repeat(256), &limits).unwrap_err();
        assert_eq!(err.code, ErrorCode::PropertyNameTooLong);
    }

    #[test]
    fn limits_on_values_count() {
        let limits = Limits::default();
        let ok = Entity::new("p", "r").with("S", "x".repeat(32_767));
        assert!(ok.validate(&limits).is_ok());
        let long = Entity::new("p", "r").with("S", "x".repeat(32_768));
        assert_eq!(
            long.validate(&limits).unwrap_err().code,
            ErrorCode::PropertyValueTooLarge
        );
        let bin = Entity::new("p", "r").with("B", vec![0u8; 65_537]);
        assert_eq!(
            bin.validate(&limits).unwrap_err().code,
            ErrorCode::PropertyValueTooLarge
        );
        let mut many = Entity::new("p", "r");
        for i in 0..253 {
            many.properties.insert(format!("P{i}"), Value::Int32(i));
        }
        assert_eq!(
            many.validate(&limits).unwrap_err().code,
            ErrorCode::TooManyProperties
        );
        many.properties.remove("P0");
        assert!(many.validate(&limits).is_ok());
    }

    #[test]
    fn entity_size_follows_the_formula() {
        // 4 + 2*(1+1) + (8 + 2*1 + 4) = 22
        assert_eq!(Entity::new("p", "r").with("A", 1).service_size(), 22);
        let mut big = Entity::new("p", "r");
        for i in 0..40 {
            big.properties
                .insert(format!("S{i}"), Value::String("x".repeat(32_000)));
        }
        let err = big.validate(&Limits::default()).unwrap_err();
        assert_eq!(err.code, ErrorCode::EntityTooLarge);
        // Too large as a whole wins over a value too long within it.
        big.properties
            .insert("Long".into(), Value::String("x".repeat(40_000)));
        let err = big.validate(&Limits::default()).unwrap_err();
        assert_eq!(err.code, ErrorCode::EntityTooLarge);
    }
}

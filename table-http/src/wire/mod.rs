//! What goes over the wire, for both ends: URL encoding and key quoting, entity JSON, error
//! bodies, continuation headers, and the multipart bodies of entity group transactions.
//!
//! The client (`HttpBackend`) writes requests and reads answers with the functions here; the
//! local server (`table-server`) reads requests and writes answers with the same module
//! ([`format`] for the service's JSON at each metadata level, [`multipart`] for `$batch`), so
//! each side's tests run against the other's code.

use std::borrow::Cow;
use std::fmt::Write as _;

use base64::Engine as _;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Deserialize;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value as Json;
use table_runtime::batch::BatchOperation;
use table_runtime::json::{entity_to_json, read_value};
use table_runtime::{DateTime, ETag, EdmType, Entity, ErrorCode, IfMatch, StoreError, Value};

pub mod acl;
pub mod format;
pub mod multipart;
pub mod properties;

/// The header naming the PartitionKey a query's next page starts at.
pub const NEXT_PARTITION_KEY: &str = "x-ms-continuation-NextPartitionKey";
/// The header naming the RowKey a query's next page starts at.
pub const NEXT_ROW_KEY: &str = "x-ms-continuation-NextRowKey";
/// The header naming the table a table listing's next page starts at.
pub const NEXT_TABLE_NAME: &str = "x-ms-continuation-NextTableName";

/// The HTTP status carried by an error that has no answer from the service behind it: the
/// connection failed or timed out, or the answer could not be read.
pub const NO_STATUS: u16 = 0;

/// Everything but the unreserved characters of RFC 3986 is percent-encoded.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// [`COMPONENT`] but for the quote, which the service's links keep as it is.
const LINK: &AsciiSet = &COMPONENT.remove(b'\'');

/// Percent-encodes a path segment or a query value.
pub fn encode(text: &str) -> String {
    utf8_percent_encode(text, COMPONENT).to_string()
}

/// The path of one entity, relative to the account: `/table(PartitionKey='…',RowKey='…')`, the
/// keys' quotes doubled and everything percent-encoded.
pub fn entity_path(table: &str, partition_key: &str, row_key: &str) -> String {
    entity_path_encoded(table, partition_key, row_key, COMPONENT)
}

/// [`entity_path`] with the keys' characters in `set` percent-encoded.
fn entity_path_encoded(
    table: &str,
    partition_key: &str,
    row_key: &str,
    set: &'static AsciiSet,
) -> String {
    let mut path = String::with_capacity(table.len() + partition_key.len() + row_key.len() + 32);
    push_entity_path(&mut path, table, partition_key, row_key, set);
    path
}

/// Appends `/table(PartitionKey='…',RowKey='…')` to `out`, the keys' quotes doubled and then
/// encoded by `set`.
fn push_entity_path(
    out: &mut String,
    table: &str,
    partition_key: &str,
    row_key: &str,
    set: &'static AsciiSet,
) {
    out.push('/');
    out.extend(utf8_percent_encode(table, COMPONENT));
    out.push_str("(PartitionKey='");
    push_key(out, partition_key, set);
    out.push_str("',RowKey='");
    push_key(out, row_key, set);
    out.push_str("')");
}

/// Appends a key to a path, its quotes doubled, then percent-encoded by `set`: written piece
/// by piece, without the doubled copy a `replace` would make.
fn push_key(path: &mut String, key: &str, set: &'static AsciiSet) {
    for (i, piece) in key.split('\'').enumerate() {
        if i > 0 {
            path.extend(utf8_percent_encode("''", set));
        }
        path.extend(utf8_percent_encode(piece, set));
    }
}

/// An entity's path as the service writes it in `Location` and `DataServiceId`: like
/// [`entity_path`], but the keys' (doubled) quotes stay quotes (recorded:
/// `t(PartitionKey='a''''b',RowKey='r')`).
pub fn entity_link(table: &str, partition_key: &str, row_key: &str) -> String {
    entity_path_encoded(table, partition_key, row_key, LINK)
}

/// An entity's absolute URL as the service writes it in `Location` and `DataServiceId`: `base`
/// (the account's URL) followed by its [`entity_link`].
pub fn entity_url(base: &str, table: &str, partition_key: &str, row_key: &str) -> String {
    let mut url =
        String::with_capacity(base.len() + table.len() + partition_key.len() + row_key.len() + 32);
    url.push_str(base);
    push_entity_path(&mut url, table, partition_key, row_key, LINK);
    url
}

/// The opaque form of a continuation value the service writes (`1!<length>!<base64>`), so
/// that keys of any characters fit a header.
pub fn continuation_token(key: &str) -> String {
    // The service pads with `-` where base64 pads with `=` (recorded: `1!16!cGs4MDEwMTZlOA--`).
    let encoded = base64::engine::general_purpose::STANDARD
        .encode(key)
        .replace('=', "-");
    format!("1!{}!{encoded}", encoded.len())
}

/// Reads a continuation value back: the service's opaque form, or a plain key as some
/// emulators write it.
pub fn continuation_key(token: &str) -> String {
    let decoded = token
        .strip_prefix("1!")
        .and_then(|rest| rest.split_once('!'))
        .filter(|(len, encoded)| len.parse::<usize>().ok() == Some(encoded.len()))
        .and_then(|(_, encoded)| {
            // Padding as the service writes it (`-`) or as base64 does (`=`), read without it.
            base64::engine::general_purpose::STANDARD_NO_PAD
                .decode(encoded.trim_end_matches(['-', '=']))
                .ok()
        })
        .and_then(|bytes| String::from_utf8(bytes).ok());
    decoded.unwrap_or_else(|| token.to_owned())
}

/// Reads an entity path segment, percent-decoded: `Table(PartitionKey='a',RowKey='b')`, with
/// quotes inside a key doubled, into the table and the two keys. `None` when it is not one.
///
/// ```
/// use table_http::wire::parse_entity_segment;
/// assert_eq!(
///     parse_entity_segment("t1(PartitionKey='O''Brien',RowKey='a,RowKey=''b')"),
///     Some(("t1".into(), "O'Brien".into(), "a,RowKey='b".into()))
/// );
/// assert_eq!(parse_entity_segment("t1()"), None);
/// ```
pub fn parse_entity_segment(segment: &str) -> Option<(String, String, String)> {
    let (table, rest) = segment.split_once('(')?;
    let rest = rest.strip_suffix(')')?;
    let (first, rest) = quoted_key(rest, "PartitionKey")?;
    let rest = rest.strip_prefix(',')?;
    let (second, rest) = quoted_key(rest, "RowKey")?;
    rest.is_empty().then(|| (table.to_owned(), first, second))
}

/// Reads `Name='value'` from the start of `text` (quotes doubled inside), returning the value
/// and what follows.
fn quoted_key<'t>(text: &'t str, name: &str) -> Option<(String, &'t str)> {
    let rest = text.strip_prefix(name)?.trim_start().strip_prefix('=')?;
    let rest = rest.trim_start().strip_prefix('\'')?;
    let mut value = String::new();
    let mut chars = rest.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == '\'' {
            if rest[i + 1..].starts_with('\'') {
                value.push('\'');
                chars.next();
            } else {
                return Some((value, &rest[i + 1..]));
            }
        } else {
            value.push(c);
        }
    }
    None
}

/// An error for an answer that could not be understood, or no answer at all.
pub(crate) fn protocol_error(message: impl Into<String>) -> StoreError {
    StoreError {
        status: NO_STATUS,
        code: ErrorCode::NoResponse,
        message: message.into(),
        failed_index: None,
    }
}

/// Writes JSON with every non-ASCII character as a `\uXXXX` escape (UTF-16 units, so
/// characters outside the BMP become surrogate pairs). Large entity bodies then never split a
/// multi-byte character across network reads, which the emulator mishandles.
pub fn ascii_json(value: &Json) -> Vec<u8> {
    struct AsciiFormatter;
    impl serde_json::ser::Formatter for AsciiFormatter {
        fn write_string_fragment<W: ?Sized + std::io::Write>(
            &mut self,
            writer: &mut W,
            fragment: &str,
        ) -> std::io::Result<()> {
            let mut start = 0;
            for (i, c) in fragment.char_indices() {
                if c.is_ascii() {
                    continue;
                }
                writer.write_all(&fragment.as_bytes()[start..i])?;
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{unit:04x}")?;
                }
                start = i + c.len_utf8();
            }
            writer.write_all(&fragment.as_bytes()[start..])
        }
    }
    let mut out = Vec::with_capacity(256);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, AsciiFormatter);
    // Serializing a `serde_json::Value` into a Vec cannot fail.
    let _ = serde::Serialize::serialize(value, &mut serializer);
    out
}

/// The JSON body of a write: keys and properties with their type annotations, without the
/// server-owned `Timestamp` and ETag.
pub fn entity_body(entity: &Entity) -> Vec<u8> {
    let mut json = entity_to_json(entity, None);
    if let Json::Object(map) = &mut json {
        map.remove("odata.etag");
        map.remove("Timestamp");
        map.remove("Timestamp@odata.type");
    }
    ascii_json(&json)
}

/// Reads the entity of a point read's answer, with its Timestamp and ETag.
pub fn read_entity(body: &[u8]) -> Result<Entity, StoreError> {
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let entity = serde::Deserializer::deserialize_map(&mut deserializer, EntityVisitor)
        .and_then(|entity| deserializer.end().map(|()| entity))
        .map_err(|e| protocol_error(format!("the service's entity is not JSON: {e}")))?;
    entity.map_err(unreadable_entity)
}

/// Reads the entities of a query's answer (`{"value":[…],…}`), with their Timestamps and
/// ETags.
///
/// The answer is read straight into entities, without a JSON tree in between: a page holds
/// up to 1,000 entities, and building then walking and dropping a tree of maps for each took
/// most of the client's time in a partition scan.
pub fn read_entity_page(body: &[u8]) -> Result<Vec<Entity>, StoreError> {
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let page = serde::Deserializer::deserialize_map(&mut deserializer, PageVisitor)
        .and_then(|page| deserializer.end().map(|()| page))
        .map_err(|e| protocol_error(format!("the query answer cannot be read: {e}")))?;
    match page {
        Some(entities) => entities.map_err(unreadable_entity),
        None => Err(protocol_error("the query answer has no `value` array")),
    }
}

/// Reads the entity of a request body as the service does, strictly: a body that is not one JSON
/// object, a property given twice, a value whose JSON form does not fit its `@odata.type` (an
/// Int64 sent as a JSON number, a DateTime that does not parse), an integer too large for any
/// EDM type, or a missing PartitionKey or RowKey is refused with the service's code. The
/// Timestamp and `odata.*` members are ignored.
pub fn read_request_entity(body: &[u8]) -> Result<Entity, StoreError> {
    read_request(body, Reading::Request { keyless: false })
}

/// [`read_request_entity`] for a body whose keys are in the URL (update, merge, upsert): the
/// body's PartitionKey and RowKey, whatever their type or annotation, are ignored and read as
/// empty. The service writes the entity the URL names: recorded exchanges with it show a merge
/// whose body said `a''''b` land on `a''b`, and an update and an upsert whose body gives the
/// keys as an annotated `Edm.DateTime`, `Edm.Guid` or `Edm.Binary` answered 204.
pub fn read_request_entity_keyless(body: &[u8]) -> Result<Entity, StoreError> {
    read_request(body, Reading::Request { keyless: true })
}

/// Whose entity is read: a request's, strictly, or an answer's, keeping what the service set.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// A request body: names given twice and integers too large for any EDM type are refused;
    /// the Timestamp and ETag are the store's and ignored. `keyless`: the keys are in the URL.
    Request { keyless: bool },
    /// An answer of the service: the Timestamp and `odata.etag` are kept.
    Answer,
}

fn read_request(body: &[u8], reading: Reading) -> Result<Entity, StoreError> {
    /// Members as written (borrowed from the body), so that a name given twice and a number's
    /// digits can be seen before anything is converted.
    struct Members;
    impl<'de> Visitor<'de> for Members {
        type Value = Vec<(Cow<'de, str>, &'de serde_json::value::RawValue)>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an entity object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut members = Vec::with_capacity(map.size_hint().unwrap_or(8));
            while let Some(Key(name)) = map.next_key()? {
                members.push((name, map.next_value()?));
            }
            Ok(members)
        }
    }
    let invalid = |message: String| StoreError::new(ErrorCode::InvalidInput, message);
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let raw = serde::Deserializer::deserialize_map(&mut deserializer, Members)
        .and_then(|m| deserializer.end().map(|()| m))
        .map_err(|e| invalid(format!("the body is not a JSON object: {e}")))?;
    let mut names: Vec<&str> = raw.iter().map(|(n, _)| n.as_ref()).collect();
    names.sort_unstable();
    if let Some(twice) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(invalid(format!("property `{}` is given twice", twice[0])));
    }
    let mut members = Vec::with_capacity(raw.len());
    let mut annotations = Vec::new();
    for (name, value) in raw {
        let text = value.get();
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && text.parse::<i64>().is_err()
        {
            return Err(StoreError::new(
                ErrorCode::OutOfRangeInput,
                format!("property `{name}` = {text} is too large for any EDM integer type"),
            ));
        }
        let value = match text {
            "true" => Json::Bool(true),
            "false" => Json::Bool(false),
            "null" => Json::Null,
            // A string without escapes is its text between the quotes (the body is known to be
            // JSON, and so UTF-8): the commonest value, read without a second parse.
            _ if text.len() >= 2
                && text.starts_with('"')
                && text.ends_with('"')
                && !text.contains('\\') =>
            {
                Json::String(text[1..text.len() - 1].to_owned())
            }
            _ => serde_json::from_str(text)
                .map_err(|e| invalid(format!("property `{name}`: {e}")))?,
        };
        file_member(&mut members, &mut annotations, name, value);
    }
    if let Reading::Request { keyless: true } = reading {
        let is_key = |name: &str| name == "PartitionKey" || name == "RowKey";
        members.retain(|(name, _)| !is_key(name));
        annotations.retain(|(name, _)| !is_key(name));
        for key in ["PartitionKey", "RowKey"] {
            members.push((Cow::Borrowed(key), Json::String(String::new())));
        }
    }
    build_entity(members, annotations, reading)
}

/// Files a member under the properties, or under the annotations by the name it annotates.
fn file_member<'de>(
    members: &mut Vec<(Cow<'de, str>, Json)>,
    annotations: &mut Vec<(Cow<'de, str>, Json)>,
    name: Cow<'de, str>,
    value: Json,
) {
    if let Some(annotated) = name.strip_suffix(ANNOTATION) {
        // An annotation of an annotation (`PartitionKey@odata.type@odata.type`, as a beta SDK
        // sent) means nothing; the service accepts the entity and ignores it.
        if annotated.contains('@') {
            return;
        }
        let base = match name {
            Cow::Borrowed(s) => Cow::Borrowed(&s[..s.len() - ANNOTATION.len()]),
            Cow::Owned(mut s) => {
                s.truncate(s.len() - ANNOTATION.len());
                Cow::Owned(s)
            }
        };
        annotations.push((base, value));
    } else {
        members.push((name, value));
    }
}

fn unreadable_entity(message: String) -> StoreError {
    protocol_error(format!(
        "the service returned an entity that cannot be read: {message}"
    ))
}

/// The suffix of a property's type annotation.
const ANNOTATION: &str = "@odata.type";

/// An object key, borrowed from the body when it has no escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Key<'de>, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a property name")
            }
            fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// The top-level object of a query answer: its `value` array, if it has one. An entity that is
/// valid JSON but not a valid entity is reported as the inner error, after the whole body has
/// been checked as JSON.
struct PageVisitor;

impl<'de> Visitor<'de> for PageVisitor {
    type Value = Option<Result<Vec<Entity>, String>>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object with a `value` array")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut page = None;
        while let Some(Key(key)) = map.next_key()? {
            if key == "value" {
                page = Some(map.next_value_seed(EntitiesSeed)?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(page)
    }
}

/// The `value` array of a query answer.
struct EntitiesSeed;

impl<'de> DeserializeSeed<'de> for EntitiesSeed {
    type Value = Result<Vec<Entity>, String>;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for EntitiesSeed {
    type Value = Result<Vec<Entity>, String>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array of entities")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut entities = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        let mut failure = None;
        while let Some(entity) = seq.next_element_seed(EntitySeed)? {
            match entity {
                Ok(entity) if failure.is_none() => entities.push(entity),
                Ok(_) => {}
                Err(message) => {
                    failure.get_or_insert(message);
                }
            }
        }
        Ok(match failure {
            Some(message) => Err(message),
            None => Ok(entities),
        })
    }
}

struct EntitySeed;

impl<'de> DeserializeSeed<'de> for EntitySeed {
    type Value = Result<Entity, String>;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(EntityVisitor)
    }
}

/// One entity object: its members are gathered as they come (annotations apart), then read
/// by [`build_entity`].
struct EntityVisitor;

impl<'de> Visitor<'de> for EntityVisitor {
    type Value = Result<Entity, String>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an entity object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(8));
        let mut annotations = Vec::new();
        while let Some(Key(name)) = map.next_key()? {
            let value: Json = map.next_value()?;
            file_member(&mut members, &mut annotations, name, value);
        }
        Ok(build_entity(members, annotations, Reading::Answer).map_err(|e| e.message))
    }
}

/// Reads an entity from its members and its annotations (keyed by the annotated name), with
/// the rules of [`table_runtime::json::entity_from_json`], the store's own reader: every
/// annotation names a member, the keys are strings, `null` properties are left out, `odata.*`
/// members are metadata. An answer's Timestamp and ETag are kept, and a name it gives twice
/// counts once, with its last value ([`read_request`] refuses a request that does that).
fn build_entity(
    members: Vec<(Cow<'_, str>, Json)>,
    mut annotations: Vec<(Cow<'_, str>, Json)>,
    reading: Reading,
) -> Result<Entity, StoreError> {
    let invalid = |message: String| StoreError::new(ErrorCode::InvalidInput, message);
    // Sorted (stably, so the last of equal names is the one given last) for binary searches.
    annotations.sort_by(|a, b| a.0.cmp(&b.0));
    if !annotations.is_empty() {
        let mut names: Vec<&str> = members.iter().map(|(n, _)| n.as_ref()).collect();
        names.sort_unstable();
        for (base, _) in &annotations {
            if !base.is_empty()
                && !base.starts_with("odata.")
                && names.binary_search(&base.as_ref()).is_err()
            {
                return Err(invalid(format!(
                    "annotation `{base}{ANNOTATION}` has no property `{base}`"
                )));
            }
        }
    }
    let annotation_of = |name: &str| -> Result<Option<EdmType>, StoreError> {
        let end = annotations.partition_point(|(base, _)| base.as_ref() <= name);
        match end.checked_sub(1).map(|i| &annotations[i]) {
            Some((base, value)) if base == name => match value {
                Json::String(t) => EdmType::from_wire_name(t).map(Some).ok_or_else(|| {
                    invalid(format!(
                        "property `{name}` is annotated with unknown type `{t}`"
                    ))
                }),
                _ => Err(invalid(format!(
                    "the annotation of `{name}` is not a string"
                ))),
            },
            _ => Ok(None),
        }
    };

    let mut entity = Entity::default();
    let (mut has_pk, mut has_rk) = (false, false);
    let mut etag = None;
    for (name, raw) in members {
        if name.starts_with("odata.") {
            if name == "odata.etag" && reading == Reading::Answer {
                etag = Some(raw);
            }
            continue;
        }
        if name == "Timestamp" {
            if reading == Reading::Answer {
                entity.timestamp = raw.as_str().and_then(|t| DateTime::parse(t).ok());
            }
            continue;
        }
        let annotation = annotation_of(&name)?;
        match (name.as_ref(), raw) {
            ("PartitionKey" | "RowKey", Json::String(key))
                if annotation.is_none_or(|t| t == EdmType::String) =>
            {
                if name == "PartitionKey" {
                    entity.partition_key = key;
                    has_pk = true;
                } else {
                    entity.row_key = key;
                    has_rk = true;
                }
            }
            // The service answers an insert whose key is not a string (a number, or a string
            // annotated `Edm.DateTime`) 400 InvalidInput, as recorded exchanges with it show.
            ("PartitionKey" | "RowKey", _) => {
                return Err(StoreError::new(
                    ErrorCode::InvalidInput,
                    format!("{name} must be a string"),
                ));
            }
            // Strings are the commonest values: moved rather than copied by `read_value`.
            (_, Json::String(text)) if annotation.is_none_or(|t| t == EdmType::String) => {
                entity
                    .properties
                    .insert(name.into_owned(), Value::String(text));
            }
            (_, raw) => match read_value(&name, &raw, annotation)? {
                Some(value) => {
                    entity.properties.insert(name.into_owned(), value);
                }
                None => {
                    entity.properties.remove(name.as_ref());
                }
            },
        }
    }
    if !has_pk || !has_rk {
        return Err(StoreError::new(
            ErrorCode::PropertiesNeedValue,
            "an entity needs both PartitionKey and RowKey",
        ));
    }
    entity.etag = etag.as_ref().and_then(Json::as_str).map(|raw| {
        // The service's ETags name the entity's Timestamp; when this one does, the Timestamp
        // already read gives it without parsing the date a second time.
        match entity.timestamp.map(ETag::for_timestamp) {
            Some(from_timestamp) if from_timestamp.to_header() == raw => from_timestamp,
            _ => ETag::from_raw(raw),
        }
    });
    Ok(entity)
}

/// The `If-Match` header value of a condition.
pub fn if_match_header(if_match: &IfMatch) -> String {
    match if_match {
        IfMatch::Any => "*".to_owned(),
        IfMatch::ETag(etag) => etag.to_header(),
    }
}

/// Reads an `If-Match` header as the service does: `*`, or a weak ETag (`W/"…"`, any text
/// between the quotes, which then simply fails to match). A strong or malformed ETag is
/// refused with InvalidInput (400), not answered with a failed precondition.
pub fn read_if_match(value: &str) -> Result<IfMatch, StoreError> {
    let value = value.trim();
    if value == "*" {
        return Ok(IfMatch::Any);
    }
    let quoted = value
        .strip_prefix("W/")
        .or_else(|| value.strip_prefix("w/"))
        .and_then(|rest| rest.strip_prefix('"'))
        .and_then(|rest| rest.strip_suffix('"'));
    // Inside the quotes, a quote must be escaped.
    let well_formed = quoted.is_some_and(|inner| {
        let mut escaped = false;
        inner.chars().all(|c| {
            let ok = c != '"' || escaped;
            escaped = c == '\\' && !escaped;
            ok
        })
    });
    if !well_formed {
        return Err(StoreError::new(
            ErrorCode::InvalidInput,
            format!("If-Match `{value}` is neither `*` nor a weak ETag (W/\"…\")"),
        ));
    }
    Ok(IfMatch::ETag(ETag::from_raw(value)))
}

/// The error code named by the service's code string, if it is one the store knows.
pub fn error_code(code: &str) -> Option<ErrorCode> {
    ErrorCode::from_service_code(code)
}

/// The code and message of an error body: JSON (`{"odata.error":{"code":…,"message":{"value":…}}}`)
/// or XML (`<Code>…</Code><Message>…</Message>`).
fn error_body(body: &[u8]) -> (Option<String>, Option<String>) {
    if let Ok(json) = serde_json::from_slice::<Json>(body) {
        let error = json.get("odata.error").or_else(|| json.get("error"));
        if let Some(error) = error {
            let code = error.get("code").and_then(Json::as_str).map(str::to_owned);
            let message = match error.get("message") {
                Some(Json::String(s)) => Some(s.clone()),
                Some(m) => m.get("value").and_then(Json::as_str).map(str::to_owned),
                None => None,
            };
            return (code, message);
        }
    }
    let text = String::from_utf8_lossy(body);
    let tag = |name: &str| -> Option<String> {
        let lower = text.to_ascii_lowercase();
        let open = format!("<{}>", name.to_ascii_lowercase());
        let close = format!("</{}>", name.to_ascii_lowercase());
        let start = lower.find(&open)? + open.len();
        let end = start + lower[start..].find(&close)?;
        Some(text[start..end].trim().to_owned())
    };
    (
        tag("Code").or_else(|| tag("m:code")),
        tag("Message").or_else(|| tag("m:message")),
    )
}

/// An error answer as a [`StoreError`]: the HTTP status, and the service's code (from the
/// `x-ms-error-code` header or the body). A code the store does not know is kept at the front
/// of the message, with `InvalidInput` standing in as the code.
pub fn service_error(status: u16, header_code: Option<&str>, body: &[u8]) -> StoreError {
    let (body_code, message) = error_body(body);
    let code_text = header_code.map(str::to_owned).or(body_code);
    // The message's lines up to the request id: the service's sentence, and whatever a
    // server adds after it.
    let mut message = message
        .map(|m| {
            m.lines()
                .take_while(|line| !line.starts_with("RequestId:"))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_else(|| format!("the service answered {status}"));
    let code = match code_text.as_deref().and_then(error_code) {
        Some(code) => code,
        None => {
            if let Some(text) = &code_text {
                message = format!("{text}: {message}");
            }
            match status {
                404 => ErrorCode::ResourceNotFound,
                412 => ErrorCode::UpdateConditionNotSatisfied,
                413 => ErrorCode::RequestBodyTooLarge,
                403 => ErrorCode::AuthorizationFailure,
                500 => ErrorCode::InternalError,
                503 => ErrorCode::ServerBusy,
                _ => ErrorCode::InvalidInput,
            }
        }
    };
    StoreError {
        status,
        code,
        message,
        failed_index: None,
    }
}

/// The multipart body of an entity group transaction, and its `Content-Type`.
pub struct BatchRequestBody {
    /// `multipart/mixed; boundary=batch_…`.
    pub content_type: String,
    /// The body (ASCII).
    pub body: Vec<u8>,
}

/// Writes the `$batch` body: one changeset holding every operation, each an HTTP request whose
/// URL is absolute (`table_url` is the table's URL, `entity_url` builds an entity's).
pub fn batch_body(
    ops: &[BatchOperation],
    table_url: &str,
    entity_url: impl Fn(&str, &str) -> String,
    id: u64,
) -> BatchRequestBody {
    let batch = format!("batch_{id:016x}");
    let changeset = format!("changeset_{id:016x}");
    let mut body = String::with_capacity(512 * ops.len() + 256);
    let _ = write!(
        body,
        "--{batch}\r\nContent-Type: multipart/mixed; boundary={changeset}\r\n\r\n"
    );
    for op in ops {
        let _ = write!(
            body,
            "--{changeset}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
        );
        let (pk, rk) = op.keys();
        let (method, url, if_match, entity) = match op {
            BatchOperation::Insert(e) => ("POST", table_url.to_owned(), None, Some(e)),
            BatchOperation::Replace(e, m) => ("PUT", entity_url(pk, rk), Some(m), Some(e)),
            BatchOperation::Merge(e, m) => ("MERGE", entity_url(pk, rk), Some(m), Some(e)),
            BatchOperation::UpsertReplace(e) => ("PUT", entity_url(pk, rk), None, Some(e)),
            BatchOperation::UpsertMerge(e) => ("MERGE", entity_url(pk, rk), None, Some(e)),
            BatchOperation::Delete { if_match, .. } => {
                ("DELETE", entity_url(pk, rk), Some(if_match), None)
            }
        };
        let _ = write!(
            body,
            "{method} {url} HTTP/1.1\r\nAccept: application/json;odata=minimalmetadata\r\nDataServiceVersion: 3.0\r\n"
        );
        if let Some(m) = if_match {
            let _ = write!(body, "If-Match: {}\r\n", if_match_header(m));
        }
        match entity {
            Some(e) => {
                if method == "POST" {
                    body.push_str("Prefer: return-no-content\r\n");
                }
                body.push_str("Content-Type: application/json\r\n\r\n");
                // entity_body writes ASCII only.
                body.push_str(&String::from_utf8_lossy(&entity_body(e)));
                body.push_str("\r\n");
            }
            None => body.push_str("\r\n"),
        }
    }
    let _ = write!(body, "--{changeset}--\r\n--{batch}--\r\n");
    BatchRequestBody {
        content_type: format!("multipart/mixed; boundary={batch}"),
        body: body.into_bytes(),
    }
}

/// One response inside a `$batch` answer.
#[derive(Debug)]
pub struct InnerResponse {
    /// Its status.
    pub status: u16,
    /// Its headers, as written.
    pub headers: Vec<(String, String)>,
    /// Its body, trimmed.
    pub body: String,
}

impl InnerResponse {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Splits a `$batch` answer into its inner HTTP responses, in order. Each starts at a line
/// `HTTP/1.1 NNN …`, has headers up to an empty line, and a body up to the next boundary line.
pub fn inner_responses(body: &str) -> Result<Vec<InnerResponse>, StoreError> {
    let mut responses = Vec::new();
    let mut lines = body.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("HTTP/1.") else {
            continue;
        };
        let status = rest
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse::<u16>().ok())
            .ok_or_else(|| {
                protocol_error(format!(
                    "malformed status line in a $batch answer: `{line}`"
                ))
            })?;
        let mut headers = Vec::new();
        for header in lines.by_ref() {
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                headers.push((name.trim().to_owned(), value.trim().to_owned()));
            }
        }
        let mut text = String::new();
        for body_line in lines.by_ref() {
            if body_line.starts_with("--") {
                break;
            }
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(body_line);
        }
        responses.push(InnerResponse {
            status,
            headers,
            body: text.trim().to_owned(),
        });
    }
    Ok(responses)
}

/// Reads a `$batch` answer: an ETag per operation (none for deletes) when every operation
/// succeeded, or the failing operation's error with its 0-based index.
///
/// The index comes from the error message's `N:` prefix (as the service and the emulator write
/// it), else from the inner response's `Content-ID` (1-based), else from the failing response's
/// position when there is one response per operation.
pub fn batch_results(body: &str, ops: &[BatchOperation]) -> Result<Vec<Option<ETag>>, StoreError> {
    let responses = inner_responses(body)?;
    if let Some((position, failed)) = responses.iter().enumerate().find(|(_, r)| r.status >= 300) {
        let mut error = service_error(
            failed.status,
            failed.header("x-ms-error-code"),
            failed.body.as_bytes(),
        );
        let prefixed = error
            .message
            .split_once(':')
            .and_then(|(n, rest)| Some((n.trim().parse::<usize>().ok()?, rest.to_owned())));
        let index = if let Some((index, rest)) = prefixed {
            error.message = rest;
            Some(index)
        } else if let Some(id) = failed
            .header("Content-ID")
            .and_then(|v| v.parse::<usize>().ok())
        {
            id.checked_sub(1)
        } else if responses.len() == ops.len() {
            Some(position)
        } else {
            None
        };
        error.failed_index = index.filter(|i| *i < ops.len());
        return Err(error);
    }
    if responses.len() != ops.len() {
        return Err(protocol_error(format!(
            "the $batch answer holds {} responses for {} operations",
            responses.len(),
            ops.len()
        )));
    }
    Ok(responses
        .iter()
        .zip(ops)
        .map(|(r, op)| match op {
            BatchOperation::Delete { .. } => None,
            _ => r.header("ETag").map(ETag::from_raw),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    #[test]
    fn if_match_is_any_or_a_weak_etag() {
        assert_eq!(read_if_match(" * ").unwrap(), IfMatch::Any);
        for weak in [
            r#"W/"datetime'2024-05-01T10%3A20%3A30Z'""#,
            r#"w/"x""#,
            r#"W/"a\"b""#,
        ] {
            assert!(
                matches!(read_if_match(weak), Ok(IfMatch::ETag(_))),
                "{weak}"
            );
        }
        for bad in [r#""x""#, "x", r#"""#, "", r#"W/"a"b""#, r#"W/x"#] {
            let err = read_if_match(bad).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidInput, "{bad}");
        }
    }

    use super::*;
    use serde_json::json;

    #[test]
    fn continuation_tokens_carry_any_key() {
        for key in ["", "p1", "O'Brien é 😀", "a!b!c"] {
            let token = continuation_token(key);
            assert!(token.is_ascii());
            assert_eq!(continuation_key(&token), key);
        }
        // The service's own token, padded with `-`, and the same padded with `=`.
        assert_eq!(continuation_token("pk801016e8"), "1!16!cGs4MDEwMTZlOA--");
        assert_eq!(continuation_key("1!16!cGs4MDEwMTZlOA--"), "pk801016e8");
        assert_eq!(continuation_key("1!16!cGs4MDEwMTZlOA=="), "pk801016e8");
        // A plain key, as an emulator may write it, reads as itself.
        assert_eq!(continuation_key("p1"), "p1");
        assert_eq!(continuation_key("1!3!abc"), "1!3!abc");
    }

    #[test]
    fn entity_segments_read_back() {
        for (pk, rk) in [
            ("p", "r"),
            ("O'Brien", "''"),
            ("", ""),
            ("a)b", "x,RowKey='y')"),
        ] {
            let path = entity_path("t1", pk, rk);
            let decoded = percent_encoding::percent_decode_str(&path[1..])
                .decode_utf8()
                .unwrap();
            assert_eq!(
                parse_entity_segment(&decoded),
                Some(("t1".to_owned(), pk.to_owned(), rk.to_owned())),
                "{path}"
            );
        }
        for bad in [
            "t1",
            "t1(PartitionKey='a')",
            "t1(PartitionKey='a',RowKey='b)",
            "t1(RowKey='a',PartitionKey='b')",
        ] {
            assert_eq!(parse_entity_segment(bad), None, "{bad}");
        }
    }

    #[test]
    fn keys_are_quoted_and_encoded() {
        assert_eq!(
            entity_path("t1", "O'Brien é", "a/b?#%+&"),
            "/t1(PartitionKey='O%27%27Brien%20%C3%A9',RowKey='a%2Fb%3F%23%25%2B%26')"
        );
        assert_eq!(entity_path("t", "", ""), "/t(PartitionKey='',RowKey='')");
    }

    #[test]
    fn links_keep_quotes_as_quotes() {
        // As the service writes `Location`: quotes doubled, then left unencoded.
        assert_eq!(
            entity_link("t1", "a''b", "'é /"),
            "/t1(PartitionKey='a''''b',RowKey='''%C3%A9%20%2F')"
        );
        assert_eq!(
            entity_url("http://h/acct", "t1", "O'Brien", ""),
            "http://h/acct/t1(PartitionKey='O''Brien',RowKey='')"
        );
    }

    #[test]
    fn json_bodies_are_ascii() {
        let e = Entity::new("pé", "r😀").with("S", "ü\"\n\u{1}x");
        let body = entity_body(&e);
        assert!(body.is_ascii());
        let text = String::from_utf8(body).unwrap();
        assert!(text.contains(r#""pé""#.replace('é', "\\u00e9").as_str()));
        assert!(text.contains("\\ud83d\\ude00"));
        let back: Json = serde_json::from_str(&text).unwrap();
        assert_eq!(back["S"], json!("ü\"\n\u{1}x"));
        assert_eq!(back["RowKey"], json!("r😀"));
    }

    #[test]
    fn bodies_leave_out_server_fields() {
        let mut e = Entity::new("p", "r").with("A", 1i64);
        e.timestamp = Some(DateTime::parse("2024-01-01T00:00:00Z").unwrap());
        e.etag = Some(ETag::for_timestamp(e.timestamp.unwrap()));
        let json: Json = serde_json::from_slice(&entity_body(&e)).unwrap();
        assert_eq!(
            json,
            json!({"PartitionKey":"p","RowKey":"r","A":"1","A@odata.type":"Edm.Int64"})
        );
    }

    #[test]
    fn entities_are_read_with_timestamp_and_etag() {
        let json = json!({
            "odata.etag": "W/\"datetime'2024-05-01T10%3A20%3A30.1234567Z'\"",
            "PartitionKey": "p", "RowKey": "r",
            "Timestamp": "2024-05-01T10:20:30.1234567Z",
            "Timestamp@odata.type": "Edm.DateTime",
            "N": "5", "N@odata.type": "Edm.Int64"
        });
        let e = read_entity(json.to_string().as_bytes()).unwrap();
        assert_eq!(
            e.timestamp,
            Some(DateTime::parse("2024-05-01T10:20:30.1234567Z").unwrap())
        );
        assert_eq!(e.etag.as_ref().unwrap().timestamp(), e.timestamp);
        assert_eq!(e.get("N"), Some(&table_runtime::Value::Int64(5)));
        let bad = read_entity(br#"{"RowKey": "r"}"#).unwrap_err();
        assert_eq!(bad.status, NO_STATUS);
        assert!(read_entity(b"{").is_err());
    }

    /// A request body reads as the store's own JSON reader reads it: the same entity, or the
    /// same error code; and what only the wire can show (a name given twice, an integer too
    /// long for any EDM type) is refused as well.
    #[test]
    fn requests_read_like_the_store_reader() {
        let bodies = [
            r#"{"PartitionKey":"p","RowKey":"r","S":"t","I":7,"D":2.5,"B":false,"N":null}"#,
            r#"{ "PartitionKey" : "p\u0027" , "RowKey":"r\"q\u00e9" , "E" : "" , "T" : true ,
               "U": "😀 \\ \n", "Z":"\ud83d\ude00", "W" : -0.0 }"#,
            r#"{"PartitionKey":"p","RowKey":"r","L":"5","L@odata.type":"Edm.Int64",
               "Timestamp":"whenever","odata.etag":"x","odata.metadata":"m"}"#,
            r#"{"PartitionKey":"p","RowKey":"r","T":"2024-01-02T03:04:05Z","T@odata.type":"Edm.DateTime"}"#,
            r#"{"PartitionKey":"p","RowKey":"r","T":"yesterday","T@odata.type":"Edm.DateTime"}"#,
            r#"{"PartitionKey":"p","RowKey":"r","L":5,"L@odata.type":"Edm.Int64"}"#,
            r#"{"PartitionKey":"p","RowKey":"r","I":3000000000}"#,
            r#"{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.String"}"#,
            r#"{"PartitionKey":"p","RowKey":"r","X":"a","X@odata.type":"Edm.Money"}"#,
            r#"{"PartitionKey":"p","RowKey":"r","X":"a","X@odata.type":5}"#,
            r#"{"PartitionKey":"p","RowKey":"r","X":[1]}"#,
            r#"{"PartitionKey":1,"RowKey":"r"}"#,
            r#"{"PartitionKey":"p"}"#,
            r#"{"PartitionKey":"p","RowKey":"r","G":"nope","G@odata.type":"Edm.Guid"}"#,
        ];
        for body in bodies {
            let store = table_runtime::json::entity_from_json_str(body);
            let wire = read_request_entity(body.as_bytes());
            match (store, wire) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{body}"),
                (Err(a), Err(b)) => assert_eq!(a.code, b.code, "{body}: {a} / {b}"),
                (a, b) => panic!("{body}: the store reads {a:?}, the wire {b:?}"),
            }
        }
        let refused = [
            (
                r#"{"PartitionKey":"p","RowKey":"r","A":1,"A":2}"#,
                ErrorCode::InvalidInput,
            ),
            (
                r#"{"PartitionKey":"p","RowKey":"r","A":1,"A@odata.type":"Edm.Int32","A@odata.type":"Edm.Int32"}"#,
                ErrorCode::InvalidInput,
            ),
            (
                r#"{"PartitionKey":"p","RowKey":"r","A":123456789012345678901234}"#,
                ErrorCode::OutOfRangeInput,
            ),
            (
                r#"{"PartitionKey":"p","RowKey":"r"} x"#,
                ErrorCode::InvalidInput,
            ),
            (r#"[1]"#, ErrorCode::InvalidInput),
        ];
        for (body, code) in refused {
            let error = read_request_entity(body.as_bytes()).unwrap_err();
            assert_eq!(error.code, code, "{body}: {error}");
        }
        let keyless = read_request_entity_keyless(br#"{"A":"b"}"#).unwrap();
        assert_eq!(
            (keyless.partition_key.as_str(), keyless.row_key.as_str()),
            ("", "")
        );
        assert_eq!(keyless.get("A"), Some(&Value::String("b".into())));
        // The URL's keys are the entity's: the body's, of any type, are ignored.
        for body in [
            r#"{"RowKey":"r"}"#,
            r#"{"RowKey":7,"PartitionKey":"2022-04-01T09:30:45Z","PartitionKey@odata.type":"Edm.DateTime"}"#,
        ] {
            let given = read_request_entity_keyless(body.as_bytes()).unwrap();
            assert_eq!(
                (given.partition_key.as_str(), given.row_key.as_str()),
                ("", "")
            );
            assert!(given.properties.is_empty(), "{body}");
        }
    }

    /// The streaming reader gives what the in-process store's JSON reader gives, plus the
    /// Timestamp and ETag, for every value type, escaped names and metadata in any order.
    #[test]
    fn entities_read_like_the_json_reader() {
        let text = r#"{"odata.etag":"W/\"datetime'2024-05-01T10%3A20%3A30.1234567Z'\"",
            "Timestamp@odata.type":"Edm.DateTime","Timestamp":"2024-05-01T10:20:30.1234567Z",
            "RowKey":"r\u00e9","PartitionKey":"p",
            "S":"text","I":42,"D":1.5,"DI":2.0,"DI@odata.type":"Edm.Double",
            "L@odata.type":"Edm.Int64","L":"9223372036854775807","B":true,
            "T":"2024-01-02T03:04:05Z","T@odata.type":"Edm.DateTime",
            "G":"c56a4180-65aa-42ec-a945-5fd21dec0538","G@odata.type":"Edm.Guid",
            "X":"AAEC","X@odata.type":"Edm.Binary","N":null,
            "Esc\u0061ped":"e","Nan":"NaN","Nan@odata.type":"Edm.Double"}"#;
        let members: Json = serde_json::from_str(text).unwrap();
        let expected = table_runtime::json::entity_from_json(&members).unwrap();
        let e = read_entity(text.as_bytes()).unwrap();
        assert_eq!(e.partition_key, "p");
        assert_eq!(e.row_key, "r\u{e9}");
        assert_eq!(e.properties.len(), expected.properties.len());
        for (name, value) in &expected.properties {
            match (value, e.properties.get(name)) {
                (table_runtime::Value::Double(a), Some(table_runtime::Value::Double(b)))
                    if a.is_nan() =>
                {
                    assert!(b.is_nan());
                }
                (a, b) => assert_eq!(Some(a), b, "{name}"),
            }
        }
        assert!(e.properties.contains_key("Escaped"));
        assert!(!e.properties.contains_key("N"));
        let etag = e.etag.unwrap();
        assert_eq!(
            etag,
            ETag::from_raw(members["odata.etag"].as_str().unwrap())
        );
        assert_eq!(etag.timestamp(), e.timestamp);
        // An ETag that is not the Timestamp's is kept as it came.
        let other = json!({"odata.etag": "W/\"x\"", "PartitionKey": "p", "RowKey": "r",
            "Timestamp": "2024-05-01T10:20:30Z"});
        let e = read_entity(other.to_string().as_bytes()).unwrap();
        assert_eq!(e.etag, Some(ETag::from_raw("W/\"x\"")));
        assert_eq!(e.etag.unwrap().timestamp(), None);
    }

    #[test]
    fn invalid_entities_are_refused() {
        for (body, says) in [
            (
                r#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Int64"}"#,
                "has no property `A`",
            ),
            (
                r#"{"PartitionKey":"p","RowKey":"r","A":"1","A@odata.type":"Edm.Nope"}"#,
                "unknown type",
            ),
            (
                r#"{"PartitionKey":"p","RowKey":"r","A":"x","A@odata.type":"Edm.Int64"}"#,
                "Edm.Int64",
            ),
            (
                r#"{"PartitionKey":1,"RowKey":"r"}"#,
                "PartitionKey must be a string",
            ),
            (
                r#"{"PartitionKey":"p","RowKey":"r","A":[1]}"#,
                "array or object",
            ),
            (r#"{"PartitionKey":"p"}"#, "needs both"),
        ] {
            let e = read_entity(body.as_bytes()).unwrap_err();
            assert_eq!(e.status, NO_STATUS);
            assert!(e.message.contains(says), "{body}: {}", e.message);
        }
    }

    #[test]
    fn pages_are_read() {
        let body = br#"{"odata.metadata":"m","value":[
            {"PartitionKey":"p","RowKey":"1","A":1},
            {"PartitionKey":"p","RowKey":"2","A":"2","A@odata.type":"Edm.Int64"}],"more":{"x":[1]}}"#;
        let page = read_entity_page(body).unwrap();
        assert_eq!(page.len(), 2);
        assert_eq!(page[0].get("A"), Some(&table_runtime::Value::Int32(1)));
        assert_eq!(page[1].get("A"), Some(&table_runtime::Value::Int64(2)));
        assert!(read_entity_page(br#"{"value":[]}"#).unwrap().is_empty());
        let none = read_entity_page(br#"{"odata.metadata":"m"}"#).unwrap_err();
        assert!(none.message.contains("no `value` array"));
        let bad =
            read_entity_page(br#"{"value":[{"RowKey":"r"},{"PartitionKey":"p","RowKey":"r"}]}"#);
        assert!(bad.unwrap_err().message.contains("needs both"));
        assert!(read_entity_page(br#"{"value":[{"PartitionKey":"p","RowKey":"r"}"#).is_err());
        assert!(read_entity_page(br#"{"value":[]} x"#).is_err());
    }

    #[test]
    fn errors_map_to_codes() {
        let body = br#"{"odata.error":{"code":"EntityAlreadyExists","message":{"lang":"en-US","value":"The specified entity already exists.\nRequestId:x\nTime:y"}}}"#;
        let e = service_error(409, None, body);
        assert_eq!(
            (e.status, e.code, e.message.as_str()),
            (
                409,
                ErrorCode::EntityAlreadyExists,
                "The specified entity already exists."
            )
        );
        let e = service_error(404, Some("TableNotFound"), b"");
        assert_eq!(e.code, ErrorCode::TableNotFound);
        let e = service_error(
            403,
            None,
            b"<?xml version=\"1.0\"?><Error><Code>AuthorizationFailure</Code><Message>No.</Message></Error>",
        );
        assert_eq!(e.status, 403);
        assert_eq!(e.code, ErrorCode::AuthorizationFailure);
        assert_eq!(e.message, "No.");
        // A code the store does not know keeps its spelling at the front of the message.
        let e = service_error(
            403,
            Some("AccountIsDisabled"),
            b"{\"odata.error\":{\"code\":\"AccountIsDisabled\",\"message\":{\"value\":\"No.\"}}}",
        );
        assert_eq!((e.status, e.code), (403, ErrorCode::AuthorizationFailure));
        assert_eq!(e.message, "AccountIsDisabled: No.");
        let e = service_error(500, None, b"\xff not json");
        assert_eq!(e.status, 500);
        assert!(e.message.contains("500"));
    }

    fn ops() -> Vec<BatchOperation> {
        vec![
            BatchOperation::Insert(Entity::new("p", "1").with("A", "é")),
            BatchOperation::Merge(Entity::new("p", "2"), IfMatch::Any),
            BatchOperation::Delete {
                partition_key: "p".into(),
                row_key: "3".into(),
                if_match: IfMatch::Any,
            },
        ]
    }

    #[test]
    fn batch_bodies_have_one_changeset() {
        let body = batch_body(
            &ops(),
            "http://h/acct/t",
            |pk, rk| format!("http://h/acct{}", entity_path("t", pk, rk)),
            0xab,
        );
        assert_eq!(
            body.content_type,
            "multipart/mixed; boundary=batch_00000000000000ab"
        );
        let text = String::from_utf8(body.body).unwrap();
        assert!(text.is_ascii());
        assert_eq!(text.matches("--changeset_00000000000000ab\r\n").count(), 3);
        assert!(text.contains("POST http://h/acct/t HTTP/1.1\r\n"));
        assert!(text.contains("MERGE http://h/acct/t(PartitionKey='p',RowKey='2') HTTP/1.1\r\n"));
        assert!(text.contains("If-Match: *\r\n"));
        assert!(text.ends_with("--changeset_00000000000000ab--\r\n--batch_00000000000000ab--\r\n"));
    }

    #[test]
    fn batch_answers_are_read() {
        let ok = "--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_2\r\n\r\n\
            --changesetresponse_2\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n\
            HTTP/1.1 204 No Content\r\nETag: W/\"datetime'2024-05-01T10%3A20%3A30.1234567Z'\"\r\n\r\n\r\n\
            --changesetresponse_2\r\nContent-Type: application/http\r\n\r\n\
            HTTP/1.1 204 No Content\r\nETag: W/\"x\"\r\n\r\n\r\n\
            --changesetresponse_2\r\nContent-Type: application/http\r\n\r\n\
            HTTP/1.1 204 No Content\r\n\r\n\r\n\
            --changesetresponse_2--\r\n--batchresponse_1--\r\n";
        let etags = batch_results(ok, &ops()).unwrap();
        assert_eq!(etags.len(), 3);
        assert!(etags[0].as_ref().unwrap().timestamp().is_some());
        assert_eq!(etags[1], Some(ETag::from_raw("W/\"x\"")));
        assert_eq!(etags[2], None);

        let failed = "--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_2\r\n\r\n\
            --changesetresponse_2\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n\
            HTTP/1.1 409 Conflict\r\nContent-ID: 3\r\nContent-Type: application/json;odata=minimalmetadata;charset=utf-8\r\n\r\n\
            {\"odata.error\":{\"code\":\"EntityAlreadyExists\",\"message\":{\"lang\":\"en-US\",\"value\":\"1:The specified entity already exists.\\nRequestId:r\"}}}\r\n\
            --changesetresponse_2--\r\n--batchresponse_1--\r\n";
        let e = batch_results(failed, &ops()).unwrap_err();
        assert_eq!(e.status, 409);
        assert_eq!(e.code, ErrorCode::EntityAlreadyExists);
        assert_eq!(e.failed_index, Some(1));
        assert_eq!(e.message, "The specified entity already exists.");

        let by_content_id = failed.replace("1:The", "The");
        let e = batch_results(&by_content_id, &ops()).unwrap_err();
        assert_eq!(e.failed_index, Some(2));

        let garbage = batch_results("not multipart", &ops()).unwrap_err();
        assert_eq!(garbage.status, NO_STATUS);
        let bad_status = batch_results("HTTP/1.1 abc\r\n", &ops()).unwrap_err();
        assert_eq!(bad_status.status, NO_STATUS);
    }
}

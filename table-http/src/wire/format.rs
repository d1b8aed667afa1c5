//! The service's side of the JSON payloads: entities and tables as the service writes them, at
//! each of the three metadata levels, and its error body. `table-server` writes with these; the
//! readers beside them (in [`super`]) read what they write, and the tests check both ways.
//!
//! What each level carries (the Table service's OData JSON, version 3.0):
//!
//! | | `nometadata` | `minimalmetadata` | `fullmetadata` |
//! |---|---|---|---|
//! | `odata.metadata` (document) | no | yes | yes |
//! | `odata.etag` (entity) | no | yes | yes |
//! | `odata.type`, `odata.id`, `odata.editLink` | no | no | yes |
//! | `Name@odata.type` | no | where JSON can't tell the type (Int64, DateTime, Guid, Binary, non-finite Double) | the same, and the Timestamp's |
//!
//! Entities are written straight into a byte buffer, a page of 1,000 without building a tree of
//! JSON values first, and from [`EntityView`]s: a page can be written from the store's own
//! records ([`PageWriter`]), without copying its entities out.

use std::io::Write as _;

use base64::Engine as _;
use table_runtime::query::ValueRef;
use table_runtime::{DateTime, ETag, EdmType, Entity, EntityView, ErrorCode, StoreError};

/// How much OData metadata an answer carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metadata {
    /// `application/json;odata=nometadata`: values only.
    None,
    /// `application/json;odata=minimalmetadata`: what a reader needs to type the values.
    Minimal,
    /// `application/json;odata=fullmetadata`: also each entity's type, id and edit link.
    Full,
}

impl Metadata {
    /// The level asked for by `$format` (which wins) or the `Accept` header. `application/json`
    /// alone, `*/*` or no header at all mean minimal metadata; an Atom or XML request is refused
    /// (the service dropped Atom in version 2015-12-11).
    pub fn requested(accept: Option<&str>, format: Option<&str>) -> Result<Metadata, StoreError> {
        let asked = format.or(accept).unwrap_or("");
        let lower = asked.to_ascii_lowercase();
        if lower.contains("odata=nometadata") {
            Ok(Metadata::None)
        } else if lower.contains("odata=fullmetadata") {
            Ok(Metadata::Full)
        } else if lower.contains("odata=minimalmetadata")
            || lower.is_empty()
            || lower.contains("application/json")
            || lower.contains("*/*")
            || lower == "json"
        {
            Ok(Metadata::Minimal)
        } else {
            Err(StoreError::new(
                ErrorCode::InvalidInput,
                format!(
                    "the payload format `{asked}` is not supported; ask for application/json;odata=nometadata, minimalmetadata or fullmetadata"
                ),
            ))
        }
    }

    /// The `Content-Type` of an answer at this level.
    pub fn content_type(self) -> &'static str {
        match self {
            Metadata::None => "application/json;odata=nometadata;streaming=true;charset=utf-8",
            Metadata::Minimal => {
                "application/json;odata=minimalmetadata;streaming=true;charset=utf-8"
            }
            Metadata::Full => "application/json;odata=fullmetadata;streaming=true;charset=utf-8",
        }
    }
}

/// Where an answer's entities live, for the links the metadata carries.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    /// The account's base URL as the client reached it: `http://127.0.0.1:10002/devstoreaccount1`.
    pub base: &'a str,
    /// The account name.
    pub account: &'a str,
    /// The table's name.
    pub table: &'a str,
}

/// Writes `text` as a JSON string. Runs of characters that need no escape (nearly all text)
/// are copied whole; quotes, backslashes and control characters are escaped as `serde_json`
/// escapes them.
fn string(out: &mut Vec<u8>, text: &str) {
    out.reserve(text.len() + 2);
    out.push(b'"');
    let bytes = text.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let short: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0x00..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        if short.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 0xf)]);
        } else {
            out.extend_from_slice(short);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

fn member(out: &mut Vec<u8>, first: &mut bool, name: &str) {
    if !std::mem::take(first) {
        out.push(b',');
    }
    string(out, name);
    out.push(b':');
}

/// The part of an entity's URL after the account: `Table(PartitionKey='a',RowKey='b')`, quotes
/// doubled and the keys percent-encoded as [`super::entity_path`] writes them.
fn edit_link(table: &str, partition_key: &str, row_key: &str) -> String {
    super::entity_path(table, partition_key, row_key)[1..].to_owned()
}

/// The annotation a value carries at the minimal and full levels: the types JSON can't tell
/// apart (Int64, DateTime, Guid, Binary, and a Double that is not finite).
fn annotation(value: ValueRef<'_>) -> Option<EdmType> {
    match value {
        ValueRef::String(_) | ValueRef::Boolean(_) | ValueRef::Int32(_) => None,
        ValueRef::Int64(_) => Some(EdmType::Int64),
        ValueRef::DateTime(_) => Some(EdmType::DateTime),
        ValueRef::Guid(_) => Some(EdmType::Guid),
        ValueRef::Binary(_) => Some(EdmType::Binary),
        // A finite Double is written with its decimal point (`3.0`), which tells it from an
        // Int32; the service annotates only NaN and the infinities, which are strings.
        ValueRef::Double(d) => (!d.is_finite()).then_some(EdmType::Double),
    }
}

/// The texts of the last instant written, as a value and inside an ETag: the entities of one
/// page mostly share their Timestamps (a transaction writes them all at once), and each
/// Timestamp is written twice (as itself and in the ETag that names it).
#[derive(Default)]
struct Dates {
    ticks: Option<i64>,
    iso: String,
    etag: String,
}

impl Dates {
    fn cache(&mut self, time: DateTime) {
        if self.ticks != Some(time.ticks()) {
            self.iso.clear();
            time.write_wire(&mut self.iso, ":");
            self.etag = ETag::for_timestamp(time).to_header();
            self.ticks = Some(time.ticks());
        }
    }

    fn write(&mut self, out: &mut Vec<u8>, time: DateTime) {
        self.cache(time);
        out.push(b'"');
        out.extend_from_slice(self.iso.as_bytes());
        out.push(b'"');
    }

    /// An ETag as a JSON string: the service's form for a Timestamp (made once per distinct
    /// Timestamp), or the ETag's own text.
    fn write_etag(&mut self, out: &mut Vec<u8>, etag: &ETag) {
        match etag.timestamp() {
            Some(time) => {
                self.cache(time);
                string(out, &self.etag);
            }
            None => string(out, &etag.to_header()),
        }
    }
}

fn value(out: &mut Vec<u8>, value: ValueRef<'_>, dates: &mut Dates) {
    match value {
        ValueRef::String(s) => string(out, s),
        ValueRef::Boolean(b) => out.extend_from_slice(if b { b"true" } else { b"false" }),
        ValueRef::Int32(i) => {
            let _ = write!(out, "{i}");
        }
        ValueRef::Int64(i) => {
            let _ = write!(out, "\"{i}\"");
        }
        ValueRef::Double(d) if d.is_nan() => out.extend_from_slice(b"\"NaN\""),
        ValueRef::Double(d) if d.is_infinite() => out.extend_from_slice(if d > 0.0 {
            b"\"Infinity\""
        } else {
            b"\"-Infinity\""
        }),
        ValueRef::Double(d) => {
            let _ = serde_json::to_writer(&mut *out, &d);
        }
        ValueRef::DateTime(ticks) => match DateTime::from_ticks(ticks) {
            Ok(time) => dates.write(out, time),
            Err(_) => string(out, &ticks.to_string()),
        },
        ValueRef::Guid(g) => {
            out.push(b'"');
            let mut buffer = table_runtime::uuid::Uuid::encode_buffer();
            let text = table_runtime::uuid::Uuid::from_bytes(*g)
                .hyphenated()
                .encode_lower(&mut buffer);
            out.extend_from_slice(text.as_bytes());
            out.push(b'"');
        }
        ValueRef::Binary(b) => {
            out.push(b'"');
            let start = out.len();
            out.resize(start + base64::encoded_len(b.len(), true).unwrap_or(0), 0);
            let written = base64::engine::general_purpose::STANDARD
                .encode_slice(b, &mut out[start..])
                .unwrap_or(0);
            out.truncate(start + written);
            out.push(b'"');
        }
    }
}

fn property(
    out: &mut Vec<u8>,
    first: &mut bool,
    name: &str,
    v: ValueRef<'_>,
    level: Metadata,
    dates: &mut Dates,
) {
    if let Some(t) = annotation(v).filter(|_| level != Metadata::None) {
        if !std::mem::take(first) {
            out.push(b',');
        }
        // The name with its suffix, escaped as one string.
        string(out, name);
        out.pop();
        out.extend_from_slice(b"@odata.type\":");
        string(out, t.wire_name());
    }
    member(out, first, name);
    value(out, v, dates);
}

/// Writes one entity's members (without the braces), `first` telling whether one was written
/// before. With a `select` list only the named properties appear, and a named one the entity
/// lacks is written as `null`, as the service does.
fn entity_members(
    out: &mut Vec<u8>,
    first: &mut bool,
    entity: EntityView<'_>,
    select: Option<&[String]>,
    level: Metadata,
    place: &Place<'_>,
    dates: &mut Dates,
) {
    let etag = entity.etag().filter(|_| level != Metadata::None);
    if level == Metadata::Full {
        let link = edit_link(place.table, entity.partition_key(), entity.row_key());
        member(out, first, "odata.type");
        string(out, &format!("{}.{}", place.account, place.table));
        member(out, first, "odata.id");
        string(out, &format!("{}/{link}", place.base));
        if let Some(etag) = &etag {
            member(out, first, "odata.etag");
            dates.write_etag(out, etag);
        }
        member(out, first, "odata.editLink");
        string(out, &link);
    } else if let Some(etag) = &etag {
        member(out, first, "odata.etag");
        dates.write_etag(out, etag);
    }
    let wanted = |name: &str| select.is_none_or(|s| s.iter().any(|n| n == name));
    if wanted("PartitionKey") {
        member(out, first, "PartitionKey");
        string(out, entity.partition_key());
    }
    if wanted("RowKey") {
        member(out, first, "RowKey");
        string(out, entity.row_key());
    }
    if let Some(ts) = entity.timestamp().filter(|_| wanted("Timestamp")) {
        if level == Metadata::Full {
            member(out, first, "Timestamp@odata.type");
            string(out, EdmType::DateTime.wire_name());
        }
        member(out, first, "Timestamp");
        dates.write(out, ts);
    }
    for (name, v) in entity.properties() {
        if wanted(name) {
            property(out, first, name, v, level, dates);
        }
    }
    for name in select.unwrap_or(&[]) {
        let system = matches!(name.as_str(), "PartitionKey" | "RowKey" | "Timestamp");
        if !system && entity.property(name).is_none() {
            member(out, first, name);
            out.extend_from_slice(b"null");
        }
    }
}

fn metadata_member(out: &mut Vec<u8>, first: &mut bool, level: Metadata, base: &str, what: &str) {
    if level != Metadata::None {
        member(out, first, "odata.metadata");
        string(out, &format!("{base}/$metadata#{what}"));
    }
}

/// The body of a point read or of an insert that returns content: one entity, with
/// `odata.metadata` naming `Table/@Element`.
pub fn entity_document(
    entity: &Entity,
    select: Option<&[String]>,
    level: Metadata,
    place: &Place<'_>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    out.push(b'{');
    let mut first = true;
    metadata_member(
        &mut out,
        &mut first,
        level,
        place.base,
        &format!("{}/@Element", place.table),
    );
    entity_members(
        &mut out,
        &mut first,
        EntityView::of(entity),
        select,
        level,
        place,
        &mut Dates::default(),
    );
    out.push(b'}');
    out
}

/// The most entities a page holds.
const PAGE_SIZE: usize = 1000;

/// What `odata.metadata` percent-encodes of a `$select` it repeats: controls, space, and the
/// characters a URL fragment can't hold.
const SELECT_ECHO: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'`');

/// The body of a query page, `{"odata.metadata":…,"value":[…]}`, written one entity at a time
/// as the store hands them out.
pub struct PageWriter<'a> {
    out: Vec<u8>,
    entities: usize,
    select: Option<&'a [String]>,
    level: Metadata,
    place: Place<'a>,
    dates: Dates,
}

impl<'a> PageWriter<'a> {
    /// Starts a page. `select` is the query's `$select`, when it has one: its names go into
    /// `odata.metadata` (`…/$metadata#Orders&$select=PartitionKey,Total`) as the service writes
    /// it, and an empty one (`$select=`, `$select=%20`) selects every property.
    pub fn new(select: Option<&'a [String]>, level: Metadata, place: Place<'a>) -> PageWriter<'a> {
        let asked = select.map(|names| names.join(","));
        PageWriter::as_asked(select, asked.as_deref(), level, place)
    }

    /// Starts a page whose `odata.metadata` repeats `$select` as the request wrote it, `asked`
    /// (its query value, decoded), as the service does: trimmed, and with the characters a URL
    /// can't hold percent-encoded (`$select=age%2C%20sex` comes back `&$select=age,%20sex`).
    pub fn as_asked(
        select: Option<&'a [String]>,
        asked: Option<&str>,
        level: Metadata,
        place: Place<'a>,
    ) -> PageWriter<'a> {
        let mut out = Vec::with_capacity(4096);
        out.push(b'{');
        let mut first = true;
        match asked {
            Some(text) => {
                let what = format!(
                    "{}&$select={}",
                    place.table,
                    percent_encoding::utf8_percent_encode(text.trim(), SELECT_ECHO)
                );
                metadata_member(&mut out, &mut first, level, place.base, &what);
            }
            None => metadata_member(&mut out, &mut first, level, place.base, place.table),
        }
        let select = select.filter(|names| !names.is_empty());
        member(&mut out, &mut first, "value");
        out.push(b'[');
        PageWriter {
            out,
            entities: 0,
            select,
            level,
            place,
            dates: Dates::default(),
        }
    }

    /// Writes the next entity.
    pub fn push(&mut self, entity: EntityView<'_>) {
        if self.entities > 0 {
            self.out.push(b',');
        }
        self.entities += 1;
        self.out.push(b'{');
        entity_members(
            &mut self.out,
            &mut true,
            entity,
            self.select,
            self.level,
            &self.place,
            &mut self.dates,
        );
        self.out.push(b'}');
        if self.entities == 1 {
            // One allocation for a page of entities like the first, rather than a doubling
            // series of them (each a fresh stretch of memory to fault in).
            let first = self.out.len();
            self.out.reserve(first.saturating_mul(PAGE_SIZE - 1));
        }
    }

    /// The finished body.
    pub fn finish(mut self) -> Vec<u8> {
        self.out.extend_from_slice(b"]}");
        self.out
    }
}

/// The body of a query page: `{"odata.metadata":…,"value":[…]}`.
pub fn entity_page(
    entities: &[Entity],
    select: Option<&[String]>,
    level: Metadata,
    place: &Place<'_>,
) -> Vec<u8> {
    let mut page = PageWriter::new(select, level, *place);
    for entity in entities {
        page.push(EntityView::of(entity));
    }
    page.finish()
}

fn table_members(out: &mut Vec<u8>, first: &mut bool, name: &str, level: Metadata, place: &Place) {
    if level == Metadata::Full {
        member(out, first, "odata.type");
        string(out, &format!("{}.Tables", place.account));
        member(out, first, "odata.id");
        string(out, &format!("{}/Tables('{name}')", place.base));
        member(out, first, "odata.editLink");
        string(out, &format!("Tables('{name}')"));
    }
    member(out, first, "TableName");
    string(out, name);
}

/// The body of a table creation that returns content: `{"odata.metadata":…,"TableName":…}`.
/// `place.table` is ignored.
pub fn table_document(name: &str, level: Metadata, place: &Place<'_>) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    out.push(b'{');
    let mut first = true;
    metadata_member(&mut out, &mut first, level, place.base, "Tables/@Element");
    table_members(&mut out, &mut first, name, level, place);
    out.push(b'}');
    out
}

/// The body of a page of tables. `place.table` is ignored.
pub fn table_page(names: &[String], level: Metadata, place: &Place<'_>) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + 64 * names.len());
    out.push(b'{');
    let mut first = true;
    metadata_member(&mut out, &mut first, level, place.base, "Tables");
    member(&mut out, &mut first, "value");
    out.push(b'[');
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'{');
        table_members(&mut out, &mut true, name, level, place);
        out.push(b'}');
    }
    out.extend_from_slice(b"]}");
    out
}

/// The sentence the service's message starts with for an error code, where clients read it:
/// the Python SDK, for one, tells errors apart by these words. As recorded from the service.
pub fn service_sentence(code: &str) -> Option<&'static str> {
    Some(match code {
        "ResourceNotFound" => "The specified resource does not exist.",
        "TableNotFound" => "The table specified does not exist.",
        "EntityAlreadyExists" => "The specified entity already exists.",
        "TableAlreadyExists" => "The table specified already exists.",
        "UpdateConditionNotSatisfied" => {
            "The update condition specified in the request was not satisfied."
        }
        "PropertyNameTooLong" => "The property name exceeds the maximum allowed length (255).",
        "TooManyProperties" => {
            "The entity contains more properties than allowed. Each entity can include up to 252 properties to store data. Each entity also has 3 system properties."
        }
        "AuthorizationFailure" => "This request is not authorized to perform this operation.",
        "InsufficientAccountPermissions" => "Write operations are not allowed.",
        "PropertiesNeedValue" => "The values are not specified for all properties in the entity.",
        "MediaTypeNotSupported" => "None of the provided media types are supported.",
        "InvalidQueryParameterValue" => {
            "Value for one of the query parameters specified in the request URI is invalid."
        }
        _ => return None,
    })
}

/// The service's JSON error body: `{"odata.error":{"code":…,"message":{"lang":"en-US","value":…}}}`.
/// The message is written as the service writes it: the index of the failed operation of a
/// `$batch` first (`1:`), then the code's own sentence ([`service_sentence`]) where it has one,
/// then `detail` on a line of its own when it adds to that sentence, then the request id and
/// the time on the lines after.
pub fn error_document(
    code: &str,
    failed_index: Option<usize>,
    detail: &str,
    request_id: &str,
    time: &str,
) -> Vec<u8> {
    let mut message = String::with_capacity(160 + detail.len());
    if let Some(index) = failed_index {
        message.push_str(&index.to_string());
        message.push(':');
    }
    match service_sentence(code) {
        Some(sentence) if !detail.starts_with(sentence) => {
            message.push_str(sentence);
            if !detail.is_empty() {
                message.push('\n');
                message.push_str(detail);
            }
        }
        _ => message.push_str(detail),
    }
    message.push_str("\nRequestId:");
    message.push_str(request_id);
    message.push_str("\nTime:");
    message.push_str(time);
    let mut out = Vec::with_capacity(64 + message.len());
    out.extend_from_slice(b"{\"odata.error\":{\"code\":");
    string(&mut out, code);
    out.extend_from_slice(b",\"message\":{\"lang\":\"en-US\",\"value\":");
    string(&mut out, &message);
    out.extend_from_slice(b"}}}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value as Json;
    use table_runtime::{BatchOperation, ETag, Value};

    const PLACE: Place<'static> = Place {
        base: "http://127.0.0.1:10002/devstoreaccount1",
        account: "devstoreaccount1",
        table: "Orders",
    };

    fn sample() -> Entity {
        let mut e = Entity::new("O'Brien", "r 1")
            .with("S", "text")
            .with("I", 7)
            .with("L", 9_007_199_254_740_993i64)
            .with("D", 2.0)
            .with("F", 1.5)
            .with("B", true)
            .with("N", f64::NAN)
            .with("X", vec![0u8, 1, 2]);
        let ts = DateTime::parse("2024-05-01T10:20:30.1234567Z").unwrap();
        e.timestamp = Some(ts);
        e.etag = Some(ETag::for_timestamp(ts));
        e
    }

    fn json(bytes: &[u8]) -> Json {
        serde_json::from_slice(bytes).unwrap()
    }

    #[test]
    fn levels_carry_what_the_service_writes() {
        let e = sample();
        let none = json(&entity_document(&e, None, Metadata::None, &PLACE));
        let obj = none.as_object().unwrap();
        assert!(obj.keys().all(|k| !k.contains("odata")), "{none}");
        assert_eq!(none["L"], "9007199254740993");

        let minimal = json(&entity_document(&e, None, Metadata::Minimal, &PLACE));
        assert_eq!(
            minimal["odata.metadata"],
            "http://127.0.0.1:10002/devstoreaccount1/$metadata#Orders/@Element"
        );
        assert_eq!(minimal["L@odata.type"], "Edm.Int64");
        // A finite Double is told by its decimal point, as the service writes it.
        assert!(minimal.get("D@odata.type").is_none());
        assert!(minimal["D"].is_f64(), "{minimal}");
        assert!(minimal.get("Timestamp@odata.type").is_none());
        assert!(minimal.get("I@odata.type").is_none());
        assert!(minimal.get("F@odata.type").is_none());
        assert!(minimal.get("odata.id").is_none());

        let full = json(&entity_document(&e, None, Metadata::Full, &PLACE));
        assert_eq!(full["odata.type"], "devstoreaccount1.Orders");
        assert_eq!(
            full["odata.editLink"],
            "Orders(PartitionKey='O%27%27Brien',RowKey='r%201')"
        );
        assert_eq!(
            full["odata.id"],
            "http://127.0.0.1:10002/devstoreaccount1/Orders(PartitionKey='O%27%27Brien',RowKey='r%201')"
        );
        assert_eq!(full["Timestamp@odata.type"], "Edm.DateTime");
        assert_eq!(full["L@odata.type"], "Edm.Int64");
        assert!(full.get("I@odata.type").is_none());
        assert!(full.get("B@odata.type").is_none());
        assert!(full.get("S@odata.type").is_none());
        assert!(full.get("PartitionKey@odata.type").is_none());
    }

    /// What the server writes, the client reads back exactly, at every level that carries the
    /// types.
    #[test]
    fn the_client_reads_what_the_server_writes() {
        let e = sample();
        for level in [Metadata::Minimal, Metadata::Full] {
            let back = super::super::read_entity(&entity_document(&e, None, level, &PLACE))
                .unwrap_or_else(|err| panic!("{level:?}: {err}"));
            assert_eq!(back.partition_key, e.partition_key);
            assert_eq!(back.timestamp, e.timestamp);
            assert_eq!(back.etag, e.etag);
            for (name, v) in &e.properties {
                match (v, back.get(name)) {
                    (Value::Double(a), Some(Value::Double(b))) if a.is_nan() => {
                        assert!(b.is_nan())
                    }
                    (a, b) => assert_eq!(Some(a), b, "{level:?} {name}"),
                }
            }
            let page = entity_page(&[e.clone(), e.clone()], None, level, &PLACE);
            assert_eq!(super::super::read_entity_page(&page).unwrap().len(), 2);
        }
    }

    /// Strings are escaped as serde_json escapes them, every control character included.
    #[test]
    fn strings_are_escaped_like_serde_json() {
        let mut texts: Vec<String> = (0u32..0x80)
            .filter_map(char::from_u32)
            .map(|c| format!("a{c}b"))
            .collect();
        texts.extend(
            [
                "",
                "plain",
                "é😀\u{2028}",
                "\"quoted\" \\ back",
                "\u{7f}\u{1f}",
            ]
            .map(String::from),
        );
        for text in texts {
            let mut ours = Vec::new();
            string(&mut ours, &text);
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                serde_json::to_string(&text).unwrap(),
                "{text:?}"
            );
        }
    }

    /// An ETag that does not name a Timestamp is written as it is; one that does is written in
    /// the service's form from the Timestamp's text, whichever comes first on the page.
    #[test]
    fn etags_are_written_as_given_or_from_their_timestamp() {
        let mut e = sample();
        e.etag = Some(ETag::from_raw("W/\"opaque-1\""));
        let doc = json(&entity_document(&e, None, Metadata::Minimal, &PLACE));
        assert_eq!(doc["odata.etag"], "W/\"opaque-1\"");
        let mut page = PageWriter::new(None, Metadata::Full, PLACE);
        let stamped = sample();
        page.push(EntityView::of(&stamped));
        page.push(EntityView::of(&e));
        page.push(EntityView::of(&stamped));
        let page = json(&page.finish());
        let header = stamped.etag.as_ref().unwrap().to_header();
        assert_eq!(page["value"][0]["odata.etag"], header.as_str());
        assert_eq!(page["value"][1]["odata.etag"], "W/\"opaque-1\"");
        assert_eq!(page["value"][2]["odata.etag"], header.as_str());
        assert_eq!(
            page["value"][2]["Timestamp"],
            stamped.timestamp.unwrap().to_string().as_str()
        );
    }

    /// A page written from the store's own records, as the server writes it, is the page
    /// written from the entities the store copies out, at every level, with and without
    /// `$select`.
    #[test]
    fn pages_written_from_the_store_match_pages_of_entities() {
        use table_runtime::{Query, Store};
        let store = Store::new();
        store.create_table("Orders").unwrap();
        let mut e = sample();
        for i in 0..3 {
            e.row_key = format!("r{i}");
            e.properties.insert(
                "T".into(),
                Value::DateTime(DateTime::parse("2024-01-02T03:04:05Z").unwrap()),
            );
            e.properties.insert(
                "G".into(),
                Value::Guid(table_runtime::uuid::Uuid::from_u128(0xabc + i)),
            );
            store
                .write("Orders", BatchOperation::Insert(e.clone()))
                .unwrap();
        }
        let selects = [
            None,
            Some(vec![
                "S".to_owned(),
                "Missing".to_owned(),
                "Timestamp".to_owned(),
            ]),
        ];
        for level in [Metadata::None, Metadata::Minimal, Metadata::Full] {
            for select in &selects {
                let mut query = Query::all();
                query.select = select.clone();
                let copied = store.query("Orders", &query).unwrap();
                let expected = entity_page(&copied.entities, select.as_deref(), level, &PLACE);
                let mut writer = PageWriter::new(select.as_deref(), level, PLACE);
                store
                    .visit_page("Orders", &query, |view| writer.push(view))
                    .unwrap();
                assert_eq!(
                    String::from_utf8(writer.finish()).unwrap(),
                    String::from_utf8(expected).unwrap(),
                    "{level:?} {select:?}"
                );
            }
        }
    }

    #[test]
    fn select_writes_null_for_missing_names() {
        let e = sample();
        let select = vec!["S".to_owned(), "Missing".to_owned()];
        let doc = json(&entity_document(
            &e,
            Some(&select),
            Metadata::Minimal,
            &PLACE,
        ));
        assert_eq!(doc["S"], "text");
        assert_eq!(doc["Missing"], Json::Null);
        assert!(doc.get("I").is_none());
        assert!(doc.get("PartitionKey").is_none());
    }

    #[test]
    fn tables_and_errors() {
        let page = json(&table_page(
            &["a1".to_owned(), "b2".to_owned()],
            Metadata::Full,
            &PLACE,
        ));
        assert_eq!(page["value"][1]["TableName"], "b2");
        assert_eq!(page["value"][0]["odata.editLink"], "Tables('a1')");
        let created = json(&table_document("a1", Metadata::Minimal, &PLACE));
        assert_eq!(
            created["odata.metadata"],
            "http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables/@Element"
        );
        let error = error_document("TableNotFound", None, "no \"t\"", "r1", "now");
        let read = super::super::service_error(404, None, &error);
        assert_eq!(read.code, ErrorCode::TableNotFound);
        assert_eq!(
            read.message,
            "The table specified does not exist.\nno \"t\""
        );
    }

    /// An error's message is the service's: the failed index, the code's sentence, the detail,
    /// the request id and the time, a line each; a detail that is the sentence isn't repeated.
    #[test]
    fn error_messages_start_as_the_services_do() {
        let value = |doc: Vec<u8>| {
            json(&doc)["odata.error"]["message"]["value"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        assert_eq!(
            value(error_document(
                "EntityAlreadyExists",
                Some(3),
                "p/r",
                "id",
                "t"
            )),
            "3:The specified entity already exists.\np/r\nRequestId:id\nTime:t"
        );
        assert_eq!(
            value(error_document(
                "ResourceNotFound",
                None,
                "The specified resource does not exist.",
                "id",
                "t"
            )),
            "The specified resource does not exist.\nRequestId:id\nTime:t"
        );
        assert_eq!(
            value(error_document("InvalidInput", None, "bad", "id", "t")),
            "bad\nRequestId:id\nTime:t"
        );
    }

    #[test]
    fn accept_headers_choose_the_level() {
        let level =
            |accept: Option<&str>, format: Option<&str>| Metadata::requested(accept, format);
        assert_eq!(level(None, None).unwrap(), Metadata::Minimal);
        assert_eq!(
            level(Some("application/json;odata=nometadata"), None).unwrap(),
            Metadata::None
        );
        assert_eq!(
            level(
                Some("application/json;odata=nometadata"),
                Some("application/json;odata=fullmetadata")
            )
            .unwrap(),
            Metadata::Full
        );
        assert!(level(Some("application/atom+xml"), None).is_err());
    }
}

//! The service's JSON wire format for entities (`application/json;odata=minimalmetadata`).
//!
//! JSON carries strings, booleans and numbers; every other EDM type travels as a string with a
//! `Name@odata.type` annotation beside it. Int64 is annotated and written as a string (JSON
//! numbers lose precision past 2^53). A Double is a JSON number with its decimal point (`2.0`);
//! this writer, which clients send requests with, also annotates it when it is integral (a reader
//! that parses `2.0` into a plain number, as Azurite does, would store an Int32) or not finite
//! (NaN and the infinities are strings). The service's own answers annotate only the latter
//! (`table_http::wire::format`). An unannotated integer is an Int32.

use base64::Engine as _;
use serde_json::{Map, Value as Json};

use crate::entity::{ETag, Entity};
use crate::error::{ErrorCode, StoreError};
use crate::value::{DateTime, EdmType, Value};

const ANNOTATION: &str = "@odata.type";

fn invalid(message: impl Into<String>) -> StoreError {
    StoreError::new(ErrorCode::InvalidInput, message)
}

/// Reads an entity from its JSON text.
pub fn entity_from_json_str(text: &str) -> Result<Entity, StoreError> {
    let json: Json = serde_json::from_str(text)
        .map_err(|e| invalid(format!("the body is not valid JSON: {e}")))?;
    entity_from_json(&json)
}

/// Reads an entity from a JSON object. `odata.*` metadata and `Timestamp` are ignored (the store
/// owns them); a property whose value is `null` has no value and is left out.
pub fn entity_from_json(json: &Json) -> Result<Entity, StoreError> {
    let object = json
        .as_object()
        .ok_or_else(|| invalid("an entity must be a JSON object"))?;
    let mut entity = Entity::default();
    let mut has_pk = false;
    let mut has_rk = false;
    // The annotation's name, built in one buffer rather than allocated per property.
    let mut annotation_name = String::new();
    for (name, raw) in object {
        if let Some(base) = name.strip_suffix(ANNOTATION) {
            // An annotation of an annotation means nothing, and the service ignores it.
            if !base.is_empty()
                && !base.starts_with("odata.")
                && !base.contains('@')
                && !object.contains_key(base)
            {
                return Err(invalid(format!(
                    "annotation `{name}` has no property `{base}`"
                )));
            }
            continue;
        }
        if name.starts_with("odata.") || name == "Timestamp" {
            continue;
        }
        annotation_name.clear();
        annotation_name.push_str(name);
        annotation_name.push_str(ANNOTATION);
        let annotation = match object.get(&annotation_name) {
            None => None,
            Some(Json::String(t)) => Some(EdmType::from_wire_name(t).ok_or_else(|| {
                invalid(format!(
                    "property `{name}` is annotated with unknown type `{t}`"
                ))
            })?),
            Some(_) => {
                return Err(invalid(format!(
                    "the annotation of `{name}` is not a string"
                )));
            }
        };
        match name.as_str() {
            "PartitionKey" | "RowKey" => {
                let key = match raw {
                    Json::String(s) if annotation.is_none_or(|t| t == EdmType::String) => s.clone(),
                    _ => {
                        // The service's code for a key that is not a string (recorded).
                        return Err(StoreError::new(
                            ErrorCode::InvalidInput,
                            format!("{name} must be a string"),
                        ));
                    }
                };
                if name == "PartitionKey" {
                    entity.partition_key = key;
                    has_pk = true;
                } else {
                    entity.row_key = key;
                    has_rk = true;
                }
            }
            _ => {
                if let Some(value) = read_value(name, raw, annotation)? {
                    entity.properties.insert(name.clone(), value);
                }
            }
        }
    }
    if !has_pk || !has_rk {
        return Err(StoreError::new(
            ErrorCode::PropertiesNeedValue,
            "an entity needs both PartitionKey and RowKey",
        ));
    }
    Ok(entity)
}

/// Reads one property value, typed by its annotation or, without one, by its JSON form.
pub fn read_value(
    name: &str,
    raw: &Json,
    annotation: Option<EdmType>,
) -> Result<Option<Value>, StoreError> {
    let mismatch = |t: EdmType| {
        StoreError::new(
            ErrorCode::InvalidValueType,
            format!("property `{name}` does not hold a valid {t} value: {raw}"),
        )
    };
    let value = match (annotation, raw) {
        (_, Json::Null) => return Ok(None),
        (None | Some(EdmType::String), Json::String(s)) => Value::String(s.clone()),
        (None | Some(EdmType::Boolean), Json::Bool(b)) => Value::Boolean(*b),
        (None, Json::Number(n)) => {
            if let Some(i) = n.as_i64() {
                Value::Int32(i32::try_from(i).map_err(|_| {
                    StoreError::new(
                        ErrorCode::OutOfRangeInput,
                        format!("property `{name}` = {i} does not fit Edm.Int32; annotate it as Edm.Int64"),
                    )
                })?)
            } else if let Some(u) = n.as_u64() {
                return Err(StoreError::new(
                    ErrorCode::OutOfRangeInput,
                    format!(
                        "property `{name}` = {u} does not fit Edm.Int32; annotate it as Edm.Int64"
                    ),
                ));
            } else {
                Value::Double(n.as_f64().ok_or_else(|| mismatch(EdmType::Double))?)
            }
        }
        // The service converts a string to the type its annotation names, as Storage Explorer
        // and older SDKs send Booleans and Int32s: `"false"` (any case) and `"32"`.
        (Some(EdmType::Boolean), Json::String(s)) => {
            if s.eq_ignore_ascii_case("true") {
                Value::Boolean(true)
            } else if s.eq_ignore_ascii_case("false") {
                Value::Boolean(false)
            } else {
                return Err(mismatch(EdmType::Boolean));
            }
        }
        (Some(EdmType::Int32), Json::Number(n)) => Value::Int32(
            n.as_i64()
                .and_then(|i| i32::try_from(i).ok())
                .ok_or_else(|| mismatch(EdmType::Int32))?,
        ),
        (Some(EdmType::Int32), Json::String(s)) => {
            let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(mismatch(EdmType::Int32));
            }
            Value::Int32(s.parse().map_err(|_| mismatch(EdmType::Int32))?)
        }
        (Some(EdmType::Int64), Json::String(s)) => {
            Value::Int64(s.parse().map_err(|_| mismatch(EdmType::Int64))?)
        }
        // The service refuses an Int64 written as a JSON number: it must be a string, as JSON
        // numbers lose precision past 2^53.
        (Some(EdmType::Double), Json::Number(n)) => {
            Value::Double(n.as_f64().ok_or_else(|| mismatch(EdmType::Double))?)
        }
        (Some(EdmType::Double), Json::String(s)) => Value::Double(match s.as_str() {
            "NaN" => f64::NAN,
            "Infinity" | "INF" => f64::INFINITY,
            "-Infinity" | "-INF" => f64::NEG_INFINITY,
            // A finite number too large for a double is refused, not stored as infinity.
            other => match other.parse::<f64>() {
                Ok(d) if d.is_finite() => d,
                _ => return Err(mismatch(EdmType::Double)),
            },
        }),
        (Some(EdmType::DateTime), Json::String(s)) => Value::DateTime(DateTime::parse(s)?),
        (Some(EdmType::Guid), Json::String(s)) => {
            Value::Guid(uuid::Uuid::parse_str(s).map_err(|_| mismatch(EdmType::Guid))?)
        }
        (Some(EdmType::Binary), Json::String(s)) => Value::Binary(
            base64::engine::general_purpose::STANDARD
                .decode(s)
                .map_err(|_| mismatch(EdmType::Binary))?,
        ),
        (Some(t), _) => return Err(mismatch(t)),
        (None, Json::Array(_) | Json::Object(_)) => {
            return Err(invalid(format!(
                "property `{name}` is a JSON array or object; the service stores only scalar values"
            )));
        }
    };
    Ok(Some(value))
}

/// Writes a value as JSON, with the annotation it needs (if any).
pub fn write_value(value: &Value) -> (Json, Option<EdmType>) {
    match value {
        Value::String(s) => (Json::String(s.clone()), None),
        Value::Boolean(b) => (Json::Bool(*b), None),
        Value::Int32(i) => (Json::from(*i), None),
        Value::Int64(i) => (Json::String(i.to_string()), Some(EdmType::Int64)),
        Value::Double(d) => {
            if d.is_nan() {
                (Json::String("NaN".into()), Some(EdmType::Double))
            } else if d.is_infinite() {
                let s = if *d > 0.0 { "Infinity" } else { "-Infinity" };
                (Json::String(s.into()), Some(EdmType::Double))
            } else {
                // Integral values are annotated too: a reader that parses `2.0` into a plain
                // number (Azurite does) would otherwise store an Int32.
                let annotation = (d.fract() == 0.0).then_some(EdmType::Double);
                let number = serde_json::Number::from_f64(*d).map_or(Json::Null, Json::Number);
                (number, annotation)
            }
        }
        Value::DateTime(t) => (Json::String(t.to_wire()), Some(EdmType::DateTime)),
        Value::Guid(g) => (
            Json::String(g.hyphenated().to_string()),
            Some(EdmType::Guid),
        ),
        Value::Binary(b) => (
            Json::String(base64::engine::general_purpose::STANDARD.encode(b)),
            Some(EdmType::Binary),
        ),
    }
}

/// Writes an entity as the service returns it: metadata (`odata.etag`), keys, `Timestamp` and
/// properties, each with its annotation where JSON cannot carry the type.
///
/// With a `select` list only the named properties are written, and a selected property the
/// entity lacks is written as `null`, as the service does.
pub fn entity_to_json(entity: &Entity, select: Option<&[String]>) -> Json {
    let mut map = Map::new();
    if let Some(etag) = &entity.etag {
        map.insert("odata.etag".into(), Json::String(etag.to_header()));
    }
    let wanted = |name: &str| select.is_none_or(|s| s.iter().any(|n| n == name));
    if wanted("PartitionKey") {
        map.insert(
            "PartitionKey".into(),
            Json::String(entity.partition_key.clone()),
        );
    }
    if wanted("RowKey") {
        map.insert("RowKey".into(), Json::String(entity.row_key.clone()));
    }
    if let Some(ts) = entity.timestamp.filter(|_| wanted("Timestamp")) {
        insert_value(&mut map, "Timestamp", &Value::DateTime(ts));
    }
    for (name, value) in &entity.properties {
        if wanted(name) {
            insert_value(&mut map, name, value);
        }
    }
    for name in select.unwrap_or(&[]) {
        if !map.contains_key(name.as_str())
            && !matches!(name.as_str(), "PartitionKey" | "RowKey" | "Timestamp")
        {
            map.insert(name.clone(), Json::Null);
        }
    }
    Json::Object(map)
}

fn insert_value(map: &mut Map<String, Json>, name: &str, value: &Value) {
    let (json, annotation) = write_value(value);
    if let Some(t) = annotation {
        map.insert(
            format!("{name}{ANNOTATION}"),
            Json::String(t.wire_name().into()),
        );
    }
    map.insert(name.to_owned(), json);
}

/// Reads an ETag from a JSON entity's `odata.etag`, if it has one.
pub fn etag_of(json: &Json) -> Option<ETag> {
    json.get("odata.etag")
        .and_then(Json::as_str)
        .map(ETag::from_raw)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_type_round_trips() {
        let text = r#"{"PartitionKey":"p","RowKey":"all","S":"text","I":42,
            "L":"9223372036854775807","L@odata.type":"Edm.Int64","D":1.5,
            "DI":2.0,"DI@odata.type":"Edm.Double","B":true,
            "G":"c9da6455-213d-42c9-9a79-3e9149a57833","G@odata.type":"Edm.Guid",
            "T":"2024-05-01T10:20:30.1234567Z","T@odata.type":"Edm.DateTime",
            "X":"AQID/w==","X@odata.type":"Edm.Binary",
            "N":"NaN","N@odata.type":"Edm.Double","Inf":"-Infinity","Inf@odata.type":"Edm.Double"}"#;
        let entity = entity_from_json_str(text).unwrap();
        assert_eq!(entity.get("I"), Some(&Value::Int32(42)));
        assert_eq!(entity.get("L"), Some(&Value::Int64(i64::MAX)));
        assert_eq!(entity.get("DI"), Some(&Value::Double(2.0)));
        assert_eq!(entity.get("X"), Some(&Value::Binary(vec![1, 2, 3, 255])));
        assert!(matches!(entity.get("N"), Some(Value::Double(d)) if d.is_nan()));
        let written = entity_to_json(&entity, None);
        let back = entity_from_json(&written).unwrap();
        for (name, value) in &entity.properties {
            assert!(back.get(name).unwrap().same_as(value), "{name}");
        }
        assert_eq!(written["L"], json!("9223372036854775807"));
        assert_eq!(written["DI@odata.type"], json!("Edm.Double"));
        assert_eq!(written["DI"].to_string(), "2.0");
        assert_eq!(written["T"], json!("2024-05-01T10:20:30.1234567Z"));
        assert!(written.get("D@odata.type").is_none());
        assert!(written.get("I@odata.type").is_none());
    }

    #[test]
    fn annotated_strings_are_converted_as_the_service_converts_them() {
        let e = entity_from_json(&json!({"PartitionKey":"p","RowKey":"r",
            "B":"false","B@odata.type":"Edm.Boolean",
            "U":"TRUE","U@odata.type":"Edm.Boolean",
            "I":"-32","I@odata.type":"Edm.Int32",
            "D":"1.5","D@odata.type":"Edm.Double"}))
        .unwrap();
        assert_eq!(e.get("B"), Some(&Value::Boolean(false)));
        assert_eq!(e.get("U"), Some(&Value::Boolean(true)));
        assert_eq!(e.get("I"), Some(&Value::Int32(-32)));
        assert_eq!(e.get("D"), Some(&Value::Double(1.5)));
        for (value, edm) in [
            ("yes", "Edm.Boolean"),
            ("1", "Edm.Boolean"),
            ("3.5", "Edm.Int32"),
            ("2147483648", "Edm.Int32"),
            ("", "Edm.Int32"),
            ("1.797693134862316e308", "Edm.Double"),
        ] {
            let body = json!({"PartitionKey":"p","RowKey":"r","V":value,"V@odata.type":edm});
            let err = entity_from_json(&body).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidValueType, "{value} as {edm}");
        }
        // The largest finite double still parses.
        let max = json!({"PartitionKey":"p","RowKey":"r",
            "V":"1.797693134862315e308","V@odata.type":"Edm.Double"});
        assert!(entity_from_json(&max).is_ok());
    }

    #[test]
    fn an_integral_double_is_never_read_back_as_int32() {
        let written = entity_to_json(&Entity::new("p", "r").with("D", 2.0), None);
        let back = entity_from_json(&written).unwrap();
        assert_eq!(back.get("D"), Some(&Value::Double(2.0)));
    }

    #[test]
    fn null_means_no_value() {
        let e = entity_from_json(&json!({"PartitionKey":"p","RowKey":"r","A":null})).unwrap();
        assert!(e.properties.is_empty());
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let cases = [
            (json!([1]), ErrorCode::InvalidInput),
            (json!({"RowKey":"r"}), ErrorCode::PropertiesNeedValue),
            (
                json!({"PartitionKey":1,"RowKey":"r"}),
                ErrorCode::InvalidInput,
            ),
            (
                json!({"PartitionKey":"p","RowKey":"r","A":{"x":1}}),
                ErrorCode::InvalidInput,
            ),
            (
                json!({"PartitionKey":"p","RowKey":"r","A":"x","A@odata.type":"Edm.Int64"}),
                ErrorCode::InvalidValueType,
            ),
            (
                json!({"PartitionKey":"p","RowKey":"r","A":"x","A@odata.type":"Edm.Nope"}),
                ErrorCode::InvalidInput,
            ),
            (
                json!({"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Int64"}),
                ErrorCode::InvalidInput,
            ),
            (
                json!({"PartitionKey":"p","RowKey":"r","A":3000000000u64}),
                ErrorCode::OutOfRangeInput,
            ),
            (
                json!({"PartitionKey":"p","RowKey":"r","A":"zz","A@odata.type":"Edm.Binary"}),
                ErrorCode::InvalidValueType,
            ),
        ];
        for (json, code) in cases {
            assert_eq!(entity_from_json(&json).unwrap_err().code, code, "{json}");
        }
        assert_eq!(
            entity_from_json_str("{").unwrap_err().code,
            ErrorCode::InvalidInput
        );
    }

    #[test]
    fn select_writes_missing_properties_as_null() {
        let e = Entity::new("p", "r").with("A", 1);
        let json = entity_to_json(&e, Some(&["A".into(), "Missing".into()]));
        assert_eq!(json, json!({"A": 1, "Missing": null}));
    }
}

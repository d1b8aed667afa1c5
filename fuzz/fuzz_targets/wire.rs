//! The shared wire codec (`table_http::wire`): every reader of untrusted bytes, and the
//! round trips that must not lose data. The first byte picks the reader; the rest is its input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use table_http::wire::{self, acl, format, multipart, properties};

fn text(data: &[u8]) -> &str {
    // Headers and URLs reach the codec as text; invalid UTF-8 is cut at the first bad byte.
    match std::str::from_utf8(data) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&data[..e.valid_up_to()]).unwrap_or_default(),
    }
}

/// An entity that was read writes back to a body that reads as the same entity.
fn entity_round_trip(entity: &table_runtime::Entity) {
    let body = wire::entity_body(entity);
    let again = wire::read_request_entity(&body)
        .unwrap_or_else(|e| panic!("{entity:?} written as {body:?} does not read back: {e}"));
    assert_eq!(
        body,
        wire::entity_body(&again),
        "{entity:?} changed on the way back"
    );
}

/// What the server writes (`format::entity_document`, at the two levels that keep types), the
/// client reads back (`read_entity`) as the same entity, with its Timestamp and ETag.
fn answer_round_trip(entity: &table_runtime::Entity) {
    let mut stored = entity.clone();
    let timestamp = table_runtime::DateTime::parse("2024-05-01T10:20:30.1234567Z").unwrap();
    stored.timestamp = Some(timestamp);
    stored.etag = Some(table_runtime::ETag::for_timestamp(timestamp));
    let place = format::Place {
        base: "http://127.0.0.1:10002/devstoreaccount1",
        account: "devstoreaccount1",
        table: "t1",
    };
    for level in [format::Metadata::Minimal, format::Metadata::Full] {
        let document = format::entity_document(&stored, None, level, &place);
        let read = wire::read_entity(&document).unwrap_or_else(|e| {
            panic!(
                "{stored:?} written as {} does not read back: {e}",
                String::from_utf8_lossy(&document)
            )
        });
        assert_eq!(
            wire::entity_body(&read),
            wire::entity_body(&stored),
            "{level:?}: {}",
            String::from_utf8_lossy(&document)
        );
        assert_eq!(read.timestamp, stored.timestamp);
        assert_eq!(read.etag, stored.etag);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    match which % 12 {
        0 => {
            if let Ok(entity) = wire::read_request_entity(rest) {
                entity_round_trip(&entity);
                answer_round_trip(&entity);
            }
            if let Ok(entity) = wire::read_request_entity_keyless(rest) {
                entity_round_trip(&entity);
            }
        }
        1 => {
            let _ = wire::read_entity(rest);
            let _ = wire::read_entity_page(rest);
        }
        2 => {
            // Content-Type on the first line, the body after it.
            let (content_type, body) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (text(&rest[..i]), &rest[i + 1..]),
                None => (text(rest), &[][..]),
            };
            let _ = multipart::boundary(content_type);
            let _ = multipart::read_batch_request(content_type, body);
        }
        3 => {
            let t = text(rest);
            let key = wire::continuation_key(t);
            // A key of any characters survives its token.
            assert_eq!(wire::continuation_key(&wire::continuation_token(&key)), key);
            assert_eq!(wire::continuation_key(&wire::continuation_token(t)), t);
        }
        4 => {
            let t = text(rest);
            if let Ok(if_match) = wire::read_if_match(t) {
                let header = wire::if_match_header(&if_match);
                assert_eq!(wire::read_if_match(&header).ok(), Some(if_match));
            }
        }
        5 => {
            let t = text(rest);
            let _ = wire::parse_entity_segment(t);
            // Any keys survive a path: split the text into a table name and two keys.
            let mut pieces = t.splitn(3, '\u{0}');
            let (table, pk, rk) = (
                pieces.next().unwrap_or(""),
                pieces.next().unwrap_or(""),
                pieces.next().unwrap_or(""),
            );
            if !table.contains('(') {
                for path in [
                    wire::entity_path(table, pk, rk),
                    wire::entity_link(table, pk, rk),
                ] {
                    let decoded = percent_encoding::percent_decode_str(&path[1..])
                        .decode_utf8()
                        .unwrap();
                    assert_eq!(
                        wire::parse_entity_segment(&decoded),
                        Some((table.to_owned(), pk.to_owned(), rk.to_owned())),
                        "{path}"
                    );
                }
            }
        }
        6 => {
            if let Ok(policies) = acl::read_acl(rest) {
                let written = acl::write_acl(&policies);
                let again = acl::read_acl(written.as_bytes())
                    .unwrap_or_else(|e| panic!("{written} does not read back: {e}"));
                assert_eq!(again.len(), policies.len());
                let twice = acl::read_acl(acl::write_acl(&again).as_bytes()).unwrap();
                assert_eq!(again, twice);
            }
        }
        7 => {
            if let Ok(props) = properties::read_properties(rest) {
                let written = properties::write_properties(&props);
                let again = properties::read_properties(written.as_bytes())
                    .unwrap_or_else(|e| panic!("{written} does not read back: {e}"));
                let twice =
                    properties::read_properties(properties::write_properties(&again).as_bytes())
                        .unwrap();
                assert_eq!(again, twice);
            }
        }
        8 => {
            let t = text(rest);
            let _ = wire::inner_responses(t);
            let ops = vec![
                table_runtime::batch::BatchOperation::Insert(table_runtime::Entity::new(
                    "p", "r",
                ));
                3
            ];
            let _ = wire::batch_results(t, &ops);
        }
        9 => {
            let (code, body) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (Some(text(&rest[..i])), &rest[i + 1..]),
                None => (None, rest),
            };
            let _ = wire::service_error(400, code, body);
        }
        10 => {
            let t = text(rest);
            let (a, b) = t.split_once('\n').unwrap_or((t, ""));
            let _ = format::Metadata::requested(Some(a), Some(b));
            let _ = format::Metadata::requested(Some(a), None);
        }
        _ => {
            let _ = table_http::xml::parse(rest);
        }
    }
});

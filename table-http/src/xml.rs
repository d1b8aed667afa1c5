//! The little XML the Queue and Blob services speak: their answers read into a small tree of
//! elements (message lists, blob listings, error bodies), and text escaped for a request body.
//!
//! The answers are small (32 messages, one page of a listing), so a tree is simpler to walk
//! than events and costs nothing that matters. Namespace prefixes are dropped: elements are
//! named by their local names.

use std::borrow::Cow;

use quick_xml::Reader;
use quick_xml::escape::resolve_xml_entity;
use quick_xml::events::{BytesStart, Event};

use crate::transport::Answer;

/// One element: its name, attributes, the text directly inside it, and its child elements.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Element {
    /// Its local name.
    pub name: String,
    /// Its attributes, as name and value.
    pub attributes: Vec<(String, String)>,
    /// The text directly inside it.
    pub text: String,
    /// Its child elements.
    pub children: Vec<Element>,
}

impl Element {
    /// The first child element named `name`.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    /// Every child element named `name`, in document order.
    pub fn children<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The text of the first child element named `name`.
    pub fn child_text(&self, name: &str) -> Option<&str> {
        self.child(name).map(|c| c.text.as_str())
    }

    /// The value of the attribute named `name`.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The deepest nesting of elements read. The services' documents nest a handful deep; a tree
/// much deeper is hostile (dropping a tree a million elements deep overflowed the stack).
pub const MAX_DEPTH: usize = 32;

fn local(name: &str) -> &str {
    name.rsplit_once(':').map_or(name, |(_, l)| l)
}

/// Reads a document into its root element.
pub fn parse(body: &[u8]) -> Result<Element, String> {
    let text = std::str::from_utf8(body).map_err(|_| "the XML is not UTF-8".to_owned())?;
    let mut reader = Reader::from_str(text);
    // The open elements, innermost last.
    let mut open: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    let fail = |reader: &Reader<&[u8]>, e: &dyn std::fmt::Display| {
        format!(
            "the XML cannot be read at byte {}: {e}",
            reader.buffer_position()
        )
    };
    loop {
        let event = reader.read_event().map_err(|e| fail(&reader, &e))?;
        match event {
            Event::Start(start) => {
                if open.len() >= MAX_DEPTH {
                    return Err(format!(
                        "the XML nests elements deeper than {MAX_DEPTH} levels, at byte {}",
                        reader.buffer_position()
                    ));
                }
                open.push(element_of(&start).map_err(|e| fail(&reader, &e))?);
            }
            Event::Empty(start) => {
                let element = element_of(&start).map_err(|e| fail(&reader, &e))?;
                close(&mut open, &mut root, element)?;
            }
            Event::End(_) => {
                let element = open
                    .pop()
                    .ok_or("the XML closes an element it never opened")?;
                close(&mut open, &mut root, element)?;
            }
            Event::Text(t) => {
                if let Some(current) = open.last_mut() {
                    current.text.push_str(&t.xml10_content());
                }
            }
            Event::CData(t) => {
                if let Some(current) = open.last_mut() {
                    current.text.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref().map_err(|e| fail(&reader, &e))? {
                    Some(c) => c.to_string(),
                    None => resolve_xml_entity(&r)
                        .ok_or_else(|| format!("the XML uses the unknown entity `&{};`", &*r))?
                        .to_owned(),
                };
                if let Some(current) = open.last_mut() {
                    current.text.push_str(&resolved);
                }
            }
            Event::Eof => break,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
    if !open.is_empty() {
        return Err("the XML ends inside an element".into());
    }
    root.ok_or_else(|| "the XML has no element".into())
}

/// A new element with the name and attributes of a start tag.
fn element_of(start: &BytesStart<'_>) -> Result<Element, quick_xml::Error> {
    let mut element = Element {
        name: local(start.name().into_inner()).to_owned(),
        ..Element::default()
    };
    for attribute in start.attributes() {
        let attribute = attribute?;
        let value = attribute.normalized_value(quick_xml::XmlVersion::default())?;
        element.attributes.push((
            local(attribute.key.into_inner()).to_owned(),
            value.into_owned(),
        ));
    }
    Ok(element)
}

/// Adds a finished element to its parent, or makes it the root.
fn close(open: &mut [Element], root: &mut Option<Element>, element: Element) -> Result<(), String> {
    match open.last_mut() {
        Some(parent) => parent.children.push(element),
        None if root.is_none() => *root = Some(element),
        None => return Err("the XML has more than one root element".into()),
    }
    Ok(())
}

/// The `Code` and the first line of the `Message` of an error body
/// (`<Error><Code>…</Code><Message>…</Message></Error>`), where the body has them.
pub(crate) fn error_body(body: &[u8]) -> (Option<String>, Option<String>) {
    let Ok(root) = parse(body) else {
        return (None, None);
    };
    let code = root
        .child_text("Code")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_owned);
    // The service adds `RequestId:…` and `Time:…` lines to the message; the first line says it.
    let message = root
        .child_text("Message")
        .and_then(|m| m.lines().map(str::trim).find(|l| !l.is_empty()))
        .map(str::to_owned);
    (code, message)
}

/// The error in an answer of the Blob or Queue service: its code (the `x-ms-error-code`
/// header, the only place a HEAD answer has it, else the body's `<Code>`; empty when neither
/// says) and the first line of the body's `<Message>`, if any.
pub(crate) fn error_of(answer: &Answer) -> (String, Option<String>) {
    let (body_code, message) = error_body(&answer.body);
    let code = answer
        .header("x-ms-error-code")
        .map(str::to_owned)
        .or(body_code)
        .unwrap_or_default();
    (code, message)
}

/// `text` with `&`, `<` and `>` escaped, for the content of an element.
pub fn escape(text: &str) -> Cow<'_, str> {
    quick_xml::escape::partial_escape(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_read_into_trees() {
        let body = br#"<?xml version="1.0" encoding="utf-8"?>
<EnumerationResults ServiceEndpoint="http://x/" ContainerName="c">
  <Prefix/>
  <Blobs>
    <Blob><Name>a &amp; b&#x20;&lt;c&gt;</Name><Properties><Etag>0x1</Etag></Properties></Blob>
    <Blob><Name Encoded="false"><![CDATA[d<e]]></Name></Blob>
  </Blobs>
  <NextMarker>m2</NextMarker>
</EnumerationResults>"#;
        let root = parse(body).unwrap();
        assert_eq!(root.name, "EnumerationResults");
        assert_eq!(root.attribute("ContainerName"), Some("c"));
        assert_eq!(root.child_text("Prefix"), Some(""));
        let blobs: Vec<&Element> = root.child("Blobs").unwrap().children("Blob").collect();
        assert_eq!(blobs.len(), 2);
        assert_eq!(blobs[0].child_text("Name"), Some("a & b <c>"));
        assert_eq!(
            blobs[0].child("Properties").unwrap().child_text("Etag"),
            Some("0x1")
        );
        assert_eq!(blobs[1].child_text("Name"), Some("d<e"));
        assert_eq!(
            blobs[1].child("Name").unwrap().attribute("Encoded"),
            Some("false")
        );
        assert_eq!(root.child_text("NextMarker"), Some("m2"));
        assert_eq!(root.child_text("Missing"), None);
    }

    #[test]
    fn broken_documents_are_errors() {
        assert!(parse(b"").is_err());
        assert!(parse(b"<a><b></a>").is_err());
        assert!(parse(b"<a></a><b/>").is_err());
        assert!(parse(b"<a>&bogus;</a>").is_err());
        assert!(parse(&[0xff, 0xfe]).is_err());
    }

    /// A document nested a million deep (the fuzzer's `wire` target, a Set Table ACL body of
    /// `<a>` × 500,000 then `</a>` × 500,000) overflowed the stack when its tree was dropped.
    #[test]
    fn deep_nesting_is_an_error() {
        let n = 500_000;
        let deep = format!("{}{}", "<a>".repeat(n), "</a>".repeat(n));
        let e = parse(deep.as_bytes()).unwrap_err();
        assert!(e.contains("deeper than 32"), "{e}");
        assert!(parse("<a>".repeat(n).as_bytes()).is_err());
        let ok = format!("{}{}", "<a>".repeat(MAX_DEPTH), "</a>".repeat(MAX_DEPTH));
        assert!(parse(ok.as_bytes()).is_ok());
        let over = format!(
            "{}{}",
            "<a>".repeat(MAX_DEPTH + 1),
            "</a>".repeat(MAX_DEPTH + 1)
        );
        assert!(parse(over.as_bytes()).is_err());
    }

    #[test]
    fn error_bodies() {
        let body = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>\n  <Code>QueueNotFound</Code>\n  \
                     <Message>The specified queue does not exist.\nRequestId:1\nTime:2024</Message>\n</Error>";
        assert_eq!(
            error_body(body),
            (
                Some("QueueNotFound".into()),
                Some("The specified queue does not exist.".into())
            )
        );
        assert_eq!(error_body(b"not xml"), (None, None));
        assert_eq!(error_body(b"<Error/>"), (None, None));
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b>&c\"d'"), "a&lt;b&gt;&amp;c\"d'");
        assert!(matches!(escape("plain"), Cow::Borrowed("plain")));
    }
}

//! The service's side of `$batch`: reading a multipart request into its HTTP requests, and
//! writing the multipart answer. The client's side (writing the request, reading the answer) is
//! in [`super`]; the tests run one against the other.
//!
//! A request is one `multipart/mixed` body holding one changeset (itself `multipart/mixed`)
//! whose parts are `application/http` requests, each a request line, headers, a blank line and
//! a body. The answer mirrors it: a `batchresponse` holding a `changesetresponse` with one HTTP
//! answer per operation, or, when one fails, that one answer alone, its error message led by
//! the failing operation's 0-based index (`1:The specified entity already exists.`).

use std::fmt::Write as _;

use table_runtime::{ErrorCode, StoreError};

fn malformed(message: impl Into<String>) -> StoreError {
    StoreError::new(ErrorCode::InvalidInput, message)
}

/// The `boundary` parameter of a `multipart/mixed` content type.
pub fn boundary(content_type: &str) -> Option<&str> {
    let (kind, params) = content_type.split_once(';')?;
    if !kind.trim().eq_ignore_ascii_case("multipart/mixed") {
        return None;
    }
    params.split(';').find_map(|p| {
        let (name, value) = p.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("boundary")
            .then(|| value.trim().trim_matches('"'))
            .filter(|b| !b.is_empty())
    })
}

/// The parts of a multipart body, each without its delimiter line and without the line end
/// before the next delimiter. Text before the first delimiter and after the closing one is
/// ignored, as MIME says.
fn parts<'a>(body: &'a [u8], boundary: &str) -> Result<Vec<&'a [u8]>, StoreError> {
    let delimiter = format!("--{boundary}");
    let delimiter = delimiter.as_bytes();
    // Every delimiter at the start of a line, found by one searcher built once for the body.
    let starts: Vec<usize> = memchr::memmem::find_iter(body, delimiter)
        .filter(|&position| position == 0 || body[position - 1] == b'\n')
        .collect();
    let mut parts = Vec::new();
    for (i, &start) in starts.iter().enumerate() {
        let after = start + delimiter.len();
        if body[after..].starts_with(b"--") {
            return Ok(parts);
        }
        let content_start = after
            + line_end_len(&body[after..]).ok_or_else(|| {
                malformed("a multipart delimiter line does not end where it should")
            })?;
        let Some(&next) = starts.get(i + 1) else {
            break;
        };
        let mut end = next;
        // The line end before a delimiter belongs to the delimiter.
        if end > content_start && body[end - 1] == b'\n' {
            end -= 1;
            if end > content_start && body[end - 1] == b'\r' {
                end -= 1;
            }
        }
        parts.push(&body[content_start..end.max(content_start)]);
    }
    Err(malformed(format!(
        "the multipart body has no closing delimiter `--{boundary}--`"
    )))
}

/// The length of the line end that `text` starts with, after optional spaces: `\r\n` or `\n`.
fn line_end_len(text: &[u8]) -> Option<usize> {
    let spaces = text
        .iter()
        .take_while(|b| **b == b' ' || **b == b'\t')
        .count();
    let rest = &text[spaces..];
    if rest.starts_with(b"\r\n") {
        Some(spaces + 2)
    } else if rest.starts_with(b"\n") {
        Some(spaces + 1)
    } else {
        None
    }
}

/// Where the header block of `part` ends: at its first empty line, given as the end of the
/// headers and the start of what follows that line. Lines end with `\r\n` or `\n` alone.
fn blank_line(part: &[u8]) -> Option<(usize, usize)> {
    memchr::memchr_iter(b'\n', part).find_map(|i| {
        let rest = &part[i + 1..];
        if rest.starts_with(b"\n") {
            Some((i, i + 2))
        } else if rest.starts_with(b"\r\n") {
            Some((i, i + 3))
        } else {
            None
        }
    })
}

/// Header lines as name and value, borrowed from the body.
type Headers<'a> = Vec<(&'a str, &'a str)>;

/// Splits `part` into its header lines and its body at the first blank line.
fn headers_and_body(part: &[u8]) -> Result<(Headers<'_>, &[u8]), StoreError> {
    let (head, body) = match blank_line(part) {
        Some((end, start)) => (&part[..end], &part[start..]),
        None => (part, &part[part.len()..]),
    };
    let head = std::str::from_utf8(head)
        .map_err(|_| malformed("the headers of a $batch part are not UTF-8"))?;
    let mut headers = Vec::with_capacity(8);
    // Lines found as bytes (a line feed and a colon are ASCII, so every cut is a character
    // boundary of the checked text); space and tab around names and values are not theirs.
    let mut start = 0;
    while start < head.len() {
        let end =
            memchr::memchr(b'\n', &head.as_bytes()[start..]).map_or(head.len(), |i| start + i);
        let line = head[start..end].trim_end_matches('\r');
        start = end + 1;
        if line.is_empty() {
            continue;
        }
        let Some(colon) = memchr::memchr(b':', line.as_bytes()) else {
            return Err(malformed(format!("`{line}` is not a header line")));
        };
        headers.push((line[..colon].trim_ascii(), line[colon + 1..].trim_ascii()));
    }
    Ok((headers, body))
}

fn header<'h>(headers: &[(&'h str, &'h str)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| *v)
}

/// One operation of a `$batch` request, borrowed from the request's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchPart<'a> {
    /// `POST`, `PUT`, `MERGE`, `PATCH`, `DELETE` or `GET`.
    pub method: String,
    /// The URL as written on the request line (usually absolute).
    pub url: &'a str,
    /// The operation's own headers (`Content-Type`, `If-Match`, `Prefer`, …).
    pub headers: Vec<(&'a str, &'a str)>,
    /// The `Content-ID` given in the part's MIME headers or its own headers.
    pub content_id: Option<&'a str>,
    /// The operation's body.
    pub body: &'a [u8],
}

impl<'a> BatchPart<'a> {
    /// One of the operation's headers, by name in any case.
    pub fn header(&self, name: &str) -> Option<&'a str> {
        header(&self.headers, name)
    }
}

/// What a `$batch` request holds: one changeset of writes, or one query on its own (the
/// service takes a query in a batch only alone, outside any changeset).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchRequest<'a> {
    /// The changeset's operations, in order.
    Changeset(Vec<BatchPart<'a>>),
    /// A lone `GET`.
    Query(BatchPart<'a>),
}

/// Reads a `$batch` request body, given the request's `Content-Type`. A body that is not one
/// changeset of HTTP requests, nor one lone query, is refused with `InvalidInput`, saying what
/// is wrong.
pub fn read_batch_request<'a>(
    content_type: &str,
    body: &'a [u8],
) -> Result<BatchRequest<'a>, StoreError> {
    let outer = boundary(content_type).ok_or_else(|| {
        malformed(format!(
            "a $batch request needs Content-Type multipart/mixed with a boundary, not `{content_type}`"
        ))
    })?;
    let batch_parts = parts(body, outer)?;
    let [changeset] = batch_parts.as_slice() else {
        return Err(malformed(format!(
            "a $batch request holds exactly one changeset, or one query; this one has {} parts",
            batch_parts.len()
        )));
    };
    let (headers, inner) = headers_and_body(changeset)?;
    let inner_type = header(&headers, "Content-Type").unwrap_or_default();
    if inner_type
        .trim()
        .to_ascii_lowercase()
        .starts_with("application/http")
    {
        let query = operation(&headers, inner)?;
        if query.method != "GET" {
            return Err(malformed(format!(
                "only a query (GET) may stand outside a changeset, not `{} {}`",
                query.method, query.url
            )));
        }
        return Ok(BatchRequest::Query(query));
    }
    let inner_boundary = boundary(inner_type).ok_or_else(|| {
        malformed(format!(
            "the changeset needs Content-Type multipart/mixed with a boundary, not `{inner_type}`"
        ))
    })?;
    let mut operations = Vec::new();
    for part in parts(inner, inner_boundary)? {
        let (mime, http) = headers_and_body(part)?;
        operations.push(operation(&mime, http)?);
    }
    Ok(BatchRequest::Changeset(operations))
}

/// One `application/http` part: its MIME headers and the HTTP request inside.
fn operation<'a>(mime: &[(&'a str, &'a str)], http: &'a [u8]) -> Result<BatchPart<'a>, StoreError> {
    let line_end = memchr::memchr(b'\n', http).unwrap_or(http.len());
    let request_line = std::str::from_utf8(&http[..line_end])
        .map_err(|_| malformed("a $batch request line is not UTF-8"))?
        .trim();
    let mut words = request_line.split_ascii_whitespace();
    let (Some(method), Some(url), Some(version), None) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(malformed(format!(
            "`{request_line}` is not an HTTP request line"
        )));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(malformed(format!(
            "`{request_line}` is not an HTTP/1.1 request line"
        )));
    }
    let rest = &http[(line_end + 1).min(http.len())..];
    let (headers, body) = headers_and_body(rest)?;
    let content_id = header(mime, "Content-ID").or_else(|| header(&headers, "Content-ID"));
    Ok(BatchPart {
        method: method.to_ascii_uppercase(),
        url,
        headers,
        content_id,
        body,
    })
}

/// One HTTP answer inside a `$batch` answer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BatchAnswer {
    /// Its status.
    pub status: u16,
    /// Its headers (`ETag`, `Location`, `Content-ID`, `Content-Type`, …).
    pub headers: Vec<(String, String)>,
    /// Its body, if any.
    pub body: Vec<u8>,
}

/// The reason phrase of a status, for status lines.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        411 => "Length Required",
        412 => "Precondition Failed",
        413 => "Request Entity Too Large",
        415 => "Unsupported Media Type",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

/// Writes a `$batch` answer holding `answers` in one changeset; returns its `Content-Type` and
/// body. `id` makes the boundaries unique.
pub fn write_batch_answer(answers: &[BatchAnswer], id: &str) -> (String, Vec<u8>) {
    let batch = format!("batchresponse_{id}");
    let changeset = format!("changesetresponse_{id}");
    let mut out = Vec::with_capacity(256 + answers.len() * 384);
    let mut text = String::new();
    let _ = write!(
        text,
        "--{batch}\r\nContent-Type: multipart/mixed; boundary={changeset}\r\n\r\n"
    );
    out.extend_from_slice(text.as_bytes());
    for answer in answers {
        out.extend_from_slice(b"--");
        out.extend_from_slice(changeset.as_bytes());
        out.extend_from_slice(b"\r\n");
        write_part(&mut out, answer);
    }
    text.clear();
    let _ = write!(text, "--{changeset}--\r\n--{batch}--\r\n");
    out.extend_from_slice(text.as_bytes());
    (format!("multipart/mixed; boundary={batch}"), out)
}

fn write_part(out: &mut Vec<u8>, answer: &BatchAnswer) {
    out.extend_from_slice(
        b"Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 ",
    );
    out.extend_from_slice(answer.status.to_string().as_bytes());
    out.push(b' ');
    out.extend_from_slice(reason(answer.status).as_bytes());
    out.extend_from_slice(b"\r\n");
    for (name, value) in &answer.headers {
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(&answer.body);
    out.extend_from_slice(b"\r\n");
}

/// Writes the answer to a query sent alone in a `$batch`: one `application/http` part, outside
/// any changeset. Returns the `Content-Type` (with its boundary) and the body.
pub fn write_query_answer(answer: &BatchAnswer, id: &str) -> (String, Vec<u8>) {
    let batch = format!("batchresponse_{id}");
    let mut out = format!("--{batch}\r\n").into_bytes();
    write_part(&mut out, answer);
    out.extend_from_slice(format!("--{batch}--\r\n").as_bytes());
    (format!("multipart/mixed; boundary={batch}"), out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body that must be one changeset: its operations.
    fn read_batch<'a>(
        content_type: &str,
        body: &'a [u8],
    ) -> Result<Vec<BatchPart<'a>>, StoreError> {
        match read_batch_request(content_type, body)? {
            BatchRequest::Changeset(operations) => Ok(operations),
            BatchRequest::Query(q) => Err(malformed(format!("a lone query: {}", q.url))),
        }
    }
    use table_runtime::batch::BatchOperation;
    use table_runtime::{ETag, Entity, IfMatch};

    fn ops() -> Vec<BatchOperation> {
        vec![
            BatchOperation::Insert(Entity::new("p", "1").with("A", "é")),
            BatchOperation::Replace(
                Entity::new("p", "2"),
                IfMatch::ETag(ETag::from_raw("W/\"x\"")),
            ),
            BatchOperation::Delete {
                partition_key: "p".into(),
                row_key: "3".into(),
                if_match: IfMatch::Any,
            },
        ]
    }

    /// The server reads what the client writes.
    #[test]
    fn requests_written_by_the_client_are_read() {
        let written = super::super::batch_body(
            &ops(),
            "http://h/acct/t",
            |pk, rk| format!("http://h/acct{}", super::super::entity_path("t", pk, rk)),
            7,
        );
        let parts = read_batch(&written.content_type, &written.body).unwrap();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[0].method, "POST");
        assert_eq!(parts[0].url, "http://h/acct/t");
        let entity = super::super::read_entity(parts[0].body).unwrap();
        assert_eq!(
            entity.get("A"),
            Some(&table_runtime::Value::String("é".into()))
        );
        assert_eq!(parts[1].method, "PUT");
        assert_eq!(parts[1].header("if-match"), Some("W/\"x\""));
        assert_eq!(parts[2].method, "DELETE");
        assert!(parts[2].body.is_empty());
    }

    /// The client reads what the server writes: ETags on success, the failing index on failure.
    #[test]
    fn answers_written_by_the_server_are_read() {
        let etag = "W/\"datetime'2024-05-01T10%3A20%3A30.1234567Z'\"";
        let ok: Vec<BatchAnswer> = (0..3)
            .map(|i| BatchAnswer {
                status: 204,
                headers: if i < 2 {
                    vec![("ETag".into(), etag.into())]
                } else {
                    vec![]
                },
                body: vec![],
            })
            .collect();
        let (content_type, body) = write_batch_answer(&ok, "abc");
        assert_eq!(content_type, "multipart/mixed; boundary=batchresponse_abc");
        let etags =
            super::super::batch_results(std::str::from_utf8(&body).unwrap(), &ops()).unwrap();
        assert_eq!(etags[0], Some(ETag::from_raw(etag)));
        assert_eq!(etags[2], None);

        let error = crate::wire::format::error_document(
            "EntityAlreadyExists",
            Some(1),
            "The specified entity already exists.",
            "r",
            "t",
        );
        let failed = [BatchAnswer {
            status: 409,
            headers: vec![("Content-ID".into(), "2".into())],
            body: error,
        }];
        let (_, body) = write_batch_answer(&failed, "abc");
        let e =
            super::super::batch_results(std::str::from_utf8(&body).unwrap(), &ops()).unwrap_err();
        assert_eq!(e.code, ErrorCode::EntityAlreadyExists);
        assert_eq!(e.failed_index, Some(1));
    }

    #[test]
    fn malformed_bodies_are_refused_with_reasons() {
        let ct = "multipart/mixed; boundary=b";
        for (content_type, body, says) in [
            ("application/json", "", "multipart/mixed"),
            (
                ct,
                "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--\r\n",
                "changeset",
            ),
            (
                ct,
                "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\n\r\nGET\r\n--c--\r\n--b--",
                "request line",
            ),
            (
                ct,
                "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\n",
                "closing delimiter",
            ),
            (ct, "--b--\r\n", "exactly one changeset"),
        ] {
            let e = read_batch(content_type, body.as_bytes()).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidInput);
            assert!(e.message.contains(says), "{body:?}: {}", e.message);
        }
    }

    #[test]
    fn the_first_empty_line_ends_the_headers() {
        // Headers ended by line feeds alone, and a body holding `\r\n\r\n`: the body starts
        // after the first empty line, wherever a later one is.
        let body = "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\n\nPOST http://h/a/t HTTP/1.1\nContent-Type: application/json\n\n{\"a\":\"x\r\n\r\ny\"}\r\n--c--\r\n--b--";
        let parts = read_batch("multipart/mixed; boundary=b", body.as_bytes()).unwrap();
        assert_eq!(parts[0].header("Content-Type"), Some("application/json"));
        assert_eq!(parts[0].body, b"{\"a\":\"x\r\n\r\ny\"}");
        // An empty line more before the body (as @azure/data-tables writes its parts) is the
        // body's, and JSON readers skip it.
        let body = "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\n\r\nPOST http://h/a/t HTTP/1.1\r\nPrefer: return-no-content\r\n\r\n\r\n{}\r\n--c--\r\n--b--";
        let parts = read_batch("multipart/mixed; boundary=b", body.as_bytes()).unwrap();
        assert_eq!(parts[0].header("Prefer"), Some("return-no-content"));
        assert_eq!(parts[0].body, b"\r\n{}");
    }

    #[test]
    fn line_feeds_alone_are_accepted() {
        let body = "--b\nContent-Type: multipart/mixed; boundary=c\n\n--c\nContent-Type: application/http\n\nDELETE http://h/a/t(PartitionKey='p',RowKey='r') HTTP/1.1\nIf-Match: *\n\n\n--c--\n--b--\n";
        let parts = read_batch("multipart/mixed; boundary=\"b\"", body.as_bytes()).unwrap();
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].header("If-Match"), Some("*"));
    }
}

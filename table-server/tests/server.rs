//! table-server end to end: the project's own HTTP client (`table-http`) and raw HTTP requests
//! against a server started in the test, in memory and on disk.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use table_http::HttpBackend;
use table_http::auth::{authorization, canonicalized_resource, http_date, string_to_sign};
use table_http::connection::{AccountKey, DEV_ACCOUNT, DEV_ACCOUNT_KEY};
use table_http::sas::{TablePermissions, TableSas};
use table_runtime::batch::BatchOperation;
use table_runtime::{Backend, Entity, ErrorCode, IfMatch, Query, Value};
use table_server::{Config, Server, Storage};

fn start(config: Config) -> Server {
    Server::start(config).expect("the server starts").0
}

fn in_memory() -> Config {
    let mut config = Config::development();
    config.addr = "127.0.0.1:0".parse().unwrap();
    config
}

fn client(server: &Server) -> HttpBackend {
    HttpBackend::from_connection_string(&server.connection_string()).unwrap()
}

fn key() -> AccountKey {
    AccountKey::from_base64(DEV_ACCOUNT_KEY).unwrap()
}

/// A raw answer.
struct Raw {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    fn error_code(&self) -> String {
        self.json()["odata.error"]["code"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }
}

/// Sends one request over a fresh connection; `sign` adds a SharedKey signature.
fn raw(
    server: &Server,
    method: &str,
    path_and_query: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    sign: bool,
) -> Raw {
    let request = request_bytes(server, method, path_and_query, headers, body, sign);
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream.write_all(&request).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    parse_answer(&answer)
}

/// The bytes of one request (`Connection: close`), signed with SharedKey when `sign`.
fn request_bytes(
    server: &Server,
    method: &str,
    path_and_query: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    sign: bool,
) -> Vec<u8> {
    let date = http_date(time::OffsetDateTime::now_utc());
    let path = path_and_query.split('?').next().unwrap();
    let content_type = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-type"))
        .map_or("", |(_, v)| *v);
    let comp = path_and_query
        .split_once("comp=")
        .map(|(_, c)| c.split('&').next().unwrap());
    let mut request = format!(
        "{method} {path_and_query} HTTP/1.1\r\nHost: {}\r\nx-ms-date: {date}\r\nContent-Length: {}\r\nConnection: close\r\n",
        server.addr(),
        body.len()
    );
    if !headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("x-ms-version"))
    {
        request.push_str("x-ms-version: 2019-02-02\r\n");
    }
    if sign {
        let text = string_to_sign(
            method,
            "",
            content_type,
            &date,
            &canonicalized_resource(DEV_ACCOUNT, path, comp),
        );
        request.push_str(&format!(
            "Authorization: {}\r\n",
            authorization(DEV_ACCOUNT, &key(), &text)
        ));
    }
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    let mut bytes = request.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// Reads an answer's status line, headers and body.
fn parse_answer(answer: &[u8]) -> Raw {
    let text = String::from_utf8_lossy(answer).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    Raw {
        status,
        headers,
        body: body.to_owned(),
    }
}

fn block<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}

#[test]
fn entity_operations_through_the_client() {
    let server = start(in_memory());
    let c = client(&server);
    block(c.create_table("Orders")).unwrap();
    assert_eq!(
        block(c.create_table("orders")).unwrap_err().code,
        ErrorCode::TableAlreadyExists
    );
    let first = block(c.write(
        "Orders",
        BatchOperation::Insert(Entity::new("c1", "o1").with("Total", 12.5).with("N", 7i64)),
    ))
    .unwrap();
    let read = block(c.get("Orders", "c1", "o1", None)).unwrap();
    assert_eq!(read.get("N"), Some(&table_runtime::Value::Int64(7)));
    assert_eq!(read.etag.as_ref(), Some(&first.etag));
    // A stale ETag is refused; the current one works.
    block(c.write(
        "Orders",
        BatchOperation::Merge(
            Entity::new("c1", "o1").with("Paid", true),
            IfMatch::ETag(first.etag.clone()),
        ),
    ))
    .unwrap();
    let stale = block(c.write(
        "Orders",
        BatchOperation::Replace(Entity::new("c1", "o1"), IfMatch::ETag(first.etag.clone())),
    ))
    .unwrap_err();
    assert_eq!(
        (stale.status, stale.code),
        (412, ErrorCode::UpdateConditionNotSatisfied)
    );
    let merged = block(c.get("Orders", "c1", "o1", Some(&["Paid"]))).unwrap();
    assert_eq!(
        merged.get("Paid"),
        Some(&table_runtime::Value::Boolean(true))
    );
    assert!(merged.get("Total").is_none());
    let missing = block(c.get("Orders", "c1", "nope", None)).unwrap_err();
    assert_eq!(
        (missing.status, missing.code),
        (404, ErrorCode::ResourceNotFound)
    );
    block(c.write(
        "Orders",
        BatchOperation::Delete {
            partition_key: "c1".into(),
            row_key: "o1".into(),
            if_match: IfMatch::Any,
        },
    ))
    .unwrap();
    assert!(block(c.get("Orders", "c1", "o1", None)).is_err());
    let missing_table = block(c.get("Nope", "a", "b", None)).unwrap_err();
    assert_eq!(missing_table.code, ErrorCode::TableNotFound);
}

#[test]
fn queries_page_across_pages_and_batches_are_atomic() {
    let server = start(in_memory());
    let c = client(&server);
    block(c.create_table("Readings")).unwrap();
    for chunk in 0..25 {
        let ops = (0..100)
            .map(|i| {
                BatchOperation::Insert(
                    Entity::new("dev 'é'", format!("{:05}", chunk * 100 + i)).with("V", i),
                )
            })
            .collect();
        block(c.execute_batch("Readings", ops)).unwrap();
    }
    let mut query = Query::filter("PartitionKey eq 'dev ''é''' and V lt 50").unwrap();
    let mut seen = 0;
    let mut pages = 0;
    loop {
        let page = block(c.query_page("Readings", &query)).unwrap();
        seen += page.entities.len();
        pages += 1;
        match page.continuation {
            Some(next) => query.continuation = Some(next),
            None => break,
        }
    }
    assert_eq!(seen, 1250);
    assert!(pages >= 2, "{pages} pages");
    // One failing operation: nothing of the batch is written, and the index is reported.
    let ops = vec![
        BatchOperation::Insert(Entity::new("p", "new")),
        BatchOperation::Insert(Entity::new("p", "new2")),
        BatchOperation::Merge(Entity::new("p", "absent"), IfMatch::Any),
    ];
    let e = block(c.execute_batch("Readings", ops)).unwrap_err();
    assert_eq!(
        (e.code, e.failed_index),
        (ErrorCode::ResourceNotFound, Some(2))
    );
    assert!(block(c.get("Readings", "p", "new", None)).is_err());
}

#[test]
fn metadata_levels_errors_and_the_front_door() {
    let server = start(in_memory());
    let c = client(&server);
    block(c.create_table("Shapes")).unwrap();
    block(c.write(
        "Shapes",
        BatchOperation::Insert(Entity::new("p", "r").with("L", 5i64).with("I", 3)),
    ))
    .unwrap();
    let path = "/devstoreaccount1/Shapes(PartitionKey='p',RowKey='r')";
    let none = raw(
        &server,
        "GET",
        path,
        &[("Accept", "application/json;odata=nometadata")],
        b"",
        true,
    );
    assert_eq!(none.status, 200);
    assert!(!none.body.contains("odata"), "{}", none.body);
    let minimal = raw(
        &server,
        "GET",
        path,
        &[("Accept", "application/json;odata=minimalmetadata")],
        b"",
        true,
    );
    let json = minimal.json();
    assert_eq!(json["L@odata.type"], "Edm.Int64");
    assert!(json.get("I@odata.type").is_none());
    assert!(
        json["odata.metadata"]
            .as_str()
            .unwrap()
            .ends_with("$metadata#Shapes/@Element")
    );
    assert!(minimal.header("etag").unwrap().starts_with("W/\"datetime'"));
    let full = raw(
        &server,
        "GET",
        path,
        &[("Accept", "application/json;odata=fullmetadata")],
        b"",
        true,
    );
    let json = full.json();
    assert_eq!(json["odata.type"], "devstoreaccount1.Shapes");
    assert_eq!(json["L@odata.type"], "Edm.Int64");
    assert_eq!(json["Timestamp@odata.type"], "Edm.DateTime");
    assert!(json.get("I@odata.type").is_none());
    assert_eq!(
        json["odata.editLink"],
        "Shapes(PartitionKey='p',RowKey='r')"
    );

    // Errors carry the service's body and header.
    let missing = raw(&server, "GET", "/devstoreaccount1/Nope()", &[], b"", true);
    assert_eq!(missing.status, 404);
    assert_eq!(missing.error_code(), "TableNotFound");
    assert_eq!(missing.header("x-ms-error-code"), Some("TableNotFound"));
    assert!(missing.header("x-ms-request-id").is_some());

    // Anonymous and wrongly signed requests are refused.
    let anonymous = raw(&server, "GET", "/devstoreaccount1/Tables", &[], b"", false);
    assert_eq!(
        (anonymous.status, anonymous.error_code().as_str()),
        (403, "AuthenticationFailed")
    );
    let forged = raw(
        &server,
        "GET",
        "/devstoreaccount1/Tables",
        &[("Authorization", "SharedKey devstoreaccount1:AAAA")],
        b"",
        false,
    );
    assert_eq!(forged.status, 403);

    // Strict bodies: an Int64 as a JSON number, a property given twice, not JSON at all.
    let json_type = [("Content-Type", "application/json")];
    for (body, code) in [
        (
            r#"{"PartitionKey":"p","RowKey":"x","L":5,"L@odata.type":"Edm.Int64"}"#,
            "InvalidValueType",
        ),
        (
            r#"{"PartitionKey":"p","RowKey":"x","A":1,"A":2}"#,
            "InvalidInput",
        ),
        (
            r#"{"PartitionKey":"p","RowKey":"x","T":"yesterday","T@odata.type":"Edm.DateTime"}"#,
            "InvalidInput",
        ),
        ("{not json", "InvalidInput"),
        (
            r#"{"PartitionKey":"p","RowKey":"x","B":99999999999999999999}"#,
            "OutOfRangeInput",
        ),
    ] {
        let answer = raw(
            &server,
            "POST",
            "/devstoreaccount1/Shapes",
            &json_type,
            body.as_bytes(),
            true,
        );
        assert_eq!(answer.status, 400, "{body}: {}", answer.body);
        assert_eq!(answer.error_code(), code, "{body}: {}", answer.body);
    }
    // Bad URLs, versions, batches and sizes get the service's answers, not a crash. A path
    // deeper than the service's names no resource; one that starts with a table name has the
    // table looked up first (`a` is too short to be one).
    let bad_url = raw(
        &server,
        "GET",
        "/devstoreaccount1/Tables/b/c",
        &[],
        b"",
        true,
    );
    assert_eq!(
        (bad_url.status, bad_url.error_code().as_str()),
        (400, "InvalidUri")
    );
    let short_table = raw(&server, "GET", "/devstoreaccount1/a/b/c", &[], b"", true);
    assert_eq!(
        (short_table.status, short_table.error_code().as_str()),
        (400, "OutOfRangeInput")
    );
    let bad_version = raw(
        &server,
        "GET",
        "/devstoreaccount1/Tables",
        &[("x-ms-version", "2099-01-01")],
        b"",
        true,
    );
    assert_eq!(
        (bad_version.status, bad_version.error_code().as_str()),
        (400, "InvalidHeaderValue")
    );
    let batch = raw(
        &server,
        "POST",
        "/devstoreaccount1/$batch",
        &[("Content-Type", "multipart/mixed; boundary=b")],
        b"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\n",
        true,
    );
    assert_eq!(
        (batch.status, batch.error_code().as_str()),
        (400, "InvalidInput")
    );
    let huge = vec![b'x'; table_server::MAX_BODY + 10];
    let too_big = raw(
        &server,
        "POST",
        "/devstoreaccount1/Shapes",
        &json_type,
        &huge,
        true,
    );
    assert_eq!(
        (too_big.status, too_big.error_code().as_str()),
        (413, "RequestBodyTooLarge")
    );
    // A client that sends a whole body far over the limit before it reads (a 13 MiB `$batch`,
    // as the Python SDK's own test sends) gets the 413, not a connection closed under it.
    let batch_type = [("Content-Type", "multipart/mixed; boundary=batch_b")];
    let far_too_big = raw(
        &server,
        "POST",
        "/devstoreaccount1/$batch",
        &batch_type,
        &vec![b'x'; 13 << 20],
        true,
    );
    assert_eq!(
        (far_too_big.status, far_too_big.error_code().as_str()),
        (413, "RequestBodyTooLarge")
    );
    // The server still answers.
    assert!(block(c.get("Shapes", "p", "r", None)).is_ok());
}

#[test]
fn table_sas_key_ranges_are_enforced_by_the_server() {
    let server = start(in_memory());
    let c = client(&server);
    block(c.create_table("Scoped")).unwrap();
    for pk in ["a", "b", "c"] {
        block(c.write("Scoped", BatchOperation::Insert(Entity::new(pk, "1")))).unwrap();
    }
    let expiry = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
    let mut sas = TableSas::new("Scoped", TablePermissions::parse("raud").unwrap(), expiry);
    sas.scope.start_partition_key = Some("b".into());
    sas.scope.end_partition_key = Some("b".into());
    let token = sas.token(DEV_ACCOUNT, &key()).unwrap();
    // Raw requests, so the client's own checks can't stand in for the server's.
    let inside = raw(
        &server,
        "GET",
        &format!("/devstoreaccount1/Scoped(PartitionKey='b',RowKey='1')?{token}"),
        &[],
        b"",
        false,
    );
    assert_eq!(inside.status, 200, "{}", inside.body);
    let outside = raw(
        &server,
        "GET",
        &format!("/devstoreaccount1/Scoped(PartitionKey='a',RowKey='1')?{token}"),
        &[],
        b"",
        false,
    );
    assert_eq!(
        (outside.status, outside.error_code().as_str()),
        (403, "AuthorizationFailure")
    );
    let write_outside = raw(
        &server,
        "POST",
        &format!("/devstoreaccount1/Scoped?{token}"),
        &[("Content-Type", "application/json")],
        br#"{"PartitionKey":"c","RowKey":"2"}"#,
        false,
    );
    assert_eq!(write_outside.status, 403);
    // A query sees only the range.
    let query = raw(
        &server,
        "GET",
        &format!("/devstoreaccount1/Scoped()?{token}"),
        &[],
        b"",
        false,
    );
    let keys: Vec<String> = query.json()["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["PartitionKey"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(keys, ["b"]);
    // A tampered token is refused.
    let tampered = token.replace("sp=raud", "sp=r");
    let refused = raw(
        &server,
        "GET",
        &format!("/devstoreaccount1/Scoped()?{tampered}"),
        &[],
        b"",
        false,
    );
    assert_eq!(
        (refused.status, refused.error_code().as_str()),
        (403, "AuthenticationFailed")
    );
}

#[test]
fn scans_can_be_denied_and_quirky_pages_still_add_up() {
    let mut config = in_memory();
    config.deny_table_scans = true;
    let server = start(config);
    let c = client(&server);
    block(c.create_table("Strict")).unwrap();
    let e = block(c.query_page("Strict", &Query::filter("V eq 1").unwrap())).unwrap_err();
    assert_eq!(e.code, ErrorCode::QueryScanForbidden);
    assert!(block(c.query_page("Strict", &Query::filter("PartitionKey eq 'a'").unwrap())).is_ok());

    let mut config = in_memory();
    config.paging_quirks = Some(7);
    let server = start(config);
    let c = client(&server);
    block(c.create_table("Quirky")).unwrap();
    for pk in 0..5 {
        let ops = (0..40)
            .map(|i| {
                BatchOperation::Insert(
                    Entity::new(format!("p{pk}"), format!("{i:03}")).with("V", i % 3),
                )
            })
            .collect();
        block(c.execute_batch("Quirky", ops)).unwrap();
    }
    let mut query = Query::filter("V eq 1").unwrap();
    let (mut seen, mut empty_pages, mut pages) = (0, 0, 0);
    loop {
        let page = block(c.query_page("Quirky", &query)).unwrap();
        pages += 1;
        if page.entities.is_empty() {
            empty_pages += 1;
        }
        seen += page.entities.len();
        match page.continuation {
            Some(next) => query.continuation = Some(next),
            None => break,
        }
    }
    // V is 1 for 13 of each partition's 40 rows.
    assert_eq!(seen, 5 * 13);
    assert!(
        empty_pages >= 1 && pages > 5,
        "{pages} pages, {empty_pages} empty"
    );
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("table-server-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn data_on_disk_survives_a_restart() {
    let dir = temp_dir("restart");
    let mut config = in_memory();
    config.storage = Storage::Dir(dir.clone());
    let server = start(config.clone());
    let c = client(&server);
    block(c.create_table("Kept")).unwrap();
    block(c.create_table("Dropped")).unwrap();
    let written = block(c.write(
        "Kept",
        BatchOperation::Insert(Entity::new("p", "1").with("S", "é").with("B", vec![1u8, 2])),
    ))
    .unwrap();
    let ops = (2..10)
        .map(|i| BatchOperation::Insert(Entity::new("p", i.to_string())))
        .collect();
    block(c.execute_batch("Kept", ops)).unwrap();
    block(c.write("Dropped", BatchOperation::Insert(Entity::new("x", "y")))).unwrap();
    block(c.delete_table("Dropped")).unwrap();
    block(c.write(
        "Kept",
        BatchOperation::Delete {
            partition_key: "p".into(),
            row_key: "9".into(),
            if_match: IfMatch::Any,
        },
    ))
    .unwrap();
    server.stop();

    let (server, opened) = Server::start(config.clone()).unwrap();
    assert_eq!(opened.restored[0].1.tables, 1);
    assert_eq!(opened.restored[0].1.entities, 8);
    let c = client(&server);
    let read = block(c.get("Kept", "p", "1", None)).unwrap();
    assert_eq!(read.etag, Some(written.etag.clone()));
    assert_eq!(read.timestamp, Some(written.timestamp));
    assert_eq!(
        read.get("S"),
        Some(&table_runtime::Value::String("é".into()))
    );
    assert_eq!(
        block(c.get("Dropped", "x", "y", None)).unwrap_err().code,
        ErrorCode::TableNotFound
    );
    // Later writes get later Timestamps than anything read back.
    let later = block(c.write(
        "Kept",
        BatchOperation::UpsertMerge(Entity::new("p", "1").with("N", 1)),
    ))
    .unwrap();
    assert!(later.timestamp > written.timestamp);
    // A table of the same name as a dropped one starts empty.
    block(c.create_table("Dropped")).unwrap();
    assert!(block(c.get("Dropped", "x", "y", None)).is_err());
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn partition_statistics_are_served() {
    let server = start(in_memory());
    let c = client(&server);
    block(c.create_table("Hot")).unwrap();
    for i in 0..5 {
        block(c.write(
            "Hot",
            BatchOperation::Insert(Entity::new("busy", i.to_string())),
        ))
        .unwrap();
    }
    block(c.write("Hot", BatchOperation::Insert(Entity::new("quiet", "0")))).unwrap();
    block(c.query_page("Hot", &Query::filter("PartitionKey eq 'busy'").unwrap())).unwrap();
    let stats = raw(
        &server,
        "GET",
        "/_stats/devstoreaccount1/Hot",
        &[],
        b"",
        false,
    );
    assert_eq!(stats.status, 200, "{}", stats.body);
    let json = stats.json();
    let busy = &json.as_array().unwrap()[0];
    assert_eq!(busy["partition_key"], "busy");
    assert_eq!(
        (busy["entities"].as_u64(), busy["writes"].as_u64()),
        (Some(5), Some(5))
    );
    assert_eq!(busy["reads"].as_u64(), Some(5));
    let missing = raw(
        &server,
        "GET",
        "/_stats/devstoreaccount1/Nope",
        &[],
        b"",
        false,
    );
    assert_eq!(missing.status, 404);
}

const CORS_PROPERTIES: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceProperties>\
<Cors><CorsRule><AllowedOrigins>https://app.example</AllowedOrigins>\
<AllowedMethods>GET,PUT</AllowedMethods><MaxAgeInSeconds>600</MaxAgeInSeconds>\
<ExposedHeaders>x-ms-request-*</ExposedHeaders><AllowedHeaders>x-ms-*,content-type</AllowedHeaders>\
</CorsRule><CorsRule><AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET</AllowedMethods>\
<MaxAgeInSeconds>5</MaxAgeInSeconds><ExposedHeaders></ExposedHeaders><AllowedHeaders></AllowedHeaders>\
</CorsRule></Cors></StorageServiceProperties>";

#[test]
fn service_properties_cors_and_stats() {
    let server = start(in_memory());
    let properties = "/devstoreaccount1/?restype=service&comp=properties";
    // Nothing set yet: every section at its default, no CORS rule, so preflights fail.
    let defaults = raw(&server, "GET", properties, &[], b"", true);
    assert_eq!(defaults.status, 200, "{}", defaults.body);
    assert!(defaults.body.contains("<Logging><Version>1.0</Version>"));
    assert!(defaults.body.contains("<Cors></Cors>"));
    let preflight = |origin: &str, method: &str, headers: Option<&str>| {
        let mut sent = vec![
            ("Origin", origin),
            ("Access-Control-Request-Method", method),
        ];
        if let Some(h) = headers {
            sent.push(("Access-Control-Request-Headers", h));
        }
        raw(
            &server,
            "OPTIONS",
            "/devstoreaccount1/Orders",
            &sent,
            b"",
            false,
        )
    };
    let refused = preflight("https://app.example", "GET", None);
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(refused.error_code(), "CorsPreflightFailure");

    let set = raw(
        &server,
        "PUT",
        properties,
        &[("Content-Type", "application/xml")],
        CORS_PROPERTIES.as_bytes(),
        true,
    );
    assert_eq!(set.status, 202, "{}", set.body);
    let read = raw(&server, "GET", properties, &[], b"", true);
    assert!(
        read.body
            .contains("<AllowedOrigins>https://app.example</AllowedOrigins>")
    );
    assert!(read.body.contains("<MaxAgeInSeconds>5</MaxAgeInSeconds>"));

    // The first rule allowing origin, method and headers answers the preflight.
    let allowed = preflight("https://app.example", "PUT", Some("x-ms-date,Content-Type"));
    assert_eq!(allowed.status, 200, "{}", allowed.body);
    assert_eq!(
        allowed.header("Access-Control-Allow-Origin"),
        Some("https://app.example")
    );
    assert_eq!(allowed.header("Access-Control-Allow-Methods"), Some("PUT"));
    assert_eq!(
        allowed.header("Access-Control-Allow-Headers"),
        Some("x-ms-date,Content-Type")
    );
    assert_eq!(allowed.header("Access-Control-Max-Age"), Some("600"));
    assert_eq!(
        allowed.header("Access-Control-Allow-Credentials"),
        Some("true")
    );
    // Another origin falls through to the `*` rule, which allows GET only, and no headers.
    let any = preflight("https://else.example", "GET", None);
    assert_eq!(any.status, 200);
    assert_eq!(any.header("Access-Control-Allow-Origin"), Some("*"));
    assert_eq!(any.header("Access-Control-Max-Age"), Some("5"));
    assert_eq!(preflight("https://else.example", "PUT", None).status, 403);
    assert_eq!(
        preflight("https://app.example", "PUT", Some("authorization")).status,
        403
    );
    let no_method = raw(
        &server,
        "OPTIONS",
        "/devstoreaccount1/Orders",
        &[("Origin", "https://app.example")],
        b"",
        false,
    );
    assert_eq!(no_method.status, 400);
    assert_eq!(no_method.error_code(), "InvalidCorsHeaderValue");

    // A signed request from an allowed origin gets the CORS headers; `x-ms-request-*` exposes
    // the request id present on the answer.
    let listed = raw(
        &server,
        "GET",
        "/devstoreaccount1/Tables",
        &[("Origin", "https://app.example")],
        b"",
        true,
    );
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert_eq!(
        listed.header("Access-Control-Allow-Origin"),
        Some("https://app.example")
    );
    assert_eq!(
        listed.header("Access-Control-Expose-Headers"),
        Some("x-ms-request-id")
    );
    assert_eq!(listed.header("Vary"), Some("Origin"));
    // A method no rule allows for that origin: no CORS headers beyond Vary.
    let created = raw(
        &server,
        "POST",
        "/devstoreaccount1/Tables",
        &[
            ("Origin", "https://app.example"),
            ("Content-Type", "application/json"),
        ],
        br#"{"TableName":"Orders"}"#,
        true,
    );
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.header("Access-Control-Allow-Origin"), None);
    assert_eq!(created.header("Vary"), Some("Origin"));

    // A section left out keeps its value; a rule with a method the service doesn't know is
    // refused and changes nothing.
    let logging = "<StorageServiceProperties><Logging><Version>1.0</Version><Delete>true</Delete>\
        <Read>false</Read><Write>true</Write><RetentionPolicy><Enabled>true</Enabled><Days>7</Days>\
        </RetentionPolicy></Logging></StorageServiceProperties>";
    assert_eq!(
        raw(&server, "PUT", properties, &[], logging.as_bytes(), true).status,
        202
    );
    let bad = "<StorageServiceProperties><Cors><CorsRule><AllowedOrigins>*</AllowedOrigins>\
        <AllowedMethods>FETCH</AllowedMethods><MaxAgeInSeconds>1</MaxAgeInSeconds></CorsRule>\
        </Cors></StorageServiceProperties>";
    let refused = raw(&server, "PUT", properties, &[], bad.as_bytes(), true);
    assert_eq!(refused.status, 400);
    assert_eq!(refused.error_code(), "InvalidXmlNodeValue");
    let read = raw(&server, "GET", properties, &[], b"", true);
    assert!(read.body.contains("<Delete>true</Delete>"));
    assert!(read.body.contains("<Days>7</Days>"));
    assert!(read.body.contains("https://app.example"), "CORS kept");
    // Without credentials, the properties are not for reading.
    assert_eq!(raw(&server, "GET", properties, &[], b"", false).status, 403);

    // Stats come from the secondary endpoint only.
    let stats = raw(
        &server,
        "GET",
        "/devstoreaccount1-secondary/?restype=service&comp=stats",
        &[],
        b"",
        true,
    );
    assert_eq!(stats.status, 200, "{}", stats.body);
    assert!(stats.body.contains("<Status>live</Status>"));
    assert!(stats.body.contains("<LastSyncTime>"));
    let primary = raw(
        &server,
        "GET",
        "/devstoreaccount1/?restype=service&comp=stats",
        &[],
        b"",
        true,
    );
    assert_eq!(primary.status, 400);
    assert_eq!(primary.error_code(), "InvalidQueryParameterValue");
}

#[test]
fn policies_and_properties_on_disk_survive_a_restart() {
    let dir = temp_dir("settings");
    let mut config = in_memory();
    config.storage = Storage::Dir(dir.clone());
    let server = start(config.clone());
    let c = client(&server);
    block(c.create_table("Shared")).unwrap();
    block(c.create_table("Gone")).unwrap();
    let acl = "<SignedIdentifiers><SignedIdentifier><Id>readers</Id><AccessPolicy>\
        <Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>";
    for table in ["Shared", "Gone"] {
        let set = raw(
            &server,
            "PUT",
            &format!("/devstoreaccount1/{table}?comp=acl"),
            &[],
            acl.as_bytes(),
            true,
        );
        assert_eq!(set.status, 204, "{}", set.body);
    }
    let properties = "/devstoreaccount1/?restype=service&comp=properties";
    assert_eq!(
        raw(
            &server,
            "PUT",
            properties,
            &[],
            CORS_PROPERTIES.as_bytes(),
            true
        )
        .status,
        202
    );
    block(c.delete_table("Gone")).unwrap();
    server.stop();

    let server = start(config.clone());
    let c = client(&server);
    let kept = raw(
        &server,
        "GET",
        "/devstoreaccount1/Shared?comp=acl",
        &[],
        b"",
        true,
    );
    assert_eq!(kept.status, 200, "{}", kept.body);
    assert!(kept.body.contains("<Id>readers</Id>"), "{}", kept.body);
    // A table dropped before the restart took its policies with it, even when a table of the
    // same name comes back.
    block(c.create_table("Gone")).unwrap();
    let gone = raw(
        &server,
        "GET",
        "/devstoreaccount1/Gone?comp=acl",
        &[],
        b"",
        true,
    );
    assert!(!gone.body.contains("readers"), "{}", gone.body);
    let read = raw(&server, "GET", properties, &[], b"", true);
    assert!(read.body.contains("https://app.example"), "{}", read.body);
    // The restored rules answer preflights.
    let preflight = raw(
        &server,
        "OPTIONS",
        "/devstoreaccount1/Shared",
        &[
            ("Origin", "https://app.example"),
            ("Access-Control-Request-Method", "GET"),
        ],
        b"",
        false,
    );
    assert_eq!(preflight.status, 200, "{}", preflight.body);
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_query_alone_in_a_batch_is_answered_outside_a_changeset() {
    let server = start(in_memory());
    let c = client(&server);
    block(c.create_table("Lone")).unwrap();
    for rk in ["1", "2", "3"] {
        block(c.write(
            "Lone",
            BatchOperation::Insert(Entity::new("p", rk).with("N", rk)),
        ))
        .unwrap();
    }
    let base = format!("http://{}/devstoreaccount1", server.addr());
    let send = |request_line: &str| {
        let body = format!(
            "--batch_q\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n\
             {request_line}\r\nAccept: application/json;odata=nometadata\r\n\r\n\r\n--batch_q--\r\n"
        );
        raw(
            &server,
            "POST",
            "/devstoreaccount1/$batch",
            &[("Content-Type", "multipart/mixed; boundary=batch_q")],
            body.as_bytes(),
            true,
        )
    };
    let point = send(&format!(
        "GET {base}/Lone(PartitionKey='p',RowKey='2') HTTP/1.1"
    ));
    assert_eq!(point.status, 202, "{}", point.body);
    assert!(!point.body.contains("changesetresponse"), "{}", point.body);
    assert!(point.body.contains("HTTP/1.1 200 OK"), "{}", point.body);
    assert!(point.body.contains(r#""RowKey":"2""#), "{}", point.body);
    let filtered = send(&format!(
        "GET {base}/Lone()?$filter=PartitionKey%20eq%20'p'%20and%20RowKey%20ge%20'2' HTTP/1.1"
    ));
    assert!(
        filtered.body.contains(r#""RowKey":"3""#),
        "{}",
        filtered.body
    );
    assert!(
        !filtered.body.contains(r#""RowKey":"1""#),
        "{}",
        filtered.body
    );
    let missing = send(&format!(
        "GET {base}/Lone(PartitionKey='p',RowKey='9') HTTP/1.1"
    ));
    assert_eq!(missing.status, 202);
    assert!(missing.body.contains("HTTP/1.1 404"), "{}", missing.body);
    assert!(
        missing.body.contains("ResourceNotFound"),
        "{}",
        missing.body
    );
    // A write outside a changeset is not a query.
    let stray = send(&format!(
        "DELETE {base}/Lone(PartitionKey='p',RowKey='1') HTTP/1.1"
    ));
    assert_eq!(stray.status, 400, "{}", stray.body);
    assert!(block(c.get("Lone", "p", "1", None)).is_ok());
}

/// Sends `head` (and nothing more) on a new connection, then reads until the server closes it
/// or `wait` passes; the answer's status, if one came.
fn send_partial(server: &Server, head: &[u8], close_write: bool, wait: Duration) -> Option<u16> {
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream.set_read_timeout(Some(wait)).unwrap();
    stream.write_all(head).unwrap();
    if close_write {
        stream.shutdown(std::net::Shutdown::Write).unwrap();
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    text.lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
}

#[test]
fn slow_truncated_and_overlong_requests_get_answers_and_never_stall_the_server() {
    let mut config = in_memory();
    config.read_timeout = Duration::from_millis(800);
    let server = start(config);
    let c = client(&server);
    block(c.create_table("Door")).unwrap();
    let host = server.addr();

    // A client that stops halfway through its headers holds no one else up, and its connection
    // is closed once the read timeout passes.
    let slow_headers = std::thread::spawn({
        let head = format!("GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: {host}\r\nx-ms-ver");
        let server_addr = host;
        move || {
            let started = Instant::now();
            let mut stream = TcpStream::connect(server_addr).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(20)))
                .unwrap();
            stream.write_all(head.as_bytes()).unwrap();
            let mut rest = Vec::new();
            let _ = stream.read_to_end(&mut rest);
            started.elapsed()
        }
    });
    let started = Instant::now();
    for i in 0..20 {
        block(c.write(
            "Door",
            BatchOperation::Insert(Entity::new("p", i.to_string())),
        ))
        .unwrap();
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "other clients were served meanwhile"
    );
    let held = slow_headers.join().unwrap();
    assert!(
        held < Duration::from_secs(10),
        "the stalled connection was closed after {held:?}"
    );

    // A body that stops arriving: 500 OperationTimedOut once the read timeout passes.
    let head = format!(
        "POST /devstoreaccount1/Door HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"PartitionKey\":"
    );
    assert_eq!(
        send_partial(&server, head.as_bytes(), false, Duration::from_secs(20)),
        Some(500)
    );
    // A body cut short by the client closing its side: 400, nothing written.
    assert_eq!(
        send_partial(&server, head.as_bytes(), true, Duration::from_secs(20)),
        Some(400)
    );
    // More headers than the service reads: 400 with the service's error body; far more: 431.
    let many: String = (0..150).map(|i| format!("x-extra-{i}: {i}\r\n")).collect();
    let answer = raw(
        &server,
        "GET",
        "/devstoreaccount1/Tables",
        &many
            .lines()
            .map(|l| l.split_once(": ").unwrap())
            .collect::<Vec<_>>(),
        b"",
        true,
    );
    assert_eq!(
        (answer.status, answer.error_code().as_str()),
        (400, "InvalidHeaderValue")
    );
    let flood: String = (0..400).map(|i| format!("x-extra-{i}: {i}\r\n")).collect();
    let head = format!("GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: {host}\r\n{flood}\r\n");
    assert_eq!(
        send_partial(&server, head.as_bytes(), false, Duration::from_secs(20)),
        Some(431)
    );
    // Not HTTP at all: 400, connection closed.
    assert_eq!(
        send_partial(
            &server,
            b"\x16\x03\x01 hello\r\n\r\n",
            false,
            Duration::from_secs(20)
        ),
        Some(400)
    );
    // Malformed batches: each refused with the service's code, nothing written.
    for body in [
        &b"not multipart"[..],
        b"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\n\r\nPOST\r\n\r\n--c--\r\n--b--\r\n",
        b"--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\nContent-Type: application/http\r\n\r\nPOST http://x/devstoreaccount1/Door HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{\"PartitionKey\":\"q\",\"RowKey\":\r\n--c--\r\n--b--\r\n",
        b"--b\r\n--b\r\n--b--\r\n",
    ] {
        let answer = raw(
            &server,
            "POST",
            "/devstoreaccount1/$batch",
            &[("Content-Type", "multipart/mixed; boundary=b")],
            body,
            true,
        );
        assert!(
            answer.status == 400 || answer.body.contains("HTTP/1.1 400"),
            "{} {}",
            answer.status,
            answer.body
        );
    }
    let page = block(c.query_page("Door", &Query::filter("PartitionKey eq 'q'").unwrap())).unwrap();
    assert!(
        page.entities.is_empty(),
        "no malformed batch wrote anything"
    );
    // Every bad request above left the server serving.
    assert_eq!(
        block(c.query_page("Door", &Query::filter("PartitionKey eq 'p'").unwrap()))
            .unwrap()
            .entities
            .len(),
        20
    );
}

/// An account SAS lets a `$batch` do what it lets each of its operations do: a query sent
/// alone needs `r`, a transaction of inserts `a`, and one that also deletes `d` as well.
#[test]
fn an_account_sas_allows_a_batch_by_its_operations() {
    let server = start(in_memory());
    let c = client(&server);
    block(c.create_table("Acct")).unwrap();
    block(c.write(
        "Acct",
        BatchOperation::Insert(Entity::new("p", "old").with("N", 1)),
    ))
    .unwrap();
    let sas = |permissions: &str| {
        let token = table_http::sas::SasToken {
            version: Some("2019-02-02".into()),
            permissions: Some(permissions.into()),
            services: Some("t".into()),
            resource_types: Some("sco".into()),
            expiry: Some("2099-01-01T00:00:00Z".into()),
            ..Default::default()
        };
        let signature =
            table_http::auth::hmac_sha256_base64(&key(), &token.string_to_sign(DEV_ACCOUNT));
        let signature: String =
            percent_encoding::utf8_percent_encode(&signature, percent_encoding::NON_ALPHANUMERIC)
                .to_string();
        format!(
            "sv=2019-02-02&ss=t&srt=sco&sp={permissions}&se=2099-01-01T00%3A00%3A00Z&sig={signature}"
        )
    };
    let base = format!("http://{}/devstoreaccount1", server.addr());
    let send = |permissions: &str, boundary: &str, body: String| {
        raw(
            &server,
            "POST",
            &format!("/devstoreaccount1/$batch?{}", sas(permissions)),
            &[(
                "Content-Type",
                &format!("multipart/mixed; boundary={boundary}"),
            )],
            body.as_bytes(),
            false,
        )
    };
    let lone_query = format!(
        "--batch_q\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n\
         GET {base}/Acct(PartitionKey='p',RowKey='old') HTTP/1.1\r\nAccept: application/json;odata=nometadata\r\n\r\n\r\n--batch_q--\r\n"
    );
    let changeset = |operations: &[String]| {
        let mut body = String::from(
            "--batch_w\r\nContent-Type: multipart/mixed; boundary=changeset_w\r\n\r\n",
        );
        for operation in operations {
            body.push_str(
                "--changeset_w\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n",
            );
            body.push_str(operation);
        }
        body.push_str("--changeset_w--\r\n--batch_w--\r\n");
        body
    };
    let insert = |rk: &str| {
        let entity = format!(r#"{{"PartitionKey":"p","RowKey":"{rk}"}}"#);
        format!(
            "POST {base}/Acct HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{entity}\r\n",
            entity.len()
        )
    };
    let delete = format!(
        "DELETE {base}/Acct(PartitionKey='p',RowKey='old') HTTP/1.1\r\nIf-Match: *\r\n\r\n\r\n"
    );

    let read = send("r", "batch_q", lone_query.clone());
    assert_eq!(read.status, 202, "{}", read.body);
    assert!(read.body.contains("HTTP/1.1 200 OK"), "{}", read.body);
    let refused = send("a", "batch_q", lone_query);
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(refused.error_code(), "AuthorizationPermissionMismatch");

    let inserts = changeset(&[insert("a1"), insert("a2")]);
    let refused = send("r", "batch_w", inserts.clone());
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(refused.error_code(), "AuthorizationPermissionMismatch");
    let added = send("a", "batch_w", inserts);
    assert_eq!(added.status, 202, "{}", added.body);
    assert!(added.body.contains("HTTP/1.1 201"), "{}", added.body);

    let mixed = changeset(&[insert("a3"), delete]);
    let refused = send("a", "batch_w", mixed.clone());
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(block(c.get("Acct", "p", "old", None)).is_ok());
    let done = send("ad", "batch_w", mixed);
    assert_eq!(done.status, 202, "{}", done.body);
    assert!(block(c.get("Acct", "p", "old", None)).is_err());
    assert!(block(c.get("Acct", "p", "a3", None)).is_ok());
}

/// What Azurite's own table tests, run against this server, showed it refusing that the
/// service accepts (or answering with another status than the service's).
#[test]
fn requests_the_service_accepts_from_real_clients() {
    let server = start(in_memory());
    let c = client(&server);
    block(c.create_table("Loose")).unwrap();
    let json_type = [("Content-Type", "application/json")];
    // Storage Explorer sends Booleans and Int32s as annotated strings; a DateTime without an
    // offset is UTC.
    let body = br#"{"PartitionKey":"p","RowKey":"r",
        "B":"false","B@odata.type":"Edm.Boolean",
        "I":"32","I@odata.type":"Edm.Int32",
        "T":"2023-01-01T23:00:00","T@odata.type":"Edm.DateTime"}"#;
    let inserted = raw(
        &server,
        "POST",
        "/devstoreaccount1/Loose",
        &json_type,
        body,
        true,
    );
    assert_eq!(inserted.status, 201, "{}", inserted.body);
    let stored = block(c.get("Loose", "p", "r", None)).unwrap();
    assert_eq!(stored.get("B"), Some(&Value::Boolean(false)));
    assert_eq!(stored.get("I"), Some(&Value::Int32(32)));
    assert_eq!(
        stored.get("T"),
        Some(&Value::DateTime(
            table_runtime::DateTime::parse("2023-01-01T23:00:00Z").unwrap()
        ))
    );

    // If-Match: a weak ETag that does not match fails the precondition; a strong or malformed
    // one is a bad request, and the entity is untouched.
    let entity = "/devstoreaccount1/Loose(PartitionKey='p',RowKey='r')";
    let replace = |etag: &str| {
        let headers = [("Content-Type", "application/json"), ("If-Match", etag)];
        raw(&server, "PUT", entity, &headers, br#"{"X":1}"#, true)
    };
    assert_eq!(
        replace("W/\"datetime'2015-01-01T23%3A14%3A33.498Z'\"").status,
        412
    );
    for bad in ["\"wrong\"", "wrong", "\""] {
        let answer = replace(bad);
        assert_eq!(
            (answer.status, answer.error_code().as_str()),
            (400, "InvalidInput"),
            "{bad}"
        );
    }
    assert!(
        block(c.get("Loose", "p", "r", None))
            .unwrap()
            .get("X")
            .is_none()
    );

    // `$top=0` (Storage Explorer's) answers an empty page; an empty `$filter` filters nothing.
    let accept = [("Accept", "application/json;odata=nometadata")];
    let none = raw(
        &server,
        "GET",
        "/devstoreaccount1/Loose()?$top=0",
        &accept,
        b"",
        true,
    );
    assert_eq!(
        (none.status, none.json()["value"].as_array().map(Vec::len)),
        (200, Some(0))
    );
    let missing = raw(
        &server,
        "GET",
        "/devstoreaccount1/Nowhere()?$top=0",
        &accept,
        b"",
        true,
    );
    assert_eq!(missing.error_code(), "TableNotFound");
    let tables = raw(
        &server,
        "GET",
        "/devstoreaccount1/Tables?$filter=",
        &accept,
        b"",
        true,
    );
    assert_eq!(tables.status, 200, "{}", tables.body);
    assert_eq!(tables.json()["value"].as_array().map(Vec::len), Some(1));

    // A body over 4 MiB is refused as too large for any request, before its entity is read.
    let mut huge = br#"{"PartitionKey":"p","RowKey":"big","S":""#.to_vec();
    huge.resize(table_server::MAX_BODY + 1 - 2, b'x');
    huge.extend_from_slice(br#""}"#);
    let too_big = raw(
        &server,
        "POST",
        "/devstoreaccount1/Loose",
        &json_type,
        &huge,
        true,
    );
    assert_eq!(
        (too_big.status, too_big.error_code().as_str()),
        (413, "RequestBodyTooLarge")
    );
}

/// Details of the service's answers that exchanges recorded with it show (the Azure SDK for
/// Python's recordings, replayed by `sdk-tests/recordings/replay.py`).
#[test]
fn answers_are_written_as_the_service_writes_them() {
    let server = start(in_memory());
    let c = client(&server);
    block(c.create_table("Shape")).unwrap();
    let json_type = [("Content-Type", "application/json")];
    let body = br#"{"PartitionKey":"p","RowKey":"r","ratio":3.1,"evenratio":3.0,
        "Birthday":"1973-10-04T00:00:00Z","Birthday@odata.type":"Edm.DateTime",
        "PartitionKey@odata.type@odata.type":"Edm.String"}"#;
    let created = raw(
        &server,
        "POST",
        "/devstoreaccount1/Shape",
        &json_type,
        body,
        true,
    );
    assert_eq!(created.status, 201, "{}", created.body);
    // A 201 names what it made in its body and Location; DataServiceId goes with 204s only.
    assert!(created.header("DataServiceId").is_none());
    assert!(created.header("Location").is_some());
    let got = raw(
        &server,
        "GET",
        "/devstoreaccount1/Shape(PartitionKey='p',RowKey='r')",
        &[],
        b"",
        true,
    );
    let entity = got.json();
    // Doubles are told by their decimal point, not annotated; a DateTime drops a zero fraction.
    assert!(entity.get("evenratio@odata.type").is_none(), "{entity}");
    assert!(got.body.contains("\"evenratio\":3.0"), "{}", got.body);
    assert_eq!(entity["Birthday"], "1973-10-04T00:00:00Z");
    // The ETag names the Timestamp in the same form.
    let timestamp = entity["Timestamp"].as_str().unwrap().replace(':', "%3A");
    assert_eq!(
        got.header("ETag"),
        Some(format!("W/\"datetime'{timestamp}'\"").as_str())
    );

    // A write's keys are the URL's, whatever the body says.
    let merge = raw(
        &server,
        "MERGE",
        "/devstoreaccount1/Shape(PartitionKey='p',RowKey='r2')",
        &json_type,
        br#"{"PartitionKey":"other","RowKey":"other","x":1}"#,
        true,
    );
    assert_eq!(merge.status, 204, "{}", merge.body);
    assert_eq!(merge.header("DataServiceId"), None);
    assert!(block(c.get("Shape", "p", "r2", None)).is_ok());

    // A blank `$select` selects everything, and the metadata URL says it was given.
    let accept = [("Accept", "application/json;odata=minimalmetadata")];
    let page = raw(
        &server,
        "GET",
        "/devstoreaccount1/Shape()?$select=%20&$top=1",
        &accept,
        b"",
        true,
    );
    let page_json = page.json();
    assert!(
        page_json["odata.metadata"]
            .as_str()
            .unwrap()
            .ends_with("#Shape&$select=")
    );
    assert_eq!(page_json["value"][0]["ratio"], 3.1);
    // A `$select` is repeated as it was written, not as its names were read.
    let spaced = raw(
        &server,
        "GET",
        "/devstoreaccount1/Shape()?$select=ratio%2C%20RowKey&$top=1",
        &accept,
        b"",
        true,
    )
    .json();
    assert!(
        spaced["odata.metadata"]
            .as_str()
            .unwrap()
            .ends_with("#Shape&$select=ratio,%20RowKey"),
        "{spaced}"
    );
    assert_eq!(spaced["value"][0]["RowKey"], "r");
    assert_eq!(spaced["value"][0]["ratio"], 3.1);
    assert!(spaced["value"][0].get("evenratio").is_none(), "{spaced}");
    // Continuations are padded as the service pads them.
    let next = page.header("x-ms-continuation-NextRowKey").unwrap();
    assert!(next.starts_with("1!") && !next.contains('='), "{next}");

    // Error messages start with the service's words for the code, which clients look for.
    let message = |answer: &Raw| {
        answer.json()["odata.error"]["message"]["value"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let write_to_secondary = raw(
        &server,
        "POST",
        "/devstoreaccount1-secondary/Shape",
        &json_type,
        br#"{"PartitionKey":"p","RowKey":"s"}"#,
        true,
    );
    assert_eq!(write_to_secondary.status, 403);
    assert_eq!(
        write_to_secondary.header("x-ms-error-code"),
        Some("InsufficientAccountPermissions")
    );
    assert!(message(&write_to_secondary).starts_with("Write operations are not allowed.\n"));
    let missing = raw(
        &server,
        "GET",
        "/devstoreaccount1/Shape(PartitionKey='p',RowKey='nope')",
        &accept,
        b"",
        true,
    );
    assert_eq!(missing.status, 404);
    let text = message(&missing);
    assert!(
        text.starts_with("The specified resource does not exist.\n") && text.contains("RequestId:"),
        "{text}"
    );
}

/// A client whose account URL ends in a table name (`…/devstoreaccount1/mytable`) sends
/// `/mytable/Tables`, `/mytable/$batch` and `/mytable?restype=service`. The service looks the
/// table up first, then refuses each by its own rule (the answers recorded by the Python SDK's
/// tests, which look for these words to tell the user to check the account URL); nothing is
/// written.
#[test]
fn a_table_name_in_the_account_url_is_refused_as_the_service_refuses_it() {
    let server = start(in_memory());
    let json_type = [("Content-Type", "application/json")];
    let message = |answer: &Raw| {
        answer.json()["odata.error"]["message"]["value"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let refused = |answer: &Raw, status: u16, code: &str, words: &str| {
        assert_eq!(answer.status, status, "{}", answer.body);
        assert_eq!(answer.header("x-ms-error-code"), Some(code));
        assert_eq!(answer.error_code(), code);
        let text = message(answer);
        assert!(text.starts_with(words), "{text}");
    };
    // Every request here is signed and sent by path.
    let send = |method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]| {
        raw(&server, method, path, headers, body, true)
    };
    let create_body = br#"{"TableName":"mytable"}"#;
    let missing = send(
        "POST",
        "/devstoreaccount1/mytable/Tables",
        &json_type,
        create_body,
    );
    refused(
        &missing,
        404,
        "TableNotFound",
        "The table specified does not exist.",
    );
    let made = send("POST", "/devstoreaccount1/Tables", &json_type, create_body);
    assert_eq!(made.status, 201, "{}", made.body);

    let no_keys = send(
        "POST",
        "/devstoreaccount1/mytable/Tables",
        &json_type,
        create_body,
    );
    refused(
        &no_keys,
        400,
        "PropertiesNeedValue",
        "The values are not specified for all properties in the entity.",
    );
    let whole = raw(
        &server,
        "POST",
        "/devstoreaccount1/mytable/Tables",
        &json_type,
        br#"{"PartitionKey":"p","RowKey":"r"}"#,
        true,
    );
    refused(
        &whole,
        400,
        "InvalidUri",
        "The requested URI does not represent any resource on the server.",
    );
    let one_key = send(
        "DELETE",
        "/devstoreaccount1/mytable/Tables('mytable')",
        &[],
        b"",
    );
    refused(
        &one_key,
        400,
        "InvalidInput",
        "The number of keys specified in the URI does not match number of key properties for the resource.",
    );
    let batch_type = [("Content-Type", "multipart/mixed; boundary=batch_1")];
    let batch = send(
        "POST",
        "/devstoreaccount1/mytable/$batch",
        &batch_type,
        b"--batch_1--\r\n",
    );
    refused(
        &batch,
        415,
        "MediaTypeNotSupported",
        "None of the provided media types are supported.",
    );
    // The same rule on the table's own URL: an entity's body is JSON.
    let multipart_insert = send(
        "POST",
        "/devstoreaccount1/mytable",
        &batch_type,
        b"--batch_1--\r\n",
    );
    refused(
        &multipart_insert,
        415,
        "MediaTypeNotSupported",
        "None of the provided media types are supported.",
    );
    for (method, path) in [
        (
            "GET",
            "/devstoreaccount1/mytable?restype=service&comp=properties",
        ),
        (
            "PUT",
            "/devstoreaccount1/mytable?restype=service&comp=properties",
        ),
        (
            "GET",
            "/devstoreaccount1/notatable?restype=service&comp=properties",
        ),
    ] {
        let answer = send(method, path, &[], b"");
        refused(
            &answer,
            400,
            "InvalidQueryParameterValue",
            "Value for one of the query parameters specified in the request URI is invalid.",
        );
    }
    // Nothing was written, and the table is still there.
    let rows = block(client(&server).query_page("mytable", &Query::all())).unwrap();
    assert!(rows.entities.is_empty());
    let other = send(
        "POST",
        "/devstoreaccount1/notatable/Tables",
        &json_type,
        create_body,
    );
    refused(
        &other,
        404,
        "TableNotFound",
        "The table specified does not exist.",
    );
}

/// `--cert`/`--key`: the server speaks HTTPS, links in its answers say so, and a SAS that
/// allows HTTPS only is accepted over it. The certificate in `tests/tls` (for `localhost` and
/// 127.0.0.1, signed by the test CA `ca.pem`, whose key was thrown away) exists for this test.
#[test]
fn https_with_a_certificate_and_key() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tls");
    let mut config = in_memory();
    config.tls = Some(
        table_server::tls_config(&dir.join("server.pem"), &dir.join("server-key.pem")).unwrap(),
    );
    let server = start(config);
    assert!(
        server
            .connection_string()
            .contains("TableEndpoint=https://127.0.0.1:")
    );
    // Files that make no identity are an error, not a panic.
    for (cert, key) in [
        ("server.pem", "ca.pem"),
        ("missing.pem", "server-key.pem"),
        ("server-key.pem", "server-key.pem"),
    ] {
        let made = table_server::tls_config(&dir.join(cert), &dir.join(key));
        assert!(made.is_err(), "{cert} {key}");
    }

    let json_type = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json;odata=minimalmetadata"),
    ];
    let created = over_tls(
        &server,
        request_bytes(
            &server,
            "POST",
            "/devstoreaccount1/Tables",
            &json_type,
            br#"{"TableName":"Secure"}"#,
            true,
        ),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    assert!(
        created.header("Location").unwrap().starts_with("https://"),
        "{:?}",
        created.headers
    );
    assert!(
        created.json()["odata.metadata"]
            .as_str()
            .unwrap()
            .starts_with("https://")
    );

    // A table SAS for HTTPS only is accepted over TLS.
    let mut https_only = TableSas::new(
        "Secure",
        TablePermissions::parse("r").unwrap(),
        time::OffsetDateTime::now_utc() + time::Duration::hours(1),
    );
    https_only.protocol = Some("https".into());
    let sas = https_only.token(DEV_ACCOUNT, &key()).unwrap();
    let read = over_tls(
        &server,
        request_bytes(
            &server,
            "GET",
            &format!("/devstoreaccount1/Secure()?{sas}"),
            &[],
            b"",
            false,
        ),
    );
    assert_eq!(read.status, 200, "{}", read.body);

    // Plain HTTP to a TLS port is no TLS handshake: dropped, and the server goes on.
    let mut plain = TcpStream::connect(server.addr()).unwrap();
    let _ = plain.write_all(b"GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: x\r\n\r\n");
    let mut ignored = Vec::new();
    let _ = plain.read_to_end(&mut ignored);
    assert!(!String::from_utf8_lossy(&ignored).starts_with("HTTP/1.1 2"));
    let again = over_tls(
        &server,
        request_bytes(&server, "GET", "/devstoreaccount1/Tables", &[], b"", true),
    );
    assert_eq!(again.status, 200, "{}", again.body);
}

/// Keys in a write's body: an update, merge or upsert writes the entity its URL names and
/// ignores the body's keys whatever their type (recorded: the service answered 204 to bodies
/// giving them as annotated `Edm.DateTime`, `Edm.Guid` and `Edm.Binary`); an insert, whose keys
/// are the body's, refuses a key that is not a string with 400 InvalidInput (recorded).
#[test]
fn a_writes_keys_are_its_urls_and_an_insert_needs_string_keys() {
    let server = start(in_memory());
    let c = client(&server);
    block(c.create_table("Keys")).unwrap();
    let json_type = [("Content-Type", "application/json")];
    let entity = "/devstoreaccount1/Keys(PartitionKey='2022-04-01T09%3A30%3A45.000000Z',RowKey='5ca646e5-b3a4-4191-b8bb-a9784adba0ab')";
    let typed_keys = br#"{"PartitionKey@odata.type":"Edm.DateTime","PartitionKey":"2022-04-01T09:30:45.000000Z",
        "RowKey@odata.type":"Edm.Guid","RowKey":"5ca646e5-b3a4-4191-b8bb-a9784adba0ab","Data":true}"#;
    let binary_key = br#"{"PartitionKey@odata.type":"Edm.Binary","PartitionKey":"YmluYXJ5ZGF0YQ==",
        "RowKey":1234,"Data":1}"#;
    for method in ["PATCH", "PUT", "MERGE"] {
        for body in [&typed_keys[..], &binary_key[..]] {
            let answer = raw(&server, method, entity, &json_type, body, true);
            assert_eq!(answer.status, 204, "{method}: {}", answer.body);
        }
    }
    let stored = block(c.get(
        "Keys",
        "2022-04-01T09:30:45.000000Z",
        "5ca646e5-b3a4-4191-b8bb-a9784adba0ab",
        None,
    ))
    .unwrap();
    assert_eq!(stored.get("Data"), Some(&Value::Int32(1)));

    for body in [&typed_keys[..], &binary_key[..]] {
        let answer = raw(
            &server,
            "POST",
            "/devstoreaccount1/Keys",
            &json_type,
            body,
            true,
        );
        assert_eq!(
            (answer.status, answer.error_code().as_str()),
            (400, "InvalidInput"),
            "{}",
            answer.body
        );
    }
}

/// Table names that break the rules, as the service answers them (recorded exchanges of
/// azure-data-tables' `test_table_name_errors`, whose client turns exactly these answers into
/// its "Storage table names must be alphanumeric" error): characters other than letters and
/// digits are 400 InvalidResourceName "The specifed resource name contains invalid
/// characters." (sic); too few or too many are 400 OutOfRangeInput "The specified resource name
/// length is not within the permissible limits.", on creating the table and on its entities.
#[test]
fn table_names_that_break_the_rules_get_the_services_codes_and_words() {
    let server = start(in_memory());
    let json_type = [("Content-Type", "application/json")];
    let long = "a".repeat(64);
    let cases = [
        (
            "1table",
            400,
            "InvalidResourceName",
            "The specifed resource name contains invalid characters.",
        ),
        (
            "my_table",
            400,
            "InvalidResourceName",
            "The specifed resource name contains invalid characters.",
        ),
        (
            "aa",
            400,
            "OutOfRangeInput",
            "The specified resource name length is not within the permissible limits.",
        ),
        (
            long.as_str(),
            400,
            "OutOfRangeInput",
            "The specified resource name length is not within the permissible limits.",
        ),
    ];
    for (name, status, code, words) in cases {
        let body = format!(r#"{{"TableName":"{name}"}}"#);
        let create = raw(
            &server,
            "POST",
            "/devstoreaccount1/Tables",
            &json_type,
            body.as_bytes(),
            true,
        );
        let insert = raw(
            &server,
            "POST",
            &format!("/devstoreaccount1/{name}"),
            &json_type,
            br#"{"PartitionKey":"foo","RowKey":"bar"}"#,
            true,
        );
        let merge = raw(
            &server,
            "PATCH",
            &format!("/devstoreaccount1/{name}(PartitionKey='foo',RowKey='foo')"),
            &json_type,
            br#"{"A":1}"#,
            true,
        );
        let acl = raw(
            &server,
            "GET",
            &format!("/devstoreaccount1/{name}?comp=acl"),
            &[],
            b"",
            true,
        );
        for answer in [create, insert, merge, acl] {
            assert_eq!(
                (answer.status, answer.error_code().as_str()),
                (status, code),
                "{name}: {}",
                answer.body
            );
            let message = answer.json()["odata.error"]["message"]["value"]
                .as_str()
                .unwrap()
                .to_owned();
            assert!(message.starts_with(words), "{name}: {message}");
        }
    }
    // A valid name of a table that does not exist is still TableNotFound.
    let missing = raw(
        &server,
        "POST",
        "/devstoreaccount1/Nowhere",
        &json_type,
        br#"{"PartitionKey":"a","RowKey":"b"}"#,
        true,
    );
    assert_eq!(missing.error_code(), "TableNotFound");
}

/// A server over HTTPS with the test certificate, bearer tokens taken as `oauth` says.
fn https_server(oauth: table_server::auth::OAuth) -> Server {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tls");
    let mut config = in_memory();
    config.tls = Some(
        table_server::tls_config(&dir.join("server.pem"), &dir.join("server-key.pem")).unwrap(),
    );
    config.oauth = oauth;
    start(config)
}

/// Sends one request over TLS, trusting the test CA.
fn over_tls(server: &Server, request: Vec<u8>) -> Raw {
    use rustls::pki_types::pem::PemObject;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tls");
    let mut roots = rustls::RootCertStore::empty();
    let ca = std::fs::read(dir.join("ca.pem")).unwrap();
    for cert in rustls::pki_types::CertificateDer::pem_slice_iter(&ca) {
        roots.add(cert.unwrap()).unwrap();
    }
    let client = Arc::new(
        rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth(),
    );
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    let connection = rustls::ClientConnection::new(client, name).unwrap();
    let mut tls = rustls::StreamOwned::new(connection, TcpStream::connect(server.addr()).unwrap());
    tls.write_all(&request).unwrap();
    let mut answer = Vec::new();
    let _ = tls.read_to_end(&mut answer);
    parse_answer(&answer)
}

const TENANT: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";

/// An unsigned JWT as `--oauth basic` takes it, with `changes` made to its claims.
fn entra_token(changes: &[(&str, serde_json::Value)]) -> String {
    use base64::Engine as _;
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let mut claims = serde_json::json!({
        "aud": "https://storage.azure.com",
        "iss": format!("https://sts.windows.net/{TENANT}/"),
        "tid": TENANT,
        "iat": now - 60,
        "nbf": now - 60,
        "exp": now + 3600,
    });
    for (name, value) in changes {
        claims[*name] = value.clone();
    }
    let b64 = |v: &serde_json::Value| {
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string())
    };
    format!(
        "{}.{}.",
        b64(&serde_json::json!({"alg": "none", "typ": "JWT"})),
        b64(&claims)
    )
}

#[test]
fn entra_id_bearer_tokens_with_oauth_basic() {
    use table_server::auth::OAuth;
    let json_type = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json;odata=minimalmetadata"),
    ];
    let send = |server: &Server, tls: bool, method: &str, path: &str, token: &str, body: &[u8]| {
        let bearer = format!("Bearer {token}");
        let mut headers = json_type.to_vec();
        headers.push(("Authorization", &bearer));
        let bytes = request_bytes(server, method, path, &headers, body, false);
        if tls {
            over_tls(server, bytes)
        } else {
            let mut stream = TcpStream::connect(server.addr()).unwrap();
            stream.write_all(&bytes).unwrap();
            let mut answer = Vec::new();
            stream.read_to_end(&mut answer).unwrap();
            parse_answer(&answer)
        }
    };
    let server = https_server(OAuth::Basic);
    let good = entra_token(&[]);

    // A token with the right claims grants what the account key grants.
    let created = send(
        &server,
        true,
        "POST",
        "/devstoreaccount1/Tables",
        &good,
        br#"{"TableName":"Entra"}"#,
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let for_the_account = entra_token(&[(
        "aud",
        "https://devstoreaccount1.table.core.windows.net/".into(),
    )]);
    let inserted = send(
        &server,
        true,
        "POST",
        "/devstoreaccount1/Entra",
        &for_the_account,
        br#"{"PartitionKey":"p","RowKey":"r","n":1}"#,
    );
    assert_eq!(inserted.status, 201, "{}", inserted.body);
    let read = send(
        &server,
        true,
        "GET",
        "/devstoreaccount1/Entra(PartitionKey='p',RowKey='r')",
        &good,
        b"",
    );
    assert_eq!(read.status, 200, "{}", read.body);
    assert_eq!(read.json()["n"], 1);

    // A token that does not check out: 401 InvalidAuthenticationInfo, with the challenge.
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    for (what, token) in [
        ("expired", entra_token(&[("exp", (now - 3600).into())])),
        (
            "not yet valid",
            entra_token(&[("nbf", (now + 3600).into())]),
        ),
        (
            "another audience",
            entra_token(&[("aud", "https://management.azure.com".into())]),
        ),
        (
            "another account",
            entra_token(&[("aud", "https://other.table.core.windows.net".into())]),
        ),
        (
            "another issuer",
            entra_token(&[("iss", "https://issuer.example/".into())]),
        ),
        ("malformed", "not-a-jwt".to_owned()),
        ("empty", String::new()),
    ] {
        let refused = send(
            &server,
            true,
            "GET",
            "/devstoreaccount1/Tables",
            &token,
            b"",
        );
        assert_eq!(refused.status, 401, "{what}: {}", refused.body);
        assert_eq!(refused.error_code(), "InvalidAuthenticationInfo", "{what}");
        assert_eq!(
            refused.header("x-ms-error-code"),
            Some("InvalidAuthenticationInfo")
        );
        let message = refused.json()["odata.error"]["message"]["value"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            message.starts_with("Server failed to authenticate the request."),
            "{message}"
        );
        let challenge = refused.header("WWW-Authenticate").unwrap();
        assert!(
            challenge.starts_with("Bearer authorization_uri=https://login.microsoftonline.com/")
                && challenge.ends_with("/oauth2/authorize resource_id=https://storage.azure.com"),
            "{challenge}"
        );
        if what != "malformed" && what != "empty" {
            assert!(challenge.contains(TENANT), "{challenge}");
        }
    }
    let expired = send(
        &server,
        true,
        "GET",
        "/devstoreaccount1/Tables",
        &entra_token(&[("exp", (now - 3600).into())]),
        b"",
    );
    assert!(
        expired.body.contains("The token is expired"),
        "{}",
        expired.body
    );

    // An x-ms-version before 2019-02-02 takes no bearer token.
    let bearer = format!("Bearer {good}");
    let old = over_tls(
        &server,
        request_bytes(
            &server,
            "GET",
            "/devstoreaccount1/Tables",
            &[
                ("Authorization", &bearer),
                ("x-ms-version", "2018-03-28"),
                ("Accept", "application/json;odata=minimalmetadata"),
            ],
            b"",
            false,
        ),
    );
    assert_eq!(old.status, 403, "{}", old.body);
    assert_eq!(old.error_code(), "AuthenticationFailed");

    // Over HTTP, a bearer token is refused even with --oauth basic.
    let mut config = in_memory();
    config.oauth = OAuth::Basic;
    let plain = start(config);
    let over_http = send(&plain, false, "GET", "/devstoreaccount1/Tables", &good, b"");
    assert_eq!(over_http.status, 403, "{}", over_http.body);
    assert_eq!(over_http.error_code(), "AuthenticationFailed");
    assert!(over_http.body.contains("HTTPS"), "{}", over_http.body);

    // Without --oauth basic, a bearer token is refused, over HTTPS too.
    let off = https_server(OAuth::Off);
    let refused = send(&off, true, "GET", "/devstoreaccount1/Tables", &good, b"");
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(refused.error_code(), "AuthenticationFailed");
    assert!(refused.body.contains("--oauth basic"), "{}", refused.body);
    // SharedKey still works beside it.
    let signed = over_tls(
        &server,
        request_bytes(
            &server,
            "GET",
            "/devstoreaccount1/Tables",
            &json_type,
            b"",
            true,
        ),
    );
    assert_eq!(signed.status, 200, "{}", signed.body);
}

//! table-server's request handling as a whole, in process: routing, authentication, the
//! operations, `$batch`, ACLs and service properties, CORS, the answer's headers.
//!
//! The input is one or more requests as text, separated by a line `~~~~`:
//!
//! ```text
//! METHOD /devstoreaccount1/path?query
//! Header: value
//!
//! body
//! ```
//!
//! A request without an `Authorization` header and without a SAS (`sig=`) is signed with
//! SharedKeyLite for the emulator's account, so the fuzzer reaches past authentication; a SAS
//! whose signature is `sig=SIGN` gets the signature its fields need, so table and account SAS
//! scopes (permissions, key ranges) are reached too. Each
//! input starts from a fresh server that holds table `tab` with one entity. The server must
//! answer every request, never with 500, and with an error body it can read back; a request
//! refused (4xx, or a `$batch` whose answer holds a failed operation) must leave the entities
//! of `tab` as they were: nothing half-written.
#![no_main]

use std::net::{IpAddr, Ipv4Addr};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use libfuzzer_sys::fuzz_target;
use table_http::auth::{canonicalized_resource, http_date};
use table_http::connection::{AccountKey, DEV_ACCOUNT_KEY};
use table_server::{Config, InProcess};

const HOST: &str = "127.0.0.1:10002";

thread_local! {
    static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    static KEY: AccountKey = AccountKey::from_base64(DEV_ACCOUNT_KEY).unwrap();
}

/// One request read from the input's text; `None` when hyper could not have received it.
fn request(text: &[u8]) -> Option<Request<Full<Bytes>>> {
    let (head, body) = match text.windows(2).position(|w| w == b"\n\n") {
        Some(i) => (&text[..i], &text[i + 2..]),
        None => (text, &[][..]),
    };
    let head = std::str::from_utf8(head).ok()?;
    let mut lines = head.lines();
    let (method, target) = lines.next()?.split_once(' ')?;
    let signed_sas;
    let target = if target.contains("sig=SIGN") {
        signed_sas = sign_sas(target)?;
        signed_sas.as_str()
    } else {
        target
    };
    let mut builder = Request::builder()
        .method(hyper::Method::from_bytes(method.as_bytes()).ok()?)
        .uri(target.parse::<hyper::Uri>().ok()?);
    let mut signed = false;
    let mut host = false;
    for line in lines {
        let (name, value) = line.split_once(':')?;
        let name = hyper::header::HeaderName::from_bytes(name.trim().as_bytes()).ok()?;
        let value = hyper::header::HeaderValue::from_str(value.trim()).ok()?;
        signed |= name == hyper::header::AUTHORIZATION;
        host |= name == hyper::header::HOST;
        builder = builder.header(name, value);
    }
    if !host {
        builder = builder.header("host", HOST);
    }
    let mut request = builder.body(Full::new(Bytes::copy_from_slice(body))).ok()?;
    let query = request.uri().query().map(str::to_owned);
    if !signed && !query.as_deref().unwrap_or("").contains("sig=") {
        sign(&mut request);
    }
    Some(request)
}

/// The path and query with `sig=SIGN` replaced by the SAS's real signature.
fn sign_sas(target: &str) -> Option<String> {
    let uri = target
        .replace("sig=SIGN", "sig=x")
        .parse::<hyper::Uri>()
        .ok()?;
    let t = table_server::route::target(uri.path(), uri.query(), Some(HOST), "http").ok()?;
    let token = table_http::sas::SasToken::parse(&t.raw_query).ok()?;
    let signature = KEY
        .with(|key| table_http::auth::hmac_sha256_base64(key, &token.string_to_sign(&t.account)));
    let encoded =
        percent_encoding::utf8_percent_encode(&signature, percent_encoding::NON_ALPHANUMERIC);
    Some(target.replace("sig=SIGN", &format!("sig={encoded}")))
}

/// Signs with SharedKeyLite as a client would: the date and the canonicalized resource.
fn sign(request: &mut Request<Full<Bytes>>) {
    let host = request
        .headers()
        .get("host")
        .and_then(|h| h.to_str().ok())
        .map(str::to_owned);
    let Ok(target) = table_server::route::target(
        request.uri().path(),
        request.uri().query(),
        host.as_deref(),
        "http",
    ) else {
        return;
    };
    let date = http_date(time::OffsetDateTime::now_utc());
    let text = format!(
        "{date}\n{}",
        canonicalized_resource(&target.account, &target.raw_path, target.param("comp"))
    );
    let signature = KEY.with(|key| table_http::auth::hmac_sha256_base64(key, &text));
    let headers = request.headers_mut();
    if !headers.contains_key("x-ms-date") {
        headers.insert("x-ms-date", date.parse().unwrap());
    }
    if let Ok(value) = format!("SharedKeyLite {}:{signature}", target.account).parse() {
        headers.insert("authorization", value);
    }
}

async fn send(server: &InProcess, request: Request<Full<Bytes>>) -> (u16, Vec<u8>) {
    let peer = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let response = server.handle(request, peer).await;
    let status = response.status().as_u16();
    let is_error = response.headers().contains_key("x-ms-error-code");
    let body = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    if is_error && !body.is_empty() {
        // An error answer carries the service's error document.
        serde_json::from_slice::<serde_json::Value>(&body).unwrap_or_else(|e| {
            panic!(
                "error body is not JSON ({e}): {}",
                String::from_utf8_lossy(&body)
            )
        });
    }
    (status, body)
}

fn setup() -> InProcess {
    let (server, _) = InProcess::new(Config::development()).unwrap();
    let steps: [&[u8]; 2] = [
        b"POST /devstoreaccount1/Tables\ncontent-type: application/json\n\n{\"TableName\":\"tab\"}",
        b"POST /devstoreaccount1/tab\ncontent-type: application/json\n\n{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"A\":1,\"S\":\"x\"}",
    ];
    RUNTIME.with(|rt| {
        rt.block_on(async {
            for step in steps {
                let (status, body) = send(&server, request(step).unwrap()).await;
                assert!(
                    status < 300,
                    "setup: {status} {}",
                    String::from_utf8_lossy(&body)
                );
            }
        })
    });
    server
}

/// Every entity of `tab`, as the server lists them (all pages).
async fn contents(server: &InProcess) -> Vec<u8> {
    let mut all = Vec::new();
    let mut next: Option<(String, String)> = None;
    for _ in 0..100 {
        let path = match &next {
            None => "/devstoreaccount1/tab()".to_owned(),
            Some((pk, rk)) => {
                format!("/devstoreaccount1/tab()?NextPartitionKey={pk}&NextRowKey={rk}")
            }
        };
        let request = request(
            format!("GET {path}\naccept: application/json;odata=fullmetadata\n\n").as_bytes(),
        )
        .unwrap();
        let peer = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let response = server.handle(request, peer).await;
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(|v| {
                    percent_encoding::utf8_percent_encode(v, percent_encoding::NON_ALPHANUMERIC)
                        .to_string()
                })
        };
        next = header("x-ms-continuation-NextPartitionKey")
            .zip(header("x-ms-continuation-NextRowKey"));
        if !response.status().is_success() {
            // The table is gone (a DELETE that succeeded): nothing to compare.
            return Vec::new();
        }
        all.extend(response.into_body().collect().await.unwrap().to_bytes());
        if next.is_none() {
            break;
        }
    }
    all
}

fuzz_target!(|data: &[u8]| {
    let server = setup();
    RUNTIME.with(|rt| {
        rt.block_on(async {
            for text in data.split_inner(b"\n~~~~\n").into_iter().take(8) {
                let Some(request) = request(text) else {
                    continue;
                };
                let before = contents(&server).await;
                let (status, body) = send(&server, request).await;
                if std::env::var_os("FUZZ_SHOW").is_some() {
                    eprintln!("{status} {}", String::from_utf8_lossy(&body));
                }
                assert_ne!(
                    status,
                    500,
                    "answered 500: {}\nto:\n{}",
                    String::from_utf8_lossy(&body),
                    String::from_utf8_lossy(text)
                );
                let batch_failed = status == 202
                    && body.windows(10).any(|w| w == b"HTTP/1.1 4" || w == b"HTTP/1.1 5");
                if status >= 400 || batch_failed {
                    let after = contents(&server).await;
                    assert!(
                        before == after,
                        "refused ({status}) but `tab` changed:\n{}\nto:\n{}\nrequest:\n{}\nanswer:\n{}",
                        String::from_utf8_lossy(&before),
                        String::from_utf8_lossy(&after),
                        String::from_utf8_lossy(text),
                        String::from_utf8_lossy(&body)
                    );
                }
            }
        })
    });
});

trait SplitInner {
    fn split_inner<'a>(&'a self, separator: &'a [u8]) -> Vec<&'a [u8]>;
}

impl SplitInner for [u8] {
    fn split_inner<'a>(&'a self, separator: &'a [u8]) -> Vec<&'a [u8]> {
        let mut pieces = Vec::new();
        let mut rest = self;
        while let Some(i) = rest.windows(separator.len()).position(|w| w == separator) {
            pieces.push(&rest[..i]);
            rest = &rest[i + separator.len()..];
        }
        pieces.push(rest);
        pieces
    }
}

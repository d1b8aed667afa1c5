//! The HTTP machinery shared by the table backend, the queue and the blob clients: a hyper
//! client on a small Tokio runtime the client owns, request signing, and retries.
//!
//! Requests run on the owned runtime, so the futures of [`Transport::send`] can be awaited
//! from any executor (Tokio, `pollster::block_on`, …). Each [`Call`] says whether it may be
//! sent again after a failure that leaves its outcome unknown ([`Repeat`]); what that means
//! for each operation is decided (and documented) where the call is made.
//!
//! Two dialects share this code: the Table service's (JSON, its own SharedKey string) and the
//! Blob and Queue services' (their SharedKey string over all standard and `x-ms-*` headers).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::header::{HeaderMap, HeaderName, HeaderValue};
use hyper::{Method, Request};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};

use crate::auth;
use crate::connection::{Connection, ConnectionError, Credential, Scheme};
use crate::retry::RetryPolicy;
use crate::wire::encode;

/// The Table service's REST API version, sent with every table request.
pub const API_VERSION: &str = "2019-02-02";

/// The Blob and Queue services' REST API version, sent with every blob and queue request.
pub const STORAGE_API_VERSION: &str = "2021-08-06";

const USER_AGENT: &str = concat!("table-http/", env!("CARGO_PKG_VERSION"));
const ACCEPT_JSON: &str = "application/json;odata=minimalmetadata";

#[cfg(feature = "tls")]
type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
#[cfg(not(feature = "tls"))]
type Connector = HttpConnector;

/// Settings of the HTTP clients ([`crate::HttpBackend`], [`crate::queue::AzureQueue`],
/// [`crate::blob::AzureBlobs`]) beyond their connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// When failed requests are repeated.
    pub retry: RetryPolicy,
    /// Threads of the client's own I/O runtime (at least 1).
    pub io_threads: usize,
}

impl Default for HttpOptions {
    /// The default retry policy and one I/O thread.
    fn default() -> HttpOptions {
        HttpOptions {
            retry: RetryPolicy::default(),
            io_threads: 1,
        }
    }
}

/// Which service's conventions a transport follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// The Table service: JSON, and the Table service's SharedKey string.
    Table,
    /// The Blob and Queue services: XML, and their SharedKey string.
    Storage,
}

/// Sends calls to one endpoint. Cloning is cheap: clones share the connection pool and the
/// I/O runtime.
#[derive(Clone)]
pub(crate) struct Transport {
    inner: Arc<Inner>,
    runtime: Arc<OwnedRuntime>,
}

struct Inner {
    connection: Connection,
    client: Client<Connector, Full<Bytes>>,
    retry: RetryPolicy,
    dialect: Dialect,
}

/// The client's runtime; shut down without waiting, so that dropping the last clone inside
/// another runtime's task is allowed.
struct OwnedRuntime(Option<tokio::runtime::Runtime>);

impl Drop for OwnedRuntime {
    fn drop(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

impl OwnedRuntime {
    fn handle(&self) -> Option<&tokio::runtime::Handle> {
        self.0.as_ref().map(tokio::runtime::Runtime::handle)
    }
}

/// Whether a request may be sent again after a failure that leaves its outcome unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Repeat {
    /// Repeating it cannot change the outcome (reads, upserts, writes under `If-Match: *`).
    Safe,
    /// Only when the connection could not be opened (nothing reached the service).
    ConnectFailuresOnly,
}

/// One request, relative to the endpoint.
pub(crate) struct Call {
    pub method: Method,
    /// The encoded path after the endpoint's base path, starting with `/`.
    pub path: String,
    /// The query parameters, values not yet encoded (the SAS is added when sending).
    pub params: Vec<(String, String)>,
    pub content_type: Option<String>,
    pub headers: Vec<(HeaderName, String)>,
    pub body: Bytes,
    pub repeat: Repeat,
}

impl Call {
    pub fn new(method: Method, path: String, repeat: Repeat) -> Call {
        Call {
            method,
            path,
            params: Vec::new(),
            content_type: None,
            headers: Vec::new(),
            body: Bytes::new(),
            repeat,
        }
    }

    /// Adds a query parameter (its value is encoded when the URL is written).
    pub fn param(mut self, name: &str, value: &str) -> Call {
        self.params.push((name.to_owned(), value.to_owned()));
        self
    }

    pub fn header(mut self, name: HeaderName, value: String) -> Call {
        self.headers.push((name, value));
        self
    }

    pub fn body(mut self, content_type: &str, body: impl Into<Bytes>) -> Call {
        self.content_type = Some(content_type.to_owned());
        self.body = body.into();
        self
    }

    /// The encoded query string, without `?` and without the SAS.
    fn query(&self) -> String {
        let mut query = String::new();
        for (name, value) in &self.params {
            if !query.is_empty() {
                query.push('&');
            }
            query.push_str(name);
            query.push('=');
            query.push_str(&encode(value));
        }
        query
    }
}

/// A whole answer: status, headers and body.
pub(crate) struct Answer {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Bytes,
    /// Whether an earlier attempt of the same call may have reached the service (it was sent,
    /// and then the answer was lost, late, or a transient error): the service may have acted
    /// on the call before this answer.
    pub repeated: bool,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// No answer: the connection failed or timed out, or the answer could not be read. The text
/// names the request, the cause and the number of attempts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unanswered(pub String);

/// Awaits a spawned task and aborts it when dropped first.
struct Task<T>(tokio::task::JoinHandle<T>);

impl<T> Future for Task<T> {
    type Output = Result<T, Unanswered>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0)
            .poll(cx)
            .map(|r| r.map_err(|e| Unanswered(format!("the request task failed: {e}"))))
    }
}

impl<T> Drop for Task<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Transport {
    pub fn new(
        connection: Connection,
        options: HttpOptions,
        dialect: Dialect,
    ) -> Result<Transport, ConnectionError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(options.io_threads.max(1))
            .thread_name("table-http-io")
            .enable_all()
            .build()
            .map_err(|e| ConnectionError(format!("cannot start the I/O runtime: {e}")))?;
        let client = Client::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .pool_idle_timeout(std::time::Duration::from_secs(4))
            .build(connector(connection.endpoint.scheme)?);
        Ok(Transport {
            inner: Arc::new(Inner {
                connection,
                client,
                retry: options.retry,
                dialect,
            }),
            runtime: Arc::new(OwnedRuntime(Some(runtime))),
        })
    }

    /// The connection the calls go to.
    pub fn connection(&self) -> &Connection {
        &self.inner.connection
    }

    /// The retry policy in force.
    pub fn retry(&self) -> &RetryPolicy {
        &self.inner.retry
    }

    /// [`Transport::send`], with no answer turned into the caller's error.
    pub fn send_or<E>(
        &self,
        call: Call,
        unanswered: fn(String) -> E,
    ) -> impl Future<Output = Result<Answer, E>> + Send {
        let answer = self.send(call);
        async move { answer.await.map_err(|Unanswered(why)| unanswered(why)) }
    }

    /// Sends a call on the client's runtime (with retries), and waits for the whole answer.
    pub fn send(&self, call: Call) -> impl Future<Output = Result<Answer, Unanswered>> + Send {
        let inner = Arc::clone(&self.inner);
        // The future keeps the runtime alive until it has its answer.
        let runtime = Arc::clone(&self.runtime);
        async move {
            let Some(handle) = runtime.handle() else {
                return Err(Unanswered("the client's I/O runtime is gone".into()));
            };
            let task = Task(handle.spawn(inner.execute(call)));
            task.await?
        }
    }
}

#[cfg(feature = "tls")]
fn connector(_scheme: Scheme) -> Result<Connector, ConnectionError> {
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    http.set_nodelay(true);
    let builder = hyper_rustls::HttpsConnectorBuilder::new()
        .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
        .map_err(|e| ConnectionError(format!("cannot set up TLS: {e}")))?;
    Ok(builder.https_or_http().enable_http1().wrap_connector(http))
}

#[cfg(not(feature = "tls"))]
fn connector(scheme: Scheme) -> Result<Connector, ConnectionError> {
    if scheme == Scheme::Https {
        return Err(ConnectionError(
            "https endpoints need table-http's `tls` feature".into(),
        ));
    }
    let mut http = HttpConnector::new();
    http.set_nodelay(true);
    Ok(http)
}

impl Inner {
    /// Runs a call with the retry policy: transient failures are retried when the call is safe
    /// to repeat, connection failures always.
    async fn execute(self: Arc<Inner>, call: Call) -> Result<Answer, Unanswered> {
        let mut retry = 0;
        // Whether an attempt so far may have reached the service.
        let mut reached = false;
        loop {
            let outcome =
                tokio::time::timeout(self.retry.attempt_timeout, self.attempt(&call)).await;
            // Whether to try again, why not, and whether this attempt may have reached the
            // service (everything but a connection that could not be opened).
            let (transient, error, sent) = match outcome {
                Ok(Ok(mut answer)) => {
                    if matches!(answer.status, 408 | 500 | 502 | 503 | 504)
                        && call.repeat == Repeat::Safe
                        && retry < self.retry.max_retries
                    {
                        (true, None, true)
                    } else {
                        answer.repeated = reached;
                        return Ok(answer);
                    }
                }
                Ok(Err(Failure::Connect(message))) => (true, Some(message), false),
                Ok(Err(Failure::Other(message))) => {
                    (call.repeat == Repeat::Safe, Some(message), true)
                }
                Ok(Err(Failure::Request(message))) => (false, Some(message), false),
                Err(_) => (
                    call.repeat == Repeat::Safe,
                    Some(format!("no answer within {:?}", self.retry.attempt_timeout)),
                    true,
                ),
            };
            if !transient || retry >= self.retry.max_retries {
                let message = error.unwrap_or_default();
                let tries = if retry > 0 {
                    format!(" (after {} attempts)", retry + 1)
                } else {
                    String::new()
                };
                return Err(Unanswered(format!(
                    "{} {}: {message}{tries}",
                    call.method,
                    self.connection.endpoint.url(&call.path)
                )));
            }
            reached |= sent;
            tokio::time::sleep(self.retry.delay(retry)).await;
            retry += 1;
        }
    }

    /// One attempt: sign, send, read the whole answer.
    async fn attempt(&self, call: &Call) -> Result<Answer, Failure> {
        let request = self.request(call).map_err(Failure::Request)?;
        let response = self.client.request(request).await.map_err(|e| {
            let message = error_chain(&e);
            if e.is_connect() {
                Failure::Connect(message)
            } else {
                Failure::Other(message)
            }
        })?;
        let (parts, body) = response.into_parts();
        let body = body
            .collect()
            .await
            .map_err(|e| Failure::Other(error_chain(&e)))?
            .to_bytes();
        Ok(Answer {
            status: parts.status.as_u16(),
            headers: parts.headers,
            body,
            repeated: false,
        })
    }

    fn request(&self, call: &Call) -> Result<Request<Full<Bytes>>, String> {
        let connection = &self.connection;
        let endpoint = &connection.endpoint;
        let mut url = endpoint.url(&call.path);
        let mut query = call.query();
        if let Credential::Sas(sas) = &connection.credential {
            if !query.is_empty() {
                query.push('&');
            }
            query.push_str(sas);
        }
        if !query.is_empty() {
            url.push('?');
            url.push_str(&query);
        }
        let date = auth::http_date(time::OffsetDateTime::now_utc());
        // Every header sent, in order; the Blob and Queue services sign most of them.
        let mut headers: Vec<(&str, String)> = Vec::with_capacity(8 + call.headers.len());
        match self.dialect {
            Dialect::Table => {
                headers.push(("accept", ACCEPT_JSON.to_owned()));
                headers.push(("x-ms-version", API_VERSION.to_owned()));
                headers.push(("dataserviceversion", "3.0".to_owned()));
                headers.push(("maxdataserviceversion", "3.0;NetFx".to_owned()));
            }
            Dialect::Storage => {
                headers.push(("x-ms-version", STORAGE_API_VERSION.to_owned()));
                headers.push(("content-length", call.body.len().to_string()));
            }
        }
        headers.push(("x-ms-date", date.clone()));
        headers.push(("user-agent", USER_AGENT.to_owned()));
        if let Some(content_type) = &call.content_type {
            headers.push(("content-type", content_type.clone()));
        }
        for (name, value) in &call.headers {
            headers.push((name.as_str(), value.clone()));
        }
        if let Credential::SharedKey(key) = &connection.credential {
            let path = format!("{}{}", endpoint.base_path, call.path);
            let text = match self.dialect {
                Dialect::Table => auth::string_to_sign(
                    call.method.as_str(),
                    "",
                    call.content_type.as_deref().unwrap_or(""),
                    &date,
                    &auth::canonicalized_resource(&connection.account, &path, None),
                ),
                Dialect::Storage => {
                    let params: Vec<(&str, &str)> = call
                        .params
                        .iter()
                        .map(|(n, v)| (n.as_str(), v.as_str()))
                        .collect();
                    let resource =
                        auth::storage_canonicalized_resource(&connection.account, &path, &params);
                    let signed: Vec<(&str, &str)> =
                        headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
                    auth::storage_string_to_sign(call.method.as_str(), &signed, &resource)
                }
            };
            headers.push((
                "authorization",
                auth::authorization(&connection.account, key, &text),
            ));
        }
        let mut builder = Request::builder().method(call.method.clone()).uri(&url);
        for (name, value) in headers {
            let value = HeaderValue::from_str(&value)
                .map_err(|_| format!("header {name} cannot carry `{value}`"))?;
            builder = builder.header(name, value);
        }
        builder
            .body(Full::new(call.body.clone()))
            .map_err(|e| format!("cannot build the request for `{url}`: {e}"))
    }
}

/// Why an attempt got no answer.
enum Failure {
    /// The connection could not be opened: nothing was sent.
    Connect(String),
    /// The connection broke or the answer could not be read: the outcome is unknown.
    Other(String),
    /// The request itself could not be built; retrying will not help.
    Request(String),
}

fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}

/// A fake HTTP service for the unit tests of the clients built on the transport.
#[cfg(test)]
pub(crate) mod testing {
    use std::sync::Arc;

    /// What the fake service does with one request.
    #[derive(Clone, Copy)]
    pub(crate) enum Reply {
        /// Answer with this status and body.
        Status(u16, &'static str),
        /// Answer with this status, these extra header lines (each ending in `\r\n`) and body.
        With(u16, &'static str, &'static str),
        /// Read the request, then close the connection without answering.
        Close,
        /// Read the request and say nothing for a second.
        Silent,
    }

    /// A one-request-per-connection HTTP server following `script`; returns its port and the
    /// count of requests it read.
    pub(crate) fn fake_service(script: Vec<Reply>) -> (u16, Arc<std::sync::atomic::AtomicUsize>) {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let count = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let seen = Arc::clone(&count);
        std::thread::spawn(move || {
            for reply in script {
                let Ok((mut stream, _)) = listener.accept() else {
                    return;
                };
                let mut request = Vec::new();
                let mut buf = [0u8; 4096];
                while let Ok(n) = stream.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    request.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&request).to_string();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let length = text
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        if request.len() >= end + 4 + length {
                            break;
                        }
                    }
                }
                seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                match reply {
                    Reply::Status(status, body) => {
                        let _ = write!(
                            stream,
                            "HTTP/1.1 {status} X\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                            body.len()
                        );
                    }
                    Reply::With(status, headers, body) => {
                        let _ = write!(
                            stream,
                            "HTTP/1.1 {status} X\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n{body}",
                            body.len()
                        );
                    }
                    Reply::Close => drop(stream),
                    Reply::Silent => {
                        std::thread::spawn(move || {
                            std::thread::sleep(std::time::Duration::from_secs(2));
                            drop(stream);
                        });
                    }
                }
            }
        });
        (port, count)
    }
}

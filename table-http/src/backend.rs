//! [`HttpBackend`]: the Table service's REST API (JSON, api-version 2019-02-02) behind the
//! [`Backend`] trait, so code written against the in-process store runs against Azure Table
//! Storage, the Cosmos DB Table API or the Azurite emulator unchanged.
//!
//! Requests run on a small Tokio runtime the backend owns, so its futures can be awaited from
//! any executor (Tokio, `pollster::block_on`, …). Answers are read into the same
//! [`StoreError`] the in-process store returns: the HTTP status and the service's error code.
//! A query page's [`QueryStats`] count the entities returned as examined: the service does not
//! say how many it read. A delete's [`WriteResult`] carries the time of the service's answer
//! (its `Date` header) and an ETag made from it: nothing is left for the service to version.
//!
//! Given a SAS that states its scope (a table SAS; see [`crate::sas::scope_of_token`]), the
//! backend checks every request against that scope before sending it, with the checks the
//! in-process store applies ([`Scoped`]): a request the SAS does not allow is refused with the
//! service's 403 code and never sent, and a query is limited to the SAS's key range. So a SAS's
//! limits hold even against a server that does not check them all (Azurite ignores key ranges).
//! The time window is checked against this machine's clock: one running ahead of the
//! service's refuses a request just before the SAS's expiry that the service would still have
//! served, and one running behind, a request just after its start.

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
use serde_json::Value as Json;
use table_runtime::batch::BatchOperation;
use table_runtime::query::Query;
use table_runtime::sas::{SasScope, Scoped};
use table_runtime::store::{BatchResult, QueryPage, QueryStats, TablePage, WriteResult};
use table_runtime::{Backend, Continuation, DateTime, ETag, Entity, IfMatch, StoreError};

use crate::auth;
use crate::connection::{Connection, ConnectionError, Credential, Scheme};
use crate::retry::RetryPolicy;
use crate::wire::{self, encode, protocol_error};

/// The REST API version sent with every request.
pub const API_VERSION: &str = "2019-02-02";

const USER_AGENT: &str = concat!("table-http/", env!("CARGO_PKG_VERSION"));
const ACCEPT_JSON: &str = "application/json;odata=minimalmetadata";
const CONTENT_JSON: &str = "application/json";
/// The most entities one query page holds.
const MAX_PAGE: usize = 1000;

#[cfg(feature = "tls")]
type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
#[cfg(not(feature = "tls"))]
type Connector = HttpConnector;

/// Settings of an [`HttpBackend`] beyond its connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// When failed requests are repeated.
    pub retry: RetryPolicy,
    /// Threads of the backend's own I/O runtime (at least 1).
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

/// A Table service reached over HTTP, authenticated with SharedKey or a SAS.
///
/// With a SAS that states its scope, every request is first checked against it on the client
/// (see the [module documentation](self)); [`HttpBackend::sas_scope`] shows the scope enforced.
///
/// Cloning is cheap: clones share the connection pool and the I/O runtime.
///
/// ```no_run
/// use table_http::HttpBackend;
/// use table_runtime::{Backend, Entity};
///
/// let backend = HttpBackend::from_connection_string("UseDevelopmentStorage=true").unwrap();
/// pollster::block_on(async {
///     backend.create_table("Orders").await.unwrap();
///     let op = table_runtime::BatchOperation::Insert(Entity::new("c1", "o1").with("Total", 12.5));
///     let written = backend.write("Orders", op).await.unwrap();
///     let read = backend.get("Orders", "c1", "o1", None).await.unwrap();
///     assert_eq!(read.etag, Some(written.etag));
/// });
/// ```
#[derive(Clone)]
pub struct HttpBackend {
    access: Access,
}

/// How requests reach the transport: directly, or through the checks of a SAS's scope.
#[derive(Clone)]
enum Access {
    /// SharedKey, or a SAS that does not state its scope: the service alone decides.
    Direct(Transport),
    /// A SAS whose scope is checked on the client first.
    Checked(Scoped<Transport>),
}

impl std::fmt::Debug for HttpBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let transport = self.transport();
        f.debug_struct("HttpBackend")
            .field("connection", &transport.inner.connection)
            .field("retry", &transport.inner.retry)
            .field("sas_scope", &self.sas_scope())
            .finish_non_exhaustive()
    }
}

/// The HTTP requests themselves, with no check of a SAS's scope.
#[derive(Clone)]
struct Transport {
    inner: Arc<Inner>,
    runtime: Arc<OwnedRuntime>,
}

struct Inner {
    connection: Connection,
    client: Client<Connector, Full<Bytes>>,
    retry: RetryPolicy,
}

/// The backend's runtime; shut down without waiting, so that dropping the last clone inside
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
enum Repeat {
    /// Repeating it cannot change the outcome (reads, upserts, writes under `If-Match: *`).
    Safe,
    /// Only when the connection could not be opened (nothing reached the service).
    ConnectFailuresOnly,
}

/// One request, relative to the endpoint.
struct Call {
    method: Method,
    /// The encoded path after the endpoint's base path, starting with `/`.
    path: String,
    /// The encoded query string (without `?` and without the SAS).
    query: String,
    content_type: Option<String>,
    headers: Vec<(HeaderName, String)>,
    body: Bytes,
    repeat: Repeat,
}

impl Call {
    fn new(method: Method, path: String, repeat: Repeat) -> Call {
        Call {
            method,
            path,
            query: String::new(),
            content_type: None,
            headers: Vec::new(),
            body: Bytes::new(),
            repeat,
        }
    }

    fn param(mut self, name: &str, value: &str) -> Call {
        if !self.query.is_empty() {
            self.query.push('&');
        }
        self.query.push_str(name);
        self.query.push('=');
        self.query.push_str(&encode(value));
        self
    }

    fn header(mut self, name: HeaderName, value: String) -> Call {
        self.headers.push((name, value));
        self
    }

    fn json(mut self, body: Vec<u8>) -> Call {
        self.content_type = Some(CONTENT_JSON.to_owned());
        self.body = Bytes::from(body);
        self
    }
}

/// A whole answer: status, headers and body.
struct Answer {
    status: u16,
    headers: HeaderMap,
    body: Bytes,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The answer as an error, unless its status is one of `ok`.
    fn expect(self, ok: &[u16]) -> Result<Answer, StoreError> {
        if ok.contains(&self.status) {
            Ok(self)
        } else {
            Err(wire::service_error(
                self.status,
                self.header("x-ms-error-code"),
                &self.body,
            ))
        }
    }

    fn json(&self) -> Result<Json, StoreError> {
        serde_json::from_slice(&self.body).map_err(|e| {
            protocol_error(format!(
                "the service's answer ({}) is not JSON: {e}",
                self.status
            ))
        })
    }

    /// The ETag and Timestamp of a write: the Timestamp read from the ETag, else the answer's
    /// `Date`, else now.
    fn write_result(&self) -> WriteResult {
        let etag = self.header("etag").map(ETag::from_raw);
        let timestamp = etag
            .as_ref()
            .and_then(ETag::timestamp)
            .or_else(|| self.header("date").and_then(parse_http_date))
            .unwrap_or_else(DateTime::now);
        WriteResult {
            etag: etag.unwrap_or_else(|| ETag::for_timestamp(timestamp)),
            timestamp,
        }
    }
}

fn parse_http_date(text: &str) -> Option<DateTime> {
    let format = time::format_description::parse_borrowed::<2>(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT",
    )
    .ok()?;
    let parsed = time::PrimitiveDateTime::parse(text, &format).ok()?;
    DateTime::from_offset_date_time(parsed.assume_utc()).ok()
}

/// Awaits a spawned task and aborts it when dropped first.
struct Task<T>(tokio::task::JoinHandle<T>);

impl<T> Future for Task<T> {
    type Output = Result<T, StoreError>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0)
            .poll(cx)
            .map(|r| r.map_err(|e| protocol_error(format!("the request task failed: {e}"))))
    }
}

impl<T> Drop for Task<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl HttpBackend {
    /// A backend for a connection string or SAS URL (see [`Connection::parse`]).
    pub fn from_connection_string(text: &str) -> Result<HttpBackend, ConnectionError> {
        HttpBackend::new(Connection::parse(text)?)
    }

    /// A backend for a parsed connection, with default options.
    pub fn new(connection: Connection) -> Result<HttpBackend, ConnectionError> {
        HttpBackend::with_options(connection, HttpOptions::default())
    }

    /// A backend for a parsed connection.
    ///
    /// With a SAS credential, the token's scope is read here ([`crate::sas::scope_of_token`]);
    /// a token whose fields cannot be read is an error.
    pub fn with_options(
        connection: Connection,
        options: HttpOptions,
    ) -> Result<HttpBackend, ConnectionError> {
        let scope = match &connection.credential {
            Credential::Sas(token) => {
                crate::sas::scope_of_token(token).map_err(|e| ConnectionError(e.to_string()))?
            }
            Credential::SharedKey(_) => None,
        };
        let transport = Transport::new(connection, options)?;
        Ok(HttpBackend {
            access: match scope {
                Some(scope) => Access::Checked(Scoped::new(transport, scope)),
                None => Access::Direct(transport),
            },
        })
    }

    /// The scope of the SAS checked on the client before each request, if any: `None` with
    /// SharedKey, or with a SAS that does not state its scope (an account SAS, say).
    pub fn sas_scope(&self) -> Option<&SasScope> {
        match &self.access {
            Access::Direct(_) => None,
            Access::Checked(scoped) => Some(scoped.scope()),
        }
    }

    /// The connection this backend talks to.
    pub fn connection(&self) -> &Connection {
        &self.transport().inner.connection
    }

    /// The retry policy in force.
    pub fn retry_policy(&self) -> &RetryPolicy {
        &self.transport().inner.retry
    }

    fn transport(&self) -> &Transport {
        match &self.access {
            Access::Direct(transport) => transport,
            Access::Checked(scoped) => scoped.inner(),
        }
    }
}

impl Transport {
    fn new(connection: Connection, options: HttpOptions) -> Result<Transport, ConnectionError> {
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
            }),
            runtime: Arc::new(OwnedRuntime(Some(runtime))),
        })
    }

    /// Sends a request on the backend's runtime (with retries), and waits for the whole answer.
    fn send(&self, call: Call) -> impl Future<Output = Result<Answer, StoreError>> + Send {
        let inner = Arc::clone(&self.inner);
        // The future keeps the runtime alive until it has its answer.
        let runtime = Arc::clone(&self.runtime);
        async move {
            let Some(handle) = runtime.handle() else {
                return Err(protocol_error("the backend's I/O runtime is gone"));
            };
            let task = Task(handle.spawn(inner.execute(call)));
            task.await?
        }
    }

    fn table_url(&self, table: &str) -> String {
        self.inner
            .connection
            .endpoint
            .url(&format!("/{}", encode(table)))
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
    async fn execute(self: Arc<Inner>, call: Call) -> Result<Answer, StoreError> {
        let mut retry = 0;
        loop {
            let outcome =
                tokio::time::timeout(self.retry.attempt_timeout, self.attempt(&call)).await;
            let (transient, error) = match outcome {
                Ok(Ok(answer)) => {
                    if matches!(answer.status, 408 | 500 | 502 | 503 | 504)
                        && call.repeat == Repeat::Safe
                        && retry < self.retry.max_retries
                    {
                        (true, None)
                    } else {
                        return Ok(answer);
                    }
                }
                Ok(Err(Failure::Connect(message))) => (true, Some(message)),
                Ok(Err(Failure::Other(message))) => (call.repeat == Repeat::Safe, Some(message)),
                Ok(Err(Failure::Request(message))) => (false, Some(message)),
                Err(_) => (
                    call.repeat == Repeat::Safe,
                    Some(format!("no answer within {:?}", self.retry.attempt_timeout)),
                ),
            };
            if !transient || retry >= self.retry.max_retries {
                let message = error.unwrap_or_default();
                let tries = if retry > 0 {
                    format!(" (after {} attempts)", retry + 1)
                } else {
                    String::new()
                };
                return Err(protocol_error(format!(
                    "{} {}: {message}{tries}",
                    call.method,
                    self.connection.endpoint.url(&call.path)
                )));
            }
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
        })
    }

    fn request(&self, call: &Call) -> Result<Request<Full<Bytes>>, String> {
        let connection = &self.connection;
        let endpoint = &connection.endpoint;
        let mut url = endpoint.url(&call.path);
        let mut query = call.query.clone();
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
        let mut builder = Request::builder()
            .method(call.method.clone())
            .uri(&url)
            .header("accept", ACCEPT_JSON)
            .header("x-ms-version", API_VERSION)
            .header("dataserviceversion", "3.0")
            .header("maxdataserviceversion", "3.0;NetFx")
            .header("x-ms-date", &date)
            .header("user-agent", USER_AGENT);
        if let Some(content_type) = &call.content_type {
            builder = builder.header("content-type", content_type);
        }
        for (name, value) in &call.headers {
            let value = HeaderValue::from_str(value)
                .map_err(|_| format!("header {name} cannot carry `{value}`"))?;
            builder = builder.header(name, value);
        }
        if let Credential::SharedKey(key) = &connection.credential {
            let path = format!("{}{}", endpoint.base_path, call.path);
            let resource = auth::canonicalized_resource(&connection.account, &path, None);
            let text = auth::string_to_sign(
                call.method.as_str(),
                "",
                call.content_type.as_deref().unwrap_or(""),
                &date,
                &resource,
            );
            builder = builder.header(
                "authorization",
                auth::authorization(&connection.account, key, &text),
            );
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

fn write_repeat(op: &BatchOperation) -> Repeat {
    match op {
        BatchOperation::UpsertReplace(_) | BatchOperation::UpsertMerge(_) => Repeat::Safe,
        BatchOperation::Replace(_, IfMatch::Any)
        | BatchOperation::Merge(_, IfMatch::Any)
        | BatchOperation::Delete {
            if_match: IfMatch::Any,
            ..
        } => Repeat::Safe,
        _ => Repeat::ConnectFailuresOnly,
    }
}

fn if_match(call: Call, condition: &IfMatch) -> Call {
    call.header(
        HeaderName::from_static("if-match"),
        wire::if_match_header(condition),
    )
}

/// The `$select` list sent for a projection: the named properties plus the keys and
/// Timestamp, which every returned entity carries (as the in-process store's do).
fn select_list<S: AsRef<str>>(select: &[S]) -> String {
    let mut names: Vec<&str> = vec!["PartitionKey", "RowKey", "Timestamp"];
    for name in select.iter().map(AsRef::as_ref) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.join(",")
}

/// Calls the same method on the transport, directly or through the SAS's checks.
macro_rules! dispatch {
    ($self:ident, $backend:ident => $call:expr) => {
        match &$self.access {
            Access::Direct($backend) => $call.await,
            Access::Checked($backend) => $call.await,
        }
    };
}

impl Backend for HttpBackend {
    async fn create_table(&self, table: &str) -> Result<(), StoreError> {
        dispatch!(self, b => b.create_table(table))
    }

    async fn delete_table(&self, table: &str) -> Result<(), StoreError> {
        dispatch!(self, b => b.delete_table(table))
    }

    async fn list_tables(
        &self,
        max: Option<usize>,
        continuation: Option<String>,
    ) -> Result<TablePage, StoreError> {
        dispatch!(self, b => b.list_tables(max, continuation))
    }

    async fn write(&self, table: &str, op: BatchOperation) -> Result<WriteResult, StoreError> {
        dispatch!(self, b => b.write(table, op))
    }

    async fn get(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        select: Option<&[&str]>,
    ) -> Result<Entity, StoreError> {
        dispatch!(self, b => b.get(table, partition_key, row_key, select))
    }

    async fn query_page(&self, table: &str, query: &Query) -> Result<QueryPage, StoreError> {
        dispatch!(self, b => b.query_page(table, query))
    }

    async fn execute_batch(
        &self,
        table: &str,
        ops: Vec<BatchOperation>,
    ) -> Result<Vec<BatchResult>, StoreError> {
        dispatch!(self, b => b.execute_batch(table, ops))
    }
}

impl Backend for Transport {
    fn create_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        let body = wire::ascii_json(&serde_json::json!({ "TableName": table }));
        let call = Call::new(
            Method::POST,
            "/Tables".to_owned(),
            Repeat::ConnectFailuresOnly,
        )
        .json(body)
        .header(
            HeaderName::from_static("prefer"),
            "return-no-content".into(),
        );
        let answer = self.send(call);
        async move {
            answer.await?.expect(&[201, 204])?;
            Ok(())
        }
    }

    fn delete_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        let path = format!("/Tables('{}')", encode(&table.replace('\'', "''")));
        let answer = self.send(Call::new(Method::DELETE, path, Repeat::ConnectFailuresOnly));
        async move {
            answer.await?.expect(&[200, 204])?;
            Ok(())
        }
    }

    fn list_tables(
        &self,
        max: Option<usize>,
        continuation: Option<String>,
    ) -> impl Future<Output = Result<TablePage, StoreError>> + Send {
        let mut call = Call::new(Method::GET, "/Tables".to_owned(), Repeat::Safe);
        if let Some(max) = max {
            call = call.param("$top", &max.to_string());
        }
        if let Some(next) = &continuation {
            call = call.param("NextTableName", next);
        }
        let answer = self.send(call);
        async move {
            let answer = answer.await?.expect(&[200])?;
            let json = answer.json()?;
            let tables = json
                .get("value")
                .and_then(Json::as_array)
                .ok_or_else(|| protocol_error("the table list has no `value` array"))?
                .iter()
                .map(|t| {
                    t.get("TableName")
                        .and_then(Json::as_str)
                        .map(str::to_owned)
                        .ok_or_else(|| protocol_error("a listed table has no `TableName`"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let continuation = answer
                .header("x-ms-continuation-nexttablename")
                .filter(|s| !s.is_empty())
                .map(str::to_owned);
            Ok(TablePage {
                tables,
                continuation,
            })
        }
    }

    fn write(
        &self,
        table: &str,
        op: BatchOperation,
    ) -> impl Future<Output = Result<WriteResult, StoreError>> + Send {
        let repeat = write_repeat(&op);
        let (pk, rk) = op.keys();
        let entity_path = wire::entity_path(table, pk, rk);
        let merge = || Method::from_bytes(b"MERGE").unwrap_or(Method::PATCH);
        let call = match &op {
            BatchOperation::Insert(e) => {
                Call::new(Method::POST, format!("/{}", encode(table)), repeat)
                    .json(wire::entity_body(e))
                    .header(
                        HeaderName::from_static("prefer"),
                        "return-no-content".into(),
                    )
            }
            BatchOperation::Replace(e, m) => if_match(
                Call::new(Method::PUT, entity_path, repeat).json(wire::entity_body(e)),
                m,
            ),
            BatchOperation::Merge(e, m) => if_match(
                Call::new(merge(), entity_path, repeat).json(wire::entity_body(e)),
                m,
            ),
            BatchOperation::UpsertReplace(e) => {
                Call::new(Method::PUT, entity_path, repeat).json(wire::entity_body(e))
            }
            BatchOperation::UpsertMerge(e) => {
                Call::new(merge(), entity_path, repeat).json(wire::entity_body(e))
            }
            BatchOperation::Delete { if_match: m, .. } => {
                if_match(Call::new(Method::DELETE, entity_path, repeat), m)
            }
        };
        let answer = self.send(call);
        async move {
            let answer = answer.await?.expect(&[200, 201, 204])?;
            Ok(answer.write_result())
        }
    }

    fn get(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        select: Option<&[&str]>,
    ) -> impl Future<Output = Result<Entity, StoreError>> + Send {
        let mut call = Call::new(
            Method::GET,
            wire::entity_path(table, partition_key, row_key),
            Repeat::Safe,
        );
        if let Some(select) = &select {
            call = call.param("$select", &select_list(select));
        }
        let answer = self.send(call);
        let (pk, rk) = (partition_key.to_owned(), row_key.to_owned());
        async move {
            let answer = answer.await?.expect(&[200])?;
            let mut entity = wire::read_entity(&answer.body)?;
            entity.partition_key = pk;
            entity.row_key = rk;
            if entity.etag.is_none() {
                entity.etag = answer.header("etag").map(ETag::from_raw);
            }
            Ok(entity)
        }
    }

    fn query_page(
        &self,
        table: &str,
        query: &Query,
    ) -> impl Future<Output = Result<QueryPage, StoreError>> + Send {
        let mut call = Call::new(Method::GET, format!("/{}()", encode(table)), Repeat::Safe);
        if let Some(filter) = &query.filter {
            call = call.param("$filter", &filter.text);
        }
        if let Some(select) = &query.select {
            call = call.param("$select", &select_list(select));
        }
        if let Some(top) = query.top {
            call = call.param("$top", &top.to_string());
        }
        if let Some(next) = &query.continuation {
            call = call.param("NextPartitionKey", &next.next_partition_key);
            if !next.next_row_key.is_empty() {
                call = call.param("NextRowKey", &next.next_row_key);
            }
        }
        let class = query.plan().class;
        // A page holds 1 to 1,000 entities: the service refuses a larger `$top`, and a `$top`
        // of 0 asks for a page that can hold nothing (Azurite answers it with an empty page and
        // a continuation, forever). Refused here as the in-process store refuses it.
        let bad_top = query.top.filter(|n| !(1..=MAX_PAGE).contains(n)).map(|n| {
            StoreError::new(
                table_runtime::ErrorCode::InvalidInput,
                format!("$top is {n}; it must be between 1 and {MAX_PAGE}"),
            )
        });
        let answer = self.send(call);
        async move {
            if let Some(error) = bad_top {
                return Err(error);
            }
            let answer = answer.await?.expect(&[200])?;
            let entities = wire::read_entity_page(&answer.body)?;
            let continuation = answer
                .header("x-ms-continuation-nextpartitionkey")
                .filter(|s| !s.is_empty())
                .map(|pk| Continuation {
                    next_partition_key: pk.to_owned(),
                    next_row_key: answer
                        .header("x-ms-continuation-nextrowkey")
                        .unwrap_or_default()
                        .to_owned(),
                });
            let returned = entities.len();
            Ok(QueryPage {
                entities,
                continuation,
                stats: QueryStats {
                    class,
                    examined: returned,
                    returned,
                },
            })
        }
    }

    fn execute_batch(
        &self,
        table: &str,
        ops: Vec<BatchOperation>,
    ) -> impl Future<Output = Result<Vec<BatchResult>, StoreError>> + Send {
        let endpoint = &self.inner.connection.endpoint;
        let body = wire::batch_body(
            &ops,
            &self.table_url(table),
            |pk, rk| endpoint.url(&wire::entity_path(table, pk, rk)),
            crate::retry::random_id(),
        );
        let mut call = Call::new(
            Method::POST,
            "/$batch".to_owned(),
            Repeat::ConnectFailuresOnly,
        );
        call.content_type = Some(body.content_type);
        call.body = Bytes::from(body.body);
        let answer = self.send(call);
        async move {
            let answer = answer.await?.expect(&[200, 202])?;
            let text = std::str::from_utf8(&answer.body)
                .map_err(|_| protocol_error("the $batch answer is not UTF-8"))?;
            let etags = wire::batch_results(text, &ops)?;
            Ok(etags.into_iter().map(|etag| BatchResult { etag }).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::NO_STATUS;

    #[test]
    fn selects_always_carry_keys_and_timestamp() {
        assert_eq!(
            select_list(&["A", "RowKey"]),
            "PartitionKey,RowKey,Timestamp,A"
        );
    }

    #[test]
    fn repeat_safety_follows_idempotence() {
        let e = || Entity::new("p", "r");
        let etag = IfMatch::ETag(ETag::from_raw("W/\"x\""));
        assert_eq!(
            write_repeat(&BatchOperation::UpsertMerge(e())),
            Repeat::Safe
        );
        assert_eq!(
            write_repeat(&BatchOperation::Replace(e(), IfMatch::Any)),
            Repeat::Safe
        );
        assert_eq!(
            write_repeat(&BatchOperation::Replace(e(), etag.clone())),
            Repeat::ConnectFailuresOnly
        );
        assert_eq!(
            write_repeat(&BatchOperation::Insert(e())),
            Repeat::ConnectFailuresOnly
        );
        assert_eq!(
            write_repeat(&BatchOperation::Delete {
                partition_key: "p".into(),
                row_key: "r".into(),
                if_match: etag
            }),
            Repeat::ConnectFailuresOnly
        );
    }

    #[test]
    fn a_sas_that_states_its_scope_is_checked_on_the_client() {
        let table_sas = "http://127.0.0.1:9/devstoreaccount1?sv=2019-02-02&tn=Orders&sp=r\
                         &se=2030-01-01T00%3A00%3A00Z&spk=c1&epk=c1&sig=x";
        let backend = HttpBackend::from_connection_string(table_sas).unwrap();
        let scope = backend.sas_scope().unwrap();
        assert_eq!(scope.table, "Orders");
        assert_eq!(scope.start_partition_key.as_deref(), Some("c1"));
        let cs = "TableEndpoint=http://127.0.0.1:9/devstoreaccount1;SharedAccessSignature=\
                  sv=2019-02-02&tn=Orders&sp=r&se=2030-01-01T00%3A00%3A00Z&sig=x";
        let backend = HttpBackend::from_connection_string(cs).unwrap();
        assert!(backend.sas_scope().is_some());
        assert!(format!("{backend:?}").contains("Orders"));
        // Refused on the client: nothing is listening on port 9, yet the answer is a 403.
        let op = BatchOperation::Insert(Entity::new("c1", "o1"));
        let err = pollster::block_on(backend.write("Orders", op)).unwrap_err();
        assert_eq!(
            (err.status, err.code),
            (
                403,
                table_runtime::ErrorCode::AuthorizationPermissionMismatch
            )
        );

        // An account SAS, and SharedKey, leave every check to the service.
        let account = "http://127.0.0.1:9/devstoreaccount1?sv=2019-02-02&ss=t&srt=sco&sp=rwdlacu\
                       &se=2030-01-01T00%3A00%3A00Z&sig=x";
        assert!(
            HttpBackend::from_connection_string(account)
                .unwrap()
                .sas_scope()
                .is_none()
        );
        assert!(fake_backend(9, 0).sas_scope().is_none());
        // A table SAS whose fields cannot be read is refused when the backend is made.
        let unreadable = "http://127.0.0.1:9/devstoreaccount1?sv=1&tn=t&sp=r&se=soon&sig=x";
        let err = HttpBackend::from_connection_string(unreadable).unwrap_err();
        assert!(err.to_string().contains("not a SAS time"), "{err}");
    }

    #[test]
    fn http_dates_parse() {
        assert_eq!(
            parse_http_date("Mon, 01 Jan 2024 00:00:00 GMT"),
            Some(DateTime::parse("2024-01-01T00:00:00Z").unwrap())
        );
        assert_eq!(parse_http_date("yesterday"), None);
    }

    /// What the fake service does with one request.
    #[derive(Clone, Copy)]
    enum Reply {
        /// Answer with this status and body.
        Status(u16, &'static str),
        /// Read the request, then close the connection without answering.
        Close,
        /// Read the request and say nothing for a second.
        Silent,
    }

    /// A one-request-per-connection HTTP server following `script`; returns its port and the
    /// count of requests it read.
    fn fake_service(script: Vec<Reply>) -> (u16, Arc<std::sync::atomic::AtomicUsize>) {
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

    fn fake_backend(port: u16, max_retries: u32) -> HttpBackend {
        let connection =
            Connection::development_on(&format!("http://127.0.0.1:{port}/devstoreaccount1"))
                .unwrap();
        HttpBackend::with_options(
            connection,
            HttpOptions {
                retry: RetryPolicy {
                    max_retries,
                    initial_delay: std::time::Duration::from_millis(1),
                    max_delay: std::time::Duration::from_millis(5),
                    attempt_timeout: std::time::Duration::from_millis(500),
                },
                io_threads: 1,
            },
        )
        .unwrap()
    }

    const BUSY: &str = r#"{"odata.error":{"code":"ServerBusy","message":{"value":"busy"}}}"#;

    #[test]
    fn safe_requests_are_retried_after_transient_failures() {
        use std::sync::atomic::Ordering::SeqCst;
        let (port, count) = fake_service(vec![
            Reply::Status(503, BUSY),
            Reply::Close,
            Reply::Status(500, BUSY),
            Reply::Status(200, r#"{"value":[{"TableName":"t1"}]}"#),
        ]);
        let page = pollster::block_on(fake_backend(port, 3).list_tables(None, None)).unwrap();
        assert_eq!(page.tables, ["t1"]);
        assert_eq!(count.load(SeqCst), 4);

        // An upsert after a silent attempt (timeout).
        let (port, count) = fake_service(vec![Reply::Silent, Reply::Status(204, "")]);
        let op = BatchOperation::UpsertReplace(Entity::new("p", "r"));
        pollster::block_on(fake_backend(port, 3).write("t1", op)).unwrap();
        assert_eq!(count.load(SeqCst), 2);

        // The policy's limit holds.
        let (port, count) = fake_service(vec![Reply::Status(503, BUSY); 3]);
        let err = pollster::block_on(fake_backend(port, 1).get("t1", "p", "r", None)).unwrap_err();
        assert_eq!((err.status, count.load(SeqCst)), (503, 2));
        assert_eq!(err.code, table_runtime::ErrorCode::ServerBusy);
    }

    #[test]
    fn unsafe_requests_are_sent_once() {
        use std::sync::atomic::Ordering::SeqCst;
        let insert = || BatchOperation::Insert(Entity::new("p", "r"));
        let (port, count) = fake_service(vec![Reply::Status(503, BUSY), Reply::Status(204, "")]);
        let err = pollster::block_on(fake_backend(port, 3).write("t1", insert())).unwrap_err();
        assert_eq!((err.status, count.load(SeqCst)), (503, 1));

        let (port, count) = fake_service(vec![Reply::Close, Reply::Status(204, "")]);
        let err = pollster::block_on(fake_backend(port, 3).write("t1", insert())).unwrap_err();
        assert_eq!((err.status, count.load(SeqCst)), (NO_STATUS, 1));

        let (port, count) = fake_service(vec![Reply::Silent, Reply::Status(204, "")]);
        let stale = IfMatch::ETag(ETag::from_raw("W/\"x\""));
        let op = BatchOperation::Merge(Entity::new("p", "r"), stale);
        let err = pollster::block_on(fake_backend(port, 3).write("t1", op)).unwrap_err();
        assert_eq!((err.status, count.load(SeqCst)), (NO_STATUS, 1));
        assert!(err.message.contains("no answer within"), "{}", err.message);

        let (port, count) = fake_service(vec![Reply::Status(500, BUSY), Reply::Status(202, "")]);
        let ops = vec![BatchOperation::UpsertMerge(Entity::new("p", "r"))];
        let err = pollster::block_on(fake_backend(port, 3).execute_batch("t1", ops)).unwrap_err();
        assert_eq!((err.status, count.load(SeqCst)), (500, 1));
    }

    #[test]
    fn malformed_answers_are_errors() {
        let (port, _) = fake_service(vec![
            Reply::Status(200, "not json"),
            Reply::Status(200, r#"{"value":[{"RowKey":"r"}]}"#),
            Reply::Status(202, "--b\r\nHTTP/1.1 204 No Content\r\n\r\n--b--"),
            Reply::Status(200, r#"{"value":[{"Name":1}]}"#),
        ]);
        let backend = fake_backend(port, 0);
        let err = pollster::block_on(backend.get("t1", "p", "r", None)).unwrap_err();
        assert_eq!(err.status, NO_STATUS);
        let err = pollster::block_on(backend.query_page("t1", &Query::all())).unwrap_err();
        assert_eq!(err.status, NO_STATUS);
        let two = vec![
            BatchOperation::UpsertMerge(Entity::new("p", "a")),
            BatchOperation::UpsertMerge(Entity::new("p", "b")),
        ];
        let err = pollster::block_on(backend.execute_batch("t1", two)).unwrap_err();
        assert!(err.message.contains("1 responses for 2"), "{}", err.message);
        let err = pollster::block_on(backend.list_tables(None, None)).unwrap_err();
        assert_eq!(err.status, NO_STATUS);
    }

    #[test]
    fn unreachable_service_is_an_error_not_a_hang() {
        let connection = Connection::development_on("http://127.0.0.1:9/devstoreaccount1").unwrap();
        let backend = HttpBackend::with_options(
            connection,
            HttpOptions {
                retry: RetryPolicy {
                    max_retries: 2,
                    initial_delay: std::time::Duration::from_millis(1),
                    ..RetryPolicy::default()
                },
                io_threads: 1,
            },
        )
        .unwrap();
        let err = pollster::block_on(backend.create_table("t1")).unwrap_err();
        assert_eq!(err.status, wire::NO_STATUS);
        assert!(err.message.contains("after 3 attempts"), "{}", err.message);
    }
}

//! `table-server`: the in-process store served over the Azure Table service's REST API, so any
//! SDK in any language can test against it with `UseDevelopmentStorage=true`.
//!
//! - [`route`] reads where a request goes (path-style or host-style accounts, the resource);
//! - [`auth`] checks SharedKey, SharedKeyLite, account SAS and table SAS;
//! - [`api`] runs the operations on the store, through the same `Backend` trait the typed API
//!   uses (a table SAS through the store's `Scoped` wrapper, which enforces its key range);
//! - [`settings`] keeps table ACLs and the service properties, and answers CORS;
//! - [`disk`] keeps every change in redb when the server has a data directory.
//!
//! The wire format (entity JSON at three metadata levels, `$batch`, errors, continuations) is
//! `table_http::wire`, the client's own codec, read and written from the service's side.

pub mod api;
pub mod auth;
pub mod disk;
pub mod route;
pub mod settings;

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::{Future, poll_fn};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::Poll;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Body;
use hyper::header::{HeaderName, HeaderValue};
use hyper::{HeaderMap, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use table_http::connection::AccountKey;
use table_runtime::sas::Scoped;
use table_runtime::{ErrorCode, PagingQuirks, Store, StoreError, StoreOptions};
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::api::Answer;
use crate::auth::{Accounts, Grant};
use crate::disk::Disk;
use crate::route::Resource;
use crate::settings::{Cors, Settings};

/// The largest request body read, as the service has it: 4 MiB. A larger one is refused with
/// RequestBodyTooLarge (413) before its entity is read.
pub const MAX_BODY: usize = 4 * 1024 * 1024;
/// The largest `$batch` body read: its operations may total 4 MiB (checked as the batch is
/// read), plus room for the multipart framing around them.
pub const MAX_BATCH_BODY: usize = MAX_BODY + 64 * 1024;
/// The REST API version answered when a request names none.
pub const DEFAULT_VERSION: &str = "2019-02-02";
/// The newest REST API version this server knows.
pub const LATEST_VERSION: &str = "2025-11-05";
/// The oldest version that speaks JSON.
pub const OLDEST_JSON_VERSION: &str = "2013-08-15";
/// How long a client may take to send a request's headers, then its body.
pub const READ_TIMEOUT: Duration = Duration::from_secs(30);
/// The most headers a request may carry: more get `400 InvalidHeaderValue`, and past
/// [`HEADERS_PARSED`] the connection gets `431` without being read further.
pub const MAX_HEADERS: usize = 100;
/// How many headers are parsed at most before a request is cut off.
pub const HEADERS_PARSED: usize = 256;

/// Where the data lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Storage {
    /// Nothing on disk: gone when the server stops.
    InMemory,
    /// One redb database per account in this directory.
    Dir(PathBuf),
}

/// How a server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Where the data lives.
    pub storage: Storage,
    /// The accounts served, with their keys.
    pub accounts: Accounts,
    /// Print one line per request on stderr.
    pub log_requests: bool,
    /// Print each query's class, entities examined and returned on stderr.
    pub trace_queries: bool,
    /// Refuse table scans.
    pub deny_table_scans: bool,
    /// Refuse partition scans (and table scans).
    pub deny_partition_scans: bool,
    /// End pages early as the service may (see [`paging_quirks`]).
    pub paging_quirks: Option<u64>,
    /// How long a client may take to send a request's headers, then its body
    /// ([`READ_TIMEOUT`] unless changed).
    pub read_timeout: Duration,
    /// The threads that answer requests ([`default_threads`] unless changed).
    pub threads: usize,
    /// Serve HTTPS with this certificate and key instead of HTTP ([`tls_config`] reads them).
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// Whether bearer tokens (Microsoft Entra ID) are accepted, over HTTPS: off unless
    /// changed; [`auth::OAuth::Basic`] checks their claims, not their signature.
    pub oauth: auth::OAuth,
}

/// The TLS configuration of a certificate chain and its private key, both PEM files (the
/// certificate first, then any intermediates; a PKCS#8, PKCS#1 or SEC1 key).
pub fn tls_config(cert: &Path, key: &Path) -> Result<Arc<rustls::ServerConfig>, String> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let read = |path: &Path| {
        std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let cert_pem = read(cert)?;
    let chain = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{} is not a PEM certificate chain: {e}", cert.display()))?;
    if chain.is_empty() {
        return Err(format!("{} holds no certificate", cert.display()));
    }
    let key_der = PrivateKeyDer::from_pem_slice(&read(key)?)
        .map_err(|e| format!("{} holds no PEM private key: {e}", key.display()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let signing_key = provider
        .key_provider
        .load_private_key(key_der)
        .map_err(|e| format!("{}: {e}", key.display()))?;
    let identity = rustls::sign::CertifiedKey::new(chain, signing_key);
    // A key that is not the certificate's is refused. A certificate the TLS library cannot
    // read itself (an X.509 v1 one, as test certificates often are, Azurite's among them) is
    // still served: the client is the one to judge it.
    match identity.keys_match() {
        Ok(()) | Err(rustls::Error::InvalidCertificate(_)) => {}
        Err(e) => {
            return Err(format!(
                "{} and {} do not make a TLS identity: {e}",
                cert.display(),
                key.display()
            ));
        }
    }
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(rustls::sign::SingleCertAndKey::from(identity)));
    Ok(Arc::new(config))
}

/// The threads a server answers requests on unless told otherwise: half the machine's cores,
/// at least one. A local service shares the machine with the clients that test against it,
/// and every thread more than the load needs costs requests wake-ups of idle threads (on 2
/// cores, one thread spent about a third less CPU per sequential insert than two:
/// `bench/server-comparison/README.md`).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
}

impl Config {
    /// The defaults: 127.0.0.1:10002, in memory, the emulator's account and key.
    pub fn development() -> Config {
        let mut accounts = Accounts::default();
        accounts.add(
            table_http::connection::DEV_ACCOUNT,
            AccountKey::from_base64(table_http::connection::DEV_ACCOUNT_KEY)
                .unwrap_or_else(|_| unreachable!("the emulator's key is base64")),
        );
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 10002)),
            storage: Storage::InMemory,
            accounts,
            log_requests: false,
            trace_queries: false,
            deny_table_scans: false,
            deny_partition_scans: false,
            paging_quirks: None,
            tls: None,
            oauth: auth::OAuth::Off,
            read_timeout: READ_TIMEOUT,
            threads: default_threads(),
        }
    }
}

/// The page endings a seed chooses: every page ends at a partition boundary, the first page of
/// each query is empty with a continuation, and a page ends after examining between 1 and 50
/// entities (the seed picks how many), so a selective filter gives empty pages that still carry
/// a continuation.
pub fn paging_quirks(seed: u64) -> PagingQuirks {
    // A splitmix64 step spreads nearby seeds apart.
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    PagingQuirks {
        end_at_partition_boundary: true,
        max_examined_per_page: Some(1 + (z % 50) as usize),
        empty_first_page: true,
    }
}

/// One account's data.
#[derive(Debug)]
struct AccountData {
    store: Store,
    disk: Option<Arc<Disk>>,
    settings: Settings,
}

#[derive(Debug)]
struct State {
    config: Config,
    data: HashMap<String, AccountData>,
}

/// Why a server could not start.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StartError(pub String);

/// What opening the data found, per account.
#[derive(Debug, Clone)]
pub struct Opened {
    /// Account name, tables and entities read back from disk.
    pub restored: Vec<(String, disk::Restored)>,
}

fn open_state(config: Config) -> Result<(State, Opened), StartError> {
    let options = StoreOptions {
        forbid_table_scans: config.deny_table_scans,
        forbid_partition_scans: config.deny_partition_scans,
        paging: config.paging_quirks.map(paging_quirks).unwrap_or_default(),
        ..StoreOptions::default()
    };
    let mut data = HashMap::new();
    let mut restored = Vec::new();
    let mut names: Vec<&str> = config.accounts.names().collect();
    names.sort_unstable();
    for name in names {
        let account = match &config.storage {
            Storage::InMemory => AccountData {
                store: Store::with_options(options.clone()),
                disk: None,
                settings: Settings::default(),
            },
            Storage::Dir(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| {
                    StartError(format!(
                        "cannot create the data directory {}: {e}",
                        dir.display()
                    ))
                })?;
                let path = dir.join(format!("{name}.redb"));
                let (store, disk, found) = disk::open_store(&path, options.clone())
                    .map_err(|e| StartError(e.to_string()))?;
                let settings = Settings::restore(Some(disk.clone()), &found.settings)
                    .map_err(|e| StartError(format!("{}: {e}", path.display())))?;
                restored.push((name.to_owned(), found));
                AccountData {
                    store,
                    disk: Some(disk),
                    settings,
                }
            }
        };
        data.insert(name.to_owned(), account);
    }
    Ok((State { config, data }, Opened { restored }))
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    https: bool,
    stop: watch::Sender<bool>,
    done: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Starts a server on its own threads (a small Tokio runtime), listening once this returns.
    /// Port 0 picks a free port: see [`Server::addr`].
    pub fn start(config: Config) -> Result<(Server, Opened), StartError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(config.threads.max(1))
            .enable_io()
            .enable_time()
            .thread_name("table-server")
            .build()
            .map_err(|e| StartError(format!("cannot start the runtime: {e}")))?;
        let addr = config.addr;
        let https = config.tls.is_some();
        let (state, opened) = open_state(config)?;
        let listener = runtime
            .block_on(TcpListener::bind(addr))
            .map_err(|e| StartError(format!("cannot listen on {addr}: {e}")))?;
        let addr = listener
            .local_addr()
            .map_err(|e| StartError(format!("cannot read the listening address: {e}")))?;
        let (stop, stopped) = watch::channel(false);
        let done = std::thread::Builder::new()
            .name("table-server".into())
            .spawn(move || runtime.block_on(serve(listener, Arc::new(state), stopped)))
            .map_err(|e| StartError(format!("cannot start the server thread: {e}")))?;
        Ok((
            Server {
                addr,
                https,
                stop,
                done: Some(done),
            },
            opened,
        ))
    }

    /// Where it listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The account's Table endpoint: `http://127.0.0.1:PORT/ACCOUNT` (`https` with TLS).
    pub fn endpoint(&self, account: &str) -> String {
        format!("{}://{}/{account}", self.scheme(), self.addr)
    }

    fn scheme(&self) -> &'static str {
        if self.https { "https" } else { "http" }
    }

    /// A connection string for the emulator's account on this server.
    pub fn connection_string(&self) -> String {
        format!(
            "DefaultEndpointsProtocol={};AccountName={};AccountKey={};TableEndpoint={}",
            self.scheme(),
            table_http::connection::DEV_ACCOUNT,
            table_http::connection::DEV_ACCOUNT_KEY,
            self.endpoint(table_http::connection::DEV_ACCOUNT)
        )
    }

    /// Stops gracefully: no new connections, requests in flight finish, data is flushed.
    pub fn stop(mut self) {
        self.shut();
    }

    fn shut(&mut self) {
        let _ = self.stop.send(true);
        if let Some(done) = self.done.take() {
            let _ = done.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shut();
    }
}

/// Runs `future` until it completes or `stop` turns true; `None` when stopped first.
async fn unless_stopped<F: Future>(
    future: F,
    stop: &mut watch::Receiver<bool>,
) -> Option<F::Output> {
    let mut future = pin!(future);
    let mut stopped = pin!(stop.wait_for(|s| *s));
    poll_fn(|cx| {
        if let Poll::Ready(out) = future.as_mut().poll(cx) {
            return Poll::Ready(Some(out));
        }
        if stopped.as_mut().poll(cx).is_ready() {
            return Poll::Ready(None);
        }
        Poll::Pending
    })
    .await
}

/// Serves until `stop` turns true, then lets open connections finish their requests (for at
/// most 30 seconds) and flushes the data.
async fn serve(listener: TcpListener, state: Arc<State>, mut stop: watch::Receiver<bool>) {
    let open = Arc::new(AtomicUsize::new(0));
    let (closed_tx, mut closed) = watch::channel(());
    loop {
        let Some(accepted) = unless_stopped(listener.accept(), &mut stop).await else {
            break;
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                eprintln!("table-server: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let state = state.clone();
        let read_timeout = state.config.read_timeout;
        let mut conn_stop = stop.clone();
        let open = open.clone();
        let closed_tx = closed_tx.clone();
        open.fetch_add(1, Ordering::SeqCst);
        tokio::spawn(async move {
            match state.config.tls.clone() {
                None => serve_connection(stream, state, peer, read_timeout, &mut conn_stop).await,
                Some(tls) => {
                    // A client that does not finish its handshake in time is dropped, as one
                    // that does not send its headers is.
                    let handshake = tokio_rustls::TlsAcceptor::from(tls).accept(stream);
                    match tokio::time::timeout(read_timeout, handshake).await {
                        Ok(Ok(stream)) => {
                            serve_connection(stream, state, peer, read_timeout, &mut conn_stop)
                                .await;
                        }
                        Ok(Err(e)) if state.config.log_requests => {
                            eprintln!("table-server: TLS handshake with {peer} failed: {e}");
                        }
                        _ => {}
                    }
                }
            }
            open.fetch_sub(1, Ordering::SeqCst);
            let _ = closed_tx.send(());
        });
    }
    drop(listener);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while open.load(Ordering::SeqCst) > 0 && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout_at(deadline, closed.changed()).await;
    }
    for account in state.data.values() {
        if let Some(disk) = &account.disk {
            disk.close();
        }
    }
}

/// Answers the requests of one connection (plain or TLS) until the client closes it, or until
/// `stop` turns true and the request in flight, if any, is answered.
async fn serve_connection<IO>(
    stream: IO,
    state: Arc<State>,
    peer: SocketAddr,
    read_timeout: Duration,
    conn_stop: &mut watch::Receiver<bool>,
) where
    IO: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let service = hyper::service::service_fn(move |req| {
        let state = state.clone();
        async move { Ok::<_, Infallible>(handle(&state, req, peer.ip()).await) }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(read_timeout)
        .max_headers(HEADERS_PARSED)
        .keep_alive(true);
    let conn = builder.serve_connection(TokioIo::new(stream), service);
    let mut conn = pin!(conn);
    let mut stopping = false;
    // Kept across polls, so the stop wakes this task even while the connection idles.
    let mut stopped = pin!(conn_stop.wait_for(|s| *s));
    poll_fn(|cx| {
        if !stopping && stopped.as_mut().poll(cx).is_ready() {
            stopping = true;
            conn.as_mut().graceful_shutdown();
        }
        conn.as_mut().poll(cx)
    })
    .await
    .ok();
}

/// A new id, unique in this process, in a GUID's shape: request ids and `$batch` boundaries.
pub(crate) fn new_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    // Read once: asking the kernel for the process id was a system call per request.
    static PROCESS: std::sync::LazyLock<u32> = std::sync::LazyLock::new(std::process::id);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("{:08x}-0000-4000-8000-{n:012x}", *PROCESS)
}

/// The `Date` header's text for now, written once a second (per thread) rather than for every
/// answer.
fn date_now() -> String {
    thread_local! {
        static LAST: std::cell::RefCell<(i64, String)> = const { std::cell::RefCell::new((i64::MIN, String::new())) };
    }
    let now = time::OffsetDateTime::now_utc();
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if last.0 != now.unix_timestamp() {
            *last = (now.unix_timestamp(), table_http::auth::http_date(now));
        }
        last.1.clone()
    })
}

/// A header's value, if it is there and readable as text.
pub(crate) fn header<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn header_value(headers: &HeaderMap, name: &str) -> Option<String> {
    header(headers, name).map(str::to_owned)
}

/// Checks `x-ms-version` as the service does: a date it knows.
fn check_version(headers: &HeaderMap) -> Result<String, StoreError> {
    let Some(version) = header_value(headers, "x-ms-version") else {
        return Ok(DEFAULT_VERSION.to_owned());
    };
    let shaped = version.len() == 10
        && version.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    if !shaped || version.as_str() > LATEST_VERSION || version.as_str() < OLDEST_JSON_VERSION {
        return Err(StoreError::new(
            ErrorCode::InvalidHeaderValue,
            format!(
                "x-ms-version `{version}` is not a version this server speaks ({OLDEST_JSON_VERSION} to {LATEST_VERSION})"
            ),
        ));
    }
    Ok(version)
}

/// What answering a request noticed besides the answer.
#[derive(Debug, Default)]
struct Notes {
    /// The query's class and counts, when queries are traced.
    traced: Option<api::Traced>,
    /// How the request fares against the account's CORS rules.
    cors: Cors,
    /// The `WWW-Authenticate` header of a bearer token refused with
    /// `401 InvalidAuthenticationInfo`.
    challenge: Option<String>,
}

/// A request body the server reads: hyper's, or a whole body given in process.
trait RequestBody: Body<Data = Bytes, Error: Into<Box<dyn std::error::Error + Send + Sync>>> {}

impl<B: Body<Data = Bytes, Error: Into<Box<dyn std::error::Error + Send + Sync>>>> RequestBody
    for B
{
}

/// The server's request handling without a socket: each request is answered exactly as one
/// that arrived over a connection from `peer` would be (routing, authentication, the
/// operation, the common headers). For tests and fuzzing that need no network.
#[derive(Debug)]
pub struct InProcess {
    state: State,
}

impl InProcess {
    /// Opens the data as [`Server::start`] would, without listening.
    pub fn new(config: Config) -> Result<(InProcess, Opened), StartError> {
        let (state, opened) = open_state(config)?;
        Ok((InProcess { state }, opened))
    }

    /// Answers one request. It must run on a Tokio runtime with time enabled (the body is
    /// read under the server's read timeout).
    pub async fn handle(&self, req: Request<Full<Bytes>>, peer: IpAddr) -> Response<Full<Bytes>> {
        handle(&self.state, req, peer).await
    }
}

async fn handle<B: RequestBody>(
    state: &State,
    req: Request<B>,
    peer: IpAddr,
) -> Response<Full<Bytes>> {
    let started = std::time::Instant::now();
    let id = new_id();
    let method = req.method().as_str().to_owned();
    let path = req.uri().path().to_owned();
    let version = check_version(req.headers());
    let client_request_id = header_value(req.headers(), "x-ms-client-request-id");
    let mut notes = Notes::default();
    let answer = match version.clone() {
        Ok(_) => answer(state, req, peer, &mut notes).await,
        Err(e) => Err(e),
    };
    let date = date_now();
    let mut answer = answer.unwrap_or_else(|e| error_answer(&e, &id, &date));
    if let Some(challenge) = notes.challenge.take() {
        answer.headers.push(("www-authenticate", challenge));
    }
    if state.config.log_requests {
        eprintln!(
            "table-server: {peer} {method} {path} -> {} ({} µs)",
            answer.status.as_u16(),
            started.elapsed().as_micros()
        );
    }
    if let Some(t) = notes.traced.filter(|_| state.config.trace_queries) {
        eprintln!(
            "table-server: query {}: {} on `{}` ({}): {} examined, {} returned",
            id,
            t.stats.class,
            t.table,
            if t.filter.is_empty() {
                "no filter"
            } else {
                &t.filter
            },
            t.stats.examined,
            t.stats.returned
        );
    }
    let common = [
        "x-ms-request-id",
        "x-ms-version",
        "date",
        "x-ms-client-request-id",
        "dataserviceversion",
        "content-length",
    ];
    let cors = notes.cors.headers(
        common
            .into_iter()
            .chain(answer.headers.iter().map(|(name, _)| *name)),
    );
    answer.headers.extend(cors);
    let mut response = Response::new(Full::new(answer.body));
    *response.status_mut() = answer.status;
    let headers = response.headers_mut();
    // The headers every answer carries, under names known when compiled.
    let fixed: [(&'static str, Result<HeaderValue, _>); 6] = [
        ("x-ms-request-id", HeaderValue::try_from(id)),
        (
            "x-ms-version",
            HeaderValue::try_from(version.unwrap_or_else(|_| DEFAULT_VERSION.to_owned())),
        ),
        ("date", HeaderValue::try_from(date)),
        (
            "x-content-type-options",
            Ok(HeaderValue::from_static("nosniff")),
        ),
        ("cache-control", Ok(HeaderValue::from_static("no-cache"))),
        ("dataserviceversion", Ok(HeaderValue::from_static("3.0;"))),
    ];
    let mut unwritable = None;
    for (name, value) in fixed {
        match value {
            Ok(value) => {
                headers.insert(HeaderName::from_static(name), value);
            }
            Err(e) => unwritable = Some(format!("`{name}`: {e}")),
        }
    }
    if let Some(client) = client_request_id {
        match HeaderValue::try_from(client) {
            Ok(value) => {
                headers.insert(HeaderName::from_static("x-ms-client-request-id"), value);
            }
            Err(e) => unwritable = Some(format!("`x-ms-client-request-id`: {e}")),
        }
    }
    for (name, value) in answer.headers {
        match (HeaderName::try_from(name), HeaderValue::try_from(value)) {
            (Ok(name), Ok(value)) => {
                headers.append(name, value);
            }
            (Err(e), _) => unwritable = Some(format!("`{name}`: {e}")),
            (_, Err(e)) => unwritable = Some(format!("`{name}`: {e}")),
        }
    }
    match unwritable {
        None => response,
        Some(problem) => {
            let mut fallback = Response::new(Full::new(Bytes::from(format!(
                "the server could not write its answer: header {problem}"
            ))));
            *fallback.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
            fallback
        }
    }
}

fn error_answer(error: &StoreError, id: &str, date: &str) -> Answer {
    let status = StatusCode::from_u16(error.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    Answer {
        status,
        headers: vec![
            ("x-ms-error-code", error.code.as_str().to_owned()),
            (
                "content-type",
                table_http::wire::format::Metadata::Minimal
                    .content_type()
                    .to_owned(),
            ),
        ],
        body: Bytes::from(table_http::wire::format::error_document(
            error.code.as_str(),
            None,
            &error.message,
            id,
            date,
        )),
    }
}

/// How much of a body over the limit is still read (and dropped) so that the client, which
/// may send the whole body before it reads an answer, gets the 413 rather than a connection
/// closed under it. Past this, the answer is sent and the connection closed.
const DRAIN_LIMIT: usize = 64 << 20;

async fn read_body<B: RequestBody>(
    body: B,
    limit: usize,
    timeout: Duration,
) -> Result<Bytes, StoreError> {
    let read = async move {
        let mut body = std::pin::pin!(body);
        // One frame is kept as it came; more are joined.
        let mut first: Option<Bytes> = None;
        let mut joined: Vec<u8> = Vec::new();
        let mut seen = 0usize;
        while let Some(frame) = body.as_mut().frame().await {
            let frame = frame.map_err(|e| {
                let e: Box<dyn std::error::Error + Send + Sync> = e.into();
                StoreError::new(
                    ErrorCode::InvalidInput,
                    format!("the request body could not be read: {e}"),
                )
            })?;
            let Ok(data) = frame.into_data() else {
                continue;
            };
            seen = seen.saturating_add(data.len());
            if seen > limit {
                // Too large: read on (and drop) what the client still sends, up to a bound.
                first = None;
                joined = Vec::new();
                if seen > limit.saturating_add(DRAIN_LIMIT) {
                    break;
                }
                continue;
            }
            match first.take() {
                None if joined.is_empty() => first = Some(data),
                None => joined.extend_from_slice(&data),
                Some(earlier) => {
                    joined.reserve(earlier.len() + data.len());
                    joined.extend_from_slice(&earlier);
                    joined.extend_from_slice(&data);
                }
            }
        }
        if seen > limit {
            return Err(StoreError::new(
                ErrorCode::RequestBodyTooLarge,
                format!("the request body is larger than {limit} bytes"),
            ));
        }
        Ok(first.unwrap_or_else(|| Bytes::from(joined)))
    };
    match tokio::time::timeout(timeout, read).await {
        Err(_) => Err(StoreError::new(
            ErrorCode::OperationTimedOut,
            format!(
                "the request body did not arrive within {} seconds",
                timeout.as_secs_f64()
            ),
        )),
        Ok(result) => result,
    }
}

async fn answer<B: RequestBody>(
    state: &State,
    req: Request<B>,
    peer: IpAddr,
    notes: &mut Notes,
) -> Result<Answer, StoreError> {
    let (parts, body) = req.into_parts();
    if parts.headers.len() > MAX_HEADERS {
        return Err(StoreError::new(
            ErrorCode::InvalidHeaderValue,
            format!(
                "the request has {} headers; at most {MAX_HEADERS} are read",
                parts.headers.len()
            ),
        ));
    }
    let path = parts.uri.path();
    if let Some(rest) = path.strip_prefix("/_stats/") {
        return partition_stats(state, rest);
    }
    let host = header_value(&parts.headers, "host");
    // Links in answers (Location, odata.metadata, odata.id) name the scheme it came over.
    let scheme = if state.config.tls.is_some() {
        "https"
    } else {
        "http"
    };
    let target = route::target(path, parts.uri.query(), host.as_deref(), scheme)?;
    let mut method = parts.method.as_str().to_ascii_uppercase();
    if method == "POST"
        && let Some(tunnelled) = header_value(&parts.headers, "x-http-method")
    {
        method = tunnelled.to_ascii_uppercase();
    }
    let limit = match target.resource {
        Resource::Batch => MAX_BATCH_BODY,
        _ => MAX_BODY,
    };
    let body = read_body(body, limit, state.config.read_timeout).await?;
    let data = state.data.get(&target.account).ok_or_else(|| {
        StoreError::new(
            ErrorCode::AuthenticationFailed,
            format!("this server has no account `{}`", target.account),
        )
    })?;
    // A CORS preflight carries no credentials: the account's rules answer it.
    if method == "OPTIONS" {
        return data.settings.preflight(&parts.headers);
    }
    if let Some(origin) = header(&parts.headers, "origin") {
        notes.cors = data.settings.cors(origin, parts.method.as_str());
    }
    let grant = auth::authenticate(
        &state.config.accounts,
        state.config.oauth,
        &target,
        parts.method.as_str(),
        &parts.headers,
        peer,
        state.config.tls.is_some(),
        time::OffsetDateTime::now_utc(),
        |table, id| data.settings.policy(table, id),
    )
    .inspect_err(|e| {
        if e.code == ErrorCode::InvalidAuthenticationInfo {
            notes.challenge = Some(auth::bearer_challenge(&parts.headers));
        }
    })?;
    if target.secondary && method != "GET" {
        return Err(StoreError::new(
            ErrorCode::InsufficientAccountPermissions,
            "the secondary endpoint serves reads only",
        ));
    }
    let request = api::Request {
        method: &method,
        target: &target,
        headers: &parts.headers,
        body: &body,
    };
    if let Grant::Account {
        permissions,
        resource_types,
    } = &grant
    {
        check_account_sas(&request, permissions, resource_types)?;
    }
    if target.resource == Resource::Service {
        return data.settings.service(&request, &grant).await;
    }
    // Service properties and stats asked of a table's URL (a client whose account URL ends in
    // a table name): the service refuses the parameter, whether or not the table exists.
    if target.param("restype") == Some("service") {
        return Err(StoreError::new(
            ErrorCode::InvalidQueryParameterValue,
            "`restype=service` is asked of the account's own URL, and this one names a table",
        ));
    }
    if let Resource::Nested(table, _) = &target.resource {
        // The service looks the table up before it reads the rest of the path.
        if let Grant::Table(scope) = &grant {
            scope.admit(table, time::OffsetDateTime::now_utc())?;
        }
        data.store.require_table(table)?;
    }
    if target.param("comp") == Some("acl") {
        return data.settings.table_acl(&data.store, &request, &grant).await;
    }
    let mut wrote = false;
    let traced = &mut notes.traced;
    let answer = match grant {
        Grant::Key | Grant::Account { .. } => {
            api::run(&data.store, &request, &mut wrote, traced).await
        }
        Grant::Table(scope) => {
            let scoped = Scoped::new(&data.store, scope);
            api::run(&scoped, &request, &mut wrote, traced).await
        }
    };
    if let (Ok(_), Resource::Table(name)) = (&answer, &target.resource) {
        data.settings.table_deleted(name);
    }
    // A batch answers 202 whether or not it applied; it waits for the disk either way (a
    // failed one wrote nothing, so the wait is short).
    if wrote && let Some(disk) = &data.disk {
        disk.durable().await?;
    }
    answer
}

/// The permissions an account SAS needs for a request (the service's table of operations). A
/// `$batch` needs what each of its operations needs: a transaction of inserts `a`, one that
/// deletes `d` too, a query sent alone `r`.
fn check_account_sas(
    req: &api::Request<'_>,
    permissions: &str,
    resource_types: &str,
) -> Result<(), StoreError> {
    let allows = |resource: &Resource, method: &str, if_match: bool| {
        let (all_of, any_of) = account_permissions(resource, method, if_match);
        let kind = auth::resource_type(resource);
        auth::check_account(permissions, resource_types, kind, all_of, any_of)
    };
    if req.target.resource != Resource::Batch {
        return allows(
            &req.target.resource,
            req.method,
            req.header("if-match").is_some(),
        );
    }
    let Some(operations) = api::batch_operations(req) else {
        // Not a readable `$batch`: any write permission lets the answer say why.
        return auth::check_account(permissions, resource_types, 'o', "", "raudw");
    };
    operations
        .iter()
        .try_for_each(|(method, resource, if_match)| allows(resource, method, *if_match))
}

/// The permissions an account SAS needs for `method` on `resource`: all of the first, and one
/// of the second if it is not empty.
fn account_permissions(
    resource: &Resource,
    method: &str,
    if_match: bool,
) -> (&'static str, &'static str) {
    match (resource, method) {
        (Resource::Tables, "GET") => ("", "l"),
        (Resource::Tables, _) => ("", "cwa"),
        (Resource::Table(_), _) => ("d", ""),
        (Resource::Rows(_) | Resource::Entity(..), "GET") => ("r", ""),
        (Resource::Rows(_), _) => ("a", ""),
        (Resource::Entity(..), "DELETE") => ("d", ""),
        (Resource::Entity(..), _) if if_match => ("u", ""),
        (Resource::Entity(..), _) => ("au", ""),
        // A `$batch` inside a `$batch` is refused when answered.
        (Resource::Batch, _) => ("", "raudw"),
        (Resource::Service, "GET") => ("r", ""),
        (Resource::Service, _) => ("w", ""),
        (Resource::Nested(..), "GET") => ("r", ""),
        (Resource::Nested(..), "DELETE") => ("d", ""),
        (Resource::Nested(..), _) => ("a", ""),
    }
}

/// `GET /_stats/ACCOUNT/TABLE`: each partition's entities, reads, writes and entities scanned,
/// as JSON. Not part of the Table service; no credentials needed (the server listens on
/// loopback unless told otherwise).
fn partition_stats(state: &State, rest: &str) -> Result<Answer, StoreError> {
    let (account, table) = rest
        .split_once('/')
        .ok_or_else(|| StoreError::new(ErrorCode::InvalidUri, "use /_stats/ACCOUNT/TABLE"))?;
    let data = state.data.get(account).ok_or_else(|| {
        StoreError::new(
            ErrorCode::ResourceNotFound,
            format!("no account `{account}`"),
        )
    })?;
    let stats = data.store.partition_stats(table)?;
    let body = serde_json::to_vec(&stats).map_err(|e| {
        StoreError::new(
            ErrorCode::InternalError,
            format!("cannot write the stats: {e}"),
        )
    })?;
    Ok(Answer {
        status: StatusCode::OK,
        headers: vec![("content-type", "application/json".to_owned())],
        body: Bytes::from(body),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In process, a request is answered as over a socket: routed, authenticated (this one is
    /// anonymous, so refused), with the common headers and the service's error document.
    #[test]
    fn requests_are_answered_in_process() {
        let (server, _) = InProcess::new(Config::development()).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let request = Request::builder()
            .method("GET")
            .uri("/devstoreaccount1/Tables")
            .header("host", "127.0.0.1:10002")
            .body(Full::new(Bytes::new()))
            .unwrap();
        let response = runtime.block_on(server.handle(request, IpAddr::from([127, 0, 0, 1])));
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        assert_eq!(
            response.headers()["x-ms-error-code"],
            "AuthenticationFailed"
        );
        assert!(response.headers().contains_key("x-ms-request-id"));
        let body = runtime
            .block_on(response.into_body().collect())
            .unwrap()
            .to_bytes();
        let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(json["odata.error"]["code"], "AuthenticationFailed");
    }
}

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

use bytes::Bytes;
use hyper::Method;
use hyper::header::HeaderName;
use serde_json::Value as Json;
use table_runtime::batch::BatchOperation;
use table_runtime::query::Query;
use table_runtime::sas::{SasScope, Scoped};
use table_runtime::store::{BatchResult, QueryPage, QueryStats, TablePage, WriteResult};
use table_runtime::{Backend, Continuation, DateTime, ETag, Entity, IfMatch, StoreError};

use crate::auth;
use crate::connection::{Connection, ConnectionError, Credential};
use crate::retry::RetryPolicy;
pub use crate::transport::{API_VERSION, HttpOptions};
use crate::transport::{Answer, Call, Dialect, Repeat, Transport};
use crate::wire::{self, encode, protocol_error};

const CONTENT_JSON: &str = "application/json";
/// The most entities one query page holds.
const MAX_PAGE: usize = 1000;

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
    Direct(Tables),
    /// A SAS whose scope is checked on the client first.
    Checked(Scoped<Tables>),
}

impl std::fmt::Debug for HttpBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let transport = self.transport();
        f.debug_struct("HttpBackend")
            .field("connection", transport.0.connection())
            .field("retry", transport.0.retry())
            .field("sas_scope", &self.sas_scope())
            .finish_non_exhaustive()
    }
}

/// The Table service's requests themselves, with no check of a SAS's scope.
#[derive(Clone)]
struct Tables(Transport);

/// What the Table service's answers mean.
impl Answer {
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
    DateTime::from_offset_date_time(auth::parse_http_date(text)?).ok()
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
        let transport = Tables(Transport::new(connection, options, Dialect::Table)?);
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
        self.transport().0.connection()
    }

    /// The retry policy in force.
    pub fn retry_policy(&self) -> &RetryPolicy {
        self.transport().0.retry()
    }

    fn transport(&self) -> &Tables {
        match &self.access {
            Access::Direct(transport) => transport,
            Access::Checked(scoped) => scoped.inner(),
        }
    }
}

impl Tables {
    /// Sends a call; no answer is an error with [`wire::NO_STATUS`].
    fn send(&self, call: Call) -> impl Future<Output = Result<Answer, StoreError>> + Send {
        self.0.send_or(call, |why: String| protocol_error(why))
    }

    fn table_url(&self, table: &str) -> String {
        self.0
            .connection()
            .endpoint
            .url(&format!("/{}", encode(table)))
    }
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

impl Backend for Tables {
    fn create_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        let body = wire::ascii_json(&serde_json::json!({ "TableName": table }));
        let call = Call::new(
            Method::POST,
            "/Tables".to_owned(),
            Repeat::ConnectFailuresOnly,
        )
        .body(CONTENT_JSON, body)
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
                .header(wire::NEXT_TABLE_NAME)
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
                    .body(CONTENT_JSON, wire::entity_body(e))
                    .header(
                        HeaderName::from_static("prefer"),
                        "return-no-content".into(),
                    )
            }
            BatchOperation::Replace(e, m) => if_match(
                Call::new(Method::PUT, entity_path, repeat)
                    .body(CONTENT_JSON, wire::entity_body(e)),
                m,
            ),
            BatchOperation::Merge(e, m) => if_match(
                Call::new(merge(), entity_path, repeat).body(CONTENT_JSON, wire::entity_body(e)),
                m,
            ),
            BatchOperation::UpsertReplace(e) => {
                Call::new(Method::PUT, entity_path, repeat).body(CONTENT_JSON, wire::entity_body(e))
            }
            BatchOperation::UpsertMerge(e) => {
                Call::new(merge(), entity_path, repeat).body(CONTENT_JSON, wire::entity_body(e))
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
                .header(wire::NEXT_PARTITION_KEY)
                .filter(|s| !s.is_empty())
                .map(|pk| Continuation {
                    next_partition_key: pk.to_owned(),
                    next_row_key: answer
                        .header(wire::NEXT_ROW_KEY)
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
        let endpoint = &self.0.connection().endpoint;
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
    use crate::transport::testing::{Reply, fake_service};
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

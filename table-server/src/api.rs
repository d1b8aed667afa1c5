//! The Table service's operations over a [`Backend`]: the store itself for requests signed with
//! the key (or an account SAS, checked here), or the store behind a table SAS's `Scoped`
//! wrapper, which applies the SAS's permissions and key range.

use bytes::Bytes;
use hyper::StatusCode;
use table_http::wire::format::{self, Metadata, Place};
use table_http::wire::multipart::{self, BatchAnswer};
use table_http::wire::{
    self, NEXT_PARTITION_KEY, NEXT_ROW_KEY, NEXT_TABLE_NAME, continuation_key, continuation_token,
};
use table_runtime::batch::BatchOperation;
use table_runtime::query::{Continuation, Filter, Query};
use table_runtime::{Backend, ETag, Entity, ErrorCode, IfMatch, StoreError};

use crate::route::{Resource, Target};

/// An answer before the common headers are added.
#[derive(Debug)]
pub struct Answer {
    /// The status.
    pub status: StatusCode,
    /// Headers of this operation.
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Bytes,
}

impl Answer {
    fn empty(status: StatusCode) -> Answer {
        Answer {
            status,
            headers: Vec::new(),
            body: Bytes::new(),
        }
    }

    fn json(status: StatusCode, level: Metadata, body: Vec<u8>) -> Answer {
        Answer {
            status,
            headers: vec![("content-type", level.content_type().to_owned())],
            body: Bytes::from(body),
        }
    }

    fn header(mut self, name: &'static str, value: impl Into<String>) -> Answer {
        self.headers.push((name, value.into()));
        self
    }
}

/// What an operation needs from its request beyond the target.
#[derive(Debug)]
pub struct Request<'a> {
    /// The method, upper case (`X-HTTP-Method` applied).
    pub method: &'a str,
    /// The target.
    pub target: &'a Target,
    /// The request's headers.
    pub headers: &'a hyper::HeaderMap,
    /// The body.
    pub body: &'a [u8],
}

impl Request<'_> {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<String> {
        crate::header(self.headers, name).map(str::to_owned)
    }

    fn metadata(&self) -> Result<Metadata, StoreError> {
        Metadata::requested(
            self.header("accept").as_deref(),
            self.target.param("$format"),
        )
    }

    fn place<'p>(&'p self, table: &'p str) -> Place<'p> {
        Place {
            base: &self.target.base,
            account: &self.target.account,
            table,
        }
    }

    fn prefer(&self) -> Option<Preference> {
        let prefer = self.header("prefer")?.to_ascii_lowercase();
        if prefer.contains("return-no-content") {
            Some(Preference::NoContent)
        } else if prefer.contains("return-content") {
            Some(Preference::Content)
        } else {
            None
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Preference {
    Content,
    NoContent,
}

fn invalid(message: impl Into<String>) -> StoreError {
    StoreError::new(ErrorCode::InvalidInput, message)
}

fn verb_refused(method: &str, what: &str) -> StoreError {
    StoreError::new(
        ErrorCode::UnsupportedHttpVerb,
        format!("{method} is not an operation on {what}"),
    )
}

/// Reads a request's entity body, strictly (see [`table_http::wire::read_request_entity`]).
fn entity_body(body: &[u8]) -> Result<Entity, StoreError> {
    if body.is_empty() {
        return Err(invalid("the request has no entity in its body"));
    }
    wire::read_request_entity(body)
}

/// The entity a write names: the body's properties with the URL's keys. Keys the body gives
/// too are ignored, even when they differ: the service writes the entity the URL names (a
/// recorded exchange with it shows a merge whose body said `a''''b` land on `a''b`).
fn entity_at(body: &[u8], pk: &str, rk: &str) -> Result<Entity, StoreError> {
    let mut entity = if body.is_empty() {
        Entity::new(pk, rk)
    } else {
        wire::read_request_entity_keyless(body)?
    };
    entity.partition_key = pk.to_owned();
    entity.row_key = rk.to_owned();
    Ok(entity)
}

/// The condition an `If-Match` header sets, read by the wire module's rules.
fn if_match(value: Option<&str>) -> Result<Option<IfMatch>, StoreError> {
    value.map(wire::read_if_match).transpose()
}

fn entity_url(req: &Request<'_>, table: &str, pk: &str, rk: &str) -> String {
    wire::entity_url(&req.target.base, table, pk, rk)
}

/// The write a method makes on one entity.
fn entity_write(
    method: &str,
    table: &str,
    pk: &str,
    rk: &str,
    condition: Option<IfMatch>,
    body: &[u8],
) -> Result<BatchOperation, StoreError> {
    Ok(match (method, condition) {
        ("PUT", Some(c)) => BatchOperation::Replace(entity_at(body, pk, rk)?, c),
        ("PUT", None) => BatchOperation::UpsertReplace(entity_at(body, pk, rk)?),
        ("MERGE" | "PATCH", Some(c)) => BatchOperation::Merge(entity_at(body, pk, rk)?, c),
        ("MERGE" | "PATCH", None) => BatchOperation::UpsertMerge(entity_at(body, pk, rk)?),
        ("DELETE", Some(c)) => BatchOperation::Delete {
            partition_key: pk.to_owned(),
            row_key: rk.to_owned(),
            if_match: c,
        },
        ("DELETE", None) => {
            return Err(StoreError::new(
                ErrorCode::MissingRequiredHeader,
                "deleting an entity needs an If-Match header (an ETag, or `*`)",
            ));
        }
        (other, _) => return Err(verb_refused(other, &format!("an entity of `{table}`"))),
    })
}

/// How a query went, for `--trace-queries`.
#[derive(Debug, Clone)]
pub struct Traced {
    /// The table.
    pub table: String,
    /// The filter's text.
    pub filter: String,
    /// What the page cost.
    pub stats: table_runtime::QueryStats,
}

/// Runs a request on `backend`. Writes leave a note in `wrote` so the caller can wait for the
/// disk before answering; queries leave theirs in `traced`.
pub async fn run<B: Backend>(
    backend: &B,
    req: &Request<'_>,
    wrote: &mut bool,
    traced: &mut Option<Traced>,
) -> Result<Answer, StoreError> {
    let method = req.method;
    if matches!(method, "POST" | "PUT" | "MERGE" | "PATCH")
        && req.target.resource != Resource::Batch
    {
        json_media(req)?;
    }
    match &req.target.resource {
        Resource::Tables => match method {
            "GET" => query_tables(backend, req).await,
            "POST" => {
                let answer = create_table(backend, req).await?;
                *wrote = true;
                Ok(answer)
            }
            _ => Err(verb_refused(method, "Tables")),
        },
        Resource::Table(name) => match method {
            "DELETE" => {
                backend.delete_table(name).await?;
                *wrote = true;
                Ok(Answer::empty(StatusCode::NO_CONTENT))
            }
            _ => Err(verb_refused(method, "a table")),
        },
        Resource::Rows(table) => match method {
            "GET" => query_entities(backend, req, table, traced).await,
            "POST" => {
                let answer = insert(backend, req, table).await?;
                *wrote = true;
                Ok(answer)
            }
            _ => Err(verb_refused(method, "a table's entities")),
        },
        Resource::Entity(table, pk, rk) => {
            if method == "GET" {
                return get_entity(backend, req, table, pk, rk).await;
            }
            let op = entity_write(
                method,
                table,
                pk,
                rk,
                if_match(req.header("if-match").as_deref())?,
                req.body,
            )?;
            let written = backend.write(table, op.clone()).await?;
            *wrote = true;
            let mut answer = Answer::empty(StatusCode::NO_CONTENT);
            if !matches!(op, BatchOperation::Delete { .. }) {
                answer = answer.header("etag", written.etag.to_header());
            }
            Ok(answer)
        }
        Resource::Batch => match method {
            "POST" => {
                let content_type = req.header("content-type").unwrap_or_default();
                match multipart::read_batch_request(&content_type, req.body)? {
                    multipart::BatchRequest::Changeset(parts) => {
                        let answer = batch(backend, req, &parts).await?;
                        *wrote = true;
                        Ok(answer)
                    }
                    multipart::BatchRequest::Query(part) => {
                        batch_query(backend, req, &part, traced).await
                    }
                }
            }
            _ => Err(verb_refused(method, "$batch")),
        },
        // The caller has found the table (it answers TableNotFound otherwise).
        Resource::Nested(table, rest) => Err(nested(req, table, rest)),
        // The server's settings answer these (`crate::settings`), before any table operation.
        Resource::Service => Err(StoreError::new(
            ErrorCode::InvalidUri,
            "the account's own URL names no table operation",
        )),
    }
}

/// A body in JSON, the one format this server speaks (the service takes Atom XML too, for the
/// versions before JSON): a body declared as anything else is 415 MediaTypeNotSupported, as the
/// service answers a `multipart/mixed` body sent to insert an entity. A body with no
/// `Content-Type` is read as JSON.
fn json_media(req: &Request<'_>) -> Result<(), StoreError> {
    let Some(content_type) = req.header("content-type") else {
        return Ok(());
    };
    let media = content_type.split(';').next().unwrap_or_default().trim();
    if media.is_empty() || media.eq_ignore_ascii_case("application/json") {
        return Ok(());
    }
    Err(StoreError::new(
        ErrorCode::MediaTypeNotSupported,
        format!("this operation takes a JSON body (`application/json`), not `{media}`"),
    ))
}

/// The refusal of `table/rest` once `table` is found: the service reads a `POST` as an insert
/// into the table, so a body without both keys is PropertiesNeedValue (recorded: a create-table
/// body sent to `/mytable/Tables`); a key predicate with one key (`Tables('mytable')`) is
/// InvalidInput, as the table's entities have two. What the service does with a complete
/// entity sent there is not recorded: this server writes nothing and answers InvalidUri.
fn nested(req: &Request<'_>, table: &str, rest: &str) -> StoreError {
    let nowhere = || {
        StoreError::new(
            ErrorCode::InvalidUri,
            format!(
                "The requested URI does not represent any resource on the server.\n`{table}/{rest}`: a table is addressed as `{table}` or `{table}(PartitionKey='…',RowKey='…')`; is the table name part of the account URL?"
            ),
        )
    };
    if req.method == "POST" {
        return match entity_body(req.body) {
            Err(e) => e,
            Ok(_) => nowhere(),
        };
    }
    let single_key = rest
        .split_once('(')
        .and_then(|(_, args)| args.strip_suffix(')'))
        .is_some_and(|args| !args.contains(','));
    if single_key {
        return StoreError::new(
            ErrorCode::InvalidInput,
            "The number of keys specified in the URI does not match number of key properties for the resource.",
        );
    }
    nowhere()
}

async fn create_table<B: Backend>(backend: &B, req: &Request<'_>) -> Result<Answer, StoreError> {
    let level = req.metadata()?;
    let json: serde_json::Value = serde_json::from_slice(req.body)
        .map_err(|e| invalid(format!("the body is not JSON: {e}")))?;
    let name = json
        .get("TableName")
        .and_then(|n| n.as_str())
        .ok_or_else(|| {
            StoreError::new(
                ErrorCode::PropertiesNeedValue,
                "the body needs a string `TableName`",
            )
        })?;
    backend.create_table(name).await?;
    let link = format!("{}/Tables('{name}')", req.target.base);
    // DataServiceId goes with a 204 only: an answer with content names what it created in its
    // body, as the service's answers do.
    let answer = match req.prefer() {
        Some(Preference::NoContent) => Answer::empty(StatusCode::NO_CONTENT)
            .header("preference-applied", "return-no-content")
            .header("dataserviceid", link.clone()),
        preference => {
            let body = format::table_document(name, level, &req.place(""));
            let answer = Answer::json(StatusCode::CREATED, level, body);
            match preference {
                Some(_) => answer.header("preference-applied", "return-content"),
                None => answer,
            }
        }
    };
    Ok(answer.header("location", link))
}

async fn query_tables<B: Backend>(backend: &B, req: &Request<'_>) -> Result<Answer, StoreError> {
    let level = req.metadata()?;
    let top = top(req)?.unwrap_or(1000);
    let filter = match req.target.param("$filter") {
        Some(text) if !text.trim().is_empty() => Some(
            Filter::parse(text).map_err(|e| invalid(format!("the $filter does not parse: {e}")))?,
        ),
        _ => None,
    };
    // The service's own tokens carry more than the name after it (`mytable2\u{1}01d6…`); a
    // table name is letters and digits, so the name is what comes before anything else.
    let mut continuation = req.target.param("NextTableName").map(|token| {
        let key = continuation_key(token);
        let end = key
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(key.len());
        key[..end].to_owned()
    });
    let mut names = Vec::new();
    let mut next = None;
    'pages: loop {
        if top == 0 {
            // `$top=0` asks for nothing: an empty page without a continuation.
            break;
        }
        let page = backend.list_tables(Some(1000), continuation.take()).await?;
        for name in page.tables {
            if names.len() == top {
                next = Some(name);
                break 'pages;
            }
            let row = Entity::new("", "").with("TableName", name.as_str());
            if filter.as_ref().is_none_or(|f| f.matches(&row)) {
                names.push(name);
            }
        }
        match page.continuation {
            Some(c) => continuation = Some(c),
            None => break,
        }
    }
    let mut answer = Answer::json(
        StatusCode::OK,
        level,
        format::table_page(&names, level, &req.place("")),
    );
    if let Some(next) = next {
        answer = answer.header(NEXT_TABLE_NAME, continuation_token(&next));
    }
    Ok(answer)
}

/// `$top`: at most 1000. Zero is allowed (Storage Explorer sends `$top=0`) and answers an
/// empty page.
fn top(req: &Request<'_>) -> Result<Option<usize>, StoreError> {
    req.target
        .param("$top")
        .map(|t| {
            t.trim()
                .parse::<usize>()
                .ok()
                .filter(|n| *n <= 1000)
                .ok_or_else(|| invalid(format!("$top is `{t}`; it must be between 0 and 1000")))
        })
        .transpose()
}

/// `$select`'s names, when the request has one. One that names nothing (`$select=`,
/// `$select=%20`, as older SDKs and Storage Explorer send) selects every property, as the
/// service answers it: see [`projection`].
fn select(req: &Request<'_>) -> Option<Vec<String>> {
    req.target.param("$select").map(|s| {
        s.split(',')
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .collect()
    })
}

/// The properties a `$select` keeps: `None` (all of them) when it names none.
fn projection(select: Option<Vec<String>>) -> Option<Vec<String>> {
    select.filter(|names| !names.is_empty())
}

async fn query_entities<B: Backend>(
    backend: &B,
    req: &Request<'_>,
    table: &str,
    traced: &mut Option<Traced>,
) -> Result<Answer, StoreError> {
    let level = req.metadata()?;
    let mut query = match req.target.param("$filter") {
        Some(text) if !text.trim().is_empty() => Query::filter(text)?,
        _ => Query::all(),
    };
    let selected = select(req);
    query.select = projection(selected.clone());
    query.top = top(req)?;
    if query.top == Some(0) {
        // Nothing is asked for: an empty page. The store is still asked for one entity, so
        // that a table that does not exist is still TableNotFound.
        query.top = Some(1);
        backend.visit_page(table, &query, |_| ()).await?;
        let writer = format::PageWriter::as_asked(
            selected.as_deref(),
            req.target.param("$select"),
            level,
            req.place(table),
        );
        return Ok(Answer::json(StatusCode::OK, level, writer.finish()));
    }
    query.continuation = req.target.param("NextPartitionKey").map(|pk| Continuation {
        next_partition_key: continuation_key(pk),
        next_row_key: req
            .target
            .param("NextRowKey")
            .map(continuation_key)
            .unwrap_or_default(),
    });
    // The page is written as the store hands out its entities, without copying them out.
    let mut writer = format::PageWriter::as_asked(
        selected.as_deref(),
        req.target.param("$select"),
        level,
        req.place(table),
    );
    let page = backend
        .visit_page(table, &query, |entity| writer.push(entity))
        .await?;
    *traced = Some(Traced {
        table: table.to_owned(),
        filter: query
            .filter
            .as_ref()
            .map(|f| f.text.clone())
            .unwrap_or_default(),
        stats: page.stats,
    });
    let mut answer = Answer::json(StatusCode::OK, level, writer.finish());
    if let Some(next) = page.continuation {
        answer = answer
            .header(
                NEXT_PARTITION_KEY,
                continuation_token(&next.next_partition_key),
            )
            .header(NEXT_ROW_KEY, continuation_token(&next.next_row_key));
    }
    Ok(answer)
}

async fn get_entity<B: Backend>(
    backend: &B,
    req: &Request<'_>,
    table: &str,
    pk: &str,
    rk: &str,
) -> Result<Answer, StoreError> {
    let level = req.metadata()?;
    let select = projection(select(req));
    let names: Option<Vec<&str>> = select
        .as_ref()
        .map(|s| s.iter().map(String::as_str).collect());
    let entity = backend.get(table, pk, rk, names.as_deref()).await?;
    let etag = entity.etag.as_ref().map(ETag::to_header);
    let body = format::entity_document(&entity, select.as_deref(), level, &req.place(table));
    let mut answer = Answer::json(StatusCode::OK, level, body);
    if let Some(etag) = etag {
        answer = answer.header("etag", etag);
    }
    Ok(answer)
}

async fn insert<B: Backend>(
    backend: &B,
    req: &Request<'_>,
    table: &str,
) -> Result<Answer, StoreError> {
    let level = req.metadata()?;
    let entity = entity_body(req.body)?;
    let written = backend
        .write(table, BatchOperation::Insert(entity.clone()))
        .await?;
    let link = entity_url(req, table, &entity.partition_key, &entity.row_key);
    let answer = match req.prefer() {
        Some(Preference::NoContent) => Answer::empty(StatusCode::NO_CONTENT)
            .header("preference-applied", "return-no-content")
            .header("dataserviceid", link.clone()),
        preference => {
            let mut stored = entity;
            stored.timestamp = Some(written.timestamp);
            stored.etag = Some(written.etag.clone());
            let body = format::entity_document(&stored, None, level, &req.place(table));
            let answer = Answer::json(StatusCode::CREATED, level, body);
            match preference {
                Some(_) => answer.header("preference-applied", "return-content"),
                None => answer,
            }
        }
    };
    Ok(answer
        .header("etag", written.etag.to_header())
        .header("location", link))
}

/// One operation of a `$batch`, read from its part.
struct Operation {
    op: BatchOperation,
    table: String,
    content_id: Option<String>,
    prefer: Option<Preference>,
}

/// The path and query of an operation's URL in a `$batch`.
fn part_path<'a>(part: &multipart::BatchPart<'a>) -> (&'a str, Option<&'a str>) {
    let url = part.url;
    // An absolute URL: the path and query after the authority.
    let path_and_query = match url.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => url,
    };
    match path_and_query.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path_and_query, None),
    }
}

/// The resource an operation of a `$batch` names.
fn part_resource(part: &multipart::BatchPart<'_>, target: &Target) -> Result<Resource, StoreError> {
    let (path, _) = part_path(part);
    // A path-style URL names the batch's own account first (its secondary name reads the same
    // account); the path after it names the resource. Otherwise the whole path does.
    match crate::route::path_account(path) {
        Ok((account, rest)) if crate::route::primary_account(&account).0 == target.account => {
            crate::route::resource(rest)
        }
        _ => crate::route::resource(path),
    }
}

/// The resource an operation of a `$batch` names, with its path and query.
fn part_target(part: &multipart::BatchPart<'_>, target: &Target) -> Result<Target, StoreError> {
    let (path, query) = part_path(part);
    let raw_query = query.unwrap_or_default().to_owned();
    Ok(Target {
        resource: part_resource(part, target)?,
        query: crate::route::query_params(&raw_query)?,
        raw_query,
        raw_path: path.to_owned(),
        ..target.clone()
    })
}

/// The method an operation of a `$batch` stands for: its own, or the `X-HTTP-Method` a `POST`
/// carries.
fn part_method(part: &multipart::BatchPart<'_>) -> String {
    match part.header("x-http-method") {
        Some(m) if part.method == "POST" => m.to_ascii_uppercase(),
        _ => part.method.clone(),
    }
}

/// Each operation of a `$batch` body as its method, resource and whether it carries
/// `If-Match`, so that what a credential allows can be checked operation by operation; `None`
/// for a body that is not a `$batch` (answering it reports what is wrong).
pub(crate) fn batch_operations(req: &Request<'_>) -> Option<Vec<(String, Resource, bool)>> {
    let content_type = req.header("content-type").unwrap_or_default();
    let parts = match multipart::read_batch_request(&content_type, req.body).ok()? {
        multipart::BatchRequest::Changeset(parts) => parts,
        multipart::BatchRequest::Query(part) => vec![part],
    };
    parts
        .iter()
        .map(|part| {
            let resource = part_resource(part, req.target).ok()?;
            Some((
                part_method(part),
                resource,
                part.header("if-match").is_some(),
            ))
        })
        .collect()
}

fn batch_operation(
    part: &multipart::BatchPart<'_>,
    target: &Target,
) -> Result<Operation, StoreError> {
    let url = part.url;
    let resource = part_resource(part, target)?;
    let method = part_method(part);
    let prefer = part.header("prefer").map(|p| {
        if p.to_ascii_lowercase().contains("return-no-content") {
            Preference::NoContent
        } else {
            Preference::Content
        }
    });
    let condition = if_match(part.header("if-match"))?;
    let (table, op) = match (&resource, method.as_str()) {
        (Resource::Rows(table), "POST") => (
            table.clone(),
            BatchOperation::Insert(entity_body(part.body)?),
        ),
        (Resource::Entity(table, pk, rk), method) if method != "GET" => (
            table.clone(),
            entity_write(method, table, pk, rk, condition, part.body)?,
        ),
        (_, "GET") => {
            return Err(invalid(format!(
                "a query may not share a $batch with writes: send `GET {url}` alone"
            )));
        }
        (_, method) => {
            return Err(invalid(format!(
                "`{method} {url}` is not an entity operation a $batch can hold"
            )));
        }
    };
    Ok(Operation {
        op,
        table,
        content_id: part.content_id.map(str::to_owned),
        prefer,
    })
}

/// A failed operation's answer inside a `$batch` answer.
fn failed_part(error: &StoreError, level: Metadata, content_id: Option<String>) -> BatchAnswer {
    let mut headers = vec![("Content-Type".to_owned(), level.content_type().to_owned())];
    if let Some(id) = content_id {
        headers.push(("Content-ID".into(), id));
    }
    BatchAnswer {
        status: error.status,
        headers,
        body: format::error_document(
            error.code.as_str(),
            error.failed_index,
            &error.message,
            &crate::new_id(),
            &table_http::auth::http_date(time::OffsetDateTime::now_utc()),
        ),
    }
}

/// A query sent alone in a `$batch`: a point read or a query of one table, answered as one
/// part outside any changeset.
async fn batch_query<B: Backend>(
    backend: &B,
    req: &Request<'_>,
    part: &multipart::BatchPart<'_>,
    traced: &mut Option<Traced>,
) -> Result<Answer, StoreError> {
    let level = req.metadata()?;
    let mut headers = hyper::HeaderMap::new();
    for (name, value) in &part.headers {
        if let (Ok(name), Ok(value)) = (
            hyper::header::HeaderName::from_bytes(name.as_bytes()),
            hyper::header::HeaderValue::from_str(value),
        ) {
            headers.append(name, value);
        }
    }
    let answered = match part_target(part, req.target) {
        Err(e) => Err(e),
        Ok(target) => {
            let inner = Request {
                method: "GET",
                target: &target,
                headers: &headers,
                body: &[],
            };
            match &target.resource {
                Resource::Entity(table, pk, rk) => get_entity(backend, &inner, table, pk, rk).await,
                Resource::Rows(table) => query_entities(backend, &inner, table, traced).await,
                _ => Err(invalid(format!(
                    "`GET {}` is not a query a $batch can hold (an entity, or a table's entities)",
                    part.url
                ))),
            }
        }
    };
    let answer = match answered {
        Ok(answer) => {
            let mut headers: Vec<(String, String)> = answer
                .headers
                .into_iter()
                .map(|(name, value)| (name.to_owned(), value))
                .collect();
            if let Some(id) = &part.content_id {
                headers.push(("Content-ID".into(), (*id).to_owned()));
            }
            BatchAnswer {
                status: answer.status.as_u16(),
                headers,
                body: answer.body.to_vec(),
            }
        }
        Err(e) => failed_part(&e, level, part.content_id.map(str::to_owned)),
    };
    let (content_type, body) = multipart::write_query_answer(&answer, &crate::new_id());
    Ok(Answer {
        status: StatusCode::ACCEPTED,
        headers: vec![("content-type", content_type)],
        body: Bytes::from(body),
    })
}

async fn batch<B: Backend>(
    backend: &B,
    req: &Request<'_>,
    parts: &[multipart::BatchPart<'_>],
) -> Result<Answer, StoreError> {
    let level = req.metadata()?;
    let mut operations = Vec::with_capacity(parts.len());
    let mut failure = None;
    for (index, part) in parts.iter().enumerate() {
        match batch_operation(part, req.target) {
            Ok(op) => operations.push(op),
            Err(e) => {
                failure = Some((e.at_index(index), part.content_id.map(str::to_owned)));
                break;
            }
        }
    }
    if failure.is_none()
        && let Some(first) = operations.first()
        && let Some((index, other)) = operations
            .iter()
            .enumerate()
            .find(|(_, o)| !o.table.eq_ignore_ascii_case(&first.table))
    {
        failure = Some((
            invalid(format!(
                "a $batch acts on one table; operation {index} names `{}`, the first `{}`",
                other.table, first.table
            ))
            .at_index(index),
            other.content_id.clone(),
        ));
    }
    // What each answer needs, kept aside so the operations themselves move into the store: the
    // keys, and the entity only where an insert returns it.
    struct Sent {
        table: String,
        keys: Option<(String, String)>,
        content_id: Option<String>,
        returned: Option<Entity>,
        no_content: bool,
    }
    let table = operations
        .first()
        .map(|o| o.table.clone())
        .unwrap_or_default();
    let mut sent = Vec::with_capacity(operations.len());
    let mut ops = Vec::with_capacity(operations.len());
    for operation in operations {
        let no_content = operation.prefer == Some(Preference::NoContent);
        let insert = match &operation.op {
            BatchOperation::Insert(entity) => Some(entity),
            _ => None,
        };
        sent.push(Sent {
            keys: insert.map(|e| (e.partition_key.clone(), e.row_key.clone())),
            returned: insert.filter(|_| !no_content).cloned(),
            content_id: operation.content_id,
            table: operation.table,
            no_content,
        });
        ops.push(operation.op);
    }
    let result = match failure {
        Some(f) => Err(f),
        None if ops.is_empty() => Err((invalid("the $batch holds no operation"), None)),
        None => backend.execute_batch(&table, ops).await.map_err(|e| {
            let id = e
                .failed_index
                .and_then(|i| sent.get(i))
                .and_then(|o| o.content_id.clone());
            (e, id)
        }),
    };
    // The operations of one transaction share their ETag: its header is written once.
    let mut last_etag: Option<(ETag, String)> = None;
    let answers = match result {
        Ok(results) => sent
            .into_iter()
            .zip(results)
            .map(|(operation, result)| {
                let mut answer = BatchAnswer {
                    status: 204,
                    headers: Vec::new(),
                    body: Vec::new(),
                };
                if let Some(id) = operation.content_id {
                    answer.headers.push(("Content-ID".into(), id));
                }
                if let Some(etag) = &result.etag {
                    let header = match &last_etag {
                        Some((last, header)) if last == etag => header.clone(),
                        _ => {
                            let header = etag.to_header();
                            last_etag = Some((etag.clone(), header.clone()));
                            header
                        }
                    };
                    answer.headers.push(("ETag".into(), header));
                }
                if let Some((pk, rk)) = &operation.keys {
                    let link = entity_url(req, &operation.table, pk, rk);
                    answer.headers.push(("Location".into(), link.clone()));
                    // As for single requests: with a 204 only.
                    if operation.returned.is_none() {
                        answer.headers.push(("DataServiceId".into(), link));
                    }
                }
                if operation.no_content && operation.keys.is_some() {
                    answer
                        .headers
                        .push(("Preference-Applied".into(), "return-no-content".into()));
                }
                if let Some(mut stored) = operation.returned {
                    stored.etag = result.etag.clone();
                    stored.timestamp = result.etag.as_ref().and_then(ETag::timestamp);
                    answer.status = 201;
                    answer
                        .headers
                        .push(("Content-Type".into(), level.content_type().into()));
                    answer.body =
                        format::entity_document(&stored, None, level, &req.place(&operation.table));
                }
                answer
            })
            .collect(),
        Err((error, content_id)) => vec![failed_part(&error, level, content_id)],
    };
    let (content_type, body) = multipart::write_batch_answer(&answers, &crate::new_id());
    Ok(Answer {
        status: StatusCode::ACCEPTED,
        headers: vec![("content-type", content_type)],
        body: Bytes::from(body),
    })
}

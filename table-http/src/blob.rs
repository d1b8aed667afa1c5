//! [`AzureBlobs`]: Azure Blob Storage (block blobs) over its REST API behind
//! [`table_runtime::blob::BlobService`], so the large entities pattern keeps its values in a
//! store that outlives the process.
//!
//! - A blob is written whole with one Put Blob (at most [`MAX_PUT_BLOB_BYTES`]); its ETag is the
//!   service's (`"0x8D…"`), and `Last-Modified` is read to the second.
//! - Conditions are the HTTP ones: [`BlobCondition::IfNotExists`] is `If-None-Match: *`,
//!   [`BlobCondition::IfMatch`] and a delete's ETag are `If-Match`.
//! - A put into a container that does not exist creates the container and tries once more;
//!   reading from, listing or deleting in a missing container finds nothing (`NotFound`, an
//!   empty list), as with the in-process [`table_runtime::blob::BlobStore`].
//! - Container and blob names are checked by the service (a name it refuses is a
//!   [`BlobError::InvalidName`]); blob names are percent-encoded in the URL, `/` kept as the
//!   separator of their virtual folders.
//!
//! Retries follow the operation: see the comment at each request.

use std::time::SystemTime;

use hyper::Method;
use hyper::header::HeaderName;
use percent_encoding::percent_decode_str;
use table_runtime::ETag;
use table_runtime::blob::{
    Blob, BlobCondition, BlobError, BlobFuture, BlobProperties, BlobService,
};

use crate::auth;
use crate::connection::{Connection, ConnectionError, StorageService};
use crate::transport::{Answer, Call, Dialect, HttpOptions, Repeat, Transport};
use crate::wire::encode;
use crate::xml;

/// The largest blob one Put Blob writes: 5,000 MiB (or the largest `usize`, if smaller).
pub const MAX_PUT_BLOB_BYTES: usize = {
    let max: u64 = 5000 * 1024 * 1024;
    if max > usize::MAX as u64 {
        usize::MAX
    } else {
        max as usize
    }
};

/// The most blobs one List Blobs page holds.
pub const MAX_LIST_PAGE: usize = 5000;

const OCTET_STREAM: &str = "application/octet-stream";

/// An Azure Storage account's blob service, reached over HTTP with SharedKey or a SAS.
///
/// Cloning is cheap: clones share the connection pool and the I/O runtime.
///
/// ```no_run
/// use table_http::blob::AzureBlobs;
/// use table_runtime::blob::{BlobCondition, BlobService};
///
/// let blobs = AzureBlobs::from_connection_string("UseDevelopmentStorage=true")?;
/// pollster::block_on(async {
///     // The container is created by the first put into it.
///     let written = blobs.put("photos", "2024/ann.jpg", b"jpeg", BlobCondition::IfNotExists).await?;
///     let read = blobs.get("photos", "2024/ann.jpg").await?;
///     assert_eq!(read.properties.etag, written.etag);
///     assert_eq!(blobs.list("photos", "2024/").await?.len(), 1);
///     blobs.delete("photos", "2024/ann.jpg", Some(&written.etag)).await
/// })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct AzureBlobs {
    http: Transport,
    page_size: Option<usize>,
}

impl std::fmt::Debug for AzureBlobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AzureBlobs")
            .field("connection", self.http.connection())
            .field("page_size", &self.page_size)
            .finish_non_exhaustive()
    }
}

impl AzureBlobs {
    /// The blob service of the account a connection string names (its `BlobEndpoint`, see
    /// [`Connection::parse_for`]), with default HTTP options.
    pub fn from_connection_string(text: &str) -> Result<AzureBlobs, ConnectionError> {
        AzureBlobs::new(
            Connection::parse_for(text, StorageService::Blob)?,
            HttpOptions::default(),
        )
    }

    /// The blob service at a parsed connection (whose endpoint is the blob service's).
    pub fn new(connection: Connection, http: HttpOptions) -> Result<AzureBlobs, ConnectionError> {
        Ok(AzureBlobs {
            http: Transport::new(connection, http, Dialect::Storage)?,
            page_size: None,
        })
    }

    /// Asks for `blobs` blobs per List Blobs page (1 to [`MAX_LIST_PAGE`]) instead of the
    /// service's default (5,000): [`BlobService::list`] still returns every page.
    pub fn with_list_page_size(mut self, blobs: usize) -> AzureBlobs {
        self.page_size = Some(blobs.clamp(1, MAX_LIST_PAGE));
        self
    }

    /// The connection the blobs are reached through.
    pub fn connection(&self) -> &Connection {
        self.http.connection()
    }

    /// Creates a container if it does not exist yet (a put does this by itself).
    pub async fn create_container_if_missing(&self, container: &str) -> Result<(), BlobError> {
        check_names(container, None)?;
        // Repeating a create is harmless: a container that exists already is fine here.
        let call = Call::new(Method::PUT, format!("/{}", encode(container)), Repeat::Safe)
            .param("restype", "container");
        let answer = self.http.send_or(call, BlobError::Unreachable).await?;
        match (answer.status, xml::error_of(&answer).0.as_str()) {
            (201, _) | (409, "ContainerAlreadyExists") => Ok(()),
            _ => Err(blob_error(&answer, container, "")),
        }
    }

    async fn put_once(
        &self,
        container: &str,
        name: &str,
        content: &[u8],
        condition: &BlobCondition,
    ) -> Result<Answer, BlobError> {
        // An unconditional put is repeated after an unknown outcome: a repeat writes the same
        // bytes again. A conditional one is not: after a first attempt that succeeded, the
        // repeat would fail its own condition (the blob exists now; its ETag changed).
        let repeat = match condition {
            BlobCondition::Always => Repeat::Safe,
            BlobCondition::IfNotExists | BlobCondition::IfMatch(_) => Repeat::ConnectFailuresOnly,
        };
        let mut call = Call::new(Method::PUT, blob_path(container, name), repeat)
            .header(
                HeaderName::from_static("x-ms-blob-type"),
                "BlockBlob".into(),
            )
            .body(OCTET_STREAM, content.to_vec());
        match condition {
            BlobCondition::Always => {}
            BlobCondition::IfNotExists => {
                call = call.header(HeaderName::from_static("if-none-match"), "*".into());
            }
            BlobCondition::IfMatch(etag) => {
                call = call.header(HeaderName::from_static("if-match"), etag.to_header());
            }
        }
        self.http.send_or(call, BlobError::Unreachable).await
    }

    async fn put_blob(
        &self,
        container: &str,
        name: &str,
        content: &[u8],
        condition: BlobCondition,
    ) -> Result<BlobProperties, BlobError> {
        check_names(container, Some(name))?;
        if content.len() > MAX_PUT_BLOB_BYTES {
            return Err(BlobError::TooLarge {
                container: container.to_owned(),
                name: name.to_owned(),
                size: content.len(),
                max: MAX_PUT_BLOB_BYTES,
            });
        }
        let mut answer = self.put_once(container, name, content, &condition).await?;
        let container_missing =
            answer.status == 404 && xml::error_of(&answer).0 == "ContainerNotFound";
        // A put conditioned on an ETag needs the blob, so a missing container is its NotFound;
        // any other put creates the container and goes once more.
        if container_missing && !matches!(condition, BlobCondition::IfMatch(_)) {
            self.create_container_if_missing(container).await?;
            answer = self.put_once(container, name, content, &condition).await?;
        }
        if answer.status == 201 {
            return properties_of(&answer, container, name, content.len() as u64);
        }
        // The service's own limit, where it says what it is.
        let limit = (answer.status == 413)
            .then(|| xml::parse(&answer.body).ok())
            .flatten()
            .and_then(|e| e.child_text("MaxLimit").and_then(|m| m.trim().parse().ok()));
        match (blob_error(&answer, container, name), limit) {
            (e @ BlobError::ConditionNotMet { .. }, _) => {
                Err(self.missing_or(e, container, name).await)
            }
            (_, Some(max)) => Err(BlobError::TooLarge {
                container: container.to_owned(),
                name: name.to_owned(),
                size: content.len(),
                max,
            }),
            (e, None) => Err(e),
        }
    }

    /// After a failed `If-Match`: `NotFound` when the blob does not exist (as the in-process
    /// store says), else `error`.
    async fn missing_or(&self, error: BlobError, container: &str, name: &str) -> BlobError {
        match self.head(container, name).await {
            Err(missing @ BlobError::NotFound { .. }) => missing,
            _ => error,
        }
    }

    async fn head(&self, container: &str, name: &str) -> Result<BlobProperties, BlobError> {
        check_names(container, Some(name))?;
        // Get Blob Properties changes nothing: safe to repeat.
        let call = Call::new(Method::HEAD, blob_path(container, name), Repeat::Safe);
        let answer = self.http.send_or(call, BlobError::Unreachable).await?;
        if answer.status != 200 {
            return Err(blob_error(&answer, container, name));
        }
        let size = content_length(&answer)?;
        properties_of(&answer, container, name, size)
    }

    async fn get_blob(&self, container: &str, name: &str) -> Result<Blob, BlobError> {
        check_names(container, Some(name))?;
        // Get Blob changes nothing: safe to repeat.
        let call = Call::new(Method::GET, blob_path(container, name), Repeat::Safe);
        let answer = self.http.send_or(call, BlobError::Unreachable).await?;
        if answer.status != 200 {
            return Err(blob_error(&answer, container, name));
        }
        let properties = properties_of(&answer, container, name, answer.body.len() as u64)?;
        Ok(Blob {
            properties,
            content: answer.body.to_vec(),
        })
    }

    async fn delete_blob(
        &self,
        container: &str,
        name: &str,
        if_match: Option<&ETag>,
    ) -> Result<(), BlobError> {
        check_names(container, Some(name))?;
        // An unconditional delete is repeated after an unknown outcome: if the first attempt
        // deleted the blob, the repeat finds it gone (404), which is read as done below. One
        // conditioned on an ETag is not: whether the blob was there in that version is what
        // it asks, and a repeat could no longer tell.
        let mut call = Call::new(
            Method::DELETE,
            blob_path(container, name),
            if if_match.is_some() {
                Repeat::ConnectFailuresOnly
            } else {
                Repeat::Safe
            },
        );
        if let Some(etag) = if_match {
            call = call.header(HeaderName::from_static("if-match"), etag.to_header());
        }
        let answer = self.http.send_or(call, BlobError::Unreachable).await?;
        if answer.status == 202 || answer.status == 200 {
            return Ok(());
        }
        match blob_error(&answer, container, name) {
            BlobError::NotFound { .. } if answer.repeated && if_match.is_none() => Ok(()),
            e @ BlobError::ConditionNotMet { .. } => Err(self.missing_or(e, container, name).await),
            e => Err(e),
        }
    }

    async fn list_blobs(
        &self,
        container: &str,
        prefix: &str,
    ) -> Result<Vec<BlobProperties>, BlobError> {
        check_names(container, None)?;
        let mut blobs = Vec::new();
        let mut marker: Option<String> = None;
        loop {
            // Listing changes nothing: safe to repeat.
            let mut call = Call::new(Method::GET, format!("/{}", encode(container)), Repeat::Safe)
                .param("restype", "container")
                .param("comp", "list");
            if !prefix.is_empty() {
                call = call.param("prefix", prefix);
            }
            if let Some(marker) = &marker {
                call = call.param("marker", marker);
            }
            if let Some(size) = self.page_size {
                call = call.param("maxresults", &size.to_string());
            }
            let answer = self.http.send_or(call, BlobError::Unreachable).await?;
            if answer.status != 200 {
                return match blob_error(&answer, container, "") {
                    // A container that does not exist holds no blobs.
                    BlobError::NotFound { .. } => Ok(Vec::new()),
                    e => Err(e),
                };
            }
            let (page, next) = read_listing(&answer.body, container)?;
            blobs.extend(page);
            match next {
                Some(next) if Some(&next) != marker.as_ref() => marker = Some(next),
                Some(_) => {
                    return Err(BlobError::Unreachable(format!(
                        "listing `{container}`: the service gave the same NextMarker twice"
                    )));
                }
                None => break,
            }
        }
        // In name order, as the in-process store lists them, whatever order the pages came in.
        blobs.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(blobs)
    }
}

impl BlobService for AzureBlobs {
    fn max_blob_bytes(&self) -> Option<usize> {
        Some(MAX_PUT_BLOB_BYTES)
    }

    fn put<'a>(
        &'a self,
        container: &'a str,
        name: &'a str,
        content: &'a [u8],
        condition: BlobCondition,
    ) -> BlobFuture<'a, BlobProperties> {
        Box::pin(self.put_blob(container, name, content, condition))
    }

    fn get<'a>(&'a self, container: &'a str, name: &'a str) -> BlobFuture<'a, Blob> {
        Box::pin(self.get_blob(container, name))
    }

    fn properties<'a>(
        &'a self,
        container: &'a str,
        name: &'a str,
    ) -> BlobFuture<'a, BlobProperties> {
        Box::pin(self.head(container, name))
    }

    fn delete<'a>(
        &'a self,
        container: &'a str,
        name: &'a str,
        if_match: Option<&'a ETag>,
    ) -> BlobFuture<'a, ()> {
        Box::pin(self.delete_blob(container, name, if_match))
    }

    fn list<'a>(
        &'a self,
        container: &'a str,
        prefix: &'a str,
    ) -> BlobFuture<'a, Vec<BlobProperties>> {
        Box::pin(self.list_blobs(container, prefix))
    }
}

/// Refuses the names that would not even make a blob's URL: an empty container or blob name
/// (the URL would name the account or the container instead). Everything else about a name
/// is the service's to judge.
fn check_names(container: &str, name: Option<&str>) -> Result<(), BlobError> {
    if container.is_empty() {
        return Err(BlobError::InvalidName(
            "a container name is 3 to 63 characters; this one is empty".into(),
        ));
    }
    if name.is_some_and(str::is_empty) {
        return Err(BlobError::InvalidName(
            "a blob name is 1 to 1024 characters; this one is empty".into(),
        ));
    }
    Ok(())
}

/// A blob's path: the container, then each `/`-separated part of the name percent-encoded.
fn blob_path(container: &str, name: &str) -> String {
    let mut path = format!("/{}", encode(container));
    for segment in name.split('/') {
        path.push('/');
        path.push_str(&encode(segment));
    }
    path
}

/// The properties in a put's, read's or HEAD's answer.
fn properties_of(
    answer: &Answer,
    container: &str,
    name: &str,
    size: u64,
) -> Result<BlobProperties, BlobError> {
    let etag = answer.header("etag").ok_or_else(|| {
        BlobError::Unreachable(format!(
            "the answer about blob `{container}/{name}` has no ETag"
        ))
    })?;
    Ok(BlobProperties {
        container: container.to_owned(),
        name: name.to_owned(),
        size,
        etag: ETag::from_raw(etag),
        last_modified: answer
            .header("last-modified")
            .and_then(auth::parse_http_date)
            .map_or_else(SystemTime::now, SystemTime::from),
    })
}

fn content_length(answer: &Answer) -> Result<u64, BlobError> {
    answer
        .header("content-length")
        .and_then(|l| l.trim().parse().ok())
        .ok_or_else(|| BlobError::Unreachable("a blob's properties have no Content-Length".into()))
}

/// One page of a List Blobs answer: its blobs, and the marker of the next page, if any.
fn read_listing(
    body: &[u8],
    container: &str,
) -> Result<(Vec<BlobProperties>, Option<String>), BlobError> {
    let unreadable = |why: String| BlobError::Unreachable(format!("listing `{container}`: {why}"));
    let root = xml::parse(body).map_err(unreadable)?;
    if root.name != "EnumerationResults" {
        return Err(unreadable(format!(
            "expected EnumerationResults, got <{}>",
            root.name
        )));
    }
    let mut blobs = Vec::new();
    for blob in root
        .child("Blobs")
        .into_iter()
        .flat_map(|b| b.children("Blob"))
    {
        let name_element = blob
            .child("Name")
            .ok_or_else(|| unreadable("a listed blob has no Name".into()))?;
        // Names with characters XML can't carry come percent-encoded, and say so.
        let name = if name_element.attribute("Encoded") == Some("true") {
            percent_decode_str(&name_element.text)
                .decode_utf8()
                .map_err(|_| unreadable(format!("blob name `{}` is not UTF-8", name_element.text)))?
                .into_owned()
        } else {
            name_element.text.clone()
        };
        let properties = blob
            .child("Properties")
            .ok_or_else(|| unreadable(format!("blob `{name}` is listed without properties")))?;
        let etag = properties
            .child_text("Etag")
            .filter(|e| !e.is_empty())
            .ok_or_else(|| unreadable(format!("blob `{name}` is listed without an ETag")))?;
        // Listings give the ETag bare; headers quote it. Kept in the headers' form, so a
        // listed ETag matches the one a put or a read returned.
        let etag = if etag.starts_with('"') || etag.starts_with("W/") {
            etag.to_owned()
        } else {
            format!("\"{etag}\"")
        };
        let size = properties
            .child_text("Content-Length")
            .and_then(|l| l.trim().parse().ok())
            .ok_or_else(|| unreadable(format!("blob `{name}` is listed without its length")))?;
        let last_modified = properties
            .child_text("Last-Modified")
            .and_then(auth::parse_http_date)
            .map(SystemTime::from)
            .ok_or_else(|| unreadable(format!("blob `{name}` is listed without Last-Modified")))?;
        blobs.push(BlobProperties {
            container: container.to_owned(),
            name,
            size,
            etag: ETag::from_raw(etag),
            last_modified,
        });
    }
    let next = root
        .child_text("NextMarker")
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_owned);
    Ok((blobs, next))
}

/// The error an answer about blob `name` of `container` stands for (`name` empty for the
/// container itself).
fn blob_error(answer: &Answer, container: &str, name: &str) -> BlobError {
    let (code, body_message) = xml::error_of(answer);
    let message = body_message.unwrap_or_else(|| format!("HTTP {}", answer.status));
    let (container, name) = (container.to_owned(), name.to_owned());
    match (answer.status, code.as_str()) {
        (404, _) => BlobError::NotFound { container, name },
        (409, "BlobAlreadyExists") => BlobError::AlreadyExists { container, name },
        (412, _) => BlobError::ConditionNotMet { container, name },
        (400, "InvalidResourceName" | "OutOfRangeInput" | "InvalidUri") => {
            BlobError::InvalidName(if name.is_empty() {
                format!("container name `{container}`: {message}")
            } else {
                format!("blob name `{container}/{name}`: {message}")
            })
        }
        (status, _) => BlobError::Service {
            status,
            code,
            message,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blob_paths_keep_their_folders() {
        assert_eq!(blob_path("photos", "a.jpg"), "/photos/a.jpg");
        assert_eq!(
            blob_path("photos", "2024/été 1/ann+bob.jpg"),
            "/photos/2024/%C3%A9t%C3%A9%201/ann%2Bbob.jpg"
        );
        assert_eq!(blob_path("c", "a//b/"), "/c/a//b/");
        assert_eq!(blob_path("c", "?#%"), "/c/%3F%23%25");
    }

    #[test]
    fn empty_names_are_refused_before_sending() {
        assert!(matches!(
            check_names("", None),
            Err(BlobError::InvalidName(_))
        ));
        assert!(matches!(
            check_names("c", Some("")),
            Err(BlobError::InvalidName(_))
        ));
        assert!(check_names("c", Some("n")).is_ok());
    }

    fn fake_blobs(port: u16) -> AzureBlobs {
        let connection =
            Connection::development_on(&format!("http://127.0.0.1:{port}/devstoreaccount1"))
                .unwrap();
        let options = HttpOptions {
            retry: crate::RetryPolicy {
                max_retries: 2,
                initial_delay: std::time::Duration::from_millis(1),
                max_delay: std::time::Duration::from_millis(5),
                attempt_timeout: std::time::Duration::from_millis(500),
            },
            io_threads: 1,
        };
        AzureBlobs::new(connection, options).unwrap()
    }

    const PAGE_1: &str = "<EnumerationResults><Blobs><Blob><Name>b</Name><Properties>\
        <Last-Modified>Tue, 30 Jul 2024 08:15:42 GMT</Last-Modified><Etag>0x2</Etag>\
        <Content-Length>1</Content-Length></Properties></Blob></Blobs><NextMarker>m1</NextMarker>\
        </EnumerationResults>";
    const PAGE_2: &str = "<EnumerationResults><Blobs><Blob><Name>a</Name><Properties>\
        <Last-Modified>Tue, 30 Jul 2024 08:15:42 GMT</Last-Modified><Etag>0x1</Etag>\
        <Content-Length>2</Content-Length></Properties></Blob></Blobs><NextMarker/>\
        </EnumerationResults>";

    #[test]
    fn listings_follow_next_markers() {
        use crate::transport::testing::{Reply, fake_service};
        use std::sync::atomic::Ordering::SeqCst;
        // A busy answer is retried (listing is safe to repeat), then two pages.
        let (port, count) = fake_service(vec![
            Reply::Status(503, ""),
            Reply::Status(200, PAGE_1),
            Reply::Status(200, PAGE_2),
        ]);
        let listed = pollster::block_on(fake_blobs(port).list_blobs("c", "")).unwrap();
        assert_eq!(count.load(SeqCst), 3);
        let names: Vec<&str> = listed.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        // A service that hands out the same marker again is an error, not an endless loop.
        let (port, _) = fake_service(vec![Reply::Status(200, PAGE_1), Reply::Status(200, PAGE_1)]);
        let err = pollster::block_on(fake_blobs(port).list_blobs("c", "")).unwrap_err();
        assert!(matches!(err, BlobError::Unreachable(ref why) if why.contains("same NextMarker")));
    }

    #[test]
    fn deletes_repeat_only_when_unconditional() {
        use crate::transport::testing::{Reply, fake_service};
        use std::sync::atomic::Ordering::SeqCst;
        const GONE: &str = "x-ms-error-code: BlobNotFound\r\n";
        // The answer to the first attempt was lost; the repeat finds the blob gone: deleted.
        let (port, count) = fake_service(vec![Reply::Close, Reply::With(404, GONE, "")]);
        pollster::block_on(fake_blobs(port).delete_blob("c", "n", None)).unwrap();
        assert_eq!(count.load(SeqCst), 2);
        // Without a repeat, a 404 is a NotFound.
        let (port, _) = fake_service(vec![Reply::With(404, GONE, "")]);
        let err = pollster::block_on(fake_blobs(port).delete_blob("c", "n", None)).unwrap_err();
        assert!(matches!(err, BlobError::NotFound { .. }));
        // With an ETag, sent once.
        let (port, count) = fake_service(vec![Reply::Close, Reply::Status(202, "")]);
        let etag = ETag::from_raw("\"0x1\"");
        let err = pollster::block_on(fake_blobs(port).delete_blob("c", "n", Some(&etag)));
        assert!(matches!(err, Err(BlobError::Unreachable(_))), "{err:?}");
        assert_eq!(count.load(SeqCst), 1);
        // So is a create-only put; an unconditional one is repeated.
        let (port, count) = fake_service(vec![Reply::Close, Reply::Status(201, "")]);
        let err = pollster::block_on(fake_blobs(port).put_blob(
            "c",
            "n",
            b"x",
            BlobCondition::IfNotExists,
        ));
        assert!(matches!(err, Err(BlobError::Unreachable(_))), "{err:?}");
        assert_eq!(count.load(SeqCst), 1);
        let written = "ETag: \"0x9\"\r\nLast-Modified: Tue, 30 Jul 2024 08:15:42 GMT\r\n";
        let (port, count) = fake_service(vec![Reply::Close, Reply::With(201, written, "")]);
        let put =
            pollster::block_on(fake_blobs(port).put_blob("c", "n", b"x", BlobCondition::Always))
                .unwrap();
        assert_eq!((put.etag, put.size), (ETag::from_raw("\"0x9\""), 1));
        assert_eq!(count.load(SeqCst), 2);
    }

    #[test]
    fn listings_are_read() {
        let body = r#"<?xml version="1.0" encoding="utf-8"?><EnumerationResults ContainerName="c"><MaxResults>2</MaxResults><Blobs><Blob><Name>a b/é</Name><Properties><Last-Modified>Tue, 30 Jul 2024 08:15:42 GMT</Last-Modified><Etag>0x8DC</Etag><Content-Length>12</Content-Length></Properties></Blob><Blob><Name Encoded="true">x%01y</Name><Properties><Last-Modified>Tue, 30 Jul 2024 08:15:43 GMT</Last-Modified><Etag>"0x8DD"</Etag><Content-Length>0</Content-Length></Properties></Blob></Blobs><NextMarker>2!abc</NextMarker></EnumerationResults>"#;
        let (blobs, next) = read_listing(body.as_bytes(), "c").unwrap();
        assert_eq!(next.as_deref(), Some("2!abc"));
        assert_eq!(blobs.len(), 2);
        assert_eq!(blobs[0].name, "a b/é");
        assert_eq!(blobs[0].etag, ETag::from_raw("\"0x8DC\""));
        assert_eq!(blobs[0].size, 12);
        assert_eq!(
            blobs[0].last_modified,
            SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_722_327_342)
        );
        assert_eq!(blobs[1].name, "x\u{1}y");
        assert_eq!(blobs[1].etag, ETag::from_raw("\"0x8DD\""));
        let last = br#"<EnumerationResults><Blobs/><NextMarker/></EnumerationResults>"#;
        assert_eq!(read_listing(last, "c").unwrap(), (Vec::new(), None));
        assert!(read_listing(b"<Other/>", "c").is_err());
        let no_etag = br#"<EnumerationResults><Blobs><Blob><Name>a</Name><Properties><Content-Length>1</Content-Length></Properties></Blob></Blobs></EnumerationResults>"#;
        assert!(read_listing(no_etag, "c").is_err());
    }
}

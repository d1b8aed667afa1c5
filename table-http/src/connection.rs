//! Connection strings: where a storage service (Table, Queue or Blob) is and how to
//! authenticate to it.
//!
//! Three forms are read:
//! - `UseDevelopmentStorage=true`: the local emulator (Azurite) with its well-known account, its
//!   services on their usual ports (blob 10000, queue 10001, table 10002) unless a
//!   `TableEndpoint=`, `QueueEndpoint=` or `BlobEndpoint=` says otherwise;
//! - `DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…` with an optional
//!   `TableEndpoint=…`/`QueueEndpoint=…`/`BlobEndpoint=…` or `EndpointSuffix=…` (SharedKey), or
//!   the same with `SharedAccessSignature=…` in place of the key (SAS, appended to every
//!   request);
//! - a SAS URL: `https://account.table.core.windows.net/?sv=…&sig=…`.
//!
//! [`Connection::parse`] reads the table service's endpoint; [`Connection::parse_for`] any
//! service's, from the same string. A service without an endpoint of its own is found from
//! `AccountName` and `EndpointSuffix` (`https://{account}.queue.{suffix}`), except when the
//! string points another service at a local emulator (an IP address or `localhost`): there is
//! no telling which port this service listens on, so that is an error naming the missing
//! field.
//!
//! A SAS is kept as the token text; [`crate::HttpBackend`] reads its scope when it is built
//! (see [`crate::sas::scope_of_token`]).

use std::fmt;

use base64::Engine as _;

/// The emulator's account name.
pub const DEV_ACCOUNT: &str = "devstoreaccount1";
/// The emulator's account key, published by Microsoft and the same on every installation.
pub const DEV_ACCOUNT_KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
/// The emulator's table endpoint (path-style: the account is the first path segment).
pub const DEV_TABLE_ENDPOINT: &str = "http://127.0.0.1:10002/devstoreaccount1";
/// The emulator's queue endpoint.
pub const DEV_QUEUE_ENDPOINT: &str = "http://127.0.0.1:10001/devstoreaccount1";
/// The emulator's blob endpoint.
pub const DEV_BLOB_ENDPOINT: &str = "http://127.0.0.1:10000/devstoreaccount1";

/// One of a storage account's services.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StorageService {
    /// Table Storage.
    Table,
    /// Queue Storage.
    Queue,
    /// Blob Storage.
    Blob,
}

impl StorageService {
    const ALL: [StorageService; 3] = [
        StorageService::Table,
        StorageService::Queue,
        StorageService::Blob,
    ];

    /// The connection-string field naming this service's endpoint: `TableEndpoint`,
    /// `QueueEndpoint` or `BlobEndpoint`.
    pub fn endpoint_field(self) -> &'static str {
        match self {
            StorageService::Table => "TableEndpoint",
            StorageService::Queue => "QueueEndpoint",
            StorageService::Blob => "BlobEndpoint",
        }
    }

    /// The label of the service in the account's host names: `table`, `queue` or `blob`.
    pub fn host_label(self) -> &'static str {
        match self {
            StorageService::Table => "table",
            StorageService::Queue => "queue",
            StorageService::Blob => "blob",
        }
    }

    /// The emulator's endpoint for this service ([`DEV_TABLE_ENDPOINT`], …).
    pub fn development_endpoint(self) -> &'static str {
        match self {
            StorageService::Table => DEV_TABLE_ENDPOINT,
            StorageService::Queue => DEV_QUEUE_ENDPOINT,
            StorageService::Blob => DEV_BLOB_ENDPOINT,
        }
    }
}

impl fmt::Display for StorageService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.host_label())
    }
}

/// A connection string or SAS URL that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid connection string: {0}")]
pub struct ConnectionError(pub String);

fn fail<T>(message: impl Into<String>) -> Result<T, ConnectionError> {
    Err(ConnectionError(message.into()))
}

/// `http` or `https`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// Plain HTTP (the emulator).
    Http,
    /// HTTP over TLS.
    Https,
}

impl Scheme {
    /// The scheme as written in URLs.
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }
}

/// The base URL of a storage service: scheme, host (and port), and the path every request starts
/// with (`/devstoreaccount1` for the emulator's path-style URLs, empty for the service's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// `http` or `https`.
    pub scheme: Scheme,
    /// `host` or `host:port`.
    pub authority: String,
    /// The path prefix, without a trailing `/` (empty for none).
    pub base_path: String,
}

impl Endpoint {
    /// Reads an endpoint URL such as `https://acct.table.core.windows.net` or
    /// `http://127.0.0.1:10002/devstoreaccount1`; a query string is not allowed here.
    pub fn parse(url: &str) -> Result<Endpoint, ConnectionError> {
        let parsed = split_url(url)?;
        if parsed.query.is_some() {
            return fail(format!(
                "endpoint `{url}` has a query string; give a SAS with SharedAccessSignature="
            ));
        }
        Ok(Endpoint {
            scheme: parsed.scheme,
            authority: parsed.authority,
            base_path: parsed.path.trim_end_matches('/').to_owned(),
        })
    }

    /// The URL of a path under the endpoint (`path` starts with `/`).
    pub fn url(&self, path: &str) -> String {
        format!(
            "{}://{}{}{}",
            self.scheme.as_str(),
            self.authority,
            self.base_path,
            path
        )
    }

    /// Whether the host is an IP address or `localhost`, where the account is named in the path
    /// rather than in the host name.
    pub fn is_path_style(&self) -> bool {
        is_path_style_host(host_of(&self.authority))
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.url(""))
    }
}

/// An account key (the decoded bytes of the base64 key); its `Debug` form hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct AccountKey(Vec<u8>);

impl AccountKey {
    /// Decodes a base64 account key.
    pub fn from_base64(key: &str) -> Result<AccountKey, ConnectionError> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(key.trim())
            .map_err(|e| ConnectionError(format!("AccountKey is not valid base64: {e}")))?;
        if bytes.is_empty() {
            return fail("AccountKey is empty");
        }
        Ok(AccountKey(bytes))
    }

    /// The key's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for AccountKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccountKey(…)")
    }
}

/// How requests prove they may act. The `Debug` form hides the key and the SAS signature.
#[derive(Clone, PartialEq, Eq)]
pub enum Credential {
    /// Sign every request with the account key (SharedKey).
    SharedKey(AccountKey),
    /// Append a shared access signature (the query string, without `?`) to every request.
    Sas(String),
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Credential::SharedKey(key) => f.debug_tuple("SharedKey").field(key).finish(),
            Credential::Sas(sas) => {
                let shown: Vec<&str> = sas
                    .split('&')
                    .map(|field| {
                        if field.starts_with("sig=") {
                            "sig=…"
                        } else {
                            field
                        }
                    })
                    .collect();
                f.debug_tuple("Sas").field(&shown.join("&")).finish()
            }
        }
    }
}

/// A parsed connection: the account, one service's endpoint and the credential.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connection {
    /// The storage account's name.
    pub account: String,
    /// The service's base URL (the table service's, from [`Connection::parse`]).
    pub endpoint: Endpoint,
    /// SharedKey or SAS.
    pub credential: Credential,
}

impl Connection {
    /// The local emulator's table service with its well-known account and key
    /// (`UseDevelopmentStorage=true`).
    pub fn development() -> Connection {
        Connection::development_for(StorageService::Table)
    }

    /// The local emulator's `service` with its well-known account and key, on its usual port.
    pub fn development_for(service: StorageService) -> Connection {
        Connection::development_on(service.development_endpoint())
            .unwrap_or_else(|_| unreachable!("the built-in endpoints are valid"))
    }

    /// The emulator's well-known account at another endpoint, for example another port:
    /// `http://127.0.0.1:10102/devstoreaccount1`.
    pub fn development_on(endpoint: &str) -> Result<Connection, ConnectionError> {
        Ok(Connection {
            account: DEV_ACCOUNT.to_owned(),
            endpoint: Endpoint::parse(endpoint)?,
            credential: Credential::SharedKey(AccountKey::from_base64(DEV_ACCOUNT_KEY)?),
        })
    }

    /// Reads a connection string or a SAS URL.
    ///
    /// ```
    /// use table_http::connection::{Connection, Credential};
    ///
    /// let dev = Connection::parse("UseDevelopmentStorage=true").unwrap();
    /// assert_eq!(dev.account, "devstoreaccount1");
    /// assert_eq!(dev.endpoint.to_string(), "http://127.0.0.1:10002/devstoreaccount1");
    ///
    /// let cs = "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=a2V5;EndpointSuffix=core.windows.net";
    /// let conn = Connection::parse(cs).unwrap();
    /// assert_eq!(conn.endpoint.to_string(), "https://acme.table.core.windows.net");
    ///
    /// let sas = Connection::parse("https://acme.table.core.windows.net/?sv=2019-02-02&sig=abc").unwrap();
    /// assert_eq!(sas.credential, Credential::Sas("sv=2019-02-02&sig=abc".into()));
    ///
    /// assert!(Connection::parse("AccountName=acme").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Connection, ConnectionError> {
        Connection::parse_for(text, StorageService::Table)
    }

    /// Reads a connection string or a SAS URL for `service`: the same fields as
    /// [`Connection::parse`], with `QueueEndpoint=`/`BlobEndpoint=` in place of `TableEndpoint=`.
    ///
    /// ```
    /// use table_http::connection::{Connection, StorageService};
    ///
    /// let dev = Connection::parse_for("UseDevelopmentStorage=true", StorageService::Queue).unwrap();
    /// assert_eq!(dev.endpoint.to_string(), "http://127.0.0.1:10001/devstoreaccount1");
    ///
    /// let cs = "AccountName=acme;AccountKey=a2V5;EndpointSuffix=core.windows.net";
    /// let blobs = Connection::parse_for(cs, StorageService::Blob).unwrap();
    /// assert_eq!(blobs.endpoint.to_string(), "https://acme.blob.core.windows.net");
    ///
    /// // An emulator's table endpoint says nothing of where its queue listens.
    /// let cs = "AccountName=devstoreaccount1;AccountKey=a2V5;TableEndpoint=http://127.0.0.1:10002/devstoreaccount1";
    /// let err = Connection::parse_for(cs, StorageService::Queue).unwrap_err();
    /// assert!(err.to_string().contains("no QueueEndpoint"));
    /// ```
    pub fn parse_for(text: &str, service: StorageService) -> Result<Connection, ConnectionError> {
        let field = service.endpoint_field();
        let text = text.trim();
        if text.is_empty() {
            return fail("it is empty");
        }
        let lower = text.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            return Connection::from_sas_url(text);
        }
        let fields = Fields::parse(text)?;
        if let Some(dev) = fields.get("UseDevelopmentStorage") {
            if !dev.eq_ignore_ascii_case("true") {
                return fail(format!("UseDevelopmentStorage must be `true`, not `{dev}`"));
            }
            if fields.get("DevelopmentStorageProxyUri").is_some() {
                return fail("DevelopmentStorageProxyUri is not supported");
            }
            let mut conn = Connection::development_for(service);
            if let Some(endpoint) = fields.get(field) {
                conn.endpoint = Endpoint::parse(endpoint)?;
            }
            return Ok(conn);
        }
        let account = fields.get("AccountName").map(str::to_owned);
        if fields.get(field).is_none() {
            for other in StorageService::ALL {
                let Some(url) = fields.get(other.endpoint_field()) else {
                    continue;
                };
                if Endpoint::parse(url).is_ok_and(|e| e.is_path_style()) {
                    return fail(format!(
                        "it gives {} `{url}`, a local emulator's address, but no {field}: add \
                         {field}=… with the address of the emulator's {service} service",
                        other.endpoint_field()
                    ));
                }
            }
        }
        let endpoint = match (fields.get(field), &account) {
            (Some(url), _) => Endpoint::parse(url)?,
            (None, Some(account)) => {
                let scheme = match fields.get("DefaultEndpointsProtocol") {
                    None => Scheme::Https,
                    Some(p) if p.eq_ignore_ascii_case("https") => Scheme::Https,
                    Some(p) if p.eq_ignore_ascii_case("http") => Scheme::Http,
                    Some(p) => {
                        return fail(format!(
                            "DefaultEndpointsProtocol must be `http` or `https`, not `{p}`"
                        ));
                    }
                };
                let suffix = fields.get("EndpointSuffix").unwrap_or("core.windows.net");
                if suffix.is_empty() || suffix.contains(['/', ' ', '?', '#']) {
                    return fail(format!("EndpointSuffix `{suffix}` is not a host name"));
                }
                check_account_name(account)?;
                Endpoint {
                    scheme,
                    authority: format!("{account}.{}.{suffix}", service.host_label()),
                    base_path: String::new(),
                }
            }
            (None, None) => {
                return fail(format!("it names no AccountName and no {field}"));
            }
        };
        let account = match account {
            Some(a) => a,
            None => account_from_endpoint(&endpoint, field)?,
        };
        check_account_name(&account)?;
        let credential = match (
            fields.get("AccountKey"),
            fields.get("SharedAccessSignature"),
        ) {
            (Some(_), Some(_)) => {
                return fail("give either AccountKey or SharedAccessSignature, not both");
            }
            (Some(key), None) => Credential::SharedKey(AccountKey::from_base64(key)?),
            (None, Some(sas)) => Credential::Sas(check_sas(sas.trim_start_matches('?'))?),
            (None, None) => {
                return fail("it has neither AccountKey nor SharedAccessSignature");
            }
        };
        Ok(Connection {
            account,
            endpoint,
            credential,
        })
    }

    /// Reads a SAS URL: the service (or a table) URL with the signature as its query string.
    /// A table name at the end of the path is dropped: operations name their tables.
    pub fn from_sas_url(url: &str) -> Result<Connection, ConnectionError> {
        let parsed = split_url(url)?;
        let Some(query) = parsed.query else {
            return fail(format!(
                "SAS URL `{url}` has no query string (`?sv=…&sig=…`)"
            ));
        };
        let sas = check_sas(&query)?;
        let segments: Vec<&str> = parsed.path.split('/').filter(|s| !s.is_empty()).collect();
        let path_style = is_path_style_host(host_of(&parsed.authority));
        let (account, base_path) = if path_style {
            let Some(account) = segments.first() else {
                return fail(format!(
                    "SAS URL `{url}` points at an IP address or localhost but names no account in its path"
                ));
            };
            ((*account).to_owned(), format!("/{account}"))
        } else {
            let host = host_of(&parsed.authority);
            let account = host.split('.').next().unwrap_or_default().to_owned();
            (account, String::new())
        };
        check_account_name(&account)?;
        Ok(Connection {
            account,
            endpoint: Endpoint {
                scheme: parsed.scheme,
                authority: parsed.authority,
                base_path,
            },
            credential: Credential::Sas(sas),
        })
    }
}

/// The fields of a `Key=Value;Key=Value` string; keys compare without regard to case.
struct Fields(Vec<(String, String)>);

impl Fields {
    fn parse(text: &str) -> Result<Fields, ConnectionError> {
        let mut fields: Vec<(String, String)> = Vec::new();
        for segment in text.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((key, value)) = segment.split_once('=') else {
                return fail(format!("`{segment}` is not of the form Key=Value"));
            };
            let key = key.trim();
            if key.is_empty() {
                return fail(format!("`{segment}` has no key before `=`"));
            }
            if fields.iter().any(|(k, _)| k.eq_ignore_ascii_case(key)) {
                return fail(format!("`{key}` is given twice"));
            }
            fields.push((key.to_owned(), value.trim().to_owned()));
        }
        if fields.is_empty() {
            return fail("it has no Key=Value fields");
        }
        Ok(Fields(fields))
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
}

struct ParsedUrl {
    scheme: Scheme,
    authority: String,
    path: String,
    query: Option<String>,
}

fn split_url(url: &str) -> Result<ParsedUrl, ConnectionError> {
    let url = url.trim();
    let Some((scheme, rest)) = url.split_once("://") else {
        return fail(format!("`{url}` is not an http:// or https:// URL"));
    };
    let scheme = if scheme.eq_ignore_ascii_case("https") {
        Scheme::Https
    } else if scheme.eq_ignore_ascii_case("http") {
        Scheme::Http
    } else {
        return fail(format!("`{url}`: the scheme must be http or https"));
    };
    if url.contains(|c: char| c.is_whitespace() || c.is_control()) {
        return fail(format!("`{url}` contains whitespace"));
    }
    let rest = rest.split('#').next().unwrap_or_default();
    let (before_query, query) = match rest.split_once('?') {
        Some((b, q)) => (b, Some(q.to_owned())),
        None => (rest, None),
    };
    let (authority, path) = match before_query.find('/') {
        Some(i) => (&before_query[..i], &before_query[i..]),
        None => (before_query, ""),
    };
    if authority.is_empty() {
        return fail(format!("`{url}` has no host"));
    }
    if authority.contains('@') {
        return fail(format!("`{url}`: user names in URLs are not supported"));
    }
    if let Some((_, port)) = authority
        .rsplit_once(':')
        .filter(|_| !authority.ends_with(']'))
        && port.parse::<u16>().is_err()
    {
        return fail(format!("`{url}`: `{port}` is not a port number"));
    }
    if !path.is_ascii() {
        return fail(format!(
            "`{url}`: percent-encode non-ASCII characters in the path"
        ));
    }
    Ok(ParsedUrl {
        scheme,
        authority: authority.to_owned(),
        path: path.to_owned(),
        query: query.filter(|q| !q.is_empty()),
    })
}

/// The host of `host:port` (`[v6]:port` keeps its brackets).
fn host_of(authority: &str) -> &str {
    if authority.starts_with('[') {
        return authority.find(']').map_or(authority, |i| &authority[..=i]);
    }
    authority.split(':').next().unwrap_or(authority)
}

fn is_path_style_host(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host.starts_with('[')
        || host.parse::<std::net::Ipv4Addr>().is_ok()
}

fn account_from_endpoint(endpoint: &Endpoint, field: &str) -> Result<String, ConnectionError> {
    let account = if endpoint.is_path_style() {
        endpoint
            .base_path
            .split('/')
            .find(|s| !s.is_empty())
            .unwrap_or_default()
            .to_owned()
    } else {
        host_of(&endpoint.authority)
            .split('.')
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    if account.is_empty() {
        return fail(format!(
            "cannot tell the account from {field} `{endpoint}`; add AccountName="
        ));
    }
    Ok(account)
}

fn check_account_name(account: &str) -> Result<(), ConnectionError> {
    if account.is_empty()
        || account.len() > 64
        || !account
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return fail(format!("`{account}` is not a storage account name"));
    }
    Ok(())
}

fn check_sas(sas: &str) -> Result<String, ConnectionError> {
    let has = |name: &str| {
        sas.split('&')
            .any(|p| p.split('=').next().is_some_and(|k| k == name))
    };
    if sas.is_empty() || !has("sig") {
        return fail("the shared access signature has no `sig` field");
    }
    if sas.contains(|c: char| c.is_whitespace() || c == '#') {
        return fail("the shared access signature contains whitespace or `#`");
    }
    Ok(sas.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Connection::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn development_storage() {
        let conn = Connection::parse("UseDevelopmentStorage=true").unwrap();
        assert_eq!(conn.account, DEV_ACCOUNT);
        assert_eq!(conn.endpoint.scheme, Scheme::Http);
        assert_eq!(conn.endpoint.authority, "127.0.0.1:10002");
        assert_eq!(conn.endpoint.base_path, "/devstoreaccount1");
        assert!(conn.endpoint.is_path_style());
        assert!(matches!(conn.credential, Credential::SharedKey(ref k) if k.bytes().len() == 64));
        let other = Connection::parse(
            "UseDevelopmentStorage=true;TableEndpoint=http://127.0.0.1:10102/devstoreaccount1/",
        )
        .unwrap();
        assert_eq!(other.endpoint.authority, "127.0.0.1:10102");
        assert_eq!(other.endpoint.base_path, "/devstoreaccount1");
        assert!(err("UseDevelopmentStorage=yes").contains("must be `true`"));
    }

    #[test]
    fn account_key_forms() {
        let conn = Connection::parse(
            "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=a2V5;EndpointSuffix=core.chinacloudapi.cn",
        )
        .unwrap();
        assert_eq!(conn.account, "acme");
        assert_eq!(
            conn.endpoint.url("/Tables"),
            "https://acme.table.core.chinacloudapi.cn/Tables"
        );
        assert_eq!(
            conn.credential,
            Credential::SharedKey(AccountKey(b"key".to_vec()))
        );
        // Keys are case-insensitive, empty segments and spaces are tolerated.
        let conn = Connection::parse(
            " accountname=acme ; ACCOUNTKEY=a2V5;;DefaultEndpointsProtocol=http; ",
        )
        .unwrap();
        assert_eq!(
            conn.endpoint.to_string(),
            "http://acme.table.core.windows.net"
        );
        // An explicit TableEndpoint wins, and the emulator's keeps its account path.
        let conn = Connection::parse(&format!(
            "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={DEV_ACCOUNT_KEY};TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;"
        ))
        .unwrap();
        assert_eq!(conn, Connection::development());
        // The account is read from the endpoint when not named.
        let conn = Connection::parse(
            "TableEndpoint=https://acme.table.cosmos.azure.com:443/;AccountKey=a2V5",
        )
        .unwrap();
        assert_eq!(conn.account, "acme");
        assert_eq!(conn.endpoint.authority, "acme.table.cosmos.azure.com:443");
        assert_eq!(conn.endpoint.base_path, "");
    }

    fn for_service(text: &str, service: StorageService) -> Result<Connection, String> {
        Connection::parse_for(text, service).map_err(|e| e.to_string())
    }

    #[test]
    fn queue_and_blob_endpoints_of_the_emulator() {
        let queue = for_service("UseDevelopmentStorage=true", StorageService::Queue).unwrap();
        assert_eq!(queue, Connection::development_for(StorageService::Queue));
        assert_eq!(queue.account, DEV_ACCOUNT);
        assert_eq!(queue.endpoint.to_string(), DEV_QUEUE_ENDPOINT);
        assert!(matches!(queue.credential, Credential::SharedKey(_)));
        let blob = for_service("UseDevelopmentStorage=true", StorageService::Blob).unwrap();
        assert_eq!(blob.endpoint.authority, "127.0.0.1:10000");
        assert_eq!(blob.endpoint.base_path, "/devstoreaccount1");
        // A field for one service moves that service only.
        let cs = "UseDevelopmentStorage=true;QueueEndpoint=http://127.0.0.1:20001/devstoreaccount1";
        let queue = for_service(cs, StorageService::Queue).unwrap();
        assert_eq!(queue.endpoint.authority, "127.0.0.1:20001");
        let table = for_service(cs, StorageService::Table).unwrap();
        assert_eq!(table.endpoint.to_string(), DEV_TABLE_ENDPOINT);
        let blob = for_service(cs, StorageService::Blob).unwrap();
        assert_eq!(blob.endpoint.to_string(), DEV_BLOB_ENDPOINT);
    }

    #[test]
    fn queue_and_blob_endpoints_given_or_derived() {
        let all = format!(
            "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={DEV_ACCOUNT_KEY};\
             TableEndpoint=http://127.0.0.1:20002/devstoreaccount1;\
             QueueEndpoint=http://127.0.0.1:20001/devstoreaccount1;\
             BlobEndpoint=http://127.0.0.1:20000/devstoreaccount1"
        );
        for (service, port) in [
            (StorageService::Table, 20002),
            (StorageService::Queue, 20001),
            (StorageService::Blob, 20000),
        ] {
            let conn = for_service(&all, service).unwrap();
            assert_eq!(conn.endpoint.authority, format!("127.0.0.1:{port}"));
            assert_eq!(conn.account, DEV_ACCOUNT);
        }
        // From the account name and the suffix (or the default one).
        let cs = "AccountName=acme;AccountKey=a2V5;EndpointSuffix=core.chinacloudapi.cn";
        let queue = for_service(cs, StorageService::Queue).unwrap();
        assert_eq!(
            queue.endpoint.url("/jobs/messages"),
            "https://acme.queue.core.chinacloudapi.cn/jobs/messages"
        );
        assert_eq!(
            queue.credential,
            Credential::SharedKey(AccountKey(b"key".to_vec()))
        );
        let cs = "DefaultEndpointsProtocol=http;AccountName=acme;AccountKey=a2V5";
        let blob = for_service(cs, StorageService::Blob).unwrap();
        assert_eq!(
            blob.endpoint.to_string(),
            "http://acme.blob.core.windows.net"
        );
        // A service endpoint on a host name sits beside derived ones.
        let cs = "AccountName=acme;AccountKey=a2V5;BlobEndpoint=https://cdn.example.com";
        let blob = for_service(cs, StorageService::Blob).unwrap();
        assert_eq!(blob.endpoint.authority, "cdn.example.com");
        assert_eq!(blob.account, "acme");
        let queue = for_service(cs, StorageService::Queue).unwrap();
        assert_eq!(queue.endpoint.authority, "acme.queue.core.windows.net");
        // The account is read from the service's own endpoint when not named.
        let cs = "QueueEndpoint=https://acme.queue.core.windows.net;AccountKey=a2V5";
        assert_eq!(
            for_service(cs, StorageService::Queue).unwrap().account,
            "acme"
        );
    }

    #[test]
    fn queue_and_blob_with_a_sas() {
        let cs = "QueueEndpoint=https://acme.queue.core.windows.net/;\
                  SharedAccessSignature=?sv=2021-08-06&ss=q&sig=x%2By";
        let queue = for_service(cs, StorageService::Queue).unwrap();
        assert_eq!(queue.account, "acme");
        assert_eq!(
            queue.credential,
            Credential::Sas("sv=2021-08-06&ss=q&sig=x%2By".into())
        );
        let cs = "AccountName=acme;SharedAccessSignature=sv=1&ss=b&sig=s";
        let blob = for_service(cs, StorageService::Blob).unwrap();
        assert_eq!(
            blob.endpoint.to_string(),
            "https://acme.blob.core.windows.net"
        );
        assert_eq!(blob.credential, Credential::Sas("sv=1&ss=b&sig=s".into()));
        let url = "https://acme.blob.core.windows.net/photos?sv=1&sr=c&sig=s";
        let blob = for_service(url, StorageService::Blob).unwrap();
        assert_eq!(blob.endpoint.base_path, "");
        assert_eq!(blob.credential, Credential::Sas("sv=1&sr=c&sig=s".into()));
    }

    #[test]
    fn an_emulator_endpoint_does_not_locate_the_other_services() {
        let cs = format!(
            "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={DEV_ACCOUNT_KEY};\
             TableEndpoint=http://127.0.0.1:10002/devstoreaccount1"
        );
        let err = for_service(&cs, StorageService::Queue).unwrap_err();
        assert!(err.contains("no QueueEndpoint"), "{err}");
        assert!(
            err.contains("TableEndpoint `http://127.0.0.1:10002"),
            "{err}"
        );
        let err = for_service(&cs, StorageService::Blob).unwrap_err();
        assert!(err.contains("no BlobEndpoint"), "{err}");
        // The table endpoint itself is still read.
        assert_eq!(
            for_service(&cs, StorageService::Table).unwrap(),
            Connection::development()
        );
        let cs = "QueueEndpoint=http://localhost:10001/devstoreaccount1;AccountKey=a2V5";
        let err = for_service(cs, StorageService::Blob).unwrap_err();
        assert!(err.contains("no BlobEndpoint"), "{err}");
        let err = for_service("AccountKey=a2V5", StorageService::Queue).unwrap_err();
        assert!(err.contains("no AccountName and no QueueEndpoint"), "{err}");
    }

    #[test]
    fn sas_forms() {
        let conn = Connection::parse(
            "TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;SharedAccessSignature=?sv=2019-02-02&tn=t&sig=x%2By",
        )
        .unwrap();
        assert_eq!(conn.account, DEV_ACCOUNT);
        assert_eq!(
            conn.credential,
            Credential::Sas("sv=2019-02-02&tn=t&sig=x%2By".into())
        );
        let conn =
            Connection::parse("http://127.0.0.1:10002/devstoreaccount1/mytable?sv=1&sig=abc")
                .unwrap();
        assert_eq!(conn.account, DEV_ACCOUNT);
        assert_eq!(conn.endpoint.base_path, "/devstoreaccount1");
        let conn =
            Connection::parse("https://acme.table.core.windows.net/mytable?sv=1&sig=abc").unwrap();
        assert_eq!(conn.account, "acme");
        assert_eq!(conn.endpoint.base_path, "");
        assert_eq!(conn.credential, Credential::Sas("sv=1&sig=abc".into()));
    }

    #[test]
    fn broken_strings_are_errors() {
        let cases = [
            ("", "empty"),
            ("   ", "empty"),
            (";;", "no Key=Value"),
            ("AccountName", "Key=Value"),
            ("=x", "no key"),
            ("AccountName=a;AccountName=b;AccountKey=a2V5", "twice"),
            ("AccountName=acme", "neither AccountKey"),
            ("AccountKey=a2V5", "no AccountName"),
            ("AccountName=acme;AccountKey=%%%", "base64"),
            ("AccountName=acme;AccountKey=", "empty"),
            ("AccountName=ac me;AccountKey=a2V5", "account name"),
            (
                "DefaultEndpointsProtocol=ftp;AccountName=acme;AccountKey=a2V5",
                "`http` or `https`",
            ),
            (
                "AccountName=a;AccountKey=a2V5;SharedAccessSignature=sig=x",
                "not both",
            ),
            ("AccountName=a;SharedAccessSignature=sv=1", "`sig`"),
            ("TableEndpoint=ftp://x;AccountKey=a2V5", "scheme"),
            ("TableEndpoint=http://;AccountKey=a2V5", "no host"),
            ("TableEndpoint=http://h:99999;AccountKey=a2V5", "port"),
            (
                "TableEndpoint=http://h/?a=b;AccountKey=a2V5",
                "query string",
            ),
            (
                "TableEndpoint=http://127.0.0.1:10002;AccountKey=a2V5",
                "cannot tell the account",
            ),
            ("https://acme.table.core.windows.net/", "no query string"),
            ("http://127.0.0.1:10002/?sig=x", "names no account"),
            ("https://acme.table.core.windows.net/?sv=1", "`sig`"),
            (
                "UseDevelopmentStorage=true;DevelopmentStorageProxyUri=http://x",
                "not supported",
            ),
        ];
        for (text, needle) in cases {
            let message = err(text);
            assert!(message.contains(needle), "`{text}` gave `{message}`");
        }
    }

    #[test]
    fn secrets_are_not_printed() {
        let conn = Connection::development();
        assert!(!format!("{conn:?}").contains("Eby8"));
        let sas =
            Connection::parse("https://a.table.core.windows.net/?sv=1&sig=SECRET&tn=t").unwrap();
        let shown = format!("{sas:?}");
        assert!(shown.contains("sv=1&sig=…&tn=t"), "{shown}");
        assert!(!shown.contains("SECRET"));
    }
}

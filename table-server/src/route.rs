//! Where a request goes: the account (from the path, or from the host in the production form
//! `account.table.localhost`), the resource, and the query parameters.

use percent_encoding::percent_decode_str;
use table_runtime::{ErrorCode, StoreError};

/// What a request names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resource {
    /// The account itself (service properties and stats: `?restype=service&comp=…`).
    Service,
    /// `Tables`: list or create tables.
    Tables,
    /// `Tables('name')`: one table.
    Table(String),
    /// `$batch`: an entity group transaction.
    Batch,
    /// `name` or `name()`: a table's entities (insert, query, ACL).
    Rows(String),
    /// `name(PartitionKey='…',RowKey='…')`: one entity.
    Entity(String, String, String),
    /// `name/…`: a table followed by more path, as a client configured with a table in its
    /// account URL sends (`/mytable/Tables`, `/mytable/$batch`). The service looks the table
    /// up, then refuses the request by what the rest of the path and the body are.
    Nested(String, String),
}

/// A request's target.
#[derive(Debug, Clone)]
pub struct Target {
    /// The account named.
    pub account: String,
    /// Whether the `-secondary` form of the account was used (reads only).
    pub secondary: bool,
    /// The account's URL as the client reached it, for links and `Location` headers.
    pub base: String,
    /// The path exactly as sent (still percent-encoded), which SharedKey signs.
    pub raw_path: String,
    /// The resource.
    pub resource: Resource,
    /// The query string exactly as sent (for SAS tokens).
    pub raw_query: String,
    /// The query parameters, decoded.
    pub query: Vec<(String, String)>,
}

impl Target {
    /// A query parameter, by exact name.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn invalid_uri(message: impl Into<String>) -> StoreError {
    StoreError::new(ErrorCode::InvalidUri, message)
}

fn decode(text: &str, what: &str) -> Result<String, StoreError> {
    percent_decode_str(text)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| invalid_uri(format!("the {what} is not percent-encoded UTF-8")))
}

/// Reads the query string: `+` is a space, as form encoding (and the service) has it.
pub fn query_params(raw: &str) -> Result<Vec<(String, String)>, StoreError> {
    raw.split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            Ok((
                decode(&name.replace('+', " "), "query string")?,
                decode(&value.replace('+', " "), "query string")?,
            ))
        })
        .collect()
}

/// Reads the resource named by `rest`, the percent-encoded path after the account.
pub fn resource(rest: &str) -> Result<Resource, StoreError> {
    let rest = rest.trim_start_matches('/').trim_end_matches('/');
    let decoded = decode(rest, "path")?;
    if decoded.is_empty() {
        return Ok(Resource::Service);
    }
    // A `/` sent as such: a deeper path than the service has (one inside a key arrives
    // percent-encoded). A table name first is looked up before the rest is refused.
    if let Some((first, more)) = rest.split_once('/') {
        let first = decode(first, "path")?;
        let nameable =
            !first.is_empty() && !first.contains('(') && first != "Tables" && first != "$batch";
        if !nameable {
            return Err(invalid_uri(format!(
                "`{decoded}` names no Table service resource"
            )));
        }
        return Ok(Resource::Nested(first, decode(more, "path")?));
    }
    if decoded == "Tables" || decoded == "Tables()" {
        return Ok(Resource::Tables);
    }
    if decoded == "$batch" {
        return Ok(Resource::Batch);
    }
    if let Some(inner) = decoded
        .strip_prefix("Tables(")
        .and_then(|r| r.strip_suffix(')'))
    {
        let name = inner
            .strip_prefix('\'')
            .and_then(|r| r.strip_suffix('\''))
            .ok_or_else(|| invalid_uri(format!("`{decoded}`: the table name needs quotes")))?;
        return Ok(Resource::Table(name.replace("''", "'")));
    }
    if let Some(table) = decoded.strip_suffix("()") {
        return Ok(Resource::Rows(table.to_owned()));
    }
    if decoded.contains('(') {
        let (table, pk, rk) =
            table_http::wire::parse_entity_segment(&decoded).ok_or_else(|| {
                invalid_uri(format!(
                    "`{decoded}` is not Table(PartitionKey='…',RowKey='…')"
                ))
            })?;
        return Ok(Resource::Entity(table, pk, rk));
    }
    Ok(Resource::Rows(decoded))
}

/// The account a path-style path names first, percent-decoded, and the path after it.
pub fn path_account(path: &str) -> Result<(String, &str), StoreError> {
    let trimmed = path.trim_start_matches('/');
    let (account, rest) = trimmed.split_once('/').unwrap_or((trimmed, ""));
    if account.is_empty() {
        return Err(invalid_uri(
            "the path names no account: use http://host:port/ACCOUNT/…",
        ));
    }
    Ok((decode(account, "account name")?, rest))
}

/// The account an account name stands for, and whether it names its `-secondary` endpoint.
pub fn primary_account(account: &str) -> (&str, bool) {
    match account.strip_suffix("-secondary") {
        Some(primary) => (primary, true),
        None => (account, false),
    }
}

/// Reads a request's target from its path, query and `Host` header.
///
/// The production form puts the account in the host (`acct.table.localhost:10002`); the
/// path-style form, which the emulators and `UseDevelopmentStorage=true` use, puts it first in
/// the path (`/acct/Tables`).
///
/// `scheme` (`http` or `https`) is the one the request came over, for the links answers carry.
pub fn target(
    path: &str,
    query: Option<&str>,
    host: Option<&str>,
    scheme: &str,
) -> Result<Target, StoreError> {
    let host = host.unwrap_or("127.0.0.1");
    let host_account = host
        .split_once(".table.")
        .map(|(account, _)| account.to_owned())
        .filter(|a| !a.is_empty() && !a.contains(':'));
    let (account, rest, base) = match host_account {
        Some(account) => (account, path, format!("{scheme}://{host}")),
        None => {
            let (account, rest) = path_account(path)?;
            let base = format!("{scheme}://{host}/{account}");
            (account, rest, base)
        }
    };
    let (primary, secondary) = primary_account(&account);
    let account = primary.to_owned();
    let raw_query = query.unwrap_or("").to_owned();
    let query = query_params(&raw_query)?;
    // Service operations on the secondary endpoint, path style, as Python's SDK writes them:
    // `/acct-secondary/acct/?restype=service&comp=stats`.
    let service_call = query.iter().any(|(n, v)| n == "restype" && v == "service");
    let rest = match rest.trim_matches('/') {
        named if service_call && named == account => "",
        _ => rest,
    };
    Ok(Target {
        account,
        secondary,
        base,
        raw_path: if path.is_empty() {
            "/".into()
        } else {
            path.to_owned()
        },
        resource: resource(rest)?,
        query,
        raw_query,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_are_named() {
        let r = |p: &str| resource(p).unwrap();
        assert_eq!(r(""), Resource::Service);
        assert_eq!(r("/Tables"), Resource::Tables);
        assert_eq!(r("Tables('Orders')"), Resource::Table("Orders".into()));
        assert_eq!(
            r("Tables%28%27Orders%27%29"),
            Resource::Table("Orders".into())
        );
        assert_eq!(r("$batch"), Resource::Batch);
        assert_eq!(r("Orders"), Resource::Rows("Orders".into()));
        assert_eq!(r("Orders()"), Resource::Rows("Orders".into()));
        assert_eq!(
            r("Orders(PartitionKey='O%27%27Brien',RowKey='a%2Fb')"),
            Resource::Entity("Orders".into(), "O'Brien".into(), "a/b".into())
        );
        assert_eq!(
            r("mytable/Tables"),
            Resource::Nested("mytable".into(), "Tables".into())
        );
        assert_eq!(
            r("my%74able/Tables('x')"),
            Resource::Nested("mytable".into(), "Tables('x')".into())
        );
        for bad in [
            "Tables/x",
            "$batch/x",
            "t()/x",
            "Orders(PartitionKey='x')",
            "Tables(Orders)",
            "%ff",
        ] {
            let e = resource(bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidUri, "{bad}");
        }
    }

    #[test]
    fn accounts_come_from_the_path_or_the_host() {
        let t = target(
            "/devstoreaccount1/Tables",
            Some("$top=2"),
            Some("127.0.0.1:10002"),
            "http",
        )
        .unwrap();
        assert_eq!(t.account, "devstoreaccount1");
        assert_eq!(t.base, "http://127.0.0.1:10002/devstoreaccount1");
        assert_eq!(t.resource, Resource::Tables);
        assert_eq!(t.param("$top"), Some("2"));
        let t = target("/Tables", None, Some("acme.table.localhost:10002"), "http").unwrap();
        assert_eq!((t.account.as_str(), t.secondary), ("acme", false));
        assert_eq!(t.base, "http://acme.table.localhost:10002");
        let t = target("/devstoreaccount1-secondary/t1()", None, None, "http").unwrap();
        assert_eq!(
            (t.account.as_str(), t.secondary),
            ("devstoreaccount1", true)
        );
        assert!(target("/", None, None, "http").is_err());
        let t = target(
            "/devstoreaccount1-secondary/devstoreaccount1/",
            Some("restype=service&comp=stats"),
            None,
            "http",
        )
        .unwrap();
        assert_eq!((t.resource, t.secondary), (Resource::Service, true));
        let t = target("/a/t()", Some("$filter=A+eq+%27x+y%27"), None, "http").unwrap();
        assert_eq!(t.param("$filter"), Some("A eq 'x y'"));
    }
}

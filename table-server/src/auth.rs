//! Who may do what: SharedKey and SharedKeyLite signatures, account SAS and table SAS, checked
//! as the service checks them, with the client's own signing code (`table_http::auth`,
//! `table_http::sas`) computing what the signature should be.

use std::collections::HashMap;
use std::net::IpAddr;

use hyper::HeaderMap;
use table_http::auth::{
    canonicalized_resource, hmac_sha256_base64, parse_http_date, string_to_sign,
};
use table_http::connection::AccountKey;
use table_http::sas::{SasScope, SasToken, parse_sas_time};
use table_runtime::{ErrorCode, StoreError};
use time::OffsetDateTime;

use crate::route::{Resource, Target};

/// How far a request's date may be from the server's clock, as the service allows.
const CLOCK_SKEW: time::Duration = time::Duration::minutes(15);

/// The accounts a server serves, each with its key.
#[derive(Debug, Clone, Default)]
pub struct Accounts(HashMap<String, AccountKey>);

impl Accounts {
    /// Adds an account.
    pub fn add(&mut self, name: &str, key: AccountKey) {
        self.0.insert(name.to_owned(), key);
    }

    /// The key of an account.
    pub fn key(&self, name: &str) -> Option<&AccountKey> {
        self.0.get(name)
    }

    /// The account names.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }
}

/// What an authenticated request may do.
#[derive(Debug, Clone)]
pub enum Grant {
    /// Signed with the account key: everything.
    Key,
    /// An account SAS: what its permissions and resource types allow.
    Account {
        /// `sp`.
        permissions: String,
        /// `srt`.
        resource_types: String,
    },
    /// A table SAS: its scope, enforced by the store's `Scoped` wrapper.
    Table(SasScope),
}

fn failed(message: impl Into<String>) -> StoreError {
    StoreError::new(ErrorCode::AuthenticationFailed, message)
}

fn header<'h>(headers: &'h HeaderMap, name: &str) -> &'h str {
    crate::header(headers, name).unwrap_or("")
}

/// The stored access policy a table SAS names: permissions, start and expiry, each optional.
pub type Policy = (Option<String>, Option<String>, Option<String>);

/// Checks a request's credentials. `https` says whether it came over TLS (a SAS may allow
/// HTTPS only); `policy` finds a table's stored access policy by table and identifier.
#[allow(clippy::too_many_arguments)]
pub fn authenticate(
    accounts: &Accounts,
    target: &Target,
    method: &str,
    headers: &HeaderMap,
    peer: IpAddr,
    https: bool,
    now: OffsetDateTime,
    policy: impl Fn(&str, &str) -> Option<Policy>,
) -> Result<Grant, StoreError> {
    let Some(key) = accounts.key(&target.account) else {
        return Err(failed(format!(
            "this server has no account `{}`",
            target.account
        )));
    };
    let authorization = header(headers, "authorization");
    if !authorization.is_empty() {
        return shared_key(target, method, headers, key, authorization, now).map(|()| Grant::Key);
    }
    if target.query.iter().any(|(n, _)| n == "sig") {
        return sas(target, key, peer, https, now, policy);
    }
    Err(StoreError::new(
        ErrorCode::AuthenticationFailed,
        "the request is anonymous; the Table service needs SharedKey, SharedKeyLite or a SAS",
    ))
}

fn shared_key(
    target: &Target,
    method: &str,
    headers: &HeaderMap,
    key: &AccountKey,
    authorization: &str,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    let (scheme, credential) = authorization
        .split_once(' ')
        .ok_or_else(|| failed(format!("`Authorization: {authorization}` is not SharedKey")))?;
    let (account, signature) = credential
        .trim()
        .split_once(':')
        .ok_or_else(|| failed("the Authorization header has no `account:signature`"))?;
    if account != target.account {
        return Err(failed(format!(
            "the request is signed for account `{account}`, not `{}`",
            target.account
        )));
    }
    let date = match header(headers, "x-ms-date") {
        "" => header(headers, "date"),
        d => d,
    };
    if date.is_empty() {
        return Err(failed("a signed request needs an x-ms-date or Date header"));
    }
    let when =
        parse_http_date(date).ok_or_else(|| failed(format!("`{date}` is not an HTTP date")))?;
    if (when - now).abs() > CLOCK_SKEW {
        return Err(failed(format!(
            "the request's date ({date}) is more than 15 minutes from the server's clock"
        )));
    }
    let comp = target.param("comp");
    // The path as signed: the emulators' path-style URLs carry the account in the path; some
    // clients sign it, some sign the path after it.
    let mut resources = vec![canonicalized_resource(
        &target.account,
        &target.raw_path,
        comp,
    )];
    let after_account = target
        .raw_path
        .strip_prefix('/')
        .and_then(|p| p.split_once('/'))
        .map(|(_, rest)| format!("/{rest}"));
    if let Some(rest) = after_account {
        resources.push(canonicalized_resource(&target.account, &rest, comp));
    }
    let texts: Vec<String> = match scheme {
        "SharedKey" => resources
            .iter()
            .map(|r| {
                string_to_sign(
                    method,
                    header(headers, "content-md5"),
                    header(headers, "content-type"),
                    date,
                    r,
                )
            })
            .collect(),
        "SharedKeyLite" => resources.iter().map(|r| format!("{date}\n{r}")).collect(),
        other => {
            return Err(failed(format!(
                "`{other}` is not an authorization scheme of the Table service"
            )));
        }
    };
    if texts
        .iter()
        .any(|text| hmac_sha256_base64(key, text) == signature)
    {
        return Ok(());
    }
    Err(failed(format!(
        "the {scheme} signature does not match; the server signed:\n{}",
        texts[0].replace('\n', "\\n")
    )))
}

/// Whether `peer` lies in `range` (`a.b.c.d` or `a.b.c.d-e.f.g.h`).
fn ip_in_range(peer: IpAddr, range: &str) -> bool {
    let (low, high) = range.split_once('-').unwrap_or((range, range));
    match (low.trim().parse::<IpAddr>(), high.trim().parse::<IpAddr>()) {
        (Ok(low), Ok(high)) => {
            let peer = match peer {
                IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(peer, IpAddr::V4),
                v4 => v4,
            };
            low <= peer && peer <= high
        }
        _ => false,
    }
}

fn sas(
    target: &Target,
    key: &AccountKey,
    peer: IpAddr,
    https: bool,
    now: OffsetDateTime,
    policy: impl Fn(&str, &str) -> Option<Policy>,
) -> Result<Grant, StoreError> {
    let token = SasToken::parse(&target.raw_query).map_err(|e| failed(e.0))?;
    if token.version.is_none() {
        return Err(failed("the SAS has no signed version (`sv`)"));
    }
    // Said before the signature, which cannot match without the table it covers.
    if !token.is_account_sas() && token.table.is_none() {
        return Err(failed("a table SAS must name its table (`tn`)"));
    }
    if !token.verify(&target.account, key) {
        return Err(failed(
            "the SAS signature does not match its fields for this account's key",
        ));
    }
    if let Some(range) = &token.ip_range
        && !ip_in_range(peer, range)
    {
        return Err(StoreError::new(
            ErrorCode::AuthorizationSourceIPMismatch,
            format!("the request comes from {peer}, outside the SAS's range {range}"),
        ));
    }
    if token.protocol.as_deref() == Some("https") && !https {
        return Err(StoreError::new(
            ErrorCode::AuthorizationProtocolMismatch,
            "the SAS allows HTTPS only, and the request came over HTTP (start the server with --cert and --key to serve HTTPS)",
        ));
    }
    if token.is_account_sas() {
        return account_sas(&token, now);
    }
    let table = token
        .table
        .clone()
        .ok_or_else(|| failed("a table SAS must name its table (`tn`)"))?;
    let stored = match &token.identifier {
        None => None,
        Some(id) => Some(policy(&table, id).ok_or_else(|| {
            failed(format!(
                "table `{table}` has no stored access policy `{id}`"
            ))
        })?),
    };
    let scope = token
        .table_scope(
            stored
                .as_ref()
                .map(|(p, s, e)| (p.as_deref(), s.as_deref(), e.as_deref())),
        )
        .map_err(|e| failed(e.0))?;
    scope.check_time(now)?;
    Ok(Grant::Table(scope))
}

fn account_sas(token: &SasToken, now: OffsetDateTime) -> Result<Grant, StoreError> {
    if !token.services.as_deref().unwrap_or("").contains('t') {
        return Err(StoreError::new(
            ErrorCode::AuthorizationServiceMismatch,
            "the account SAS does not cover the Table service (`ss` lacks `t`)",
        ));
    }
    let time = |field: &Option<String>, name: &str| {
        field
            .as_deref()
            .map(parse_sas_time)
            .transpose()
            .map_err(|e| failed(format!("`{name}`: {}", e.0)))
    };
    let expiry = time(&token.expiry, "se")?.ok_or_else(|| failed("the SAS has no expiry"))?;
    let start = time(&token.start, "st")?;
    if start.is_some_and(|s| now < s) || now >= expiry {
        return Err(failed(format!(
            "the account SAS is not valid now: it runs until {}",
            token.expiry.as_deref().unwrap_or_default()
        )));
    }
    Ok(Grant::Account {
        permissions: token.permissions.clone().unwrap_or_default(),
        resource_types: token.resource_types.clone().unwrap_or_default(),
    })
}

/// What an account SAS needs for an operation: the resource type (`s`, `c` or `o`) and any one
/// of the permission letters in `any_of`, with every letter of `all_of`.
pub fn check_account(
    permissions: &str,
    resource_types: &str,
    resource: char,
    all_of: &str,
    any_of: &str,
) -> Result<(), StoreError> {
    if !resource_types.contains(resource) {
        let kind = match resource {
            's' => "the service",
            'c' => "tables",
            _ => "entities",
        };
        return Err(StoreError::new(
            ErrorCode::AuthorizationResourceTypeMismatch,
            format!(
                "the account SAS (`srt={resource_types}`) does not reach {kind} (`{resource}`)"
            ),
        ));
    }
    let has_all = all_of.chars().all(|c| permissions.contains(c));
    let has_any = any_of.is_empty() || any_of.chars().any(|c| permissions.contains(c));
    if has_all && has_any {
        return Ok(());
    }
    Err(StoreError::new(
        ErrorCode::AuthorizationPermissionMismatch,
        format!(
            "the account SAS (`sp={permissions}`) lacks the permission this operation needs ({}{})",
            all_of,
            if any_of.is_empty() {
                String::new()
            } else {
                format!(" one of `{any_of}`")
            }
        ),
    ))
}

/// The resource type an account SAS needs for `resource`.
pub fn resource_type(resource: &Resource) -> char {
    match resource {
        Resource::Service => 's',
        Resource::Tables | Resource::Table(_) => 'c',
        Resource::Batch | Resource::Rows(_) | Resource::Entity(..) | Resource::Nested(..) => 'o',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ip_ranges() {
        let peer: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(ip_in_range(peer, "127.0.0.1"));
        assert!(ip_in_range(peer, "127.0.0.0-127.0.0.255"));
        assert!(!ip_in_range(peer, "10.0.0.1"));
        assert!(!ip_in_range(peer, "nonsense"));
        let mapped: IpAddr = "::ffff:127.0.0.1".parse().unwrap();
        assert!(ip_in_range(mapped, "127.0.0.1"));
    }

    #[test]
    fn account_permissions() {
        assert!(check_account("rl", "sco", 'o', "", "r").is_ok());
        let e = check_account("r", "sco", 'o', "", "a").unwrap_err();
        assert_eq!(e.code, ErrorCode::AuthorizationPermissionMismatch);
        let e = check_account("rwdlacu", "s", 'o', "", "r").unwrap_err();
        assert_eq!(e.code, ErrorCode::AuthorizationResourceTypeMismatch);
        assert!(check_account("au", "o", 'o', "au", "").is_ok());
        assert!(check_account("a", "o", 'o', "au", "").is_err());
    }
}

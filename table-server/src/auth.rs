//! Who may do what: SharedKey and SharedKeyLite signatures, account SAS and table SAS, checked
//! as the service checks them, with the client's own signing code (`table_http::auth`,
//! `table_http::sas`) computing what the signature should be; and, with `--oauth basic`,
//! Microsoft Entra ID bearer tokens, whose shape and claims are checked but not their
//! signature (see [`OAuth::Basic`]).

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

/// Whether bearer tokens (`Authorization: Bearer <JWT>`, Microsoft Entra ID) are accepted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OAuth {
    /// Refused, as by an account that takes no Entra ID tokens: `403 AuthenticationFailed`.
    #[default]
    Off,
    /// As Azurite's `--oauth basic`: over HTTPS, with `x-ms-version` 2019-02-02 or later, a
    /// token is accepted when it is a JWT whose claims are right: audience
    /// `https://storage.azure.com` (with or without the final slash) or the account's table
    /// endpoint (`https://ACCOUNT.table.…`), issuer `https://sts.windows.net/TENANT/` or
    /// `https://login.microsoftonline.com/TENANT/v2.0`, and within its lifetime (`nbf` to
    /// `exp`, five minutes of clock skew allowed). Its SIGNATURE IS NOT CHECKED: there is no
    /// Entra ID key to check it with locally, so anyone can mint a token this accepts. A token
    /// grants what the account key grants: no role assignments are looked at.
    Basic,
}

/// The oldest `x-ms-version` with which the Table service takes a bearer token.
pub const OAUTH_OLDEST_VERSION: &str = "2019-02-02";

/// How far outside its lifetime a token is still taken, for clocks that differ.
const TOKEN_CLOCK_SKEW: i64 = 5 * 60;

/// The service's message for a token that does not check out; the detail follows it.
const INVALID_TOKEN: &str = "Server failed to authenticate the request. Please refer to the information in the www-authenticate header.";

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
    oauth: OAuth,
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
    if let Some(token) = bearer_token(authorization) {
        return bearer(oauth, target, headers, https, now, token).map(|()| Grant::Key);
    }
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

/// The token of an `Authorization: Bearer TOKEN` header (the scheme in any case).
fn bearer_token(authorization: &str) -> Option<&str> {
    let (scheme, rest) = authorization.split_once(' ').unwrap_or((authorization, ""));
    scheme.eq_ignore_ascii_case("bearer").then_some(rest.trim())
}

/// Checks a bearer token as `oauth` says.
fn bearer(
    oauth: OAuth,
    target: &Target,
    headers: &HeaderMap,
    https: bool,
    now: OffsetDateTime,
    token: &str,
) -> Result<(), StoreError> {
    if oauth == OAuth::Off {
        return Err(failed(
            "the request carries a bearer token (Microsoft Entra ID); this server takes them \
             only when started with `--oauth basic` (and --cert/--key, for HTTPS)",
        ));
    }
    if !https {
        return Err(failed(
            "Authentication scheme Bearer is not allowed with HTTP: a bearer token is taken \
             over HTTPS only (start the server with --cert and --key)",
        ));
    }
    let version = header(headers, "x-ms-version");
    if version.is_empty() || version < OAUTH_OLDEST_VERSION {
        return Err(failed(format!(
            "Authentication scheme Bearer is not supported with x-ms-version `{version}`; \
             a bearer token needs {OAUTH_OLDEST_VERSION} or later"
        )));
    }
    check_token(token, &target.account, now.unix_timestamp()).map_err(|detail| {
        StoreError::new(
            ErrorCode::InvalidAuthenticationInfo,
            format!("{INVALID_TOKEN} {detail}"),
        )
    })
}

/// One base64url segment of a JWT, as a JSON object.
fn jwt_segment(
    segment: &str,
    what: &str,
) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(segment.trim_end_matches('='))
        .map_err(|e| format!("the token's {what} is not base64url: {e}"))?;
    match serde_json::from_slice(&bytes) {
        Ok(serde_json::Value::Object(map)) => Ok(map),
        _ => Err(format!("the token's {what} is not a JSON object")),
    }
}

/// The claims of a JWT (`HEADER.PAYLOAD.SIGNATURE`, the signature unread).
fn jwt_claims(token: &str) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    let parts: Vec<&str> = token.split('.').collect();
    let [head, payload, _signature] = parts[..] else {
        return Err(format!(
            "the bearer token is not a JWT (HEADER.PAYLOAD.SIGNATURE): it has {} part(s)",
            parts.len()
        ));
    };
    jwt_segment(head, "header")?;
    jwt_segment(payload, "payload")
}

/// The tenant an issuer names: `https://sts.windows.net/TENANT/` or
/// `https://login.microsoftonline.com/TENANT/v2.0`.
fn issuer_tenant(issuer: &str) -> Option<&str> {
    let tenant = issuer
        .strip_prefix("https://sts.windows.net/")
        .and_then(|rest| rest.strip_suffix('/'))
        .or_else(|| {
            issuer
                .strip_prefix("https://login.microsoftonline.com/")
                .and_then(|rest| rest.strip_suffix("/v2.0"))
        })?;
    (!tenant.is_empty() && !tenant.contains('/')).then_some(tenant)
}

/// Whether `audience` is the Storage resource or the account's table endpoint.
fn audience_ok(audience: &str, account: &str) -> bool {
    let audience = audience.strip_suffix('/').unwrap_or(audience);
    if audience == "https://storage.azure.com" {
        return true;
    }
    audience
        .strip_prefix("https://")
        .and_then(|host| host.strip_prefix(account))
        .and_then(|host| host.strip_prefix(".table."))
        .is_some_and(|suffix| !suffix.is_empty() && !suffix.contains('/'))
}

/// A numeric date claim (`exp`, `nbf`), in seconds since 1970.
fn date_claim(claims: &serde_json::Map<String, serde_json::Value>, name: &str) -> Option<i64> {
    let value = claims.get(name)?;
    value.as_i64().or_else(|| value.as_f64().map(|f| f as i64))
}

/// Checks a bearer token's shape and claims for `account` at `now` (seconds since 1970): the
/// reason it is refused, for the error's message. The signature is not checked.
pub fn check_token(token: &str, account: &str, now: i64) -> Result<(), String> {
    let claims = jwt_claims(token)?;
    let Some(expiry) = date_claim(&claims, "exp") else {
        return Err("the token has no numeric `exp` (expiry) claim".to_owned());
    };
    if claims.contains_key("nbf") && date_claim(&claims, "nbf").is_none() {
        return Err("the token's `nbf` claim is not a number".to_owned());
    }
    if let Some(start) = date_claim(&claims, "nbf")
        && now + TOKEN_CLOCK_SKEW < start
    {
        return Err(format!(
            "Lifetime validation failed. The token is not yet valid (nbf {start}, now {now})."
        ));
    }
    if now - TOKEN_CLOCK_SKEW > expiry {
        return Err(format!(
            "Lifetime validation failed. The token is expired (exp {expiry}, now {now})."
        ));
    }
    let issuer = claims.get("iss").and_then(|v| v.as_str()).unwrap_or("");
    if issuer_tenant(issuer).is_none() {
        return Err(format!(
            "Issuer validation failed: `{issuer}` is neither https://sts.windows.net/TENANT/ \
             nor https://login.microsoftonline.com/TENANT/v2.0."
        ));
    }
    let audiences: Vec<&str> = match claims.get("aud") {
        Some(serde_json::Value::String(one)) => vec![one.as_str()],
        Some(serde_json::Value::Array(many)) => many.iter().filter_map(|v| v.as_str()).collect(),
        _ => Vec::new(),
    };
    if !audiences.iter().any(|a| audience_ok(a, account)) {
        return Err(format!(
            "Audience validation failed: {audiences:?} is neither https://storage.azure.com nor \
             the table endpoint of account `{account}`."
        ));
    }
    Ok(())
}

/// The `WWW-Authenticate` header of a `401 InvalidAuthenticationInfo`: where a token for
/// Storage is got, in the tenant of the request's token (`common` when it names none).
pub fn bearer_challenge(headers: &HeaderMap) -> String {
    let claims = bearer_token(header(headers, "authorization")).and_then(|t| jwt_claims(t).ok());
    let tenant = claims
        .as_ref()
        .and_then(|c| {
            c.get("tid").and_then(|v| v.as_str()).or_else(|| {
                c.get("iss")
                    .and_then(|v| v.as_str())
                    .and_then(issuer_tenant)
            })
        })
        .filter(|t| {
            !t.is_empty()
                && t.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
        })
        .unwrap_or("common");
    format!(
        "Bearer authorization_uri=https://login.microsoftonline.com/{tenant}/oauth2/authorize \
         resource_id=https://storage.azure.com"
    )
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

    /// An unsigned JWT (`alg: none`) with these claims.
    fn token(claims: serde_json::Value) -> String {
        use base64::Engine as _;
        let b64 = |v: &serde_json::Value| {
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string())
        };
        format!(
            "{}.{}.",
            b64(&serde_json::json!({"alg": "none", "typ": "JWT"})),
            b64(&claims)
        )
    }

    const NOW: i64 = 1_700_000_000;

    fn claims() -> serde_json::Value {
        serde_json::json!({
            "aud": "https://storage.azure.com",
            "iss": "https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/",
            "tid": "72f988bf-86f1-41af-91ab-2d7cd011db47",
            "iat": NOW - 60,
            "nbf": NOW - 60,
            "exp": NOW + 3600,
        })
    }

    fn with(key: &str, value: serde_json::Value) -> String {
        let mut c = claims();
        c[key] = value;
        token(c)
    }

    #[test]
    fn a_token_with_the_right_claims_is_taken() {
        assert_eq!(check_token(&token(claims()), "acct", NOW), Ok(()));
        for aud in [
            "https://storage.azure.com/",
            "https://acct.table.core.windows.net",
            "https://acct.table.core.windows.net/",
        ] {
            assert_eq!(check_token(&with("aud", aud.into()), "acct", NOW), Ok(()));
        }
        let list = serde_json::json!(["x", "https://storage.azure.com"]);
        assert_eq!(check_token(&with("aud", list), "acct", NOW), Ok(()));
        let v2 = "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0";
        assert_eq!(check_token(&with("iss", v2.into()), "acct", NOW), Ok(()));
        // Within the clock skew.
        assert_eq!(
            check_token(&with("exp", (NOW - 60).into()), "acct", NOW),
            Ok(())
        );
    }

    #[test]
    fn lifetime_audience_and_issuer_are_checked() {
        let e = check_token(&with("exp", (NOW - 600).into()), "acct", NOW).unwrap_err();
        assert!(e.contains("The token is expired"), "{e}");
        let e = check_token(&with("nbf", (NOW + 600).into()), "acct", NOW).unwrap_err();
        assert!(e.contains("not yet valid"), "{e}");
        let mut c = claims();
        c.as_object_mut().unwrap().remove("exp");
        assert!(
            check_token(&token(c), "acct", NOW)
                .unwrap_err()
                .contains("exp")
        );
        for aud in [
            "https://management.azure.com",
            "https://other.table.core.windows.net",
            "https://acct.blob.core.windows.net",
            "https://storage.azure.com.evil",
        ] {
            let e = check_token(&with("aud", aud.into()), "acct", NOW).unwrap_err();
            assert!(e.contains("Audience"), "{aud}: {e}");
        }
        for iss in ["https://evil.example/t/", "https://sts.windows.net//", ""] {
            let e = check_token(&with("iss", iss.into()), "acct", NOW).unwrap_err();
            assert!(e.contains("Issuer"), "{iss}: {e}");
        }
    }

    #[test]
    fn a_malformed_token_is_an_error_not_a_panic() {
        for bad in [
            "",
            "abc",
            "a.b",
            "a.b.c.d",
            "!!!.???.",
            "e30.e30",
            "bnVsbA.bnVsbA.",
            "e30.W10.",
            "\u{e9}.\u{e9}.\u{e9}",
        ] {
            assert!(check_token(bad, "acct", NOW).is_err(), "{bad}");
        }
        // `{}` claims: no exp.
        assert!(
            check_token("e30.e30.", "acct", NOW)
                .unwrap_err()
                .contains("exp")
        );
        let e = check_token(&with("exp", "soon".into()), "acct", NOW).unwrap_err();
        assert!(e.contains("exp"), "{e}");
    }

    #[test]
    fn the_challenge_names_the_token_tenant() {
        let mut headers = HeaderMap::new();
        let bearer = format!("Bearer {}", token(claims()));
        headers.insert("authorization", bearer.parse().unwrap());
        assert_eq!(
            bearer_challenge(&headers),
            "Bearer authorization_uri=https://login.microsoftonline.com/\
             72f988bf-86f1-41af-91ab-2d7cd011db47/oauth2/authorize \
             resource_id=https://storage.azure.com"
        );
        headers.insert("authorization", "Bearer junk".parse().unwrap());
        assert!(bearer_challenge(&headers).contains("/common/oauth2/authorize"));
        assert_eq!(bearer_token("bearer  x "), Some("x"));
        assert_eq!(bearer_token("SharedKey a:b"), None);
    }
}

//! Generating table shared access signatures (service SAS for one table).
//!
//! What a table SAS allows is a [`SasScope`], defined in `table-runtime` and shared with the
//! in-process store, which enforces the same scope ([`table_runtime::Store::scoped`]): the
//! table, some of four permissions (`r` query, `a` add, `u` update, `d` delete), an expiry and an
//! optional start, and optionally a PartitionKey / RowKey range. A [`TableSas`] adds what only
//! matters on the wire (a stored access policy, an IP range, the protocol, the signed version)
//! and signs it all with the account key: the signature is the base64 HMAC-SHA256 of twelve
//! lines,
//!
//! ```text
//! permissions, start, expiry, /table/<account>/<table in lower case>, policy identifier,
//! IP range, protocol, version, start PartitionKey, start RowKey, end PartitionKey, end RowKey
//! ```
//!
//! each empty when not given, and sent beside them as the query parameters `sp`, `st`, `se`,
//! `tn`, `si`, `sip`, `spr`, `sv`, `spk`, `srk`, `epk`, `erk` and `sig`.
//!
//! [`TableSas::from_token`] and [`scope_of_token`] read a token back into its fields. An
//! [`HttpBackend`](crate::HttpBackend) given a SAS reads the token's scope this way and checks
//! every request against it on the client, before sending anything, with the same checks the
//! in-process store applies ([`table_runtime::sas::Scoped`]): what the SAS does not allow is
//! refused with the service's 403 codes, and queries are limited to its key range. A token that
//! does not state its whole scope is not checked on the client and is left to the service: an
//! account SAS (no `tn`), or a SAS whose permissions or expiry live in a stored access policy
//! (`si` without `sp` or `se`).
//!
//! Azurite (3.37) checks permissions, start, expiry and the signature, but not the key ranges;
//! it refuses every `$batch` request made with a table SAS (403), whatever it grants; and it lets
//! a SAS with `u` alone insert-or-merge or insert-or-replace, where the service needs `a` and `u`.
//! Through an `HttpBackend`, the client-side checks close the first and the last gap: a request
//! outside the range, or an upsert with `u` alone, is refused before it reaches the emulator.

use percent_encoding::percent_decode_str;
use time::OffsetDateTime;

use crate::auth::hmac_sha256_base64;
use crate::connection::{AccountKey, Connection, Credential};
use crate::wire::encode;

pub use table_runtime::sas::{SasError, SasScope, TablePermissions};

/// The signed version written into generated signatures.
pub const SAS_VERSION: &str = "2019-02-02";

/// A table SAS: its [`SasScope`] and the fields that only matter on the wire.
///
/// ```
/// use table_http::sas::{TablePermissions, TableSas};
/// use table_http::connection::AccountKey;
///
/// let expiry = time::OffsetDateTime::from_unix_timestamp(1_924_991_999).unwrap();
/// let mut sas = TableSas::new("Orders", TablePermissions::READ, expiry);
/// sas.scope.start_partition_key = Some("cust-1".into());
/// sas.scope.end_partition_key = Some("cust-1".into());
/// let key = AccountKey::from_base64("a2V5").unwrap();
/// let token = sas.token("acme", &key).unwrap();
/// assert!(token.starts_with("sv=2019-02-02&tn=Orders&sp=r&se=2030-12-31T23%3A59%3A59Z&spk=cust-1&epk=cust-1&sig="));
///
/// // The in-process store enforces the same scope.
/// let store = table_runtime::Store::new();
/// let as_client = store.scoped(&sas.scope);
/// # let _ = as_client;
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSas {
    /// What the SAS allows: table, permissions, start, expiry and key range.
    pub scope: SasScope,
    /// A stored access policy on the table (`si`).
    pub identifier: Option<String>,
    /// An IP address or range the requests must come from (`sip`).
    pub ip_range: Option<String>,
    /// `https` or `https,http` (`spr`).
    pub protocol: Option<String>,
    /// The signed version (`sv`).
    pub version: String,
}

impl From<SasScope> for TableSas {
    /// A SAS for the scope, with no policy, IP range or protocol limit.
    fn from(scope: SasScope) -> TableSas {
        TableSas {
            scope,
            identifier: None,
            ip_range: None,
            protocol: None,
            version: SAS_VERSION.to_owned(),
        }
    }
}

impl TableSas {
    /// A SAS for `table` with `permissions` until `expiry`, and no other limits.
    pub fn new(
        table: impl Into<String>,
        permissions: TablePermissions,
        expiry: OffsetDateTime,
    ) -> TableSas {
        TableSas::from(SasScope::new(table, permissions, expiry))
    }

    fn check(&self) -> Result<(), SasError> {
        self.scope.check()?;
        if self.scope.permissions.is_empty() && self.identifier.is_none() {
            return Err(SasError("it grants no permission".into()));
        }
        if let Some(p) = &self.protocol
            && p != "https"
            && p != "https,http"
        {
            return Err(SasError(
                "the protocol must be `https` or `https,http`".into(),
            ));
        }
        Ok(())
    }

    /// The text the signature is computed over (see the module documentation).
    pub fn string_to_sign(&self, account: &str) -> String {
        let scope = &self.scope;
        let token = SasToken {
            version: Some(self.version.clone()),
            table: Some(scope.table.clone()),
            permissions: Some(scope.permissions.to_string()),
            start: scope.start.map(sas_time),
            expiry: Some(sas_time(scope.expiry)),
            start_partition_key: scope.start_partition_key.clone(),
            start_row_key: scope.start_row_key.clone(),
            end_partition_key: scope.end_partition_key.clone(),
            end_row_key: scope.end_row_key.clone(),
            identifier: self.identifier.clone(),
            ip_range: self.ip_range.clone(),
            protocol: self.protocol.clone(),
            ..SasToken::default()
        };
        token.string_to_sign(account)
    }

    /// The signature over [`TableSas::string_to_sign`].
    pub fn signature(&self, account: &str, key: &AccountKey) -> String {
        hmac_sha256_base64(key, &self.string_to_sign(account))
    }

    /// The SAS token: the query string (without `?`) to append to requests.
    pub fn token(&self, account: &str, key: &AccountKey) -> Result<String, SasError> {
        self.check()?;
        let scope = &self.scope;
        let mut fields: Vec<(&str, String)> =
            vec![("sv", self.version.clone()), ("tn", scope.table.clone())];
        if !scope.permissions.is_empty() {
            fields.push(("sp", scope.permissions.to_string()));
        }
        if let Some(start) = scope.start {
            fields.push(("st", sas_time(start)));
        }
        fields.push(("se", sas_time(scope.expiry)));
        let optional = [
            ("spk", &scope.start_partition_key),
            ("srk", &scope.start_row_key),
            ("epk", &scope.end_partition_key),
            ("erk", &scope.end_row_key),
            ("si", &self.identifier),
            ("sip", &self.ip_range),
            ("spr", &self.protocol),
        ];
        for (name, value) in optional {
            if let Some(v) = value {
                fields.push((name, v.clone()));
            }
        }
        fields.push(("sig", self.signature(account, key)));
        Ok(fields
            .iter()
            .map(|(name, value)| format!("{name}={}", encode(value)))
            .collect::<Vec<_>>()
            .join("&"))
    }
}

/// The fields of a SAS token, percent-decoded, as the token gives them; `None` where absent.
/// The client reads a token's scope from these ([`scope_of_token`]); a server checks a token's
/// signature over them ([`SasToken::verify`]), since the signature covers the text of each
/// field, not its meaning (`2024-01-02T03:04:05Z` and `2024-01-02T03:04:05.0000000Z` sign
/// differently).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SasToken {
    /// `sv`: the signed version.
    pub version: Option<String>,
    /// `tn`: the table (a table SAS).
    pub table: Option<String>,
    /// `sp`: the permissions.
    pub permissions: Option<String>,
    /// `st`: the start.
    pub start: Option<String>,
    /// `se`: the expiry.
    pub expiry: Option<String>,
    /// `spk`: the first PartitionKey.
    pub start_partition_key: Option<String>,
    /// `srk`: the first RowKey.
    pub start_row_key: Option<String>,
    /// `epk`: the last PartitionKey.
    pub end_partition_key: Option<String>,
    /// `erk`: the last RowKey.
    pub end_row_key: Option<String>,
    /// `si`: a stored access policy of the table.
    pub identifier: Option<String>,
    /// `sip`: the IP address or range requests must come from.
    pub ip_range: Option<String>,
    /// `spr`: `https` or `https,http`.
    pub protocol: Option<String>,
    /// `ss`: the services of an account SAS (`t` for tables).
    pub services: Option<String>,
    /// `srt`: the resource types of an account SAS (`s` service, `c` container, `o` object).
    pub resource_types: Option<String>,
    /// `ses`: the encryption scope of an account SAS (versions from 2020-12-06).
    pub encryption_scope: Option<String>,
    /// `sig`: the signature.
    pub signature: Option<String>,
}

/// The signed versions from which an account SAS signs its encryption scope too.
const ACCOUNT_SAS_WITH_SCOPE: &str = "2020-12-06";

impl SasToken {
    /// Whether this is an account SAS (it names services or resource types) rather than a
    /// table SAS.
    pub fn is_account_sas(&self) -> bool {
        self.services.is_some() || self.resource_types.is_some()
    }

    /// The text the signature covers: a table SAS's twelve lines (see the module
    /// documentation), or an account SAS's: account, permissions, services, resource types,
    /// start, expiry, IP range, protocol, version, (encryption scope from version 2020-12-06),
    /// each followed by a line end.
    pub fn string_to_sign(&self, account: &str) -> String {
        let field = |v: &Option<String>| v.clone().unwrap_or_default();
        if self.is_account_sas() {
            let mut lines = vec![
                account.to_owned(),
                field(&self.permissions),
                field(&self.services),
                field(&self.resource_types),
                field(&self.start),
                field(&self.expiry),
                field(&self.ip_range),
                field(&self.protocol),
                field(&self.version),
            ];
            if self.version.as_deref().unwrap_or_default() >= ACCOUNT_SAS_WITH_SCOPE {
                lines.push(field(&self.encryption_scope));
            }
            let mut text = lines.join("\n");
            text.push('\n');
            return text;
        }
        [
            field(&self.permissions),
            field(&self.start),
            field(&self.expiry),
            format!(
                "/table/{account}/{}",
                field(&self.table).to_ascii_lowercase()
            ),
            field(&self.identifier),
            field(&self.ip_range),
            field(&self.protocol),
            field(&self.version),
            field(&self.start_partition_key),
            field(&self.start_row_key),
            field(&self.end_partition_key),
            field(&self.end_row_key),
        ]
        .join("\n")
    }

    /// Whether the token's signature is the one `key` gives its fields for `account`.
    pub fn verify(&self, account: &str, key: &AccountKey) -> bool {
        let expected = hmac_sha256_base64(key, &self.string_to_sign(account));
        self.signature.as_deref().is_some_and(|given| {
            // Compared in full whatever the first difference, so timing tells nothing.
            given.len() == expected.len()
                && given
                    .bytes()
                    .zip(expected.bytes())
                    .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                    == 0
        })
    }

    /// The table SAS's scope, with what a stored access policy holds filling in the
    /// permissions, start and expiry the token leaves out (a field in both is an error, as
    /// the service has it).
    pub fn table_scope(
        &self,
        policy: Option<(Option<&str>, Option<&str>, Option<&str>)>,
    ) -> Result<SasScope, SasError> {
        let mut fields = self.clone();
        if let Some((permissions, start, expiry)) = policy {
            for (name, own, from_policy) in [
                ("sp", &mut fields.permissions, permissions),
                ("st", &mut fields.start, start),
                ("se", &mut fields.expiry, expiry),
            ] {
                match (&own, from_policy) {
                    (Some(_), Some(_)) => {
                        return Err(SasError(format!(
                            "`{name}` is given by both the token and its stored access policy"
                        )));
                    }
                    (None, Some(value)) => *own = Some(value.to_owned()),
                    _ => {}
                }
            }
        }
        fields.scope().map(|(scope, _)| scope)
    }

    /// Splits a token (`name=value&…`, a leading `?` allowed) into its fields. Parameters a SAS
    /// does not have (a request's own query) are skipped; a field given twice, or a value that
    /// does not decode to UTF-8, is an error.
    pub fn parse(token: &str) -> Result<SasToken, SasError> {
        let mut fields = SasToken::default();
        let mut seen: Vec<&str> = Vec::new();
        for pair in token
            .trim()
            .trim_start_matches('?')
            .split('&')
            .filter(|p| !p.is_empty())
        {
            let (name, raw) = pair.split_once('=').unwrap_or((pair, ""));
            if seen.contains(&name) {
                return Err(SasError(format!("the token gives `{name}` twice")));
            }
            seen.push(name);
            let slot = match name {
                "sv" => &mut fields.version,
                "tn" => &mut fields.table,
                "sp" => &mut fields.permissions,
                "st" => &mut fields.start,
                "se" => &mut fields.expiry,
                "spk" => &mut fields.start_partition_key,
                "srk" => &mut fields.start_row_key,
                "epk" => &mut fields.end_partition_key,
                "erk" => &mut fields.end_row_key,
                "si" => &mut fields.identifier,
                "sip" => &mut fields.ip_range,
                "spr" => &mut fields.protocol,
                "ss" => &mut fields.services,
                "srt" => &mut fields.resource_types,
                "ses" => &mut fields.encryption_scope,
                "sig" => &mut fields.signature,
                _ => continue,
            };
            let value = percent_decode_str(raw).decode_utf8().map_err(|_| {
                SasError(format!("the token's `{name}` is not percent-encoded UTF-8"))
            })?;
            *slot = Some(value.into_owned());
        }
        Ok(fields)
    }

    /// Whether the token states everything a client needs to check it: the table, the
    /// permissions and the expiry.
    fn states_its_scope(&self) -> bool {
        self.table.is_some() && self.permissions.is_some() && self.expiry.is_some()
    }

    /// The scope the token states; `what` names the missing field when it does not.
    fn scope(self) -> Result<(SasScope, TokenExtras), SasError> {
        let missing = |name: &str, what: &str| {
            let policy = if self.identifier.is_some() && name != "tn" {
                " (it may be in the stored access policy the token names; then only the service \
                 knows it)"
            } else {
                ""
            };
            SasError(format!("the token has no `{name}` ({what}){policy}"))
        };
        let table = self.table.clone().ok_or_else(|| missing("tn", "table"))?;
        let permissions = self
            .permissions
            .as_deref()
            .ok_or_else(|| missing("sp", "permissions"))
            .and_then(TablePermissions::parse)?;
        let expiry = self
            .expiry
            .as_deref()
            .ok_or_else(|| missing("se", "expiry"))
            .and_then(parse_sas_time)?;
        let start = self.start.as_deref().map(parse_sas_time).transpose()?;
        let scope = SasScope {
            table,
            permissions,
            start,
            expiry,
            start_partition_key: self.start_partition_key,
            start_row_key: self.start_row_key,
            end_partition_key: self.end_partition_key,
            end_row_key: self.end_row_key,
        };
        let extras = TokenExtras {
            version: self.version,
            identifier: self.identifier,
            ip_range: self.ip_range,
            protocol: self.protocol,
        };
        Ok((scope, extras))
    }
}

/// The wire-only fields of a token, beside its scope.
struct TokenExtras {
    version: Option<String>,
    identifier: Option<String>,
    ip_range: Option<String>,
    protocol: Option<String>,
}

impl TableSas {
    /// Reads a table SAS token (what [`TableSas::token`] writes; a leading `?` is allowed) back
    /// into its fields. The signature is not checked: only the account key could.
    ///
    /// The token must name its table (`tn`), permissions (`sp`), expiry (`se`) and version
    /// (`sv`); `st`, `spk`, `srk`, `epk`, `erk`, `si`, `sip` and `spr` are read when present.
    /// Times are read in the ISO 8601 forms the service accepts (`2024-01-02`,
    /// `2024-01-02T03:04Z`, `2024-01-02T03:04:05Z`, with optional fractional seconds and an
    /// optional UTC offset in place of `Z`).
    ///
    /// ```
    /// use table_http::connection::AccountKey;
    /// use table_http::sas::{TablePermissions, TableSas};
    ///
    /// let expiry = time::OffsetDateTime::from_unix_timestamp(1_924_991_999).unwrap();
    /// let mut sas = TableSas::new("Orders", TablePermissions::parse("ra").unwrap(), expiry);
    /// sas.scope.start_partition_key = Some("cust 1".into());
    /// let token = sas.token("acme", &AccountKey::from_base64("a2V5").unwrap()).unwrap();
    /// assert_eq!(TableSas::from_token(&token).unwrap(), sas);
    /// ```
    pub fn from_token(token: &str) -> Result<TableSas, SasError> {
        let (scope, extras) = SasToken::parse(token)?.scope()?;
        let Some(version) = extras.version else {
            return Err(SasError("the token has no `sv` (signed version)".into()));
        };
        Ok(TableSas {
            scope,
            identifier: extras.identifier,
            ip_range: extras.ip_range,
            protocol: extras.protocol,
            version,
        })
    }
}

/// The scope a SAS token states, for checking requests on the client: `Ok(None)` when the token
/// does not state a whole scope, which leaves every check to the service.
///
/// A token states its scope when it names a table (`tn`), its permissions (`sp`) and its expiry
/// (`se`). An account SAS names no table, and a service SAS tied to a stored access policy
/// (`si`) may leave its permissions or expiry to the policy, which only the service can read:
/// for these the answer is `None`. A field that is present but cannot be read (a time or a
/// permission string in an unknown form, a field given twice) is an error.
///
/// The scope is what the token claims; whether the claim is genuine (the signature) only the
/// service can tell, so a client check can refuse more than the service would, never less.
///
/// ```
/// use table_http::sas::{scope_of_token, TablePermissions};
///
/// let scope = scope_of_token("sv=2019-02-02&tn=Orders&sp=r&se=2030-01-01T00%3A00%3A00Z&spk=a&epk=b&sig=x")
///     .unwrap()
///     .unwrap();
/// assert_eq!((scope.table.as_str(), scope.permissions), ("Orders", TablePermissions::READ));
/// assert_eq!(scope.start_partition_key.as_deref(), Some("a"));
///
/// // An account SAS names no table: nothing to check on the client.
/// let account = "sv=2019-02-02&ss=t&srt=sco&sp=rwdlacu&se=2030-01-01T00%3A00%3A00Z&sig=x";
/// assert_eq!(scope_of_token(account).unwrap(), None);
/// ```
pub fn scope_of_token(token: &str) -> Result<Option<SasScope>, SasError> {
    let fields = SasToken::parse(token)?;
    if !fields.states_its_scope() {
        return Ok(None);
    }
    fields.scope().map(|(scope, _)| Some(scope))
}

/// Reads a SAS time: `YYYY-MM-DD` (midnight UTC), or `YYYY-MM-DDThh:mm`, `…Thh:mm:ss` or
/// `…Thh:mm:ss.fraction`, followed by `Z`, a `+hh:mm` / `-hh:mm` offset, or nothing (UTC).
///
/// ```
/// use table_http::sas::{parse_sas_time, sas_time};
/// let t = parse_sas_time("2024-01-02T03:04:05Z").unwrap();
/// assert_eq!(sas_time(t), "2024-01-02T03:04:05Z");
/// assert_eq!(sas_time(parse_sas_time("2024-01-02").unwrap()), "2024-01-02T00:00:00Z");
/// assert_eq!(sas_time(parse_sas_time("2024-01-02T03:04+01:00").unwrap()), "2024-01-02T02:04:00Z");
/// assert!(parse_sas_time("tomorrow").is_err());
/// ```
pub fn parse_sas_time(text: &str) -> Result<OffsetDateTime, SasError> {
    let bad = || {
        SasError(format!(
            "`{text}` is not a SAS time (such as 2024-01-02T03:04:05Z)"
        ))
    };
    let number = |digits: &str, len: usize| -> Result<u32, SasError> {
        if digits.len() != len || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        digits.parse().map_err(|_| bad())
    };
    let (date, time_of_day) = match text.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (text, None),
    };
    let mut ymd = date.split('-');
    let (Some(y), Some(m), Some(d), None) = (ymd.next(), ymd.next(), ymd.next(), ymd.next()) else {
        return Err(bad());
    };
    let year = i32::try_from(number(y, 4)?).map_err(|_| bad())?;
    let month = time::Month::try_from(u8::try_from(number(m, 2)?).map_err(|_| bad())?)
        .map_err(|_| bad())?;
    let day = u8::try_from(number(d, 2)?).map_err(|_| bad())?;
    let date = time::Date::from_calendar_date(year, month, day).map_err(|_| bad())?;
    let Some(time_of_day) = time_of_day else {
        return Ok(date.midnight().assume_utc());
    };
    // The zone: `Z`, `±hh:mm`, or none.
    let (clock, offset) = if let Some(clock) = time_of_day.strip_suffix('Z') {
        (clock, time::UtcOffset::UTC)
    } else if let Some(at) = time_of_day.rfind(['+', '-']) {
        let (clock, zone) = time_of_day.split_at(at);
        let (sign, hm) = zone.split_at(1);
        let (h, m) = hm.split_once(':').ok_or_else(bad)?;
        let seconds =
            i32::try_from(number(h, 2)? * 3600 + number(m, 2)? * 60).map_err(|_| bad())?;
        let seconds = if sign == "-" { -seconds } else { seconds };
        (
            clock,
            time::UtcOffset::from_whole_seconds(seconds).map_err(|_| bad())?,
        )
    } else {
        (time_of_day, time::UtcOffset::UTC)
    };
    let (whole, fraction) = match clock.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (clock, None),
    };
    let mut hms = whole.split(':');
    let hour = number(hms.next().ok_or_else(bad)?, 2)?;
    let minute = number(hms.next().ok_or_else(bad)?, 2)?;
    let second = hms.next().map(|s| number(s, 2)).transpose()?.unwrap_or(0);
    if hms.next().is_some() {
        return Err(bad());
    }
    let nanos = match fraction {
        None => 0,
        Some(f) if !f.is_empty() && f.len() <= 9 && f.bytes().all(|b| b.is_ascii_digit()) => {
            format!("{f:0<9}").parse::<u32>().map_err(|_| bad())?
        }
        Some(_) => return Err(bad()),
    };
    let narrow = |n: u32| u8::try_from(n).map_err(|_| bad());
    let clock = time::Time::from_hms_nano(narrow(hour)?, narrow(minute)?, narrow(second)?, nanos)
        .map_err(|_| bad())?;
    Ok(date
        .with_time(clock)
        .assume_offset(offset)
        .to_offset(time::UtcOffset::UTC))
}

/// A SAS time: UTC, whole seconds, `2024-01-02T03:04:05Z`.
pub fn sas_time(t: OffsetDateTime) -> String {
    let t = t.to_offset(time::UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        t.year(),
        t.month() as u8,
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

impl Connection {
    /// The same account and endpoint with a SAS in place of the account key: what a client
    /// that must not hold the key is given. Needs a SharedKey connection.
    ///
    /// ```
    /// use table_http::Connection;
    /// use table_http::sas::{TablePermissions, TableSas};
    ///
    /// let owner = Connection::development();
    /// let expiry = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
    /// let reader = owner.with_sas(&TableSas::new("Orders", TablePermissions::READ, expiry)).unwrap();
    /// assert!(matches!(reader.credential, table_http::Credential::Sas(_)));
    /// ```
    pub fn with_sas(&self, sas: &TableSas) -> Result<Connection, SasError> {
        let Credential::SharedKey(key) = &self.credential else {
            return Err(SasError(
                "generating a SAS needs the account key; this connection has a SAS".into(),
            ));
        };
        Ok(Connection {
            account: self.account.clone(),
            endpoint: self.endpoint.clone(),
            credential: Credential::Sas(sas.token(&self.account, key)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connection::DEV_ACCOUNT_KEY;

    fn at(unix: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(unix).unwrap()
    }

    // Expected signatures computed outside Rust (Python's hmac module) over the string-to-sign
    // written out line by line from the documented format.

    #[test]
    fn every_field_lands_on_its_line() {
        let mut sas = TableSas::new("Orders", TablePermissions::ALL, at(1_704_198_600));
        sas.scope.start = Some(at(1_704_067_200));
        sas.scope.start_partition_key = Some("cust-1".into());
        sas.scope.end_partition_key = Some("cust-9".into());
        sas.scope.end_row_key = Some("r 9".into());
        sas.protocol = Some("https,http".into());
        let text = sas.string_to_sign("devstoreaccount1");
        let lines: Vec<&str> = text.split('\n').collect();
        assert_eq!(
            lines,
            [
                "raud",                           // signed permissions
                "2024-01-01T00:00:00Z",           // signed start
                "2024-01-02T12:30:00Z",           // signed expiry
                "/table/devstoreaccount1/orders", // canonicalized resource, table in lower case
                "",                               // signed identifier
                "",                               // signed IP
                "https,http",                     // signed protocol
                "2019-02-02",                     // signed version
                "cust-1",                         // start PartitionKey
                "",                               // start RowKey
                "cust-9",                         // end PartitionKey
                "r 9",                            // end RowKey
            ]
        );
        let key = AccountKey::from_base64(DEV_ACCOUNT_KEY).unwrap();
        assert_eq!(
            sas.signature("devstoreaccount1", &key),
            "X2c+HGKmPJd3OpNpx4aU8LGHIr9+x4weRblGKStnFks="
        );
        assert_eq!(
            sas.token("devstoreaccount1", &key).unwrap(),
            "sv=2019-02-02&tn=Orders&sp=raud&st=2024-01-01T00%3A00%3A00Z&se=2024-01-02T12%3A30%3A00Z\
             &spk=cust-1&epk=cust-9&erk=r%209&spr=https%2Chttp\
             &sig=X2c%2BHGKmPJd3OpNpx4aU8LGHIr9%2Bx4weRblGKStnFks%3D"
        );
    }

    #[test]
    fn a_minimal_sas_leaves_its_optional_lines_empty() {
        let sas = TableSas::new("mytable", TablePermissions::READ, at(1_909_094_399));
        assert_eq!(
            sas.string_to_sign("acme"),
            "r\n\n2030-06-30T23:59:59Z\n/table/acme/mytable\n\n\n\n2019-02-02\n\n\n\n"
        );
        let key = AccountKey::from_base64("a2V5").unwrap();
        assert_eq!(
            sas.signature("acme", &key),
            "43qf8zZ6rzYm4uVqgysCV1y9EdrPNU5sTHv13FXECUs="
        );
    }

    #[test]
    fn inconsistent_fields_are_refused() {
        let key = AccountKey::from_base64("a2V5").unwrap();
        let base = TableSas::new("t", TablePermissions::READ, at(2_000_000_000));
        let cases: Vec<(TableSas, &str)> = vec![
            (
                TableSas {
                    scope: SasScope {
                        table: String::new(),
                        ..base.scope.clone()
                    },
                    ..base.clone()
                },
                "no table",
            ),
            (
                TableSas {
                    scope: SasScope {
                        permissions: TablePermissions::default(),
                        ..base.scope.clone()
                    },
                    ..base.clone()
                },
                "no permission",
            ),
            (
                TableSas {
                    scope: SasScope {
                        start: Some(at(2_000_000_001)),
                        ..base.scope.clone()
                    },
                    ..base.clone()
                },
                "expires before",
            ),
            (
                TableSas {
                    scope: SasScope {
                        start_row_key: Some("r".into()),
                        ..base.scope.clone()
                    },
                    ..base.clone()
                },
                "start RowKey",
            ),
            (
                TableSas {
                    scope: SasScope {
                        end_row_key: Some("r".into()),
                        ..base.scope.clone()
                    },
                    ..base.clone()
                },
                "end RowKey",
            ),
            (
                TableSas {
                    protocol: Some("http".into()),
                    ..base.clone()
                },
                "protocol",
            ),
        ];
        for (sas, needle) in cases {
            let err = sas.token("acme", &key).unwrap_err().to_string();
            assert!(err.contains(needle), "{err}");
        }
        assert!(TablePermissions::parse("rr").is_err());
        assert_eq!(
            TablePermissions::parse("").unwrap(),
            TablePermissions::default()
        );
        assert_eq!(TablePermissions::parse("durx").ok(), None);
        assert_eq!(
            TablePermissions::parse("daur").unwrap(),
            TablePermissions::ALL
        );
    }

    #[test]
    fn a_generated_token_reads_back_to_the_same_sas() {
        let key = AccountKey::from_base64(DEV_ACCOUNT_KEY).unwrap();
        let mut full = TableSas::new("Orders", TablePermissions::ALL, at(1_704_198_600));
        full.scope.start = Some(at(1_704_067_200));
        // Keys with characters that must be percent-encoded, including `&` and `=`.
        full.scope.start_partition_key = Some("cust 1&x=y".into());
        full.scope.start_row_key = Some("r/1?'é".into());
        full.scope.end_partition_key = Some("cust-9+".into());
        full.scope.end_row_key = Some("r 9%".into());
        full.identifier = Some("policy-1".into());
        full.ip_range = Some("10.0.0.1-10.0.0.9".into());
        full.protocol = Some("https".into());
        let minimal = TableSas::new("t", TablePermissions::READ, at(1_909_094_399));
        let mut partial = TableSas::new(
            "t2",
            TablePermissions::parse("au").unwrap(),
            at(2_000_000_000),
        );
        partial.scope.end_partition_key = Some("m".into());
        for sas in [full, minimal, partial] {
            let token = sas.token("devstoreaccount1", &key).unwrap();
            assert_eq!(TableSas::from_token(&token).unwrap(), sas, "{token}");
            assert_eq!(TableSas::from_token(&format!("?{token}")).unwrap(), sas);
            assert_eq!(scope_of_token(&token).unwrap(), Some(sas.scope.clone()));
        }
    }

    #[test]
    fn a_token_read_by_hand() {
        let token = "sv=2019-02-02&tn=Orders&sp=ru&st=2024-01-01&se=2024-01-02T12%3A30Z\
                     &spk=AU&srk=EMP001&epk=NZ&erk=EMP010&sig=abc%3D";
        let scope = scope_of_token(token).unwrap().unwrap();
        assert_eq!(scope.table, "Orders");
        assert_eq!(scope.permissions.to_string(), "ru");
        assert_eq!(scope.start, Some(at(1_704_067_200)));
        assert_eq!(scope.expiry, at(1_704_198_600));
        assert_eq!(
            [
                scope.start_partition_key.as_deref(),
                scope.start_row_key.as_deref(),
                scope.end_partition_key.as_deref(),
                scope.end_row_key.as_deref()
            ],
            [Some("AU"), Some("EMP001"), Some("NZ"), Some("EMP010")]
        );
        assert!(scope.contains_key("EU", "anything"));
        assert!(!scope.contains_key("NZ", "EMP011"));
        // The field order does not matter, and unknown fields are skipped.
        let reordered = "sig=abc&erk=EMP010&epk=NZ&srk=EMP001&spk=AU&se=2024-01-02T12:30:00.000Z\
                         &st=2024-01-01T00:00:00Z&sp=ru&tn=Orders&sv=2019-02-02&foo=bar";
        assert_eq!(scope_of_token(reordered).unwrap().unwrap(), scope);
    }

    #[test]
    fn tokens_without_a_whole_scope_are_left_to_the_service() {
        let unchecked = [
            // An account SAS: services and resource types, no table.
            "sv=2019-02-02&ss=t&srt=sco&sp=rwdlacu&se=2030-01-01T00%3A00%3A00Z&sig=x",
            // A stored access policy holding the permissions, or the expiry.
            "sv=2019-02-02&tn=t&si=policy&se=2030-01-01T00%3A00%3A00Z&sig=x",
            "sv=2019-02-02&tn=t&si=policy&sp=r&sig=x",
            "sv=2019-02-02&tn=t&si=policy&sig=x",
            // Only a signature.
            "sig=x",
        ];
        for token in unchecked {
            assert_eq!(scope_of_token(token).unwrap(), None, "{token}");
            assert!(TableSas::from_token(token).is_err(), "{token}");
        }
        let err = TableSas::from_token("sv=1&tn=t&si=p&se=2030-01-01&sig=x").unwrap_err();
        assert!(err.to_string().contains("stored access policy"), "{err}");
        // A policy that leaves permissions and expiry to the token is checked as usual.
        let with_policy = "sv=2019-02-02&tn=t&si=policy&sp=r&se=2030-01-01T00%3A00%3A00Z&sig=x";
        assert!(scope_of_token(with_policy).unwrap().is_some());
        // `sv` is needed to rebuild the SAS, not to check it.
        let no_version = "tn=t&sp=r&se=2030-01-01&sig=x";
        assert!(scope_of_token(no_version).unwrap().is_some());
        assert!(
            TableSas::from_token(no_version)
                .unwrap_err()
                .to_string()
                .contains("`sv`")
        );
    }

    #[test]
    fn unreadable_tokens_are_errors() {
        let cases = [
            (
                "sv=1&tn=t&sp=rw&se=2030-01-01&sig=x",
                "not a table permission",
            ),
            ("sv=1&tn=t&sp=rr&se=2030-01-01&sig=x", "twice"),
            ("sv=1&tn=t&sp=r&se=soon&sig=x", "not a SAS time"),
            (
                "sv=1&tn=t&sp=r&se=2030-01-01&st=2030-13-01&sig=x",
                "not a SAS time",
            ),
            (
                "sv=1&tn=t&sp=r&se=2030-02-30T00:00Z&sig=x",
                "not a SAS time",
            ),
            (
                "sv=1&tn=t&sp=r&se=2030-01-01T25:00Z&sig=x",
                "not a SAS time",
            ),
            (
                "sv=1&tn=t&sp=r&se=2030-01-01T00:00:00.Z&sig=x",
                "not a SAS time",
            ),
            ("sv=1&tn=t&tn=u&sp=r&se=2030-01-01&sig=x", "`tn` twice"),
            ("sv=1&tn=t&sp=r&se=2030-01-01&spk=%FF&sig=x", "UTF-8"),
        ];
        for (token, needle) in cases {
            let err = scope_of_token(token).unwrap_err().to_string();
            assert!(err.contains(needle), "`{token}` gave `{err}`");
        }
    }

    #[test]
    fn sas_times_in_every_accepted_form() {
        let t = |text: &str| parse_sas_time(text).unwrap();
        let base = at(1_704_164_645); // 2024-01-02T03:04:05Z
        assert_eq!(t("2024-01-02T03:04:05Z"), base);
        assert_eq!(t("2024-01-02T03:04:05"), base);
        assert_eq!(t("2024-01-02T03:04Z"), base - time::Duration::seconds(5));
        assert_eq!(
            t("2024-01-02T03:04:05.5Z"),
            base + time::Duration::milliseconds(500)
        );
        assert_eq!(t("2024-01-02T03:04:05.0000000Z"), base);
        assert_eq!(t("2024-01-02T05:04:05+02:00"), base);
        assert_eq!(t("2024-01-02T01:04:05-02:00"), base);
        assert_eq!(t("2024-01-02"), at(1_704_153_600));
        for bad in [
            "",
            "2024",
            "2024-1-2",
            "2024-01-02T3:04Z",
            "2024-01-02T03:04:05+0200",
            "2024-01-02T03:04:05:06Z",
        ] {
            assert!(parse_sas_time(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_sas_connection_needs_the_key() {
        let sas = TableSas::new("t", TablePermissions::READ, at(2_000_000_000));
        let with = Connection::development().with_sas(&sas).unwrap();
        assert!(with.with_sas(&sas).is_err());
    }
}

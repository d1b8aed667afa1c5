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
//! Azurite (3.37) checks permissions, start, expiry and the signature, but not the key ranges;
//! it refuses every `$batch` request made with a table SAS (403), whatever it grants; and it lets
//! a SAS with `u` alone insert-or-merge or insert-or-replace, where the service needs `a` and `u`.

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
        let opt = |v: &Option<String>| v.clone().unwrap_or_default();
        let scope = &self.scope;
        [
            scope.permissions.to_string(),
            scope.start.map(sas_time).unwrap_or_default(),
            sas_time(scope.expiry),
            format!("/table/{account}/{}", scope.table.to_ascii_lowercase()),
            opt(&self.identifier),
            opt(&self.ip_range),
            opt(&self.protocol),
            self.version.clone(),
            opt(&scope.start_partition_key),
            opt(&scope.start_row_key),
            opt(&scope.end_partition_key),
            opt(&scope.end_row_key),
        ]
        .join("\n")
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
    fn a_sas_connection_needs_the_key() {
        let sas = TableSas::new("t", TablePermissions::READ, at(2_000_000_000));
        let with = Connection::development().with_sas(&sas).unwrap();
        assert!(with.with_sas(&sas).is_err());
    }
}

//! Generating table shared access signatures (service SAS for one table).
//!
//! A table SAS grants some of four permissions on one table (`r` query, `a` add, `u` update,
//! `d` delete) until an expiry time, optionally from a start time and only for entities within a
//! PartitionKey / RowKey range. It is signed with the account key: the signature is the base64
//! HMAC-SHA256 of twelve lines,
//!
//! ```text
//! permissions, start, expiry, /table/<account>/<table in lower case>, policy identifier,
//! IP range, protocol, version, start PartitionKey, start RowKey, end PartitionKey, end RowKey
//! ```
//!
//! each empty when not given, and sent beside them as the query parameters `sp`, `st`, `se`,
//! `tn`, `si`, `sip`, `spr`, `sv`, `spk`, `srk`, `epk`, `erk` and `sig`.
//!
//! Azurite (3.37) checks permissions, start, expiry and the signature, but not the key ranges,
//! and it refuses every `$batch` request made with a table SAS (403), whatever it grants.

use std::fmt;

use time::OffsetDateTime;

use crate::auth::hmac_sha256_base64;
use crate::connection::{AccountKey, Connection, Credential};
use crate::wire::encode;

/// The signed version written into generated signatures.
pub const SAS_VERSION: &str = "2019-02-02";

/// A SAS that cannot be generated, or a permission string that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid shared access signature: {0}")]
pub struct SasError(pub String);

/// The operations a table SAS allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TablePermissions {
    /// `r`: get entities and query.
    pub query: bool,
    /// `a`: insert entities (and the insert half of upserts).
    pub add: bool,
    /// `u`: replace and merge entities (and the update half of upserts).
    pub update: bool,
    /// `d`: delete entities.
    pub delete: bool,
}

impl TablePermissions {
    /// Every permission: `raud`.
    pub const ALL: TablePermissions = TablePermissions {
        query: true,
        add: true,
        update: true,
        delete: true,
    };
    /// Queries only: `r`.
    pub const READ: TablePermissions = TablePermissions {
        query: true,
        add: false,
        update: false,
        delete: false,
    };

    /// Reads a permission string such as `raud` or `ru` (letters in any order, each once).
    ///
    /// ```
    /// use table_http::sas::TablePermissions;
    /// let p = TablePermissions::parse("ur").unwrap();
    /// assert_eq!(p.to_string(), "ru");
    /// assert!(TablePermissions::parse("rw").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<TablePermissions, SasError> {
        let mut p = TablePermissions::default();
        for c in text.chars() {
            let flag = match c {
                'r' => &mut p.query,
                'a' => &mut p.add,
                'u' => &mut p.update,
                'd' => &mut p.delete,
                other => {
                    return Err(SasError(format!(
                        "`{other}` is not a table permission (r, a, u, d)"
                    )));
                }
            };
            if *flag {
                return Err(SasError(format!("permission `{c}` is given twice")));
            }
            *flag = true;
        }
        Ok(p)
    }

    /// Whether no permission is granted.
    pub fn is_empty(self) -> bool {
        self == TablePermissions::default()
    }
}

impl fmt::Display for TablePermissions {
    /// The permissions in the service's order, `raud`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (set, letter) in [
            (self.query, "r"),
            (self.add, "a"),
            (self.update, "u"),
            (self.delete, "d"),
        ] {
            if set {
                f.write_str(letter)?;
            }
        }
        Ok(())
    }
}

/// The fields of a table SAS.
///
/// ```
/// use table_http::sas::{TablePermissions, TableSas};
/// use table_http::connection::AccountKey;
///
/// let expiry = time::OffsetDateTime::from_unix_timestamp(1_924_991_999).unwrap();
/// let mut sas = TableSas::new("Orders", TablePermissions::READ, expiry);
/// sas.start_partition_key = Some("cust-1".into());
/// sas.end_partition_key = Some("cust-1".into());
/// let key = AccountKey::from_base64("a2V5").unwrap();
/// let token = sas.token("acme", &key).unwrap();
/// assert!(token.starts_with("sv=2019-02-02&tn=Orders&sp=r&se=2030-12-31T23%3A59%3A59Z&spk=cust-1&epk=cust-1&sig="));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSas {
    /// The table the SAS is for.
    pub table: String,
    /// What it allows.
    pub permissions: TablePermissions,
    /// When it becomes valid (`None`: at once).
    pub start: Option<OffsetDateTime>,
    /// When it stops being valid.
    pub expiry: OffsetDateTime,
    /// The smallest PartitionKey it reaches (`spk`).
    pub start_partition_key: Option<String>,
    /// With `start_partition_key`, the smallest RowKey in that partition (`srk`).
    pub start_row_key: Option<String>,
    /// The largest PartitionKey it reaches (`epk`).
    pub end_partition_key: Option<String>,
    /// With `end_partition_key`, the largest RowKey in that partition (`erk`).
    pub end_row_key: Option<String>,
    /// A stored access policy on the table (`si`).
    pub identifier: Option<String>,
    /// An IP address or range the requests must come from (`sip`).
    pub ip_range: Option<String>,
    /// `https` or `https,http` (`spr`).
    pub protocol: Option<String>,
    /// The signed version (`sv`).
    pub version: String,
}

impl TableSas {
    /// A SAS for `table` with `permissions` until `expiry`, and no other limits.
    pub fn new(
        table: impl Into<String>,
        permissions: TablePermissions,
        expiry: OffsetDateTime,
    ) -> TableSas {
        TableSas {
            table: table.into(),
            permissions,
            start: None,
            expiry,
            start_partition_key: None,
            start_row_key: None,
            end_partition_key: None,
            end_row_key: None,
            identifier: None,
            ip_range: None,
            protocol: None,
            version: SAS_VERSION.to_owned(),
        }
    }

    fn check(&self) -> Result<(), SasError> {
        let fail = |m: &str| Err(SasError(m.to_owned()));
        if self.table.is_empty() {
            return fail("no table is named");
        }
        if self.permissions.is_empty() && self.identifier.is_none() {
            return fail("it grants no permission");
        }
        if self.start.is_some_and(|s| s >= self.expiry) {
            return fail("it expires before it starts");
        }
        if self.start_row_key.is_some() && self.start_partition_key.is_none() {
            return fail("a start RowKey needs a start PartitionKey");
        }
        if self.end_row_key.is_some() && self.end_partition_key.is_none() {
            return fail("an end RowKey needs an end PartitionKey");
        }
        if let Some(p) = &self.protocol
            && p != "https"
            && p != "https,http"
        {
            return fail("the protocol must be `https` or `https,http`");
        }
        Ok(())
    }

    /// The text the signature is computed over (see the module documentation).
    pub fn string_to_sign(&self, account: &str) -> String {
        let opt = |v: &Option<String>| v.clone().unwrap_or_default();
        [
            self.permissions.to_string(),
            self.start.map(sas_time).unwrap_or_default(),
            sas_time(self.expiry),
            format!("/table/{account}/{}", self.table.to_ascii_lowercase()),
            opt(&self.identifier),
            opt(&self.ip_range),
            opt(&self.protocol),
            self.version.clone(),
            opt(&self.start_partition_key),
            opt(&self.start_row_key),
            opt(&self.end_partition_key),
            opt(&self.end_row_key),
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
        let mut fields: Vec<(&str, String)> =
            vec![("sv", self.version.clone()), ("tn", self.table.clone())];
        if !self.permissions.is_empty() {
            fields.push(("sp", self.permissions.to_string()));
        }
        if let Some(start) = self.start {
            fields.push(("st", sas_time(start)));
        }
        fields.push(("se", sas_time(self.expiry)));
        let optional = [
            ("spk", &self.start_partition_key),
            ("srk", &self.start_row_key),
            ("epk", &self.end_partition_key),
            ("erk", &self.end_row_key),
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
        sas.start = Some(at(1_704_067_200));
        sas.start_partition_key = Some("cust-1".into());
        sas.end_partition_key = Some("cust-9".into());
        sas.end_row_key = Some("r 9".into());
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
                    table: String::new(),
                    ..base.clone()
                },
                "no table",
            ),
            (
                TableSas {
                    permissions: TablePermissions::default(),
                    ..base.clone()
                },
                "no permission",
            ),
            (
                TableSas {
                    start: Some(at(2_000_000_001)),
                    ..base.clone()
                },
                "expires before",
            ),
            (
                TableSas {
                    start_row_key: Some("r".into()),
                    ..base.clone()
                },
                "start RowKey",
            ),
            (
                TableSas {
                    end_row_key: Some("r".into()),
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

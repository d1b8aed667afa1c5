//! SharedKey request signing, for the Table service and for the Blob and Queue services.
//!
//! **Table service.** The signed string is five lines: the HTTP verb, `Content-MD5`,
//! `Content-Type`, the date (the `x-ms-date` header's value) and the canonicalized resource:
//! `/` + account + the URL's encoded path, followed by `?comp=…` when the query has a `comp`
//! parameter. Against the emulator's path-style URLs the path itself starts with the account,
//! so the account appears twice: `/devstoreaccount1/devstoreaccount1/Tables`.
//!
//! **Blob and Queue services** ([`storage_string_to_sign`]). The signed string is the verb, then
//! eleven standard headers one per line (`Content-Encoding`, `Content-Language`,
//! `Content-Length` (empty when 0), `Content-MD5`, `Content-Type`, `Date`, `If-Modified-Since`,
//! `If-Match`, `If-None-Match`, `If-Unmodified-Since`, `Range`; empty when absent), then every
//! `x-ms-*` header as `name:value` (names in lowercase, sorted), then the canonicalized resource
//! of [`storage_canonicalized_resource`]: `/account` + the encoded path, and one line
//! `name:value` per query parameter (names in lowercase, sorted; values decoded).
//!
//! Either way the signature is the base64 HMAC-SHA256 of that string under the decoded account
//! key, sent as `Authorization: SharedKey account:signature`.

use base64::Engine as _;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use time::OffsetDateTime;

use crate::connection::AccountKey;

/// The base64 HMAC-SHA256 of `text` under `key`: the signature of a SharedKey request or SAS.
pub fn hmac_sha256_base64(key: &AccountKey, text: &str) -> String {
    // HMAC accepts keys of any length, so this never fails.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key.bytes())
        .unwrap_or_else(|_| unreachable!("HMAC takes keys of every length"));
    mac.update(text.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

/// The canonicalized resource of a request: `/account` + the encoded path as sent on the wire,
/// plus `?comp=value` when the query string has a `comp` parameter.
///
/// ```
/// use table_http::auth::canonicalized_resource;
/// assert_eq!(
///     canonicalized_resource("devstoreaccount1", "/devstoreaccount1/Tables", None),
///     "/devstoreaccount1/devstoreaccount1/Tables"
/// );
/// assert_eq!(canonicalized_resource("acme", "/t1", Some("acl")), "/acme/t1?comp=acl");
/// ```
pub fn canonicalized_resource(account: &str, encoded_path: &str, comp: Option<&str>) -> String {
    let path = if encoded_path.is_empty() {
        "/"
    } else {
        encoded_path
    };
    let mut resource = String::with_capacity(account.len() + path.len() + 16);
    resource.push('/');
    resource.push_str(account);
    resource.push_str(path);
    if let Some(comp) = comp {
        resource.push_str("?comp=");
        resource.push_str(comp);
    }
    resource
}

/// The string a SharedKey (Table service) request signs.
///
/// ```
/// use table_http::auth::string_to_sign;
/// assert_eq!(
///     string_to_sign("GET", "", "", "Mon, 01 Jan 2024 00:00:00 GMT", "/acme/Tables"),
///     "GET\n\n\nMon, 01 Jan 2024 00:00:00 GMT\n/acme/Tables"
/// );
/// ```
pub fn string_to_sign(
    verb: &str,
    content_md5: &str,
    content_type: &str,
    date: &str,
    canonicalized_resource: &str,
) -> String {
    let mut text = String::with_capacity(
        verb.len()
            + content_md5.len()
            + content_type.len()
            + date.len()
            + canonicalized_resource.len()
            + 4,
    );
    for (i, part) in [verb, content_md5, content_type, date]
        .into_iter()
        .enumerate()
    {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(part);
    }
    text.push('\n');
    text.push_str(canonicalized_resource);
    text
}

/// The standard headers a Blob or Queue request signs, in the order they are signed.
const SIGNED_STANDARD_HEADERS: [&str; 11] = [
    "content-encoding",
    "content-language",
    "content-length",
    "content-md5",
    "content-type",
    "date",
    "if-modified-since",
    "if-match",
    "if-none-match",
    "if-unmodified-since",
    "range",
];

/// The string a SharedKey request to the Blob or Queue service signs, from the request's verb,
/// its headers as sent (names in any case) and its canonicalized resource
/// ([`storage_canonicalized_resource`]).
///
/// The standard headers come first, each on its own line and empty when the request has none
/// (`Content-Length: 0` counts as none); then each `x-ms-*` header as `name:value`, names in
/// lowercase and sorted, values trimmed (a header given twice has its values joined with `,`);
/// then the resource.
///
/// ```
/// use table_http::auth::storage_string_to_sign;
/// let headers = [
///     ("x-ms-version", "2021-08-06"),
///     ("x-ms-date", "Mon, 01 Jan 2024 00:00:00 GMT"),
///     ("Content-Length", "0"),
/// ];
/// assert_eq!(
///     storage_string_to_sign("GET", &headers, "/acme/jobs/messages"),
///     "GET\n\n\n\n\n\n\n\n\n\n\n\n\
///      x-ms-date:Mon, 01 Jan 2024 00:00:00 GMT\nx-ms-version:2021-08-06\n/acme/jobs/messages"
/// );
/// ```
pub fn storage_string_to_sign(
    verb: &str,
    headers: &[(&str, &str)],
    canonicalized_resource: &str,
) -> String {
    let mut text = String::with_capacity(256 + canonicalized_resource.len());
    text.push_str(verb);
    text.push('\n');
    for name in SIGNED_STANDARD_HEADERS {
        let values = values_of(headers, name);
        let value = values.join(",");
        if !(name == "content-length" && value == "0") {
            text.push_str(&value);
        }
        text.push('\n');
    }
    text.push_str(&canonicalized_headers(headers));
    text.push_str(canonicalized_resource);
    text
}

/// The trimmed values of every header named `name` (compared without regard to case).
fn values_of<'a>(headers: &[(&str, &'a str)], name: &str) -> Vec<&'a str> {
    headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
        .collect()
}

/// The canonicalized `x-ms-*` headers of a Blob or Queue request: one `name:value\n` line per
/// header name, in lowercase, sorted by name; the values of a name given twice joined with `,`.
///
/// ```
/// use table_http::auth::canonicalized_headers;
/// let headers = [("X-Ms-Version", "2021-08-06"), ("Content-Type", "text/plain"), ("x-ms-date", " d ")];
/// assert_eq!(canonicalized_headers(&headers), "x-ms-date:d\nx-ms-version:2021-08-06\n");
/// ```
pub fn canonicalized_headers(headers: &[(&str, &str)]) -> String {
    let mut names: Vec<String> = headers
        .iter()
        .map(|(n, _)| n.to_ascii_lowercase())
        .filter(|n| n.starts_with("x-ms-"))
        .collect();
    names.sort();
    names.dedup();
    let mut text = String::new();
    for name in names {
        text.push_str(&name);
        text.push(':');
        text.push_str(&values_of(headers, &name).join(","));
        text.push('\n');
    }
    text
}

/// The canonicalized resource of a Blob or Queue request: `/account` + the path as sent on the
/// wire (percent-encoded), then `\nname:value` for each query parameter, names in lowercase and
/// sorted, values as given here (decoded); the values of a name given twice are sorted and
/// joined with `,`.
///
/// ```
/// use table_http::auth::storage_canonicalized_resource;
/// assert_eq!(
///     storage_canonicalized_resource(
///         "devstoreaccount1",
///         "/devstoreaccount1/photos",
///         &[("restype", "container"), ("Comp", "list"), ("prefix", "a b")],
///     ),
///     "/devstoreaccount1/devstoreaccount1/photos\ncomp:list\nprefix:a b\nrestype:container"
/// );
/// ```
pub fn storage_canonicalized_resource(
    account: &str,
    encoded_path: &str,
    params: &[(&str, &str)],
) -> String {
    let mut resource = canonicalized_resource(account, encoded_path, None);
    let mut names: Vec<String> = params.iter().map(|(n, _)| n.to_ascii_lowercase()).collect();
    names.sort();
    names.dedup();
    for name in names {
        let mut values: Vec<&str> = params
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(&name))
            .map(|(_, v)| *v)
            .collect();
        values.sort_unstable();
        resource.push('\n');
        resource.push_str(&name);
        resource.push(':');
        resource.push_str(&values.join(","));
    }
    resource
}

/// The `Authorization` header of a SharedKey request.
pub fn authorization(account: &str, key: &AccountKey, string_to_sign: &str) -> String {
    format!(
        "SharedKey {account}:{}",
        hmac_sha256_base64(key, string_to_sign)
    )
}

/// A time in the HTTP date format (RFC 1123) used by `x-ms-date`: `Mon, 01 Jan 2024 00:00:00 GMT`.
///
/// ```
/// use table_http::auth::http_date;
/// let t = time::OffsetDateTime::from_unix_timestamp(1_704_067_200).unwrap();
/// assert_eq!(http_date(t), "Mon, 01 Jan 2024 00:00:00 GMT");
/// ```
pub fn http_date(t: OffsetDateTime) -> String {
    const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let t = t.to_offset(time::UtcOffset::UTC);
    format!(
        "{}, {:02} {} {:04} {:02}:{:02}:{:02} GMT",
        DAYS[t.weekday().number_days_from_monday() as usize],
        t.day(),
        MONTHS[t.month() as usize - 1],
        t.year(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

/// Reads a time in the HTTP date format (RFC 1123, `Mon, 01 Jan 2024 00:00:00 GMT`): the
/// inverse of [`http_date`]. `None` for any other text.
///
/// ```
/// use table_http::auth::{http_date, parse_http_date};
/// let t = time::OffsetDateTime::from_unix_timestamp(1_704_067_200).unwrap();
/// assert_eq!(parse_http_date("Mon, 01 Jan 2024 00:00:00 GMT"), Some(t));
/// assert_eq!(parse_http_date(&http_date(t)), Some(t));
/// assert_eq!(parse_http_date("yesterday"), None);
/// ```
pub fn parse_http_date(text: &str) -> Option<OffsetDateTime> {
    // Read once: every signed request carries a date, and reading the description was most of
    // the cost of reading the date.
    static FORMAT: std::sync::LazyLock<
        Option<Vec<time::format_description::BorrowedFormatItem<'static>>>,
    > = std::sync::LazyLock::new(|| {
        time::format_description::parse_borrowed::<2>(
            "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT",
        )
        .ok()
    });
    let format = FORMAT.as_deref()?;
    let parsed = time::PrimitiveDateTime::parse(text.trim(), format).ok()?;
    Some(parsed.assume_utc())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connection::DEV_ACCOUNT_KEY;

    // The expected signatures were computed outside Rust (Python's hmac and base64 modules) from
    // the string-to-sign written out below by hand from the documented format.

    #[test]
    fn emulator_list_tables_vector() {
        let key = AccountKey::from_base64(DEV_ACCOUNT_KEY).unwrap();
        let resource = canonicalized_resource("devstoreaccount1", "/devstoreaccount1/Tables", None);
        let text = string_to_sign("GET", "", "", "Mon, 01 Jan 2024 00:00:00 GMT", &resource);
        assert_eq!(
            text,
            "GET\n\n\nMon, 01 Jan 2024 00:00:00 GMT\n/devstoreaccount1/devstoreaccount1/Tables"
        );
        assert_eq!(
            authorization("devstoreaccount1", &key, &text),
            "SharedKey devstoreaccount1:xTTIoWBK7u+nSgfft7uKiDmecLL9GEiBUE4qVj03gko="
        );
    }

    #[test]
    fn service_create_table_vector() {
        let key = AccountKey::from_base64("a2V5").unwrap();
        let resource = canonicalized_resource("acme", "/Tables", None);
        let text = string_to_sign(
            "POST",
            "",
            "application/json",
            "Tue, 30 Jul 2024 08:15:42 GMT",
            &resource,
        );
        assert_eq!(
            text,
            "POST\n\napplication/json\nTue, 30 Jul 2024 08:15:42 GMT\n/acme/Tables"
        );
        assert_eq!(
            hmac_sha256_base64(&key, &text),
            "+egv9GpgqtJHfjL5gdB7OorR/on1xgcPay9QktZa/Dg="
        );
    }

    #[test]
    fn entity_path_is_signed_as_encoded() {
        let key = AccountKey::from_base64(DEV_ACCOUNT_KEY).unwrap();
        let path = "/devstoreaccount1/t1(PartitionKey='p%20k',RowKey='r%27%27')";
        let text = string_to_sign(
            "PUT",
            "",
            "application/json",
            "Wed, 31 Dec 2025 23:59:59 GMT",
            &canonicalized_resource("devstoreaccount1", path, None),
        );
        assert_eq!(
            hmac_sha256_base64(&key, &text),
            "SuPWiqALQ0ZCrUWT+9myhlCb36rVncjba5LwXRcSjrg="
        );
    }

    #[test]
    fn emulator_put_message_vector() {
        let key = AccountKey::from_base64(DEV_ACCOUNT_KEY).unwrap();
        let headers = [
            ("x-ms-version", "2021-08-06"),
            ("Content-Type", "application/xml; charset=utf-8"),
            ("x-ms-date", "Mon, 01 Jan 2024 00:00:00 GMT"),
            ("content-length", "76"),
            ("user-agent", "not signed"),
        ];
        let resource = storage_canonicalized_resource(
            "devstoreaccount1",
            "/devstoreaccount1/jobs/messages",
            &[("visibilitytimeout", "30"), ("messagettl", "-1")],
        );
        let text = storage_string_to_sign("POST", &headers, &resource);
        assert_eq!(
            text,
            "POST\n\n\n76\n\napplication/xml; charset=utf-8\n\n\n\n\n\n\n\
             x-ms-date:Mon, 01 Jan 2024 00:00:00 GMT\nx-ms-version:2021-08-06\n\
             /devstoreaccount1/devstoreaccount1/jobs/messages\nmessagettl:-1\nvisibilitytimeout:30"
        );
        assert_eq!(
            hmac_sha256_base64(&key, &text),
            "Ua1TMchHzib48C7cG2f4BQhjwE7LCI6ECfkhaOh/E58="
        );
    }

    #[test]
    fn service_put_blob_vector() {
        let key = AccountKey::from_base64("a2V5").unwrap();
        let headers = [
            ("If-None-Match", "*"),
            ("x-ms-blob-type", "BlockBlob"),
            ("content-type", "application/octet-stream"),
            ("x-ms-date", "Tue, 30 Jul 2024 08:15:42 GMT"),
            ("x-ms-version", "2021-08-06"),
            ("content-length", "5"),
        ];
        let resource =
            storage_canonicalized_resource("acme", "/photos/a%20b/%C3%A9t%C3%A9.jpg", &[]);
        let text = storage_string_to_sign("PUT", &headers, &resource);
        assert_eq!(
            authorization("acme", &key, &text),
            "SharedKey acme:TgtkBFRU/o6ZGC+o2WFK+RwW/mVFo/CVSHXGFY+fcG0="
        );
    }

    #[test]
    fn query_values_are_signed_decoded() {
        let key = AccountKey::from_base64(DEV_ACCOUNT_KEY).unwrap();
        let headers = [
            ("x-ms-date", "Wed, 31 Dec 2025 23:59:59 GMT"),
            ("x-ms-version", "2021-08-06"),
        ];
        let resource = storage_canonicalized_resource(
            "devstoreaccount1",
            "/devstoreaccount1/jobs/messages/abc-1",
            &[("popreceipt", "AgAAAA+/x==")],
        );
        let text = storage_string_to_sign("DELETE", &headers, &resource);
        assert_eq!(
            hmac_sha256_base64(&key, &text),
            "9c4AWbhnAEaFShiDYkSFnS6id7tshD0du3bPt0S5bJQ="
        );
    }

    #[test]
    fn repeated_names_are_joined() {
        let headers = [("x-ms-meta-a", "2"), ("X-MS-META-A", " 1"), ("x-ms-b", "x")];
        assert_eq!(
            canonicalized_headers(&headers),
            "x-ms-b:x\nx-ms-meta-a:2,1\n"
        );
        assert_eq!(
            storage_canonicalized_resource(
                "a",
                "",
                &[("include", "tags"), ("Include", "metadata")]
            ),
            "/a/\ninclude:metadata,tags"
        );
    }

    #[test]
    fn http_dates_parse_back() {
        let t = OffsetDateTime::from_unix_timestamp(1_767_225_599).unwrap();
        assert_eq!(parse_http_date("Wed, 31 Dec 2025 23:59:59 GMT"), Some(t));
        assert_eq!(parse_http_date("2025-12-31T23:59:59Z"), None);
    }

    #[test]
    fn http_dates() {
        let t = OffsetDateTime::from_unix_timestamp(1_767_225_599).unwrap();
        assert_eq!(http_date(t), "Wed, 31 Dec 2025 23:59:59 GMT");
        let t = OffsetDateTime::from_unix_timestamp(951_782_400).unwrap();
        assert_eq!(http_date(t), "Tue, 29 Feb 2000 00:00:00 GMT");
    }
}

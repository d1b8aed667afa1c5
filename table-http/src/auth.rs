//! SharedKey request signing for the Table service.
//!
//! The signed string is five lines: the HTTP verb, `Content-MD5`, `Content-Type`, the date
//! (the `x-ms-date` header's value) and the canonicalized resource: `/` + account + the URL's
//! encoded path, followed by `?comp=…` when the query has a `comp` parameter. Against the
//! emulator's path-style URLs the path itself starts with the account, so the account appears
//! twice: `/devstoreaccount1/devstoreaccount1/Tables`.
//!
//! The signature is the base64 HMAC-SHA256 of that string under the decoded account key, sent
//! as `Authorization: SharedKey account:signature`.

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
    fn http_dates() {
        let t = OffsetDateTime::from_unix_timestamp(1_767_225_599).unwrap();
        assert_eq!(http_date(t), "Wed, 31 Dec 2025 23:59:59 GMT");
        let t = OffsetDateTime::from_unix_timestamp(951_782_400).unwrap();
        assert_eq!(http_date(t), "Tue, 29 Feb 2000 00:00:00 GMT");
    }
}

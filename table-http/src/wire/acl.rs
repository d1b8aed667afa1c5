//! Table ACLs: the stored access policies a table SAS can name (`si=`), as the `Get Table ACL`
//! and `Set Table ACL` operations carry them (XML, not JSON):
//!
//! ```xml
//! <SignedIdentifiers>
//!   <SignedIdentifier>
//!     <Id>readers</Id>
//!     <AccessPolicy><Start>…</Start><Expiry>…</Expiry><Permission>r</Permission></AccessPolicy>
//!   </SignedIdentifier>
//! </SignedIdentifiers>
//! ```
//!
//! A table has at most five; each field of a policy may be left out, and a SAS naming the
//! policy supplies what it leaves out.

use table_runtime::{ErrorCode, StoreError};

use crate::xml::{self, escape};

/// The most stored access policies a table holds.
pub const MAX_POLICIES: usize = 5;

/// One stored access policy.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SignedIdentifier {
    /// Its name (at most 64 characters).
    pub id: String,
    /// When SAS tokens naming it start to be valid.
    pub start: Option<String>,
    /// When they stop.
    pub expiry: Option<String>,
    /// What they allow (`raud`).
    pub permission: Option<String>,
}

fn invalid(message: impl Into<String>) -> StoreError {
    StoreError::new(ErrorCode::InvalidXmlDocument, message)
}

/// Reads a `Set Table ACL` body. An empty body clears the policies.
pub fn read_acl(body: &[u8]) -> Result<Vec<SignedIdentifier>, StoreError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    let root = xml::parse(body).map_err(|e| invalid(format!("the ACL is not XML: {e}")))?;
    if root.name != "SignedIdentifiers" {
        return Err(invalid(format!(
            "the ACL's root is `{}`, not `SignedIdentifiers`",
            root.name
        )));
    }
    let mut policies = Vec::new();
    for identifier in root.children("SignedIdentifier") {
        let id = identifier
            .child_text("Id")
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .ok_or_else(|| invalid("a SignedIdentifier has no Id"))?;
        if id.chars().count() > 64 {
            return Err(invalid(format!(
                "the policy id `{id}` is longer than 64 characters"
            )));
        }
        let policy = identifier.child("AccessPolicy");
        let field = |name: &str| {
            policy
                .and_then(|p| p.child_text(name))
                .map(|t| t.trim().to_owned())
                .filter(|t| !t.is_empty())
        };
        policies.push(SignedIdentifier {
            id: id.to_owned(),
            start: field("Start"),
            expiry: field("Expiry"),
            permission: field("Permission"),
        });
    }
    if policies.len() > MAX_POLICIES {
        return Err(invalid(format!(
            "a table holds at most {MAX_POLICIES} stored access policies; the ACL has {}",
            policies.len()
        )));
    }
    Ok(policies)
}

/// Writes a `Get Table ACL` body as the service does: times with seven fractional digits
/// (`2020-08-19T21:13:07.0000000Z`, whatever form they were set in), and no `AccessPolicy`
/// element for a policy that sets nothing.
pub fn write_acl(policies: &[SignedIdentifier]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers>");
    let time = |t: &String| {
        table_runtime::DateTime::parse(t).map_or_else(|_| t.clone(), |d| d.to_string())
    };
    for p in policies {
        out.push_str("<SignedIdentifier><Id>");
        out.push_str(&escape(&p.id));
        out.push_str("</Id>");
        let fields = [
            ("Start", p.start.as_ref().map(time)),
            ("Expiry", p.expiry.as_ref().map(time)),
            ("Permission", p.permission.clone()),
        ];
        if fields.iter().any(|(_, v)| v.is_some()) {
            out.push_str("<AccessPolicy>");
            for (name, value) in fields {
                if let Some(v) = value {
                    out.push_str(&format!("<{name}>{}</{name}>", escape(&v)));
                }
            }
            out.push_str("</AccessPolicy>");
        }
        out.push_str("</SignedIdentifier>");
    }
    out.push_str("</SignedIdentifiers>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_read_back() {
        let policies = vec![
            SignedIdentifier {
                id: "readers".into(),
                start: Some("2024-01-01T00:00:00Z".into()),
                expiry: Some("2030-01-01T00:00:00Z".into()),
                permission: Some("r".into()),
            },
            SignedIdentifier {
                id: "a<b".into(),
                ..SignedIdentifier::default()
            },
        ];
        let written = write_acl(&policies);
        // Times come back in the service's seven-digit form; a policy that sets nothing has
        // no AccessPolicy element.
        assert!(
            written.contains("<Start>2024-01-01T00:00:00.0000000Z</Start>"),
            "{written}"
        );
        assert!(
            written.contains("<Id>a&lt;b</Id></SignedIdentifier>"),
            "{written}"
        );
        let mut expected = policies.clone();
        expected[0].start = Some("2024-01-01T00:00:00.0000000Z".into());
        expected[0].expiry = Some("2030-01-01T00:00:00.0000000Z".into());
        assert_eq!(read_acl(written.as_bytes()).unwrap(), expected);
        assert!(read_acl(b"").unwrap().is_empty());
        let too_many = format!(
            "<SignedIdentifiers>{}</SignedIdentifiers>",
            "<SignedIdentifier><Id>x</Id></SignedIdentifier>".repeat(6)
        );
        assert_eq!(
            read_acl(too_many.as_bytes()).unwrap_err().code,
            ErrorCode::InvalidXmlDocument
        );
        assert!(read_acl(b"<Nope/>").is_err());
        assert!(read_acl(b"<SignedIdentifiers><SignedIdentifier/></SignedIdentifiers>").is_err());
        assert!(read_acl(b"<unclosed").is_err());
        // A Set Table ACL body nested 500,000 deep overflowed the server's stack (fuzzer).
        let n = 500_000;
        let deep = format!("{}{}", "<a>".repeat(n), "</a>".repeat(n));
        assert_eq!(
            read_acl(deep.as_bytes()).unwrap_err().code,
            ErrorCode::InvalidXmlDocument
        );
    }
}

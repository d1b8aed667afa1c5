//! The Table service's own settings, as `Get`/`Set Table Service Properties` carry them (XML):
//! Storage Analytics logging, hour and minute metrics, and the CORS rules a browser's requests
//! are checked against; and the `Get Table Service Stats` answer.
//!
//! ```xml
//! <StorageServiceProperties>
//!   <Logging>…</Logging>
//!   <HourMetrics>…</HourMetrics>
//!   <MinuteMetrics>…</MinuteMetrics>
//!   <Cors>
//!     <CorsRule>
//!       <AllowedOrigins>https://app.example</AllowedOrigins>
//!       <AllowedMethods>GET,PUT</AllowedMethods>
//!       <MaxAgeInSeconds>600</MaxAgeInSeconds>
//!       <ExposedHeaders>x-ms-*</ExposedHeaders>
//!       <AllowedHeaders>x-ms-*,content-type</AllowedHeaders>
//!     </CorsRule>
//!   </Cors>
//! </StorageServiceProperties>
//! ```
//!
//! A `Set` may leave a section out, which keeps that section as it was ([`ServiceProperties::
//! update`]); a section that is there must be whole. A `Cors` section with no rule turns CORS
//! off.

use table_runtime::{ErrorCode, StoreError};

use crate::xml::{self, Element, escape};

/// The most CORS rules a service holds.
pub const MAX_CORS_RULES: usize = 5;
/// The most origins, or literal headers, one list of a rule holds.
pub const MAX_LIST_ENTRIES: usize = 64;
/// The most prefixed headers (`x-ms-meta-*`) one header list of a rule holds.
pub const MAX_PREFIXED_HEADERS: usize = 2;
/// The longest origin or header name.
pub const MAX_ENTRY_CHARS: usize = 256;
/// The methods a CORS rule may allow.
pub const CORS_METHODS: &[&str] = &[
    "DELETE", "GET", "HEAD", "MERGE", "PATCH", "POST", "OPTIONS", "PUT",
];

/// How long analytics data is kept.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RetentionPolicy {
    /// Whether old data is deleted.
    pub enabled: bool,
    /// After how many days (1 to 365), when enabled.
    pub days: Option<u32>,
}

/// Storage Analytics logging.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logging {
    /// The analytics version (`1.0`).
    pub version: String,
    /// Whether deletes are logged.
    pub delete: bool,
    /// Whether reads are logged.
    pub read: bool,
    /// Whether writes are logged.
    pub write: bool,
    /// How long logs are kept.
    pub retention: RetentionPolicy,
}

/// Hour or minute metrics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metrics {
    /// The analytics version (`1.0`).
    pub version: String,
    /// Whether metrics are collected.
    pub enabled: bool,
    /// Whether they are broken down by API (only when enabled).
    pub include_apis: Option<bool>,
    /// How long they are kept.
    pub retention: RetentionPolicy,
}

impl Default for Logging {
    fn default() -> Logging {
        Logging {
            version: "1.0".into(),
            delete: false,
            read: false,
            write: false,
            retention: RetentionPolicy::default(),
        }
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics {
            version: "1.0".into(),
            enabled: false,
            include_apis: None,
            retention: RetentionPolicy::default(),
        }
    }
}

/// One CORS rule. Lists are kept as given (trimmed); origins and methods compare as the
/// service compares them (see [`CorsRule::allows_origin`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CorsRule {
    /// Origins allowed, or `*` for any.
    pub allowed_origins: Vec<String>,
    /// Methods allowed (from [`CORS_METHODS`]).
    pub allowed_methods: Vec<String>,
    /// Request headers a preflight may ask for; `prefix*` allows a family.
    pub allowed_headers: Vec<String>,
    /// Response headers the browser may show the page; `prefix*` names a family.
    pub exposed_headers: Vec<String>,
    /// How long a browser may keep a preflight's answer.
    pub max_age_seconds: u32,
}

fn header_matches(pattern: &str, header: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => header
            .to_ascii_lowercase()
            .starts_with(&prefix.to_ascii_lowercase()),
        None => pattern.eq_ignore_ascii_case(header),
    }
}

impl CorsRule {
    /// Whether the rule allows any origin (`*`).
    pub fn any_origin(&self) -> bool {
        self.allowed_origins.iter().any(|o| o == "*")
    }

    /// Whether `origin` is allowed: `*`, or one of the origins (compared without regard to
    /// case, as browsers send scheme and host in lower case anyway).
    pub fn allows_origin(&self, origin: &str) -> bool {
        self.any_origin()
            || self
                .allowed_origins
                .iter()
                .any(|o| o.eq_ignore_ascii_case(origin.trim()))
    }

    /// Whether `method` is allowed (methods compare without regard to case).
    pub fn allows_method(&self, method: &str) -> bool {
        self.allowed_methods
            .iter()
            .any(|m| m.eq_ignore_ascii_case(method.trim()))
    }

    /// Whether every header a preflight asks for (`Access-Control-Request-Headers`, a
    /// comma-separated list) is allowed.
    pub fn allows_headers(&self, requested: &str) -> bool {
        requested
            .split(',')
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .all(|h| self.allowed_headers.iter().any(|p| header_matches(p, h)))
    }

    /// `Access-Control-Expose-Headers` for an answer carrying `present` headers: the literal
    /// exposed headers, and the present headers a `prefix*` entry names.
    pub fn exposed<'h>(&self, present: impl IntoIterator<Item = &'h str>) -> String {
        let mut out: Vec<String> = self
            .exposed_headers
            .iter()
            .filter(|h| !h.ends_with('*'))
            .cloned()
            .collect();
        for header in present {
            let named = self
                .exposed_headers
                .iter()
                .any(|p| p.ends_with('*') && header_matches(p, header));
            if named && !out.iter().any(|o| o.eq_ignore_ascii_case(header)) {
                out.push(header.to_owned());
            }
        }
        out.join(",")
    }
}

/// The service's settings. `None` sections were left out of a `Set` (and read as the
/// defaults in a `Get`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ServiceProperties {
    /// Logging.
    pub logging: Option<Logging>,
    /// Hour metrics.
    pub hour_metrics: Option<Metrics>,
    /// Minute metrics.
    pub minute_metrics: Option<Metrics>,
    /// CORS rules, in the order they are tried.
    pub cors: Option<Vec<CorsRule>>,
}

impl ServiceProperties {
    /// These settings with the sections `set` carries replaced by its own.
    pub fn update(&self, set: ServiceProperties) -> ServiceProperties {
        ServiceProperties {
            logging: set.logging.or_else(|| self.logging.clone()),
            hour_metrics: set.hour_metrics.or_else(|| self.hour_metrics.clone()),
            minute_metrics: set.minute_metrics.or_else(|| self.minute_metrics.clone()),
            cors: set.cors.or_else(|| self.cors.clone()),
        }
    }

    /// The CORS rules (none when the section was never set).
    pub fn cors_rules(&self) -> &[CorsRule] {
        self.cors.as_deref().unwrap_or_default()
    }
}

fn invalid(message: impl Into<String>) -> StoreError {
    StoreError::new(ErrorCode::InvalidXmlDocument, message)
}

fn out_of_range(message: impl Into<String>) -> StoreError {
    StoreError::new(ErrorCode::InvalidXmlNodeValue, message)
}

fn required<'e>(parent: &'e Element, name: &str) -> Result<&'e str, StoreError> {
    parent.child_text(name).map(str::trim).ok_or_else(|| {
        invalid(format!(
            "`{}` needs a `{name}` element: a section that is sent must be whole",
            parent.name
        ))
    })
}

fn boolean(parent: &Element, name: &str) -> Result<bool, StoreError> {
    match required(parent, name)? {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(out_of_range(format!(
            "`{}/{name}` is `{other}`, not true or false",
            parent.name
        ))),
    }
}

fn version(parent: &Element) -> Result<String, StoreError> {
    let version = required(parent, "Version")?;
    if version != "1.0" {
        return Err(out_of_range(format!(
            "`{}/Version` is `{version}`; the analytics version is 1.0",
            parent.name
        )));
    }
    Ok(version.to_owned())
}

fn retention(parent: &Element) -> Result<RetentionPolicy, StoreError> {
    let policy = parent.child("RetentionPolicy").ok_or_else(|| {
        invalid(format!(
            "`{}` needs a `RetentionPolicy` element",
            parent.name
        ))
    })?;
    let enabled = boolean(policy, "Enabled")?;
    let days = match policy.child_text("Days").map(str::trim) {
        None | Some("") if !enabled => None,
        None | Some("") => {
            return Err(invalid(format!(
                "`{}/RetentionPolicy` is enabled, so it needs `Days`",
                parent.name
            )));
        }
        Some(days) => match days.parse::<u32>() {
            Ok(d) if (1..=365).contains(&d) => Some(d),
            // The service calls a retention out of range an invalid document (recorded:
            // 366 days → 400 InvalidXmlDocument).
            _ => {
                return Err(StoreError::new(
                    ErrorCode::InvalidXmlDocument,
                    format!(
                        "XML specified is not syntactically valid: `{}/RetentionPolicy/Days` is `{days}`, not a number of days from 1 to 365",
                        parent.name
                    ),
                ));
            }
        },
    };
    Ok(RetentionPolicy { enabled, days })
}

fn read_logging(element: &Element) -> Result<Logging, StoreError> {
    Ok(Logging {
        version: version(element)?,
        delete: boolean(element, "Delete")?,
        read: boolean(element, "Read")?,
        write: boolean(element, "Write")?,
        retention: retention(element)?,
    })
}

fn read_metrics(element: &Element) -> Result<Metrics, StoreError> {
    let enabled = boolean(element, "Enabled")?;
    let include_apis = match element.child("IncludeAPIs") {
        Some(_) => Some(boolean(element, "IncludeAPIs")?),
        None if enabled => {
            return Err(invalid(format!(
                "`{}` is enabled, so it needs `IncludeAPIs`",
                element.name
            )));
        }
        None => None,
    };
    Ok(Metrics {
        version: version(element)?,
        enabled,
        include_apis,
        retention: retention(element)?,
    })
}

/// A comma-separated list, entries trimmed, empty entries dropped.
fn list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(str::to_owned)
        .collect()
}

fn check_entries(what: &str, entries: &[String], prefixed_allowed: bool) -> Result<(), StoreError> {
    if let Some(long) = entries.iter().find(|e| e.chars().count() > MAX_ENTRY_CHARS) {
        return Err(out_of_range(format!(
            "the {what} entry `{long}` is longer than {MAX_ENTRY_CHARS} characters"
        )));
    }
    let prefixed = entries.iter().filter(|e| e.ends_with('*')).count();
    let literal = entries.len() - prefixed;
    if literal > MAX_LIST_ENTRIES {
        return Err(out_of_range(format!(
            "{what} has {literal} entries; a rule allows at most {MAX_LIST_ENTRIES}"
        )));
    }
    if prefixed_allowed && prefixed > MAX_PREFIXED_HEADERS {
        return Err(out_of_range(format!(
            "{what} has {prefixed} prefixed entries (ending in `*`); a rule allows at most {MAX_PREFIXED_HEADERS}"
        )));
    }
    Ok(())
}

fn read_rule(element: &Element) -> Result<CorsRule, StoreError> {
    let allowed_origins = list(required(element, "AllowedOrigins")?);
    if allowed_origins.is_empty() {
        return Err(out_of_range("a CORS rule allows no origin"));
    }
    check_entries("AllowedOrigins", &allowed_origins, false)?;
    let allowed_methods = list(required(element, "AllowedMethods")?);
    if allowed_methods.is_empty() {
        return Err(out_of_range("a CORS rule allows no method"));
    }
    if let Some(unknown) = allowed_methods
        .iter()
        .find(|m| !CORS_METHODS.contains(&m.as_str()))
    {
        return Err(out_of_range(format!(
            "`{unknown}` is not a method a CORS rule can allow ({})",
            CORS_METHODS.join(", ")
        )));
    }
    let max_age = required(element, "MaxAgeInSeconds")?;
    let max_age_seconds = max_age.parse::<u32>().map_err(|_| {
        out_of_range(format!(
            "MaxAgeInSeconds is `{max_age}`, not a whole number of seconds"
        ))
    })?;
    let allowed_headers = list(element.child_text("AllowedHeaders").unwrap_or(""));
    check_entries("AllowedHeaders", &allowed_headers, true)?;
    let exposed_headers = list(element.child_text("ExposedHeaders").unwrap_or(""));
    check_entries("ExposedHeaders", &exposed_headers, true)?;
    Ok(CorsRule {
        allowed_origins,
        allowed_methods,
        allowed_headers,
        exposed_headers,
        max_age_seconds,
    })
}

/// Reads a `Set Table Service Properties` body.
pub fn read_properties(body: &[u8]) -> Result<ServiceProperties, StoreError> {
    let root = xml::parse(body)
        .map_err(|e| invalid(format!("the service properties are not XML: {e}")))?;
    if root.name != "StorageServiceProperties" {
        return Err(invalid(format!(
            "the root element is `{}`, not `StorageServiceProperties`",
            root.name
        )));
    }
    let cors = match root.child("Cors") {
        None => None,
        Some(cors) => {
            let rules = cors
                .children("CorsRule")
                .map(read_rule)
                .collect::<Result<Vec<_>, _>>()?;
            if rules.len() > MAX_CORS_RULES {
                return Err(invalid(format!(
                    "the service holds at most {MAX_CORS_RULES} CORS rules; {} were sent",
                    rules.len()
                )));
            }
            Some(rules)
        }
    };
    Ok(ServiceProperties {
        logging: root.child("Logging").map(read_logging).transpose()?,
        hour_metrics: root.child("HourMetrics").map(read_metrics).transpose()?,
        minute_metrics: root.child("MinuteMetrics").map(read_metrics).transpose()?,
        cors,
    })
}

fn write_retention(out: &mut String, policy: &RetentionPolicy) {
    out.push_str(&format!(
        "<RetentionPolicy><Enabled>{}</Enabled>",
        policy.enabled
    ));
    if let Some(days) = policy.days {
        out.push_str(&format!("<Days>{days}</Days>"));
    }
    out.push_str("</RetentionPolicy>");
}

fn write_metrics(out: &mut String, name: &str, metrics: &Metrics) {
    out.push_str(&format!(
        "<{name}><Version>{}</Version><Enabled>{}</Enabled>",
        escape(&metrics.version),
        metrics.enabled
    ));
    if let Some(include) = metrics.include_apis {
        out.push_str(&format!("<IncludeAPIs>{include}</IncludeAPIs>"));
    }
    write_retention(out, &metrics.retention);
    out.push_str(&format!("</{name}>"));
}

/// Writes a `Get Table Service Properties` answer (or a `Set` body): every section, the
/// defaults where none was set.
pub fn write_properties(properties: &ServiceProperties) -> String {
    let mut out =
        String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceProperties>");
    let logging = properties.logging.clone().unwrap_or_default();
    out.push_str(&format!(
        "<Logging><Version>{}</Version><Read>{}</Read><Write>{}</Write><Delete>{}</Delete>",
        escape(&logging.version),
        logging.read,
        logging.write,
        logging.delete
    ));
    write_retention(&mut out, &logging.retention);
    out.push_str("</Logging>");
    write_metrics(
        &mut out,
        "HourMetrics",
        &properties.hour_metrics.clone().unwrap_or_default(),
    );
    write_metrics(
        &mut out,
        "MinuteMetrics",
        &properties.minute_metrics.clone().unwrap_or_default(),
    );
    out.push_str("<Cors>");
    // In the service's order, header lists with whole names before prefixes (`x-ms-meta-*`).
    for rule in properties.cors_rules() {
        out.push_str("<CorsRule>");
        write_list(&mut out, "AllowedMethods", rule.allowed_methods.iter());
        write_list(&mut out, "AllowedOrigins", rule.allowed_origins.iter());
        for (name, headers) in [
            ("AllowedHeaders", &rule.allowed_headers),
            ("ExposedHeaders", &rule.exposed_headers),
        ] {
            let (prefixes, names): (Vec<&String>, Vec<&String>) =
                headers.iter().partition(|h| h.ends_with('*'));
            write_list(&mut out, name, names.into_iter().chain(prefixes));
        }
        out.push_str(&format!(
            "<MaxAgeInSeconds>{}</MaxAgeInSeconds></CorsRule>",
            rule.max_age_seconds
        ));
    }
    out.push_str("</Cors></StorageServiceProperties>");
    out
}

/// Writes `<name>a,b</name>`, or `<name />` for an empty list, as the service does.
fn write_list<'a>(out: &mut String, name: &str, items: impl Iterator<Item = &'a String>) {
    let joined = items.map(String::as_str).collect::<Vec<_>>().join(",");
    if joined.is_empty() {
        out.push_str(&format!("<{name} />"));
    } else {
        out.push_str(&format!("<{name}>{}</{name}>", escape(&joined)));
    }
}

/// Writes a `Get Table Service Stats` answer: replication `live`, last synced at `last_sync`
/// (an RFC 1123 date).
pub fn write_stats(last_sync: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceStats><GeoReplication>\
         <Status>live</Status><LastSyncTime>{}</LastSyncTime></GeoReplication>\
         </StorageServiceStats>",
        escape(last_sync)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(origins: &str, methods: &str, allowed: &str, exposed: &str) -> CorsRule {
        CorsRule {
            allowed_origins: list(origins),
            allowed_methods: list(methods),
            allowed_headers: list(allowed),
            exposed_headers: list(exposed),
            max_age_seconds: 60,
        }
    }

    #[test]
    fn properties_read_back() {
        let properties = ServiceProperties {
            logging: Some(Logging {
                delete: true,
                write: true,
                retention: RetentionPolicy {
                    enabled: true,
                    days: Some(7),
                },
                ..Logging::default()
            }),
            hour_metrics: Some(Metrics {
                enabled: true,
                include_apis: Some(false),
                ..Metrics::default()
            }),
            minute_metrics: Some(Metrics::default()),
            cors: Some(vec![
                rule(
                    "https://a.example,https://b.example",
                    "GET,PUT",
                    "x-ms-*",
                    "x-ms-request-id",
                ),
                rule("*", "GET", "", ""),
            ]),
        };
        let written = write_properties(&properties);
        assert_eq!(read_properties(written.as_bytes()).unwrap(), properties);
        // Nothing set: the defaults, CORS off.
        let defaults =
            read_properties(write_properties(&ServiceProperties::default()).as_bytes()).unwrap();
        assert_eq!(defaults.logging, Some(Logging::default()));
        assert_eq!(defaults.cors, Some(Vec::new()));
    }

    #[test]
    fn a_set_replaces_only_the_sections_it_carries() {
        let before = ServiceProperties {
            cors: Some(vec![rule("*", "GET", "", "")]),
            ..ServiceProperties::default()
        };
        let logging_only = read_properties(
            b"<StorageServiceProperties><Logging><Version>1.0</Version><Delete>true</Delete>\
              <Read>false</Read><Write>false</Write><RetentionPolicy><Enabled>false</Enabled>\
              </RetentionPolicy></Logging></StorageServiceProperties>",
        )
        .unwrap();
        let after = before.update(logging_only);
        assert_eq!(after.cors_rules().len(), 1, "CORS kept");
        assert!(after.logging.unwrap().delete);
        let cors_off =
            read_properties(b"<StorageServiceProperties><Cors/></StorageServiceProperties>")
                .unwrap();
        assert!(before.update(cors_off).cors_rules().is_empty());
    }

    #[test]
    fn bad_documents_are_refused_with_the_services_codes() {
        let code = |body: &str| read_properties(body.as_bytes()).unwrap_err().code;
        let cors = |rule: &str| {
            format!("<StorageServiceProperties><Cors>{rule}</Cors></StorageServiceProperties>")
        };
        let whole = |origins: &str, methods: &str, headers: &str| {
            format!(
                "<CorsRule><AllowedOrigins>{origins}</AllowedOrigins><AllowedMethods>{methods}\
                 </AllowedMethods><MaxAgeInSeconds>5</MaxAgeInSeconds><ExposedHeaders/>\
                 <AllowedHeaders>{headers}</AllowedHeaders></CorsRule>"
            )
        };
        assert_eq!(code("<Nope/>"), ErrorCode::InvalidXmlDocument);
        assert_eq!(
            code("<StorageServiceProperties>"),
            ErrorCode::InvalidXmlDocument
        );
        assert_eq!(
            code(&cors(&whole("*", "GET", "").repeat(6))),
            ErrorCode::InvalidXmlDocument
        );
        assert_eq!(
            code(&cors(&whole("*", "FETCH", ""))),
            ErrorCode::InvalidXmlNodeValue
        );
        assert_eq!(
            code(&cors(&whole("", "GET", ""))),
            ErrorCode::InvalidXmlNodeValue
        );
        assert_eq!(
            code(&cors(&whole("*", "GET", "a*,b*,c*"))),
            ErrorCode::InvalidXmlNodeValue
        );
        let many: Vec<String> = (0..65).map(|i| format!("h{i}")).collect();
        assert_eq!(
            code(&cors(&whole("*", "GET", &many.join(",")))),
            ErrorCode::InvalidXmlNodeValue
        );
        assert_eq!(
            code(&cors(
                "<CorsRule><AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET</AllowedMethods>\
                 </CorsRule>"
            )),
            ErrorCode::InvalidXmlDocument,
            "MaxAgeInSeconds missing"
        );
        assert_eq!(
            code(
                "<StorageServiceProperties><HourMetrics><Version>1.0</Version><Enabled>true\
                 </Enabled><IncludeAPIs>true</IncludeAPIs><RetentionPolicy><Enabled>true\
                 </Enabled><Days>400</Days></RetentionPolicy></HourMetrics>\
                 </StorageServiceProperties>"
            ),
            ErrorCode::InvalidXmlDocument,
            "a retention over 365 days, as the service answers it"
        );
    }

    #[test]
    fn rules_match_as_the_service_matches() {
        let r = rule(
            "https://app.example",
            "GET,PUT",
            "x-ms-meta-*,content-type",
            "x-ms-request-id,x-ms-meta-*",
        );
        assert!(r.allows_origin("https://APP.example"));
        assert!(!r.allows_origin("https://other.example"));
        assert!(r.allows_method("put"));
        assert!(!r.allows_method("DELETE"));
        assert!(r.allows_headers("Content-Type, x-ms-meta-colour"));
        assert!(r.allows_headers(""));
        assert!(!r.allows_headers("content-type,authorization"));
        assert_eq!(
            r.exposed(["date", "x-ms-meta-size", "x-ms-request-id"]),
            "x-ms-request-id,x-ms-meta-size"
        );
        assert!(rule("*", "GET", "", "").allows_origin("http://anything"));
    }
}

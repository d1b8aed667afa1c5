//! What an account keeps beside its tables: each table's stored access policies (`Get`/`Set
//! Table ACL`) and the service properties (`Get`/`Set Table Service Properties`), with the CORS
//! rules that browsers' requests are checked against; and `Get Table Service Stats`.
//!
//! Both live in memory and, with a data directory, in the account's database
//! ([`crate::disk`], the `settings` table), written in order with the data and durable before
//! the request is answered.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use bytes::Bytes;
use hyper::{HeaderMap, StatusCode};
use table_http::wire::acl::{self, SignedIdentifier};
use table_http::wire::properties::{self, CorsRule, ServiceProperties};
use table_runtime::{ErrorCode, Store, StoreError};

use crate::api::{Answer, Request};
use crate::auth::Grant;
use crate::disk::{self, Disk};
use crate::route::Resource;

/// One account's policies and properties.
#[derive(Debug, Default)]
pub struct Settings {
    /// Each table's stored access policies, by table name in lower case.
    policies: Mutex<HashMap<String, Vec<SignedIdentifier>>>,
    properties: Mutex<ServiceProperties>,
    disk: Option<Arc<Disk>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn xml_answer(status: StatusCode, body: String) -> Answer {
    Answer {
        status,
        headers: vec![("content-type", "application/xml".to_owned())],
        body: Bytes::from(body),
    }
}

fn key_only(grant: &Grant, what: &str) -> Result<(), StoreError> {
    match grant {
        Grant::Key | Grant::Account { .. } => Ok(()),
        Grant::Table(_) => Err(StoreError::new(
            ErrorCode::AuthorizationFailure,
            format!("a table SAS does not reach {what}"),
        )),
    }
}

impl Settings {
    /// The settings a database held (`saved`, by setting name), kept there from now on when
    /// `disk` is given.
    pub fn restore(
        disk: Option<Arc<Disk>>,
        saved: &BTreeMap<String, Vec<u8>>,
    ) -> Result<Settings, String> {
        let mut policies = HashMap::new();
        let mut service = ServiceProperties::default();
        for (name, value) in saved {
            if let Some(table) = name.strip_prefix("acl/") {
                let read = acl::read_acl(value)
                    .map_err(|e| format!("the saved policies of `{table}`: {}", e.message))?;
                policies.insert(table.to_owned(), read);
            } else if name == disk::SERVICE_SETTING {
                service = properties::read_properties(value)
                    .map_err(|e| format!("the saved service properties: {}", e.message))?;
            }
        }
        Ok(Settings {
            policies: Mutex::new(policies),
            properties: Mutex::new(service),
            disk,
        })
    }

    /// The stored access policy `id` of `table`: its permissions, start and expiry.
    #[allow(clippy::type_complexity)]
    pub fn policy(
        &self,
        table: &str,
        id: &str,
    ) -> Option<(Option<String>, Option<String>, Option<String>)> {
        lock(&self.policies)
            .get(&table.to_ascii_lowercase())
            .and_then(|ps| ps.iter().find(|p| p.id == id))
            .map(|p| (p.permission.clone(), p.start.clone(), p.expiry.clone()))
    }

    /// Forgets the policies of a table that was deleted (the disk drops them with the table).
    pub fn table_deleted(&self, table: &str) {
        lock(&self.policies).remove(&table.to_ascii_lowercase());
    }

    /// Waits until what was handed to the disk is there.
    async fn durable(&self) -> Result<(), StoreError> {
        match &self.disk {
            Some(disk) => disk.durable().await,
            None => Ok(()),
        }
    }

    /// `GET` and `PUT /TABLE?comp=acl`: a table's stored access policies, for the account key
    /// only.
    pub async fn table_acl(
        &self,
        store: &Store,
        req: &Request<'_>,
        grant: &Grant,
    ) -> Result<Answer, StoreError> {
        let Resource::Rows(table) = &req.target.resource else {
            return Err(StoreError::new(
                ErrorCode::InvalidUri,
                "comp=acl names a table: /ACCOUNT/TABLE?comp=acl",
            ));
        };
        if !matches!(grant, Grant::Key) {
            return Err(StoreError::new(
                ErrorCode::AuthorizationFailure,
                "a table's ACL is read and set with the account key only",
            ));
        }
        // The table must exist, under a name a table can have: a point read tells, whatever
        // scans the server refuses.
        if let Err(e) = store.get(table, "", "", None)
            && matches!(
                e.code,
                ErrorCode::TableNotFound
                    | ErrorCode::InvalidResourceName
                    | ErrorCode::OutOfRangeInput
            )
        {
            return Err(e);
        }
        let key = table.to_ascii_lowercase();
        match req.method {
            "GET" => {
                let policies = lock(&self.policies).get(&key).cloned().unwrap_or_default();
                Ok(xml_answer(StatusCode::OK, acl::write_acl(&policies)))
            }
            "PUT" => {
                let policies = acl::read_acl(req.body)?;
                {
                    let mut all = lock(&self.policies);
                    if let Some(disk) = &self.disk {
                        let saved =
                            (!policies.is_empty()).then(|| acl::write_acl(&policies).into_bytes());
                        disk.set(disk::acl_setting(table), saved);
                    }
                    all.insert(key, policies);
                }
                self.durable().await?;
                Ok(Answer {
                    status: StatusCode::NO_CONTENT,
                    headers: Vec::new(),
                    body: Bytes::new(),
                })
            }
            other => Err(StoreError::new(
                ErrorCode::UnsupportedHttpVerb,
                format!("{other} is not an operation on a table's ACL"),
            )),
        }
    }

    /// `/?restype=service&comp=properties` (GET and PUT) and `comp=stats` (GET, on the
    /// `-secondary` endpoint only, as the service has it). The account SAS's permissions were
    /// checked by the caller.
    pub async fn service(&self, req: &Request<'_>, grant: &Grant) -> Result<Answer, StoreError> {
        key_only(grant, "the service's settings")?;
        if req.target.param("restype") != Some("service") {
            return Err(StoreError::new(
                ErrorCode::InvalidQueryParameterValue,
                "the account's own URL takes restype=service with comp=properties or comp=stats",
            ));
        }
        match (req.target.param("comp"), req.method) {
            (Some("properties"), "GET") => Ok(xml_answer(
                StatusCode::OK,
                properties::write_properties(&lock(&self.properties)),
            )),
            (Some("properties"), "PUT") => {
                let set = properties::read_properties(req.body)?;
                {
                    let mut current = lock(&self.properties);
                    let updated = current.update(set);
                    if let Some(disk) = &self.disk {
                        disk.set(
                            disk::SERVICE_SETTING.to_owned(),
                            Some(properties::write_properties(&updated).into_bytes()),
                        );
                    }
                    *current = updated;
                }
                self.durable().await?;
                Ok(Answer {
                    status: StatusCode::ACCEPTED,
                    headers: Vec::new(),
                    body: Bytes::new(),
                })
            }
            (Some("stats"), "GET") if req.target.secondary => {
                let now = table_http::auth::http_date(time::OffsetDateTime::now_utc());
                Ok(xml_answer(StatusCode::OK, properties::write_stats(&now)))
            }
            (Some("stats"), "GET") => Err(StoreError::new(
                ErrorCode::InvalidQueryParameterValue,
                "service stats are read from the secondary endpoint: /ACCOUNT-secondary/?restype=service&comp=stats",
            )),
            (Some("properties" | "stats"), other) => Err(StoreError::new(
                ErrorCode::UnsupportedHttpVerb,
                format!("{other} is not an operation on the service's settings"),
            )),
            (comp, _) => Err(StoreError::new(
                ErrorCode::InvalidQueryParameterValue,
                format!(
                    "comp={} is not a service operation (properties, stats)",
                    comp.unwrap_or("")
                ),
            )),
        }
    }

    fn cors_rules(&self) -> Vec<CorsRule> {
        lock(&self.properties).cors_rules().to_vec()
    }

    /// Answers a CORS preflight (`OPTIONS`, no credentials): the first rule that allows the
    /// origin, the method and every requested header.
    pub fn preflight(&self, headers: &HeaderMap) -> Result<Answer, StoreError> {
        let missing = |name: &str| {
            StoreError::new(
                ErrorCode::InvalidCorsHeaderValue,
                format!("A required CORS header is not present. A preflight needs `{name}`."),
            )
        };
        let origin = crate::header(headers, "origin").ok_or_else(|| missing("Origin"))?;
        let method = crate::header(headers, "access-control-request-method")
            .ok_or_else(|| missing("Access-Control-Request-Method"))?;
        let requested = crate::header(headers, "access-control-request-headers");
        let rules = self.cors_rules();
        let rule = rules
            .iter()
            .find(|r| {
                r.allows_origin(origin)
                    && r.allows_method(method)
                    && requested.is_none_or(|h| r.allows_headers(h))
            })
            .ok_or_else(|| {
                StoreError::new(
                    ErrorCode::CorsPreflightFailure,
                    // The service's own words, which clients and their tests look for.
                    "CORS not enabled or no matching rule found for this request.",
                )
            })?;
        let mut answer = Answer {
            status: StatusCode::OK,
            headers: vec![
                ("access-control-allow-methods", method.to_owned()),
                ("access-control-max-age", rule.max_age_seconds.to_string()),
            ],
            body: Bytes::new(),
        };
        answer.headers.extend(allow_origin(rule, origin));
        if let Some(requested) = requested {
            answer
                .headers
                .push(("access-control-allow-headers", requested.to_owned()));
        }
        Ok(answer)
    }

    /// What a request from a browser (one with `Origin`) is told: the first rule allowing its
    /// origin and method, if any.
    pub fn cors(&self, origin: &str, method: &str) -> Cors {
        let rules = self.cors_rules();
        if rules.is_empty() {
            return Cors::Off;
        }
        match rules
            .into_iter()
            .find(|r| r.allows_origin(origin) && r.allows_method(method))
        {
            Some(rule) => Cors::Allowed {
                origin: origin.to_owned(),
                rule,
            },
            None => Cors::NotAllowed,
        }
    }
}

fn allow_origin(rule: &CorsRule, origin: &str) -> Vec<(&'static str, String)> {
    if rule.any_origin() {
        vec![("access-control-allow-origin", "*".to_owned())]
    } else {
        vec![
            ("access-control-allow-origin", origin.to_owned()),
            ("access-control-allow-credentials", "true".to_owned()),
            ("vary", "Origin".to_owned()),
        ]
    }
}

/// How a request from a browser fares against the CORS rules.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Cors {
    /// Not a CORS request, or the account has no CORS rule: nothing added.
    #[default]
    Off,
    /// Rules exist and none allows it: only `Vary: Origin`.
    NotAllowed,
    /// This rule allows it.
    Allowed {
        /// The request's origin.
        origin: String,
        /// The first rule allowing it.
        rule: CorsRule,
    },
}

impl Cors {
    /// The headers to add to an answer that carries `present` headers.
    pub fn headers<'h>(
        &self,
        present: impl IntoIterator<Item = &'h str>,
    ) -> Vec<(&'static str, String)> {
        match self {
            Cors::Off => Vec::new(),
            Cors::NotAllowed => vec![("vary", "Origin".to_owned())],
            Cors::Allowed { origin, rule } => {
                let mut headers = allow_origin(rule, origin);
                let exposed = rule.exposed(present);
                if !exposed.is_empty() {
                    headers.push(("access-control-expose-headers", exposed));
                }
                headers
            }
        }
    }
}

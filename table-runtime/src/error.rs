//! One error type for every operation, carrying the service's HTTP status and error code.

use std::fmt;

/// The service's error codes (and the store's own, for checks that only the store makes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// 400: a request the service cannot read (bad key characters, malformed filter, too many
    /// operations in a transaction, ...).
    InvalidInput,
    /// 400: a value outside the range of its type.
    OutOfRangeInput,
    /// 400: a PartitionKey or RowKey longer than the service allows.
    KeyValueTooLarge,
    /// 400: a string or binary property longer than the service allows.
    PropertyValueTooLarge,
    /// 400: the entity is larger than 1 MiB.
    EntityTooLarge,
    /// 400: a required property (PartitionKey, RowKey) is missing.
    PropertiesNeedValue,
    /// 400: a property name that is not an identifier.
    PropertyNameInvalid,
    /// 400: a property name longer than 255 characters.
    PropertyNameTooLong,
    /// 400: more than 252 user properties.
    TooManyProperties,
    /// 400: a value whose type does not match its annotation.
    InvalidValueType,
    /// 400: a transaction touching the same entity twice.
    InvalidDuplicateRow,
    /// 400: a transaction spanning PartitionKeys or tables.
    CommandsInBatchActOnDifferentPartitions,
    /// 400: a table name that breaks the naming rules.
    InvalidResourceName,
    /// 404: the entity does not exist.
    ResourceNotFound,
    /// 404: the table does not exist.
    TableNotFound,
    /// 409: the entity already exists.
    EntityAlreadyExists,
    /// 409: the table already exists.
    TableAlreadyExists,
    /// 412: the If-Match ETag is not the entity's current one.
    UpdateConditionNotSatisfied,
    /// 413: a transaction body over 4 MiB.
    RequestBodyTooLarge,
    /// 400 (the store's own code, not the service's): a query class that the store was told to
    /// refuse, such as a table scan in a test suite that forbids them.
    QueryScanForbidden,
    /// 400 (the typed layer's own code, not the service's): a value that can't become a key or
    /// an entity (a separator inside a verbatim segment, a number above its bound), or a stored
    /// entity its type can't read (a missing or mistyped property, a key that doesn't parse).
    /// Nothing was sent, or the service's answer was fine.
    ConversionFailed,
    /// 500: the service failed on its side; the request may or may not have taken effect.
    InternalError,
    /// 500: the service did not finish in time; the request may or may not have taken effect.
    OperationTimedOut,
    /// 503: the service is too busy right now; retry later.
    ServerBusy,
    /// 403: the request's signature or token did not check out (wrong key, tampered
    /// signature, a SAS used before its start or after its expiry).
    AuthenticationFailed,
    /// 401: a bearer token that does not check out (malformed, expired, for another audience
    /// or issuer); the answer's `WWW-Authenticate` header says where to get one.
    InvalidAuthenticationInfo,
    /// 403: the credentials are valid but do not reach this resource (another table, a key
    /// outside a SAS's PartitionKey/RowKey range, a table operation with a table SAS).
    AuthorizationFailure,
    /// 403: the credentials do not grant this operation (a SAS without the permission).
    AuthorizationPermissionMismatch,
    /// 400: a URL that names no resource of the service, or that does not decode.
    InvalidUri,
    /// 400: a header whose value the service does not accept (an unknown `x-ms-version`, say).
    InvalidHeaderValue,
    /// 400: a header the operation needs is missing (`If-Match` on a delete, say).
    MissingRequiredHeader,
    /// 405: a method the resource does not support.
    UnsupportedHttpVerb,
    /// 501: a feature this server does not offer.
    NotImplemented,
    /// 400: an XML body (a table ACL, service properties) that is not the document expected.
    InvalidXmlDocument,
    /// 403: the SAS allows only HTTPS and the request came over HTTP.
    AuthorizationProtocolMismatch,
    /// 403: the request came from an address outside the SAS's IP range.
    AuthorizationSourceIPMismatch,
    /// 403: the account SAS does not cover this kind of resource (service, table, entity).
    AuthorizationResourceTypeMismatch,
    /// 403: the account SAS does not cover the Table service.
    AuthorizationServiceMismatch,
    /// 403: a write sent to the read-only `-secondary` endpoint.
    InsufficientAccountPermissions,
    /// 400: a query parameter whose value the operation does not take (service stats asked of
    /// the primary endpoint, say).
    InvalidQueryParameterValue,
    /// 415: a body in a media type the operation does not take (a `multipart/mixed` body sent
    /// to insert an entity, say).
    MediaTypeNotSupported,
    /// 400: an XML element whose value is out of range (a CORS method the service does not
    /// know, a retention of 400 days).
    InvalidXmlNodeValue,
    /// 400: a CORS preflight without `Origin` or `Access-Control-Request-Method`.
    InvalidCorsHeaderValue,
    /// 403: no CORS rule allows the preflight's origin, method and headers.
    CorsPreflightFailure,
    /// No usable answer from the service: the connection failed, timed out or the answer could
    /// not be read (status 0). The request may or may not have taken effect.
    NoResponse,
}

impl ErrorCode {
    /// Every code.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::InvalidInput,
        ErrorCode::OutOfRangeInput,
        ErrorCode::KeyValueTooLarge,
        ErrorCode::PropertyValueTooLarge,
        ErrorCode::EntityTooLarge,
        ErrorCode::PropertiesNeedValue,
        ErrorCode::PropertyNameInvalid,
        ErrorCode::PropertyNameTooLong,
        ErrorCode::TooManyProperties,
        ErrorCode::InvalidValueType,
        ErrorCode::InvalidDuplicateRow,
        ErrorCode::CommandsInBatchActOnDifferentPartitions,
        ErrorCode::InvalidResourceName,
        ErrorCode::ResourceNotFound,
        ErrorCode::TableNotFound,
        ErrorCode::EntityAlreadyExists,
        ErrorCode::TableAlreadyExists,
        ErrorCode::UpdateConditionNotSatisfied,
        ErrorCode::RequestBodyTooLarge,
        ErrorCode::QueryScanForbidden,
        ErrorCode::ConversionFailed,
        ErrorCode::InternalError,
        ErrorCode::OperationTimedOut,
        ErrorCode::ServerBusy,
        ErrorCode::AuthenticationFailed,
        ErrorCode::InvalidAuthenticationInfo,
        ErrorCode::AuthorizationFailure,
        ErrorCode::AuthorizationPermissionMismatch,
        ErrorCode::InvalidUri,
        ErrorCode::InvalidHeaderValue,
        ErrorCode::MissingRequiredHeader,
        ErrorCode::UnsupportedHttpVerb,
        ErrorCode::NotImplemented,
        ErrorCode::InvalidXmlDocument,
        ErrorCode::AuthorizationProtocolMismatch,
        ErrorCode::AuthorizationSourceIPMismatch,
        ErrorCode::AuthorizationResourceTypeMismatch,
        ErrorCode::AuthorizationServiceMismatch,
        ErrorCode::InsufficientAccountPermissions,
        ErrorCode::InvalidQueryParameterValue,
        ErrorCode::MediaTypeNotSupported,
        ErrorCode::InvalidXmlNodeValue,
        ErrorCode::InvalidCorsHeaderValue,
        ErrorCode::CorsPreflightFailure,
        ErrorCode::NoResponse,
    ];

    /// The code the service (or the store) spells `code`, if it is one of these.
    pub fn from_service_code(code: &str) -> Option<ErrorCode> {
        Self::ALL.iter().copied().find(|c| c.as_str() == code)
    }

    /// The code as the service spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidInput => "InvalidInput",
            ErrorCode::OutOfRangeInput => "OutOfRangeInput",
            ErrorCode::KeyValueTooLarge => "KeyValueTooLarge",
            ErrorCode::PropertyValueTooLarge => "PropertyValueTooLarge",
            ErrorCode::EntityTooLarge => "EntityTooLarge",
            ErrorCode::PropertiesNeedValue => "PropertiesNeedValue",
            ErrorCode::PropertyNameInvalid => "PropertyNameInvalid",
            ErrorCode::PropertyNameTooLong => "PropertyNameTooLong",
            ErrorCode::TooManyProperties => "TooManyProperties",
            ErrorCode::InvalidValueType => "InvalidValueType",
            ErrorCode::InvalidDuplicateRow => "InvalidDuplicateRow",
            ErrorCode::CommandsInBatchActOnDifferentPartitions => {
                "CommandsInBatchActOnDifferentPartitions"
            }
            ErrorCode::InvalidResourceName => "InvalidResourceName",
            ErrorCode::ResourceNotFound => "ResourceNotFound",
            ErrorCode::TableNotFound => "TableNotFound",
            ErrorCode::EntityAlreadyExists => "EntityAlreadyExists",
            ErrorCode::TableAlreadyExists => "TableAlreadyExists",
            ErrorCode::UpdateConditionNotSatisfied => "UpdateConditionNotSatisfied",
            ErrorCode::RequestBodyTooLarge => "RequestBodyTooLarge",
            ErrorCode::QueryScanForbidden => "QueryScanForbidden",
            ErrorCode::ConversionFailed => "ConversionFailed",
            ErrorCode::InternalError => "InternalError",
            ErrorCode::OperationTimedOut => "OperationTimedOut",
            ErrorCode::ServerBusy => "ServerBusy",
            ErrorCode::AuthenticationFailed => "AuthenticationFailed",
            ErrorCode::InvalidAuthenticationInfo => "InvalidAuthenticationInfo",
            ErrorCode::AuthorizationFailure => "AuthorizationFailure",
            ErrorCode::AuthorizationPermissionMismatch => "AuthorizationPermissionMismatch",
            ErrorCode::InvalidUri => "InvalidUri",
            ErrorCode::InvalidHeaderValue => "InvalidHeaderValue",
            ErrorCode::MissingRequiredHeader => "MissingRequiredHeader",
            ErrorCode::UnsupportedHttpVerb => "UnsupportedHttpVerb",
            ErrorCode::NotImplemented => "NotImplemented",
            ErrorCode::InvalidXmlDocument => "InvalidXmlDocument",
            ErrorCode::AuthorizationProtocolMismatch => "AuthorizationProtocolMismatch",
            ErrorCode::AuthorizationSourceIPMismatch => "AuthorizationSourceIPMismatch",
            ErrorCode::AuthorizationResourceTypeMismatch => "AuthorizationResourceTypeMismatch",
            ErrorCode::AuthorizationServiceMismatch => "AuthorizationServiceMismatch",
            ErrorCode::InsufficientAccountPermissions => "InsufficientAccountPermissions",
            ErrorCode::InvalidQueryParameterValue => "InvalidQueryParameterValue",
            ErrorCode::MediaTypeNotSupported => "MediaTypeNotSupported",
            ErrorCode::InvalidXmlNodeValue => "InvalidXmlNodeValue",
            ErrorCode::InvalidCorsHeaderValue => "InvalidCorsHeaderValue",
            ErrorCode::CorsPreflightFailure => "CorsPreflightFailure",
            ErrorCode::NoResponse => "NoResponse",
        }
    }

    /// The HTTP status the service answers with for this code.
    pub fn status(self) -> u16 {
        match self {
            ErrorCode::ResourceNotFound | ErrorCode::TableNotFound => 404,
            ErrorCode::EntityAlreadyExists | ErrorCode::TableAlreadyExists => 409,
            ErrorCode::UpdateConditionNotSatisfied => 412,
            ErrorCode::RequestBodyTooLarge => 413,
            ErrorCode::InternalError | ErrorCode::OperationTimedOut => 500,
            ErrorCode::ServerBusy => 503,
            ErrorCode::AuthenticationFailed
            | ErrorCode::AuthorizationFailure
            | ErrorCode::AuthorizationPermissionMismatch
            | ErrorCode::AuthorizationProtocolMismatch
            | ErrorCode::AuthorizationSourceIPMismatch
            | ErrorCode::AuthorizationResourceTypeMismatch
            | ErrorCode::AuthorizationServiceMismatch
            | ErrorCode::InsufficientAccountPermissions
            | ErrorCode::CorsPreflightFailure => 403,
            ErrorCode::InvalidAuthenticationInfo => 401,
            ErrorCode::UnsupportedHttpVerb => 405,
            ErrorCode::MediaTypeNotSupported => 415,
            ErrorCode::NotImplemented => 501,
            ErrorCode::NoResponse => 0,
            _ => 400,
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn every_code_reads_back_from_its_spelling() {
        for code in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_service_code(code.as_str()), Some(*code));
        }
        assert_eq!(ErrorCode::from_service_code("NoSuchCode"), None);
    }
}

/// An operation the store (or the service) refused, with the service's status and code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{status} {code}: {message}{}", failed_index.map(|i| format!(" (operation {i} of the transaction)")).unwrap_or_default())]
pub struct StoreError {
    /// The HTTP status.
    pub status: u16,
    /// The service's error code.
    pub code: ErrorCode,
    /// What went wrong, for people.
    pub message: String,
    /// In a transaction, the 0-based index of the operation that failed.
    pub failed_index: Option<usize>,
}

impl StoreError {
    /// An error with the code's usual status.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> StoreError {
        StoreError {
            status: code.status(),
            code,
            message: message.into(),
            failed_index: None,
        }
    }

    /// Whether the service refused the request (a 4xx status): nothing was written. Any other
    /// failure (a 5xx, no answer) may or may not have taken effect.
    pub fn is_refusal(&self) -> bool {
        (400..500).contains(&self.status)
    }

    /// The same error, marked as caused by operation `index` of a transaction.
    pub fn at_index(mut self, index: usize) -> StoreError {
        self.failed_index = Some(index);
        self
    }
}

/// `None` where the service answered that the entity does not exist (404 `ResourceNotFound`),
/// the value otherwise: for reads and deletes of an entity that may be absent.
pub fn absent_as_none<T>(result: Result<T, StoreError>) -> Result<Option<T>, StoreError> {
    match result {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.code == ErrorCode::ResourceNotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// A result whose error is a [`StoreError`].
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

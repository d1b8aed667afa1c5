//! Azure Table Storage with key design made explicit.
//!
//! This crate holds the in-process [`Store`], which behaves like the service (ordering, ETags,
//! entity group transactions, OData `$filter`, paging, limits), together with the types shared by
//! the rest of the toolkit: [`Entity`], [`Value`], [`Query`] and the service's errors.
//!
//! ```
//! use table_runtime::{Entity, IfMatch, Query, Store};
//!
//! let store = Store::new();
//! store.create_table("Employees").unwrap();
//! let written = store
//!     .insert("Employees", &Entity::new("Sales", "empid_000042").with("Name", "Ann"))
//!     .unwrap();
//! // Optimistic concurrency: replace only if nobody changed the entity since.
//! store
//!     .replace(
//!         "Employees",
//!         &Entity::new("Sales", "empid_000042").with("Name", "Anne"),
//!         IfMatch::ETag(written.etag.clone()),
//!     )
//!     .unwrap();
//! let stale = store.replace("Employees", &Entity::new("Sales", "empid_000042"), IfMatch::ETag(written.etag));
//! assert_eq!(stale.unwrap_err().status, 412);
//!
//! let page = store
//!     .query("Employees", &Query::filter("PartitionKey eq 'Sales' and RowKey ge 'empid_'").unwrap())
//!     .unwrap();
//! assert_eq!(page.stats.class, table_runtime::QueryClass::RangeQuery);
//! ```

extern crate self as table_runtime;

pub mod archive;
pub mod backend;
pub mod batch;
pub mod blob;
pub mod design;
pub mod entity;
pub mod error;
pub mod index;
pub mod json;
pub mod key;
pub mod limits;
pub mod period;
pub mod query;
pub mod queue;
pub mod sas;
pub mod scenario;
pub mod series;
pub mod store;
pub mod table;
pub mod transaction;
pub mod typed;
pub mod value;

pub use backend::Backend;
pub use batch::BatchOperation;
pub use entity::{ETag, Entity, IfMatch};
pub use error::{ErrorCode, StoreError};
pub use limits::Limits;
pub use query::{Continuation, Filter, Query, QueryClass};
pub use store::{
    BatchResult, EntityView, PageEnd, PagingQuirks, PartitionStats, QueryPage, QueryStats, Store,
    StoreClock, StoreOptions, WriteResult,
};
pub use table::{QueryTotals, Table, TypedPage};
pub use typed::{ConversionError, EntityKey, RawKey, TableEntity};
pub use value::{DateTime, EdmType, Value};

/// The `time` crate, re-exported: `time::OffsetDateTime` fields need no dependency line of their
/// own.
pub use time;
/// The `uuid` crate, re-exported: `uuid::Uuid` fields need no dependency line of their own.
pub use uuid;

/// Derives [`TableEntity`] from key templates; see the [`typed`] module.
#[cfg(feature = "derive")]
pub use table_derive::TableEntity;

/// What derived code uses; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::design::{
        DesignText, SampleBounds, SampleValue, attempt, describe_range, describe_text,
        describe_union, sample_prefix,
    };
    pub use crate::entity::Entity;
    pub use crate::key::encode::{
        Bucket, DatePart, DatePattern, DateUnit, KeyEncodingError, UnixTime, push_escaped,
    };
    pub use crate::key::segment::{
        Follows, KeySegment, PaddedInteger, TimeFormat, TimeSegment, UnpaddedInteger, check_max,
        check_min, expect_end, expect_literal, parse_escaped_segment, parse_simple_guid,
        parse_verbatim, push_escaped_segment, push_simple_guid, push_verbatim,
    };
    pub use crate::query::keyed::{
        KeyQuery, segment_range, starts_with_range, verbatim_check, verbatim_prefix_check,
        verbatim_range,
    };
    pub use crate::sas::{SasScope, TablePermissions};
    pub use crate::typed::support::{
        as_i128, check_entity_type, check_max_len, check_max_value, check_min_value, const_str_eq,
        get, get_string, key_error, lists, primary_keys, put, put_string, stores_field_as,
        unknown_entity_type,
    };
    pub use crate::typed::{ConversionError, EntityKey, IndexCopy, IndexInfo, RawKey, TableEntity};
    pub use crate::typed::{ENTITY_TYPE_PROPERTY, ENTITY_VERSION_PROPERTY};
    pub use serde_json;
    pub use std::ops::{Bound, RangeBounds};
    pub use std::result::Result;
    pub use std::string::String;
    pub use std::vec::Vec;
    pub use time::OffsetDateTime;

    /// Maps a bound through a fallible encoding.
    pub fn map_bound<T, E>(
        bound: Bound<&T>,
        mut f: impl FnMut(&T) -> Result<String, E>,
    ) -> Result<Bound<String>, E> {
        Ok(match bound {
            Bound::Included(v) => Bound::Included(f(v)?),
            Bound::Excluded(v) => Bound::Excluded(f(v)?),
            Bound::Unbounded => Bound::Unbounded,
        })
    }

    /// Writes a field as JSON text (`#[table(json)]`).
    pub fn put_json<T: serde::Serialize>(
        entity: &mut Entity,
        name: &str,
        field: &T,
    ) -> Result<(), ConversionError> {
        let text = serde_json::to_string(field).map_err(|e| ConversionError::Json {
            property: name.to_owned(),
            message: e.to_string(),
        })?;
        entity
            .properties
            .insert(name.to_owned(), crate::value::Value::String(text));
        Ok(())
    }

    /// Reads a field stored as JSON text (`#[table(json)]`).
    pub fn get_json<T: serde::de::DeserializeOwned>(
        entity: &Entity,
        name: &str,
    ) -> Result<T, ConversionError> {
        let text: String = get(entity, name)?;
        serde_json::from_str(&text).map_err(|e| ConversionError::Json {
            property: name.to_owned(),
            message: e.to_string(),
        })
    }
}

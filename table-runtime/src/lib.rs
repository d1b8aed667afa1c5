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

pub mod batch;
pub mod entity;
pub mod error;
pub mod json;
pub mod key;
pub mod limits;
pub mod query;
pub mod scenario;
pub mod store;
pub mod typed;
pub mod value;

pub use batch::BatchOperation;
pub use entity::{ETag, Entity, IfMatch};
pub use error::{ErrorCode, StoreError};
pub use limits::Limits;
pub use query::{Continuation, Filter, Query, QueryClass};
pub use store::{
    BatchResult, PagingQuirks, QueryPage, QueryStats, Store, StoreOptions, WriteResult,
};
pub use value::{DateTime, EdmType, Value};

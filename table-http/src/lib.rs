//! Azure Table Storage over HTTP, as a [`table_runtime::Backend`].
//!
//! The same typed code that runs on the in-process [`table_runtime::Store`] runs against the
//! real service (or the Cosmos DB Table API, or the Azurite emulator) through [`HttpBackend`],
//! chosen by a connection string:
//!
//! - `UseDevelopmentStorage=true` for the local emulator;
//! - `DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…` (SharedKey signing), with an
//!   optional `TableEndpoint=…` or `EndpointSuffix=…`;
//! - a SAS URL, or `TableEndpoint=…;SharedAccessSignature=…`.
//!
//! Errors are the store's [`table_runtime::StoreError`]: the HTTP status and the service's error
//! code, and for a failed transaction the failing operation's index. Transient failures are
//! retried where that is safe, as [`RetryPolicy`] says. [`sas`] generates table SAS tokens
//! from an account key, to hand to clients that must not hold the key, and reads them back: a
//! backend given a table SAS checks each request against the token's scope (table,
//! permissions, validity window, key range) before sending it, as the in-process store does.
//!
//! ```no_run
//! use table_http::HttpBackend;
//! use table_runtime::{Backend, Query};
//!
//! let backend = HttpBackend::from_connection_string("UseDevelopmentStorage=true")?;
//! let page = pollster::block_on(backend.query_page(
//!     "Orders",
//!     &Query::filter("PartitionKey eq 'c1'")?.top(100),
//! ))?;
//! println!("{} orders", page.entities.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod auth;
pub mod backend;
pub mod connection;
pub mod retry;
pub mod sas;
mod wire;

pub use backend::{API_VERSION, HttpBackend, HttpOptions};
pub use connection::{Connection, ConnectionError, Credential};
pub use retry::RetryPolicy;
pub use wire::{NO_STATUS, error_code};

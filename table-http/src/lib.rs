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
//! The same connection string also reaches the account's other two services, for the patterns
//! whose follow-up work must outlive a process: [`queue::AzureQueue`] is Azure Queue Storage as
//! a [`table_runtime::queue::JobQueue`] (with a poison queue beside each queue), and
//! [`blob::AzureBlobs`] is Azure Blob Storage as a [`table_runtime::blob::BlobService`]. All
//! three share one HTTP layer (connection pool, owned I/O runtime, retries) and one place for
//! SharedKey signing ([`auth`]).
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
pub mod blob;
pub mod connection;
pub mod queue;
pub mod retry;
pub mod sas;
mod transport;
pub mod wire;
pub mod xml;

pub use backend::{API_VERSION, HttpBackend, HttpOptions};
pub use blob::AzureBlobs;
pub use connection::{Connection, ConnectionError, Credential, StorageService};
pub use queue::AzureQueue;
pub use retry::RetryPolicy;
pub use transport::STORAGE_API_VERSION;
pub use wire::{NO_STATUS, error_code};

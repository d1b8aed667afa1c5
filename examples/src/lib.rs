//! Key designs from the domain, each a module with a `run` function that writes and queries an
//! in-process store and returns what it found, so the same code is a runnable example and a
//! tested one.

pub mod event_log;
pub mod hr;
pub mod iot;
pub mod orders;
pub mod records;
pub mod saas;

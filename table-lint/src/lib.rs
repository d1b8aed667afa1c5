//! `table-lint`: finds Azure Table Storage key-design anti-patterns in Rust sources.
//!
//! It reads every `#[derive(TableEntity)]` struct through the derive's own parser and checks
//! (`table-derive-internals`), and every `$filter` string through the runtime's parser and query
//! planner, then runs its rules (one file each under [`rules`]) and renders the findings as
//! rustc-style text, JSON, SARIF or GitHub annotations.

pub mod cli;
pub mod config;
pub mod data;
pub mod diagnostic;
pub mod example_keys;
pub mod lint;
pub mod render;
pub mod rules;
pub mod scan;
pub mod scope;
pub mod source;
pub mod suppress;
pub mod views;

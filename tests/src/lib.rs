//! Cross-crate integration tests live in `tests/`; this library compiles README's Rust examples
//! as doctests, so the README cannot drift from the code.

#[doc = include_str!("../../README.md")]
mod readme {}

//! The SARIF 2.1.0 JSON schema, vendored from microsoft/sarif-sdk
//! (`src/Sarif/Schemata/sarif-2.1.0.json`, MIT), and a check of a log against it.

use std::path::Path;

/// The vendored schema, from the crate's folder.
const SARIF_SCHEMA: &str = "tests/sarif/sarif-2.1.0.schema.json";

/// Checks `log` against the SARIF 2.1.0 JSON schema: the errors, if any.
pub fn schema_errors(log: &serde_json::Value) -> Option<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(SARIF_SCHEMA))
        .expect("the vendored schema is there");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("urn:sarif-2.1.0", schema)
        .expect("the schema loads");
    let id = compiler
        .compile("urn:sarif-2.1.0", &mut schemas)
        .expect("the schema compiles");
    schemas.validate(log, id).err().map(|e| format!("{e:#}"))
}

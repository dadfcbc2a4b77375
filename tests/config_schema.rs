//! The published JSON Schema of `check`'s config file (docs/schema/kubectl-topo-config.v1.json): it
//! is what `schema::config` writes, the example of docs/check.md validates against it, and the bad
//! config files the CLI refuses for a wrong key, level or code are refused by the schema too.

use kubectl_topo::schema::config;
use serde_json::Value;

use crate::support::{path, read};

fn validate(schema: &Value, doc: &Value) -> Result<(), String> {
    let (mut schemas, mut compiler) = (boon::Schemas::new(), boon::Compiler::new());
    compiler.add_resource(config::PATH, schema.clone()).expect("a schema document");
    let root = compiler.compile(config::PATH, &mut schemas).map_err(|e| format!("{e:#}"))?;
    schemas.validate(doc, root).map_err(|e| format!("{e:#}"))
}

fn yaml(text: &str) -> Value {
    serde_saphyr::from_str(text).expect("YAML")
}

#[test]
fn committed_config_schema_is_what_the_code_writes() {
    let generated = config::text();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(path(config::PATH), &generated).expect("writes the schema");
    }
    assert!(
        read(&path(config::PATH)) == generated,
        "{} is out of date: UPDATE_SCHEMA=1 cargo test --test hermetic config_schema",
        config::PATH
    );
}

#[test]
fn the_documented_example_validates_and_bad_files_do_not() {
    let schema = config::document();
    let docs = read(&path("docs/check.md"));
    let example = docs
        .split("```yaml\n")
        .filter_map(|block| block.split_once("```").map(|(b, _)| b))
        .find(|b| b.starts_with("excludes:"))
        .expect("docs/check.md shows a config file");
    validate(&schema, &yaml(example)).expect("the documented config validates");
    validate(&schema, &Value::Null).expect("an empty file validates");
    for bad in [
        "config-unknown-field.yaml",
        "config-unknown-level.yaml",
        "config-unknown-level-code.yaml",
        "config-unknown-exclude-code.yaml",
    ] {
        let doc = yaml(&read(&path(&format!("tests/bad-inputs/{bad}"))));
        assert!(validate(&schema, &doc).is_err(), "{bad} validates");
    }
}

//! The published JSON Schema (docs/schema/kubectl-topo.v1alpha1.json): it is exactly what the report
//! types generate now, every strum enum lists its variants from their declaration, real outputs of
//! every subcommand on the demo dump and every fixture validate against it (`-o json`, `-o yaml`,
//! `watch` lines), and it rejects what it must.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use kubectl_topo::render::{self, Format as OutputFormat, RenderOptions};
use kubectl_topo::schema;
use kubectl_topo::source::dump::parse_dump;
use serde_json::{Value, json};
use strum::VariantArray;
use topo_engine::core::analyze;
use topo_engine::report::mode::Mode;
use topo_engine::report::proxy::ProxyMode;
use topo_engine::report::reason::ReasonCode;
use topo_engine::report::watch::{self, ChangeKind, WatchState};
use topo_engine::report::whatif::{SpreadBasis, SyncNote, TrafficSource};
use topo_engine::report::{ControllerAction, EndpointStatus, Verdict};

use crate::support::{demo, path, read, topo};

fn committed() -> Value {
    serde_json::from_str(&read(&path(schema::PATH))).expect("the committed schema is JSON")
}

/// A compiled schema (boon checks it against the 2020-12 meta-schema while compiling).
struct Validator {
    schemas: boon::Schemas,
    root: boon::SchemaIndex,
}

impl Validator {
    fn new(schema: Value) -> Self {
        let (mut schemas, mut compiler) = (boon::Schemas::new(), boon::Compiler::new());
        compiler.add_resource(schema::PATH, schema).expect("a schema document");
        let root = compiler.compile(schema::PATH, &mut schemas).unwrap_or_else(|e| panic!("{e:#}"));
        Validator { schemas, root }
    }

    /// Where `doc` fails, one `(instance path, message with the schema path)` per leaf error.
    fn errors(&self, doc: &Value) -> Vec<(String, String)> {
        let Err(error) = self.schemas.validate(doc, self.root) else { return Vec::new() };
        let mut leaves = Vec::new();
        collect(&error.basic_output(), &mut leaves);
        leaves
    }
}

fn collect(unit: &boon::OutputUnit<'_, '_, '_>, leaves: &mut Vec<(String, String)>) {
    match &unit.error {
        boon::OutputError::Leaf(kind) => {
            let message = format!("{kind} (schema {})", unit.keyword_location);
            leaves.push((unit.instance_location.to_string(), message));
        }
        boon::OutputError::Branch(units) => units.iter().for_each(|u| collect(u, leaves)),
    }
}

/// The committed schema, as a user's validator reads it.
fn validator() -> &'static Validator {
    static VALIDATOR: OnceLock<Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| Validator::new(committed()))
}

/// The same schema closed: `additionalProperties: false` on every object it describes, so that an
/// output field the types do not declare fails too (the published one stays open: fields are
/// additive within v1alpha1).
fn strict_validator() -> &'static Validator {
    fn close(value: &mut Value) {
        match value {
            Value::Object(map) => {
                if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                    map.insert("additionalProperties".into(), false.into());
                }
                map.values_mut().for_each(close);
            }
            Value::Array(items) => items.iter_mut().for_each(close),
            _ => {}
        }
    }
    static STRICT: OnceLock<Validator> = OnceLock::new();
    STRICT.get_or_init(|| {
        let mut schema = committed();
        schema["$defs"].as_object_mut().expect("$defs").values_mut().for_each(close);
        Validator::new(schema)
    })
}

/// The validator's errors for `doc`, one line each with the instance path and the schema path.
fn errors(validator: &Validator, doc: &Value) -> Vec<String> {
    validator.errors(doc).into_iter().map(|(at, message)| format!("at {at:?}: {message}")).collect()
}

/// Validates documents and counts them.
#[derive(Default)]
struct Checked(usize);

impl Checked {
    fn doc(&mut self, what: &str, doc: &Value) {
        let open = errors(validator(), doc);
        assert!(open.is_empty(), "{what} does not validate:\n{}", open.join("\n"));
        let strict = errors(strict_validator(), doc);
        assert!(strict.is_empty(), "{what} has fields the schema does not declare:\n{}", strict.join("\n"));
        self.0 += 1;
    }
}

#[test]
fn committed_schema_is_what_the_types_generate() {
    let generated = schema::text();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(path(schema::PATH), &generated).expect("writes the schema");
    }
    let committed = read(&path(schema::PATH));
    assert!(
        committed == generated,
        "{} differs from what the report types generate: run `cargo xtask schema` (or UPDATE_SCHEMA=1 \
         cargo test --test hermetic schema::committed) and commit it",
        schema::PATH
    );
}

/// `{"type": "string", "enum": [...]}` with the names the values serialise as, in declaration order
/// (and a `description`, which only `ReasonCode` has: where each code is explained).
fn assert_string_enum<T: VariantArray + serde::Serialize>(name: &str) {
    let mut def = committed()["$defs"][name].clone();
    if let Some(def) = def.as_object_mut() {
        def.remove("description");
    }
    let expected = json!({ "type": "string", "enum": serde_json::to_value(T::VARIANTS).unwrap() });
    assert_eq!(def, expected, "$defs/{name}");
}

#[test]
fn every_strum_enum_lists_its_variants_under_their_serialised_names() {
    assert_string_enum::<Verdict>("Verdict");
    assert_string_enum::<ReasonCode>("ReasonCode");
    assert_string_enum::<Mode>("Mode");
    assert_string_enum::<ProxyMode>("ProxyMode");
    assert_string_enum::<ControllerAction>("ControllerAction");
    assert_string_enum::<EndpointStatus>("EndpointStatus");
    assert_string_enum::<ChangeKind>("ChangeKind");
    assert_string_enum::<SpreadBasis>("SpreadBasis");
    assert_string_enum::<TrafficSource>("TrafficSource");
    assert_string_enum::<SyncNote>("SyncNote");
}

/// The demo dump and every fixture dump.
fn dumps() -> Vec<PathBuf> {
    let mut paths = vec![demo()];
    for dir in ["tests/fixtures", "tests/fixtures/simulate"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(path(dir))
            .expect("fixture directory")
            .map(|entry| entry.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        found.sort();
        paths.extend(found);
    }
    assert!(paths.len() > 10, "fixtures found: {paths:?}");
    paths
}

/// Stdout of the real binary; exit 0, or 1 for `check`'s findings.
fn stdout(args: &[&str]) -> Vec<u8> {
    let out = topo().args(args).output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {:?}: {stderr}", out.status);
    out.stdout
}

fn run_json(args: &[&str]) -> Value {
    serde_json::from_slice(&stdout(&[args, &["-o", "json"]].concat())).expect("stdout is JSON")
}

/// `-o yaml`, read into JSON values the way a consumer's YAML parser would.
fn run_yaml(args: &[&str]) -> Value {
    let text = String::from_utf8(stdout(&[args, &["-o", "yaml"]].concat())).expect("UTF-8");
    serde_saphyr::from_str(&text).expect("stdout is YAML")
}

/// (namespace, name) of every Service a `check -A` document lists.
fn services(check: &Value) -> Vec<(String, String)> {
    let rows = check["services"].as_array().expect("services");
    let field = |row: &Value, key: &str| row["service"][key].as_str().expect("service name").to_string();
    rows.iter().map(|row| (field(row, "namespace"), field(row, "name"))).collect()
}

#[test]
fn explain_check_and_zones_of_every_dump_validate() {
    let mut checked = Checked::default();
    for dump in dumps() {
        let file = dump.to_str().expect("UTF-8 path");
        let check = run_json(&["check", "-A", "--show-all", "-f", file]);
        checked.doc(&format!("check -A -f {file}"), &check);
        checked.doc(&format!("zones -f {file}"), &run_json(&["zones", "-f", file]));
        for (namespace, name) in services(&check) {
            let what = format!("explain svc/{name} -n {namespace} -f {file}");
            checked.doc(&what, &run_json(&["explain", &format!("svc/{name}"), "-n", &namespace, "-f", file]));
        }
    }
    eprintln!("schema: {} explain, check and zones documents validate", checked.0);
    assert!(checked.0 > 40, "only {} documents", checked.0);
}

const SIMULATIONS: [&[&str]; 5] = [
    &["-f", "tests/fixtures/w03-four-zones-hinted.yaml", "--remove-zone", "d"],
    &["-f", "tests/fixtures/w03-four-zones-hinted.yaml", "--not-ready", "node-d", "--traffic", "a=1,b=1,c=2"],
    &["-f", "tests/fixtures/w01-docs-12-4-vcpu.yaml", "--set-cpu", "node-b=12"],
    &["-f", "tests/fixtures/simulate/three-zones-three-endpoints.yaml", "--replicas", "4"],
    &[
        "-f",
        "tests/fixtures/w03-four-zones-hinted.yaml",
        "--remove-node",
        "node-d",
        "--add-node",
        "zone=a,cpu=2,name=extra",
        "--mode",
        "PreferSameZone",
    ],
];

#[test]
fn check_with_everything_left_out_or_set_aside_validates() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.yaml");
    std::fs::write(&config, "excludes:\n  - reasons: [OverloadThreshold]\n").unwrap();
    let demo = demo();
    let (file, config) = (demo.to_str().expect("UTF-8 path"), config.to_str().expect("UTF-8 path"));
    let doc = run_json(&["check", "-A", "-f", file, "--config", config, "--verdict", "Blocked"]);
    assert_eq!(doc["summary"]["ignored"], 1);
    assert!(doc["summary"]["hidden"] == 1 && doc["summary"]["filtered"] == 2, "{doc}");
    assert_eq!(doc["services"][0]["families"][0]["ignored"][0]["code"], "OverloadThreshold");
    let mut checked = Checked::default();
    checked.doc("check with ignored reasons, hidden and filtered Services", &doc);
    checked.doc(
        "the same, -o yaml",
        &run_yaml(&["check", "-A", "-f", file, "--config", config, "--verdict", "Blocked"]),
    );
}

#[test]
fn simulations_validate() {
    let mut checked = Checked::default();
    for changes in SIMULATIONS {
        let args = [&["simulate", "svc/svc", "-n", "w"], changes].concat();
        checked.doc(&format!("{args:?}"), &run_json(&args));
    }
    eprintln!("schema: {} simulate documents validate", checked.0);
}

#[test]
fn yaml_outputs_validate_once_read_as_json() {
    let mut checked = Checked::default();
    let demo = demo();
    let file = demo.to_str().expect("UTF-8 path");
    checked.doc("check -A -o yaml", &run_yaml(&["check", "-A", "-f", file]));
    checked.doc("zones -o yaml", &run_yaml(&["zones", "-f", file]));
    for (namespace, name) in services(&run_json(&["check", "-A", "-f", file])) {
        let args = ["explain", &format!("svc/{name}"), "-n", &namespace, "-f", file];
        checked.doc(&format!("{args:?} -o yaml"), &run_yaml(&args));
    }
    let simulate = [&["simulate", "svc/svc", "-n", "w"], SIMULATIONS[0]].concat();
    checked.doc("simulate -o yaml", &run_yaml(&simulate));
    eprintln!("schema: {} YAML documents validate", checked.0);
}

#[test]
fn version_validates() {
    Checked::default().doc("version -o json", &run_json(&["version"]));
    Checked::default().doc("version -o yaml", &run_yaml(&["version"]));
}

/// What `watch` follows in a dump.
fn watch_state(dump: &Path) -> WatchState {
    let parsed = parse_dump(&read(dump), "test").expect("dump parses");
    let behaviour = parsed.snapshot.info.server_version.as_deref().and_then(|v| v.parse().ok());
    let snapshot = parsed.snapshot;
    let reports: Vec<_> = snapshot
        .services
        .iter()
        .map(|s| analyze::explain(&snapshot, s, behaviour.unwrap_or_else(|| "1.36".parse().unwrap())))
        .collect();
    watch::summarize(&reports)
}

/// `watch` lines as written, `-o json` (one document per line) and `-o yaml` (one per `---`), each
/// with what it is.
fn watch_documents(changes: &[watch::ServiceChange]) -> Vec<(String, Value)> {
    let mut docs = Vec::new();
    for change in changes {
        let (service, family) = (&change.service, &change.address_type);
        for format in [OutputFormat::Json, OutputFormat::Yaml] {
            let what = format!(
                "watch -o {format:?}: {} {}/{} {family}",
                change.change, service.namespace, service.name
            );
            let mut out = Vec::new();
            let options =
                RenderOptions { format, color: false, no_headers: false, unicode: false, width: None };
            render::watch::change(change, &options, &mut out).expect("renders");
            let text = String::from_utf8(out).expect("UTF-8");
            let doc = match format {
                OutputFormat::Json => serde_json::from_str(text.trim_end()).expect("one JSON line"),
                _ => serde_saphyr::from_str(text.trim_start_matches("---\n")).expect("one YAML document"),
            };
            docs.push((what, doc));
        }
    }
    docs
}

/// Every kind of line: the first state of each dump (`Initial`), then each dump following the
/// previous one (the fixtures share `w/svc`: `Changed`, `Added`, `Deleted`).
#[test]
fn watch_lines_validate() {
    let mut checked = Checked::default();
    let mut kinds: Vec<ChangeKind> = Vec::new();
    let mut previous: Option<WatchState> = None;
    for dump in dumps() {
        let state = watch_state(&dump);
        let mut changes = watch::changes(None, &state, 1_700_000_000_000);
        changes.extend(watch::changes(previous.as_ref(), &state, 1_700_000_000_000));
        changes.extend(watch::changes(Some(&state), &WatchState::new(), 1_700_000_000_000));
        for change in &changes {
            if !kinds.contains(&change.change) {
                kinds.push(change.change);
            }
        }
        for (what, doc) in watch_documents(&changes) {
            checked.doc(&format!("{what} (after {})", dump.display()), &doc);
        }
        previous = Some(state);
    }
    assert_eq!(kinds.len(), ChangeKind::VARIANTS.len(), "kinds of line seen: {kinds:?}");
    eprintln!("schema: {} watch documents validate", checked.0);
}

/// A real `explain` document of the demo dump, to break on purpose.
fn demo_explain() -> Value {
    let demo = demo();
    run_json(&["explain", "svc/demo-service", "-n", "demo", "-f", demo.to_str().expect("UTF-8 path")])
}

/// The paths the validator names for `doc` (empty when it validates).
fn failing_paths(validator: &Validator, doc: &Value) -> Vec<String> {
    validator.errors(doc).into_iter().map(|(at, _)| at).collect()
}

#[test]
fn the_schema_rejects_what_no_output_can_be() {
    let valid = demo_explain();
    assert_eq!(failing_paths(validator(), &valid), Vec::<String>::new());

    let mut doc = valid.clone();
    doc["families"][0]["verdict"] = json!("Fine");
    assert_eq!(failing_paths(validator(), &doc), ["/families/0/verdict"], "a verdict that does not exist");

    let mut doc = valid.clone();
    doc["families"][0]["reasons"] = json!([{ "code": "NoSuchCode", "message": "m" }]);
    assert_eq!(failing_paths(validator(), &doc), ["/families/0/reasons/0/code"], "an unknown reason code");

    let mut doc = valid.clone();
    doc["families"][0].as_object_mut().unwrap().remove("action");
    assert_eq!(failing_paths(validator(), &doc), ["/families/0"], "a required field missing");

    let mut doc = valid.clone();
    doc["apiVersion"] = json!("kubectl-topo/v1");
    assert!(!failing_paths(validator(), &doc).is_empty(), "another apiVersion");

    let mut doc = valid.clone();
    doc["kind"] = json!("CheckReport");
    assert!(!failing_paths(validator(), &doc).is_empty(), "an explain document under another kind");

    let mut doc = valid;
    doc["families"][0]["aNewField"] = json!(1);
    assert!(failing_paths(validator(), &doc).is_empty(), "the published schema lets fields be added");
    assert_eq!(failing_paths(strict_validator(), &doc), ["/families/0"], "the test's closed copy does not");
}

#[test]
fn apply_reports_validate() {
    let mut checked = Checked::default();
    let demo = demo();
    let demo = demo.to_str().expect("UTF-8 path");
    for manifests in [
        "tests/fixtures/apply/demo-11-replicas.yaml",
        "tests/fixtures/apply/rendered",
        "tests/fixtures/apply/demo-service-4-prefer-close.yaml",
        "tests/fixtures/apply/node-pool-zone-d.yaml",
    ] {
        let args = ["simulate", "-n", "demo", "-f", demo, "--apply", manifests, "-o", "json"];
        let out = topo().args(args).output().expect("runs");
        let doc: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
        checked.doc(&format!("{args:?}"), &doc);
    }
    assert_eq!(checked.0, 4);
}

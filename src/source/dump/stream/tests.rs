use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::source::SourceError;
use crate::source::dump::{parse_dump, read_whole, yaml_documents};

/// What the whole-text reader gives for `text`, errors as the user sees them.
fn whole(text: &str) -> Result<ParsedDump, String> {
    read_whole(text, "t").map_err(|err| SourceError::from(err).to_string())
}

/// Streams `text` through windows of several sizes (so items, keys and numbers straddle their
/// edges) and through `parse_dump`; all must give what the whole-text reader gives, errors
/// included.
fn agree(text: &str) -> Result<ParsedDump, String> {
    let want = whole(text);
    let json = text.trim_start_matches('\u{feff}').trim_start().starts_with(['{', '[']);
    for chunk in [CHUNK, 1, 7, 100].into_iter().filter(|_| json) {
        let got = read_from(text.as_bytes(), "t", chunk, Limits::DUMP)
            .map_err(|err| SourceError::from(err).to_string());
        assert_eq!(got, want, "window {chunk}: {text:.300}");
    }
    let got = parse_dump(text, "t").map_err(|err| SourceError::from(err).to_string());
    assert_eq!(got, want, "parse_dump: {text:.300}");
    want
}

/// Streams, with the result of a whole read.
fn assert_streams(text: &str) -> ParsedDump {
    agree(text).unwrap_or_else(|e| panic!("{e}"))
}

/// `examples/demo-cluster.yaml` and every `tests/fixtures/*.yaml`, as one list each.
fn fixture_lists() -> Vec<(String, Value)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("examples/demo-cluster.yaml")];
    for entry in std::fs::read_dir(root.join("tests/fixtures")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yaml") {
            paths.push(path);
        }
    }
    assert!(paths.len() > 10, "fixtures not found");
    let list = |path: &Path| {
        let mut documents = yaml_documents(&std::fs::read_to_string(path).unwrap(), "t").unwrap();
        match documents.len() {
            1 => documents.remove(0),
            _ => json!({"apiVersion": "v1", "kind": "List", "items": documents}),
        }
    };
    paths.iter().map(|path| (path.display().to_string(), list(path))).collect()
}

/// `{"apiVersion": …, "kind": …, "items": […]}` with its keys in the given order.
fn ordered(list: &Value, keys: &[&str]) -> String {
    let fields: Vec<String> = keys.iter().map(|key| format!("{key:?}: {}", list[*key])).collect();
    format!("{{{}}}", fields.join(",\n"))
}

#[test]
fn fixtures_stream_to_what_a_whole_read_gives() {
    for (name, list) in fixture_lists() {
        assert_eq!(list["kind"], "List", "{name}");
        // serde_json writes keys sorted, as kubectl does: apiVersion, items, kind.
        let parsed = assert_streams(&serde_json::to_string_pretty(&list).unwrap());
        assert!(!parsed.snapshot.nodes.is_empty(), "{name}");
        assert_streams(&serde_json::to_string(&list).unwrap());
        assert_streams(&ordered(&list, &["kind", "apiVersion", "items"]));
        assert_streams(&ordered(&list, &["items", "kind", "apiVersion"]));
    }
}

#[test]
fn typed_list_items_take_the_list_kind_once_it_is_known() {
    let list = json!({
        "apiVersion": "v1",
        "kind": "NodeList",
        "items": [
            {"metadata": {"name": "a"}},
            {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "b"}, "status": {"allocatable": {"cpu": "2"}}},
        ],
        "metadata": {"resourceVersion": "7"},
    });
    let parsed = assert_streams(&ordered(&list, &["kind", "apiVersion", "items", "metadata"]));
    assert_eq!(parsed.snapshot.nodes.len(), 2);
    assert_streams(&ordered(&list, &["apiVersion", "kind", "items"]));
    // kubectl's order: the items come before the kind they would inherit.
    assert_eq!(assert_streams(&serde_json::to_string(&list).unwrap()), parsed);
}

#[test]
fn unusual_items_read_as_a_whole_read_does() {
    let list = json!({"apiVersion": "v1", "kind": "List", "items": [
        null, 42, [], {}, {"kind": "Pod"}, {"apiVersion": "v1"}, {"apiVersion": 1, "kind": "Node"},
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}},
        {"apiVersion": "v1", "kind": "NodeList", "items": [{"metadata": {"name": "n1"}}]},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "namespace": "default"}},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cilium-config", "namespace": "kube-system"},
         "data": {"kube-proxy-replacement": "true"}},
        {"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "e"}, "eventTime": null, "note": "hi"},
        {"apiVersion": "kubectl-topo/v1alpha1", "kind": "ClusterInfo", "serverVersion": "v1.36.2"},
        {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "n2", "labels": {"k": "\u{e9}\u{1f600}"}}},
    ]});
    let kind_first = ordered(&list, &["kind", "apiVersion", "items"]);
    let parsed = assert_streams(&format!("\u{feff}\u{feff}\n {kind_first}\n"));
    assert_eq!(parsed.snapshot.nodes.len(), 2);
    assert_eq!(parsed.skipped.values().sum::<usize>(), 8, "{:?}", parsed.skipped);
    assert!(parsed.snapshot.data_plane.cilium.is_some());
    assert_eq!(parsed.server_version.as_deref(), Some("v1.36.2"));
    // Items that do not name their kind, before the list names its own: kept until it does.
    assert_eq!(assert_streams(&serde_json::to_string(&list).unwrap()), parsed);
}

const NODE: &str = r#"{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}"#;

fn list_of(items: &[&str]) -> String {
    format!("{{\"apiVersion\": \"v1\",\n\"items\": [\n{}\n],\n\"kind\": \"List\"}}\n", items.join(",\n"))
}

#[test]
fn errors_are_those_of_a_whole_read() {
    let many = vec![NODE; 2_000];
    let truncated = list_of(&many);
    let truncated = &truncated[..truncated.len() - 20];
    let message = agree(truncated).unwrap_err();
    assert!(message.starts_with("t:2002:"), "{message}");
    let comma = list_of(&many).replacen("\n],", ",\n],", 1);
    assert!(agree(&comma).unwrap_err().contains("invalid JSON: trailing comma"));
    let service = r#"{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"ports": [{"port": "eighty"}]}}"#;
    let message = agree(&list_of(&[NODE, service, NODE])).unwrap_err();
    assert!(message.starts_with(r#"t: item 1: service "s": spec.ports[0].port: invalid type"#), "{message}");
    let retired =
        r#"{"apiVersion": "discovery.k8s.io/v1beta1", "kind": "EndpointSlice", "metadata": {"name": "s1"}}"#;
    assert!(agree(&list_of(&[NODE, retired])).unwrap_err().contains("v1beta1 is not read"));
    let pods = r#"{"apiVersion": "v1", "kind": "Pod"}"#;
    assert!(agree(&list_of(&[pods])).unwrap_err().contains("(found 1 v1 Pod)"));
    assert!(agree(&list_of(&[])).unwrap_err().contains("the dump is empty"));
}

#[test]
fn anything_else_reads_as_a_whole_read_does() {
    let list = list_of(&[NODE]);
    for text in [
        NODE.to_string(),
        format!("[{NODE}]"),
        format!("{list}{list}"),
        format!("{list} x"),
        list.replace("\"kind\": \"List\"", "\"kind\": \"List\", \"kind\": \"NodeList\""),
        list.replace("\"kind\": \"List\"", "\"kind\": \"Node\""),
        list.replace("\"kind\": \"List\"", "\"kind\": null"),
        list.replace("\"apiVersion\": \"v1\",\n", ""),
        list.replace("[\n", "[\n{\"a\": 1},\n")
            .replace("\"kind\": \"List\"", "\"kind\": \"List\", \"items\": []"),
        format!("\u{a0}{list}"),
        format!("\u{feff}\u{feff}{list} x"),
        format!("apiVersion: v1\nkind: List\nitems:\n- {NODE}\n"),
    ] {
        agree(&text).ok();
    }
    let bad_utf8 = b"{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [{\"a\": \"\xff\"}]}";
    let message = read_from(&bad_utf8[..], "t", 7, Limits::DUMP).unwrap_err().to_string();
    assert!(message.starts_with("t:1:55: invalid JSON: invalid unicode code point"), "{message}");
}

/// An item the whole-text reader refuses is refused by the stream too, never dropped.
#[test]
fn items_a_whole_read_refuses_are_refused_where_they_are() {
    let service = |spec: &str| {
        format!(r#"{{"apiVersion": "v1", "kind": "Service", "metadata": {{"name": "s"}}, "spec": {spec}}}"#)
    };
    let deep = format!("{}1{}", "[".repeat(70), "]".repeat(70));
    for (item, message) in [
        (service(r#"{"ports": [{"port": 1e400}]}"#), "t:4:100: invalid JSON: number out of range"),
        (
            service(r#"{"selector": {"app": "\ud800"}}"#),
            "t:4:104: invalid JSON: unexpected end of hex escape",
        ),
        (service(&format!(r#"{{"x": {deep}}}"#)), "t:4:142: invalid JSON: nested deeper than 64 levels"),
        (service(r#"{"ports": [], "ports": []}"#), r#"t:4:96: invalid JSON: duplicate key "ports""#),
        (service(r#"{"a": 1, "a": 1}"#), r#"t:4:87: invalid JSON: duplicate key "a""#),
        (format!("{NODE}, {NODE}"), r#"t: item 1: node "n" is listed again (first as item 0)"#),
    ] {
        let message_got = agree(&list_of(&[NODE, &item, NODE])).unwrap_err();
        assert!(message_got.starts_with(message), "{message_got}\nwanted {message}");
    }
    let keys = r#"{"apiVersion": "v1", "kind": "List", "kind": "List", "items": []}"#;
    let message = agree(keys).unwrap_err();
    assert!(message.starts_with(r#"t:1:43: invalid JSON: duplicate key "kind""#), "{message}");
}

#[test]
fn a_truncated_list_is_refused_where_it_ends() {
    let nodes: Vec<String> = (0..50).map(|i| NODE.replace(r#""n""#, &format!(r#""n{i}""#))).collect();
    let text = list_of(&nodes.iter().map(String::as_str).collect::<Vec<_>>());
    for cut in (0..text.len()).step_by(97).chain([text.len() - 2, text.len() - 3, 40, 41]) {
        let message = agree(&text[..cut]).unwrap_err();
        assert!(message.contains("invalid JSON: EOF while parsing") || cut < 2, "{cut}: {message}");
    }
}

#[test]
fn a_value_larger_than_any_object_is_refused_without_reading_on() {
    let limits = Limits { object: 1000, ..Limits::DUMP };
    let huge = format!("\n [\"{}", "x".repeat(5000));
    let message = read_from(huge.as_bytes(), "t", 100, limits).unwrap_err().to_string();
    assert!(message.starts_with("t:2:2: this value is larger than 1000 bytes"), "{message}");
    let list = format!(
        r#"{{"apiVersion": "v1", "kind": "List", "items": [{NODE}, {NODE}, "{}"]}}"#,
        "x".repeat(5000)
    );
    let message = read_from(list.as_bytes(), "t", 100, limits).unwrap_err().to_string();
    assert!(message.starts_with("t:1:"), "{message}");
    let endless = std::io::repeat(b' ');
    let message =
        read_from(std::io::Read::chain(&b"{"[..], endless), "t", 100, Limits { json: 10_000, ..limits });
    assert!(message.unwrap_err().to_string().starts_with("t: more than 10000 bytes of JSON"));
}

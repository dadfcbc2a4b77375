use std::io::Write;
use std::path::Path;

use serde_json::{Value, json};
use tempfile::NamedTempFile;

use super::*;
use crate::source::SourceError;
use crate::source::dump::{parse_dump, read_whole, yaml_documents};
use crate::source::read_dump_file;

fn file(text: &str) -> NamedTempFile {
    let mut file = NamedTempFile::new().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    file
}

/// What the general reader gives for `text`, errors as the user sees them.
fn whole(text: &str) -> Result<ParsedDump, String> {
    read_whole(text, "t").map_err(|err| SourceError::from(err).to_string())
}

/// What `parse_dump` (stdin's path: streamed from the text, else the general reader) gives.
fn from_text(text: &str) -> Result<ParsedDump, String> {
    parse_dump(text, "t").map_err(|err| SourceError::from(err).to_string())
}

/// Streams `text` through windows of several sizes (so items, keys and numbers straddle their
/// edges); all must agree.
fn streamed(text: &str) -> Option<ParsedDump> {
    let file = file(text);
    let results = [CHUNK, 1, 7, 100].map(|chunk| read_with(file.path(), "t", chunk));
    assert!(results.iter().all(|r| *r == results[0]), "window sizes disagree on {text:.200}");
    let [first, ..] = results;
    first
}

/// Streams, with the result of a whole read.
fn assert_streams(text: &str) -> ParsedDump {
    let want = whole(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(streamed(text).as_ref(), Some(&want), "{text:.300}");
    assert_eq!(read_list_text(text, "t").as_ref(), Some(&want), "from text: {text:.300}");
    assert_eq!(from_text(text).as_ref(), Ok(&want), "{text:.300}");
    want
}

/// Gives up, and reading the file still gives exactly what a whole read gives.
fn assert_gives_up(text: &str) -> Result<ParsedDump, String> {
    assert_eq!(streamed(text), None, "{text:.300}");
    let file = file(text);
    let got = read_dump_file(file.path(), "t").map_err(|err| err.to_string());
    let want = whole(text);
    assert_eq!(got, want, "{text:.300}");
    assert_eq!(read_list_text(text, "t"), None, "from text: {text:.300}");
    assert_eq!(from_text(text), want, "{text:.300}");
    want
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
    let kubectl = assert_gives_up(&serde_json::to_string(&list).unwrap()).unwrap();
    assert_eq!(kubectl, parsed);
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
    // Items that do not name their kind, before the list names its own: read whole.
    assert_eq!(assert_gives_up(&serde_json::to_string(&list).unwrap()).unwrap(), parsed);
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
    let message = assert_gives_up(truncated).unwrap_err();
    assert!(message.starts_with("t:2002:"), "{message}");
    let comma = list_of(&many).replacen("\n],", ",\n],", 1);
    assert!(assert_gives_up(&comma).unwrap_err().contains("invalid JSON: trailing comma"));
    let service = r#"{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"ports": [{"port": "eighty"}]}}"#;
    let message = assert_gives_up(&list_of(&[NODE, service, NODE])).unwrap_err();
    assert!(message.starts_with(r#"t: item 1: service "s": spec.ports[0].port: invalid type"#), "{message}");
    let retired =
        r#"{"apiVersion": "discovery.k8s.io/v1beta1", "kind": "EndpointSlice", "metadata": {"name": "s1"}}"#;
    assert!(assert_gives_up(&list_of(&[NODE, retired])).unwrap_err().contains("v1beta1 is not read"));
    let pods = r#"{"apiVersion": "v1", "kind": "Pod"}"#;
    assert!(assert_gives_up(&list_of(&[pods])).unwrap_err().contains("(found 1 v1 Pod)"));
    assert!(assert_gives_up(&list_of(&[])).unwrap_err().contains("the dump is empty"));
}

#[test]
fn anything_but_one_list_is_read_whole() {
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
        format!("apiVersion: v1\nkind: List\nitems:\n- {NODE}\n"),
    ] {
        assert_gives_up(&text).ok();
    }
    let file = file("");
    std::fs::write(
        file.path(),
        b"{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [{\"a\": \"\xff\"}]}",
    )
    .unwrap();
    assert_eq!(read_with(file.path(), "t", 7), None);
    let message = read_dump_file(file.path(), "t").unwrap_err().to_string();
    assert!(message.contains("valid UTF-8"), "{message}");
}

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::*;
use crate::source::SourceError;
use crate::source::dump::parse_dump;

/// What the reference reader gives, errors as the user sees them.
fn tree(text: &str) -> Result<ParsedDump, String> {
    read_parsed(text, "t").map_err(|err| SourceError::from(err).to_string())
}

/// Reads `text` item by item and through `parse_dump`; both must give what the reference reader
/// gives, errors included (`parse_dump` refuses NUL bytes before any parser sees them).
fn agree(text: &str) -> Result<ParsedDump, String> {
    let want = tree(text);
    let got = read_fast(text.as_bytes(), "t").map_or_else(|| read_parsed(text, "t"), Ok);
    let got = got.map_err(|err| SourceError::from(err).to_string());
    assert_eq!(got, want, "{text:.400}");
    if !text.contains('\0') {
        let got = parse_dump(text, "t").map_err(|err| SourceError::from(err).to_string());
        assert_eq!(got, want, "parse_dump: {text:.400}");
    }
    want
}

fn assert_agree(text: &str) -> ParsedDump {
    agree(text).unwrap_or_else(|e| panic!("{e}"))
}

/// The entries of `object` as YAML, in the given order.
fn ordered(object: &Value, keys: &[&str]) -> String {
    keys.iter().map(|key| serde_saphyr::to_string(&json!({ *key: object[*key] })).unwrap()).collect()
}

fn files(dir: &str, extension: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == extension))
        .collect();
    paths.sort();
    paths
}

#[test]
fn every_yaml_file_reads_as_the_reference_reads_it() {
    let mut paths = files("tests/fixtures", "yaml");
    paths.extend(files("examples", "yaml"));
    paths.extend(files("tests/bad-inputs", "yaml").into_iter().filter(|p| !p.ends_with("cases.yaml")));
    assert!(paths.len() > 60, "files not found: {}", paths.len());
    let mut read = 0;
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        read += usize::from(agree(&text).is_ok());
    }
    assert!(read > 30, "only {read} files read");
}

#[test]
fn fixtures_as_lists_in_any_key_order_read_as_the_reference_reads_them() {
    let mut paths = files("tests/fixtures", "yaml");
    paths.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo-cluster.yaml"));
    for path in paths {
        let documents = documents(&std::fs::read_to_string(&path).unwrap(), "t").unwrap();
        let list = match &documents[..] {
            [one] if one["kind"] == "List" => one.clone(),
            _ => json!({"apiVersion": "v1", "kind": "List", "items": documents}),
        };
        // kubectl's order (sorted keys): the items come before the kind.
        let parsed = assert_agree(&serde_saphyr::to_string(&list).unwrap());
        assert!(!parsed.snapshot.nodes.is_empty(), "{}", path.display());
        assert_eq!(assert_agree(&ordered(&list, &["kind", "apiVersion", "items"])), parsed);
        assert_eq!(assert_agree(&ordered(&list, &["items", "kind", "apiVersion"])), parsed);
        // As JSON, through the streaming JSON reader: the same dump.
        assert_eq!(parse_dump(&serde_json::to_string_pretty(&list).unwrap(), "t").unwrap(), parsed);
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
    let parsed = assert_agree(&ordered(&list, &["kind", "apiVersion", "items", "metadata"]));
    assert_eq!(parsed.snapshot.nodes.len(), 2);
    assert_eq!(assert_agree(&serde_saphyr::to_string(&list).unwrap()), parsed);
    let named_first =
        json!({"apiVersion": "v1", "kind": "NodeList", "items": [list["items"][1], list["items"][0]]});
    assert_eq!(assert_agree(&serde_saphyr::to_string(&named_first).unwrap()).snapshot.nodes.len(), 2);
}

#[test]
fn unusual_items_and_documents_read_as_the_reference_reads_them() {
    let list = json!({"apiVersion": "v1", "kind": "List", "items": [
        null, 42, [], {}, {"kind": "Pod"}, {"apiVersion": "v1"}, {"apiVersion": 1, "kind": "Node"},
        {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "d"}},
        {"apiVersion": "v1", "kind": "NodeList", "items": [{"metadata": {"name": "n1"}}]},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "namespace": "default"}},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cilium-config", "namespace": "kube-system"},
         "data": {"kube-proxy-replacement": "true"}},
        {"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "e"}, "eventTime": null, "note": "hi"},
        {"apiVersion": "kubectl-topo/v1alpha1", "kind": "ClusterInfo", "serverVersion": "v1.36.2"},
        {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "n2", "labels": {"k": "\u{e9}\u{1f600}"}}},
    ]});
    let parsed = assert_agree(&serde_saphyr::to_string(&list).unwrap());
    assert_eq!(parsed.snapshot.nodes.len(), 2);
    assert_eq!(parsed.skipped.values().sum::<usize>(), 8, "{:?}", parsed.skipped);
    assert!(parsed.snapshot.data_plane.cilium.is_some());
    assert_eq!(assert_agree(&ordered(&list, &["kind", "apiVersion", "items"])), parsed);
    let node = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n";
    let list = "apiVersion: v1\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n}}\nkind: List\n";
    for text in [
        node.to_string(),
        format!("- {{apiVersion: v1, kind: Node, metadata: {{name: n}}}}\n---\n{node}"),
        format!("{list}---\n{list}"),
        format!("---\n~\n---\n42\n---\n\"text\"\n---\n1.5\n---\ntrue\n---\n{node}"),
        list.replace("kind: List", "kind: Node"),
        list.replace("kind: List", "kind: ~"),
        list.replace("kind: List", "kind: [List]"),
        list.replace("apiVersion: v1\nitems", "apiVersion: 1\nitems"),
        list.replace("apiVersion: v1\nitems", "items"),
        list.replace("items:\n- ", "items: 7\nx:\n- "),
        list.replace("items:\n- ", "items: {a: 1}\nx:\n- "),
        list.replace("kind: List", "kind: NodeList").replace("apiVersion: v1, kind: Node, ", ""),
        format!("kind: List\n{list}"),
        format!("~: 1\n---\n{node}"),
        format!("{list}x: !!binary aGk=\n"),
        format!("{list}x: !custom 1\n"),
        format!("\u{feff}{list}"),
    ] {
        agree(&text).ok();
    }
}

#[test]
fn errors_are_those_of_the_reference_reader() {
    let node = |name: &str| format!("- apiVersion: v1\n  kind: Node\n  metadata:\n    name: {name}\n");
    let items: String = (0..200).map(|i| node(&format!("n{i}"))).collect();
    let list = format!("apiVersion: v1\nitems:\n{items}kind: List\n");
    let service =
        "- apiVersion: v1\n  kind: Service\n  metadata: {name: s}\n  spec: {ports: [{port: eighty}]}\n";
    let message = agree(&list.replacen("- apiVersion", &format!("{service}- apiVersion"), 1)).unwrap_err();
    assert!(message.starts_with(r#"t: item 0: service "s": spec.ports[0].port: invalid type"#), "{message}");
    // A syntax error later in the input comes before an item that does not decode.
    let both =
        format!("{}---\nkind: [\n", list.replacen("- apiVersion", &format!("{service}- apiVersion"), 1));
    assert!(agree(&both).unwrap_err().contains("invalid YAML"));
    let again = format!("apiVersion: v1\nitems:\n{}{}kind: List\n", node("a"), node("a"));
    assert!(agree(&again).unwrap_err().contains(r#"node "a" is listed again (first as item 0)"#));
    let dup = list.replacen("    name: n3\n", "    name: n3\n    name: n4\n", 1);
    assert!(agree(&dup).unwrap_err().contains("duplicate mapping key"));
    assert!(agree(&format!("{list}kind: List\n")).unwrap_err().contains("duplicate mapping key"));
    let retired = "- apiVersion: discovery.k8s.io/v1beta1\n  kind: EndpointSlice\n  metadata: {name: s1}\n";
    assert!(
        agree(&format!("{list}---\nitems:\n{retired}kind: List\napiVersion: v1\n"))
            .unwrap_err()
            .contains("v1beta1")
    );
    let deep = format!("{}1{}", "[".repeat(70), "]".repeat(70));
    assert!(
        agree(&list.replacen("name: n5", &format!("name: n5\n    x: {deep}"), 1))
            .unwrap_err()
            .contains("deeper")
    );
    let alias = "- &a {apiVersion: v1, kind: Node, metadata: {name: x}}\n- *a\n";
    agree(&format!("apiVersion: v1\nitems:\n{alias}kind: List\n")).ok();
    for cut in (0..list.len()).step_by(61) {
        agree(&list[..cut]).ok();
    }
}

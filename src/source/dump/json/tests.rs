use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::source::SourceError;
use crate::source::dump::{json_message, yaml_documents};

/// Hands out `text` a few bytes per read, so the reader's windows end everywhere.
pub(crate) struct Trickle<'t> {
    pub(crate) text: &'t [u8],
    pub(crate) bytes: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.bytes.min(buf.len()).min(self.text.len());
        buf[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        Ok(n)
    }
}

/// `text` read `chunk` bytes per read, errors as the user sees them.
fn read_with(text: &str, chunk: usize) -> Result<ParsedDump, String> {
    super::read(Trickle { text: text.as_bytes(), bytes: chunk }, "t")
        .map_err(|err| SourceError::from(err).to_string())
}

/// `text` read in reads of many sizes, which must all agree: the result.
fn read(text: &str) -> Result<ParsedDump, String> {
    let want = read_with(text, usize::MAX);
    for chunk in [1, 2, 3, 7, 64, 1000] {
        assert_eq!(read_with(text, chunk), want, "reads of {chunk} bytes: {text:.300}");
    }
    want
}

fn error(text: &str) -> String {
    read(text).expect_err(text)
}

fn node(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"topology.kubernetes.io/zone": "a"}}})
}

fn nodes(parsed: &ParsedDump) -> Vec<&str> {
    parsed.snapshot.nodes.iter().map(|n| n.name.as_str()).collect()
}

#[test]
fn fixtures_read_the_same_at_every_window_size_in_any_key_order() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut read_some = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let documents = yaml_documents(&std::fs::read_to_string(&path).unwrap(), "t").unwrap();
        let list = json!({"apiVersion": "v1", "kind": "List", "items": documents});
        let want = read(&serde_json::to_string_pretty(&list).unwrap());
        // kubectl's order (items before kind), compact, and as separate documents.
        let items = serde_json::to_string(&list["items"]).unwrap();
        assert_eq!(read(&format!(r#"{{"apiVersion":"v1","items":{items},"kind":"List"}}"#)), want);
        let separate: Vec<String> = documents.iter().map(|d| serde_json::to_string(d).unwrap()).collect();
        assert_eq!(read(&separate.join("\n")), want, "{}", path.display());
        read_some += usize::from(want.is_ok());
    }
    assert!(read_some >= 15, "only {read_some} fixtures read");
}

#[test]
fn typed_list_items_take_the_list_kind_before_or_after_them() {
    let item = json!({"metadata": {"name": "n1"}});
    let before = json!({"kind": "NodeList", "apiVersion": "v1", "items": [item, node("n2")]});
    let after = json!({"apiVersion": "v1", "items": [node("n0"), item, node("n2")], "kind": "NodeList"});
    assert_eq!(nodes(&read(&before.to_string()).unwrap()), ["n1", "n2"]);
    assert_eq!(nodes(&read(&after.to_string()).unwrap()), ["n0", "n1", "n2"]);
    // In a plain List an item without a type is counted, not read.
    let plain = json!({"apiVersion": "v1", "items": [item, node("n2")], "kind": "List"});
    let parsed = read(&plain.to_string()).unwrap();
    assert_eq!(nodes(&parsed), ["n2"]);
    assert_eq!(parsed.skipped.get("objects without apiVersion and kind"), Some(&1));
    // An item of a typed List that names another type after all is that type.
    let other = json!({"metadata": {"name": "s"}, "apiVersion": "v1", "kind": "Service"});
    let mixed = json!({"kind": "NodeList", "apiVersion": "v1", "items": [other, node("n2")]});
    let parsed = read(&mixed.to_string()).unwrap();
    assert_eq!((parsed.snapshot.services.len(), nodes(&parsed)), (1, vec!["n2"]));
}

#[test]
fn an_object_that_is_not_a_list_after_all_forgets_its_items() {
    let text =
        json!({"apiVersion": "v1", "items": [node("inner")], "kind": "Node", "metadata": {"name": "outer"}});
    assert_eq!(nodes(&read(&text.to_string()).unwrap()), ["outer"]);
    // An error in them ends the read all the same: the first error does.
    let bad = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": 5}});
    let text = json!({"apiVersion": "v1", "items": [bad], "kind": "Node", "metadata": {"name": "outer"}});
    assert!(error(&text.to_string()).contains("item 0: node \"\": metadata.name: invalid type"));
}

#[test]
fn nested_lists_and_other_kinds_are_read_as_before() {
    let slice = json!({"addressType": "IPv4", "apiVersion": "discovery.k8s.io/v1", "endpoints": [],
        "kind": "EndpointSlice", "metadata": {"name": "web-1", "namespace": "default"}});
    let slices = json!({"apiVersion": "discovery.k8s.io/v1", "items": [slice], "kind": "EndpointSliceList"});
    let pod = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "p"}});
    let text = json!({"apiVersion": "v1", "items": [slices, pod, node("n")], "kind": "List"});
    let parsed = read(&text.to_string()).unwrap();
    assert_eq!((parsed.snapshot.slices.len(), nodes(&parsed)), (1, vec!["n"]));
    assert_eq!(parsed.skipped.get("batch/v1 Job"), Some(&1));
}

#[test]
fn what_is_wrong_with_an_item_is_said_with_its_name_and_field() {
    let service = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"},
        "spec": {"ports": [{"port": "eighty"}]}});
    let text = json!({"apiVersion": "v1", "items": [node("n"), service], "kind": "List"}).to_string();
    let message = error(&text);
    assert!(
        message.contains(r#"item 1: service "web": spec.ports[0].port: invalid type: string "eighty""#),
        "{message}"
    );
    // kubectl writes a slice's endpoints before its metadata: the name is found all the same.
    let slice = json!({"addressType": "IPv4", "apiVersion": "discovery.k8s.io/v1",
        "endpoints": [{"addresses": 5}], "kind": "EndpointSlice", "metadata": {"name": "web-1"}});
    let text = json!({"apiVersion": "v1", "items": [slice], "kind": "List"}).to_string();
    let message = error(&text);
    assert!(
        message.contains(r#"item 0: endpointslice "web-1": endpoints[0].addresses: invalid type"#),
        "{message}"
    );
    // The first error ends the read: one later in the input is not looked for.
    let message = error(&format!("{text}\n{{"));
    assert!(message.contains(r#"item 0: endpointslice "web-1""#), "{message}");
    // A field read that is given twice is refused (one never read is skipped, as any unread field).
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a", "labels": {"z": "a"}}});
    let text = json!({"apiVersion": "v1", "items": [node], "kind": "List"}).to_string();
    for (twice, want) in [(r#""name":"a""#, "duplicate field `name`"), (r#""z":"a""#, r#"duplicate key "z""#)]
    {
        let message = error(&text.replacen(twice, &format!("{twice},{twice}"), 1));
        assert!(message.contains(want), "{message}");
    }
}

#[test]
fn values_built_nest_up_to_serde_jsons_limit_and_values_skipped_deeper() {
    let deep = |levels| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
    assert!(error(&deep(200)).contains("t:1:128: invalid JSON: nested deeper than 127 levels"));
    let node = |x: &str| format!(r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"name":"n"}},"x":{x}}}"#);
    // A top-level object's entries are built; a List item's fields not read are skipped.
    assert!(error(&node(&deep(1000))).contains("nested deeper than 127 levels"));
    let list = format!(r#"{{"apiVersion":"v1","items":[{}],"kind":"List"}}"#, node(&deep(1000)));
    assert_eq!(nodes(&read(&list).unwrap()), ["n"]);
}

#[test]
fn errors_of_the_structure_are_serde_jsons_at_their_place() {
    for (text, want) in [
        (r#"{"apiVersion": "v1", "kind": "List", "items": [],}"#, "t:1:50: invalid JSON: trailing comma"),
        (r#"{"items": [{}, ]}"#, "t:1:16: invalid JSON: trailing comma"),
        (r#"{"items": [{} {}]}"#, "t:1:15: invalid JSON: expected `,` or `]`"),
        (r#"{"items": [] "kind": "List"}"#, "t:1:14: invalid JSON: expected `,` or `}`"),
        (r#"{"items" []}"#, "t:1:10: invalid JSON: expected `:`"),
        (r#"{items: []}"#, "t:1:2: invalid JSON: key must be a string"),
        ("{\"items\": [{}", "t:1:13: invalid JSON: EOF while parsing a list"),
        ("{\"items\": [{}]", "t:1:14: invalid JSON: EOF while parsing an object"),
        ("{\"items\":", "t:1:9: invalid JSON: EOF while parsing a value"),
        (r#"{"kind": "List", "items": [], "kind": "List"}"#, r#"t:1:36: invalid JSON: duplicate key "kind""#),
        (r#"{"items": [], "items": []}"#, r#"t:1:21: invalid JSON: duplicate key "items""#),
        (r#"{"items": [{"kind": "Node", "kind": 2}]}"#, "t:1:34: invalid JSON: duplicate field `kind`"),
        ("{\"items\": [\n  {\"apiVersion\": 1e999}]}", "t:2:22: invalid JSON: number out of range"),
    ] {
        let message = error(text);
        assert!(message.starts_with(want), "{text}: {message}");
        // The same text as one whole serde_json read gives the same message and place.
        if let Err(err) = serde_json::from_str::<Value>(text) {
            let whole = format!("t:{}:{}: invalid JSON: {}", err.line(), err.column(), json_message(&err));
            if !want.contains("duplicate") && !want.contains("nested") {
                assert!(message.starts_with(&whole), "{text}: {message} vs {whole}");
            }
        }
    }
}

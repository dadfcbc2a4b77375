use serde_json::{Value, json};

use super::*;
use crate::source::dump::strict::Checked;
use crate::source::dump::{ParsedDump, Reader, item};

fn node() -> Value {
    json!({"apiVersion": "v1", "kind": "Node",
        "metadata": {"name": "n1", "labels": {"topology.kubernetes.io/zone": "a", "x": "y"}, "uid": "u"},
        "spec": {"providerID": "p"},
        "status": {"allocatable": {"cpu": "3500m", "memory": "1Gi"},
            "conditions": [{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "True"}],
            "images": [{"names": ["a", "b"], "sizeBytes": 12}], "nodeInfo": {"kubeletVersion": "v1.33.1"}}})
}

fn service() -> Value {
    json!({"apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "s", "namespace": "ns", "annotations": {"a": "b"}, "managedFields": [{"x": 1.5}]},
        "spec": {"selector": {"app": "s"}, "type": "NodePort", "ports": [{"port": 80, "nodePort": 30080}],
            "trafficDistribution": "PreferClose", "ipFamilies": ["IPv4"]},
        "status": {"loadBalancer": {}}})
}

fn slice() -> Value {
    json!({"addressType": "IPv4", "apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
        "metadata": {"name": "s-1", "namespace": "ns",
            "labels": {"kubernetes.io/service-name": "s", "endpointslice.kubernetes.io/managed-by": "m"}},
        "endpoints": [{"addresses": ["10.0.0.1"], "conditions": {"ready": true, "serving": true},
            "hints": {"forZones": [{"name": "a"}]}, "nodeName": "n1", "zone": "a",
            "targetRef": {"kind": "Pod", "name": "p", "uid": "u"}}],
        "ports": [{"name": "http", "port": 8080, "protocol": "TCP"}]})
}

/// The item read in one pass, into a reader of its own.
fn one_pass(text: &[u8]) -> Option<ParsedDump> {
    let CheckedItem(lean) = serde_json::from_slice::<CheckedItem>(text).ok()?;
    let mut reader = Reader::new("t");
    assert!(reader.take(lean), "decoded but not taken");
    Some(reader.finish().unwrap())
}

/// The item read as the checked path reads it: cut, then decoded.
fn checked_path(text: &str) -> Option<ParsedDump> {
    serde_json::from_str::<Checked<2>>(text).ok()?;
    let mut reader = Reader::new("t");
    item::read_in_one_pass(text, None, &mut reader).then(|| reader.finish().unwrap())
}

/// `value` with its top-level keys in the order given (serde_json sorts them, as kubectl does).
fn ordered(value: &Value, keys: &[&str]) -> String {
    let fields: Vec<String> = keys.iter().map(|key| format!("{key:?}: {}", value[*key])).collect();
    format!("{{{}}}", fields.join(", "))
}

#[test]
fn reads_what_the_checked_path_reads() {
    let reordered = [
        ordered(&slice(), &["apiVersion", "kind", "metadata", "endpoints", "ports", "addressType"]),
        ordered(&slice(), &["addressType", "apiVersion", "endpoints", "kind", "metadata", "ports"]),
        ordered(&node(), &["kind", "apiVersion", "metadata", "status", "spec"]),
    ];
    let sorted = [node(), service(), slice()].map(|v| serde_json::to_string_pretty(&v).unwrap());
    for text in sorted.iter().chain(&reordered) {
        let want = checked_path(text).expect("the checked path reads it");
        assert_eq!(one_pass(text.as_bytes()), Some(want), "{text}");
    }
}

#[test]
fn leaves_to_the_checked_path_what_it_does_not_decode() {
    let slice = slice().to_string();
    for text in [
        // Not a kind decoded here, or not what an apiVersion promised.
        r#"{"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e"}}"#.to_string(),
        r#"{"apiVersion": "v1", "kind": "NodeList", "items": []}"#.to_string(),
        slice.replace(r#""kind":"EndpointSlice""#, r#""kind":"EndpointSliceList""#),
        slice.replace(r#","kind":"EndpointSlice""#, ""),
        // Types not named as plain strings, or not at all before the rest.
        slice.replace(r#""kind":"EndpointSlice""#, r#""kind":"EndpointSlic\u0065""#),
        slice.replace(r#""kind":"EndpointSlice""#, r#""k\u0069nd":"EndpointSlice""#),
        node().to_string().replace(r#""apiVersion":"v1""#, r#""apiVersion":1"#),
        r#"{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "apiVersion": "v1", "kind": "Node"}"#.to_string(),
        r#"{"metadata": {"name": "n"}}"#.to_string(),
        "[]".to_string(),
    ] {
        assert!(one_pass(text.as_bytes()).is_none(), "{text}");
    }
}

/// Every place of a Node, Service and EndpointSlice (read, skipped, or kept before the type) with
/// something the grammar refuses: the one-pass read refuses it as the checking visitor does.
#[test]
fn refuses_what_the_grammar_refuses() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let bad: [(&str, String); 6] = [
        ("twice", r#"{"k": 1, "k": 2}"#.to_string()),
        ("range", "1e400".to_string()),
        ("surrogate", r#""\ud800""#.to_string()),
        ("utf8", "\"\u{fffd}\"".to_string()),
        ("deep", deep(MAX_DEPTH)),
        ("ok", r#"{"k": [1, "x", null, 2.5e3]}"#.to_string()),
    ];
    // Where `"X"` stands, the bad value goes.
    let places = [
        r#"{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "x": "X"}}"#,
        r#"{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "status": {"images": ["X"]}}"#,
        r#"{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "labels": {"a": "b", "c": "X"}}}"#,
        r#"{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"ports": [{"port": 1, "x": "X"}]}}"#,
        r#"{"addressType": "IPv4", "x": "X", "apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": {"name": "e"}}"#,
        r#"{"addressType": "IPv4", "apiVersion": "discovery.k8s.io/v1", "endpoints": [{"targetRef": "X"}], "kind": "EndpointSlice", "metadata": {"name": "e"}}"#,
    ];
    for place in places {
        for (what, value) in &bad {
            let mut text = place.replace(r#""X""#, value).into_bytes();
            if *what == "utf8" {
                // Bytes that are not UTF-8 (the replacement character's first two bytes).
                let at = text.windows(3).position(|w| w == "\u{fffd}".as_bytes()).unwrap();
                text.splice(at..at + 3, [0xef, 0xbf]);
            }
            let checked = serde_json::from_slice::<Checked<2>>(&text).is_ok();
            let once = serde_json::from_slice::<CheckedItem>(&text).is_ok();
            let text = String::from_utf8_lossy(&text);
            assert_eq!(checked, *what == "ok", "{text}");
            if !checked {
                assert!(!once, "{what}: {text}");
            }
        }
    }
    // Keys of the item itself, named twice.
    for text in [
        r#"{"apiVersion": "v1", "kind": "Node", "kind": "Node", "metadata": {"name": "n"}}"#,
        r#"{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "metadata": {"name": "n"}}"#,
        r#"{"x": 1, "x": 1, "apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}"#,
        r#"{"addressType": "IPv4", "apiVersion": "discovery.k8s.io/v1", "addressType": "IPv4", "kind": "EndpointSlice"}"#,
    ] {
        assert!(serde_json::from_str::<Checked<2>>(text).is_err(), "{text}");
        assert!(serde_json::from_str::<CheckedItem>(text).is_err(), "{text}");
    }
}

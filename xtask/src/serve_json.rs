//! The size of the JSON of the objects `serve` watches, measured without kubectl: a paged LIST of
//! Nodes, Services and EndpointSlices through the bench's own client, each item measured as it
//! arrives and dropped with its page (memory bounded by one page). At 130,000 Nodes `kubectl get
//! nodes,services,endpointslices -A -o json` holds about 12 GB and cannot finish beside the
//! apiserver on 24 GiB, so the steady-RSS goal (≤ 0.1× that JSON) needs a denominator of its own.
//!
//! Two sizes: `compact`, the items as the apiserver sends them, and `kubectl`, the same items as
//! `kubectl get -o json` prints them (its `apiVersion` and `kind` on each item, four spaces of
//! indent, the items two levels deep in a `List`), which is what the row compared with before.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::Value;

/// Items per LIST page (kubectl's default chunk size).
const PAGE: usize = 500;

/// The three kinds: their collection path, `apiVersion` and `kind`.
const KINDS: [(&str, &str, &str); 3] = [
    ("/api/v1/nodes", "v1", "Node"),
    ("/api/v1/services", "v1", "Service"),
    ("/apis/discovery.k8s.io/v1/endpointslices", "discovery.k8s.io/v1", "EndpointSlice"),
];

/// Bytes of JSON of the objects watched.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct JsonSize {
    pub items: u64,
    /// The items as the apiserver sends them (no whitespace).
    pub compact: u64,
    /// As `kubectl get nodes,services,endpointslices -A -o json` prints them.
    pub kubectl: u64,
}

/// Counts what is written to it, and its newlines.
#[derive(Default)]
struct Counter {
    bytes: u64,
    newlines: u64,
}

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += buf.len() as u64;
        self.newlines += buf.iter().filter(|b| **b == b'\n').count() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// One page of a LIST, only what is measured.
#[derive(serde::Deserialize)]
struct Page {
    #[serde(default)]
    metadata: PageMeta,
    #[serde(default)]
    items: Vec<Value>,
}

#[derive(serde::Deserialize, Default)]
struct PageMeta {
    #[serde(rename = "continue")]
    next: Option<String>,
}

/// Every page of the three kinds, measured.
pub(crate) async fn measure(client: &kube::Client) -> io::Result<JsonSize> {
    let mut size = JsonSize::default();
    for (path, api_version, kind) in KINDS {
        let mut next: Option<String> = None;
        loop {
            let mut uri = format!("{path}?limit={PAGE}");
            if let Some(token) = &next {
                uri.push_str("&continue=");
                uri.push_str(&percent(token));
            }
            let request = http::Request::get(&uri).body(Vec::new()).map_err(io::Error::other)?;
            let text = client.request_text(request).await.map_err(io::Error::other)?;
            let page: Page = serde_json::from_str(&text).map_err(io::Error::other)?;
            drop(text);
            for item in page.items {
                add(&mut size, item, api_version, kind)?;
            }
            next = page.metadata.next.filter(|t| !t.is_empty());
            if next.is_none() {
                break;
            }
        }
    }
    // The List around them: `{"apiVersion": "v1", "items": [` … `], "kind": "List", "metadata":
    // {"resourceVersion": ""}}` as kubectl writes it.
    size.kubectl += LIST_AROUND;
    Ok(size)
}

/// The bytes of kubectl's `List` around its items, less the `,` and newline [`add`] counts after
/// the last item (which has none).
const LIST_AROUND: u64 = 123;

/// One item: compact as listed, and as kubectl prints it two levels deep with its kind.
fn add(size: &mut JsonSize, mut item: Value, api_version: &str, kind: &str) -> io::Result<()> {
    let mut compact = Counter::default();
    serde_json::to_writer(&mut compact, &item).map_err(io::Error::other)?;
    if let Some(object) = item.as_object_mut() {
        object.insert("apiVersion".into(), api_version.into());
        object.insert("kind".into(), kind.into());
        // kubectl leaves them out unless `--show-managed-fields`.
        if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.remove("managedFields");
        }
    }
    let mut pretty = Counter::default();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    item.serialize(&mut serde_json::Serializer::with_formatter(&mut pretty, formatter))
        .map_err(io::Error::other)?;
    // Every line indented two more levels (8 spaces), and `,\n` after each item.
    let lines = pretty.newlines + 1;
    size.items += 1;
    size.compact += compact.bytes;
    size.kubectl += pretty.bytes + 8 * lines + 2;
    Ok(())
}

/// A continue token (base64: `+`, `/`, `=`) as a query value.
fn percent(token: &str) -> String {
    token.bytes().fold(String::new(), |mut out, b| {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_counts_as_kubectl_prints_it_in_a_list() {
        let item = serde_json::json!({"metadata": {"name": "a", "managedFields": [{}]}, "spec": {}});
        let mut size = JsonSize::default();
        add(&mut size, item, "v1", "Node").expect("counted");
        let compact = r#"{"metadata":{"managedFields":[{}],"name":"a"},"spec":{}}"#;
        // What kubectl writes for that item inside its List, with the `,\n` after it.
        let printed = "        {\n            \"apiVersion\": \"v1\",\n            \"kind\": \"Node\",\n            \"metadata\": {\n                \"name\": \"a\"\n            },\n            \"spec\": {}\n        },\n";
        assert_eq!((size.items, size.compact, size.kubectl), (1, compact.len() as u64, printed.len() as u64));
        assert_eq!(percent("a+b/c="), "a%2Bb%2Fc%3D");
    }
}

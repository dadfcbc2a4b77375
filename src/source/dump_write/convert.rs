//! `dump -f DUMP` without `--redact`: the dump as it is, converted (a YAML dump to JSON with
//! `-o json`, read back much faster) and narrowed to the namespace in scope (`-n`, else `default`
//! as for every dump; `-A` keeps every namespace). Cluster-scoped objects (Nodes, the `ClusterInfo`
//! item) are kept. The dump reader checks the dump first, so a broken one gets its error (line,
//! column, what to do) and its memory bounds; the objects are then parsed whole, within the YAML
//! parser's budget for this size.

use std::io::Read;
use std::path::PathBuf;

use serde_json::Value;

use crate::source::{DumpPath, SourceError};

/// The dump at `path`, narrowed to `namespace` (every namespace for `None`), for
/// [`super::write_converted`].
pub(crate) fn read_narrowed(path: &DumpPath, namespace: Option<&str>) -> Result<Value, SourceError> {
    let (text, origin) = read_text(path)?;
    crate::source::dump::parse_dump(&text, &origin)?;
    let mut documents: Vec<Value> = match serde_json::from_str(&text) {
        Ok(value) => vec![value],
        Err(_) => crate::source::dump::yaml_documents(&text, &origin)?,
    };
    documents.retain(|d| !d.is_null());
    let mut value = match documents.len() {
        1 => documents.remove(0),
        _ => serde_json::json!({"apiVersion": "v1", "kind": "List", "metadata": {}, "items": documents}),
    };
    if let Some(namespace) = namespace {
        narrow(&mut value, namespace);
    }
    Ok(value)
}

fn read_text(path: &DumpPath) -> Result<(String, String), SourceError> {
    match path {
        DumpPath::Stdin => {
            let mut text = String::new();
            std::io::stdin()
                .lock()
                .read_to_string(&mut text)
                .map_err(|source| SourceError::Read { path: PathBuf::from("-"), source })?;
            Ok((text, "stdin".to_string()))
        }
        DumpPath::File(file) => {
            let text = std::fs::read_to_string(file)
                .map_err(|source| SourceError::Read { path: file.clone(), source })?;
            Ok((text, file.display().to_string()))
        }
    }
}

/// Keep, in a List (and the Lists it holds), the items without a namespace or in `namespace`.
fn narrow(value: &mut Value, namespace: &str) {
    let Some(items) = value.get_mut("items").and_then(Value::as_array_mut) else { return };
    items.retain(|item| match item.pointer("/metadata/namespace").and_then(Value::as_str) {
        None | Some("") => true,
        Some(ns) => ns == namespace,
    });
    items.iter_mut().for_each(|item| narrow(item, namespace));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn namespaced_items_of_other_namespaces_are_left_out() {
        let mut list = json!({"kind": "List", "items": [
            {"kind": "Node", "metadata": {"name": "n"}},
            {"kind": "Service", "metadata": {"name": "a", "namespace": "demo"}},
            {"kind": "Service", "metadata": {"name": "b", "namespace": "other"}},
            {"kind": "ServiceList", "items": [{"metadata": {"name": "c", "namespace": "other"}}]}]});
        narrow(&mut list, "demo");
        let names: Vec<&str> = list["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|i| i.pointer("/metadata/name")?.as_str())
            .collect();
        assert_eq!(names, ["n", "a"]);
        assert_eq!(list["items"][2]["items"], json!([]));
    }
}

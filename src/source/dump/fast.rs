//! The fast path for the common large dump: one JSON `List` (what `kubectl get -o json` and
//! `kubectl topo dump -o json` write). Items are kept as slices of the input text and decoded
//! straight into the k8s-openapi types, so no `serde_json::Value` tree of the whole dump is built.
//! Anything unusual in an item (nested lists, non-objects, a decoding error) goes through the
//! general reader, so results and messages are the same as without this path.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{DumpError, Kind, Reader, kind_of};

#[derive(Deserialize)]
struct List<'a> {
    #[serde(rename = "apiVersion")]
    api_version: Option<String>,
    kind: Option<String>,
    #[serde(borrow)]
    items: Option<Vec<&'a RawValue>>,
}

#[derive(Deserialize)]
struct TypeMeta {
    #[serde(rename = "apiVersion")]
    api_version: Option<serde_json::Value>,
    kind: Option<serde_json::Value>,
}

/// Reads `text` if it is a single JSON List; `None` leaves it to the general reader.
pub(super) fn read_list(text: &str, reader: &mut Reader<'_>) -> Option<Result<(), DumpError>> {
    let list: List<'_> = serde_json::from_str(text).ok()?;
    let (api_version, kind, items) = (list.api_version?, list.kind?, list.items?);
    if !kind.ends_with("List") {
        return None;
    }
    let item_kind = kind.trim_end_matches("List");
    let inherited = (kind != "List").then_some((api_version.as_str(), item_kind));
    Some(items.into_iter().try_for_each(|item| read_item(item.get(), inherited, reader)))
}

fn read_item(raw: &str, inherited: Option<(&str, &str)>, reader: &mut Reader<'_>) -> Result<(), DumpError> {
    let slow = |reader: &mut Reader<'_>| match serde_json::from_str(raw) {
        Ok(value) => reader.read(value, inherited, 1),
        Err(_) => Ok(()),
    };
    let Ok(meta) = serde_json::from_str::<TypeMeta>(raw) else { return slow(reader) };
    let text = |v: &Option<serde_json::Value>| v.as_ref().and_then(|v| v.as_str().map(str::to_string));
    let (api_version, kind) = match (text(&meta.api_version), text(&meta.kind), inherited) {
        (Some(a), Some(k), _) => (a, k),
        (None, None, Some((a, k))) if meta.api_version.is_none() && meta.kind.is_none() => {
            (a.to_string(), k.to_string())
        }
        _ => return slow(reader),
    };
    if kind.ends_with("List") {
        return slow(reader);
    }
    match kind_of(&api_version, &kind) {
        Some(kind) if decode(kind, raw, reader) => Ok(()),
        _ => slow(reader),
    }
}

/// Decodes a known kind straight from its text; false when it does not decode (the general
/// reader then reports it exactly as it always has).
fn decode(kind: Kind, raw: &str, reader: &mut Reader<'_>) -> bool {
    reader.decode_text(kind, raw)
}

//! One item of a JSON `List` read by [`super::stream`]: decoded from its text straight into the
//! k8s-openapi types (in one pass when [`super::item`] can), so no `serde_json::Value` tree of it is
//! built. Anything unusual in an item (nested lists, non-objects, a decoding error) goes through
//! the general reader, so results and messages are the same as without this path.

use serde::Deserialize;
use serde::de::{Deserializer as _, IgnoredAny, MapAccess, Visitor};

use super::{DumpError, Inherited, Reader, kind_of};

#[derive(Deserialize)]
struct TypeMeta {
    #[serde(rename = "apiVersion")]
    api_version: Option<serde_json::Value>,
    kind: Option<serde_json::Value>,
}

/// Reads one list item from its JSON text: in one pass when it can be, else its type first.
pub(super) fn read_item(
    raw: &str,
    inherited: Inherited<'_>,
    reader: &mut Reader<'_>,
) -> Result<(), DumpError> {
    if super::item::read_in_one_pass(raw, inherited, reader) {
        return Ok(());
    }
    read_item_two_pass(raw, inherited, reader)
}

/// Whether an item names its own `apiVersion` and `kind` (as strings), or is not an object: what
/// a whole read makes of it then does not depend on the List's type.
pub(super) fn names_its_type(raw: &str) -> bool {
    if !raw.starts_with('{') {
        return true;
    }
    let mut named = false;
    // Stopping once both are read leaves the object half read, which serde_json reports: the
    // answer is in `named`. The text has been checked, so no key is given twice.
    let _ = serde_json::Deserializer::from_str(raw).deserialize_map(TypeNamed(&mut named));
    named
}

/// Reads an object's entries until its `apiVersion` and `kind` are both read as strings (kubectl
/// writes them first), skipping the others without building them.
struct TypeNamed<'a>(&'a mut bool);

impl<'de> Visitor<'de> for TypeNamed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a Kubernetes object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let (mut api_version, mut kind) = (false, false);
        while let Some(key) = map.next_key::<String>()? {
            if key != "apiVersion" && key != "kind" {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            if !map.next_value::<serde_json::Value>()?.is_string() {
                return Ok(());
            }
            *(if key == "kind" { &mut kind } else { &mut api_version }) = true;
            if api_version && kind {
                *self.0 = true;
                return Ok(());
            }
        }
        Ok(())
    }
}

/// Reads one list item: its type first ([`item_type`]), then the item.
pub(super) fn read_item_two_pass(
    raw: &str,
    inherited: Inherited<'_>,
    reader: &mut Reader<'_>,
) -> Result<(), DumpError> {
    match item_type(raw, inherited) {
        Some((api_version, kind)) => read_typed(raw, (&api_version, &kind), inherited, reader),
        None => slow(raw, inherited, reader),
    }
}

/// The item's `(apiVersion, kind)`: its own when it names both, the list's when it names neither;
/// `None` for anything else (the general reader then decides what it is).
pub(super) fn item_type(raw: &str, inherited: Inherited<'_>) -> Option<(String, String)> {
    let meta = serde_json::from_str::<TypeMeta>(raw).ok()?;
    let text = |v: &Option<serde_json::Value>| v.as_ref().and_then(|v| v.as_str().map(str::to_string));
    match (text(&meta.api_version), text(&meta.kind), inherited) {
        (Some(a), Some(k), _) => Some((a, k)),
        (None, None, Some((a, k))) if meta.api_version.is_none() && meta.kind.is_none() => {
            Some((a.to_string(), k.to_string()))
        }
        _ => None,
    }
}

/// Reads an item whose `(apiVersion, kind)` [`item_type`] found. `inherited` only matters to the
/// general reader when the item names neither.
pub(super) fn read_typed(
    raw: &str,
    (api_version, kind): (&str, &str),
    inherited: Inherited<'_>,
    reader: &mut Reader<'_>,
) -> Result<(), DumpError> {
    if kind.ends_with("List") {
        return slow(raw, inherited, reader);
    }
    match kind_of(api_version, kind) {
        // Decoded straight from its text; when it does not decode, the general reader reports it
        // exactly as it always has.
        Some(kind) if reader.decode_text(kind, raw) => Ok(()),
        _ => slow(raw, inherited, reader),
    }
}

/// Reads an item through the general reader. Its text has been checked by the streaming reader,
/// so it parses; were it not to, that is an error, never a silently dropped object.
fn slow(raw: &str, inherited: Inherited<'_>, reader: &mut Reader<'_>) -> Result<(), DumpError> {
    let value = serde_json::from_str(raw).map_err(|err| DumpError::Syntax {
        origin: reader.origin().to_string(),
        format: "JSON",
        line: 0,
        column: 0,
        message: super::json_message(&err),
    })?;
    reader.read(value, inherited, 1)
}

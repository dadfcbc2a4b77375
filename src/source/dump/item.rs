//! Decodes a list item in one pass: its entries are read up to its `apiVersion` and `kind` (kubectl
//! writes keys sorted, so a Node or Service starts with them), and the rest goes straight into the
//! k8s-openapi type, instead of a first scan of the whole item for its type.
//!
//! Only what the two-pass path in [`super::fast`] would decode directly is decoded here, to the
//! same object: an item naming a kind we read, once, with plain strings, or (in a typed list) naming
//! neither. Anything else gives up before recording anything and is left to that path.

use serde::de::value::{BorrowedStrDeserializer, MapAccessDeserializer};
use serde::de::{DeserializeSeed, Deserializer as _, Error as _, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::{Inherited, Kind, Reader, kind_of};

/// Decodes `raw` into `reader`; false when it gave up (nothing recorded).
pub(super) fn read_in_one_pass(raw: &str, inherited: Inherited<'_>, reader: &mut Reader<'_>) -> bool {
    let mut added = false;
    let visitor = ItemVisitor { inherited, reader, added: &mut added };
    // Giving up leaves the object half read, which serde_json reports: that error only means "no".
    let _ = serde_json::Deserializer::from_str(raw).deserialize_map(visitor);
    added
}

struct ItemVisitor<'a, 'i, 'o> {
    inherited: Inherited<'i>,
    reader: &'a mut Reader<'o>,
    added: &'a mut bool,
}

impl<'de> Visitor<'de> for ItemVisitor<'_, '_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a Kubernetes object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if let Some((head, kind)) = read_head(&mut map, self.inherited)? {
            let rest = Rest { head: head.into_iter(), map, value: None };
            *self.added = self.reader.decode_from(kind, MapAccessDeserializer::new(rest));
        }
        Ok(())
    }
}

/// A key and its value, as text.
type Entry<'de> = (&'de str, &'de RawValue);

/// Reads entries up to the item's own `apiVersion` and `kind`, keeping the others; or, when the
/// first entry is another one and the list has a kind (`NodeList`), takes the list's. `None` when
/// neither, or not a kind this decodes.
fn read_head<'de, A: MapAccess<'de>>(
    map: &mut A,
    inherited: Inherited<'_>,
) -> Result<Option<(Vec<Entry<'de>>, Kind)>, A::Error> {
    let mut head = Vec::new();
    let (mut api_version, mut kind) = (None, None);
    while let Some(key) = map.next_key::<&'de str>()? {
        if key == "apiVersion" || key == "kind" {
            let slot = if key == "kind" { &mut kind } else { &mut api_version };
            if slot.replace(map.next_value::<&'de str>()?).is_some() {
                return Ok(None);
            }
            if let (Some(api_version), Some(kind)) = (api_version, kind) {
                return Ok(kind_of(api_version, kind).map(|kind| (head, kind)));
            }
            continue;
        }
        head.push((key, map.next_value()?));
        if let (Some((api_version, kind)), [_], None, None) = (inherited, &head[..], api_version, kind) {
            return Ok(kind_of(api_version, kind).map(|kind| (head, kind)));
        }
    }
    Ok(None)
}

/// The item's other entries: those read before its type, then the rest of the object. Its type
/// named again gives up (the two-pass path does not decode such an item directly).
struct Rest<'de, A> {
    head: std::vec::IntoIter<Entry<'de>>,
    map: A,
    /// The value of the last entry taken from `head`.
    value: Option<&'de RawValue>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Rest<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        let key = match self.head.next() {
            Some((key, value)) => {
                self.value = Some(value);
                key
            }
            None => match self.map.next_key::<&'de str>()? {
                Some("apiVersion" | "kind") => {
                    return Err(A::Error::custom("apiVersion or kind named again"));
                }
                Some(key) => key,
                None => return Ok(None),
            },
        };
        seed.deserialize(BorrowedStrDeserializer::new(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.value.take() {
            Some(value) => seed.deserialize(value).map_err(A::Error::custom),
            None => self.map.next_value_seed(seed),
        }
    }
}

#[cfg(test)]
mod tests;

//! A List item parsed once: checked in the shared grammar ([`super::strict`]) while it is decoded
//! into its lean type, instead of cut out by the checking visitor and then decoded (two full
//! parses of every item). The streaming reader tries this first on every item that is whole in its
//! window and goes back to the checked cut on anything else, so what it accepts, refuses and
//! reports is unchanged.
//!
//! Decoded here: a Node, Service or EndpointSlice naming its own `apiVersion` and `kind` as plain
//! strings. kubectl writes keys sorted, so a Node or Service names both first, while an
//! EndpointSlice names `addressType` and `apiVersion` before its `endpoints` and `kind` after them:
//! entries before the type are kept as text (a few small ones) and decoded when the type is known,
//! and a `discovery.k8s.io/v1` object is decoded as the EndpointSlice it is expected to be, its
//! `kind` read when it comes and checked at the end.

use std::borrow::Cow;
use std::collections::VecDeque;

use serde::Deserialize;
use serde::de::value::{BorrowedStrDeserializer, MapAccessDeserializer};
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::strict::{Key, Keys, MAX_DEPTH, StrictDe};
use super::{Kind, kind_of, reader::Lean};

/// An item read in one pass, at depth 2 (in a List's `items`); any error means "not here", never
/// what is wrong with the item (the checked path says that).
pub(super) struct CheckedItem(pub(super) Lean);

impl<'de> Deserialize<'de> for CheckedItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ItemVisitor { depth: 2 }).map(CheckedItem)
    }
}

/// Entries read before the item's type is known, at most this many (kubectl writes one).
const HEAD: usize = 4;

struct ItemVisitor {
    /// The item's own depth.
    depth: usize,
}

impl<'de> Visitor<'de> for ItemVisitor {
    type Value = Lean;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a Node, Service or EndpointSlice")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Lean, A::Error> {
        if self.depth >= MAX_DEPTH {
            return Err(A::Error::custom("too deep"));
        }
        let mut item = Item { map, depth: self.depth + 1, keys: Keys::default(), head: VecDeque::new() };
        let mut types = Types::default();
        loop {
            let Some(key) = item.next_key()? else {
                return Err(A::Error::custom("no type"));
            };
            if types.take(key, &mut item.map)? {
                continue;
            }
            if let Some(kind) = types.decided() {
                let rest = Rest { item, types, next: Some(key), raw: None };
                return rest.decode(kind);
            }
            if item.head.len() == HEAD {
                return Err(A::Error::custom("type not named early"));
            }
            let value = item.map.next_value::<&'de RawValue>()?;
            item.head.push_back((key, value));
        }
    }
}

/// The item's entries so far: each key once, the entries kept before its type was known.
struct Item<'de, A> {
    map: A,
    /// Depth of the item's values.
    depth: usize,
    keys: Keys<'de>,
    head: VecDeque<(&'de str, &'de RawValue)>,
}

impl<'de, A: MapAccess<'de>> Item<'de, A> {
    /// The next key, given once and without escapes.
    fn next_key(&mut self) -> Result<Option<&'de str>, A::Error> {
        let Some(Key(key)) = self.map.next_key()? else {
            return Ok(None);
        };
        if !self.keys.insert(key.clone()) {
            return Err(A::Error::custom("duplicate key"));
        }
        match key {
            Cow::Borrowed(key) => Ok(Some(key)),
            Cow::Owned(_) => Err(A::Error::custom("escaped key")),
        }
    }
}

/// The item's `apiVersion` and `kind`, as read so far.
#[derive(Default)]
struct Types<'de> {
    api_version: Option<&'de str>,
    kind: Option<&'de str>,
}

impl<'de> Types<'de> {
    /// Reads the value of `key` when it is `apiVersion` or `kind` (a plain string); false for
    /// any other key, whose value is left unread.
    fn take<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        let slot = match key {
            "apiVersion" => &mut self.api_version,
            "kind" => &mut self.kind,
            _ => return Ok(false),
        };
        *slot = Some(map.next_value::<&'de str>()?);
        Ok(true)
    }

    /// The kind to decode the item as, once it can be told.
    fn decided(&self) -> Option<Kind> {
        match (self.api_version?, self.kind) {
            (api_version, Some(kind)) => kind_of(api_version, kind),
            ("discovery.k8s.io/v1", None) => Some(Kind::EndpointSlice),
            _ => None,
        }
    }
}

/// The entries of an item whose type is decided: those kept, the one at hand, then the rest of
/// the object, `apiVersion` and `kind` taken out as they come.
struct Rest<'de, A> {
    item: Item<'de, A>,
    types: Types<'de>,
    /// The key read when the type was decided, its value not read yet.
    next: Option<&'de str>,
    /// The kept value of the key last handed out.
    raw: Option<&'de RawValue>,
}

impl<'de, A: MapAccess<'de>> Rest<'de, A> {
    fn decode(mut self, kind: Kind) -> Result<Lean, A::Error> {
        let lean = match kind {
            Kind::Node => Lean::Node(Deserialize::deserialize(MapAccessDeserializer::new(&mut self))?),
            Kind::Service => Lean::Service(Deserialize::deserialize(MapAccessDeserializer::new(&mut self))?),
            Kind::EndpointSlice => {
                Lean::Slice(Deserialize::deserialize(MapAccessDeserializer::new(&mut self))?)
            }
            _ => return Err(A::Error::custom("not a kind read in one pass")),
        };
        // The type named as decided, and the object read to its end.
        let named = self.types.api_version.zip(self.types.kind).and_then(|(a, k)| kind_of(a, k));
        match (named, kind) {
            (Some(Kind::Node), Kind::Node)
            | (Some(Kind::Service), Kind::Service)
            | (Some(Kind::EndpointSlice), Kind::EndpointSlice) => Ok(lean),
            _ => Err(A::Error::custom("not the kind decided")),
        }
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for &mut Rest<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        let key = if let Some((key, raw)) = self.item.head.pop_front() {
            self.raw = Some(raw);
            key
        } else if let Some(key) = self.next.take() {
            key
        } else {
            loop {
                let Some(key) = self.item.next_key()? else {
                    return Ok(None);
                };
                if !self.types.take(key, &mut self.item.map)? {
                    break key;
                }
            }
        };
        seed.deserialize(BorrowedStrDeserializer::new(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        let depth = self.item.depth;
        match self.raw.take() {
            Some(raw) => seed.deserialize(StrictDe::at(raw, depth)).map_err(A::Error::custom),
            None => self.item.map.next_value_seed(Seeded { seed, depth }),
        }
    }
}

/// A value decoded with the grammar applied.
struct Seeded<S> {
    seed: S,
    depth: usize,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seeded<S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(StrictDe::at(deserializer, self.depth))
    }
}

#[cfg(test)]
mod tests;

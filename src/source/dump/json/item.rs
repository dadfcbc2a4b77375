//! One List item, read by one visitor: its entries before its `apiVersion` and `kind` are kept as
//! `Value`s, and once its type is known the rest goes straight into the lean type of a Node,
//! Service or EndpointSlice, or is skipped (a kind not read is counted; Events, ConfigMaps and
//! nested Lists are read again as a `Value`, [`classify`]). What is wrong with an object is its
//! outcome, with the field's path; a syntax error is the error.
//!
//! kubectl sorts keys, so an EndpointSlice names `endpoints` before its `kind`: a
//! `discovery.k8s.io/v1` item is decoded as an EndpointSlice once its `apiVersion` is read, and an
//! untyped item of a typed List (`NodeList`) as the List's kind. A wrong guess (another kind after
//! all) is read again as a `Value`; what is wrong with an object decoded on a guess is reported as
//! the guessed kind's.

use serde::de::value::{MapAccessDeserializer, StringDeserializer};
use serde::de::{DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;
use serde_json::error::Category;

use super::super::convert::object::{Decoded, Kind, kind_of, lean, lean_at_path, name_of};
use super::super::{Inherited, Outcome, classify, json_message};
use super::{at, offset};

/// What an item is.
pub(in super::super) enum Read {
    /// Decided: what to record, in order.
    Outcomes(Vec<Outcome>),
    /// It names no type of its own and the List's is not known yet: kept until it is.
    Untyped,
}

/// Reads the item at the start of `text`, and where it ends; `known`: whether the List's type is
/// known (`inherited`). What is wrong with the object is its outcome; the error is the text's.
pub(in super::super) fn read(
    text: &[u8],
    inherited: Inherited<'_>,
    known: bool,
) -> serde_json::Result<(Read, usize)> {
    let mut kind = None;
    let mut de = serde_json::Deserializer::from_slice(text);
    let read = match text.first() {
        Some(b'{') => (&mut de).deserialize_map(Item { inherited, known, kind: &mut kind }),
        _ => Ok(None),
    };
    match read {
        Ok(Some(read)) => Ok((read, offset(de))),
        Ok(None) => {
            let (value, end) = at::<Value>(text)?;
            let mut outcomes = Vec::new();
            classify(value, inherited, 1, &mut outcomes);
            Ok((Read::Outcomes(outcomes), end))
        }
        Err(error) => match kind {
            Some(kind) if error.classify() == Category::Data => {
                let (IgnoredAny, end) = at(text)?;
                Ok((Read::Outcomes(vec![refused(kind, &text[..end], &error)?]), end))
            }
            _ => Err(error),
        },
    }
}

/// The outcome of an object of `kind` that does not decode: read again on its own, the path of
/// the field is known. An error of the text (a number out of range, a lone surrogate) is the error.
fn refused(kind: Kind, item: &[u8], error: &serde_json::Error) -> serde_json::Result<Outcome> {
    let message = lean_at_path(kind, &mut serde_json::Deserializer::from_slice(item))?.err();
    let name = serde_json::from_slice(item).map(|value| name_of(&value)).unwrap_or_default();
    Ok(Outcome::Decoded(Decoded { kind, name, result: Err(message.unwrap_or_else(|| json_message(error))) }))
}

/// The visitor of an item; `None`: read the item again as a `Value`.
struct Item<'s, 'i> {
    inherited: Inherited<'i>,
    known: bool,
    /// The kind being decoded, for the error the visitor may return.
    kind: &'s mut Option<Kind>,
}

impl<'de> Visitor<'de> for Item<'_, '_> {
    type Value = Option<Read>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a Kubernetes object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<Read>, A::Error> {
        let (mut types, mut head, mut typed) = (Types::default(), Vec::new(), None);
        while let Some(key) = map.next_key::<String>()? {
            if types.take(&key, &mut map)? {
                match types.decided() {
                    Some(Ok(kind)) => typed = Some(kind),
                    Some(Err(read)) => {
                        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                        return Ok(read);
                    }
                    None => {}
                }
                continue;
            }
            if let Some(kind) = typed.or_else(|| self.guess(&types, head.is_empty())) {
                *self.kind = Some(kind);
                let rest = Rest {
                    map: &mut map,
                    types: &mut types,
                    head: head.into_iter(),
                    next: Some(key),
                    value: None,
                };
                let outcome = lean(kind, MapAccessDeserializer::new(rest))?;
                // Guessed wrong (another kind after all): read again as a `Value`.
                let right = typed.is_some()
                    || match types.decided() {
                        Some(decided) => decided.ok() == Some(kind),
                        None => types.api_version.is_none() && types.kind.is_none(),
                    };
                return Ok(right.then(|| Read::Outcomes(vec![Outcome::Decoded(outcome)])));
            }
            head.push((key, map.next_value()?));
        }
        let untyped = types.api_version.is_none() && types.kind.is_none();
        Ok((untyped && !self.known).then_some(Read::Untyped))
    }
}

impl Item<'_, '_> {
    /// The kind to decode the item as before its type is known: an EndpointSlice's from its
    /// `apiVersion`, or the List's when it begins without one.
    fn guess(&self, types: &Types, head_empty: bool) -> Option<Kind> {
        match (&types.api_version, &types.kind, self.inherited) {
            (Some(Value::String(api_version)), None, _) if api_version == "discovery.k8s.io/v1" => {
                Some(Kind::EndpointSlice)
            }
            (None, None, Some((api_version, kind))) if head_empty => {
                kind_of(api_version, kind).filter(|kind| lean_kind(*kind))
            }
            _ => None,
        }
    }
}

/// The kinds decoded straight into their lean types (the bulk of a dump).
fn lean_kind(kind: Kind) -> bool {
    matches!(kind, Kind::Node | Kind::Service | Kind::EndpointSlice)
}

/// The item's `apiVersion` and `kind` as read so far.
#[derive(Default)]
struct Types {
    api_version: Option<Value>,
    kind: Option<Value>,
}

impl Types {
    /// Reads the value of `key` when it is `apiVersion` or `kind`; false for any other key,
    /// whose value is left unread.
    fn take<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        let slot = match key {
            "apiVersion" => &mut self.api_version,
            "kind" => &mut self.kind,
            _ => return Ok(false),
        };
        if slot.is_some() {
            return Err(A::Error::custom(format!("duplicate field `{key}`")));
        }
        *slot = Some(map.next_value()?);
        Ok(true)
    }

    /// Once both are given: the lean kind to decode the item as (`Ok`), or, for an item not
    /// decoded straight into a lean type, whether it is counted (`Err(Some)`) or read again as a
    /// `Value` (`Err(None)`: Events, ConfigMaps, Lists, a type that is not text).
    fn decided(&self) -> Option<Result<Kind, Option<Read>>> {
        let (Some(api_version), Some(kind)) = (&self.api_version, &self.kind) else { return None };
        let (Value::String(api_version), Value::String(kind)) = (api_version, kind) else {
            return Some(Err(None));
        };
        Some(match kind_of(api_version, kind) {
            Some(kind) if lean_kind(kind) => Ok(kind),
            None if !kind.ends_with("List") => {
                Err(Some(Read::Outcomes(vec![Outcome::Skip(format!("{api_version} {kind}"))])))
            }
            _ => Err(None),
        })
    }
}

/// The entries of an item whose type is decided or guessed: those kept, the one at hand, then the
/// rest of the object, `apiVersion` and `kind` taken out as they come.
struct Rest<'a, A> {
    map: &'a mut A,
    types: &'a mut Types,
    head: std::vec::IntoIter<(String, Value)>,
    /// The key read when the type was decided, its value not read yet (until handed out).
    next: Option<String>,
    /// The kept value of the key last handed out.
    value: Option<Value>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Rest<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        if let Some((key, value)) = self.head.next() {
            self.value = Some(value);
            return seed.deserialize(StringDeserializer::new(key)).map(Some);
        }
        let key = match self.next.take() {
            Some(key) => key,
            None => loop {
                let Some(key) = self.map.next_key::<String>()? else {
                    return Ok(None);
                };
                if !self.types.take(&key, self.map)? {
                    break key;
                }
            },
        };
        seed.deserialize(StringDeserializer::new(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.value.take() {
            Some(value) => seed.deserialize(value).map_err(A::Error::custom),
            None => self.map.next_value_seed(seed),
        }
    }
}

//! One List item, read by one visitor from its text: its entries up to its `apiVersion` and `kind`
//! are kept (as `Value`s), and once its type is known the rest goes straight into the lean type of
//! a Node, Service or EndpointSlice, is checked and dropped (a kind not read), or becomes a
//! `Value` (the few other kinds read, nested Lists). The shared grammar ([`super::super::strict`])
//! is applied throughout, and a serde error is the message: a syntax or grammar error where it is,
//! or what is wrong with the object, with the path of the field.
//!
//! kubectl writes keys sorted, so a Node or Service names its type first, while an EndpointSlice
//! names `endpoints` before its `kind`: a `discovery.k8s.io/v1` item is decoded as an
//! EndpointSlice as soon as its `apiVersion` is read, and an item of a typed List (`NodeList`)
//! that begins without a type as the List's kind. Such a guess is checked at the end of the item:
//! when it was wrong (another kind after all), the item is read again from its text without
//! guessing. What is wrong with an object decoded on a guess is reported as the guessed kind's.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};
use serde_json::{Map, Value};

use super::super::convert::lean;
use super::super::outcome::{Object, Outcome};
use super::super::strict::{Check, Key, Keys, Strict, Tree, is_grammar};
use super::super::{Inherited, Kind, classify, json_message, kind_of};
use super::window::offset;

/// Depth of an item's values (the item is in a List's `items`).
const DEPTH: usize = 3;

/// What an item is.
pub(in super::super) enum Read {
    /// Decided: what to record, in order.
    Outcomes(Vec<Outcome>),
    /// It names no type of its own and the List's is not known yet: kept until it is.
    Untyped,
}

/// Reads the item at the start of `text`, and where it ends; `known`: whether the List's type is
/// known (`inherited`). What is wrong with the object is its outcome; the error is the text's
/// (syntax, or the shared grammar).
pub(in super::super) fn read(
    text: &[u8],
    inherited: Inherited<'_>,
    known: bool,
) -> serde_json::Result<(Read, usize)> {
    if text.first() != Some(&b'{') {
        // Not an object: what it is does not depend on the List.
        let mut de = serde_json::Deserializer::from_slice(text);
        let value = Strict::<Tree>::at(DEPTH - 1).deserialize(&mut de)?;
        let mut outcomes = Vec::new();
        classify(value, inherited, 1, &mut outcomes);
        return Ok((Read::Outcomes(outcomes), offset(de)));
    }
    let mut kind = None;
    let mut guess = true;
    let read = match read_once(text, inherited, known, guess, &mut kind, None) {
        // The guess was wrong.
        Ok((None, _)) => {
            guess = false;
            read_once(text, inherited, known, guess, &mut kind, None)
        }
        read => read,
    };
    let error = match read {
        Ok((read, end)) => return Ok((read.unwrap_or(Read::Outcomes(Vec::new())), end)),
        Err(error) => error,
    };
    let message = json_message(&error);
    let data = matches!(error.classify(), serde_json::error::Category::Data);
    let Some(kind) = kind.filter(|_| data && !is_grammar(&message)) else {
        return Err(error);
    };
    // The object is at fault only when its text parses to its end.
    let mut de = serde_json::Deserializer::from_slice(text);
    Strict::<Check>::at(DEPTH - 1).deserialize(&mut de)?;
    let end = offset(de);
    // Read again, as it was read, to know the path of the field.
    let mut track = serde_path_to_error::Track::new();
    let _ = read_once(&text[..end], inherited, known, guess, &mut None, Some(&mut track));
    let message = match track.path().to_string().as_str() {
        "." | "" => message,
        path => format!("{path}: {message}"),
    };
    let name = name_in(&text[..end]);
    Ok((Read::Outcomes(vec![Outcome::Decoded { kind, name, result: Err(message) }]), end))
}

/// One read of the item, and where it ends; `None` when a guess was wrong. With `track`, the path
/// of the field an error is in is tracked (a string per key: only done again once an error is
/// known).
fn read_once(
    text: &[u8],
    inherited: Inherited<'_>,
    known: bool,
    guess: bool,
    kind: &mut Option<Kind>,
    track: Option<&mut serde_path_to_error::Track>,
) -> serde_json::Result<(Option<Read>, usize)> {
    let mut de = serde_json::Deserializer::from_slice(text);
    let seed = ItemSeed { inherited, known, guess, kind };
    let read = match track {
        Some(track) => seed.deserialize(serde_path_to_error::Deserializer::new(&mut de, track)),
        None => seed.deserialize(&mut de),
    }?;
    Ok((read, offset(de)))
}

struct ItemSeed<'s, 'i> {
    inherited: Inherited<'i>,
    known: bool,
    guess: bool,
    /// The kind being decoded, for the error the visitor may return.
    kind: &'s mut Option<Kind>,
}

impl<'de> DeserializeSeed<'de> for ItemSeed<'_, '_> {
    type Value = Option<Read>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<Read>, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ItemSeed<'_, '_> {
    type Value = Option<Read>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a Kubernetes object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Option<Read>, A::Error> {
        let mut item = Item { map, keys: Keys::default(), head: Vec::new(), types: Types::default() };
        loop {
            let Some(key) = item.next_key()? else {
                return self.decided(item, None);
            };
            if item.types.take(&key, &mut item.map)? {
                if item.types.decided() {
                    return self.decided(item, None);
                }
                continue;
            }
            if let Some(kind) = self.guess(&item) {
                *self.kind = Some(kind);
                let lean = lean_from(kind, Rest::new(&mut item, Some(key)))?;
                let right = match kind {
                    Kind::EndpointSlice => item.types.is(("discovery.k8s.io/v1", "EndpointSlice")),
                    _ => item.types.is_untyped(),
                };
                return Ok(right.then(|| Read::Outcomes(vec![outcome(kind, lean)])));
            }
            let value = item.map.next_value_seed(Strict::<Tree>::at(DEPTH))?;
            item.head.push((key.into_owned(), value));
        }
    }
}

impl ItemSeed<'_, '_> {
    /// The kind to decode the item as before its type is known, when guessing.
    fn guess<A>(&self, item: &Item<'_, A>) -> Option<Kind> {
        if !self.guess {
            return None;
        }
        match (&item.types.api_version, &item.types.kind, self.inherited) {
            (Some(Value::String(api_version)), None, _) if api_version == "discovery.k8s.io/v1" => {
                Some(Kind::EndpointSlice)
            }
            (None, None, Some((api_version, kind))) if item.head.is_empty() => {
                kind_of(api_version, kind).filter(|kind| lean_kind(*kind))
            }
            _ => None,
        }
    }

    /// Reads the rest of an item whose type is decided (or which has ended: `pending` is `None`
    /// and the map is read to its end).
    fn decided<'de, A: MapAccess<'de>>(
        self,
        mut item: Item<'de, A>,
        pending: Option<Cow<'de, str>>,
    ) -> Result<Option<Read>, A::Error> {
        let text = |v: &Option<Value>| v.as_ref().and_then(Value::as_str).map(str::to_string);
        let (api_version, kind) = (text(&item.types.api_version), text(&item.types.kind));
        let read = match (api_version, kind) {
            (Some(api_version), Some(kind)) => match kind_of(&api_version, &kind) {
                Some(kind) if lean_kind(kind) => {
                    *self.kind = Some(kind);
                    let lean = lean_from(kind, Rest::new(&mut item, pending))?;
                    return Ok(Some(Read::Outcomes(vec![outcome(kind, lean)])));
                }
                None if !kind.ends_with("List") && (api_version.as_str(), kind.as_str()) != RETIRED => {
                    item.check_rest(pending)?;
                    Read::Outcomes(vec![Outcome::Skip(format!("{api_version} {kind}"))])
                }
                _ => self.classified(item.into_tree(pending)?),
            },
            (None, None) if !self.known => {
                item.check_rest(pending)?;
                Read::Untyped
            }
            _ => self.classified(item.into_tree(pending)?),
        };
        Ok(Some(read))
    }

    fn classified(&self, value: Value) -> Read {
        let mut outcomes = Vec::new();
        classify(value, self.inherited, 1, &mut outcomes);
        Read::Outcomes(outcomes)
    }
}

/// A `discovery.k8s.io/v1beta1` EndpointSlice: refused, with its name.
const RETIRED: (&str, &str) = ("discovery.k8s.io/v1beta1", "EndpointSlice");

/// The kinds decoded straight into their lean types (the bulk of a dump).
fn lean_kind(kind: Kind) -> bool {
    matches!(kind, Kind::Node | Kind::Service | Kind::EndpointSlice)
}

/// A Node, Service or EndpointSlice decoded into its lean type.
enum Lean {
    Node(lean::Node),
    Service(lean::Service),
    Slice(lean::EndpointSlice),
}

fn lean_from<'de, M: MapAccess<'de>>(kind: Kind, rest: M) -> Result<Lean, M::Error> {
    let de = MapAccessDeserializer::new(rest);
    Ok(match kind {
        Kind::Node => Lean::Node(Deserialize::deserialize(de)?),
        Kind::Service => Lean::Service(Deserialize::deserialize(de)?),
        _ => Lean::Slice(Deserialize::deserialize(de)?),
    })
}

/// The model object of a lean one, or why not.
fn outcome(kind: Kind, lean: Lean) -> Outcome {
    const NAMELESS: &str = "metadata.name is missing";
    let (name, result) = match lean {
        Lean::Node(node) => {
            let name = node.name().to_string();
            let result = match node.has_name() {
                true => node.into_model().map(Object::Node).map_err(|err| err.to_string()),
                false => Err(NAMELESS.to_string()),
            };
            (name, result)
        }
        Lean::Service(service) => match service.has_name() {
            true => {
                let service = service.into_model();
                (service.name.clone(), Ok(Object::Service(service)))
            }
            false => (String::new(), Err(NAMELESS.to_string())),
        },
        Lean::Slice(slice) => match slice.has_name() {
            true => {
                let slice = slice.into_model();
                (slice.name.clone(), Ok(Object::Slice(slice)))
            }
            false => (String::new(), Err(NAMELESS.to_string())),
        },
    };
    Outcome::Decoded { kind, name, result: result.map(|object| Some(Box::new(object))) }
}

/// `metadata.name` of an item whose text parses, empty when it cannot be told.
fn name_in(text: &[u8]) -> String {
    #[derive(Deserialize)]
    struct Named {
        metadata: Option<Meta>,
    }
    #[derive(Deserialize)]
    struct Meta {
        name: Option<Value>,
    }
    let named = serde_json::from_slice::<Named>(text).ok();
    let name = named.and_then(|n| n.metadata).and_then(|m| m.name);
    name.as_ref().and_then(Value::as_str).unwrap_or_default().to_string()
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
        *slot = Some(map.next_value_seed(Strict::<Tree>::at(DEPTH))?);
        Ok(true)
    }

    /// Both given: what the item is no longer depends on what follows.
    fn decided(&self) -> bool {
        self.api_version.is_some() && self.kind.is_some()
    }

    fn is(&self, (api_version, kind): (&str, &str)) -> bool {
        self.api_version.as_ref().and_then(Value::as_str) == Some(api_version)
            && self.kind.as_ref().and_then(Value::as_str) == Some(kind)
    }

    /// Neither given as text: the item takes the List's type.
    fn is_untyped(&self) -> bool {
        !self.api_version.as_ref().is_some_and(Value::is_string)
            && !self.kind.as_ref().is_some_and(Value::is_string)
    }
}

/// The item's entries so far: each key once, the entries read before its type was known.
struct Item<'de, A> {
    map: A,
    keys: Keys<'de>,
    head: Vec<(String, Value)>,
    types: Types,
}

impl<'de, A: MapAccess<'de>> Item<'de, A> {
    /// The next key, given once.
    fn next_key(&mut self) -> Result<Option<Cow<'de, str>>, A::Error> {
        let Some(Key(key)) = self.map.next_key()? else {
            return Ok(None);
        };
        if !self.keys.insert(key.clone()) {
            return Err(A::Error::custom(super::super::strict::duplicate_key(&key)));
        }
        Ok(Some(key))
    }

    /// Checks the rest of the item in the grammar, building nothing.
    fn check_rest(&mut self, pending: Option<Cow<'de, str>>) -> Result<(), A::Error> {
        if pending.is_some() {
            self.map.next_value_seed(Strict::<Check>::at(DEPTH))?;
        }
        while self.next_key()?.is_some() {
            self.map.next_value_seed(Strict::<Check>::at(DEPTH))?;
        }
        Ok(())
    }

    /// The whole item as a `Value`.
    fn into_tree(mut self, pending: Option<Cow<'de, str>>) -> Result<Value, A::Error> {
        let mut entries: Map<String, Value> = self.head.drain(..).collect();
        let types = [("apiVersion", self.types.api_version.take()), ("kind", self.types.kind.take())];
        entries.extend(types.into_iter().filter_map(|(key, value)| Some((key.to_string(), value?))));
        let mut next = pending;
        loop {
            let Some(key) = next.take().map_or_else(|| self.next_key(), |key| Ok(Some(key)))? else {
                break;
            };
            let value = self.map.next_value_seed(Strict::<Tree>::at(DEPTH))?;
            entries.insert(key.into_owned(), value);
        }
        Ok(Value::Object(entries))
    }
}

mod rest;
use rest::Rest;

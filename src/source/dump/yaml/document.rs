//! One YAML document decided as it is parsed: a mapping's entries are kept as `Value`s, except the
//! `items` of a (possible) List, which are decided one by one; anything else becomes one `Value`.
//! Every `Value` is built by serde_json's own visitor (through serde's value deserializers), so
//! it is exactly what deserializing the document into a `Value` would hold.

use std::fmt;

use serde::de::value::{
    BoolDeserializer, F64Deserializer, I64Deserializer, I128Deserializer, MapAccessDeserializer,
    SeqAccessDeserializer, StrDeserializer, StringDeserializer, U64Deserializer, U128Deserializer,
};
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::super::{Outcome, classify};

/// The objects of every document, decided, in order.
#[derive(Default)]
pub(in super::super) struct Documents(pub(in super::super) Vec<Outcome>);

impl Extend<Document> for Documents {
    fn extend<I: IntoIterator<Item = Document>>(&mut self, documents: I) {
        for Document(outcomes) in documents {
            self.0.extend(outcomes);
        }
    }
}

/// The objects of one document, decided.
pub(in super::super) struct Document(Vec<Outcome>);

impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Shape(Top)).map(Document)
    }
}

/// What a visitor makes of a mapping, and of any other value (as a `Value`).
trait Visit<'de> {
    type Out;
    fn map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Out, A::Error>;
    fn other(self, value: Value) -> Self::Out;
}

/// A document: a mapping is read entry by entry, anything else decided whole.
struct Top;

impl<'de> Visit<'de> for Top {
    type Out = Vec<Outcome>;
    fn map<A: MapAccess<'de>>(self, map: A) -> Result<Vec<Outcome>, A::Error> {
        read_object(map)
    }
    fn other(self, value: Value) -> Vec<Outcome> {
        let mut out = Vec::new();
        classify(value, None, 0, &mut out);
        out
    }
}

/// The `items` of what may be a List, read one by one when they are a sequence.
struct ItemsOf {
    /// The List's type, when known as its items begin (see [`Head::list_type`]).
    known: Option<Option<(String, String)>>,
}

/// What `items` held.
enum Items {
    /// A sequence: its items decided so far, and those kept until the List's type is known.
    Read { decided: Vec<Outcome>, kept: Vec<Value> },
    /// Anything else.
    Other(Value),
}

impl<'de> DeserializeSeed<'de> for ItemsOf {
    type Value = Items;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Items, D::Error> {
        deserializer.deserialize_any(Shape(self))
    }
}

impl<'de> Visit<'de> for ItemsOf {
    type Out = Items;
    fn map<A: MapAccess<'de>>(self, map: A) -> Result<Items, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(Items::Other)
    }
    fn other(self, value: Value) -> Items {
        Items::Other(value)
    }
}

impl ItemsOf {
    fn read_seq<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<Items, A::Error> {
        let (mut decided, mut kept) = (Vec::new(), Vec::new());
        while let Some(item) = seq.next_element::<Value>()? {
            match &self.known {
                Some(inherit) => {
                    let inherited = inherit.as_ref().map(|(a, k)| (a.as_str(), k.as_str()));
                    classify(item, inherited, 1, &mut decided);
                }
                None if kept.is_empty() && names_its_type(&item) => classify(item, None, 1, &mut decided),
                None => kept.push(item),
            }
        }
        Ok(Items::Read { decided, kept })
    }
}

/// Whether what a read makes of `item` does not depend on the List's type: it is not an object,
/// or it names its own `apiVersion` and `kind`.
fn names_its_type(item: &Value) -> bool {
    let text = |key| item.get(key).is_some_and(Value::is_string);
    !item.is_object() || (text("apiVersion") && text("kind"))
}

/// A top-level mapping's `apiVersion` and `kind` so far: `None` not given yet, `Some(None)` given
/// but not text.
#[derive(Default)]
struct Head {
    api_version: Option<Option<String>>,
    kind: Option<Option<String>>,
}

impl Head {
    fn note(&mut self, key: &str, value: &Value) {
        let text = || value.as_str().map(str::to_string);
        match key {
            "apiVersion" => self.api_version = Some(text()),
            "kind" => self.kind = Some(text()),
            _ => {}
        }
    }

    /// As a whole read decides once the object has ended: a List's type (`None` inside: a plain
    /// `List`, whose items name their own).
    fn list_type(&self) -> Option<Option<(String, String)>> {
        match (&self.api_version, &self.kind) {
            (Some(Some(api_version)), Some(Some(kind))) if kind.ends_with("List") => Some(
                (kind != "List").then(|| (api_version.clone(), kind.trim_end_matches("List").to_string())),
            ),
            _ => None,
        }
    }

    /// Whether the object may still turn out to be a List.
    fn may_be_list(&self) -> bool {
        !matches!(self.api_version, Some(None))
            && match &self.kind {
                None => true,
                Some(Some(kind)) => kind.ends_with("List"),
                Some(None) => false,
            }
    }
}

/// A top-level mapping, entry by entry (keys as serde_json's `Value` reads them: the first as a
/// `str`, the others as `String`s).
fn read_object<'de, A: MapAccess<'de>>(mut map: A) -> Result<Vec<Outcome>, A::Error> {
    let (mut entries, mut head, mut items) = (Map::new(), Head::default(), None);
    let mut first = true;
    loop {
        let key = if first { map.next_key_seed(FirstKey)? } else { map.next_key::<String>()? };
        first = false;
        let Some(key) = key else { break };
        if key == "items" && head.may_be_list() {
            match map.next_value_seed(ItemsOf { known: head.list_type() })? {
                Items::Other(value) => drop(entries.insert(key, value)),
                read => items = Some(read),
            }
            continue;
        }
        let value = map.next_value::<Value>()?;
        head.note(&key, &value);
        entries.insert(key, value);
    }
    let mut out = Vec::new();
    match (items, head.list_type()) {
        (Some(Items::Read { mut decided, kept }), Some(inherit)) => {
            let inherited = inherit.as_ref().map(|(a, k)| (a.as_str(), k.as_str()));
            for item in kept {
                classify(item, inherited, 1, &mut decided);
            }
            out = decided;
        }
        // Not a List after all: the object without the items it listed, as a whole read reads it.
        _ => classify(Value::Object(entries), None, 0, &mut out),
    }
    Ok(out)
}

/// The first key of a mapping, read as serde_json's `Value` reads it.
struct FirstKey;

impl<'de> DeserializeSeed<'de> for FirstKey {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for FirstKey {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        Ok(v)
    }
}

/// Dispatches on what the parser found: a mapping to [`Visit::map`], a sequence of items to
/// [`ItemsOf::read_seq`], anything else through serde_json's `Value` visitor to [`Visit::other`].
struct Shape<V>(V);

/// Builds the `Value` serde_json's visitor builds from what `$de` hands it.
macro_rules! through_value {
    ($self:ident, $de:expr) => {
        Value::deserialize($de).map(|value| $self.0.other(value))
    };
}

impl<'de, V: Visit<'de> + AsSeq<'de>> Visitor<'de> for Shape<V> {
    type Value = V::Out;

    // serde's default messages (bytes, enums) name what was expected: as serde_json's visitor.
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Out, E> {
        through_value!(self, BoolDeserializer::<E>::new(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Out, E> {
        through_value!(self, I64Deserializer::<E>::new(v))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<V::Out, E> {
        through_value!(self, I128Deserializer::<E>::new(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Out, E> {
        through_value!(self, U64Deserializer::<E>::new(v))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<V::Out, E> {
        through_value!(self, U128Deserializer::<E>::new(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Out, E> {
        through_value!(self, F64Deserializer::<E>::new(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Out, E> {
        through_value!(self, StrDeserializer::<E>::new(v))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Out, E> {
        through_value!(self, StringDeserializer::<E>::new(v))
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Out, E> {
        Ok(self.0.other(Value::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Out, D::Error> {
        through_value!(self, deserializer)
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Out, E> {
        Ok(self.0.other(Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Out, A::Error> {
        self.0.seq(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Out, A::Error> {
        self.0.map(map)
    }
}

/// What a visitor makes of a sequence: the items of a List, or a `Value`.
trait AsSeq<'de>: Visit<'de> {
    fn seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Out, A::Error>;
}

impl<'de> AsSeq<'de> for Top {
    fn seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Vec<Outcome>, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(|value| self.other(value))
    }
}

impl<'de> AsSeq<'de> for ItemsOf {
    fn seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Items, A::Error> {
        self.read_seq(seq)
    }
}

//! The JSON grammar of dumps, on top of serde_json's: no duplicate keys in an object
//! (YAML refuses them too; a whole read would silently keep the last one) and no nesting deeper than
//! [`MAX_DEPTH`] (the same limit as YAML). Every value is visited, so numbers out of range, lone
//! surrogates and invalid UTF-8 are refused wherever they are.
//!
//! [`Tree`] builds a `serde_json::Value` (top-level entries, the kinds read through a `Value`);
//! [`Check`] builds nothing (what is skipped). Both run the same visitor; [`StrictDe`] applies the
//! same rules, with the same messages, while a lean type is decoded.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Deepest nesting accepted, in YAML and JSON (Kubernetes objects need about 15 levels).
pub(super) const MAX_DEPTH: usize = 64;

/// What the visitor builds from what it visits.
pub(super) trait Build {
    type Out;
    type Array: Default;
    type Object: Default;
    fn scalar(value: impl FnOnce() -> Value) -> Self::Out;
    fn push(array: &mut Self::Array, value: Self::Out);
    fn array(array: Self::Array) -> Self::Out;
    fn insert(object: &mut Self::Object, key: Cow<'_, str>, value: Self::Out);
    fn object(object: Self::Object) -> Self::Out;
}

/// Builds a `serde_json::Value`.
pub(super) struct Tree;

impl Build for Tree {
    type Out = Value;
    type Array = Vec<Value>;
    type Object = Map<String, Value>;
    fn scalar(value: impl FnOnce() -> Value) -> Value {
        value()
    }
    fn push(array: &mut Vec<Value>, value: Value) {
        array.push(value);
    }
    fn array(array: Vec<Value>) -> Value {
        Value::Array(array)
    }
    fn insert(object: &mut Map<String, Value>, key: Cow<'_, str>, value: Value) {
        object.insert(key.into_owned(), value);
    }
    fn object(object: Map<String, Value>) -> Value {
        Value::Object(object)
    }
}

/// Builds nothing: only checks.
pub(super) struct Check;

impl Build for Check {
    type Out = ();
    type Array = ();
    type Object = ();
    fn scalar(_: impl FnOnce() -> Value) {}
    fn push((): &mut (), (): ()) {}
    fn array((): ()) {}
    fn insert((): &mut (), _: Cow<'_, str>, (): ()) {}
    fn object((): ()) {}
}

/// One value nested in `depth` arrays or objects.
pub(super) struct Strict<B> {
    pub(super) depth: usize,
    build: PhantomData<B>,
}

impl<B> Strict<B> {
    pub(super) fn at(depth: usize) -> Self {
        Strict { depth, build: PhantomData }
    }

    fn enter<E: de::Error>(&self) -> Result<Self, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(format!("nested deeper than {MAX_DEPTH} levels")));
        }
        Ok(Strict::at(self.depth + 1))
    }
}

impl<'de, B: Build> DeserializeSeed<'de> for Strict<B> {
    type Value = B::Out;
    fn deserialize<T: Deserializer<'de>>(self, deserializer: T) -> Result<B::Out, T::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, B: Build> Visitor<'de> for Strict<B> {
    type Value = B::Out;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<B::Out, E> {
        Ok(B::scalar(|| Value::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<B::Out, E> {
        Ok(B::scalar(|| Value::Number(v.into())))
    }
    fn visit_u64<E>(self, v: u64) -> Result<B::Out, E> {
        Ok(B::scalar(|| Value::Number(v.into())))
    }
    fn visit_f64<E>(self, v: f64) -> Result<B::Out, E> {
        Ok(B::scalar(|| Number::from_f64(v).map_or(Value::Null, Value::Number)))
    }
    fn visit_str<E>(self, v: &str) -> Result<B::Out, E> {
        Ok(B::scalar(|| Value::String(v.to_string())))
    }
    fn visit_string<E>(self, v: String) -> Result<B::Out, E> {
        Ok(B::scalar(|| Value::String(v)))
    }
    fn visit_unit<E>(self) -> Result<B::Out, E> {
        Ok(B::scalar(|| Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<B::Out, A::Error> {
        let inner = self.enter()?;
        let mut array = B::Array::default();
        while let Some(value) = seq.next_element_seed(Strict::<B>::at(inner.depth))? {
            B::push(&mut array, value);
        }
        Ok(B::array(array))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<B::Out, A::Error> {
        let inner = self.enter()?;
        let mut object = B::Object::default();
        let mut keys = Keys::default();
        while let Some(Key(key)) = map.next_key()? {
            if !keys.insert(key.clone()) {
                return Err(de::Error::custom(duplicate_key(&key)));
            }
            let value = map.next_value_seed(Strict::<B>::at(inner.depth))?;
            B::insert(&mut object, key, value);
        }
        Ok(B::object(object))
    }
}

/// Whether `message` is one of the grammar's refusals (the text's fault, not an object's).
pub(super) fn is_grammar(message: &str) -> bool {
    message.starts_with("duplicate key ") || message.starts_with("nested deeper than ")
}

/// The message for a key given twice in one object.
pub(super) fn duplicate_key(key: &str) -> String {
    format!("duplicate key {key:?} (an object names each key once)")
}

/// An object key, borrowed from the text when it holds no escape.
pub(super) struct Key<'de>(pub(super) Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<T: Deserializer<'de>>(deserializer: T) -> Result<Self, T::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// The keys of one object so far: a short list, a set past a few dozen.
#[derive(Default)]
pub(super) struct Keys<'de> {
    few: Vec<Cow<'de, str>>,
    many: HashSet<Cow<'de, str>>,
}

impl<'de> Keys<'de> {
    const FEW: usize = 32;

    /// False when `key` was seen before.
    pub(super) fn insert(&mut self, key: Cow<'de, str>) -> bool {
        if self.many.is_empty() {
            if self.few.contains(&key) {
                return false;
            }
            self.few.push(key);
            if self.few.len() > Self::FEW {
                self.many.extend(self.few.drain(..));
            }
            return true;
        }
        self.many.insert(key)
    }
}

mod wrap;
pub(super) use wrap::StrictDe;

#[cfg(test)]
mod tests;

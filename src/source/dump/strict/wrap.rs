//! The shared grammar applied while a typed value is decoded, so a List item is parsed once: every
//! object [`StrictDe`] hands out refuses a key given twice, every array or object counts towards
//! [`MAX_DEPTH`](super::MAX_DEPTH), and what the typed value skips (`IgnoredAny`) is visited by the
//! checking visitor instead of skipped, so numbers, strings and nesting are checked everywhere, with
//! the checking visitor's messages.

use std::borrow::Cow;
use std::fmt;

use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};

use super::{Check, Key, Keys, Strict, duplicate_key};

/// A deserializer whose values are held to the shared grammar, `depth` arrays or objects deep.
pub(in super::super) struct StrictDe<D> {
    inner: D,
    depth: usize,
}

impl<D> StrictDe<D> {
    pub(in super::super) fn at(inner: D, depth: usize) -> Self {
        StrictDe { inner, depth }
    }
}

/// Forwards `deserialize_*` methods to the inner deserializer, the visitor wrapped.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
            self.inner.$method($($arg,)* Wrap { inner: visitor, depth: self.depth })
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for StrictDe<D> {
    type Error = D::Error;

    forward! {
        deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16(); deserialize_i32();
        deserialize_i64(); deserialize_i128(); deserialize_u8(); deserialize_u16(); deserialize_u32();
        deserialize_u64(); deserialize_u128(); deserialize_f32(); deserialize_f64(); deserialize_char();
        deserialize_str(); deserialize_string(); deserialize_bytes(); deserialize_byte_buf();
        deserialize_option(); deserialize_unit(); deserialize_seq(); deserialize_map();
        deserialize_identifier();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
    }

    /// What the typed value skips is checked all the same.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        Strict::<Check>::at(self.depth).deserialize(self.inner)?;
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// A visitor whose arrays and objects are held to the grammar.
struct Wrap<V> {
    inner: V,
    depth: usize,
}

impl<V> Wrap<V> {
    /// The depth of what an array or object at this depth holds.
    fn enter<E: de::Error>(&self) -> Result<usize, E> {
        Strict::<Check>::at(self.depth).enter::<E>().map(|inner| inner.depth)
    }
}

/// Forwards `visit_*` methods of scalars to the wrapped visitor.
macro_rules! scalars {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
            self.inner.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    scalars! {
        visit_bool(bool); visit_i8(i8); visit_i16(i16); visit_i32(i32); visit_i64(i64); visit_i128(i128);
        visit_u8(u8); visit_u16(u16); visit_u32(u32); visit_u64(u64); visit_u128(u128);
        visit_f32(f32); visit_f64(f64); visit_char(char); visit_str(&str); visit_borrowed_str(&'de str);
        visit_string(String); visit_bytes(&[u8]); visit_borrowed_bytes(&'de [u8]); visit_byte_buf(Vec<u8>);
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_some(StrictDe::at(d, self.depth))
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_newtype_struct(StrictDe::at(d, self.depth))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let depth = self.enter()?;
        self.inner.visit_seq(StrictSeq { seq, depth })
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let depth = self.enter()?;
        self.inner.visit_map(StrictMap { map, depth, keys: Keys::default() })
    }
    /// Not in any type the dump reader decodes this way.
    fn visit_enum<A: EnumAccess<'de>>(self, _: A) -> Result<V::Value, A::Error> {
        Err(de::Error::custom("an enum is not decoded with the grammar applied"))
    }
}

/// An array's elements, each held to the grammar.
struct StrictSeq<A> {
    seq: A,
    depth: usize,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for StrictSeq<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        self.seq.next_element_seed(Seed { inner: seed, depth: self.depth })
    }
    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

/// An object's entries: each key once, each value held to the grammar.
struct StrictMap<'de, A> {
    map: A,
    depth: usize,
    keys: Keys<'de>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for StrictMap<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        let Some(Key(key)) = self.map.next_key()? else {
            return Ok(None);
        };
        if !self.keys.insert(key.clone()) {
            return Err(de::Error::custom(duplicate_key(&key)));
        }
        match key {
            Cow::Borrowed(key) => seed.deserialize(BorrowedStrDeserializer::new(key)).map(Some),
            Cow::Owned(key) => seed.deserialize(StringDeserializer::new(key)).map(Some),
        }
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.map.next_value_seed(Seed { inner: seed, depth: self.depth })
    }
    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// A seed whose deserializer is wrapped.
struct Seed<T> {
    inner: T,
    depth: usize,
}

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<T> {
    type Value = T::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T::Value, D::Error> {
        self.inner.deserialize(StrictDe::at(d, self.depth))
    }
}

#[cfg(test)]
mod tests;

//! The entries of an item as its lean type reads them.

use std::borrow::Cow;

use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess};
use serde_json::Value;

use super::super::super::strict::StrictDe;
use super::{DEPTH, Item};

/// The entries of an item whose type is decided or guessed: those kept, the one at hand, then the
/// rest of the object, `apiVersion` and `kind` taken out as they come.
pub(super) struct Rest<'a, 'de, A> {
    item: &'a mut Item<'de, A>,
    head: std::vec::IntoIter<(String, Value)>,
    /// The key read when the type was decided, its value not read yet.
    next: Option<Cow<'de, str>>,
    /// The kept value of the key last handed out.
    value: Option<Value>,
}

impl<'a, 'de, A> Rest<'a, 'de, A> {
    pub(super) fn new(item: &'a mut Item<'de, A>, next: Option<Cow<'de, str>>) -> Self {
        let head = std::mem::take(&mut item.head).into_iter();
        Rest { item, head, next, value: None }
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Rest<'_, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        if let Some((key, value)) = self.head.next() {
            self.value = Some(value);
            return seed.deserialize(StringDeserializer::new(key)).map(Some);
        }
        let key = match self.next.take() {
            Some(key) => key,
            None => loop {
                let Some(key) = self.item.next_key()? else {
                    return Ok(None);
                };
                if !self.item.types.take(&key, &mut self.item.map)? {
                    break key;
                }
            },
        };
        match key {
            Cow::Borrowed(key) => seed.deserialize(BorrowedStrDeserializer::new(key)).map(Some),
            Cow::Owned(key) => seed.deserialize(StringDeserializer::new(key)).map(Some),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.value.take() {
            Some(value) => seed.deserialize(value).map_err(A::Error::custom),
            None => self.item.map.next_value_seed(Seeded { seed }),
        }
    }
}

/// A value decoded with the grammar applied.
struct Seeded<S> {
    seed: S,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seeded<S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(StrictDe::at(deserializer, DEPTH))
    }
}

//! The entries of an item as its lean type reads them.

use serde::de::value::StringDeserializer;
use serde::de::{DeserializeSeed, Error as _, MapAccess};
use serde_json::Value;

use super::Types;

/// The entries of an item whose type is decided or guessed: those kept, the one at hand, then the
/// rest of the object, `apiVersion` and `kind` taken out as they come.
pub(super) struct Rest<'a, A> {
    map: &'a mut A,
    types: &'a mut Types,
    head: std::vec::IntoIter<(String, Value)>,
    /// The key read when the type was decided, its value not read yet (until handed out).
    next: Option<String>,
    /// The kept value of the key last handed out.
    value: Option<Value>,
}

impl<'a, A> Rest<'a, A> {
    pub(super) fn new(
        map: &'a mut A,
        types: &'a mut Types,
        head: Vec<(String, Value)>,
        next: String,
    ) -> Self {
        Rest { map, types, head: head.into_iter(), next: Some(next), value: None }
    }
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

//! [`StrMap`]: labels and annotations, a few string keys and values sorted in one list.
//!
//! A `BTreeMap` allocates a whole node (eleven keys and values, ~540 bytes) for its first entry,
//! which made a Node's one or two labels most of its memory: 65,000 Nodes and 100,000 Services
//! each carry such a map to the end of a run. The list is sorted by key, so lookups are binary
//! searches and iteration is in key order, as with the map it replaces.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// String keys and values, sorted by key, each key once; serialised as a JSON object.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct StrMap(Vec<(String, String)>);

impl StrMap {
    /// An empty map.
    pub fn new() -> Self {
        StrMap(Vec::new())
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&String> {
        self.find(key).ok().map(|i| &self.0[i].1)
    }

    /// Whether `key` is present, whatever its value.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`; the value it had.
    pub fn insert(&mut self, key: String, value: String) -> Option<String> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    /// Removes `key`; the value it had.
    pub fn remove(&mut self, key: &str) -> Option<String> {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }

    /// Keys and values in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &String)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// Keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    /// How many keys.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is no key.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<(String, String)> for StrMap {
    /// The last value of a key given twice wins, as in a map.
    fn from_iter<I: IntoIterator<Item = (String, String)>>(pairs: I) -> Self {
        let map: BTreeMap<String, String> = pairs.into_iter().collect();
        StrMap::from(map)
    }
}

impl From<BTreeMap<String, String>> for StrMap {
    fn from(map: BTreeMap<String, String>) -> Self {
        // Already sorted, each key once; an exact-size iterator, so no spare room.
        StrMap(map.into_iter().collect())
    }
}

impl<const N: usize> From<[(String, String); N]> for StrMap {
    fn from(pairs: [(String, String); N]) -> Self {
        pairs.into_iter().collect()
    }
}

impl<'a> IntoIterator for &'a StrMap {
    type Item = (&'a String, &'a String);
    type IntoIter =
        std::iter::Map<std::slice::Iter<'a, (String, String)>, fn(&(String, String)) -> (&String, &String)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl std::ops::Index<&str> for StrMap {
    type Output = String;
    /// The value of `key`; panics when it is absent, as a map does.
    fn index(&self, key: &str) -> &String {
        self.get(key).unwrap_or_else(|| panic!("no key {key:?}"))
    }
}

impl fmt::Debug for StrMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for StrMap {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for StrMap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        BTreeMap::<String, String>::deserialize(d).map(StrMap::from)
    }
}

#[cfg(test)]
mod tests {
    use super::StrMap;

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn reads_like_the_sorted_map_it_replaces() {
        let mut m: StrMap = pairs(&[("b", "2"), ("a", "1"), ("b", "3")]).into_iter().collect();
        assert_eq!(m.keys().map(String::as_str).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!((m.get("b").map(String::as_str), m.get("c")), (Some("3"), None));
        assert!(m.contains_key("a") && !m.contains_key(""));
        assert_eq!(m.insert("0".into(), "z".into()), None);
        assert_eq!(m.insert("a".into(), "x".into()), Some("1".into()));
        assert_eq!(m.remove("b"), Some("3".into()));
        assert_eq!(
            m.iter().collect::<Vec<_>>(),
            [(&"0".to_string(), &"z".to_string()), (&"a".into(), &"x".into())]
        );
        assert_eq!(format!("{m:?}"), r#"{"0": "z", "a": "x"}"#);
    }

    #[test]
    fn serialises_as_an_object_and_keeps_no_spare_room() {
        let m: StrMap = serde_json::from_str(r#"{"z": "1", "k": ""}"#).unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"k":"","z":"1"}"#);
        assert_eq!(m.0.capacity(), 2);
        assert!(serde_json::from_str::<StrMap>(r#"{"k": 1}"#).is_err());
    }
}

//! How the lean types read their maps and names without building what the model drops: a map's
//! keys are compared where they lie in the text, and only the entries a kind's model reads are
//! kept (a Node's dozen labels and its annotations become the four labels the analysis reads);
//! a name shared by many endpoints is read straight into the shared string the model keeps.
//! Every entry is still type-checked and every key still given once, as k8s-openapi's maps are.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::marker::PhantomData;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use topo_engine::model;

/// A map whose keys are given once, or `null`: a label given twice (two zones) is refused, where
/// a `BTreeMap` would keep the last silently.
pub(super) fn unique<'de, D: Deserializer<'de>, V: de::Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<BTreeMap<String, V>>, D::Error> {
    deserializer.deserialize_option(Entries { keep: None, value: PhantomData })
}

/// [`unique`] for a map of strings, keeping only the entries whose keys are in `keep`.
fn kept<'de, D: Deserializer<'de>>(
    deserializer: D,
    keep: &'static [&'static str],
) -> Result<Option<BTreeMap<String, String>>, D::Error> {
    deserializer.deserialize_option(Entries { keep: Some(keep), value: PhantomData })
}

/// A map's entries: those whose keys are in `keep` (`None`: all) as `V`, the others checked to be
/// strings and dropped.
struct Entries<V> {
    keep: Option<&'static [&'static str]>,
    value: PhantomData<V>,
}

impl<'de, V: de::Deserialize<'de>> Visitor<'de> for Entries<V> {
    type Value = Option<BTreeMap<String, V>>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a map")
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut out, mut seen) = (BTreeMap::new(), Seen::default());
        while let Some(key) = map.next_key_seed(Text)? {
            if !seen.first_time(key.clone()) {
                return Err(duplicate(&key));
            }
            if self.keep.is_none_or(|keep| keep.contains(&&*key)) {
                out.insert(key.into_owned(), map.next_value()?);
            } else {
                map.next_value_seed(Text)?;
            }
        }
        Ok(Some(out))
    }
}

fn duplicate<E: de::Error>(key: &str) -> E {
    E::custom(format!("duplicate key {key:?}"))
}

/// The labels (`None`: every one) and annotations an object's model reads.
pub(super) trait Reads: Default {
    const LABELS: Option<&'static [&'static str]>;
    const ANNOTATIONS: &'static [&'static str];
}

#[derive(Default)]
pub(super) struct NodeReads;
impl Reads for NodeReads {
    const LABELS: Option<&'static [&'static str]> = Some(&model::NODE_LABELS_READ);
    const ANNOTATIONS: &'static [&'static str] = &[];
}

#[derive(Default)]
pub(super) struct ServiceReads;
impl Reads for ServiceReads {
    const LABELS: Option<&'static [&'static str]> = None;
    const ANNOTATIONS: &'static [&'static str] = &super::super::SERVICE_ANNOTATIONS_READ;
}

#[derive(Default)]
pub(super) struct SliceReads;
impl Reads for SliceReads {
    const LABELS: Option<&'static [&'static str]> =
        Some(&[model::LABEL_SERVICE_NAME, model::LABEL_MANAGED_BY]);
    const ANNOTATIONS: &'static [&'static str] = &[];
}

pub(super) fn labels<'de, D: serde::Deserializer<'de>, K: Reads>(
    d: D,
) -> Result<Option<BTreeMap<String, String>>, D::Error> {
    match K::LABELS {
        Some(keep) => kept(d, keep),
        None => unique(d),
    }
}

pub(super) fn annotations<'de, D: serde::Deserializer<'de>, K: Reads>(
    d: D,
) -> Result<Option<BTreeMap<String, String>>, D::Error> {
    kept(d, K::ANNOTATIONS)
}

/// The keys of a map read so far, to refuse one given twice: while they come sorted (kubectl and
/// the API server write them so) the last one tells; from the first that does not, a set.
#[derive(Default)]
struct Seen<'de> {
    sorted: Vec<Cow<'de, str>>,
    set: Option<BTreeSet<Cow<'de, str>>>,
}

impl<'de> Seen<'de> {
    fn first_time(&mut self, key: Cow<'de, str>) -> bool {
        if let Some(set) = &mut self.set {
            return set.insert(key);
        }
        if self.sorted.last().is_none_or(|last| *last < key) {
            self.sorted.push(key);
            return true;
        }
        let mut set: BTreeSet<_> = std::mem::take(&mut self.sorted).into_iter().collect();
        let first = set.insert(key);
        self.set = Some(set);
        first
    }
}

/// A string, borrowed from the text when it can be (it holds no escape).
struct Text;

impl<'de> DeserializeSeed<'de> for Text {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Text {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a string")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}

/// A name the model shares (`nodeName`, `zone`, a hint's zone), or `null`: read into its shared
/// string at once, not into a `String` first.
pub(super) fn shared<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Arc<str>>, D::Error> {
    struct Shared;
    impl<'de> Visitor<'de> for Shared {
        type Value = Option<Arc<str>>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            Text.deserialize(d).map(|text| Some(Arc::from(&*text)))
        }
    }
    deserializer.deserialize_option(Shared)
}

//! One top-level JSON object as the streaming reader reads it: its entries are kept (as text) until
//! it ends, except the `items` of a List, which are read as they come. Whether it is a List is known
//! only once its `apiVersion` and `kind` are (kubectl writes `items` before `kind`): until then the
//! items that name their own type are read provisionally, and from the first that does not (it
//! would take the List's type) on they are kept. When the object ends as a List, the kept items
//! are read; when it ends as anything else, the provisional ones are forgotten and the object is
//! read as a whole read would read it.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::super::reader::Checkpoint;
use super::super::{DumpError, fast};
use super::{Items, read_item};

/// `(apiVersion, kind)` that items of a typed List (`NodeList`) inherit; `None` for a plain `List`.
type Inherit = Option<(String, String)>;

pub(super) struct Object {
    /// Line and column of its `{`.
    start: (u64, u64),
    /// `None`: not given yet; `Some(None)`: given, not a string.
    api_version: Option<Option<String>>,
    kind: Option<Option<String>>,
    keys: HashSet<String>,
    /// Every entry but streamed `items`, as text.
    entries: Vec<(String, String)>,
    bytes: usize,
    items: Option<List>,
}

/// The items of a List being read.
pub(super) struct List {
    /// The List's type when known as its items began.
    known: Option<Inherit>,
    /// Where the reader was before provisional items.
    checkpoint: Option<(Checkpoint, Option<DumpError>)>,
    /// Items kept until the List's type is known.
    deferred: Option<Vec<String>>,
}

impl List {
    /// Whether an item naming its own type is read as it comes (no earlier item waits for the
    /// List's type).
    pub(super) fn reads_now(&self) -> bool {
        self.deferred.is_none()
    }

    pub(super) fn item(&mut self, raw: &str, items: &mut Items<'_>) {
        match (&self.known, &mut self.deferred) {
            (Some(inherit), _) => items.record(|reader| read_item(raw, inherit.as_ref(), reader)),
            (None, Some(deferred)) => deferred.push(raw.to_string()),
            (None, None) if !fast::names_its_type(raw) => self.deferred = Some(vec![raw.to_string()]),
            (None, None) => items.record(|reader| read_item(raw, None, reader)),
        }
    }
}

impl Object {
    pub(super) fn new(start: (u64, u64)) -> Self {
        Object {
            start,
            api_version: None,
            kind: None,
            keys: HashSet::new(),
            entries: Vec::new(),
            bytes: 0,
            items: None,
        }
    }

    /// False when `key` was given before.
    pub(super) fn new_key(&mut self, key: &str) -> bool {
        self.keys.insert(key.to_string())
    }

    /// Keeps an entry; refuses an object larger than any real one.
    pub(super) fn entry(
        &mut self,
        key: String,
        raw: String,
        origin: &str,
        limit: usize,
    ) -> Result<(), DumpError> {
        let text = || serde_json::from_str::<String>(&raw).ok();
        match key.as_str() {
            "apiVersion" => self.api_version = Some(text()),
            "kind" => self.kind = Some(text()),
            _ => {}
        }
        self.bytes += key.len() + raw.len();
        if self.bytes > limit {
            let (line, column) = self.start;
            return Err(DumpError::ObjectTooLarge { origin: origin.to_string(), line, column, limit });
        }
        self.entries.push((key, raw));
        Ok(())
    }

    /// As a whole read decides, once the object has ended: a List's type.
    fn list_type(&self) -> Option<Inherit> {
        match (&self.api_version, &self.kind) {
            (Some(Some(api_version)), Some(Some(kind))) if kind.ends_with("List") => Some(
                (kind != "List").then(|| (api_version.clone(), kind.trim_end_matches("List").to_string())),
            ),
            _ => None,
        }
    }

    /// Whether the object may still turn out to be a List.
    pub(super) fn may_be_list(&self) -> bool {
        !matches!(self.api_version, Some(None))
            && match &self.kind {
                None => true,
                Some(Some(kind)) => kind.ends_with("List"),
                Some(None) => false,
            }
    }

    pub(super) fn start_items(&self, items: &Items<'_>) -> List {
        let known = self.list_type();
        let checkpoint = known.is_none().then(|| (items.reader.checkpoint(), items.pending.clone()));
        List { known, checkpoint, deferred: None }
    }

    pub(super) fn end_items(&mut self, list: List) {
        self.items = Some(list);
    }

    /// Reads what is left: a List's kept items, or the object itself.
    pub(super) fn finish(self, items: &mut Items<'_>) {
        let list_type = self.list_type();
        match (self.items, list_type) {
            (Some(list), Some(inherit)) => {
                for raw in list.deferred.unwrap_or_default() {
                    items.record(|reader| read_item(&raw, inherit.as_ref(), reader));
                }
            }
            (list, _) => {
                if let Some(List { checkpoint: Some((checkpoint, pending)), .. }) = list {
                    items.reader.rollback(checkpoint);
                    items.pending = pending;
                }
                let entries = self
                    .entries
                    .into_iter()
                    .map(|(key, raw)| (key, serde_json::from_str::<Value>(&raw).unwrap_or(Value::Null)));
                let value = Value::Object(entries.collect::<Map<_, _>>());
                items.record(|reader| reader.read(value, None, 0));
            }
        }
    }
}

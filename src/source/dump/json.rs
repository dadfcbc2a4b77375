//! The JSON reader: one pass over the input through a window of about a megabyte ([`window`]).
//! The top level of each document (an object's keys, a List's `[ … ]`) is read here, each value
//! in it decoded by serde_json straight from the window: a List item by one visitor ([`item`])
//! into its lean type, any other value into a `Value`. The first error ends the read, placed in
//! the input. No tree of a List is built, so memory follows one item, not the input.
//!
//! kubectl writes a List's `kind` after its `items`: until the type is known, items that name their
//! own type are read as they come, and from the first that does not on they are kept as text. An
//! object that ends as a List reads its kept items; one that does not forgets what was read of its
//! items and is read without them.

use std::io::Read;

use serde::de::DeserializeOwned;
use serde::de::IgnoredAny;
use serde_json::{Deserializer, Map, Value};

use super::{DumpError, Inherited, MAX_OBJECT_BYTES, ParsedDump, Reader, list_items};

mod item;
mod unindent;
mod window;

pub(super) use unindent::unindented;

use window::{Step, Window, offset, source_line};

/// Reads a JSON dump (one or more JSON documents) from `input`, through windows as large as its
/// reads (a test's input that hands out a few bytes at a time cuts items everywhere).
pub(super) fn read(input: impl Read, origin: &str) -> Result<ParsedDump, DumpError> {
    let mut window = Window::new(input, origin);
    let mut reader = Reader::new(origin);
    while let Some(byte) = window.peek()? {
        if byte == b'{' {
            read_object(&mut window, &mut reader)?;
        } else {
            let line = window.line();
            let value = window.decode(at::<Value>)?;
            reader.read(value, line)?;
        }
    }
    reader.finish()
}

/// A top-level object: its entries, and its items when they were read as a List's.
struct Object<'r> {
    start: (u64, u64),
    entries: Map<String, Value>,
    bytes: usize,
    list: Option<List<'r>>,
}

impl Object<'_> {
    /// `apiVersion` or `kind`: `Some(None)` when given but not a string.
    fn text(&self, key: &str) -> Option<Option<&str>> {
        self.entries.get(key).map(Value::as_str)
    }

    /// Once the object is known to be a List, the type its items inherit ([`list_items`]).
    fn list_type(&self) -> Option<Inherited<'_>> {
        let (Some(api_version), Some(kind)) = (self.text("apiVersion")?, self.text("kind")?) else {
            return None;
        };
        list_items(api_version, kind)
    }

    /// Whether the object may still turn out to be a List.
    fn may_be_list(&self) -> bool {
        self.text("apiVersion") != Some(None)
            && self.text("kind").is_none_or(|kind| kind.is_some_and(|kind| kind.ends_with("List")))
    }
}

/// The items of a List being read.
struct List<'r> {
    /// The reader as it was before items read while the type was unknown.
    checkpoint: Option<Reader<'r>>,
    /// Items kept until the List's type is known: their text and where it starts.
    kept: Option<Vec<Kept>>,
}

/// A kept item: its text, and where it starts in the input.
type Kept = (Vec<u8>, (u64, u64));

/// A top-level `{…}`: a List, whose items are read as they come, or any other object.
fn read_object<R: Read>(window: &mut Window<'_, R>, reader: &mut Reader<'_>) -> Step {
    let (line, column) = window.here();
    let mut object = Object { start: (line, column + 1), entries: Map::new(), bytes: 0, list: None };
    window.entries(b'}', |window| {
        let key = window.decode(at::<String>)?;
        if object.entries.contains_key(&key) || (key == "items" && object.list.is_some()) {
            return Err(window.error_here(format!("duplicate key {key:?} (an object names each key once)")));
        }
        match window.peek()? {
            Some(b':') => window.consume(),
            Some(_) => return Err(window.expected("expected `:`")),
            None => return Err(window.expected("EOF while parsing an object")),
        }
        match window.peek()? {
            None => Err(window.expected("EOF while parsing a value")),
            Some(b'[') if key == "items" && object.may_be_list() => {
                let list = read_items(window, reader, &object)?;
                object.list = Some(list);
                Ok(())
            }
            Some(_) => entry(window, &mut object, key),
        }
    })?;
    finish(window, object, reader)
}

/// One entry of a top-level object other than a List's items; refuses an object larger than any
/// real one.
fn entry<R: Read>(window: &mut Window<'_, R>, object: &mut Object<'_>, key: String) -> Step {
    let (value, len) = window.decode(|text| at::<Value>(text).map(|(value, end)| ((value, end), end)))?;
    object.bytes += key.len() + len;
    if object.bytes > MAX_OBJECT_BYTES {
        let (line, column) = object.start;
        let origin = window.origin.to_string();
        return Err(DumpError::ObjectTooLarge { origin, line, column, limit: MAX_OBJECT_BYTES });
    }
    object.entries.insert(key, value);
    Ok(())
}

/// `[item, …]` of an object that is, or may turn out to be, a List.
fn read_items<'r, R: Read>(
    window: &mut Window<'_, R>,
    reader: &mut Reader<'r>,
    object: &Object<'r>,
) -> Step<List<'r>> {
    let known = object.list_type();
    let mut list = List { checkpoint: known.is_none().then(|| reader.clone()), kept: None };
    window.entries(b']', |window| read_item(window, reader, &mut list, known))?;
    Ok(list)
}

/// One item: read now, or kept until the List's type is `known`.
fn read_item<R: Read>(
    window: &mut Window<'_, R>,
    reader: &mut Reader<'_>,
    list: &mut List<'_>,
    known: Option<Inherited<'_>>,
) -> Step {
    let line = window.line();
    let kept = |text: &[u8], end| text[..end].to_vec();
    if list.kept.is_some() {
        let text = window.decode(|text| at::<IgnoredAny>(text).map(|(_, end)| (kept(text, end), end)))?;
        let start = window.start_of(text.len());
        list.kept.get_or_insert_default().push((text, start));
        return Ok(());
    }
    let read = window.decode(|text| {
        item::read(text, known.flatten(), known.is_some()).map(|(read, end)| match read {
            item::Read::Untyped => (Err(kept(text, end)), end),
            item::Read::Outcomes(outcomes) => (Ok(outcomes), end),
        })
    })?;
    match read {
        // A nested List's objects have lines of their own, which are not known here.
        Ok(outcomes) => {
            let line = if outcomes.len() == 1 { line } else { Default::default() };
            outcomes.into_iter().try_for_each(|outcome| reader.record(outcome, line))
        }
        Err(text) => {
            let start = window.start_of(text.len());
            list.kept = Some(vec![(text, start)]);
            Ok(())
        }
    }
}

/// Reads what is left once the object has ended: a List's kept items, or the object itself.
fn finish<'r, R: Read>(window: &Window<'_, R>, object: Object<'r>, reader: &mut Reader<'r>) -> Step {
    if let (Some(list), Some(known)) = (&object.list, object.list_type()) {
        for (text, start) in list.kept.iter().flatten() {
            let (read, _) = item::read(text, known, true).map_err(|err| window.syntax(&err, *start))?;
            if let item::Read::Outcomes(outcomes) = read {
                outcomes.into_iter().try_for_each(|outcome| reader.record(outcome, source_line(start.0)))?;
            }
        }
        return Ok(());
    }
    if let Some(List { checkpoint: Some(checkpoint), .. }) = object.list {
        *reader = checkpoint;
    }
    reader.read(Value::Object(object.entries), source_line(object.start.0))
}

/// The value at the start of `text`, and where it ends (`IgnoredAny`: its syntax checked, nothing
/// built).
fn at<T: DeserializeOwned>(text: &[u8]) -> serde_json::Result<(T, usize)> {
    let mut de = Deserializer::from_slice(text);
    let value = T::deserialize(&mut de)?;
    Ok((value, offset(de)))
}

#[cfg(test)]
mod tests;

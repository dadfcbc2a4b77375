//! The JSON reader: one pass over the input, through a window of about a megabyte. The top-level
//! structure of each document (an object's keys, `:` and `,`, a List's `[ … ]`) is read here; each
//! value inside it is decoded by serde_json straight from the window, which says where it ends: a
//! List item by one visitor ([`item`]) into its lean type, any other value into a
//! `serde_json::Value`, both in the shared grammar ([`super::strict`]). Every error is serde_json's
//! (or the grammar's, raised inside serde_json), at its place in the input. No tree of a List is
//! built and the input is never held whole, so memory follows one item, not the input.
//!
//! A List's type is known only once its `kind` is, which kubectl writes after `items`: until then
//! the items that name their own type are read as they come, and from the first that does not
//! (it takes the List's type) on they are kept as text. When the object ends as a List, the kept
//! items are read; when it ends as anything else, what was read of its items is forgotten and the
//! object is read without them. An item that does not decode is reported once the whole input has
//! parsed (a syntax error later in the input comes first).

use std::io::Read;

use serde::de::DeserializeSeed;
use serde_json::{Deserializer, Map, Value};

use super::error::Limits;
use super::reader::Checkpoint;
use super::strict::{Check, Strict, Tree, duplicate_key};
use super::{DumpError, Inherited, ParsedDump, Reader};

mod item;
mod window;

use window::{Expected, Step, Window, offset};

/// Reads a JSON dump (one or more JSON documents) from `input`, through windows as large as its
/// reads (a test's input that hands out a few bytes at a time cuts items everywhere).
pub(super) fn read(input: impl Read, origin: &str, limits: Limits) -> Result<ParsedDump, DumpError> {
    let mut window = Window::new(input, origin, limits);
    let mut items = Items { reader: Reader::new(origin), pending: None };
    window.skip_byte_order_marks()?;
    while let Some(byte) = window.peek()? {
        if byte == b'{' {
            read_object(&mut window, &mut items)?;
        } else {
            let value = window.decode(|text| value_at(text, 0))?;
            items.record(|reader| reader.read(value, None, 0));
        }
    }
    match items.pending {
        Some(error) => Err(error),
        None => items.reader.finish(),
    }
}

/// The objects read so far, and the first that could not be.
struct Items<'o> {
    reader: Reader<'o>,
    /// Reported once the input has parsed: a syntax error later in the input comes first.
    pending: Option<DumpError>,
}

impl Items<'_> {
    /// Reads one object, unless one has already failed.
    fn record(&mut self, read: impl FnOnce(&mut Reader<'_>) -> Result<(), DumpError>) {
        if self.pending.is_none()
            && let Err(error) = read(&mut self.reader)
        {
            self.pending = Some(error);
        }
    }
}

/// A top-level object: its `apiVersion` and `kind` as given (`Some(None)`: not a string), its other
/// entries, and its items when they were read as a List's.
struct Object {
    start: (u64, u64),
    api_version: Option<Option<String>>,
    kind: Option<Option<String>>,
    entries: Map<String, Value>,
    bytes: usize,
    list: Option<List>,
}

impl Object {
    /// The List's type once the object has ended (`Some(None)`: a plain `List`).
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

/// The items of a List being read.
struct List {
    /// The List's type when it was known as its items began.
    known: Option<Option<(String, String)>>,
    /// Where the reader was before items read while the type was unknown.
    checkpoint: Option<(Checkpoint, Option<DumpError>)>,
    /// Items kept until the List's type is known: their text and where it starts.
    kept: Option<Vec<Kept>>,
}

/// A kept item: its text, and where it starts in the input.
type Kept = (Vec<u8>, (u64, u64));

fn inherited(known: &Option<(String, String)>) -> Inherited<'_> {
    known.as_ref().map(|(api_version, kind)| (api_version.as_str(), kind.as_str()))
}

/// A top-level `{…}`: a List, whose items are read as they come, or any other object.
fn read_object<R: Read>(window: &mut Window<'_, R>, items: &mut Items<'_>) -> Step {
    let (line, column) = window.here();
    let mut object = Object {
        start: (line, column + 1),
        api_version: None,
        kind: None,
        entries: Map::new(),
        bytes: 0,
        list: None,
    };
    window.consume(b'{');
    let mut first = true;
    loop {
        match window.peek()? {
            Some(b'}') if first => break,
            Some(b'}') => return Err(window.expected(Expected::NoTrailingComma)),
            Some(b'"') => {}
            Some(_) => return Err(window.expected(Expected::Key)),
            None => return Err(window.expected(Expected::ObjectEnd)),
        }
        first = false;
        let key = window.decode(|text| {
            let mut de = Deserializer::from_slice(text);
            let key = <String as serde::Deserialize>::deserialize(&mut de)?;
            Ok((key, offset(de)))
        })?;
        let seen = key == "items" && object.list.is_some();
        if seen || object.entries.contains_key(&key) || is_type_key_again(&object, &key) {
            return Err(window.error_here(duplicate_key(&key)));
        }
        match window.peek()? {
            Some(b':') => window.consume(b':'),
            Some(_) => return Err(window.expected(Expected::Colon)),
            None => return Err(window.expected(Expected::ObjectEnd)),
        }
        match window.peek()? {
            None => return Err(window.expected(Expected::Value)),
            Some(b'[') if key == "items" && object.may_be_list() => {
                object.list = Some(read_items(window, items, &object)?);
            }
            Some(_) => entry(window, &mut object, key)?,
        }
        match window.peek()? {
            Some(b',') => window.consume(b','),
            Some(b'}') => break,
            Some(_) => return Err(window.expected(Expected::ObjectCommaOrEnd)),
            None => return Err(window.expected(Expected::ObjectEnd)),
        }
    }
    window.consume(b'}');
    finish(window, object, items)
}

fn is_type_key_again(object: &Object, key: &str) -> bool {
    (key == "apiVersion" && object.api_version.is_some()) || (key == "kind" && object.kind.is_some())
}

/// One entry of a top-level object other than a List's items; refuses an object larger than any
/// real one.
fn entry<R: Read>(window: &mut Window<'_, R>, object: &mut Object, key: String) -> Step {
    let (value, len) = window.decode(|text| value_at(text, 1).map(|(value, end)| ((value, end), end)))?;
    object.bytes += key.len() + len;
    if object.bytes > window.limits.object {
        let (line, column) = object.start;
        let (origin, limit) = (window.origin.to_string(), window.limits.object);
        return Err(DumpError::ObjectTooLarge { origin, line, column, limit });
    }
    let text = || value.as_str().map(str::to_string);
    match key.as_str() {
        "apiVersion" => object.api_version = Some(text()),
        "kind" => object.kind = Some(text()),
        _ => drop(object.entries.insert(key, value)),
    }
    Ok(())
}

/// `[item, …]` of an object that is, or may turn out to be, a List.
fn read_items<R: Read>(window: &mut Window<'_, R>, items: &mut Items<'_>, object: &Object) -> Step<List> {
    let known = object.list_type();
    let checkpoint = known.is_none().then(|| (items.reader.checkpoint(), items.pending.clone()));
    let mut list = List { known, checkpoint, kept: None };
    window.consume(b'[');
    match window.peek()? {
        Some(b']') => {
            window.consume(b']');
            return Ok(list);
        }
        None => return Err(window.expected(Expected::ListEnd)),
        Some(_) => {}
    }
    loop {
        read_item(window, items, &mut list)?;
        match window.peek()? {
            Some(b',') => window.consume(b','),
            Some(b']') => break,
            Some(_) => return Err(window.expected(Expected::ListCommaOrEnd)),
            None => return Err(window.expected(Expected::ListEnd)),
        }
        match window.peek()? {
            Some(b']') => return Err(window.expected(Expected::NoTrailingComma)),
            None => return Err(window.expected(Expected::Value)),
            Some(_) => {}
        }
    }
    window.consume(b']');
    Ok(list)
}

/// One item: read now, checked only (an item has failed), or kept until the List's type is known.
fn read_item<R: Read>(window: &mut Window<'_, R>, items: &mut Items<'_>, list: &mut List) -> Step {
    if items.pending.is_some() {
        return window.decode(|text| check_at(text, 2).map(|end| ((), end)));
    }
    let start = window.here();
    if let Some(kept) = &mut list.kept {
        let text = window.decode(|text| check_at(text, 2).map(|end| (text[..end].to_vec(), end)))?;
        kept.push((text, start));
        return Ok(());
    }
    let known = list.known.as_ref().map(inherited);
    let read = window.decode(|text| {
        item::read(text, known.flatten(), known.is_some()).map(|(read, end)| match read {
            item::Read::Untyped => ((None, Some(text[..end].to_vec())), end),
            item::Read::Outcomes(outcomes) => ((Some(outcomes), None), end),
        })
    })?;
    match read {
        (Some(outcomes), _) => {
            items.record(|reader| outcomes.into_iter().try_for_each(|outcome| reader.record(outcome)));
        }
        (None, text) => list.kept = Some(vec![(text.unwrap_or_default(), start)]),
    }
    Ok(())
}

/// Reads what is left once the object has ended: a List's kept items, or the object itself.
fn finish<R: Read>(window: &Window<'_, R>, object: Object, items: &mut Items<'_>) -> Step {
    let list_type = object.list_type();
    match (object.list, list_type) {
        (Some(list), Some(known)) => {
            for (text, start) in list.kept.unwrap_or_default() {
                if items.pending.is_some() {
                    break;
                }
                let read = item::read(&text, inherited(&known), true);
                match read.map_err(|err| window.syntax(&err, start))?.0 {
                    item::Read::Outcomes(outcomes) => items
                        .record(|reader| outcomes.into_iter().try_for_each(|outcome| reader.record(outcome))),
                    // Not returned when the List's type is known.
                    item::Read::Untyped => {}
                }
            }
        }
        (list, _) => {
            if let Some(List { checkpoint: Some((checkpoint, pending)), .. }) = list {
                items.reader.rollback(checkpoint);
                items.pending = pending;
            }
            let mut entries = object.entries;
            let texts = [("apiVersion", object.api_version), ("kind", object.kind)];
            for (key, text) in texts {
                if let Some(text) = text {
                    entries.insert(key.to_string(), text.map_or(Value::Null, Value::String));
                }
            }
            items.record(|reader| reader.read(Value::Object(entries), None, 0));
        }
    }
    Ok(())
}

/// The value at the start of `text`, nested `depth` deep, as a `Value` in the shared grammar, and
/// where it ends.
fn value_at(text: &[u8], depth: usize) -> serde_json::Result<(Value, usize)> {
    let mut de = Deserializer::from_slice(text);
    let value = Strict::<Tree>::at(depth).deserialize(&mut de)?;
    Ok((value, offset(de)))
}

/// The value at the start of `text`, nested `depth` deep, checked in the shared grammar: where it
/// ends.
fn check_at(text: &[u8], depth: usize) -> serde_json::Result<usize> {
    let mut de = Deserializer::from_slice(text);
    Strict::<Check>::at(depth).deserialize(&mut de)?;
    Ok(offset(de))
}

#[cfg(test)]
mod tests;

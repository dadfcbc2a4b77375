//! The JSON reader: the input is read through a window of about a megabyte, and each List item is
//! cut out of it, checked, decoded straight into the k8s-openapi types by the per-item reader
//! ([`super::fast`]) and dropped. No `serde_json::Value` tree of a List is built, and the input is
//! never held whole, so memory follows what is read, not the size of the input.
//!
//! It accepts and refuses exactly what the whole-text reader ([`super::read_whole`], the reference
//! it is tested against) does, with the same message at the same line and column, within the size
//! limits of [`super::error`]: both parse in the same grammar ([`super::strict`]); a syntax error is
//! reported where it is found, while an object that does not decode is reported once the whole
//! input has parsed (a whole read parses everything first); and an object that turns out not to be
//! a List after its `items` were read has them forgotten again.

use std::io::Read;

use super::checked_item::CheckedItem;
use super::error::Limits;
use super::{DumpError, ParsedDump, Reader, fast};

mod object;
mod window;

use object::Object;
use window::{State, Step, Window};

/// Bytes read at a time. The window grows past this only for a value that does not fit.
const CHUNK: usize = 1 << 20;

/// Reads a JSON dump (one or more JSON documents) from `input`.
pub(super) fn read_json(input: impl Read, origin: &str, limits: Limits) -> Result<ParsedDump, DumpError> {
    read_from(input, origin, CHUNK, limits)
}

/// As [`read_json`] through a window of `chunk` bytes, within the documented limits.
pub(super) fn read_in_windows(bytes: &[u8], origin: &str, chunk: usize) -> Result<ParsedDump, DumpError> {
    read_from(bytes, origin, chunk.max(1), Limits::DUMP)
}

fn read_from(input: impl Read, origin: &str, chunk: usize, limits: Limits) -> Result<ParsedDump, DumpError> {
    let mut window = Window::new(input, chunk, origin, limits);
    let mut items = Items { reader: Reader::new(origin), pending: None };
    window.skip_byte_order_marks()?;
    while let Some(byte) = window.peek()? {
        if byte == b'{' {
            read_object(&mut window, &mut items)?;
        } else {
            // Not an object: `null` is nothing, anything else is counted as skipped.
            let null = window.value::<0, _>(false, |raw| raw == "null")?;
            if !null {
                items.record(|reader| {
                    reader.skip("(not an object)");
                    Ok(())
                });
            }
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
    /// Reads one object, unless one has already failed (a whole read stops there too).
    fn record(&mut self, read: impl FnOnce(&mut Reader<'_>) -> Result<(), DumpError>) {
        if self.pending.is_none()
            && let Err(error) = read(&mut self.reader)
        {
            self.pending = Some(error);
        }
    }
}

/// A top-level `{…}`: a List, whose items are read as they come, or any other object.
fn read_object<R: Read>(window: &mut Window<'_, R>, items: &mut Items<'_>) -> Step {
    let mut object = Object::new(window.here());
    window.pos += 1;
    let mut state = State::FirstKey;
    loop {
        if matches!(state, State::FirstKey) && window.peek()? == Some(b'}') {
            window.pos += 1;
            break;
        }
        if window.peek()? != Some(b'"') {
            return Err(window.structural(state));
        }
        let (key, raw_key) = window.value::<1, _>(false, |raw| {
            (serde_json::from_str::<String>(raw).unwrap_or_default(), raw.to_string())
        })?;
        if !object.new_key(&key) {
            // Back to the key (still in the window: nothing was read after it).
            window.pos -= raw_key.len();
            return Err(window.structural(State::KeyAgain(&raw_key)));
        }
        window.expect_one_of(b":", State::Colon)?;
        if window.peek()?.is_none() {
            return Err(window.structural(State::Value));
        }
        if key == "items" && window.peek()? == Some(b'[') && object.may_be_list() {
            read_items(window, items, &mut object)?;
        } else {
            let raw = window.value::<1, _>(true, str::to_string)?;
            object.entry(key, raw, window.origin, window.limits.object)?;
        }
        if window.expect_one_of(b",}", State::ObjectNext)? == b'}' {
            break;
        }
        state = State::Key;
    }
    object.finish(items);
    Ok(())
}

/// `[item, …]` of an object that is, or may turn out to be, a List.
fn read_items<R: Read>(window: &mut Window<'_, R>, items: &mut Items<'_>, object: &mut Object) -> Step {
    let mut list = object.start_items(items);
    window.pos += 1;
    match window.peek()? {
        Some(b']') => window.pos += 1,
        None => return Err(window.structural(State::FirstElement)),
        Some(_) => loop {
            // Parsed once when it can be (almost every item of a kubectl dump), else cut and read.
            let once = list.reads_now()
                && items.pending.is_none()
                && window.decode(|CheckedItem(lean)| items.reader.take(lean));
            if !once {
                window.value::<2, _>(true, |raw| list.item(raw, items))?;
            }
            if window.expect_one_of(b",]", State::ArrayNext)? == b']' {
                break;
            }
            if matches!(window.peek()?, Some(b']') | None) {
                return Err(window.structural(State::Element));
            }
        },
    }
    object.end_items(list);
    Ok(())
}

/// Reads one item of a List whose type is known: `(apiVersion, kind)` its items may inherit.
fn read_item(
    raw: &str,
    inherited: Option<&(String, String)>,
    reader: &mut Reader<'_>,
) -> Result<(), DumpError> {
    let inherited = inherited.map(|(api_version, kind)| (api_version.as_str(), kind.as_str()));
    fast::read_item(raw, inherited, reader)
}

#[cfg(test)]
mod tests;

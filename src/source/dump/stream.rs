//! The fast path for the common large dump, one JSON `List` (`kubectl get -o json`, `kubectl topo
//! dump -o json`): the input is read through a window of about a megabyte, each item is cut out
//! of the window by serde_json (validated, as a whole read would), decoded straight into the
//! k8s-openapi types by the per-item reader ([`super::fast`]) and dropped. No `serde_json::Value`
//! tree of the dump is built, and a file's text is never held whole.
//!
//! Anything unusual gives up (`None`): not a single List, a duplicate key, a syntax error anywhere,
//! an item that does not decode, or items that need the list's kind before the list has named it.
//! The caller then reads the whole text with the general reader ([`super::read_whole`]), so
//! results and messages are exactly those of a whole read; streaming only ever returns what that
//! read would.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use serde_json::value::RawValue;

use super::{ParsedDump, Reader, fast};

/// Bytes read at a time. The window grows past this only for an item that does not fit.
const CHUNK: usize = 1 << 20;

/// Streaming gave up; the caller reads the whole text instead.
struct GiveUp;

type Step<T = ()> = Result<T, GiveUp>;

impl From<io::Error> for GiveUp {
    fn from(_: io::Error) -> Self {
        GiveUp
    }
}

/// Reads the regular file at `path` if it holds one JSON List; `None` when the caller must read it
/// whole (not a regular file, not such a List, or anything a whole read would report).
pub(crate) fn read_list_file(path: &Path, origin: &str) -> Option<ParsedDump> {
    read_with(path, origin, CHUNK)
}

/// Reads `text` if it is one JSON List; `None` when the caller must read it with the general reader.
pub(super) fn read_list_text(text: &str, origin: &str) -> Option<ParsedDump> {
    read_from(text.as_bytes(), origin, CHUNK)
}

fn read_with(path: &Path, origin: &str, chunk: usize) -> Option<ParsedDump> {
    let file = File::open(path).ok()?;
    // A pipe cannot be read twice, and giving up must leave the input for the whole read.
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    read_from(file, origin, chunk)
}

fn read_from(input: impl Read, origin: &str, chunk: usize) -> Option<ParsedDump> {
    let mut reader = Reader::new(origin);
    read_list(&mut Window::new(input, chunk), &mut reader).ok()?;
    reader.finish().ok()
}

/// `{"key": value, …}`: the List object, its `items` read one at a time.
fn read_list<R: Read>(window: &mut Window<R>, reader: &mut Reader<'_>) -> Step {
    window.skip_byte_order_marks()?;
    window.expect(b'{')?;
    let mut head = Head::default();
    loop {
        let key: String = window.value(|raw| serde_json::from_str(raw))?.map_err(|_| GiveUp)?;
        window.expect(b':')?;
        head.entry(&key, window, reader)?;
        if window.expect_one_of(b",}")? == b'}' {
            break;
        }
    }
    if window.peek()?.is_some() {
        return Err(GiveUp);
    }
    head.is_list().then_some(()).ok_or(GiveUp)
}

/// What items that name no `apiVersion`/`kind` take from the list (a typed list, `NodeList`).
enum Inherit {
    /// `None` for a plain `List`.
    Known(Option<(String, String)>),
    /// The list has not named its kind yet (kubectl writes `items` before `kind`).
    Unknown,
}

/// The List's own fields, as far as read.
#[derive(Default)]
struct Head {
    api_version: Option<String>,
    kind: Option<String>,
    items: bool,
}

impl Head {
    fn entry<R: Read>(&mut self, key: &str, window: &mut Window<R>, reader: &mut Reader<'_>) -> Step {
        let string = |window: &mut Window<R>| -> Step<String> {
            window.value(|raw| serde_json::from_str(raw))?.map_err(|_| GiveUp)
        };
        match key {
            "apiVersion" if self.api_version.is_none() => self.api_version = Some(string(window)?),
            "kind" if self.kind.is_none() => self.kind = Some(string(window)?),
            "items" if !self.items => {
                self.items = true;
                read_items(window, reader, &self.inherit()?)?;
            }
            // A whole read keeps the last of duplicate keys.
            "apiVersion" | "kind" | "items" => return Err(GiveUp),
            _ => window.value(|_| ())?,
        }
        Ok(())
    }

    /// `List`: items name their own type; `NodeList` (with its apiVersion): items may omit theirs;
    /// anything not a list: give up.
    fn inherit(&self) -> Step<Inherit> {
        Ok(match (&self.api_version, &self.kind) {
            (_, Some(kind)) if !kind.ends_with("List") => return Err(GiveUp),
            (_, Some(kind)) if kind == "List" => Inherit::Known(None),
            (Some(api_version), Some(kind)) => {
                Inherit::Known(Some((api_version.clone(), kind.trim_end_matches("List").to_string())))
            }
            _ => Inherit::Unknown,
        })
    }

    /// An apiVersion, a kind ending in `List`, and items.
    fn is_list(&self) -> bool {
        self.api_version.is_some() && self.kind.as_ref().is_some_and(|k| k.ends_with("List")) && self.items
    }
}

/// `[item, …]`.
fn read_items<R: Read>(window: &mut Window<R>, reader: &mut Reader<'_>, inherit: &Inherit) -> Step {
    window.expect(b'[')?;
    if window.peek()? == Some(b']') {
        window.pos += 1;
        return Ok(());
    }
    loop {
        window.value(|raw| read_item(raw, inherit, reader))??;
        if window.expect_one_of(b",]")? == b']' {
            return Ok(());
        }
    }
}

fn read_item(raw: &str, inherit: &Inherit, reader: &mut Reader<'_>) -> Step {
    let read = match inherit {
        Inherit::Known(list) => {
            let inherited = list.as_ref().map(|(api_version, kind)| (api_version.as_str(), kind.as_str()));
            fast::read_item(raw, inherited, reader)
        }
        // An item naming both its apiVersion and kind never uses the list's.
        Inherit::Unknown if fast::read_in_one_pass(raw, None, reader) => Ok(()),
        Inherit::Unknown => match fast::item_type(raw, None) {
            Some((api_version, kind)) => fast::read_typed(raw, (&api_version, &kind), None, reader),
            None => return Err(GiveUp),
        },
    };
    // The whole read reports it (or an earlier syntax error) exactly.
    read.map_err(|_| GiveUp)
}

/// The bytes of the input read so far and not yet consumed.
struct Window<R> {
    input: R,
    chunk: usize,
    buf: Vec<u8>,
    /// Where the unconsumed bytes start.
    pos: usize,
    eof: bool,
}

impl<R: Read> Window<R> {
    fn new(input: R, chunk: usize) -> Self {
        Window { input, chunk, buf: Vec::new(), pos: 0, eof: false }
    }

    /// Drops the consumed bytes and appends at least a chunk, or as many bytes as are held (so an
    /// item larger than the window is cut again only a logarithmic number of times). False at the
    /// end of the file.
    fn fill(&mut self) -> Step<bool> {
        if self.eof {
            return Ok(false);
        }
        self.buf.drain(..self.pos);
        self.pos = 0;
        let want = self.buf.len().max(self.chunk);
        let read = self.input.by_ref().take(want as u64).read_to_end(&mut self.buf)?;
        self.eof = read < want;
        Ok(read > 0)
    }

    /// As the general reader trims them.
    fn skip_byte_order_marks(&mut self) -> Step {
        const BOM: &[u8] = "\u{feff}".as_bytes();
        loop {
            while self.buf.len() - self.pos < BOM.len() && self.fill()? {}
            if !self.buf[self.pos..].starts_with(BOM) {
                return Ok(());
            }
            self.pos += BOM.len();
        }
    }

    /// The next byte after JSON whitespace, not consumed; `None` at the end of the file.
    fn peek(&mut self) -> Step<Option<u8>> {
        loop {
            let rest = &self.buf[self.pos..];
            match rest.iter().position(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t')) {
                Some(skip) => {
                    self.pos += skip;
                    return Ok(Some(self.buf[self.pos]));
                }
                None => {
                    self.pos = self.buf.len();
                    if !self.fill()? {
                        return Ok(None);
                    }
                }
            }
        }
    }

    fn expect(&mut self, byte: u8) -> Step {
        self.expect_one_of(&[byte]).map(drop)
    }

    /// Consumes the next byte if it is one of `bytes`.
    fn expect_one_of(&mut self, bytes: &[u8]) -> Step<u8> {
        match self.peek()? {
            Some(byte) if bytes.contains(&byte) => {
                self.pos += 1;
                Ok(byte)
            }
            _ => Err(GiveUp),
        }
    }

    /// Cuts the next JSON value out of the window, reading more of the file as needed, and passes
    /// its text to `read`.
    fn value<T>(&mut self, read: impl FnOnce(&str) -> T) -> Step<T> {
        loop {
            let more = {
                let rest = &self.buf[self.pos..];
                let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<&RawValue>();
                match values.next() {
                    // A value that ends where the window does may go on (a number): read more.
                    Some(Ok(raw)) if values.byte_offset() < rest.len() || self.eof => {
                        let end = values.byte_offset();
                        let out = read(raw.get());
                        self.pos += end;
                        return Ok(out);
                    }
                    Some(Err(err)) => err.is_eof(),
                    _ => true,
                }
            };
            if !more || !self.fill()? {
                return Err(GiveUp);
            }
        }
    }
}

#[cfg(test)]
mod tests;

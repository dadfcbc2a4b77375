//! The streaming JSON reader's view of its input: the bytes read and not yet consumed, about a
//! megabyte at a time, and where they are in the whole input (line and column, as serde_json counts
//! them: the column is the number of bytes after the last newline).
//!
//! Values are cut out by serde_json in the shared grammar ([`super::super::strict`]); their errors
//! are moved from the window to the input. An error at a point of the List's own structure (a
//! missing `,` or `:`, a trailing comma, the end of the input) is given by serde_json too: the
//! window from that point is parsed behind a few bytes that put serde_json in the same state, so
//! the message and place are those of a whole read.

use std::io::Read;

use serde::de::DeserializeOwned;
use serde_json::de::Deserializer;

use super::super::error::Limits;
use super::super::strict::Checked;
use super::super::{DumpError, json_message};

pub(super) type Step<T = ()> = Result<T, DumpError>;

/// What serde_json is parsing when the List's structure goes wrong, as the bytes that put it there.
#[derive(Clone, Copy)]
pub(super) enum State<'k> {
    /// After `{`: a key or `}`.
    FirstKey,
    /// After `,` in an object: a key.
    Key,
    /// This key (as JSON) was given before, in the object being read.
    KeyAgain(&'k str),
    /// After a key: `:`.
    Colon,
    /// After `:`: a value.
    Value,
    /// After a value in an object: `,` or `}`.
    ObjectNext,
    /// After `[`: a value or `]`.
    FirstElement,
    /// After `,` in an array: a value.
    Element,
    /// After a value in an array: `,` or `]`.
    ArrayNext,
}

impl State<'_> {
    /// The values in these prefixes are `{}`, which nothing after them can extend (a `0` would
    /// read on into the digits of the input).
    fn prefix(self) -> String {
        match self {
            State::FirstKey => "{".into(),
            State::Key => r#"{"":{},"#.into(),
            State::KeyAgain(key) => format!("{{{key}:{{}},"),
            State::Colon => r#"{"""#.into(),
            State::Value => r#"{"":"#.into(),
            State::ObjectNext => r#"{"":{}"#.into(),
            State::FirstElement => "[".into(),
            State::Element => "[{},".into(),
            State::ArrayNext => "[{}".into(),
        }
    }
}

pub(super) struct Window<'o, R> {
    input: R,
    chunk: usize,
    buf: Vec<u8>,
    /// Where the unconsumed bytes start.
    pub(super) pos: usize,
    eof: bool,
    /// Line (1-based) and column of `buf[0]` in the input.
    line: u64,
    column: u64,
    /// Bytes read from the input so far.
    read: u64,
    pub(super) origin: &'o str,
    pub(super) limits: Limits,
}

impl<'o, R: Read> Window<'o, R> {
    pub(super) fn new(input: R, chunk: usize, origin: &'o str, limits: Limits) -> Self {
        let buf = Vec::new();
        Window { input, chunk, buf, pos: 0, eof: false, line: 1, column: 0, read: 0, origin, limits }
    }

    /// Drops the consumed bytes and appends at least a chunk, or as many bytes as are held (so a
    /// value larger than the window is cut again only a logarithmic number of times). False at the
    /// end of the input.
    fn fill(&mut self) -> Step<bool> {
        if self.eof {
            return Ok(false);
        }
        (self.line, self.column) = self.position(self.pos);
        self.buf.drain(..self.pos);
        self.pos = 0;
        // The window holds at most one byte more than the largest value accepted.
        if self.buf.len() > self.limits.object {
            let (line, column) = self.position(0);
            let (origin, limit) = (self.origin.to_string(), self.limits.object);
            return Err(DumpError::ObjectTooLarge { origin, line, column: column + 1, limit });
        }
        let want = self.buf.len().max(self.chunk).min(self.limits.object + 1 - self.buf.len());
        let read =
            self.input.by_ref().take(want as u64).read_to_end(&mut self.buf).map_err(|err| {
                DumpError::Read { origin: self.origin.to_string(), message: err.to_string() }
            })?;
        self.read += read as u64;
        if self.read > self.limits.json {
            let (origin, limit) = (self.origin.to_string(), self.limits.json);
            return Err(DumpError::InputTooLarge { origin, format: "JSON", limit });
        }
        self.eof = read < want;
        Ok(read > 0)
    }

    /// Line and 1-based column of the next unconsumed byte.
    pub(super) fn here(&self) -> (u64, u64) {
        let (line, column) = self.position(self.pos);
        (line, column + 1)
    }

    /// Line and column of `buf[index]`, as serde_json gives them.
    fn position(&self, index: usize) -> (u64, u64) {
        let before = &self.buf[..index];
        match before.iter().rposition(|&b| b == b'\n') {
            None => (self.line, self.column + index as u64),
            Some(last) => {
                // Every byte of the input passes here once: counted a vector at a time.
                let lines = bytecount::count(before, b'\n') as u64;
                (self.line + lines, (index - last - 1) as u64)
            }
        }
    }

    /// As the general reader trims them.
    pub(super) fn skip_byte_order_marks(&mut self) -> Step {
        const BOM: &[u8] = "\u{feff}".as_bytes();
        loop {
            while self.buf.len() - self.pos < BOM.len() && self.fill()? {}
            if !self.buf[self.pos..].starts_with(BOM) {
                // Columns count from after them, as a whole read of the trimmed text does.
                self.buf.drain(..self.pos);
                (self.pos, self.column) = (0, 0);
                return Ok(());
            }
            self.pos += BOM.len();
        }
    }

    /// The next byte after JSON whitespace, not consumed; `None` at the end of the input.
    pub(super) fn peek(&mut self) -> Step<Option<u8>> {
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

    /// Consumes the next byte when it is one of `bytes`; else the error a whole read gives there.
    pub(super) fn expect_one_of(&mut self, bytes: &[u8], state: State<'_>) -> Step<u8> {
        match self.peek()? {
            Some(byte) if bytes.contains(&byte) => {
                self.pos += 1;
                Ok(byte)
            }
            _ => Err(self.structural(state)),
        }
    }

    /// The error a whole read gives at the next byte in `state`.
    pub(super) fn structural(&mut self, state: State<'_>) -> DumpError {
        let prefix = state.prefix();
        loop {
            let mut text = prefix.clone().into_bytes();
            text.extend_from_slice(&self.buf[self.pos..]);
            let mut values = Deserializer::from_slice(&text).into_iter::<Checked<0>>();
            let more = match values.next() {
                // The window may end inside what decides the error (a key given again): read on.
                Some(Err(err)) if !self.eof && (err.is_eof() || near_end(&text, &err)) => true,
                Some(Err(err)) => return self.syntax(&err, self.pos, prefix.len()),
                _ => !self.eof,
            };
            if !more {
                break;
            }
            if let Err(error) = self.fill() {
                return error;
            }
        }
        // Not reached: `state` says serde_json fails here.
        let (line, column) = self.here();
        let message = "unexpected input".to_string();
        DumpError::Syntax { origin: self.origin.to_string(), format: "JSON", line, column, message }
    }

    /// `err`, from parsing `prefix_len` bytes and then the window from `start`, placed in the input.
    fn syntax(&self, err: &serde_json::Error, start: usize, prefix_len: usize) -> DumpError {
        let (line, column) = match (err.line() as u64, err.column()) {
            (0, _) => self.position(start),
            (1, column) => self.position((start + column).saturating_sub(prefix_len).min(self.buf.len())),
            (line, column) => (self.position(start).0 + line - 1, column as u64),
        };
        let origin = self.origin.to_string();
        DumpError::Syntax { origin, format: "JSON", line, column, message: json_message(err) }
    }

    /// Decodes the next value as `T` straight from the window, when it is whole in it and decodes,
    /// and consumes it when `take` takes it; false, nothing consumed, otherwise (the caller then
    /// cuts it with [`Window::value`], which reads on or reports what is wrong). A value ending
    /// where the window does is left to [`Window::value`] too, which reads on first.
    pub(super) fn decode<T: DeserializeOwned>(&mut self, take: impl FnOnce(T) -> bool) -> bool {
        let rest = &self.buf[self.pos..];
        let mut values = Deserializer::from_slice(rest).into_iter::<T>();
        let Some(Ok(value)) = values.next() else {
            return false;
        };
        let end = values.byte_offset();
        if (end < rest.len() || self.eof) && take(value) {
            self.pos += end;
            return true;
        }
        false
    }

    /// Cuts the next JSON value (nested in `D` arrays or objects) out of the window, reading more
    /// of the input as needed, and passes its text to `read`. A scalar inside an array or object
    /// (`nested`) ends where serde_json would look for the next `,`, `]` or `}`.
    pub(super) fn value<const D: usize, T>(&mut self, nested: bool, read: impl FnOnce(&str) -> T) -> Step<T> {
        loop {
            let rest = &self.buf[self.pos..];
            let mut values = Deserializer::from_slice(rest).into_iter::<Checked<D>>();
            let end = match values.next() {
                // A value that ends where the window does may go on (a number): read more.
                Some(Ok(Checked)) if values.byte_offset() < rest.len() || self.eof => {
                    Some(values.byte_offset())
                }
                Some(Err(err)) if nested && ends_scalar(rest, &err) => Some(err.column() - 1),
                Some(Err(err)) if self.eof || !(err.is_eof() || near_end(rest, &err)) => {
                    return Err(self.syntax(&err, self.pos, 0));
                }
                // Nothing but whitespace before the end of the window, or an error that more input
                // may resolve.
                _ => None,
            };
            if let Some(end) = end {
                let text = std::str::from_utf8(&rest[..end]).unwrap_or_default();
                let out = read(text);
                self.pos += end;
                return Ok(out);
            }
            if !self.fill()? && self.buf.len() == self.pos {
                return Err(self.structural(State::Element));
            }
        }
    }
}

/// A scalar (a number, `true`, …) that parsed, followed by a byte that does not end a top-level
/// value: inside an array or object that byte is the structure's business.
fn ends_scalar(rest: &[u8], err: &serde_json::Error) -> bool {
    !matches!(rest.first(), Some(b'{' | b'[' | b'"'))
        && err.line() == 1
        && err.column() > 1
        && json_message(err) == "trailing characters"
}

/// An error at (or just before) the end of the window, which may be an artefact of the cut
/// (`1e` of `1e5`).
fn near_end(rest: &[u8], err: &serde_json::Error) -> bool {
    let mut index = 0;
    for _ in 1..err.line() {
        match rest[index..].iter().position(|&b| b == b'\n') {
            Some(newline) => index += newline + 1,
            None => return true,
        }
    }
    index + err.column() + 1 >= rest.len()
}

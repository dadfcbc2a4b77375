//! The JSON reader's view of its input: the bytes the input has handed over and not yet consumed
//! (a megabyte or so; more only while a value does not fit), and where they are in the whole input
//! (line and column, as serde_json counts them: the column is the number of bytes after the last
//! newline). Each value is decoded by serde_json straight from the window, which also says where
//! it ends; a value cut by the window's end is decoded again once more of it is read.

use std::cell::Cell;
use std::io::{ErrorKind, Read};

use serde::de::IgnoredAny;

use super::super::error::Limits;
use super::super::{DumpError, json_message};

pub(super) type Step<T = ()> = Result<T, DumpError>;

/// Bytes asked of the input at a time.
const CHUNK: usize = 1 << 20;

/// What the top-level structure needed where it went wrong, in serde_json's words.
#[derive(Clone, Copy)]
pub(super) enum Expected {
    Key,
    Colon,
    Value,
    ObjectCommaOrEnd,
    ListCommaOrEnd,
    NoTrailingComma,
    ObjectEnd,
    ListEnd,
}

impl Expected {
    fn message(self) -> &'static str {
        match self {
            Expected::Key => "key must be a string",
            Expected::Colon => "expected `:`",
            Expected::Value => "EOF while parsing a value",
            Expected::ObjectCommaOrEnd => "expected `,` or `}`",
            Expected::ListCommaOrEnd => "expected `,` or `]`",
            Expected::NoTrailingComma => "trailing comma",
            Expected::ObjectEnd => "EOF while parsing an object",
            Expected::ListEnd => "EOF while parsing a list",
        }
    }
}

pub(super) struct Window<'o, R> {
    input: R,
    /// `buf[pos..end]` is read and not consumed; `buf[end..]` is room for the next read.
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    eof: bool,
    /// Line (1-based) and column of `buf[0]` in the input.
    line: u64,
    column: u64,
    /// Bytes read from the input so far.
    read: u64,
    /// The last position counted: `buf` index, line, column.
    counted: Cell<(usize, u64, u64)>,
    pub(super) origin: &'o str,
    pub(super) limits: Limits,
}

impl<'o, R: Read> Window<'o, R> {
    pub(super) fn new(input: R, origin: &'o str, limits: Limits) -> Self {
        let counted = Cell::new((0, 1, 0));
        let (buf, pos, end, eof, line, column, read) = (Vec::new(), 0, 0, false, 1, 0, 0);
        Window { input, buf, pos, end, eof, line, column, read, counted, origin, limits }
    }

    /// Drops the consumed bytes and reads on: what one read of the input gives, or, while a value
    /// does not fit, as many bytes as are held (so a large value is decoded again only a
    /// logarithmic number of times). False at the end of the input.
    fn fill(&mut self) -> Step<bool> {
        if self.eof {
            return Ok(false);
        }
        (self.line, self.column) = self.position_of(self.pos);
        self.buf.copy_within(self.pos..self.end, 0);
        let held = self.end - self.pos;
        (self.pos, self.end) = (0, held);
        self.counted.set((0, self.line, self.column));
        // The window holds at most one byte more than the largest value accepted.
        if held > self.limits.object {
            let (origin, limit) = (self.origin.to_string(), self.limits.object);
            let (line, column) = (self.line, self.column + 1);
            return Err(DumpError::ObjectTooLarge { origin, line, column, limit });
        }
        let room = held.max(CHUNK).min(self.limits.object + 1 - held);
        self.buf.resize(self.buf.len().max(held + room), 0);
        let mut got = 0;
        while got < held.max(1) && self.end < held + room {
            let read = match self.input.read(&mut self.buf[self.end..held + room]) {
                Ok(read) => read,
                Err(err) if err.kind() == ErrorKind::Interrupted => continue,
                Err(err) => {
                    let (origin, message) = (self.origin.to_string(), err.to_string());
                    return Err(DumpError::Read { origin, message });
                }
            };
            (got, self.end, self.read) = (got + read, self.end + read, self.read + read as u64);
            if self.read > self.limits.json {
                let (origin, limit) = (self.origin.to_string(), self.limits.json);
                return Err(DumpError::InputTooLarge { origin, format: "JSON", limit });
            }
            if read == 0 {
                self.eof = true;
                break;
            }
        }
        Ok(got > 0)
    }

    /// Line and column of `buf[index]`, as serde_json gives them. Counted on from the last place
    /// asked for when it is before `index` (values are read in order), so every byte of the input
    /// is counted about once.
    pub(super) fn position_of(&self, index: usize) -> (u64, u64) {
        let (from, line, column) = match self.counted.get() {
            (from, line, column) if from <= index => (from, line, column),
            _ => (0, self.line, self.column),
        };
        let between = &self.buf[from..index];
        let position = match between.iter().rposition(|&b| b == b'\n') {
            None => (line, column + between.len() as u64),
            // Counted a vector at a time.
            Some(last) => (line + bytecount::count(between, b'\n') as u64, (between.len() - last - 1) as u64),
        };
        self.counted.set((index, position.0, position.1));
        position
    }

    /// Line and column (0-based: bytes before it on its line) of the next byte.
    pub(super) fn here(&self) -> (u64, u64) {
        self.position_of(self.pos)
    }

    /// Consumes `byte`, which [`Window::peek`] has just returned.
    pub(super) fn consume(&mut self, byte: u8) {
        debug_assert_eq!(self.buf.get(self.pos), Some(&byte));
        self.pos += 1;
    }

    /// As serde_json trims them from a text.
    pub(super) fn skip_byte_order_marks(&mut self) -> Step {
        const BOM: &[u8] = "\u{feff}".as_bytes();
        loop {
            while self.end - self.pos < BOM.len() && self.fill()? {}
            if !self.buf[self.pos..self.end].starts_with(BOM) {
                // Columns count from after them, as a read of the trimmed text does.
                self.fill_from_here();
                return Ok(());
            }
            self.pos += BOM.len();
        }
    }

    /// Forgets what was consumed, and counts columns from the next byte.
    fn fill_from_here(&mut self) {
        self.buf.copy_within(self.pos..self.end, 0);
        (self.end, self.pos, self.column) = (self.end - self.pos, 0, 0);
        self.counted.set((0, self.line, 0));
    }

    /// The next byte after JSON whitespace, not consumed; `None` at the end of the input.
    pub(super) fn peek(&mut self) -> Step<Option<u8>> {
        loop {
            let rest = &self.buf[self.pos..self.end];
            match rest.iter().position(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t')) {
                Some(skip) => {
                    self.pos += skip;
                    return Ok(Some(self.buf[self.pos]));
                }
                None => {
                    self.pos = self.end;
                    if !self.fill()? {
                        return Ok(None);
                    }
                }
            }
        }
    }

    /// Decodes the next value (after [`Window::peek`]) with `decode`, given serde_json over the
    /// window from there, and consumes it. When the window ends inside it, more is read and it is
    /// decoded again; an error is placed in the input.
    pub(super) fn decode<T>(
        &mut self,
        mut decode: impl FnMut(&[u8]) -> serde_json::Result<(T, usize)>,
    ) -> Step<T> {
        loop {
            let rest = &self.buf[self.pos..self.end];
            match decode(rest) {
                // A value that ends where the window does may go on (a number): read more.
                Ok((value, end)) if end < rest.len() || self.eof => {
                    self.pos += end;
                    return Ok(value);
                }
                Err(err) if self.eof || !(err.is_eof() || near_end(rest, &err)) => {
                    return Err(self.syntax(&err, self.here()));
                }
                _ => {}
            }
            if !self.fill()? && self.pos == self.end {
                return Err(self.expected(Expected::Value));
            }
        }
    }

    /// The error at the next byte (or at the end of the input) where the structure needed
    /// something else.
    pub(super) fn expected(&self, expected: Expected) -> DumpError {
        // serde_json places it at the byte it did not expect (1-based), or after the last byte.
        let (line, column) = self.position_of((self.pos + 1).min(self.end));
        let message = expected.message().to_string();
        DumpError::Syntax { origin: self.origin.to_string(), format: "JSON", line, column, message }
    }

    /// An error right after the last byte consumed (where serde_json places one its caller raises).
    pub(super) fn error_here(&self, message: String) -> DumpError {
        let (line, column) = self.here();
        DumpError::Syntax { origin: self.origin.to_string(), format: "JSON", line, column, message }
    }

    /// `err`, from reading text that starts at `start` of the input, placed in the input.
    pub(super) fn syntax(&self, err: &serde_json::Error, start: (u64, u64)) -> DumpError {
        let (line, column) = match (err.line() as u64, err.column() as u64) {
            (0, _) => start,
            (1, column) => (start.0, start.1 + column),
            (line, column) => (start.0 + line - 1, column),
        };
        let origin = self.origin.to_string();
        DumpError::Syntax { origin, format: "JSON", line, column, message: json_message(err) }
    }
}

/// Where serde_json stopped in `text` after decoding one value with `de`.
pub(super) fn offset(de: serde_json::Deserializer<serde_json::de::SliceRead<'_>>) -> usize {
    de.into_iter::<IgnoredAny>().byte_offset()
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

//! The JSON reader's view of its input: the bytes handed over and not yet consumed (a megabyte or
//! so; more while a value does not fit), and the line and column of the first (as serde_json counts
//! them: the column is bytes after the last newline), so an error is placed in the input. A value
//! cut by the window's end is decoded again once more of it is read.

use std::io::{ErrorKind, Read};

use serde::de::IgnoredAny;
use topo_engine::model::SourceLine;

use super::super::{DumpError, MAX_JSON_BYTES, MAX_OBJECT_BYTES, json_message};

pub(super) type Step<T = ()> = Result<T, DumpError>;

/// Bytes asked of the input at a time.
const CHUNK: usize = 1 << 20;

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
    /// An index of `buf` and its line, from where [`Window::line`] counts on.
    counted: (usize, u64),
    pub(super) origin: &'o str,
}

impl<'o, R: Read> Window<'o, R> {
    pub(super) fn new(input: R, origin: &'o str) -> Self {
        let (buf, pos, end, eof, line, column, read) = (Vec::new(), 0, 0, false, 1, 0, 0);
        Window { input, buf, pos, end, eof, line, column, read, counted: (0, 1), origin }
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
        (self.pos, self.end, self.counted) = (0, held, (0, self.line));
        // The window holds at most one byte more than the largest value accepted.
        if held > MAX_OBJECT_BYTES {
            let (origin, line, column) = (self.origin.to_string(), self.line, self.column + 1);
            return Err(DumpError::ObjectTooLarge { origin, line, column, limit: MAX_OBJECT_BYTES });
        }
        let room = held.max(CHUNK).min(MAX_OBJECT_BYTES + 1 - held);
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
            if self.read > MAX_JSON_BYTES {
                let origin = self.origin.to_string();
                return Err(DumpError::InputTooLarge { origin, format: "JSON", limit: MAX_JSON_BYTES });
            }
            if read == 0 {
                self.eof = true;
                break;
            }
        }
        Ok(got > 0)
    }

    /// Line and column of `buf[index]`, as serde_json gives them.
    fn position_of(&self, index: usize) -> (u64, u64) {
        let between = &self.buf[..index];
        match between.iter().rposition(|&b| b == b'\n') {
            None => (self.line, self.column + between.len() as u64),
            // Counted a vector at a time.
            Some(last) => {
                (self.line + bytecount::count(between, b'\n') as u64, (between.len() - last - 1) as u64)
            }
        }
    }

    /// Line and column (0-based: bytes before it on its line) of the next byte.
    pub(super) fn here(&self) -> (u64, u64) {
        self.position_of(self.pos)
    }

    /// Line of the next byte, counted on from the last one asked: each byte is counted once,
    /// however many items a window holds.
    pub(super) fn line(&mut self) -> SourceLine {
        let (from, line) = self.counted;
        self.counted = (self.pos, line + bytecount::count(&self.buf[from..self.pos], b'\n') as u64);
        source_line(self.counted.1)
    }

    /// Line and column of the value of `len` bytes just consumed.
    pub(super) fn start_of(&self, len: usize) -> (u64, u64) {
        self.position_of(self.pos - len)
    }

    /// Consumes the byte [`Window::peek`] has just returned.
    pub(super) fn consume(&mut self) {
        self.pos += 1;
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

    /// The entries of the object or array whose opening byte is next (`close` ends it), each read
    /// by `entry` from its first byte; serde_json's errors for the structure around them.
    pub(super) fn entries(&mut self, close: u8, mut entry: impl FnMut(&mut Self) -> Step) -> Step {
        let object = close == b'}';
        self.consume();
        if !object && self.peek()?.is_none() {
            return Err(self.expected("EOF while parsing a list"));
        }
        if self.peek()? == Some(close) {
            self.consume();
            return Ok(());
        }
        loop {
            match self.peek()? {
                Some(byte) if byte == close => return Err(self.expected("trailing comma")),
                Some(byte) if object && byte != b'"' => return Err(self.expected("key must be a string")),
                Some(_) => entry(self)?,
                None if object => return Err(self.expected("EOF while parsing an object")),
                None => return Err(self.expected("EOF while parsing a value")),
            }
            match self.peek()? {
                Some(b',') => self.consume(),
                Some(byte) if byte == close => {
                    self.consume();
                    return Ok(());
                }
                Some(_) => return Err(self.expected(&format!("expected `,` or `{}`", char::from(close)))),
                None if object => return Err(self.expected("EOF while parsing an object")),
                None => return Err(self.expected("EOF while parsing a list")),
            }
        }
    }

    /// Decodes the next value (after [`Window::peek`]) with `decode`, given the window from there,
    /// and consumes it. When the window ends inside it, more is read and it is decoded again; an
    /// error is placed in the input.
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
                return Err(self.expected("EOF while parsing a value"));
            }
        }
    }

    /// `message` at the next byte (or after the last one), where the structure needed something
    /// else: where serde_json places its own such errors.
    pub(super) fn expected(&self, message: &str) -> DumpError {
        let (line, column) = self.position_of((self.pos + 1).min(self.end));
        self.error_at(line, column, message.to_string())
    }

    /// `message` right after the last byte consumed (where serde_json places one its caller raises).
    pub(super) fn error_here(&self, message: String) -> DumpError {
        let (line, column) = self.here();
        self.error_at(line, column, message)
    }

    fn error_at(&self, line: u64, column: u64, message: String) -> DumpError {
        DumpError::Syntax { origin: self.origin.to_string(), format: "JSON", line, column, message }
    }

    /// `err`, from reading text that starts at `start` of the input, placed in the input.
    pub(super) fn syntax(&self, err: &serde_json::Error, start: (u64, u64)) -> DumpError {
        let (line, column) = match (err.line() as u64, err.column() as u64) {
            (0, _) => start,
            (1, column) => (start.0, start.1 + column),
            (line, column) => (start.0 + line - 1, column),
        };
        self.error_at(line, column, json_message(err))
    }
}

/// A line of the input as the model keeps it (none past `u32::MAX`).
pub(super) fn source_line(line: u64) -> SourceLine {
    SourceLine(u32::try_from(line).ok().and_then(std::num::NonZeroU32::new))
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

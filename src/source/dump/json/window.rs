//! The JSON reader's view of its input: the bytes read and not yet consumed, about a megabyte at a
//! time, and where they are in the whole input (line and column, as serde_json counts them: the
//! column is the number of bytes after the last newline). Values are cut out by serde_json and read
//! from their text; their errors are moved from the text to the input.

use std::cell::Cell;
use std::io::Read;
use std::ops::Range;

use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::Value;

use super::super::error::Limits;
use super::super::{DumpError, Inherited, classify, json_message};
use super::{check_at, check_first, item, tree_at};

pub(super) type Step<T = ()> = Result<T, DumpError>;

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
    chunk: usize,
    buf: Vec<u8>,
    /// Where the unconsumed bytes start.
    pos: usize,
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
    pub(super) fn new(input: R, chunk: usize, origin: &'o str, limits: Limits) -> Self {
        let buf = Vec::new();
        let counted = Cell::new((0, 1, 0));
        Window { input, chunk, buf, pos: 0, eof: false, line: 1, column: 0, read: 0, counted, origin, limits }
    }

    /// Drops the consumed bytes and appends at least a chunk, or as many bytes as are held (so a
    /// value larger than the window is cut again only a logarithmic number of times). False at the
    /// end of the input.
    fn fill(&mut self) -> Step<bool> {
        if self.eof {
            return Ok(false);
        }
        (self.line, self.column) = self.position_of(self.pos);
        self.buf.drain(..self.pos);
        self.pos = 0;
        self.counted.set((0, self.line, self.column));
        // The window holds at most one byte more than the largest value accepted.
        if self.buf.len() > self.limits.object {
            let (line, column) = self.position_of(0);
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

    /// Line and 1-based column of the next byte.
    pub(super) fn start(&self) -> (u64, u64) {
        let (line, column) = self.position_of(self.pos);
        (line, column + 1)
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
            while self.buf.len() - self.pos < BOM.len() && self.fill()? {}
            if !self.buf[self.pos..].starts_with(BOM) {
                // Columns count from after them, as a read of the trimmed text does.
                self.buf.drain(..self.pos);
                (self.pos, self.column) = (0, 0);
                self.counted.set((0, self.line, 0));
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

    /// Cuts the next JSON value (after [`Window::peek`]) out of the window, reading on until it is
    /// whole, and consumes it: its place in the window, until the next cut. Only its syntax is
    /// checked (serde_json skipping it); the caller reads it. A scalar inside an array or object
    /// (`depth` > 0) ends where serde_json would look for the next `,`, `]` or `}`. When the cut
    /// fails, the checking visitor reads the same text: its error is the first in the text, which
    /// may be the grammar's (nesting too deep) before the syntax error.
    pub(super) fn cut(&mut self, depth: usize) -> Step<Range<usize>> {
        loop {
            let rest = &self.buf[self.pos..];
            let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<IgnoredAny>();
            match values.next() {
                // A value that ends where the window does may go on (a number): read more.
                Some(Ok(_)) if values.byte_offset() < rest.len() || self.eof => {
                    let range = self.pos..self.pos + values.byte_offset();
                    self.pos = range.end;
                    return Ok(range);
                }
                Some(Err(err)) if depth > 0 && ends_scalar(rest, &err) => {
                    let range = self.pos..self.pos + err.column() - 1;
                    self.pos = range.end;
                    return Ok(range);
                }
                Some(Err(err)) if self.eof || !(err.is_eof() || near_end(rest, &err)) => {
                    let first = check_first(rest, depth).err().unwrap_or(err);
                    return Err(self.syntax(&first, self.position_of(self.pos)));
                }
                _ => {}
            }
            if !self.fill()? && self.pos == self.buf.len() {
                return Err(self.expected(Expected::Value));
            }
        }
    }

    /// The bytes of a cut value.
    pub(super) fn bytes(&self, range: Range<usize>) -> &[u8] {
        &self.buf[range]
    }

    /// A cut value read as `T`.
    pub(super) fn parse<T: DeserializeOwned>(&self, range: Range<usize>) -> Step<T> {
        let start = self.position_of(range.start);
        serde_json::from_slice(&self.buf[range]).map_err(|err| self.syntax(&err, start))
    }

    /// A cut value nested `depth` deep, as a `Value` in the shared grammar.
    pub(super) fn tree(&self, range: Range<usize>, depth: usize) -> Step<Value> {
        let start = self.position_of(range.start);
        tree_at(&self.buf[range], depth).map_err(|err| self.syntax(&err, start))
    }

    /// A cut value nested `depth` deep, checked in the shared grammar.
    pub(super) fn check(&self, range: Range<usize>, depth: usize) -> Step {
        self.check_text(&self.buf[range.clone()], self.position_of(range.start), depth)
    }

    /// As [`Window::check`], for text starting at `start` of the input.
    pub(super) fn check_text(&self, text: &[u8], start: (u64, u64), depth: usize) -> Step {
        check_at(text, depth).map_err(|err| self.syntax(&err, start))
    }

    /// A cut List item, read with the List's type when it is `known`.
    pub(super) fn item(
        &self,
        range: Range<usize>,
        inherited: Inherited<'_>,
        known: bool,
    ) -> Step<item::Read> {
        self.item_at(&self.buf[range.clone()], self.position_of(range.start), inherited, known)
    }

    /// A kept List item, read now that the List's type is known.
    pub(super) fn item_text(
        &self,
        text: &[u8],
        start: (u64, u64),
        inherited: Inherited<'_>,
    ) -> Step<item::Read> {
        self.item_at(text, start, inherited, true)
    }

    fn item_at(
        &self,
        text: &[u8],
        start: (u64, u64),
        inherited: Inherited<'_>,
        known: bool,
    ) -> Step<item::Read> {
        if text.first() != Some(&b'{') {
            // Not an object: what it is does not depend on the List.
            let value = tree_at(text, 2).map_err(|err| self.syntax(&err, start))?;
            let mut outcomes = Vec::new();
            classify(value, inherited, 1, &mut outcomes);
            return Ok(item::Read::Outcomes(outcomes));
        }
        match item::read(text, inherited, known) {
            Ok(read) => Ok(read),
            Err(failure) => match failure.into_outcome(text) {
                Ok(outcome) => {
                    // What is wrong with the object is reported unless its text is wrong too.
                    self.check_text(text, start, 2)?;
                    Ok(item::Read::Outcomes(vec![outcome]))
                }
                Err(err) => Err(self.syntax(&err, start)),
            },
        }
    }

    /// The error at the next byte (or at the end of the input) where the structure needed
    /// something else.
    pub(super) fn expected(&self, expected: Expected) -> DumpError {
        // serde_json places it at the byte it did not expect (1-based), or after the last byte.
        let (line, column) = self.position_of((self.pos + 1).min(self.buf.len()));
        let message = expected.message().to_string();
        DumpError::Syntax { origin: self.origin.to_string(), format: "JSON", line, column, message }
    }

    /// An error right after `buf[..index]` (where serde_json places one its caller raises).
    pub(super) fn error_after(&self, index: usize, message: String) -> DumpError {
        let (line, column) = self.position_of(index);
        DumpError::Syntax { origin: self.origin.to_string(), format: "JSON", line, column, message }
    }

    /// `err`, from reading text that starts at `start` of the input, placed in the input.
    fn syntax(&self, err: &serde_json::Error, start: (u64, u64)) -> DumpError {
        let (line, column) = match (err.line() as u64, err.column() as u64) {
            (0, _) => start,
            (1, column) => (start.0, start.1 + column),
            (line, column) => (start.0 + line - 1, column),
        };
        let origin = self.origin.to_string();
        DumpError::Syntax { origin, format: "JSON", line, column, message: json_message(err) }
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

//! The fast path for YAML: the block-style subset `kubectl get -o yaml` writes (mappings and
//! sequences by indentation, plain and quoted scalars on one line, block scalars, `{}` and `[]`,
//! comments, `---`) is rewritten line by line into JSON for the JSON reader; each line of YAML ends
//! a line of JSON, so an object's line is its line in the YAML. Nothing is held but a line, a
//! block scalar and a chunk of JSON.
//!
//! Anything outside the subset (anchors, tags, flow collections, multi-line or uncertain scalars,
//! tabs, control characters, deep nesting, a key given twice) stops it with [`Unsupported`], and
//! so does anything the JSON reader refuses: the full YAML reader then reads the input from the
//! start, so results and errors stay the full reader's. A piece whose rules are long and that
//! dumps seldom hold (a block scalar, an escape JSON lacks) is read by serde-saphyr alone.

use std::io::{self, BufRead, Read};

use super::super::ahead::read_ahead;
use super::super::{ParsedDump, json};

mod block;
mod scalar;

use block::Block;
use scalar::split_key;

/// The dump read through the fast path; `None` when the full reader must read it (outside the
/// subset, or refused: the full reader's message is the one to give).
/// The YAML is transcoded on a second thread while the JSON is decoded ([`read_ahead`]).
pub(in super::super) fn read(input: impl BufRead + Send, origin: &str) -> Option<ParsedDump> {
    let (mut input, mut transcoder) = (input, Transcoder::default());
    read_ahead(|spare| transcoder.next_chunk(&mut input, spare), |json| json::read(json, origin)).ok()
}

/// Outside the subset: the full YAML reader decides.
#[derive(Debug)]
pub(super) struct Unsupported;

pub(super) type Fast<T> = Result<T, Unsupported>;

/// JSON handed out at a time.
const CHUNK: usize = 1 << 20;
/// Longest line taken; a longer one (a huge scalar) is the full reader's.
const MAX_LINE: usize = 1 << 20;
/// Deepest nesting taken, well under the parser's limit (`MAX_DEPTH`).
const MAX_NESTING: usize = 40;
/// Most keys of one mapping taken (kubectl's have a few dozen, Cilium's ConfigMap about 150):
/// each key is compared with the others of its mapping.
const MAX_KEYS: usize = 256;

/// An open mapping or sequence: where its entries start, how many it has, and where its keys
/// start in [`Transcoder::keys`].
#[derive(Clone, Copy)]
struct Frame {
    seq: bool,
    indent: usize,
    entries: usize,
    keys: usize,
}

/// YAML in, JSON out, in chunks ([`Transcoder::next_chunk`]).
#[derive(Default)]
pub(super) struct Transcoder {
    line: Vec<u8>,
    out: Vec<u8>,
    stack: Vec<Frame>,
    /// The keys of the open mappings as written in JSON (`key_text[start..end]`): a key given
    /// twice is the parser's to refuse, as the JSON reader keeps the last.
    keys: Vec<(usize, usize)>,
    key_text: Vec<u8>,
    /// The last key (or `-`) of the innermost mapping (or sequence) has its value on a later
    /// line: a nested block, or null.
    pending: bool,
    block: Option<Block>,
    /// Lines of YAML ended whose line break is not written yet.
    breaks: usize,
    /// The line at hand ends the input without a line break.
    unended: bool,
    /// The current document has its root.
    rooted: bool,
    done: bool,
}

impl Transcoder {
    /// Writes JSON until a chunk is ready or the input ends. (An input of nothing but comments
    /// writes nothing, which the JSON reader refuses, so the full reader says what it is.)
    fn fill(&mut self, input: &mut impl BufRead) -> Fast<()> {
        while self.out.len() < CHUNK {
            if !self.next_line(input)? {
                self.done = true;
                return self.end_document();
            }
        }
        Ok(())
    }

    /// Reads and takes one line; false at the end of the input.
    fn next_line(&mut self, input: &mut impl BufRead) -> Fast<bool> {
        self.line.clear();
        let read = input.take(MAX_LINE as u64 + 1).read_until(b'\n', &mut self.line);
        match read.map_err(|_| Unsupported)? {
            0 => return Ok(false),
            _ if self.line.last() == Some(&b'\n') => drop(self.line.pop()),
            n if n > MAX_LINE => return Err(Unsupported),
            _ => self.unended = true,
        }
        let line = std::mem::take(&mut self.line);
        let taken = printable(&line).and_then(|text| self.take(text));
        self.line = line;
        self.breaks += 1;
        taken.map(|()| true)
    }

    /// One line of YAML.
    fn take(&mut self, line: &str) -> Fast<()> {
        let rest = line.trim_start_matches(' ');
        let indent = line.len() - rest.len();
        if self.block.is_some() && self.block_line(indent, line)? {
            return Ok(());
        }
        self.out.extend(std::iter::repeat_n(b'\n', std::mem::take(&mut self.breaks)));
        if rest.is_empty() || rest.starts_with('#') {
            return Ok(());
        }
        if indent == 0 && (rest.starts_with("---") || rest.starts_with("...") || rest.starts_with('%')) {
            return if rest == "---" { self.end_document() } else { Err(Unsupported) };
        }
        let dash = rest == "-" || rest.starts_with("- ");
        if std::mem::take(&mut self.pending) {
            self.resolve(indent, dash)?;
        } else if self.stack.is_empty() {
            self.root(indent, rest, dash)?;
        }
        self.close_to(indent, dash);
        self.entry(indent, rest, dash)
    }

    /// The first line of a document opens its root: a sequence or a mapping.
    fn root(&mut self, indent: usize, rest: &str, dash: bool) -> Fast<()> {
        if self.rooted || (!dash && split_key(rest).is_none()) {
            return Err(Unsupported);
        }
        self.rooted = true;
        self.open(dash, indent)
    }

    /// What a key or `-` without a value on its line holds, now that the next line is here.
    fn resolve(&mut self, indent: usize, dash: bool) -> Fast<()> {
        let parent = self.stack.last().copied().ok_or(Unsupported)?;
        // A mapping's sequence may sit at the mapping's own indentation (`items:` then `- …`).
        if dash && (indent > parent.indent || (indent == parent.indent && !parent.seq)) {
            self.open(true, indent)
        } else if indent > parent.indent {
            self.open(false, indent)
        } else {
            self.out.extend_from_slice(b"null");
            Ok(())
        }
    }

    fn open(&mut self, seq: bool, indent: usize) -> Fast<()> {
        if self.stack.len() >= MAX_NESTING {
            return Err(Unsupported);
        }
        self.out.push(if seq { b'[' } else { b'{' });
        self.stack.push(Frame { seq, indent, entries: 0, keys: self.keys.len() });
        Ok(())
    }

    /// Closes what a line at `indent` ends.
    fn close_to(&mut self, indent: usize, dash: bool) {
        while let Some(top) = self.stack.last() {
            if top.indent > indent || (top.seq && top.indent == indent && !dash && self.stack.len() > 1) {
                self.close();
            } else {
                break;
            }
        }
    }

    fn close(&mut self) {
        if let Some(frame) = self.stack.pop() {
            self.out.push(if frame.seq { b']' } else { b'}' });
            if let Some(&(start, _)) = self.keys.get(frame.keys) {
                self.key_text.truncate(start);
            }
            self.keys.truncate(frame.keys);
        }
    }

    /// A line that starts an entry of the innermost open mapping or sequence.
    fn entry(&mut self, indent: usize, rest: &str, dash: bool) -> Fast<()> {
        let frame = self.stack.last().copied().ok_or(Unsupported)?;
        // Deeper than any open entry (a continued scalar), or a `-` where keys are.
        if frame.indent != indent || frame.seq != dash {
            return Err(Unsupported);
        }
        self.separator();
        if !frame.seq {
            return self.map_entry(indent, rest);
        }
        let after = &rest[1..];
        let value = after.trim_start_matches(' ');
        if value.is_empty() {
            self.pending = true;
            return Ok(());
        }
        if value == "-" || value.starts_with("- ") {
            return Err(Unsupported);
        }
        if split_key(value).is_some() {
            // `- key: value`: a mapping whose keys line up with this one.
            let column = indent + 1 + after.len() - value.len();
            self.open(false, column)?;
            self.separator();
            return self.map_entry(column, value);
        }
        self.value(value, indent)
    }

    /// A comma before every entry but the first.
    fn separator(&mut self) {
        if let Some(frame) = self.stack.last_mut() {
            if frame.entries > 0 {
                self.out.push(b',');
            }
            frame.entries += 1;
        }
    }

    /// `key: value`, `key:` (the value follows), in a mapping at `indent`.
    fn map_entry(&mut self, indent: usize, rest: &str) -> Fast<()> {
        let (key, after) = split_key(rest).ok_or(Unsupported)?;
        let start = self.out.len();
        match key {
            Some(key) => scalar::plain_key(key, &mut self.out)?,
            None => drop(scalar::quoted(rest, &mut self.out)?),
        }
        self.once(start)?;
        self.out.push(b':');
        let value = after.trim_start_matches(' ');
        if value.is_empty() {
            self.pending = true;
            return Ok(());
        }
        self.value(value, indent)
    }

    /// Records the key just written at `out[start..]`: a key given twice, one written with an
    /// escape (which another spelling could equal), or a mapping of more than [`MAX_KEYS`] keys
    /// (each key is compared with the others) is the parser's.
    fn once(&mut self, start: usize) -> Fast<()> {
        let key = &self.out[start..];
        let first = self.stack.last().map_or(0, |frame| frame.keys);
        let seen = self.keys[first..].iter().any(|&(s, e)| &self.key_text[s..e] == key);
        if seen || key.contains(&b'\\') || self.keys.len() - first >= MAX_KEYS {
            return Err(Unsupported);
        }
        self.keys.push((self.key_text.len(), self.key_text.len() + key.len()));
        self.key_text.extend_from_slice(key);
        Ok(())
    }

    /// A value that begins on its key's (or `-`'s) line, in a collection at `parent`.
    fn value(&mut self, value: &str, parent: usize) -> Fast<()> {
        let rest = match value.as_bytes()[0] {
            b'"' | b'\'' => scalar::quoted(value, &mut self.out)?,
            b'{' | b'[' => {
                let empty = value.trim_end_matches(' ');
                if empty != "{}" && empty != "[]" {
                    return Err(Unsupported);
                }
                self.out.extend_from_slice(empty.as_bytes());
                ""
            }
            b'|' | b'>' => return self.start_block(value.trim_end_matches(' '), parent),
            b'&' | b'*' | b'!' | b'%' | b'@' | b'`' | b'#' | b'?' | b',' | b']' | b'}' | b':' => {
                return Err(Unsupported);
            }
            _ => {
                let plain = value.trim_end_matches(' ');
                if plain == "-"
                    || plain.starts_with("- ")
                    || plain.ends_with(':')
                    || plain.as_bytes().windows(2).any(|w| matches!(w, b" #" | b": "))
                {
                    return Err(Unsupported);
                }
                return scalar::plain(plain, &mut self.out);
            }
        };
        if rest.trim_start_matches(' ').is_empty() { Ok(()) } else { Err(Unsupported) }
    }

    /// Ends the current document (at `---` or the end of the input).
    fn end_document(&mut self) -> Fast<()> {
        self.end_block()?;
        if std::mem::take(&mut self.pending) {
            self.out.extend_from_slice(b"null");
        }
        while !self.stack.is_empty() {
            self.close();
        }
        self.rooted = false;
        Ok(())
    }

    /// The next chunk of JSON, of about [`CHUNK`] bytes (the one after it is written into `spare`);
    /// an error, and nothing after it, when the input is outside the subset.
    pub(super) fn next_chunk(
        &mut self,
        input: &mut impl BufRead,
        mut spare: Vec<u8>,
    ) -> Option<io::Result<Vec<u8>>> {
        if self.done {
            return None;
        }
        let filled = self.fill(input);
        self.done |= filled.is_err();
        spare.clear();
        spare.reserve(CHUNK + MAX_LINE);
        let chunk = filled.map(|()| std::mem::replace(&mut self.out, spare));
        Some(chunk.map_err(|Unsupported| io::Error::other("outside the YAML subset the fast path reads")))
    }
}

/// A line as text, when every character is one YAML prints as itself: no tabs, no carriage
/// returns, no control characters, none of the characters YAML 1.1 reads as line breaks, no byte
/// order mark.
fn printable(line: &[u8]) -> Fast<&str> {
    // Nearly every line is printable ASCII: one pass decides, and only the others look further.
    let ascii = line.iter().fold(true, |all, &b| all & (b' '..=b'~').contains(&b));
    if !ascii && line.iter().any(|&b| b < 0x20 || b == 0x7f) {
        return Err(Unsupported);
    }
    let text = std::str::from_utf8(line).map_err(|_| Unsupported)?;
    let odd =
        |c| matches!(c, '\u{80}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}');
    if !ascii && text.chars().any(odd) {
        return Err(Unsupported);
    }
    Ok(text)
}

#[cfg(test)]
mod tests;

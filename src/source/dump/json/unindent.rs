//! A JSON file's indentation, taken out on a second thread ([`read_ahead`]) before the reader
//! decodes it: kubectl indents four spaces a level, so half of a dump's bytes begin its lines, and
//! serde_json would skip them one at a time on the decoding thread. Only spaces and tabs right
//! after a newline go (valid JSON has no newline inside a string), and the newlines stay, so line
//! numbers hold; columns do not, so a caller that meets an error reads the file again as written.

use std::io::Read;

use super::super::ahead::{Ahead, read_ahead};

/// Bytes read from the file at a time.
const CHUNK: usize = 1 << 20;

/// What `consume` makes of `input` read with its indentation taken out on a second thread: each
/// chunk of the file is unindented into a spent chunk (after `None` or an error [`read_ahead`]
/// asks no more).
pub(in super::super) fn unindented<T>(
    mut input: impl Read + Send,
    consume: impl FnOnce(&mut Ahead) -> T,
) -> T {
    // What is read from the file; whether the last byte handed out ended a line.
    let (mut read, mut line_start) = (Vec::new(), false);
    let next = move |mut chunk: Vec<u8>| {
        read.clear();
        match input.by_ref().take(CHUNK as u64).read_to_end(&mut read) {
            Ok(0) => None,
            Ok(_) => {
                chunk.clear();
                unindent(&read, &mut chunk, &mut line_start);
                Some(Ok(chunk))
            }
            Err(err) => Some(Err(err)),
        }
    };
    read_ahead(next, consume)
}

/// Appends `bytes` to `out` without the spaces and tabs that begin each line; `line_start`: the
/// byte before `bytes` ended a line (and, on return, the last of them).
fn unindent(bytes: &[u8], out: &mut Vec<u8>, line_start: &mut bool) {
    let mut from = 0;
    while from < bytes.len() {
        if *line_start {
            from += blanks(&bytes[from..]);
            if from == bytes.len() {
                break;
            }
        }
        let end = memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |at| from + at + 1);
        *line_start = bytes[end - 1] == b'\n';
        out.extend_from_slice(&bytes[from..end]);
        from = end;
    }
}

/// How many spaces and tabs `bytes` begins with (kubectl indents by four spaces: eight are
/// compared at once).
fn blanks(bytes: &[u8]) -> usize {
    let mut n = 0;
    while bytes.get(n..n + 8) == Some(b"        ") {
        n += 8;
    }
    n + bytes[n..].iter().take_while(|&&b| b == b' ' || b == b'\t').count()
}

#[cfg(test)]
mod tests;

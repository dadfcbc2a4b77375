//! What a dump is before it is parsed. The first bytes decide: UTF-16 or UTF-32 text (what Windows
//! PowerShell's `>` writes) and binary data are refused; JSON (`{` or `[` first, after byte order
//! marks and whitespace) is streamed ([`super::json`]); anything else is YAML, up to
//! [`MAX_YAML_BYTES`], streamed through the fast path when it can be, else read whole, checked for
//! NUL bytes and UTF-8 as it is read (so `/dev/zero` stops at once).

use std::io::{BufReader, Cursor, Read, Seek};

use super::{DumpError, MAX_JSON_BYTES, MAX_YAML_BYTES, ParsedDump, json, yaml};

/// Bytes read at a time while deciding and while reading YAML.
const CHUNK: usize = 64 << 10;

/// Reads a dump from `input`, as `--from-file -` reads stdin; `len` is its size when known (a
/// regular file), so an input over the limit is refused before it is read.
pub fn read_dump(input: impl Read, origin: &str, len: Option<u64>) -> Result<ParsedDump, DumpError> {
    read_within(input, origin, len, MAX_YAML_BYTES)
}

/// Reads a dump from a regular file of `len` bytes, at its start. A YAML file is read as a stream
/// through the fast path (rewritten on a second thread, [`super::ahead`]), so its text is never held
/// whole; only when it is outside the fast path's subset is it read again from the start, whole, by
/// the full parser.
pub(crate) fn read_dump_file(
    mut input: impl Read + Seek + Send,
    origin: &str,
    len: u64,
) -> Result<ParsedDump, DumpError> {
    let (head, json) = sniff(&mut input, origin, MAX_YAML_BYTES)?;
    let yaml = !json && len <= MAX_YAML_BYTES;
    if yaml
        && let Some(parsed) =
            yaml::read_fast(BufReader::with_capacity(CHUNK, Cursor::new(head).chain(&mut input)), origin)
    {
        return Ok(parsed);
    }
    let rewind = |input: &mut _| Seek::rewind(input).map_err(|err| read_error(origin, &err));
    rewind(&mut input)?;
    if json {
        // Its indentation taken out first (on a second thread); an error is read again as written,
        // to place it in the file.
        let read = json::unindented(&mut input, |json| read_within(json, origin, Some(len), MAX_YAML_BYTES));
        if read.is_ok() {
            return read;
        }
        rewind(&mut input)?;
    }
    if !yaml {
        return read_dump(input, origin, Some(len));
    }
    let text = read_text(Vec::new(), input, origin, MAX_YAML_BYTES)?;
    yaml::read_parsed(&text, origin)
}

fn read_error(origin: &str, err: &std::io::Error) -> DumpError {
    DumpError::Read { origin: origin.to_string(), message: err.to_string() }
}

/// [`read_dump`] with a YAML input read up to `yaml_limit` bytes (tests use a smaller one).
fn read_within(
    mut input: impl Read,
    origin: &str,
    len: Option<u64>,
    yaml_limit: u64,
) -> Result<ParsedDump, DumpError> {
    let (mut head, json) = sniff(&mut input, origin, yaml_limit)?;
    let (format, limit) = if json { ("JSON", MAX_JSON_BYTES) } else { ("YAML", yaml_limit) };
    if len.is_some_and(|len| len > limit) {
        return Err(DumpError::InputTooLarge { origin: origin.to_string(), format, limit });
    }
    if json {
        // Byte order marks, which `decide` skipped: columns count from after them.
        let marks = head.chunks(3).take_while(|mark| *mark == "\u{feff}".as_bytes()).count();
        head.drain(..3 * marks);
        return json::read(Cursor::new(head).chain(input), origin);
    }
    let text = read_text(head, input, origin, yaml_limit)?;
    yaml::read_fast(text.as_bytes(), origin).map_or_else(|| yaml::read_parsed(&text, origin), Ok)
}

/// Reads until the first character that decides the format; the bytes read, and whether it is
/// JSON.
fn sniff(input: &mut impl Read, origin: &str, limit: u64) -> Result<(Vec<u8>, bool), DumpError> {
    let mut head = Vec::new();
    loop {
        let read = read_chunk(input, &mut head, origin)?;
        if let Some(encoding) = wide_encoding(&head) {
            return Err(DumpError::Encoding { encoding, origin: origin.to_string() });
        }
        // A NUL byte in JSON is the JSON reader's to report, where it is; YAML refuses it below.
        let eof = read == 0;
        if let Some(json) = decide(&head, eof) {
            return Ok((head, json));
        }
        if head.len() as u64 > limit {
            return Err(DumpError::InputTooLarge { origin: origin.to_string(), format: "YAML", limit });
        }
    }
}

/// [`CHUNK`] bytes onto `buf`, fewer only at the end of the input; how many.
fn read_chunk(input: &mut impl Read, buf: &mut Vec<u8>, origin: &str) -> Result<usize, DumpError> {
    input.take(CHUNK as u64).read_to_end(buf).map_err(|err| read_error(origin, &err))
}

/// UTF-16 or UTF-32, by its byte order mark or, without one, by the NUL bytes that ASCII text has
/// in every other byte.
fn wide_encoding(head: &[u8]) -> Option<&'static str> {
    match head {
        [0xFF, 0xFE, 0, 0, ..] => Some("UTF-32LE"),
        [0, 0, 0xFE, 0xFF, ..] => Some("UTF-32BE"),
        [0xFF, 0xFE, ..] => Some("UTF-16LE"),
        [0xFE, 0xFF, ..] => Some("UTF-16BE"),
        [a, 0, b, 0, ..] if *a != 0 && *b != 0 => Some("UTF-16LE"),
        [0, a, 0, b, ..] if *a != 0 && *b != 0 => Some("UTF-16BE"),
        _ => None,
    }
}

/// JSON when the first character after byte order marks and whitespace is `{` or `[`; `None` when
/// the bytes so far do not tell.
fn decide(head: &[u8], eof: bool) -> Option<bool> {
    let (valid, invalid) = match std::str::from_utf8(head) {
        Ok(text) => (text, false),
        Err(err) => {
            let valid = std::str::from_utf8(&head[..err.valid_up_to()]).unwrap_or_default();
            (valid, err.error_len().is_some())
        }
    };
    match valid.trim_start_matches('\u{feff}').trim_start().chars().next() {
        Some(first) => Some(matches!(first, '{' | '[')),
        // Not UTF-8 before anything decides: the YAML reader says so.
        None if eof || invalid => Some(false),
        None => None,
    }
}

/// The rest of a YAML input, as text: refused at the first NUL byte, the first byte that is not
/// UTF-8, or past the limit.
fn read_text(mut text: Vec<u8>, mut input: impl Read, origin: &str, limit: u64) -> Result<String, DumpError> {
    let mut checked = 0;
    loop {
        let read = read_chunk(&mut input, &mut text, origin)?;
        if let Some(offset) = text[checked..].iter().position(|&b| b == 0) {
            return Err(DumpError::Binary { origin: origin.to_string(), offset: (checked + offset) as u64 });
        }
        if let Err(err) = std::str::from_utf8(&text[checked..]) {
            if err.error_len().is_some() || read == 0 {
                let offset = checked + err.valid_up_to();
                let message =
                    format!("stream did not contain valid UTF-8 (byte {offset}); save the file as UTF-8");
                return Err(DumpError::Read { origin: origin.to_string(), message });
            }
            checked += err.valid_up_to();
        } else {
            checked = text.len();
        }
        if text.len() as u64 > limit {
            return Err(DumpError::InputTooLarge { origin: origin.to_string(), format: "YAML", limit });
        }
        if read == 0 {
            return String::from_utf8(text)
                .map_err(|err| DumpError::Read { origin: origin.to_string(), message: err.to_string() });
        }
    }
}

#[cfg(test)]
mod tests;

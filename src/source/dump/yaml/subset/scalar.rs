//! One scalar of the subset, written as the JSON value serde-saphyr resolves it to with the
//! reader's options ([`super::super::options`]: YAML 1.2 core booleans, leading-zero numbers as
//! YAML 1.1 octal). A plain scalar whose reading is not certain (floats, radix or underscored numbers,
//! `inf`/`nan` words, sexagesimal forms) is [`Unsupported`]: the full parser reads it. Where a key
//! ends on its line ([`split_key`]) and where a quoted scalar ends ([`quoted_end`]) are found here.

use super::{Fast, Unsupported};

/// Writes a plain scalar: `null`, `true`/`false`, an integer, or a string.
pub(super) fn plain(s: &str, out: &mut Vec<u8>) -> Fast<()> {
    match s {
        "~" | "null" | "Null" | "NULL" => out.extend_from_slice(b"null"),
        "true" | "True" | "TRUE" => out.extend_from_slice(b"true"),
        "false" | "False" | "FALSE" => out.extend_from_slice(b"false"),
        _ if integer(s)? => out.extend_from_slice(s.as_bytes()),
        _ => string(s, out),
    }
    Ok(())
}

/// Writes a plain key, which a `Value` reads as its text; only keys that are text whatever the
/// schema are taken.
pub(super) fn plain_key(s: &str, out: &mut Vec<u8>) -> Fast<()> {
    let start = out.len();
    plain(s, out)?;
    if out[start] == b'"' { Ok(()) } else { Err(Unsupported) }
}

/// Whether a plain scalar that is not null or a boolean reads as an integer (`Ok(false)`: as
/// text).
fn integer(s: &str) -> Fast<bool> {
    let bytes = s.as_bytes();
    let Some(&first) = bytes.first() else { return Err(Unsupported) };
    if first.is_ascii_alphabetic() || first == b'/' || !first.is_ascii() {
        // Rust's float parser (which serde-saphyr may fall back on) reads these words.
        let word = ["inf", "infinity", "nan"].iter().any(|w| s.eq_ignore_ascii_case(w));
        return if word { Err(Unsupported) } else { Ok(false) };
    }
    let (negative, digits) = match s.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, s),
    };
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return match (digits.len(), digits.as_bytes()[0]) {
            // `0127`, `-0127`: YAML 1.1 octal, as kubectl reads it; the parser's (legacy_octal_numbers).
            (2.., b'0') => Err(Unsupported),
            (1, b'0') if negative => Err(Unsupported),
            // Within i64 and u64 whatever the digits.
            (..=18, _) => Ok(true),
            _ => Err(Unsupported),
        };
    }
    if negative || !first.is_ascii_digit() {
        return Err(Unsupported);
    }
    // Whatever could be a number is left to the parser; the rest (`10.0.0.1`, `4Gi`, `100m`,
    // `6.1.2-x86_64`, `0b04-1d`, `9223e055-7411`) is text.
    let radix =
        bytes.len() > 1 && first == b'0' && matches!(bytes[1], b'x' | b'X' | b'o' | b'O' | b'b' | b'B');
    let number = if radix {
        let base = match bytes[1] {
            b'x' | b'X' => 16,
            b'o' | b'O' => 8,
            _ => 2,
        };
        bytes[2..].iter().all(|&b| char::from(b).is_digit(base) || b == b'_')
    } else {
        // What Rust's float parser reads (a superset of YAML's floats), also without `_`, and
        // sexagesimal forms (`1:30`).
        let float = |t: &str| t.parse::<f64>().is_ok();
        float(s)
            || (s.contains('_') && float(&s.replace('_', "")))
            || bytes.iter().all(|&b| b.is_ascii_digit() || matches!(b, b':' | b'.' | b'_')) && s.contains(':')
    };
    if number { Err(Unsupported) } else { Ok(false) }
}

/// Writes `s` (printable: no control characters) as a JSON string.
pub(super) fn string(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    escape_into(s.as_bytes(), out);
    out.push(b'"');
}

/// Printable text into the inside of a JSON string (UTF-8 as it is).
fn escape_into(bytes: &[u8], out: &mut Vec<u8>) {
    // Most text has nothing to escape: one pass tells, and it is copied whole.
    if !bytes.iter().fold(false, |seen, &b| seen | (b == b'"') | (b == b'\\')) {
        out.extend_from_slice(bytes);
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'"' || b == b'\\' {
            out.extend_from_slice(&bytes[start..i]);
            out.extend_from_slice(&[b'\\', b]);
            start = i + 1;
        }
    }
    out.extend_from_slice(&bytes[start..]);
}

/// A quoted scalar at the start of `s`, written as a JSON string; what follows it. A single-quoted
/// scalar without `''`, and a double-quoted one whose escapes are JSON's too, are copied; any other
/// (`''`, `\x41`, `\e`, `\U0001F600`) is read by serde-saphyr alone.
pub(super) fn quoted<'s>(s: &'s str, out: &mut Vec<u8>) -> Fast<&'s str> {
    let quote = s.as_bytes()[0];
    // Not closed on its line: a multi-line scalar, folded by rules left to the parser.
    let end = quoted_end(s, quote).ok_or(Unsupported)?;
    let inner = &s[1..end - 1];
    if quote == b'\'' && !inner.contains('\'') {
        string(inner, out);
    } else if quote == b'"' && json_escapes(inner) {
        out.extend_from_slice(&s.as_bytes()[..end]);
    } else {
        let text: String = serde_saphyr::from_str(&s[..end]).map_err(|_| Unsupported)?;
        serde_json::to_writer(&mut *out, &text).map_err(|_| Unsupported)?;
    }
    Ok(&s[end..])
}

/// Whether every escape of a double-quoted scalar's inside means in JSON what it means in YAML.
fn json_escapes(inner: &str) -> bool {
    let mut bytes = inner.bytes();
    while let Some(byte) = bytes.next() {
        if byte == b'\\'
            && !matches!(bytes.next(), Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't'))
        {
            return false;
        }
    }
    true
}

/// `key: …` or `key:` at the start of `s`: the key when it is plain (`None`: quoted, from the start
/// of `s`) and what follows its colon; `None` when `s` is not a key (or not a key of the subset).
pub(super) fn split_key(s: &str) -> Option<(Option<&str>, &str)> {
    let (key, end) = match s.as_bytes().first()? {
        &quote @ (b'"' | b'\'') => (None, quoted_end(s, quote)?),
        _ => {
            let bytes = s.as_bytes();
            let colon = (0..bytes.len())
                .find(|&i| bytes[i] == b':' && matches!(bytes.get(i + 1), None | Some(b' ')))?;
            let key = &s[..colon];
            let plain = !key.is_empty()
                && !key.ends_with(' ')
                // Not `str::contains`, whose general substring search took a tenth of the time.
                && !key.as_bytes().windows(2).any(|pair| pair == b" #")
                && !key.starts_with([
                    '-', '?', '&', '*', '!', '|', '>', '%', '@', '`', '#', '[', ']', '{', '}', ',', '"', '\'',
                ]);
            (Some(plain.then_some(key)?), colon)
        }
    };
    let after = s[end..].strip_prefix(':')?;
    (after.is_empty() || after.starts_with(' ')).then_some((key, after))
}

/// Where a quoted scalar at the start of `s` ends (after its closing quote).
pub(super) fn quoted_end(s: &str, quote: u8) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 2,
            b if b == quote && quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
            b if b == quote => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests;

//! One line of the YAML subset, as the transcoder meets it: whether it is text YAML prints as
//! itself, and where a `key:` at its start ends.

use super::{Fast, Unsupported};

/// A line as text, when every character is one YAML prints as itself: no tabs, no carriage
/// returns, no control characters, none of the characters YAML 1.1 reads as line breaks, no byte
/// order mark.
pub(super) fn printable(line: &[u8]) -> Fast<&str> {
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

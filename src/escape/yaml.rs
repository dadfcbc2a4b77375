//! YAML with every [hidden](super::is_hidden) character written as an escape, the rule of `-o json`
//! ([`super::json`]) for `-o yaml` and `dump -o yaml`. serde-saphyr escapes C0 and C1 controls
//! (it double-quotes such a string) but writes bidi controls (U+202E, U+2066), zero-width
//! characters (U+200D) and the other invisible ones as they are, in plain or quoted scalars alike.
//!
//! Such a document is written again without block scalars (`|`, `>`): then every scalar is on the
//! line of its key or `-` (a line break inside a string is `\n`), and a line that holds a hidden character is
//! rewritten: the key or value holding it becomes a double-quoted scalar with the character as
//! `\uXXXX` (`\UXXXXXXXX` above U+FFFF). A YAML reader gets the same strings back.

use std::fmt::Write as _;

use serde::Serialize;

/// `value` as YAML, hidden characters escaped.
pub(crate) fn to_string<T: Serialize>(value: &T) -> Result<String, serde_saphyr::SerializeError> {
    let text = serde_saphyr::to_string(value)?;
    if !text.chars().any(super::is_hidden_raw) {
        return Ok(text);
    }
    // Block scalars (`|`, and `>` for long lines) cannot hold an escape: without them every
    // scalar is on its key's line.
    let text = serde_saphyr::to_string_with_options(
        value,
        serde_saphyr::ser_options! { prefer_block_scalars: false },
    )?;
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        if body.chars().any(super::is_hidden_raw) {
            rewrite_line(body, &mut out);
        } else {
            out.push_str(body);
        }
        out.push_str(end);
    }
    Ok(out)
}

/// One line of block YAML: indentation, `- ` markers, then `key: value`, `key:` or a value.
fn rewrite_line(line: &str, out: &mut String) {
    let mut rest = line;
    loop {
        let trimmed = rest.trim_start_matches(' ');
        out.push_str(&rest[..rest.len() - trimmed.len()]);
        rest = trimmed;
        match rest.strip_prefix("- ") {
            Some(after) => {
                out.push_str("- ");
                rest = after;
            }
            None => break,
        }
    }
    let (first, after) = split_scalar(rest);
    match after.strip_prefix(':').filter(|a| a.is_empty() || a.starts_with(' ')) {
        Some(value) => {
            write_scalar(first, out);
            out.push(':');
            let trimmed = value.trim_start_matches(' ');
            out.push_str(&value[..value.len() - trimmed.len()]);
            if !trimmed.is_empty() {
                write_scalar(trimmed, out);
            }
        }
        None => write_scalar(rest, out),
    }
}

/// The first scalar of `text` and what follows it: a quoted scalar to its closing quote, a plain
/// one to the `: ` (or final `:`) that ends a key, else to the end of the line.
fn split_scalar(text: &str) -> (&str, &str) {
    let bytes = text.as_bytes();
    let end = match bytes.first() {
        Some(b'"') => {
            let mut i = 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            (i + 1).min(bytes.len())
        }
        Some(b'\'') => {
            let mut i = 1;
            while i < bytes.len() {
                if bytes[i] == b'\'' {
                    if bytes.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    break;
                }
                i += 1;
            }
            (i + 1).min(bytes.len())
        }
        _ => text
            .match_indices(':')
            .map(|(i, _)| i)
            .find(|&i| matches!(bytes.get(i + 1), None | Some(b' ')))
            .unwrap_or(text.len()),
    };
    text.split_at(end)
}

/// A scalar as written, or double-quoted with its hidden characters escaped when it has any.
fn write_scalar(scalar: &str, out: &mut String) {
    if !scalar.chars().any(super::is_hidden_raw) {
        out.push_str(scalar);
        return;
    }
    if let Some(inner) = scalar.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        // Already double-quoted, its escapes in place: only the raw hidden characters change.
        out.push('"');
        inner.chars().for_each(|c| push_char(c, false, out));
        out.push('"');
        return;
    }
    let text = match scalar.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
        Some(inner) => inner.replace("''", "'"),
        None => scalar.to_string(),
    };
    out.push('"');
    text.chars().for_each(|c| push_char(c, true, out));
    out.push('"');
}

/// `c` inside a double-quoted scalar; `raw`: `\` and `"` are text, not escapes already made.
fn push_char(c: char, raw: bool, out: &mut String) {
    match c {
        '\\' | '"' if raw => {
            out.push('\\');
            out.push(c);
        }
        c if super::is_hidden_raw(c) && (c as u32) <= 0xFFFF => {
            let _ = write!(out, "\\u{:04X}", c as u32);
        }
        c if super::is_hidden_raw(c) => {
            let _ = write!(out, "\\U{:08X}", c as u32);
        }
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    fn read_back(yaml: &str) -> BTreeMap<String, Vec<BTreeMap<String, String>>> {
        serde_saphyr::from_str(yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"))
    }

    #[test]
    fn bidi_zero_width_and_c1_characters_are_escaped_and_read_back_the_same() {
        let value = BTreeMap::from([(
            "zones\u{2066}".to_string(),
            vec![BTreeMap::from([
                ("name".to_string(), "us-east-1a\u{202e}txt".to_string()),
                ("join".to_string(), "a\u{200d}b 'quoted' \"x\" \\ y".to_string()),
                ("csi".to_string(), "a\u{9b}31m\u{1b}[2J".to_string()),
                ("tag".to_string(), "x\u{e0041}: y".to_string()),
            ])],
        )]);
        let yaml = to_string(&value).unwrap();
        assert!(!yaml.chars().any(|c| super::super::is_hidden(c) && c != '\n'), "{yaml:?}");
        assert!(
            yaml.contains("\\u202E") && yaml.contains("\\u2066") && yaml.contains("\\U000E0041"),
            "{yaml}"
        );
        assert_eq!(read_back(&yaml), value);
    }

    #[test]
    fn text_without_hidden_characters_is_serde_saphyrs() {
        let value = BTreeMap::from([(
            "a".to_string(),
            vec![BTreeMap::from([("b".to_string(), "c: d".to_string())])],
        )]);
        assert_eq!(to_string(&value).unwrap(), serde_saphyr::to_string(&value).unwrap());
    }

    fn text() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("\u{202e}"),
            Just("\u{2066}"),
            Just("\u{200d}"),
            Just("\u{a0}"),
            Just("\u{9b}"),
            Just("\u{1b}"),
            Just("\n"),
            Just("'"),
            Just("\""),
            Just("\\"),
            Just(": "),
            Just(":"),
            Just("#"),
            Just("- "),
            Just(" "),
            Just("a"),
            Just("0"),
            Just("true"),
            Just("{"),
            Just(
                "a sentence long enough that serde-saphyr would fold it over several lines, past its width "
            ),
        ];
        proptest::collection::vec(piece, 0..8).prop_map(|p| p.concat())
    }

    proptest! {
        #[test]
        fn any_string_as_key_or_value_reads_back_the_same_without_raw_hidden_characters(
            key in text(), inner in text(), value in text(),
        ) {
            let doc = BTreeMap::from([(key, vec![BTreeMap::from([(inner, value)])])]);
            let yaml = to_string(&doc).unwrap();
            prop_assert!(!yaml.chars().any(|c| super::super::is_hidden(c) && c != '\n'), "{:?}", yaml);
            prop_assert_eq!(read_back(&yaml), doc);
        }
    }
}

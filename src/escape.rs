//! The one way an untrusted string (from a dump, the API server, a kubeconfig or the command line)
//! is shown: [`escape`]. Every character that could move the cursor, recolour the terminal, end a
//! line or make two different names look alike is replaced by its Rust escape (`\u{1b}`, `\n`,
//! `\u{202e}`); everything else is printed as it is.
//!
//! Which characters: [`is_hidden`] — Unicode general categories Cc (C0, DEL, C1), Cf (bidi
//! controls, zero-width characters, soft hyphen, tag characters, …), Zl, Zp, Zs other than the
//! ASCII space, unassigned code points, and the fillers and selectors that draw nothing although
//! they are letters or marks (Hangul fillers, U+034F, variation selectors, …).
//!
//! Where it is applied, so that no message can forget it: stderr goes through [`EscapedLines`]
//! (every line of every note, warning, `error:` and `hint:`), table cells call [`escape`], and
//! every machine format writes hidden characters as `\u` escapes: `-o json` and `-o sarif`
//! ([`json`]), `-o yaml` and `dump -o yaml` ([`yaml`]).

use std::borrow::Cow;
use std::io::Write;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

pub(crate) mod json;
pub(crate) mod yaml;

/// True for a character that must not reach a terminal as it is (see the module doc).
pub fn is_hidden(c: char) -> bool {
    use GeneralCategory as G;
    match c.general_category() {
        G::Control | G::Format | G::LineSeparator | G::ParagraphSeparator | G::Unassigned => true,
        G::SpaceSeparator => c != ' ',
        _ => is_blank_filler(c),
    }
}

/// A [hidden](is_hidden) character other than the line feed: what may not stand raw in a text
/// format whose lines are its structure (YAML).
pub(crate) fn is_hidden_raw(c: char) -> bool {
    c != '\n' && is_hidden(c)
}

/// Letters and marks that draw nothing: the combining grapheme joiner, Hangul and Khmer fillers,
/// Mongolian free variation selectors, variation selectors and the blank Braille pattern.
fn is_blank_filler(c: char) -> bool {
    matches!(
        c,
        '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FFA0}'
            | '\u{E0100}'..='\u{E01EF}'
    )
}

/// `text` with every [hidden](is_hidden) character replaced by its Rust escape (`\u{1b}`, `\n`).
pub(crate) fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if is_hidden(c) { c.escape_default().to_string() } else { c.to_string() })
            .collect(),
    )
}

/// A writer that [`escape`]s every line written through it (the `\n` that ends a line is kept):
/// what `main` puts around stderr, so notes, `error:` and `hint:` lines are escaped wherever they
/// are written. Bytes that are not UTF-8 are shown as U+FFFD.
#[derive(Debug)]
pub(crate) struct EscapedLines<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> EscapedLines<W> {
    /// Escape what is written to `inner`.
    pub(crate) fn new(inner: W) -> Self {
        EscapedLines { inner, pending: Vec::new() }
    }

    fn emit(&mut self, newline: bool) -> std::io::Result<()> {
        let mut line = escape(&String::from_utf8_lossy(&self.pending)).into_owned();
        self.pending.clear();
        if newline {
            line.push('\n');
        }
        self.inner.write_all(line.as_bytes())
    }
}

impl<W: Write> Write for EscapedLines<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            self.pending.extend_from_slice(&rest[..end]);
            self.emit(true)?;
            rest = &rest[end + 1..];
        }
        self.pending.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            self.emit(false)?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for EscapedLines<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_terminal_controls_and_look_alike_characters() {
        assert_eq!(escape("zone-a"), "zone-a");
        assert!(matches!(escape("zone a ü → ✓"), Cow::Borrowed(_)));
        assert_eq!(escape("a\u{1b}[31mred\n"), "a\\u{1b}[31mred\\n");
        assert_eq!(escape("x\u{9b}y\u{7f}\t"), "x\\u{9b}y\\u{7f}\\t");
        assert_eq!(escape("zone-a\u{202e}c"), "zone-a\\u{202e}c");
        for hidden in [
            '\u{061C}',
            '\u{2028}',
            '\u{2029}',
            '\u{00AD}',
            '\u{034F}',
            '\u{180E}',
            '\u{3164}',
            '\u{E0041}',
            '\u{200B}',
            '\u{2066}',
            '\u{FEFF}',
            '\u{00A0}',
            '\u{FE0F}',
            '\u{115F}',
            '\u{0085}',
            '\u{0378}',
        ] {
            let text = format!("a{hidden}b");
            assert_eq!(escape(&text), format!("a{}b", hidden.escape_default()), "{:?}", hidden);
        }
    }

    #[test]
    fn escaped_lines_keep_their_newline_and_escape_the_rest() {
        let mut out = Vec::new();
        {
            let mut lines = EscapedLines::new(&mut out);
            write!(lines, "note: a\u{1b}[2J").unwrap();
            writeln!(lines, "b\u{9b}").unwrap();
            write!(lines, "error: \u{7}").unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "note: a\\u{1b}[2Jb\\u{9b}\nerror: \\u{7}");
    }
}

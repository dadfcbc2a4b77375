//! Layout of prose lines: wrapped at the width `settings` resolved (`COLUMNS`, else the
//! terminal's), continuation lines indented under the text, words never broken (a long name or
//! address overflows rather than being cut); unwrapped when there is no width (pipes, files), so
//! scripts and the README's byte-exact examples see one line per sentence. Tables never come here.
//! textwrap measures display width without ANSI colour sequences, so coloured prose wraps right.

use std::io::Write;

/// How prose is laid out: the width, and whether the terminal gets ASCII (measured after the
/// ASCII spelling, `→` being `->`, as the terminal will show it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Wrap {
    /// Wrap here; None: one line per paragraph.
    pub(crate) width: Option<usize>,
    /// The terminal takes UTF-8.
    pub(crate) unicode: bool,
}

/// Write `first` + `text` as one paragraph: wrapped at the width with `rest` before every
/// continuation line, or on one line without a width.
pub(crate) fn paragraph(
    out: &mut dyn Write,
    wrap: Wrap,
    first: &str,
    rest: &str,
    text: &str,
) -> std::io::Result<()> {
    let Some(width) = wrap.width else {
        return writeln!(out, "{first}{text}");
    };
    let (first, text) = if wrap.unicode {
        (first.to_string(), text.to_string())
    } else {
        (super::ascii::to_ascii(first), super::ascii::to_ascii(text))
    };
    let (first, text) = (first.as_str(), text.as_str());
    let options = textwrap::Options::new(width)
        .initial_indent(first)
        .subsequent_indent(rest)
        .break_words(false)
        // Names (`us-east-1a`, `--k8s-version`) are never split at their hyphens.
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    let lines = textwrap::wrap(text, options);
    if lines.is_empty() {
        return writeln!(out, "{}", first.trim_end());
    }
    for line in lines {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// A writer for stderr that wraps the `note:` and `hint:` lines it is given (continuations under
/// the text, after the label) and passes every other line as it is: an `error:` stays one line.
pub(crate) struct WrappedNotes<'a> {
    inner: &'a mut dyn Write,
    width: Option<usize>,
    line: Vec<u8>,
}

/// The labels of the lines that wrap.
const WRAPPED: [&str; 2] = ["note: ", "hint: "];

impl<'a> WrappedNotes<'a> {
    /// Wrap at `width` (None: pass everything through).
    pub(crate) fn new(inner: &'a mut dyn Write, width: Option<usize>) -> Self {
        WrappedNotes { inner, width, line: Vec::new() }
    }

    fn emit_line(&mut self) -> std::io::Result<()> {
        let line = std::mem::take(&mut self.line);
        let text = std::str::from_utf8(&line).ok().map(|l| l.trim_end_matches('\n'));
        let label = text.and_then(|t| WRAPPED.iter().find(|label| t.starts_with(**label)).map(|l| (t, *l)));
        match (label, self.width) {
            (Some((text, label)), Some(width)) if text.chars().count() > width => {
                let indent = " ".repeat(label.len());
                let wrap = Wrap { width: Some(width), unicode: true };
                paragraph(self.inner, wrap, label, &indent, &text[label.len()..])
            }
            _ => self.inner.write_all(&line),
        }
    }
}

impl Write for WrappedNotes<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.width.is_none() {
            return self.inner.write(buf);
        }
        for chunk in buf.split_inclusive(|&b| b == b'\n') {
            self.line.extend_from_slice(chunk);
            if chunk.ends_with(b"\n") {
                self.emit_line()?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.line.is_empty() {
            self.emit_line()?;
        }
        self.inner.flush()
    }
}

impl Drop for WrappedNotes<'_> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::{Wrap, WrappedNotes, paragraph};

    fn wrapped(width: Option<usize>, text: &str) -> String {
        let mut out = Vec::new();
        paragraph(&mut out, Wrap { width, unicode: true }, "  → ", "    ", text).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn paragraphs_wrap_at_the_width_and_indent_continuations() {
        let text = "Scale so every zone can get its minimum: the zones' minimums add up to 6 > 4.";
        assert_eq!(wrapped(None, text), format!("  → {text}\n"));
        let out = wrapped(Some(30), text);
        assert!(out.lines().count() > 2, "{out}");
        assert!(out.lines().all(|l| l.chars().count() <= 30), "{out}");
        assert!(out.lines().skip(1).all(|l| l.starts_with("    ") && !l.starts_with("     ")), "{out}");
        assert_eq!(out.split_whitespace().collect::<Vec<_>>().join(" "), format!("→ {text}"));
    }

    #[test]
    fn without_utf8_the_ascii_spelling_is_measured() {
        let mut out = Vec::new();
        let text = "→ → → → → → → → → →";
        paragraph(&mut out, Wrap { width: Some(12), unicode: false }, "", "", text).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.lines().all(|l| l.len() <= 12 && l.is_ascii()), "{out}");
    }

    #[test]
    fn a_word_longer_than_the_width_is_not_cut() {
        let name = "ip-10-0-1-23.us-east-1.compute.internal";
        let out = wrapped(Some(20), &format!("node {name} is gone"));
        assert!(out.lines().any(|l| l.trim() == name), "{out}");
    }

    #[test]
    fn notes_and_hints_wrap_errors_do_not() {
        let long = "word ".repeat(20);
        let mut out = Vec::new();
        {
            let mut w = WrappedNotes::new(&mut out, Some(40));
            for label in ["note: ", "hint: ", "error: "] {
                writeln!(w, "{label}{}", long.trim_end()).unwrap();
            }
            write!(w, "note: short").unwrap();
        }
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.iter().filter(|l| l.starts_with("note: ")).count() == 2, "{out}");
        assert_eq!(lines.iter().filter(|l| l.starts_with("error: ")).count(), 1);
        assert!(lines.iter().all(|l| l.starts_with("error: ") || l.chars().count() <= 40), "{out}");
        assert_eq!(lines.last(), Some(&"note: short"));
    }
}

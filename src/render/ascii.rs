//! Plain ASCII for a terminal whose locale is not UTF-8 (`LC_ALL`, `LC_CTYPE`, `LANG` resolved as
//! the C library does, `settings::Locale`): a writer that replaces the typography of our own
//! words (arrows, dashes, ellipses, middle dots, ≥, ×, bars) with ASCII. Strings from the cluster
//! pass unchanged (they are escaped elsewhere); JSON, YAML and the pictures are never wrapped.

use std::io::Write;

/// The ASCII spelling of a character we print, when it has one.
pub(crate) fn ascii(c: char) -> Option<&'static str> {
    Some(match c {
        '→' => "->",
        '←' => "<-",
        '—' | '–' => "-",
        '·' => "-",
        '…' => "...",
        '×' => "x",
        '≥' => ">=",
        '≤' => "<=",
        '±' => "+/-",
        '✓' => "ok",
        '✗' => "x",
        '‘' | '’' => "'",
        '“' | '”' => "\"",
        '█' => "#",
        '▕' => "|",
        '▏' | '▎' | '▍' | '▌' | '▋' | '▊' | '▉' => " ",
        _ => return None,
    })
}

/// `text` with every character [`ascii`] knows replaced.
pub(crate) fn to_ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match ascii(c) {
            Some(a) => out.push_str(a),
            None => out.push(c),
        }
    }
    out
}

/// A writer that passes everything through [`to_ascii`]. A character split across two writes is
/// held until its last byte arrives.
pub(crate) struct AsciiWriter<'a> {
    inner: &'a mut dyn Write,
    pending: Vec<u8>,
}

impl<'a> AsciiWriter<'a> {
    /// Wrap `inner`.
    pub(crate) fn new(inner: &'a mut dyn Write) -> Self {
        AsciiWriter { inner, pending: Vec::new() }
    }
}

impl Write for AsciiWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        let valid = match std::str::from_utf8(&self.pending) {
            Ok(_) => self.pending.len(),
            // An incomplete character at the end waits; invalid bytes go through as they are.
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => {
                self.inner.write_all(&std::mem::take(&mut self.pending))?;
                return Ok(buf.len());
            }
        };
        let rest = self.pending.split_off(valid);
        let text = String::from_utf8(std::mem::replace(&mut self.pending, rest)).unwrap_or_default();
        self.inner.write_all(to_ascii(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            self.inner.write_all(&std::mem::take(&mut self.pending))?;
        }
        self.inner.flush()
    }
}

impl Drop for AsciiWriter<'_> {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            let _ = self.inner.write_all(&std::mem::take(&mut self.pending));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_typography_becomes_ascii_and_data_stays() {
        assert_eq!(to_ascii("  → scale to ≥ 6 — now… 1.50× · ok"), "  -> scale to >= 6 - now... 1.50x - ok");
        assert_eq!(to_ascii("zone-ü"), "zone-ü");
    }

    #[test]
    fn a_character_split_across_writes_is_replaced_whole() {
        let mut out = Vec::new();
        {
            let mut w = AsciiWriter::new(&mut out);
            let arrow = "a→b".as_bytes();
            w.write_all(&arrow[..2]).unwrap();
            w.write_all(&arrow[2..]).unwrap();
            w.flush().unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "a->b");
    }
}

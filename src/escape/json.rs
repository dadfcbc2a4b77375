//! JSON with every [hidden](super::is_hidden) character written as a `\u` escape. serde_json
//! escapes C0 controls but writes DEL, C1 controls (U+0080–U+009F), bidi controls and the other
//! invisible characters as they are; this formatter escapes them too, so `-o json` on a terminal
//! is as safe as a table, and a JSON reader still gets the same string back.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

/// Pretty JSON (two-space indent), hidden characters escaped.
pub(crate) fn to_writer_pretty<W: Write + ?Sized, T: Serialize + ?Sized>(
    out: &mut W,
    value: &T,
) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, Escaping(PrettyFormatter::new()));
    value.serialize(&mut ser).map_err(io::Error::from)
}

/// One-line JSON, hidden characters escaped.
pub(crate) fn to_writer<W: Write + ?Sized, T: Serialize + ?Sized>(out: &mut W, value: &T) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, Escaping(CompactFormatter));
    value.serialize(&mut ser).map_err(io::Error::from)
}

/// A formatter that escapes hidden characters in strings and leaves the layout to `F`.
struct Escaping<F>(F);

/// `\uXXXX`, as a UTF-16 surrogate pair above U+FFFF.
fn write_u_escape<W: Write + ?Sized>(out: &mut W, c: char) -> io::Result<()> {
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        write!(out, "\\u{unit:04x}")?;
    }
    Ok(())
}

impl<F: Formatter> Formatter for Escaping<F> {
    fn write_string_fragment<W: Write + ?Sized>(&mut self, out: &mut W, fragment: &str) -> io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if super::is_hidden(c) {
                out.write_all(&fragment.as_bytes()[start..i])?;
                write_u_escape(out, c)?;
                start = i + c.len_utf8();
            }
        }
        out.write_all(&fragment.as_bytes()[start..])
    }

    fn begin_array<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<()> {
        self.0.begin_array(out)
    }

    fn end_array<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<()> {
        self.0.end_array(out)
    }

    fn begin_array_value<W: Write + ?Sized>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(out, first)
    }

    fn end_array_value<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<()> {
        self.0.end_array_value(out)
    }

    fn begin_object<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<()> {
        self.0.begin_object(out)
    }

    fn end_object<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<()> {
        self.0.end_object(out)
    }

    fn begin_object_key<W: Write + ?Sized>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(out, first)
    }

    fn begin_object_value<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<()> {
        self.0.begin_object_value(out)
    }

    fn end_object_value<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<()> {
        self.0.end_object_value(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_become_u_escapes_and_read_back_the_same() {
        let text = "a\u{85}b\u{9b}[2J\u{7f}\u{202e}\u{e0041}\u{1b}\"é";
        let mut out = Vec::new();
        to_writer(&mut out, &serde_json::json!({ "zone": text })).unwrap();
        let json = String::from_utf8(out).unwrap();
        assert_eq!(json, r#"{"zone":"a\u0085b\u009b[2J\u007f\u202e\udb40\udc41\u001b\"é"}"#);
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back["zone"], text);
    }

    #[test]
    fn pretty_layout_is_serde_jsons() {
        let value = serde_json::json!({ "a": [1, {"b": "c"}], "d": {} });
        let mut ours = Vec::new();
        to_writer_pretty(&mut ours, &value).unwrap();
        assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string_pretty(&value).unwrap());
    }
}

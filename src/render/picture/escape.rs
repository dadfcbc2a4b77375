//! Escaping of untrusted strings (names, labels, zones from a dump or a cluster) for the picture
//! formats, one function per format and context. Control and invisible format characters are
//! first made visible (`\u{1b}`), so none is ever emitted raw, whatever the format.

use std::borrow::Cow;

use crate::escape::escape;

/// Text content or a quoted attribute value in HTML (and SVG inside it).
pub fn html(text: &str) -> String {
    let visible = escape(text);
    let mut out = String::with_capacity(visible.len());
    for c in visible.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The inside of a DOT double-quoted string (an ID or a label; the caller adds the quotes).
/// Backslashes are doubled so that no label escape (`\n`, `\l`, `\G`…) comes from the input.
pub fn dot(text: &str) -> String {
    let visible = escape(text);
    let mut out = String::with_capacity(visible.len());
    for c in visible.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out
}

/// The inside of a Mermaid quoted label (`["…"]`, `|"…"|`): every character Mermaid or the HTML it
/// renders to could read as syntax becomes an entity code (`#34;`), which Mermaid decodes for display.
pub fn mermaid(text: &str) -> String {
    let visible: Cow<'_, str> = escape(text);
    let mut out = String::with_capacity(visible.len());
    for c in visible.chars() {
        match c {
            '"' | '#' | '&' | '<' | '>' | '|' | '`' | '[' | ']' | '{' | '}' | '(' | ')' | ';' | '\\' => {
                out.push_str(&format!("#{};", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escapes_markup_and_shows_control_characters() {
        assert_eq!(html("<script>alert('x')</script>"), "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
        assert_eq!(html("a\"b&c"), "a&quot;b&amp;c");
        let escaped = html("evil\u{1b}[2J\n\u{202E}");
        assert!(!escaped.chars().any(|c| c.is_control() || c == '\u{202E}'), "{escaped:?}");
    }

    #[test]
    fn dot_keeps_quotes_and_backslashes_inside_the_string() {
        assert_eq!(dot(r#"a"b\nc"#), r#"a\"b\\nc"#);
        assert!(!dot("x\ny\u{7}").chars().any(char::is_control));
    }

    #[test]
    fn mermaid_turns_syntax_into_entity_codes() {
        assert_eq!(mermaid(r#"a"]-->b"#), "a#34;#93;--#62;b");
        assert_eq!(mermaid("<b>|#"), "#60;b#62;#124;#35;");
        assert!(!mermaid("x\r\ny").chars().any(char::is_control));
    }
}

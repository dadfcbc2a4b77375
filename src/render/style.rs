//! Colour as one decision (made in `settings`), applied through a [`Palette`], and escaping of
//! untrusted strings from the cluster before they reach a terminal.

use std::borrow::Cow;

use owo_colors::{OwoColorize, Style};

use topo_engine::report::Verdict;

/// Styles for table output; every method is the identity when colour is off.
#[derive(Debug, Clone, Copy)]
pub struct Palette {
    enabled: bool,
}

impl Palette {
    /// A palette; `enabled = false` never emits escape codes.
    pub fn new(enabled: bool) -> Self {
        Palette { enabled }
    }

    fn paint(&self, text: &str, style: Style) -> String {
        if self.enabled { text.style(style).to_string() } else { text.to_string() }
    }

    /// A verdict, coloured by severity.
    pub fn verdict(&self, verdict: Verdict, text: &str) -> String {
        let style = match verdict {
            Verdict::Active => Style::new().green().bold(),
            Verdict::Blocked => Style::new().yellow().bold(),
            Verdict::Drift => Style::new().red().bold(),
            Verdict::NotEnabled | Verdict::Unmanaged | Verdict::Unknown => Style::new().dimmed(),
        };
        self.paint(text, style)
    }

    /// Section headings.
    pub fn heading(&self, text: &str) -> String {
        self.paint(text, Style::new().bold())
    }

    /// Secondary text.
    pub fn dim(&self, text: &str) -> String {
        self.paint(text, Style::new().dimmed())
    }

    /// Something wrong.
    pub fn bad(&self, text: &str) -> String {
        self.paint(text, Style::new().red())
    }

    /// Something fine.
    pub fn good(&self, text: &str) -> String {
        self.paint(text, Style::new().green())
    }
}

/// Escape control characters (terminal escapes, newlines, DEL, C1) and invisible format
/// characters (zero-width, bidi overrides) in a string from the cluster.
pub fn sanitize(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() || is_invisible_format(c);
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if unsafe_char(c) { c.escape_default().to_string() } else { c.to_string() })
            .collect(),
    )
}

/// A zone from the cluster as a table cell: `<none>` for the empty zone (no zone label), else
/// [`sanitize`]d.
pub fn zone_cell(zone: &str) -> String {
    if zone.is_empty() { "<none>".to_string() } else { sanitize(zone).into_owned() }
}

/// Zero-width and bidirectional-override characters, which can make one name look like another.
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_terminal_control_sequences() {
        assert_eq!(sanitize("zone-a"), "zone-a");
        assert_eq!(sanitize("a\u{1b}[31mred\n"), "a\\u{1b}[31mred\\n");
        assert_eq!(sanitize("x\u{9b}y\u{7f}"), "x\\u{9b}y\\u{7f}");
        assert_eq!(sanitize("zone-a\u{202e}c"), "zone-a\\u{202e}c");
    }

    #[test]
    fn no_escape_codes_when_off() {
        let off = Palette::new(false);
        assert_eq!(off.verdict(Verdict::Drift, "Drift"), "Drift");
        assert!(Palette::new(true).verdict(Verdict::Drift, "Drift").contains('\u{1b}'));
    }
}

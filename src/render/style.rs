//! Colour as one decision (made in `settings`), applied through a [`Palette`]; cells from the
//! cluster are escaped with [`crate::escape::escape`], the one escaping function.

use owo_colors::{OwoColorize, Style};

use crate::escape::escape;
use topo_engine::report::Verdict;

/// Styles for table output; every method is the identity when colour is off.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Palette {
    enabled: bool,
}

impl Palette {
    /// A palette; `enabled = false` never emits escape codes.
    pub(crate) fn new(enabled: bool) -> Self {
        Palette { enabled }
    }

    fn paint(&self, text: &str, style: Style) -> String {
        if self.enabled { text.style(style).to_string() } else { text.to_string() }
    }

    /// A verdict, coloured by severity.
    pub(crate) fn verdict(&self, verdict: Verdict, text: &str) -> String {
        let style = match verdict {
            Verdict::Active => Style::new().green().bold(),
            Verdict::Blocked => Style::new().yellow().bold(),
            Verdict::Drift => Style::new().red().bold(),
            Verdict::NotEnabled | Verdict::Unmanaged | Verdict::Unknown => Style::new().dimmed(),
        };
        self.paint(text, style)
    }

    /// Section headings.
    pub(crate) fn heading(&self, text: &str) -> String {
        self.paint(text, Style::new().bold())
    }

    /// Secondary text.
    pub(crate) fn dim(&self, text: &str) -> String {
        self.paint(text, Style::new().dimmed())
    }

    /// Something wrong.
    pub(crate) fn bad(&self, text: &str) -> String {
        self.paint(text, Style::new().red())
    }

    /// Something fine.
    pub(crate) fn good(&self, text: &str) -> String {
        self.paint(text, Style::new().green())
    }
}

/// A zone from the cluster as a table cell: `<none>` for the empty zone (no zone label), else
/// [`escape`]d.
pub(crate) fn zone_cell(zone: &str) -> String {
    if zone.is_empty() { "<none>".to_string() } else { escape(zone).into_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_escape_codes_when_off() {
        let off = Palette::new(false);
        assert_eq!(off.verdict(Verdict::Drift, "Drift"), "Drift");
        assert!(Palette::new(true).verdict(Verdict::Drift, "Drift").contains('\u{1b}'));
    }
}

//! What `-o` chose, as `render` receives it: `settings` converts the flag's value (`cli`'s clap
//! enum) into a [`Format`] once, and every renderer asks the format, never the flag.

use super::picture::Picture;
use super::structured::Structured;

/// The output format of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Human tables and prose.
    Table,
    /// Tables with more columns.
    Wide,
    /// The report model as JSON (versioned envelope).
    Json,
    /// The report model as YAML (versioned envelope).
    Yaml,
    /// One self-contained HTML page.
    Html,
    /// The routing graph for Graphviz.
    Dot,
    /// The routing graph as a Mermaid flowchart.
    Mermaid,
    /// `check`: a pull-request comment.
    Markdown,
    /// `check`: JUnit XML.
    Junit,
    /// `check`: SARIF 2.1.0.
    Sarif,
}

/// The four families of formats: who writes them and who renders them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatKind {
    /// `table`, `wide`: every subcommand, for a terminal.
    Table,
    /// `json`, `yaml`: every subcommand, the versioned report model.
    Structured,
    /// `html`, `dot`, `mermaid`: `explain`, `check` and `simulate`, for one cluster.
    Picture,
    /// `markdown`, `junit`, `sarif`: `check` only, for one cluster.
    Report,
}

impl Format {
    /// The family of this format.
    pub fn kind(self) -> FormatKind {
        match self {
            Format::Table | Format::Wide => FormatKind::Table,
            Format::Json | Format::Yaml => FormatKind::Structured,
            Format::Html | Format::Dot | Format::Mermaid => FormatKind::Picture,
            Format::Markdown | Format::Junit | Format::Sarif => FormatKind::Report,
        }
    }

    /// The name as typed after `-o`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Wide => "wide",
            Format::Json => "json",
            Format::Yaml => "yaml",
            Format::Html => "html",
            Format::Dot => "dot",
            Format::Mermaid => "mermaid",
            Format::Markdown => "markdown",
            Format::Junit => "junit",
            Format::Sarif => "sarif",
        }
    }

    /// The structured format, if this is one.
    pub(crate) fn structured(self) -> Option<Structured> {
        match self {
            Format::Json => Some(Structured::Json),
            Format::Yaml => Some(Structured::Yaml),
            _ => None,
        }
    }

    /// The picture format, if this is one.
    pub fn picture(self) -> Option<Picture> {
        match self {
            Format::Html => Some(Picture::Html),
            Format::Dot => Some(Picture::Dot),
            Format::Mermaid => Some(Picture::Mermaid),
            _ => None,
        }
    }
}

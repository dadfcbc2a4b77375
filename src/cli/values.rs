//! The value enums of the flags: `-o`, `--color`, `--fail-on`, `check --sort-by`.

use clap::ValueEnum;

/// `check --sort-by` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortBy {
    /// Namespace, then name.
    Namespace,
    /// Name, then namespace.
    Name,
    /// Worst verdict first.
    Verdict,
    /// Largest cross-zone share first.
    CrossZone,
    /// Largest replicas needed first.
    Replicas,
}

/// `-o` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Human tables and prose.
    Table,
    /// Tables with more columns.
    Wide,
    /// The report model as JSON (versioned envelope).
    Json,
    /// The report model as YAML (versioned envelope).
    Yaml,
    /// One self-contained HTML page: zones, routing bands and reasons (explain, check, simulate).
    Html,
    /// The routing graph for Graphviz (`dot -Tsvg`) (explain, check, simulate).
    Dot,
    /// The routing graph as a Mermaid flowchart, for Markdown (explain, check, simulate).
    Mermaid,
    /// `check`: a pull-request comment (summary, table of findings, details per Service).
    Markdown,
    /// `check`: JUnit XML, one test case per Service.
    Junit,
    /// `check`: SARIF 2.1.0, one rule per reason code.
    Sarif,
}

/// The four families of `-o` formats: who writes them and who renders them.
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

impl OutputFormat {
    /// The family of this format.
    pub fn kind(self) -> FormatKind {
        match self {
            OutputFormat::Table | OutputFormat::Wide => FormatKind::Table,
            OutputFormat::Json | OutputFormat::Yaml => FormatKind::Structured,
            OutputFormat::Html | OutputFormat::Dot | OutputFormat::Mermaid => FormatKind::Picture,
            OutputFormat::Markdown | OutputFormat::Junit | OutputFormat::Sarif => FormatKind::Report,
        }
    }

    /// The name as typed after `-o`.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Table => "table",
            OutputFormat::Wide => "wide",
            OutputFormat::Json => "json",
            OutputFormat::Yaml => "yaml",
            OutputFormat::Html => "html",
            OutputFormat::Dot => "dot",
            OutputFormat::Mermaid => "mermaid",
            OutputFormat::Markdown => "markdown",
            OutputFormat::Junit => "junit",
            OutputFormat::Sarif => "sarif",
        }
    }
}

/// `--color` values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    /// Always colour table output.
    Always,
    /// Never colour.
    Never,
}

/// `--fail-on` values, from strictest to loosest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Never fail on findings.
    None,
    /// Fail when live hints differ from what the controller would keep or write.
    Drift,
    /// Also fail when a safeguard or constraint blocks hints that were asked for.
    Blocked,
    /// Also fail on Unmanaged Services.
    Any,
}

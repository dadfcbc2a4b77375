//! The value enums of the flags: `-o`, `--color`, `--fail-on`, `check --sort-by`,
//! `serve --per-zone-series`, `serve --auth`. `settings`
//! converts them into the enums of the modules that give them meaning (`settings/values.rs`).

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
    /// `service/NAME` per Service of the report, as `kubectl get -o name` (explain, check, simulate).
    Name,
    /// `jsonpath=TEMPLATE`: kubectl's template over the JSON report, e.g.
    /// `jsonpath='{range .services[*]}{.service.name}{"\n"}{end}'`.
    Jsonpath,
}

/// `-o` as typed: the format, and the template of `jsonpath=TEMPLATE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The format.
    pub format: OutputFormat,
    /// `-o jsonpath=TEMPLATE`'s template (None for every other format).
    pub template: Option<String>,
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
    /// What blocked fails, and Auto Services one small change away from a flip (docs/stability.md).
    Fragile,
    /// Also fail on Unmanaged Services.
    Any,
}

/// `serve --per-zone-series` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PerZoneSeries {
    /// Only Services that asked for hints or have some.
    Hinted,
    /// Every Service.
    All,
}

/// `serve --auth` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Auth {
    /// Anyone who reaches the port reads /metrics (restrict it with a NetworkPolicy).
    None,
    /// The caller's bearer token, checked by the API server: TokenReview, then a
    /// SubjectAccessReview for `get` on the non-resource URL /metrics.
    Tokenreview,
}

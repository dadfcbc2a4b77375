//! The flags' value enums (`cli`, clap's `ValueEnum`) into the enums of the modules that give them
//! meaning: `-o` into `render`'s [`Format`], `--fail-on` and `--sort-by` into `triage`'s. The one
//! place that reads them, so no module below `settings` sees clap.

use crate::cli;
use crate::render::Format;
use crate::triage::{FailOn, SortBy};

impl From<cli::OutputFormat> for Format {
    fn from(value: cli::OutputFormat) -> Self {
        match value {
            cli::OutputFormat::Table => Format::Table,
            cli::OutputFormat::Wide => Format::Wide,
            // `-o name` and `-o jsonpath=…` read the JSON document (`Settings::extract`).
            cli::OutputFormat::Json | cli::OutputFormat::Name | cli::OutputFormat::Jsonpath => Format::Json,
            cli::OutputFormat::Yaml => Format::Yaml,
            cli::OutputFormat::Html => Format::Html,
            cli::OutputFormat::Dot => Format::Dot,
            cli::OutputFormat::Mermaid => Format::Mermaid,
            cli::OutputFormat::Markdown => Format::Markdown,
            cli::OutputFormat::Junit => Format::Junit,
            cli::OutputFormat::Sarif => Format::Sarif,
        }
    }
}

impl From<cli::FailOn> for FailOn {
    fn from(value: cli::FailOn) -> Self {
        match value {
            cli::FailOn::None => FailOn::None,
            cli::FailOn::Drift => FailOn::Drift,
            cli::FailOn::Blocked => FailOn::Blocked,
            cli::FailOn::Fragile => FailOn::Fragile,
            cli::FailOn::Any => FailOn::Any,
        }
    }
}

impl From<cli::SortBy> for SortBy {
    fn from(value: cli::SortBy) -> Self {
        match value {
            cli::SortBy::Namespace => SortBy::Namespace,
            cli::SortBy::Name => SortBy::Name,
            cli::SortBy::Verdict => SortBy::Verdict,
            cli::SortBy::CrossZone => SortBy::CrossZone,
            cli::SortBy::Replicas => SortBy::Replicas,
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use super::*;

    #[test]
    fn every_output_value_keeps_its_name() {
        for value in cli::OutputFormat::value_variants() {
            let typed = value.to_possible_value().expect("not hidden");
            // `-o name` and `-o jsonpath=…` are extracts of the JSON document.
            let name = match value {
                cli::OutputFormat::Name | cli::OutputFormat::Jsonpath => "json",
                _ => typed.get_name(),
            };
            assert_eq!(Format::from(*value).name(), name);
        }
    }
}

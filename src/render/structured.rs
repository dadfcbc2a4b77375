//! `-o json|yaml`: serde over the Report inside its versioned envelope; never the table. With
//! `source/dump.rs`, the only YAML call site.

use std::io::Write;

use crate::report::Kind;

/// Structured formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Structured {
    /// Pretty JSON.
    Json,
    /// YAML.
    Yaml,
}

/// Write `report` in its envelope.
pub fn write<T: Kind>(report: &T, format: Structured, out: &mut dyn Write) -> std::io::Result<()> {
    let envelope = report.envelope();
    match format {
        Structured::Json => {
            serde_json::to_writer_pretty(&mut *out, &envelope)?;
            writeln!(out)
        }
        Structured::Yaml => {
            let text = serde_saphyr::to_string(&envelope).map_err(std::io::Error::other)?;
            out.write_all(text.as_bytes())
        }
    }
}

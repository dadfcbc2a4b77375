//! `kubectl topo version`: the plugin's version and, when a cluster is reachable, the server's
//! (kubectl prints `Client Version` / `Server Version` the same way). `-o json|yaml` gives the
//! versioned envelope like every other report.

use std::io::Write;

use serde::Serialize;

use crate::render::Format;
use crate::render::structured;
use topo_engine::report::Kind;

/// The plugin's own version, `v` + the crate version (as in the krew manifest).
pub(crate) const PLUGIN_VERSION: &str = concat!("v", env!("CARGO_PKG_VERSION"));

/// What `version` reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VersionReport {
    /// The plugin's version, `v` + the crate version, e.g. `v0.1.0`.
    pub(crate) plugin_version: String,
    /// The server's `gitVersion`; absent when no cluster was reachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) server_version: Option<String>,
}

impl Kind for VersionReport {
    const KIND: &'static str = "Version";
}

impl VersionReport {
    /// The report for this build and the server version found (if any).
    pub(crate) fn new(server_version: Option<String>) -> Self {
        VersionReport { plugin_version: PLUGIN_VERSION.to_string(), server_version }
    }

    /// Write it in `format`.
    pub(crate) fn write(&self, format: Format, out: &mut dyn Write) -> std::io::Result<()> {
        match format.structured() {
            Some(structured) => structured::write(self, structured, out),
            // Settings refuses the picture and report formats for `version`.
            None => {
                writeln!(out, "Plugin Version: {}", self.plugin_version)?;
                self.write_server(out)
            }
        }
    }

    /// The table's second line, `Server Version: …`, when the server answered.
    pub(crate) fn write_server(&self, out: &mut dyn Write) -> std::io::Result<()> {
        match &self.server_version {
            Some(server) => writeln!(out, "Server Version: {}", crate::escape::escape(server)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(report: &VersionReport, format: Format) -> String {
        let mut out = Vec::new();
        report.write(format, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn plugin_line_always_server_line_when_known() {
        let plugin = format!("Plugin Version: v{}\n", env!("CARGO_PKG_VERSION"));
        assert_eq!(text(&VersionReport::new(None), Format::Table), plugin);
        let both = text(&VersionReport::new(Some("v1.36.3".into())), Format::Table);
        assert_eq!(both, format!("{plugin}Server Version: v1.36.3\n"));
        let escaped = text(&VersionReport::new(Some("v1\u{1b}[2J".into())), Format::Table);
        assert!(!escaped.contains('\u{1b}'), "{escaped:?}");
    }

    #[test]
    fn json_is_the_versioned_envelope() {
        let json: serde_json::Value =
            serde_json::from_str(&text(&VersionReport::new(None), Format::Json)).unwrap();
        assert_eq!(json["apiVersion"], "kubectl-topo/v1alpha1");
        assert_eq!(json["kind"], "Version");
        assert_eq!(json["pluginVersion"], PLUGIN_VERSION);
        assert!(json.get("serverVersion").is_none());
    }
}

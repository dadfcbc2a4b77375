//! The stability level of every metric family, in kube-state-metrics' stages, and the one place
//! a family is registered with it.

use prometheus_client::registry::Registry;

/// How far a family's name, type and labels are promised, in kube-state-metrics' stages:
/// `STABLE` changes only at a major version, after a release in which it is `DEPRECATED`;
/// `ALPHA` may change in any release. Shown at the start of each family's HELP text, as
/// kube-state-metrics and the Kubernetes components show it, and in docs/monitoring.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::Display)]
#[strum(serialize_all = "UPPERCASE")]
pub enum Stability {
    /// Alerts and dashboards may rely on it.
    Stable,
    /// May change in any release.
    Alpha,
}

/// The stability of every family (name without the prefix).
pub const STABILITY: [(&str, Stability); 22] = [
    ("service_verdict", Stability::Stable),
    ("hints_stale", Stability::Stable),
    ("verdict_changed_timestamp_seconds", Stability::Alpha),
    ("expected_hinted_endpoints", Stability::Stable),
    ("hinted_endpoints", Stability::Stable),
    ("cross_zone_ratio", Stability::Stable),
    ("service_data_plane", Stability::Alpha),
    ("verdict_transitions", Stability::Alpha),
    ("margin_share_points", Stability::Alpha),
    ("fragile", Stability::Alpha),
    ("zone_cpu_ratio", Stability::Stable),
    ("zone_nodes", Stability::Stable),
    ("node_info_sufficient", Stability::Stable),
    ("build_info", Stability::Stable),
    ("objects", Stability::Alpha),
    ("ready", Stability::Stable),
    ("last_sync_timestamp_seconds", Stability::Stable),
    ("watch_progress_timestamp_seconds", Stability::Alpha),
    ("watch_restarts", Stability::Alpha),
    ("watch_errors", Stability::Alpha),
    ("recompute_duration_seconds", Stability::Alpha),
    ("recomputed_services", Stability::Alpha),
];

/// Register a family with its stability at the start of its help (none when it has none: a
/// test holds every family to having one).
pub(crate) fn register(
    registry: &mut Registry,
    name: &str,
    help: &str,
    metric: impl prometheus_client::registry::Metric,
) {
    let help = match STABILITY.iter().find(|(n, _)| *n == name) {
        Some((_, level)) => format!("[{level}] {help}"),
        None => help.to_string(),
    };
    registry.register(name, help, metric);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::exporter::exposition::Exposition;
    use crate::serve::exporter::format::Format;
    use crate::serve::exporter::metrics::Health;
    use crate::serve::exporter::{Change, Exporter, Object, Resource};
    use topo_engine::model::Behaviour;

    /// (name, type, level) of every family of a scrape in which each family has series, in
    /// scrape order: the demo cluster of the README (examples/demo-cluster.yaml).
    fn served() -> Vec<(String, String, String)> {
        use crate::source::{self, DumpPath, Request, Scope, SourceSpec};
        let spec =
            SourceSpec::Dump(DumpPath::File(std::path::Path::new("examples/demo-cluster.yaml").into()));
        let request = Request {
            scope: &Scope::AllNamespaces,
            service: None,
            nodes_only: false,
            whole: false,
            workloads: false,
        };
        let snapshot = source::load(&spec, request, &mut Vec::new()).expect("the demo dump").snapshot;
        let mut exporter = Exporter::new(Behaviour::default());
        let objects = |list: Vec<Object>, resource| Change::Listed(resource, list);
        exporter.apply(objects(snapshot.nodes.into_iter().map(Object::Node).collect(), Resource::Nodes));
        exporter
            .apply(objects(snapshot.services.into_iter().map(Object::Service).collect(), Resource::Services));
        exporter.apply(objects(
            snapshot.slices.into_iter().map(Object::Slice).collect(),
            Resource::EndpointSlices,
        ));
        exporter.recompute(1.0);
        let mut exposition = Exposition::new(None);
        exposition.refresh(&mut exporter);
        let text = exposition.scrape(&exporter, &Health::default(), Format::OpenMetrics);
        let (mut out, mut level) = (Vec::new(), String::new());
        for line in text.lines() {
            if let Some(help) = line.strip_prefix("# HELP ") {
                let text = help.split_once(' ').map_or("", |(_, t)| t);
                level = text.strip_prefix('[').and_then(|t| t.split_once(']')).map_or("", |(l, _)| l).into();
            } else if let Some(kind) = line.strip_prefix("# TYPE ") {
                let (name, kind) = kind.split_once(' ').expect("name and type");
                out.push((name.to_string(), kind.to_string(), std::mem::take(&mut level)));
            }
        }
        out
    }

    /// The metrics table of docs/monitoring.md: (name, type, level) of each row.
    fn documented() -> Vec<(String, String, String)> {
        let doc = include_str!("../../../docs/monitoring.md");
        let rows = doc.lines().filter(|l| l.starts_with("| `kubectl_topo_"));
        rows.map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            (cells[1].trim_matches('`').to_string(), cells[2].to_string(), cells[3].to_string())
        })
        .collect()
    }

    #[test]
    fn every_family_served_has_a_stability_level_and_its_row_in_the_docs() {
        let served = served();
        assert_eq!(served.len(), STABILITY.len(), "every family has series here: {served:?}");
        for (name, _, level) in &served {
            assert!(level == "STABLE" || level == "ALPHA", "{name}: {level:?}");
        }
        assert_eq!(documented(), served, "docs/monitoring.md lists the families served, in order");
    }
}

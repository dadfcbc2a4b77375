//! The `/metrics` exposition: the state's summaries and the exporter's own health, through
//! `prometheus-client` (OpenMetrics text), with every name under `kubectl_topo_`. Cardinality is at
//! most Service × address family × zone: nothing is labelled per endpoint or per node. Names and
//! labels are a contract, documented with their stability levels in docs/monitoring.md.

use std::borrow::Cow;

use prometheus_client::encoding::text::{encode_eof, encode_registry};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use strum::VariantArray;

use super::stability::register;

mod labels;
use super::state::{Exporter, FamilySummary, ServiceSummary};
use super::store::{Key, Resource};
pub use labels::ResourceLabels;
use labels::{
    BuildLabels, FamilyLabels, NodeZoneLabels, PathLabels, ShareLabels, StaleLabels, SufficientLabels,
    VerdictLabels, ZoneLabels,
};

/// A gauge of a float.
pub type FloatGauge = Gauge<f64, std::sync::atomic::AtomicU64>;

/// The metric name prefix.
pub const PREFIX: &str = "kubectl_topo";

/// The exporter's own counters, kept across scrapes (cheap to clone: they share their values).
#[derive(Debug, Clone)]
pub struct Health {
    /// Per resource: Unix seconds of the last answer the API server gave its watch (a list
    /// page, a new watch, an event, a bookmark); 0 before the first. The I/O side sets it.
    pub watch_progress: Family<ResourceLabels, FloatGauge>,
    /// 1 after the first full sync.
    pub ready: Gauge,
    /// Lists completed again after the first (410 Gone, reconnects), by resource.
    pub watch_restarts: Family<ResourceLabels, Counter>,
    /// Watch errors, by resource.
    pub watch_errors: Family<ResourceLabels, Counter>,
    /// Seconds per recompute of the affected Services.
    pub recompute_seconds: Histogram,
    /// Services analysed by recomputes.
    pub services_recomputed: Counter,
}

impl Default for Health {
    /// Counters of every resource start at 0, so that `rate()` sees their first increase.
    fn default() -> Self {
        let (watch_restarts, watch_errors): (
            Family<ResourceLabels, Counter>,
            Family<ResourceLabels, Counter>,
        ) = (Family::default(), Family::default());
        let watch_progress = Family::<ResourceLabels, FloatGauge>::default();
        for resource in Resource::VARIANTS {
            let _ = watch_restarts.get_or_create(&ResourceLabels::of(*resource));
            let _ = watch_errors.get_or_create(&ResourceLabels::of(*resource));
            let _ = watch_progress.get_or_create(&ResourceLabels::of(*resource));
        }
        Health {
            watch_progress,
            ready: Gauge::default(),
            watch_restarts,
            watch_errors,
            // 100 µs … ~3.3 s
            recompute_seconds: Histogram::new(exponential_buckets(0.0001, 2.0, 16)),
            services_recomputed: Counter::default(),
        }
    }
}

/// The per-Service families of one scrape.
#[derive(Default)]
struct ServiceFamilies {
    verdict: Family<VerdictLabels, Gauge>,
    changed: Family<FamilyLabels, FloatGauge>,
    stale: Family<StaleLabels, Gauge>,
    expected: Family<ZoneLabels, Gauge>,
    actual: Family<ZoneLabels, Gauge>,
    cross_zone: Family<ShareLabels, FloatGauge>,
    data_plane: Family<PathLabels, Gauge>,
    transitions: Family<FamilyLabels, Counter>,
    margin: Family<FamilyLabels, FloatGauge>,
    fragile: Family<FamilyLabels, Gauge>,
}

impl ServiceFamilies {
    fn add(&self, key: &Key, summary: &ServiceSummary, state: &Exporter) {
        self.add_data_plane(key, summary);
        for family in &summary.families {
            self.add_family(key, summary, family, state);
        }
    }

    /// The worst path of the Service's data plane.
    fn add_data_plane(&self, key: &Key, summary: &ServiceSummary) {
        if let Some(worst) = summary.data_plane {
            let labels = PathLabels {
                namespace: key.0.clone(),
                service: key.1.clone(),
                path: <&'static str>::from(worst.path).to_string(),
                verdict: worst.verdict.to_string(),
            };
            self.data_plane.get_or_create(&labels).set(1);
        }
    }

    /// One address family's series.
    fn add_family(&self, key: &Key, summary: &ServiceSummary, family: &FamilySummary, state: &Exporter) {
        let labels = FamilyLabels {
            namespace: key.0.clone(),
            service: key.1.clone(),
            address_type: family.address_type.clone(),
        };
        self.verdict.get_or_create(&verdict_labels(&labels, summary, family)).set(1);
        let stale = StaleLabels {
            namespace: key.0.clone(),
            service: key.1.clone(),
            address_type: family.address_type.clone(),
            ignored: family.stale_ignored.to_string(),
        };
        self.stale.get_or_create(&stale).set(i64::from(family.stale));
        if let Some(since) = state.verdict_since(key, &family.address_type) {
            self.changed.get_or_create(&labels).set(since);
        }
        self.transitions.get_or_create(&labels).inc_by(state.verdict_transitions(key, &family.address_type));
        if let Some(points) = family.margin_points {
            self.margin.get_or_create(&labels).set(points);
        }
        if let Some(fragile) = family.fragile {
            self.fragile.get_or_create(&labels).set(i64::from(fragile));
        }
        for zone in &family.zones {
            let zone_labels = ZoneLabels {
                namespace: key.0.clone(),
                service: key.1.clone(),
                address_type: family.address_type.clone(),
                topology_zone: zone.zone.clone(),
            };
            self.expected.get_or_create(&zone_labels).set(zone.expected);
            self.actual.get_or_create(&zone_labels).set(zone.actual);
        }
        if let Some(shares) = family.cross_zone {
            let states =
                [("now", shares.now), ("after_sync", shares.after_sync), ("none", shares.without_hints)];
            for (hints, value) in states {
                let share = ShareLabels {
                    namespace: key.0.clone(),
                    service: key.1.clone(),
                    address_type: family.address_type.clone(),
                    hints: hints.to_string(),
                };
                self.cross_zone.get_or_create(&share).set(value);
            }
        }
    }

    fn register_all(self, registry: &mut Registry) {
        let [verdict, stale, changed, expected, actual, cross_zone, data_plane, transitions, margin, fragile] =
            SERVICE_FAMILIES;
        register(registry, verdict.0, verdict.1, self.verdict);
        register(registry, stale.0, stale.1, self.stale);
        register(registry, changed.0, changed.1, self.changed);
        register(registry, expected.0, expected.1, self.expected);
        register(registry, actual.0, actual.1, self.actual);
        register(registry, cross_zone.0, cross_zone.1, self.cross_zone);
        register(registry, data_plane.0, data_plane.1, self.data_plane);
        register(registry, transitions.0, transitions.1, self.transitions);
        register(registry, margin.0, margin.1, self.margin);
        register(registry, fragile.0, fragile.1, self.fragile);
    }
}

/// The per-Service families, in the order a scrape shows them: name (without the prefix), help.
pub const SERVICE_FAMILIES: [(&str, &str); 10] = [
    (
        "service_verdict",
        "1 for the verdict of each Service address family, with its main reason code (empty when none), the controller's mode, and ignored=true when an ignore rule sets every finding aside",
    ),
    (
        "hints_stale",
        "1 when hints were removed and only a sync of the Service (not a Node change) brings them back (kubernetes/kubernetes#123401); ignored=true when an ignore rule sets HintsMissing aside",
    ),
    ("verdict_changed_timestamp_seconds", "Unix time the verdict was first seen with its current value"),
    ("expected_hinted_endpoints", "Ready endpoints hinted to the zone after the controller's next sync"),
    ("hinted_endpoints", "Ready endpoints hinted to the zone on the EndpointSlices now"),
    (
        "cross_zone_ratio",
        "Share (0-1) of requests that leave their zone: with today's hints (now), after the controller's next sync (after_sync), without hints (none)",
    ),
    (
        "service_data_plane",
        "1 for the worst path of each Service's data plane (one that ignores its hints, else an unknown one, else the last), with the path and its verdict's reason code, as explain's Data plane section shows them",
    ),
    (
        "verdict_transitions",
        "Times the verdict of the Service address family changed between recomputes since the exporter first saw it",
    ),
    (
        "margin_share_points",
        "Auto mode: the smallest move of one zone's CPU share, in percentage points, that flips whether the controller writes hints (absent when none does)",
    ),
    (
        "fragile",
        "Auto mode: 1 when one ready endpoint more or fewer, or a zone share move under 5 points, flips the verdict",
    ),
];

fn verdict_labels(labels: &FamilyLabels, summary: &ServiceSummary, family: &FamilySummary) -> VerdictLabels {
    VerdictLabels {
        namespace: labels.namespace.clone(),
        service: labels.service.clone(),
        address_type: labels.address_type.clone(),
        verdict: family.verdict.to_string(),
        reason: family.reason.map(|r| r.to_string()).unwrap_or_default(),
        mode: summary.mode.to_string(),
        ignored: family.ignored.to_string(),
    }
}

fn register_nodes(registry: &mut Registry, state: &Exporter) {
    let zones = state.zones();
    let (share, nodes) =
        (Family::<NodeZoneLabels, FloatGauge>::default(), Family::<NodeZoneLabels, Gauge>::default());
    for zone in &zones.zones {
        let labels = NodeZoneLabels { topology_zone: zone.zone.clone() };
        if let Some(s) = zone.share {
            share.get_or_create(&labels).set(s);
        }
        nodes.get_or_create(&labels).set(i64::try_from(zone.nodes_counted).unwrap_or(i64::MAX));
    }
    let sufficient = Family::<SufficientLabels, Gauge>::default();
    let reason = zones.reason.map(|r| r.to_string()).unwrap_or_default();
    sufficient.get_or_create(&SufficientLabels { reason }).set(i64::from(zones.sufficient));
    register(
        registry,
        "zone_cpu_ratio",
        "The controller's CPU share of the zone (absent when node information is insufficient)",
        share,
    );
    register(
        registry,
        "zone_nodes",
        "Nodes the controller counts in the zone (Ready, not control plane)",
        nodes,
    );
    register(
        registry,
        "node_info_sufficient",
        "1 when the controller has zone CPU ratios; else 0 with the reason code",
        sufficient,
    );
}

fn register_health(registry: &mut Registry, state: &Exporter, health: &Health) {
    let store = state.store();
    let objects = Family::<ResourceLabels, Gauge>::default();
    for resource in Resource::VARIANTS {
        let held = match resource {
            Resource::Nodes => store.nodes.len(),
            Resource::Services => store.services.len(),
            Resource::EndpointSlices => store.slices.len(),
        };
        objects.get_or_create(&ResourceLabels::of(*resource)).set(i64::try_from(held).unwrap_or(i64::MAX));
    }
    let h = health.clone();
    let build = Family::<BuildLabels, Gauge>::default();
    build.get_or_create(&BuildLabels { version: crate::version::PLUGIN_VERSION.to_string() }).set(1);
    register(registry, "build_info", "1, with the version of kubectl-topo that serves these metrics", build);
    register(registry, "objects", "Objects held in memory", objects);
    register(registry, "ready", "1 after the first full list of Nodes, Services and EndpointSlices", h.ready);
    register(
        registry,
        "last_sync_timestamp_seconds",
        "Unix time by which every watch had last heard from the API server (a list, a new watch, an event or a bookmark: about once a minute while healthy); 0 before every watch has listed once",
        last_sync(health),
    );
    register(
        registry,
        "watch_progress_timestamp_seconds",
        "Unix time the API server last answered the watch of the resource (a list, a new watch, an event or a bookmark)",
        h.watch_progress,
    );
    register(
        registry,
        "watch_restarts",
        "Lists completed again after the first (410 Gone, reconnect)",
        h.watch_restarts,
    );
    register(registry, "watch_errors", "Watch and list errors (retried)", h.watch_errors);
    register(
        registry,
        "recompute_duration_seconds",
        "Time to recompute the Services a change affects",
        h.recompute_seconds,
    );
    register(registry, "recomputed_services", "Services analysed by recomputes", h.services_recomputed);
}

/// The oldest of the watches' progress, once every watch has listed (0 before).
fn last_sync(health: &Health) -> FloatGauge {
    let gauge = FloatGauge::default();
    if health.ready.get() == 1 {
        let progress = Resource::VARIANTS
            .iter()
            .map(|r| health.watch_progress.get_or_create(&ResourceLabels::of(*r)).get());
        gauge.set(progress.fold(f64::INFINITY, f64::min));
    }
    gauge
}

fn registry(cluster: Option<&str>) -> Registry {
    let labels = cluster.map(|c| (Cow::Borrowed("cluster"), Cow::Owned(c.to_string())));
    Registry::with_prefix_and_labels(PREFIX, labels.into_iter())
}

/// The per-Service families of the given Services, OpenMetrics text without `# EOF`: one
/// HELP/TYPE block per family even when it has no series. [`super::exposition`] encodes one
/// Service at a time with it and keeps the text.
pub fn encode_services<'a>(
    services: impl IntoIterator<Item = (&'a Key, &'a ServiceSummary)>,
    state: &Exporter,
    cluster: Option<&str>,
) -> String {
    let mut registry = registry(cluster);
    let families = ServiceFamilies::default();
    for (key, summary) in services {
        families.add(key, summary, state);
    }
    families.register_all(&mut registry);
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = encode_registry(&mut out, &registry);
    super::format::in_label_order(&out)
}

/// The rest of a scrape, small and encoded anew each time: the node side and the exporter's
/// health, OpenMetrics text without `# EOF`.
pub fn tail_text(state: &Exporter, health: &Health, cluster: Option<&str>) -> String {
    let mut registry = registry(cluster);
    register_nodes(&mut registry, state);
    register_health(&mut registry, state, health);
    let mut out = String::with_capacity(8192);
    let _ = encode_registry(&mut out, &registry);
    super::format::in_label_order(&out)
}

/// The `# EOF` line that ends an OpenMetrics exposition.
pub fn eof() -> String {
    let mut out = String::new();
    let _ = encode_eof(&mut out);
    out
}

/// The OpenMetrics text of one scrape encoded from scratch, every Service at once (what the kept
/// text of [`super::exposition::Exposition`] must equal). `cluster`: an optional `cluster`
/// label on every series. Only the tests' reference: `serve` keeps the text per Service.
#[cfg(test)]
pub fn openmetrics(state: &Exporter, health: &Health, cluster: Option<&str>) -> String {
    let mut out = encode_services(state.services(), state, cluster);
    out.push_str(&tail_text(state, health, cluster));
    out.push_str(&eof());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use topo_engine::model::Behaviour;

    #[test]
    fn build_info_names_the_version_serving() {
        let (state, health) = (Exporter::new(Behaviour::default()), Health::default());
        let text = tail_text(&state, &health, Some("eu-1"));
        let line = format!(
            "kubectl_topo_build_info{{cluster=\"eu-1\",version=\"v{}\"}} 1",
            env!("CARGO_PKG_VERSION")
        );
        assert!(text.lines().any(|l| l == line), "{line} in:\n{text}");
    }

    #[test]
    fn the_same_state_scrapes_to_the_same_bytes() {
        let (state, health) = (Exporter::new(Behaviour::default()), Health::default());
        let first = tail_text(&state, &health, None);
        for _ in 0..20 {
            assert_eq!(tail_text(&state, &health, None), first);
        }
    }
}

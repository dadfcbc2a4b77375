//! The exporter's state: the [`Store`] of watched objects and, per Service, the summary its metrics
//! show. Incremental: a change marks the Services it affects (a Service or slice change → that
//! Service; a Node change the engine can see → the zone weights, then every Service) and
//! [`Exporter::recompute`] runs the engine for those only, on the same objects a from-scratch
//! analysis would read. Pure: the clock arrives as an argument.

use std::collections::{BTreeMap, BTreeSet};

use topo_engine::core::analyze::{self, NodeIndex, TrafficModel};
use topo_engine::model::{Behaviour, DataPlane, Service, Snapshot};
use topo_engine::report::dataplane::PathKind;
use topo_engine::report::mode::Mode;
use topo_engine::report::reason::ReasonCode;
use topo_engine::report::{FamilyReport, ServiceReport, Verdict, ZoneReport};

use super::policy::{Namespaces, PerZone, Policy};
use super::store::{Change, Key, Store, Touched, key_of};
use crate::triage::{AnnotationRule, IGNORE_ANNOTATION};

/// Ready endpoints hinted to one zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoneHints {
    /// The zone.
    pub zone: String,
    /// After the controller's next sync.
    pub expected: i64,
    /// On the slices now.
    pub actual: i64,
}

/// The share of requests leaving their zone, in three states.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrossZoneShares {
    /// With today's hints.
    pub now: f64,
    /// After the controller's next sync.
    pub after_sync: f64,
    /// Without any hints.
    pub without_hints: f64,
}

/// What the metrics show of one address family of a Service.
#[derive(Debug, Clone, PartialEq)]
pub struct FamilySummary {
    /// `IPv4` / `IPv6`.
    pub address_type: String,
    /// The verdict.
    pub verdict: Verdict,
    /// The most important reason no rule sets aside, else the most important reason, if any.
    pub reason: Option<ReasonCode>,
    /// Every reason of the family is set aside by an ignore rule (annotation or config file), as
    /// `check` sets it aside: the family never fails `check`, and the alerts skip it.
    pub ignored: bool,
    /// Per zone that has hints now or after the next sync, or ready endpoints of the Service: a
    /// cluster's other zones would each add two series of zeros per Service. Empty for a Service
    /// that neither asked for hints nor has any, unless `--per-zone-series=all`.
    pub zones: Vec<ZoneHints>,
    /// None when kube-proxy does not route the Service.
    pub cross_zone: Option<CrossZoneShares>,
    /// Auto mode: the smallest zone share move, in percentage points, that flips the verdict
    /// (docs/stability.md); None when none does or off the Auto path.
    pub margin_points: Option<f64>,
    /// Auto mode: the family is fragile (docs/stability.md#fragile); None off the Auto path.
    pub fragile: Option<bool>,
    /// Hints were removed and nothing brings them back on its own: the controller would write
    /// hints but the slices carry none, and only a sync of the Service (not a Node change) does
    /// (kubernetes/kubernetes#123401).
    pub stale: bool,
    /// `HintsMissing` (what `stale` says) is set aside by an ignore rule.
    pub stale_ignored: bool,
}

/// The worst path of a Service's data plane (explain's Data plane section): one that ignores its
/// hints first (the last of them, as explain's note), then an unknown one, then the last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathSummary {
    /// The component.
    pub path: PathKind,
    /// Its verdict.
    pub verdict: ReasonCode,
}

/// What the metrics show of one Service.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceSummary {
    /// The mode the controller applies (`None`: the Service did not ask for hints).
    pub mode: Mode,
    /// Per address family.
    pub families: Vec<FamilySummary>,
    /// The worst data-plane path (`None`: no path, as for a Snapshot without one).
    pub data_plane: Option<PathSummary>,
}

/// One zone as the controller weighs it.
#[derive(Debug, Clone, PartialEq)]
pub struct ZoneWeight {
    /// The zone.
    pub zone: String,
    /// The controller's CPU ratio (None when ratios are nil).
    pub share: Option<f64>,
    /// Nodes it counts.
    pub nodes_counted: usize,
}

/// The node side: zone weights and whether node information is sufficient.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ZoneSummary {
    /// True when the controller has ratios.
    pub sufficient: bool,
    /// Why not, when not.
    pub reason: Option<ReasonCode>,
    /// Zones sorted by name.
    pub zones: Vec<ZoneWeight>,
}

/// The exporter's state. Feed it [`Change`]s, then [`Exporter::recompute`].
#[derive(Debug, Clone)]
pub struct Exporter {
    behaviour: Behaviour,
    policy: Policy,
    store: Store,
    pending: Touched,
    /// The nodes, sorted by name, as the engine's input (rebuilt on a Node change only).
    base: Snapshot,
    /// What the engine derives from those nodes (rebuilt with them): a Service change costs the
    /// analysis of that Service, not of every node.
    index: NodeIndex,
    services: BTreeMap<Key, ServiceSummary>,
    /// Per (Service, address type): the verdict, when it was first seen (Unix seconds), and how
    /// many times it changed between recomputes since the family was first seen.
    since: BTreeMap<(Key, String), (Verdict, f64, u64)>,
    zones: ZoneSummary,
    /// Services whose summary changed (or went) since [`Exporter::take_changed`]: what a scrape
    /// must encode again.
    changed: BTreeSet<Key>,
    /// The data plane changed since the last recompute: every Service is analysed again.
    data_plane_changed: bool,
}

impl Exporter {
    /// An empty state modelling `behaviour`, with the default [`Policy`].
    pub fn new(behaviour: Behaviour) -> Self {
        Exporter::with_policy(behaviour, Policy::default())
    }

    /// An empty state modelling `behaviour` that holds and sums up what `policy` says.
    pub fn with_policy(behaviour: Behaviour, policy: Policy) -> Self {
        Exporter {
            behaviour,
            policy,
            store: Store::default(),
            // The zone summary exists before the first Node arrives.
            pending: Touched { nodes: true, ..Touched::default() },
            base: Snapshot::default(),
            index: NodeIndex::new(&[], &TrafficModel::default()),
            services: BTreeMap::new(),
            since: BTreeMap::new(),
            zones: ZoneSummary::default(),
            changed: BTreeSet::new(),
            data_plane_changed: false,
        }
    }

    /// The data plane the optional reads found (re-read periodically by `serve::driver`). True
    /// when it differs from the one held: every Service waits for a recompute.
    pub fn set_data_plane(&mut self, data_plane: DataPlane) -> bool {
        if self.base.data_plane == data_plane {
            return false;
        }
        self.base.data_plane = data_plane;
        self.data_plane_changed = true;
        true
    }

    /// The data plane held.
    pub fn data_plane(&self) -> &DataPlane {
        &self.base.data_plane
    }

    /// Record a change; nothing is computed until [`Exporter::recompute`]. True when it touched
    /// something the engine reads (a Node heartbeat, an annotation nothing reads, an object
    /// applied unchanged do not): only then is a recompute worth waiting for.
    /// Objects of a namespace the policy leaves out are never held.
    pub fn apply(&mut self, change: Change) -> bool {
        let keeps = |key: Key| self.policy.namespaces.keeps(&key.0);
        let change = match change {
            Change::Applied(object) if !keeps(key_of(&object)) => return false,
            // In place: a list of every object must not be held twice at its peak.
            Change::Listed(resource, mut objects) => {
                if self.policy.namespaces != Namespaces::default() {
                    objects.retain(|o| keeps(key_of(o)));
                }
                Change::Listed(resource, objects)
            }
            other => other,
        };
        let touched = self.store.apply(change);
        let any = touched.nodes || !touched.services.is_empty();
        self.pending.merge(touched);
        any
    }

    /// True when a change is waiting for [`Exporter::recompute`].
    pub fn is_dirty(&self) -> bool {
        self.pending.nodes || !self.pending.services.is_empty() || self.data_plane_changed
    }

    /// Recompute what the pending changes affect; `now` is Unix seconds (when a verdict changes).
    /// Returns how many Services were analysed.
    pub fn recompute(&mut self, now: f64) -> usize {
        let pending = std::mem::take(&mut self.pending);
        let mut targets = pending.services;
        if std::mem::take(&mut self.data_plane_changed) {
            targets.extend(self.store.services.keys().cloned());
        }
        if pending.nodes {
            self.base.nodes = self.store.nodes.values().cloned().collect();
            self.index = NodeIndex::new(&self.base.nodes, &TrafficModel::default());
            self.zones = zone_summary(&analyze::zones(&self.base, self.behaviour));
            targets.extend(self.store.services.keys().cloned());
            targets.extend(self.services.keys().cloned());
        }
        for gone in targets.iter().filter(|k| !self.store.services.contains_key(*k)) {
            if self.services.remove(gone).is_some() {
                self.changed.insert(gone.clone());
            }
            self.since.retain(|(key, _), _| key != gone);
        }
        let present: Vec<&Key> = targets.iter().filter(|k| self.store.services.contains_key(*k)).collect();
        let reports = analyze_services(&mut self.base, &self.index, &self.store, &present, self.behaviour);
        let analysed = reports.len();
        for report in reports {
            let key = (report.service.namespace.clone(), report.service.name.clone());
            let summary = summarize(&report, annotation(&self.store, &key), &self.policy);
            let families: BTreeSet<&str> = summary.families.iter().map(|f| f.address_type.as_str()).collect();
            self.since.retain(|(k, family), _| k != &key || families.contains(family.as_str()));
            for family in &summary.families {
                let entry = self.since.entry((key.clone(), family.address_type.clone())).or_insert((
                    family.verdict,
                    now,
                    0,
                ));
                if entry.0 != family.verdict {
                    *entry = (family.verdict, now, entry.2 + 1);
                }
            }
            if self.services.get(&key) != Some(&summary) {
                self.changed.insert(key.clone());
                self.services.insert(key, summary);
            }
        }
        analysed
    }

    /// The summaries, by Service.
    pub fn services(&self) -> &BTreeMap<Key, ServiceSummary> {
        &self.services
    }

    /// When a family's verdict last changed (Unix seconds).
    pub fn verdict_since(&self, service: &Key, address_type: &str) -> Option<f64> {
        self.since.get(&(service.clone(), address_type.to_string())).map(|(_, t, _)| *t)
    }

    /// How many times a family's verdict changed between recomputes (0 when never, or unknown).
    pub fn verdict_transitions(&self, service: &Key, address_type: &str) -> u64 {
        self.since.get(&(service.clone(), address_type.to_string())).map_or(0, |(_, _, n)| *n)
    }

    /// The Services whose summary changed or that went since the last call (their verdict time
    /// changes only with their verdict, so with their summary): a scrape re-encodes only those.
    pub fn take_changed(&mut self) -> BTreeSet<Key> {
        std::mem::take(&mut self.changed)
    }

    /// The node side.
    pub fn zones(&self) -> &ZoneSummary {
        &self.zones
    }

    /// The objects held.
    pub fn store(&self) -> &Store {
        &self.store
    }
}

/// Analyse the given Services over `base` (the nodes), lending it their objects for the call.
fn analyze_services(
    base: &mut Snapshot,
    index: &NodeIndex,
    store: &Store,
    keys: &[&Key],
    behaviour: Behaviour,
) -> Vec<ServiceReport> {
    if keys.is_empty() {
        return Vec::new();
    }
    base.services = keys.iter().filter_map(|k| store.services.get(*k).cloned()).collect();
    base.slices = keys.iter().flat_map(|k| store.slices_of(k).cloned()).collect();
    let services: Vec<&Service> = base.services.iter().collect();
    let reports = analyze::service_reports_indexed(base, &services, behaviour, index, 2);
    base.services = Vec::new();
    base.slices = Vec::new();
    reports
}

/// The ignore annotation of a Service held.
fn annotation<'a>(store: &'a Store, key: &Key) -> Option<&'a str> {
    store.services.get(key)?.annotations.get(IGNORE_ANNOTATION).map(String::as_str)
}

/// Every Service of `store` in the namespaces `policy` keeps, analysed from scratch, as one
/// `check -A` would (what the incremental state must always equal).
pub fn from_scratch(
    store: &Store,
    data_plane: &DataPlane,
    behaviour: Behaviour,
    policy: &Policy,
) -> (BTreeMap<Key, ServiceSummary>, ZoneSummary) {
    // One plain Snapshot of everything, as a one-shot read builds it: no NodeIndex, no batching.
    let kept: Vec<&Key> = store.services.keys().filter(|k| policy.namespaces.keeps(&k.0)).collect();
    let snapshot = Snapshot {
        nodes: store.nodes.values().cloned().collect(),
        services: kept.iter().map(|k| store.services[*k].clone()).collect(),
        slices: kept.iter().flat_map(|k| store.slices_of(k).cloned()).collect(),
        data_plane: data_plane.clone(),
        ..Snapshot::default()
    };
    let zones = zone_summary(&analyze::zones(&snapshot, behaviour));
    let services: Vec<&Service> = snapshot.services.iter().collect();
    let reports = analyze::service_reports_with(&snapshot, &services, behaviour, &TrafficModel::default(), 1);
    let services = reports
        .iter()
        .map(|r| {
            let key = (r.service.namespace.clone(), r.service.name.clone());
            let summary = summarize(r, annotation(store, &key), policy);
            (key, summary)
        })
        .collect();
    (services, zones)
}

/// The summary of a report: its findings set aside as `check` sets them aside (`annotation`: the
/// Service's ignore annotation), its per-zone hints only when `policy` shows them.
pub fn summarize(report: &ServiceReport, annotation: Option<&str>, policy: &Policy) -> ServiceSummary {
    let annotation = annotation.map(AnnotationRule::parse);
    let ignores = |code| policy.rules.ignores(&report.service, annotation.as_ref(), code);
    let mut families: Vec<FamilySummary> =
        report.families.iter().map(|f| family_summary(f, &ignores)).collect();
    if policy.per_zone == PerZone::Hinted && quiet(report.mode, &families) {
        families.iter_mut().for_each(|f| f.zones.clear());
    }
    // The last of the worst (`max_by_key` keeps the last of equals), as `explain`'s note picks it.
    let worst = report.data_plane.iter().max_by_key(|p| p.severity());
    let data_plane = worst.map(|p| PathSummary { path: p.path, verdict: p.verdict });
    ServiceSummary { mode: report.mode, families, data_plane }
}

/// Nobody asked for hints and none are present, as `triage::quiet` decides for `check`: every
/// family `NotEnabled`, or `Unmanaged` while the mode is `None` (`default/kubernetes`).
fn quiet(mode: Mode, families: &[FamilySummary]) -> bool {
    families.iter().all(|f| match f.verdict {
        Verdict::NotEnabled => true,
        Verdict::Unmanaged => mode == Mode::None,
        Verdict::Active | Verdict::Blocked | Verdict::Drift | Verdict::Unknown => false,
    })
}

fn family_summary(family: &FamilyReport, ignores: &dyn Fn(ReasonCode) -> bool) -> FamilySummary {
    let zones = family
        .zones
        .iter()
        .filter(|z| z.ready_endpoints != 0 || z.expected_hinted != 0 || z.actual_hinted != 0)
        .map(|z| ZoneHints { zone: z.zone.clone(), expected: z.expected_hinted, actual: z.actual_hinted })
        .collect();
    let cross_zone = family.cross_zone.as_ref().map(|c| CrossZoneShares {
        now: c.overall.now.cross_zone,
        after_sync: c.overall.expected.cross_zone,
        without_hints: c.overall.without_hints.cross_zone,
    });
    let codes = || family.reasons.iter().map(|r| r.code);
    let kept = codes().find(|c| !ignores(*c));
    let stale = codes().any(|c| c == ReasonCode::HintsMissing);
    FamilySummary {
        address_type: family.address_type.clone(),
        verdict: family.verdict,
        reason: kept.or_else(|| codes().next()),
        ignored: !family.reasons.is_empty() && kept.is_none(),
        zones,
        cross_zone,
        margin_points: family.stability.as_ref().and_then(|m| m.nearest_share_points),
        fragile: family.stability.as_ref().map(|m| m.fragile),
        stale,
        stale_ignored: stale && ignores(ReasonCode::HintsMissing),
    }
}

fn zone_summary(report: &ZoneReport) -> ZoneSummary {
    ZoneSummary {
        sufficient: report.sufficient,
        reason: report.reasons.first().map(|r| r.code),
        zones: report
            .zones
            .iter()
            .map(|z| ZoneWeight { zone: z.zone.clone(), share: z.share, nodes_counted: z.nodes_counted })
            .collect(),
    }
}

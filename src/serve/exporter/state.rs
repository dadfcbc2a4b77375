//! The exporter's state: the [`Store`] of watched objects and, per Service, the summary its metrics
//! show. Incremental: a change marks the Services it affects (a Service or slice change → that
//! Service; a Node change the engine can see → the zone weights, then every Service) and
//! [`Exporter::recompute`] runs the engine for those only, on the same objects a from-scratch
//! analysis would read. Pure: the clock arrives as an argument.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use topo_engine::core::analyze::{self, NodeIndex, TrafficModel};
use topo_engine::model::{Behaviour, DataPlane, LABEL_ZONE, Service, Snapshot};
use topo_engine::report::{ServiceReport, Verdict};

use super::policy::{Namespaces, Policy};
use super::store::{Change, Key, Object, Store, Touched, key_of};
use crate::triage::IGNORE_ANNOTATION;

use super::summary::zone_summary;
pub use super::summary::{
    CrossZoneShares, FamilySummary, PathSummary, ServiceSummary, ZoneHints, ZoneSummary, ZoneWeight,
    summarize,
};

/// How many Services one engine call analyses at most (two threads share a batch).
const BATCH: usize = 256;

/// The exporter's state. Feed it [`Change`]s, then [`Exporter::recompute`].
#[derive(Debug, Clone)]
pub struct Exporter {
    behaviour: Behaviour,
    policy: Policy,
    store: Store,
    pending: Touched,
    /// The engine's input besides the Services: the data plane, and the store's Nodes while a
    /// recompute borrows them.
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
    /// The zone names of the last full count, which was within the limit
    /// ([`Exporter::within_zone_limit`]), and whether a change since may have named another.
    zones_seen: HashSet<String>,
    zones_unseen: bool,
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
            zones_seen: HashSet::new(),
            zones_unseen: true,
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
        self.zones_unseen |= self.names_unseen_zone(&change);
        let touched = self.store.apply(change);
        let any = touched.nodes || !touched.services.is_empty();
        self.pending.merge(touched);
        any
    }

    /// No more than `limit` zone names among the objects held, as `check` counts them
    /// ([`analyze::zone_names_of`]); checked before [`Exporter::recompute`]. Everything is counted
    /// again only after a change that named a zone the last count did not see (or a relist): a
    /// changed slice of known zones cannot take the count over the limit, and counting 100,000
    /// endpoints per change would cost more than the recompute itself.
    pub fn within_zone_limit(&mut self, limit: usize) -> Result<(), analyze::TooManyZones> {
        if !self.zones_unseen {
            return Ok(());
        }
        let names = analyze::zone_names_of(self.store.nodes.values(), self.store.slices.values(), limit)?;
        self.zones_seen = names.into_iter().map(str::to_string).collect();
        self.zones_unseen = false;
        Ok(())
    }

    /// Whether `change` may name a zone the last count did not see.
    fn names_unseen_zone(&self, change: &Change) -> bool {
        let unseen = |z: &str| !self.zones_seen.contains(z);
        match change {
            Change::Applied(Object::Node(node)) => node.labels.get(LABEL_ZONE).is_some_and(|z| unseen(z)),
            Change::Applied(Object::Slice(slice)) => analyze::slice_zone_names(slice).any(unseen),
            Change::Applied(_) | Change::Deleted(..) => false,
            Change::Listed(..) => true,
        }
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
        // The store's Nodes are the Snapshot's for the length of the recompute, not a copy.
        self.base.nodes = self.store.nodes.lend();
        if pending.nodes {
            self.index = NodeIndex::new(&self.base.nodes, &TrafficModel::default());
            self.zones = zone_summary(&analyze::zones(&self.base, self.behaviour));
            targets.extend(self.store.services.keys().cloned());
            targets.extend(self.services.keys().cloned());
        }
        let (present, gone): (Vec<Key>, Vec<Key>) =
            targets.into_iter().partition(|k| self.store.services.contains_key(k));
        for key in gone {
            if self.services.remove(&key).is_some() {
                self.changed.insert(key.clone());
            }
            self.keep_since(&key, &BTreeSet::new());
        }
        // A batch at a time: only one batch's reports (the largest things the engine makes) are
        // held at once, not every Service's after a relist.
        for batch in present.chunks(BATCH) {
            let keys: Vec<&Key> = batch.iter().collect();
            let reports =
                analyze_services(&mut self.base, &self.index, &mut self.store, &keys, self.behaviour);
            for report in reports {
                self.keep(&report, now);
            }
        }
        self.store.nodes.restore(std::mem::take(&mut self.base.nodes));
        present.len()
    }

    /// Keep what the metrics show of one report, and when its verdicts changed.
    fn keep(&mut self, report: &ServiceReport, now: f64) {
        let key = (report.service.namespace.clone(), report.service.name.clone());
        let summary = summarize(report, annotation(&self.store, &key), &self.policy);
        let families: BTreeSet<&str> = summary.families.iter().map(|f| f.address_type.as_str()).collect();
        self.keep_since(&key, &families);
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

    /// Forget the verdict times of `key`'s families other than `families` (a range of the map,
    /// not a walk of every Service's: a relist of 10,000 Services made that quadratic).
    fn keep_since(&mut self, key: &Key, families: &BTreeSet<&str>) {
        let start = (key.clone(), String::new());
        let stale: Vec<(Key, String)> = self
            .since
            .range(start..)
            .map(|(k, _)| k)
            .take_while(|(k, _)| k == key)
            .filter(|(_, family)| !families.contains(family.as_str()))
            .cloned()
            .collect();
        for k in stale {
            self.since.remove(&k);
        }
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

/// Analyse the given Services over `base` (the nodes), lending it their objects for the call
/// (moved out of the store and back, not copied: copying a Service's slices was about 4 % of a
/// change's CPU at the large size).
fn analyze_services(
    base: &mut Snapshot,
    index: &NodeIndex,
    store: &mut Store,
    keys: &[&Key],
    behaviour: Behaviour,
) -> Vec<ServiceReport> {
    if keys.is_empty() {
        return Vec::new();
    }
    (base.services, base.slices) = store.lend(keys);
    let services: Vec<&Service> = base.services.iter().collect();
    let reports = analyze::service_reports_indexed(base, &services, behaviour, index, 2);
    store.restore(keys, (std::mem::take(&mut base.services), std::mem::take(&mut base.slices)));
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

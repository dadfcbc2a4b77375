//! Per-zone summary of what kube-proxy on every node does for one Service (docs/behaviour.md#kube-proxy): nodes with
//! the same zone and the same outcome are grouped.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::sync::Arc;

use serde::Serialize;

use super::cache::prefers_non_terminating;
use super::nodes::{Locality, NodeRow, ProxyNodes, named_rows};
use super::{Categories, ProxyEndpoint, ProxyLog, ProxyServiceInfo, TopologyMode, endpoints_for_port};
use crate::model::{Behaviour, EndpointSlice, Node, Service};
use crate::report::proxy::{ProxyMode, ProxyZoneView};
use crate::report::reason::{Facts, Reason, ReasonCode};

mod shared;
use shared::{Alike, Lists, Rows, unhinted};

/// What kube-proxy does for one Service, per zone.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProxyView {
    /// Nodes were unreadable: one hypothetical node per zone seen on endpoints or hints, with no
    /// local endpoints.
    pub hypothetical_nodes: bool,
    /// kube-proxy does not proxy this Service at all (ExternalName, headless, no ports).
    pub skipped: Option<Reason>,
    /// Name of the port the view is computed for (the Service's first port).
    pub port: Option<String>,
    /// Groups sorted by zone, then first node.
    pub zones: Vec<ProxyZoneView>,
}

// mirrors proxy/util: ShouldSkipService (headless or ExternalName Services are not proxied)
fn skip_reason(service: &Service) -> Option<Reason> {
    if service.service_type == "ExternalName" {
        return Some(Reason::new(ReasonCode::ExternalName));
    }
    let facts = |key: &str, value: &str| Facts {
        key: Some(key.into()),
        value: Some(value.into()),
        ..Facts::default()
    };
    if service.is_headless() {
        return Some(Reason::with(ReasonCode::ProxyTopologyNotUsed, facts("spec.clusterIP", "None")));
    }
    match service.ports.is_empty() {
        true => Some(Reason::with(ReasonCode::ProxyTopologyNotUsed, facts("spec.ports", ""))),
        false => None,
    }
}

/// Zones seen on endpoints (`zone`) and zone hints, for hypothetical nodes.
fn hypothetical_rows(slices: &[&EndpointSlice]) -> Vec<NodeRow> {
    let mut zones = BTreeSet::new();
    for endpoint in slices.iter().flat_map(|s| &s.endpoints) {
        zones.extend(endpoint.zone.iter().map(|z| z.to_string()));
        let hinted = endpoint.hints.as_ref().and_then(|h| h.for_zones.as_ref());
        zones.extend(hinted.into_iter().flatten().map(|z| z.to_string()));
    }
    if zones.is_empty() {
        zones.insert(String::new());
    }
    zones.into_iter().map(|zone| (String::new(), Some(zone), false, None)).collect()
}

/// The comparable part of a node's outcome (node names in log key/values left out).
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    mode: ProxyMode,
    endpoints: Arc<[String]>,
    external_endpoints: Option<Vec<String>>,
    reason: Option<Rc<Reason>>,
    log_shape: Vec<(String, Vec<(String, String)>)>,
    /// The node's own kube-proxy version when older than the control plane's.
    kube_proxy: Option<Behaviour>,
}

/// The addresses of the endpoints at `positions`, sorted.
fn addresses(positions: &[usize], endpoints: &[ProxyEndpoint]) -> Vec<String> {
    let mut out: Vec<String> = positions.iter().map(|&i| endpoints[i].address.clone()).collect();
    out.sort();
    out
}

fn outcome(
    svc: &ProxyServiceInfo,
    categorized: &Categories,
    endpoints: &[ProxyEndpoint],
    kube_proxy: Option<Behaviour>,
    lists: &mut Lists,
) -> Outcome {
    let (mode, list) = if svc.internal_policy_local {
        (ProxyMode::Local, categorized.local.as_deref())
    } else {
        let mode = match categorized.topology_mode {
            Some(TopologyMode::PreferSameNode) => ProxyMode::PreferSameNode,
            Some(TopologyMode::PreferSameZone) => ProxyMode::PreferSameZone,
            None => ProxyMode::Cluster,
        };
        (mode, categorized.cluster.as_deref())
    };
    let external = (svc.external_policy_local && !svc.internal_policy_local)
        .then(|| addresses(categorized.local.as_deref().unwrap_or_default(), endpoints));
    let log_shape = categorized
        .logs
        .iter()
        .map(|log| {
            let kvs = log
                .key_values
                .iter()
                .filter(|kv| kv.key != "node")
                .map(|kv| (kv.key.clone(), kv.value.clone()));
            (log.message.clone(), kvs.collect())
        })
        .collect();
    Outcome {
        mode,
        endpoints: lists.get(list.unwrap_or_default(), endpoints),
        external_endpoints: external,
        reason: categorized.reason.clone(),
        log_shape,
        kube_proxy,
    }
}

/// One group of nodes with the same zone and outcome.
struct Group {
    zone: String,
    outcome: Outcome,
    /// What [`proxy_view_on`] shows of the group (its view and log line) is made there only: the
    /// cross-zone share routes over groups and reads neither (formatting kube-proxy's lines was
    /// about a fifth of the instructions of `serve`'s recompute of one Service).
    categorized: Rc<Categories>,
}

impl Group {
    /// The view of the group's `nodes`, as [`proxy_view_on`] shows it.
    fn into_view(self, nodes: Vec<String>) -> ProxyZoneView {
        let Group { zone, outcome, categorized } = self;
        ProxyZoneView {
            zone,
            nodes,
            mode: outcome.mode,
            endpoints: outcome.endpoints,
            external_endpoints: outcome.external_endpoints,
            reason: outcome.reason.map(Rc::unwrap_or_clone),
            log_line: log_line(&categorized),
            kube_proxy_version: outcome.kube_proxy.map(|b| b.to_string()),
        }
    }
}

/// Every node's group, computed without visiting every node: the rows a Service's endpoints or
/// hints name get their own outcome, every other row the outcome of its (zone, Windows) class.
pub(crate) struct Grouped {
    hypothetical: bool,
    port: String,
    groups: Vec<Group>,
    /// Group of the class's rows that are not named (None: every row of the class is named).
    class_group: Vec<Option<usize>>,
    /// `(row, group)` of each named row, in row order.
    named: Vec<(usize, usize)>,
    row_count: usize,
}

impl Grouped {
    /// The group each row belongs to.
    fn group_of_rows(&self, nodes: &ProxyNodes) -> Vec<usize> {
        let mut out = vec![0; self.row_count];
        for (row, slot) in out.iter_mut().enumerate() {
            if let Some(g) = nodes.class.get(row).and_then(|&c| self.class_group[c]) {
                *slot = g;
            }
        }
        self.named.iter().for_each(|&(row, g)| out[row] = g);
        out
    }

    /// Group of the unnamed rows of each class.
    pub(crate) fn class_groups(&self) -> &[Option<usize>] {
        &self.class_group
    }

    /// `(row, group)` of the rows with an outcome of their own, in row order.
    pub(crate) fn named_rows(&self) -> &[(usize, usize)] {
        &self.named
    }

    /// Endpoints (first addresses, sorted) of each group.
    pub(crate) fn endpoints(&self) -> Vec<&[String]> {
        self.groups.iter().map(|g| &g.outcome.endpoints[..]).collect()
    }

    /// Zone of each group.
    pub(crate) fn zones(&self) -> Vec<&str> {
        self.groups.iter().map(|g| g.zone.as_str()).collect()
    }
}

/// The rows whose outcome is computed, in row order: every named row and the first unnamed row of
/// each class (every row when `every_row`). `Ok(row)` is named, `Err(row)` stands for its class.
fn visited_rows(nodes: &ProxyNodes, named: &BTreeSet<usize>, every_row: bool) -> Vec<Result<usize, usize>> {
    if every_row {
        return (0..nodes.rows.len()).map(Ok).collect();
    }
    let mut out: Vec<Result<usize, usize>> = named.iter().copied().map(Ok).collect();
    let firsts = nodes.members.iter().filter_map(|rows| rows.iter().copied().find(|r| !named.contains(r)));
    out.extend(firsts.map(Err));
    out.sort_by_key(|r| match r {
        Ok(row) | Err(row) => *row,
    });
    out
}

fn group_nodes(
    service: &Service,
    own: &[&EndpointSlice],
    nodes: &ProxyNodes,
    every_row: bool,
    behaviour: Behaviour,
) -> Grouped {
    let port = &service.ports[0];
    let svc = ProxyServiceInfo::from_service(service, port, behaviour);
    let locality = svc.uses_local_endpoints();
    // On a skewed cluster some nodes run an older kube-proxy (docs/behaviour.md#skewed-clusters):
    // what reads locality is decided by the oldest, and no list is shared across versions.
    let oldest = nodes.oldest_skewed(behaviour);
    // Before 1.36 the duplicate merge reads `is_local` too (a later local copy wins, k/k v1.35.0
    // endpointslicecache.go:238), whatever the policy: a node hosting a duplicated address may
    // then hold another copy than the rest of its class.
    let reads_locality = match (locality, prefers_non_terminating(oldest.unwrap_or(behaviour))) {
        (true, _) => Locality::Every,
        (false, false) => Locality::Duplicates,
        (false, true) => Locality::Never,
    };
    let named = if every_row { BTreeSet::new() } else { named_rows(own, nodes, reads_locality) };
    // Without a Local policy nothing reads `is_local`, and from 1.36 duplicates merge without
    // looking at it: then every node sees the same endpoints.
    let shared = (!locality && prefers_non_terminating(behaviour) && oldest.is_none())
        .then(|| endpoints_for_port(own, &port.name, &port.protocol, "", behaviour));
    let mut class_group: Vec<Option<usize>> = vec![None; nodes.members.len()];
    let mut named_groups = Vec::with_capacity(named.len());
    let mut groups = GroupSet::default();
    let mut alike = Alike::new(shared.as_deref().is_some_and(unhinted));
    let rows = Rows { service, svc: &svc, own, nodes, behaviour, shared: &shared };
    for visit in visited_rows(nodes, &named, every_row) {
        let (Ok(row) | Err(row)) = visit;
        let (_, zone, windows, _) = &nodes.rows[row];
        let at = nodes.kube_proxy(row, behaviour);
        let key = (*windows, zone.as_deref().unwrap_or_default().is_empty(), at);
        let (categorized, result) = alike.get(key).unwrap_or_else(|| {
            let decided = rows.decide(row, at, &mut groups.lists);
            alike.put(key, &decided.0, &decided.1);
            decided
        });
        let g = groups.place(zone.clone().unwrap_or_default(), result, &categorized);
        match visit {
            Ok(row) => named_groups.push((row, g)),
            Err(row) => class_group[nodes.class[row]] = Some(g),
        }
    }
    Grouped {
        hypothetical: every_row,
        port: port.name.clone(),
        groups: groups.groups,
        class_group,
        named: named_groups,
        row_count: nodes.rows.len(),
    }
}

/// The Service's first port as kube-proxy at `at` reads it: `svc` (the control plane's reading)
/// unless `at` is a skewed node's older version.
fn service_info_at<'s>(
    service: &Service,
    svc: &'s ProxyServiceInfo,
    at: Behaviour,
    behaviour: Behaviour,
) -> Cow<'s, ProxyServiceInfo> {
    match at == behaviour {
        true => Cow::Borrowed(svc),
        false => Cow::Owned(ProxyServiceInfo::from_service(service, &service.ports[0], at)),
    }
}

/// The distinct outcomes seen so far, indexed by zone so that placing a node does not compare
/// against every zone's groups (10^4 zones).
#[derive(Default)]
struct GroupSet {
    groups: Vec<Group>,
    by_zone: HashMap<String, Vec<usize>>,
    lists: Lists,
}

impl GroupSet {
    /// Index of the group of `zone` with this outcome, added if new.
    fn place(&mut self, zone: String, result: Outcome, categorized: &Rc<Categories>) -> usize {
        let same_zone = self.by_zone.entry(zone.clone()).or_default();
        if let Some(g) = same_zone.iter().copied().find(|&i| self.groups[i].outcome == result) {
            return g;
        }
        same_zone.push(self.groups.len());
        self.groups.push(Group { zone, outcome: result, categorized: categorized.clone() });
        self.groups.len() - 1
    }
}

/// The lines kube-proxy logs for a group's nodes, one string.
fn log_line(categorized: &Categories) -> Option<String> {
    let lines: Vec<String> = categorized.logs.iter().map(ProxyLog::line).collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The grouping behind [`proxy_view_on`]; the reason when kube-proxy skips the Service.
pub(crate) fn grouped(
    service: &Service,
    slices: &[&EndpointSlice],
    nodes: &ProxyNodes,
    behaviour: Behaviour,
) -> Result<Grouped, Box<Reason>> {
    if let Some(reason) = skip_reason(service) {
        return Err(Box::new(reason));
    }
    let own: Vec<&EndpointSlice> = slices.iter().copied().filter(|s| s.is_for(service)).collect();
    let hypothetical = nodes.rows.is_empty();
    let hypothetical_rows =
        hypothetical.then(|| ProxyNodes { rows: hypothetical_rows(&own), ..ProxyNodes::default() });
    let rows = hypothetical_rows.as_ref().unwrap_or(nodes);
    Ok(group_nodes(service, &own, rows, hypothetical, behaviour))
}

/// What kube-proxy on every node does for the Service's **first port** (all ports share the
/// slices' hints; a port-specific view would differ only in which slices carry that port).
/// `slices` are the Service's EndpointSlices of one address family, any manager (slices labelled
/// for other Services are ignored). kube-proxy runs on every node, control-plane included. With
/// no `nodes` (unreadable), one hypothetical node per zone seen is used and flagged.
pub fn proxy_view(
    service: &Service,
    slices: &[&EndpointSlice],
    nodes: &[Node],
    behaviour: Behaviour,
) -> ProxyView {
    proxy_view_on(service, slices, &ProxyNodes::new(nodes), behaviour)
}

/// [`proxy_view`] on nodes sorted and indexed once.
pub fn proxy_view_on(
    service: &Service,
    slices: &[&EndpointSlice],
    nodes: &ProxyNodes,
    behaviour: Behaviour,
) -> ProxyView {
    let grouped = match grouped(service, slices, nodes, behaviour) {
        Ok(g) => g,
        Err(reason) => return ProxyView { skipped: Some(*reason), ..ProxyView::default() },
    };
    let mut members: Vec<Vec<String>> = vec![Vec::new(); grouped.groups.len()];
    if !grouped.hypothetical {
        for (row, g) in grouped.group_of_rows(nodes).into_iter().enumerate() {
            members[g].push(nodes.rows[row].0.clone());
        }
    }
    let mut zones: Vec<ProxyZoneView> =
        grouped.groups.into_iter().zip(members).map(|(g, nodes)| g.into_view(nodes)).collect();
    zones.sort_by(|a, b| (&a.zone, a.nodes.first()).cmp(&(&b.zone, b.nodes.first())));
    ProxyView { hypothetical_nodes: grouped.hypothetical, skipped: None, port: Some(grouped.port), zones }
}

#[cfg(test)]
mod headless_tests {
    use super::*;
    use crate::core::testkit_td::service;

    #[test]
    fn only_cluster_ip_none_is_headless() {
        let with = |ip: Option<&str>| Service { cluster_ip: ip.map(str::to_string), ..service() };
        // A manifest without clusterIP (or with an empty one) gets an address when created.
        for allocated in [None, Some(""), Some("10.96.0.10")] {
            assert!(!with(allocated).is_headless(), "{allocated:?}");
            assert_eq!(skip_reason(&with(allocated)), None, "{allocated:?}");
        }
        assert!(with(Some("None")).is_headless());
        let skipped = skip_reason(&with(Some("None"))).expect("headless is not proxied");
        assert_eq!(
            (skipped.code, skipped.facts.value.as_deref()),
            (ReasonCode::ProxyTopologyNotUsed, Some("None"))
        );
    }
}

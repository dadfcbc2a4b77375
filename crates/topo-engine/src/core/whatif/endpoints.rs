//! Endpoint changes of `simulate` as the EndpointSlice controller would write them (`reconciler.go`
//! `reconcileByPortMapping`): pods on deleted nodes disappear (a pod whose node is not in
//! the lister is skipped; with `publishNotReadyAddresses` it stays, without a zone); `--replicas`
//! adds ready endpoints (spread as the surviving pods are spread, [`crate::core::analyze::spread`]) or removes
//! them (last in slice order first); a slice that loses or changes an endpoint is rewritten with
//! every kept endpoint fresh (no hints); new endpoints fill rewritten slices first (fullest first),
//! then one Unchanged slice they fit in (`getSliceToFill`, its old endpoints keep their hints),
//! else new slices of up to 100 endpoints.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::changes::{Changes, SpreadSpec};
use super::error::{Misfit, SimulateError};
use crate::core::analyze::spread::{ZoneSpread, even, ready_spread, spread};
use crate::core::analyze::spread_weights;
use crate::core::zones::{NodeTopology, is_counted, node_zone};
use crate::model::{CONTROLLER_NAME, Endpoint, EndpointSlice, Node, Service, SlicePort};

/// `--max-endpoints-per-slice` default of kube-controller-manager.
const MAX_PER_SLICE: usize = 100;

/// The reconciler's lists for one address family after the endpoint changes.
#[derive(Debug, Clone, Default)]
pub(crate) struct FamilyPlan {
    /// Slices to create.
    pub to_create: Vec<EndpointSlice>,
    /// Slices to update.
    pub to_update: Vec<EndpointSlice>,
    /// Slices left as they are.
    pub unchanged: Vec<EndpointSlice>,
    /// Slices deleted (no endpoint left).
    pub deleted: Vec<String>,
}

impl FamilyPlan {
    /// True when the Service's endpoints change (the controller syncs it).
    pub(crate) fn changed(&self) -> bool {
        !(self.to_create.is_empty() && self.to_update.is_empty() && self.deleted.is_empty())
    }
}

/// What the endpoint changes depend on.
pub(crate) struct EndpointContext<'a> {
    /// The Service (after the mode change).
    pub service: &'a Service,
    /// Nodes after the change.
    pub nodes: &'a [Node],
    /// `SetNodes` over them.
    pub topology: &'a NodeTopology,
    /// Deleted nodes.
    pub removed: &'a BTreeSet<String>,
    /// The changes.
    pub changes: &'a Changes,
}

/// Plan one address family's managed slices (in live order).
pub(crate) fn plan_family(
    ctx: &EndpointContext<'_>,
    managed: &[EndpointSlice],
) -> Result<FamilyPlan, SimulateError> {
    let mut slices: Vec<(EndpointSlice, bool)> = managed.iter().map(|s| (s.clone(), false)).collect();
    drop_removed_nodes(ctx, &mut slices);
    let today = ready_spread(slices.iter().map(|(s, _)| s));
    let mut added = Vec::new();
    if let Some(target) = target(ctx, &today)? {
        for (zone, want) in &target {
            let have = today.get(zone).copied().unwrap_or(0);
            if *want < have {
                remove_ready(&mut slices, zone, (have - want) as usize);
            }
        }
        let mut addresses = Addresses::new(managed);
        for (zone, want) in &target {
            let have = today.get(zone).copied().unwrap_or(0);
            let templates = templates(ctx, &slices, zone)?;
            for k in 0..(want - have).max(0) as usize {
                let (node, zone) = templates[k % templates.len()].clone();
                added.push(fresh(addresses.next(), node, zone));
            }
        }
    }
    let mut plan = FamilyPlan::default();
    for (mut slice, touched) in slices {
        if !touched {
            plan.unchanged.push(slice);
        } else if slice.endpoints.is_empty() {
            plan.deleted.push(slice.name);
        } else {
            slice.endpoints.iter_mut().for_each(|e| e.hints = None);
            plan.to_update.push(slice);
        }
    }
    place(&mut plan, added, &new_slice(ctx.service, managed));
    Ok(plan)
}

fn drop_removed_nodes(ctx: &EndpointContext<'_>, slices: &mut [(EndpointSlice, bool)]) {
    let gone = |e: &Endpoint| e.node_name.as_deref().is_some_and(|n| ctx.removed.contains(n));
    for (slice, touched) in slices.iter_mut() {
        if !slice.endpoints.iter().any(gone) {
            continue;
        }
        *touched = true;
        if ctx.service.publish_not_ready_addresses {
            // Included without a zone when the pod's node is not in the lister (reconciler.go).
            slice.endpoints.iter_mut().filter(|e| gone(e)).for_each(|e| e.zone = None);
        } else {
            slice.endpoints.retain(|e| !gone(e));
        }
    }
}

/// Ready endpoints per zone wanted afterwards; None when the endpoints are not changed.
fn target(
    ctx: &EndpointContext<'_>,
    today: &BTreeMap<String, i64>,
) -> Result<Option<ZoneSpread>, SimulateError> {
    let c = ctx.changes;
    let current: i64 = today.values().sum();
    let mut target = match (&c.spread, c.replicas) {
        (None, None) => return Ok(None),
        (Some(SpreadSpec::Zones(zones)), n) => {
            let total: i64 = zones.values().sum();
            if n.is_some_and(|n| n != total) {
                let n = n.unwrap_or_default();
                return Err(SimulateError(
                    format!("--spread adds up to {total} endpoints but --replicas is {n}"),
                    Misfit::SpreadTotal,
                ));
            }
            zones.clone()
        }
        (Some(SpreadSpec::Even), n) => {
            let mut zones: Vec<String> =
                ctx.topology.ratios.as_map().map(|m| m.keys().cloned().collect()).unwrap_or_default();
            if zones.is_empty() {
                zones = today.keys().filter(|z| !z.is_empty()).cloned().collect();
            }
            even(&zones, n.unwrap_or(current))
        }
        (None, Some(n)) if current > 0 => spread(today, n),
        (None, Some(n)) => spread(&spread_weights(&[], ctx.topology).0, n),
    };
    for zone in today.keys() {
        target.entry(zone.clone()).or_insert(0);
    }
    Ok(Some(target))
}

/// Remove `count` ready endpoints of `zone`, last in slice order first.
fn remove_ready(slices: &mut [(EndpointSlice, bool)], zone: &str, mut count: usize) {
    for (slice, touched) in slices.iter_mut().rev() {
        while count > 0 {
            let Some(i) = slice
                .endpoints
                .iter()
                .rposition(|e| e.controller_ready() && e.zone.as_deref().unwrap_or_default() == zone)
            else {
                break;
            };
            slice.endpoints.remove(i);
            *touched = true;
            count -= 1;
        }
    }
}

/// Where a new endpoint goes: (node name, zone).
type Placement = (Option<String>, Option<String>);

/// (node, zone) for new endpoints in `zone`: the nodes today's ready endpoints there run on, else
/// the zone's counted nodes, else any node labelled with it.
fn templates(
    ctx: &EndpointContext<'_>,
    slices: &[(EndpointSlice, bool)],
    zone: &str,
) -> Result<Vec<Placement>, SimulateError> {
    let from_endpoints: Vec<_> = slices
        .iter()
        .flat_map(|(s, _)| &s.endpoints)
        .filter(|e| e.controller_ready() && e.zone.as_deref().unwrap_or_default() == zone)
        .map(|e| (e.node_name.as_deref().map(str::to_string), e.zone.as_deref().map(str::to_string)))
        .collect();
    if !from_endpoints.is_empty() {
        return Ok(from_endpoints);
    }
    let mut members: Vec<&Node> = ctx.nodes.iter().filter(|n| node_zone(n) == Some(zone)).collect();
    if members.iter().any(|n| is_counted(n)) {
        members.retain(|n| is_counted(n));
    }
    members.sort_by(|a, b| a.name.cmp(&b.name));
    if members.is_empty() || zone.is_empty() {
        return Err(SimulateError(
            format!("--spread: zone {zone:?} has no node to run new pods on"),
            Misfit::Names,
        ));
    }
    Ok(members.into_iter().map(|n| (Some(n.name.clone()), Some(zone.to_string()))).collect())
}

fn fresh(address: String, node_name: Option<String>, zone: Option<String>) -> Endpoint {
    Endpoint {
        addresses: vec![address].into(),
        ready: Some(true),
        serving: Some(true),
        terminating: Some(false),
        node_name: node_name.map(Arc::from),
        zone: zone.map(Arc::from),
        hints: None,
    }
}

/// Addresses for new endpoints from documentation ranges (198.51.100.0/22, 2001:db8::/64), skipping
/// any in use.
struct Addresses {
    used: BTreeSet<String>,
    ipv6: bool,
    next: u32,
}

impl Addresses {
    fn new(managed: &[EndpointSlice]) -> Self {
        let used = managed.iter().flat_map(|s| &s.endpoints).flat_map(|e| e.addresses.clone()).collect();
        let ipv6 = managed.first().is_some_and(|s| s.address_type == "IPv6");
        Addresses { used, ipv6, next: 0 }
    }

    fn next(&mut self) -> String {
        loop {
            let k = self.next;
            self.next += 1;
            let candidate = if self.ipv6 {
                format!("2001:db8::{:x}", k + 1)
            } else {
                format!("198.51.{}.{}", 100 + k / 254, k % 254 + 1)
            };
            if self.used.insert(candidate.clone()) {
                return candidate;
            }
        }
    }
}

/// An empty controller-managed slice like the family's first one (ports of the Service otherwise).
fn new_slice(service: &Service, managed: &[EndpointSlice]) -> EndpointSlice {
    let ports = managed.first().map(|s| s.ports.clone()).unwrap_or_else(|| {
        service
            .ports
            .iter()
            .map(|p| SlicePort {
                name: Some(p.name.clone()),
                port: Some(p.port),
                protocol: Some(p.protocol.clone()),
            })
            .collect()
    });
    EndpointSlice {
        namespace: service.namespace.clone(),
        name: String::new(),
        service_name: Some(service.name.clone()),
        managed_by: Some(CONTROLLER_NAME.to_string()),
        address_type: managed.first().map_or_else(|| "IPv4".to_string(), |s| s.address_type.clone()),
        ports,
        endpoints: vec![],
    }
}

// mirrors reconciler.go: reconcileByPortMapping steps 2–3 (getSliceToFill)
fn place(plan: &mut FamilyPlan, added: Vec<Endpoint>, template: &EndpointSlice) {
    let mut queue: std::collections::VecDeque<Endpoint> = added.into();
    let mut order: Vec<usize> = (0..plan.to_update.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(plan.to_update[i].endpoints.len()));
    for i in order {
        fill(&mut plan.to_update[i], &mut queue);
    }
    while !queue.is_empty() {
        let fit =
            (queue.len() < MAX_PER_SLICE).then(|| slice_to_fill(&plan.unchanged, queue.len())).flatten();
        if let Some(i) = fit {
            let mut slice = plan.unchanged.remove(i);
            fill(&mut slice, &mut queue);
            plan.to_update.push(slice);
        } else {
            let mut slice = template.clone();
            slice.name = format!(
                "{}-simulated-{}",
                template.service_name.as_deref().unwrap_or("svc"),
                plan.to_create.len() + 1
            );
            fill(&mut slice, &mut queue);
            plan.to_create.push(slice);
        }
    }
}

fn fill(slice: &mut EndpointSlice, queue: &mut std::collections::VecDeque<Endpoint>) {
    while slice.endpoints.len() < MAX_PER_SLICE {
        let Some(e) = queue.pop_front() else { break };
        slice.endpoints.push(e);
    }
}

// mirrors reconciler utils.go: getSliceToFill (the first of equally close slices wins)
fn slice_to_fill(slices: &[EndpointSlice], count: usize) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (i, s) in slices.iter().enumerate() {
        let Some(diff) = MAX_PER_SLICE.checked_sub(count + s.endpoints.len()) else { continue };
        if best.is_none_or(|(_, d)| diff < d) {
            best = Some((i, diff));
        }
    }
    best.map(|(i, _)| i)
}

//! Will the hints hold? (docs/stability.md) The Auto verdict "the controller's next fresh sync
//! writes hints" inverted: the nearest change of zone CPU share ([`share`]), of Nodes ([`nodes`]) and
//! of ready endpoints ([`endpoints`]) that flips it, whether it holds at every replica count and
//! placement a scaling range allows ([`certificate`]; fed from the workloads read by
//! [`workloads`]), and the flips the controller's Events recorded ([`history`]).
//!
//! Every inversion evaluates the same predicate, [`CpuState::holds`]: the checks of
//! `getAllocations` in upstream order with its f64 arithmetic (`float64(millis) /
//! float64(total)` as `SetNodes` divides, then `ceil((ratio · n) · K)`), and `AddHints`' abort on
//! a ready endpoint without a zone. Nothing else can stop a fresh sync (docs/behaviour.md#step-f-finish).

pub mod certificate;
pub mod endpoints;
pub mod history;
pub mod load;
pub mod nodes;
pub mod share;
pub mod workloads;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_workloads;

use std::collections::BTreeMap;

use crate::core::topologycache::overload_factor;
use crate::core::zones::NodeTopology;
use crate::report::stability::{FRAGILE_SHARE_POINTS, Margin};

pub use certificate::{Scaling, certificate};
pub use history::history;
pub use workloads::workload_certificates;

/// Ready endpoints above which the share margin is not computed (its candidates grow with `n`).
pub const MARGIN_ENDPOINT_LIMIT: i64 = 10_000;

/// Counted zones above which neither the share margin nor the Node flips are computed: both cost
/// zones² (the share margin zones² · n) per Service, and no real cluster has this many zones
/// (issue 32 item 3: a count beyond anything real must not cost minutes).
pub const MARGIN_ZONE_LIMIT: usize = 64;

/// Zone CPU as `SetNodes` leaves it: milli-CPU per counted zone and the total's milli-CPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuState {
    /// `cpuByZone[z].MilliValue()` per counted zone.
    pub zones: BTreeMap<String, i64>,
    /// `totalCPU.MilliValue()`.
    pub total: i64,
}

impl CpuState {
    /// The state of `topology`, or None when its ratios are nil (no zone weights to move).
    pub fn of(topology: &NodeTopology) -> Option<Self> {
        topology.ratios.as_map()?;
        let zones = topology.counted_zones().map(|(z, cpu)| (z.clone(), cpu.cpu_millis)).collect();
        Some(CpuState { zones, total: topology.total_cpu_millis })
    }

    // mirrors topologycache.go: SetNodes (ratios) then getAllocations (its four checks), and
    // AddHints' NoZoneSpecified abort.
    /// The controller's next fresh sync writes hints for `n` ready endpoints, `zoneless` of them
    /// without a zone, with zone `zone`'s milli-CPU replaced by `millis` (the total moves with it).
    pub fn holds_with(&self, zone: Option<(&str, i64)>, n: i64, zoneless: i64) -> bool {
        if zoneless > 0 {
            return false;
        }
        let (delta, replaced) = match zone {
            Some((z, millis)) => (millis - self.zones.get(z).copied().unwrap_or(0), Some((z, millis))),
            None => (0, None),
        };
        let total = (self.total + delta) as f64;
        let count = self.zones.len() as i64;
        if total <= 0.0 || count < 2 || count > n {
            return false;
        }
        let minimum = |millis: i64| (((millis as f64 / total) * n as f64) * overload_factor()).ceil() as i64;
        let sum: i64 = self
            .zones
            .iter()
            .map(|(z, &m)| match replaced {
                Some((r, millis)) if r == z => minimum(millis),
                _ => minimum(m),
            })
            .sum();
        sum <= n
    }

    /// [`CpuState::holds_with`] on today's CPU.
    pub fn holds(&self, n: i64, zoneless: i64) -> bool {
        self.holds_with(None, n, zoneless)
    }
}

/// The margin of one Auto family: `sizes` the cluster's Node sizes ([`nodes::sizes_by_zone`]),
/// `ready` today's ready endpoints per zone (`""`: no zone).
pub fn margin(
    topology: &NodeTopology,
    sizes: &nodes::NodeSizes,
    ready: &BTreeMap<String, i64>,
) -> Option<Margin> {
    let state = CpuState::of(topology)?;
    let (n, zoneless) = counts(ready);
    let shares = shares_within_limits(&state, n, zoneless);
    let (nodes, nodes_examined) = match state.zones.len() <= MARGIN_ZONE_LIMIT {
        true => nodes::node_flips(topology, sizes, n, zoneless),
        false => (Vec::new(), 0),
    };
    let nearest = share::nearest_points(&shares);
    Some(Margin { shares, nodes, nodes_examined, ..summary(&state, ready, nearest) })
}

/// The nearest share move of [`margin`] by (ready endpoints, of which without a zone): every
/// Service of one snapshot computes it over the same zone CPU, so it is computed once per count.
pub type NearestShares = std::sync::Mutex<std::collections::HashMap<(i64, i64), Option<f64>>>;

/// What a `check` row reads of [`margin`] (whether it holds, the nearest share move, fragile),
/// without the per-zone shares or the Node flips it does not show; the nearest share move is
/// looked up in `nearest` before it is computed.
pub fn row_margin(
    topology: &NodeTopology,
    ready: &BTreeMap<String, i64>,
    nearest: &NearestShares,
) -> Option<Margin> {
    let state = CpuState::of(topology)?;
    let (n, zoneless) = counts(ready);
    let known = nearest.lock().ok().and_then(|m| m.get(&(n, zoneless)).copied());
    let points = known.unwrap_or_else(|| {
        let points = share::nearest_points(&shares_within_limits(&state, n, zoneless));
        if let Ok(mut m) = nearest.lock() {
            m.insert((n, zoneless), points);
        }
        points
    });
    Some(summary(&state, ready, points))
}

/// Ready endpoints, and how many of them have no zone.
fn counts(ready: &BTreeMap<String, i64>) -> (i64, i64) {
    (ready.values().sum(), ready.get("").copied().unwrap_or(0))
}

/// Every counted zone's share margin, or none beyond [`MARGIN_ENDPOINT_LIMIT`] or
/// [`MARGIN_ZONE_LIMIT`].
fn shares_within_limits(
    state: &CpuState,
    n: i64,
    zoneless: i64,
) -> Vec<crate::report::stability::ShareMargin> {
    match n <= MARGIN_ENDPOINT_LIMIT && state.zones.len() <= MARGIN_ZONE_LIMIT {
        true => share::share_margins(state, n, zoneless),
        false => Vec::new(),
    }
}

/// The margin without per-zone shares or Node flips: whether it holds, the endpoint flips, the
/// nearest share move given, and whether that makes it fragile.
fn summary(state: &CpuState, ready: &BTreeMap<String, i64>, nearest_share_points: Option<f64>) -> Margin {
    let (n, zoneless) = counts(ready);
    let endpoints = endpoints::endpoint_flips(state, ready);
    let fragile = nearest_share_points.is_some_and(|p| p < FRAGILE_SHARE_POINTS)
        || endpoints.iter().any(|e| e.add_flips || e.remove_flips == Some(true));
    Margin {
        holds: state.holds(n, zoneless),
        ready_endpoints: n,
        shares: Vec::new(),
        nodes: Vec::new(),
        nodes_examined: 0,
        endpoints,
        nearest_share_points,
        fragile,
    }
}

/// `simulate --replicas MIN..MAX` for `service`: the certificate over the zones with counted Nodes
/// (Ready, not control-plane: where pods can be scheduled, as far as the Nodes tell), on today's
/// zone CPU. With nil ratios (docs/behaviour.md#nodes-and-zone-cpu-ratios) hints hold at no count.
pub fn service_certificate(
    snapshot: &crate::model::Snapshot,
    service: &crate::model::Service,
    behaviour: crate::model::Behaviour,
    scaling: (i64, i64, Option<crate::report::stability::SpreadRule>),
) -> crate::report::stability::CertificateReport {
    let topology = crate::core::zones::set_nodes(&snapshot.nodes);
    let zones: Vec<String> = topology.counted_zones().map(|(z, _)| z.clone()).collect();
    let state = CpuState::of(&topology).unwrap_or(CpuState { zones: BTreeMap::new(), total: 0 });
    let (min, max, spread) = scaling;
    let input = Scaling { min, max, spread, zones };
    crate::report::stability::CertificateReport {
        service: crate::report::ServiceRef {
            namespace: service.namespace.clone(),
            name: service.name.clone(),
        },
        kubernetes_version: behaviour.to_string(),
        mode: crate::core::mode::select_mode(service, behaviour).mode,
        certificate: certificate(&input, &state),
    }
}

/// `explain`'s certificates of one Service (`report` its report, `found` the workloads behind it):
/// None off the Auto path, where no family has a margin (trafficDistribution hints do not depend on
/// the count) and the Stability section shows none.
pub fn explain_certificates(
    snapshot: &crate::model::Snapshot,
    report: &crate::report::ServiceReport,
    found: &crate::report::workloads::WorkloadsReport,
) -> Option<crate::report::stability::WorkloadCertificates> {
    let auto = report.families.iter().any(|f| f.stability.is_some());
    auto.then(|| workload_certificates(&crate::core::zones::set_nodes(&snapshot.nodes), found))
}

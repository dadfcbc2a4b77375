//! What the exporter keeps of a report, per Service and for the zones: the summary its metrics
//! show, with the findings an ignore rule sets aside marked as `check` marks them. Pure.

use topo_engine::report::dataplane::PathKind;
use topo_engine::report::mode::Mode;
use topo_engine::report::reason::ReasonCode;
use topo_engine::report::{FamilyReport, ServiceReport, Verdict, ZoneReport};

use super::policy::{PerZone, Policy};
use crate::triage::AnnotationRule;

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

pub(super) fn zone_summary(report: &ZoneReport) -> ZoneSummary {
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

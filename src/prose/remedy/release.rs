//! Remedies that depend on the release modelled (docs/behaviour.md#remedies-per-release): which
//! annotation key the controller reads, which `spec.trafficDistribution` values the API server
//! takes and behind which feature gate, and which release bugs make a sync not enough. Without a
//! release (a bare reason, as `-o sarif`'s rule help) the words cover every release.

use topo_engine::model::version::TrafficDistributionValues as Values;
use topo_engine::model::{ANNOTATION_TOPOLOGY_AWARE_HINTS, ANNOTATION_TOPOLOGY_MODE, Behaviour};
use topo_engine::report::reason::Facts;

/// What a change to the Service does: the least disruptive action.
const TOUCH: &str = "Changing the Service syncs it and restarts nothing.";
const GATE_COMPONENTS: &str = "kube-apiserver, kube-controller-manager and kube-proxy";

/// `NotEnabled`: how to ask for hints with the knobs that exist in `release`.
pub(super) fn enable(release: Option<Behaviour>) -> String {
    let Some(b) = release else {
        return format!(
            "To enable, annotate the Service {ANNOTATION_TOPOLOGY_MODE}=Auto ({ANNOTATION_TOPOLOGY_AWARE_HINTS} \
             before 1.27), or set spec.trafficDistribution (PreferClose from 1.30, PreferSameZone from 1.34). {TOUCH}"
        );
    };
    if !b.topology_aware_hints_gate() {
        return format!(
            "To enable, turn on the TopologyAwareHints feature gate on {GATE_COMPONENTS} (off by default before \
             1.24) and annotate the Service {ANNOTATION_TOPOLOGY_AWARE_HINTS}=Auto, or upgrade to 1.24 or later."
        );
    }
    let key = annotation_key(b);
    let field = match b.traffic_distribution_values() {
        Values::NoField => " (spec.trafficDistribution does not exist before 1.30)".to_string(),
        Values::BehindGate => format!(
            "; spec.trafficDistribution: PreferClose also needs the ServiceTrafficDistribution feature gate \
             (alpha, off in 1.30) on {GATE_COMPONENTS}"
        ),
        Values::PreferCloseOnly => ", or set spec.trafficDistribution: PreferClose".to_string(),
        Values::PreferCloseSameBehindGate => format!(
            ", or set spec.trafficDistribution: PreferClose (PreferSameZone and PreferSameNode need the \
             PreferSameTrafficDistribution feature gate, alpha and off in 1.33, on {GATE_COMPONENTS})"
        ),
        Values::All => {
            ", or set spec.trafficDistribution: PreferSameZone (PreferClose means the same)".to_string()
        }
        Values::AllPreferCloseDeprecated => {
            ", or set spec.trafficDistribution: PreferSameZone (PreferClose is its deprecated alias)"
                .to_string()
        }
    };
    format!("To enable, annotate the Service {key}=Auto{field}. {TOUCH}")
}

/// `AnnotationValueIgnored`: before 1.27 a `topology-mode` annotation is not read at all.
pub(super) fn annotation_value_ignored(f: &Facts) -> String {
    match f.release {
        Some(b)
            if f.key.as_deref() == Some(ANNOTATION_TOPOLOGY_MODE) && !b.reads_topology_mode_annotation() =>
        {
            format!(
                "This release reads only {ANNOTATION_TOPOLOGY_AWARE_HINTS} ({ANNOTATION_TOPOLOGY_MODE} is read from \
                 1.27): annotate the Service {ANNOTATION_TOPOLOGY_AWARE_HINTS}=Auto. {TOUCH}"
            )
        }
        _ => "Use exactly \"Auto\" as the annotation value.".to_string(),
    }
}

/// `TrafficDistributionUnsupported`: a value this release takes, or the gate it needs.
pub(super) fn traffic_distribution_unsupported(f: &Facts) -> String {
    let Some(b) = f.release else {
        return "Use a trafficDistribution value this version supports (PreferClose from 1.31, PreferSameZone \
                from 1.34), or upgrade."
            .to_string();
    };
    let same = matches!(f.value.as_deref(), Some("PreferSameZone" | "PreferSameNode"));
    match b.traffic_distribution_values() {
        Values::NoField => format!(
            "spec.trafficDistribution does not exist before 1.30 (the API server drops it): annotate the Service \
             {}=Auto instead, or upgrade to 1.31 or later.",
            annotation_key(b)
        ),
        Values::BehindGate => format!(
            "Turn on the ServiceTrafficDistribution feature gate (alpha, off in 1.30) on {GATE_COMPONENTS} and use \
             PreferClose, or annotate the Service {ANNOTATION_TOPOLOGY_MODE}=Auto, or upgrade to 1.31 or later."
        ),
        Values::PreferCloseOnly => {
            "Use spec.trafficDistribution: PreferClose, the only value this release acts \
                                    on (PreferSameZone and PreferSameNode came later), or upgrade."
                .to_string()
        }
        Values::PreferCloseSameBehindGate if same => format!(
            "Use PreferClose (the same as PreferSameZone), or turn on the PreferSameTrafficDistribution feature \
             gate (alpha, off in 1.33) on {GATE_COMPONENTS}, or upgrade to 1.34 or later."
        ),
        Values::PreferCloseSameBehindGate => "Use spec.trafficDistribution: PreferClose.".to_string(),
        Values::All | Values::AllPreferCloseDeprecated => {
            "Use spec.trafficDistribution: PreferSameZone or PreferSameNode.".to_string()
        }
    }
}

/// `TopologyGateOff` (1.21–1.23): the annotation is there; the gate is what is missing.
pub(super) fn topology_gate_off(release: Option<Behaviour>) -> String {
    let upgrade = release.map_or(String::new(), |b| format!(" ({b} has it off by default)"));
    format!(
        "Turn on the TopologyAwareHints feature gate on {GATE_COMPONENTS}{upgrade}, or upgrade to 1.24 or later, \
         where it is on; the annotation is already in place."
    )
}

/// `NodeZoneNotSeen` (kubernetes/kubernetes#117245): the controller's node cache is stale.
pub(super) fn node_zone_not_seen(release: Option<Behaviour>) -> String {
    let fix = release.map_or_else(
        || "1.25.13, 1.26.8, 1.27.5 or 1.28".to_string(),
        |b| b.node_zone_update_fix().to_string(),
    );
    format!(
        "Restart kube-controller-manager (it re-reads the Nodes and syncs every Service), or add or delete a \
         Node or change one's readiness and then change the Service to sync it; a sync alone does not help on \
         this release. Upgrade to {fix} or later so that it does not recur."
    )
}

/// `HintsMissing`, `HintsInvalid`, `HintsUnexpected`: a sync of the Service, the least disruptive
/// way first. On a release with kubernetes/kubernetes#117245 (the `release` fact is set only
/// there), what to do when a sync does not help.
pub(super) fn hints_missing(release: Option<Behaviour>) -> String {
    let sync = "Trigger a sync of the Service: any change to it does and restarts nothing (e.g. `kubectl annotate \
                service NAME kubectl-topo/sync=NOW --overwrite`); so does a change to its pods, but `kubectl \
                rollout restart` restarts them. Node changes alone do not.";
    match release {
        Some(b) if b.ignores_node_zone_updates() => format!(
            "{sync} If hints are still missing: on {b} the controller does not see a zone label added to an \
             existing Node (kubernetes/kubernetes#117245, fixed in {}); restart kube-controller-manager.",
            b.node_zone_update_fix()
        ),
        _ => sync.to_string(),
    }
}

/// The annotation key the controller reads at `b`.
fn annotation_key(b: Behaviour) -> &'static str {
    if b.reads_topology_mode_annotation() {
        ANNOTATION_TOPOLOGY_MODE
    } else {
        ANNOTATION_TOPOLOGY_AWARE_HINTS
    }
}

#[cfg(test)]
mod tests;

//! The one thing to do about a family, chosen by its most important reason (one arm per code, no
//! fallback). A remedy names only the knobs of the release modelled (the reason's `release` fact,
//! docs/behaviour.md#remedies-per-release) and prefers what restarts nothing.

mod release;

use topo_engine::report::reason::{Facts, Reason, ReasonCode as C};

use super::list;
use release::{
    annotation_value_ignored, enable, hints_missing, node_zone_not_seen, topology_gate_off,
    traffic_distribution_unsupported,
};

const NOTHING_TO_DO: &str = "Nothing to do: hints are in place.";
const REMOVE_DEPRECATED: &str =
    "Remove the deprecated service.kubernetes.io/topology-aware-hints annotation.";
const NOT_THE_CONTROLLER: &str =
    "Nothing the EndpointSlice controller can do: whoever writes these slices owns their hints.";
const BIND_READER: &str = "Bind the ClusterRole kubectl-topo-reader (deploy/rbac.yaml): `list nodes` at cluster \
     scope gives the zone weights; from a dump, dump the Nodes too (`kubectl get nodes,services,endpointslices,events \
     -A -o yaml`).";
const READ_SLICES: &str = "Read the EndpointSlices too: dump with `kubectl get nodes,services,endpointslices,events -A \
     -o yaml` (`kubectl get all` lists none).";
const TWO_ZONES: &str = "Auto hints need Ready worker nodes in at least two zones.";
const SCALE: &str = "Scale to a count where hints hold (see Replicas below), or spread the pods in proportion to \
     zone CPU.";
const LABEL_ENDPOINT_NODES: &str = "Give every endpoint's node a topology.kubernetes.io/zone label.";
const SPREAD: &str = "Spread the pods in proportion to zone CPU so the controller's allocation is stable.";
const SEE_REASONS: &str = "See the reasons below.";

/// The remedy of a family, shown by `explain`: a family with nothing to do whose hints a data-plane
/// path ignores (a note of the Service) gets that path's remedy, not "nothing to do".
pub(crate) fn family_remedy(first: Option<&Reason>, notes: &[Reason]) -> String {
    let ignoring = |r: &&Reason| super::dataplane::ignores_hints(r.code);
    match (first, notes.iter().find(ignoring)) {
        (None, Some(note)) => remedy(Some(note)),
        (first, _) => remedy(first),
    }
}

/// The one thing to do about a family whose most important reason is `reason` (None = nothing to do).
pub(crate) fn remedy(reason: Option<&Reason>) -> String {
    let Some(reason) = reason else {
        return NOTHING_TO_DO.into();
    };
    let f = &reason.facts;
    match reason.code {
        C::KubeProxyAppliesHints
        | C::CiliumIgnoresHints
        | C::KubeProxyIgnoresHints
        | C::CiliumSocketLbAppliesHints
        | C::CiliumSocketLbIgnoresHints
        | C::CiliumVersionIgnoresValue
        | C::CiliumVersionUnknown
        | C::DataPlaneUnknown
        | C::OvnKubernetesIgnoresHints
        | super::front_door_codes!() => {
            super::dataplane::remedy(reason).unwrap_or_else(|| SEE_REASONS.into())
        }
        C::NotEnabled => enable(f.release),
        C::AnnotationValueIgnored => annotation_value_ignored(f),
        C::DeprecatedAnnotationWins => REMOVE_DEPRECATED.into(),
        C::TrafficDistributionUnsupported => traffic_distribution_unsupported(f),
        C::TopologyGateOff => topology_gate_off(f.release),
        C::NodeZoneNotSeen => node_zone_not_seen(f.release),
        C::NoSelector | C::ExternalName | C::NoManagedSlices => NOT_THE_CONTROLLER.into(),
        C::NodesUnknown => BIND_READER.into(),
        C::SlicesUnknown => READ_SLICES.into(),
        C::NodeMissingZone => format!("Label node(s) {} with topology.kubernetes.io/zone.", list(&f.nodes)),
        C::NodeMissingCPU => format!("Fix node(s) {}: they report no allocatable CPU.", list(&f.nodes)),
        C::SingleZone => TWO_ZONES.into(),
        C::InsufficientEndpoints => insufficient_endpoints(f),
        C::OverloadThreshold => SCALE.into(),
        C::EndpointMissingZone => LABEL_ENDPOINT_NODES.into(),
        C::HintsMissing | C::HintsInvalid | C::HintsUnexpected => hints_missing(f.release),
        C::RewrittenEverySync | C::Overloaded => SPREAD.into(),
        C::AnnotationOverridesTrafficDistribution
        | C::TrafficPolicyLocal
        | C::HeadlessService
        | C::WindowsNodes
        | C::KubeProxyVersionSkew
        | C::CiliumAppliesHints
        | C::NoHintsAllocated
        | C::ProxyMissingZoneHint
        | C::ProxyZoneNotHinted
        | C::ProxyNodeMissingZone
        | C::ProxyMissingNodeHint
        | C::ProxyNodeNotHinted
        | C::ProxyNoReadyEndpoints
        | C::ProxyTopologyNotUsed
        | C::ProxyWindowsIgnoresHints => SEE_REASONS.into(),
    }
}

fn insufficient_endpoints(f: &Facts) -> String {
    format!("Run at least {} ready endpoints (one per zone).", f.zones.unwrap_or(0))
}

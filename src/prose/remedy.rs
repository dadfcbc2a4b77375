//! The one thing to do about a family, chosen by its most important reason (one arm per code, no
//! fallback).

use topo_engine::report::reason::{Facts, Reason, ReasonCode as C};

use super::list;

const NOTHING_TO_DO: &str = "Nothing to do: hints are in place.";
const ENABLE: &str = "To enable, annotate the Service service.kubernetes.io/topology-mode=Auto or set \
     spec.trafficDistribution: PreferSameZone.";
const USE_AUTO: &str = "Use exactly \"Auto\" as the annotation value.";
const REMOVE_DEPRECATED: &str =
    "Remove the deprecated service.kubernetes.io/topology-aware-hints annotation.";
const SUPPORTED_VALUE: &str =
    "Use a trafficDistribution value this version supports (PreferClose), or upgrade.";
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
const TRIGGER_SYNC: &str = "Trigger a sync of the Service (any change to its pods or the Service, e.g. `kubectl \
     rollout restart`); Node changes alone do not.";
const SPREAD: &str = "Spread the pods in proportion to zone CPU so the controller's allocation is stable.";
const SEE_REASONS: &str = "See the reasons below.";

/// The one thing to do about a family whose most important reason is `reason` (None = nothing to do).
pub fn remedy(reason: Option<&Reason>) -> String {
    let Some(reason) = reason else {
        return NOTHING_TO_DO.into();
    };
    let f = &reason.facts;
    match reason.code {
        C::KubeProxyAppliesHints
        | C::KubeProxyIgnoresHints
        | C::CiliumSocketLbAppliesHints
        | C::CiliumSocketLbIgnoresHints
        | C::CiliumVersionIgnoresValue
        | C::CiliumVersionUnknown
        | C::DataPlaneUnknown => super::dataplane::remedy(reason).unwrap_or_else(|| SEE_REASONS.into()),
        C::NotEnabled => ENABLE.into(),
        C::AnnotationValueIgnored => USE_AUTO.into(),
        C::DeprecatedAnnotationWins => REMOVE_DEPRECATED.into(),
        C::TrafficDistributionUnsupported => SUPPORTED_VALUE.into(),
        C::NoSelector | C::ExternalName | C::NoManagedSlices => NOT_THE_CONTROLLER.into(),
        C::NodesUnknown => BIND_READER.into(),
        C::SlicesUnknown => READ_SLICES.into(),
        C::NodeMissingZone => format!("Label node(s) {} with topology.kubernetes.io/zone.", list(&f.nodes)),
        C::NodeMissingCPU => format!("Fix node(s) {}: they report no allocatable CPU.", list(&f.nodes)),
        C::SingleZone => TWO_ZONES.into(),
        C::InsufficientEndpoints => insufficient_endpoints(f),
        C::OverloadThreshold => SCALE.into(),
        C::EndpointMissingZone => LABEL_ENDPOINT_NODES.into(),
        C::HintsMissing | C::HintsInvalid | C::HintsUnexpected => TRIGGER_SYNC.into(),
        C::RewrittenEverySync | C::Overloaded => SPREAD.into(),
        C::AnnotationOverridesTrafficDistribution
        | C::TopologyGateOff
        | C::TrafficPolicyLocal
        | C::HeadlessService
        | C::WindowsNodes
        | C::KubeProxyVersionSkew
        | C::CiliumIgnoresHints
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

//! One sentence per reason code, with its numbers.

use topo_engine::report::reason::{Facts, Reason, ReasonCode as C};

use super::{list, quoted};

/// One sentence explaining the reason with its numbers: one arm per code, no fallback, so a new
/// code does not compile until it has its sentence.
pub fn sentence(reason: &Reason) -> String {
    match reason.code {
        C::NotEnabled => NOT_ENABLED.into(),
        C::AnnotationValueIgnored => annotation_value_ignored(&reason.facts),
        C::DeprecatedAnnotationWins => deprecated_annotation_wins(&reason.facts),
        C::AnnotationOverridesTrafficDistribution => annotation_overrides_traffic_distribution(&reason.facts),
        C::TrafficDistributionUnsupported => traffic_distribution_unsupported(&reason.facts),
        C::TopologyGateOff => TOPOLOGY_GATE_OFF.into(),
        C::NoSelector => NO_SELECTOR.into(),
        C::ExternalName => EXTERNAL_NAME.into(),
        C::NoManagedSlices => NO_MANAGED_SLICES.into(),
        C::TrafficPolicyLocal => traffic_policy_local(&reason.facts),
        C::HeadlessService => HEADLESS_SERVICE.into(),
        C::WindowsNodes => windows_nodes(&reason.facts),
        C::KubeProxyVersionSkew => kube_proxy_version_skew(&reason.facts),
        C::CiliumIgnoresHints => cilium_ignores_hints(&reason.facts),
        C::CiliumAppliesHints => cilium_applies_hints(&reason.facts),
        C::NodesUnknown => NODES_UNKNOWN.into(),
        C::SlicesUnknown => SLICES_UNKNOWN.into(),
        C::NodeMissingZone => node_missing_zone(&reason.facts),
        C::NodeMissingCPU => node_missing_cpu(&reason.facts),
        C::SingleZone => single_zone(&reason.facts),
        C::InsufficientEndpoints => insufficient_endpoints(&reason.facts),
        C::OverloadThreshold => overload_threshold(&reason.facts),
        C::EndpointMissingZone => endpoint_missing_zone(&reason.facts),
        C::NoHintsAllocated => NO_HINTS_ALLOCATED.into(),
        C::HintsMissing => hints_missing(&reason.facts),
        C::HintsUnexpected => hints_unexpected(&reason.facts),
        C::HintsInvalid => hints_invalid(&reason.facts),
        C::RewrittenEverySync => rewritten_every_sync(&reason.facts),
        C::Overloaded => overloaded(&reason.facts),
        C::ProxyMissingZoneHint => PROXY_MISSING_ZONE_HINT.into(),
        C::ProxyZoneNotHinted => proxy_zone_not_hinted(&reason.facts),
        C::ProxyNodeMissingZone => PROXY_NODE_MISSING_ZONE.into(),
        C::ProxyMissingNodeHint => PROXY_MISSING_NODE_HINT.into(),
        C::ProxyNodeNotHinted => PROXY_NODE_NOT_HINTED.into(),
        C::ProxyNoReadyEndpoints => PROXY_NO_READY_ENDPOINTS.into(),
        C::ProxyTopologyNotUsed => PROXY_TOPOLOGY_NOT_USED.into(),
        C::ProxyWindowsIgnoresHints => PROXY_WINDOWS_IGNORES_HINTS.into(),
        C::KubeProxyAppliesHints
        | C::KubeProxyIgnoresHints
        | C::CiliumSocketLbAppliesHints
        | C::CiliumSocketLbIgnoresHints
        | C::CiliumVersionIgnoresValue
        | C::CiliumVersionUnknown
        | C::DataPlaneUnknown
        | C::OvnKubernetesIgnoresHints
        | super::front_door_codes!() => super::dataplane::sentence(reason).unwrap_or_default(),
        C::NodeZoneNotSeen => node_zone_not_seen(&reason.facts),
    }
}

fn node_zone_not_seen(f: &Facts) -> String {
    let (release, fix) = match f.release {
        Some(b) => (b.to_string(), b.node_zone_update_fix().to_string()),
        None => ("this release".to_string(), "1.25.13, 1.26.8, 1.27.5 and 1.28".to_string()),
    };
    format!(
        "The controller's newest topology Event says \"Insufficient Node information\", yet every counted Node has \
         a zone: on {release} the controller does not see a zone label added to a Node after it joined \
         (kubernetes/kubernetes#117245, fixed in {fix}), so its node cache still lacks that zone."
    )
}

const NOT_ENABLED: &str = "Neither the topology-mode annotation nor spec.trafficDistribution enables hints; \
             the controller removes any hints from the slices.";

fn annotation_value_ignored(f: &Facts) -> String {
    format!(
        "Annotation {} is {} — only \"Auto\" or \"auto\" (exact case) enable hints.",
        f.key.as_deref().unwrap_or("?"),
        quoted(&f.value)
    )
}

fn deprecated_annotation_wins(f: &Facts) -> String {
    format!(
        "The deprecated annotation service.kubernetes.io/topology-aware-hints is present ({}), so it decides \
         and service.kubernetes.io/topology-mode is not read.",
        quoted(&f.value)
    )
}

fn annotation_overrides_traffic_distribution(f: &Facts) -> String {
    format!(
        "The annotation enables Auto hints, so spec.trafficDistribution {} is ignored by the controller.",
        quoted(&f.value)
    )
}

fn traffic_distribution_unsupported(f: &Facts) -> String {
    format!(
        "spec.trafficDistribution {} is not acted on by this controller version (or its feature gate is off); \
         hints are removed.",
        quoted(&f.value)
    )
}

const TOPOLOGY_GATE_OFF: &str = "The TopologyAwareHints feature gate is off by default at this version: the \
             controller writes no hints and removes existing ones.";

const NO_SELECTOR: &str = "The Service has no selector: the EndpointSlice controller does not manage its \
             slices, so it never writes hints for it.";

const EXTERNAL_NAME: &str = "ExternalName Services have no endpoints: there is nothing to hint.";

const NO_MANAGED_SLICES: &str = "No EndpointSlice managed by endpointslice-controller.k8s.io exists for this \
             Service and address family.";

fn traffic_policy_local(f: &Facts) -> String {
    format!(
        "{} is Local: kube-proxy sends that traffic only to endpoints on the same node and ignores hints.",
        f.key.as_deref().unwrap_or("traffic policy")
    )
}

const HEADLESS_SERVICE: &str = "The Service is headless (no ClusterIP): kube-proxy does not proxy it, so \
             hints change no routing; clients connect to the pod addresses from DNS directly.";

fn windows_nodes(f: &Facts) -> String {
    format!(
        "Node(s) {} run Windows: their kube-proxy ignores topology hints and routes to all endpoints.",
        list(&f.nodes)
    )
}

fn kube_proxy_version_skew(f: &Facts) -> String {
    let versions = match (&f.value, &f.key) {
        (Some(oldest), Some(control_plane)) => format!(" (oldest {oldest}, control plane {control_plane})"),
        _ => String::new(),
    };
    format!(
        "Node(s) {} run an older kube-proxy than the control plane{versions} (its DaemonSet's image when \
         read, else their kubelet's version): their kube-proxy is modelled at its own version, and the \
         per-zone rows say which.",
        list(&f.nodes)
    )
}

fn cilium_ignores_hints(f: &Facts) -> String {
    format!(
        "Cilium replaces kube-proxy (kube-proxy-replacement: {}) and its enable-service-topology is {}: \
         Cilium's load balancer ignores topology hints and spreads traffic over every endpoint, whatever \
         the controller writes.",
        quoted(&f.value),
        quoted(&f.key)
    )
}

fn cilium_applies_hints(f: &Facts) -> String {
    format!(
        "Cilium replaces kube-proxy (kube-proxy-replacement: {}) with enable-service-topology on: Cilium, \
         not kube-proxy, applies the hints; the kube-proxy view below is what it is expected to route.",
        quoted(&f.value)
    )
}

const NODES_UNKNOWN: &str = "Nodes could not be read, so zone weights are unknown and the Auto allocation \
             could not be recomputed.";

const SLICES_UNKNOWN: &str = "The input holds no EndpointSlice at all, so this Service's slices and their hints \
             are unknown: whether anyone manages them, and what they say, could not be read.";

fn node_missing_zone(f: &Facts) -> String {
    format!(
        "Ready worker node(s) {} have no topology.kubernetes.io/zone label: the controller drops all zone \
         weights, which disables hints for every Service in the cluster. Label the node(s) or mark them \
         control-plane.",
        list(&f.nodes)
    )
}

fn node_missing_cpu(f: &Facts) -> String {
    format!(
        "Ready worker node(s) {} report no allocatable CPU: the controller drops all zone weights, which \
         disables hints for every Service in the cluster.",
        list(&f.nodes)
    )
}

fn single_zone(f: &Facts) -> String {
    let z = f.zones.unwrap_or(0);
    format!(
        "Only {z} zone(s) have Ready worker nodes with CPU; hints need at least 2 (the controller's \
         Event text for this case says \"Insufficient Node information\")."
    )
}

fn insufficient_endpoints(f: &Facts) -> String {
    let n = f.endpoints.unwrap_or(0);
    let z = f.zones.unwrap_or(0);
    format!("{n} ready endpoint(s) for {z} zones: the controller needs at least one endpoint per zone.")
}

fn overload_threshold(f: &Facts) -> String {
    let n = f.endpoints.unwrap_or(0);
    let z = f.zones.unwrap_or(0);
    format!(
        "{n} ready endpoints cannot be spread over {z} zones within the 20 % overload threshold: the zones' \
         minimums add up to {} > {n}{}. Scale so every zone can get its minimum.",
        f.minimum_total.unwrap_or(0),
        f.overload_percent.map(|p| format!(" (expected overload {p:.0} %)")).unwrap_or_default()
    )
}

fn endpoint_missing_zone(f: &Facts) -> String {
    format!(
        "Ready endpoint(s) {} have no zone: the controller removes all hints for this address family.",
        list(&f.addresses)
    )
}

const NO_HINTS_ALLOCATED: &str = "No hints were allocated for any zone; hints are removed.";

fn hints_missing(f: &Facts) -> String {
    format!(
        "The controller would write hints but slice(s) {} carry none. It only re-adds them on the \
         Service's next sync — triggered by an endpoint or Service change (e.g. a rollout or scaling), \
         not by Node changes (kubernetes/kubernetes#123401).",
        list(&f.slices)
    )
}

fn hints_unexpected(f: &Facts) -> String {
    format!("Slice(s) {} carry hints the controller would remove on its next sync.", list(&f.slices))
}

fn hints_invalid(f: &Facts) -> String {
    format!(
        "Slice(s) {} carry hints other than what the controller would keep or write; it rewrites them on \
         its next sync of the Service.",
        list(&f.slices)
    )
}

fn rewritten_every_sync(f: &Facts) -> String {
    format!(
        "The controller's own hints for slice(s) {} fail its keep-check (a zone outside its weights, or \
         outside its min/max), so it rewrites them identically on every sync.",
        list(&f.slices)
    )
}

fn overloaded(f: &Facts) -> String {
    format!(
        "With today's zone weights the hinted counts are overloaded{}: the controller requeues the Service \
         at the next Node add/delete/readiness/zone change.",
        f.zone.as_ref().map(|z| format!(" in zone {z}")).unwrap_or_default()
    )
}

const PROXY_MISSING_ZONE_HINT: &str = "An endpoint has no zone hint: kube-proxy ignores hints and uses all \
             ready endpoints.";

fn proxy_zone_not_hinted(f: &Facts) -> String {
    let zone = quoted(&f.zone);
    format!("No endpoint is hinted for zone {zone}: kube-proxy there uses all ready endpoints.")
}

const PROXY_NODE_MISSING_ZONE: &str = "The node has no topology.kubernetes.io/zone label: kube-proxy there \
             ignores zone hints and uses all ready endpoints.";

const PROXY_MISSING_NODE_HINT: &str = "An endpoint has no node hint: kube-proxy ignores node hints.";

const PROXY_NODE_NOT_HINTED: &str =
    "No endpoint is hinted for this node: kube-proxy falls back to zone hints.";

const PROXY_NO_READY_ENDPOINTS: &str = "No ready endpoints: kube-proxy uses serving+terminating endpoints, \
             ignoring hints, or drops the traffic.";

const PROXY_TOPOLOGY_NOT_USED: &str = "This kube-proxy version does not consider hints for this Service \
             (feature gate or annotation rules of the version).";

const PROXY_WINDOWS_IGNORES_HINTS: &str = "Windows kube-proxy ignores topology hints.";

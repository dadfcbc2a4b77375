//! Reason codes: the stable, documented vocabulary of every verdict and kube-proxy fallback.
//! Codes and their numbers are data; the words for them are the caller's (kubectl-topo's `prose`).
//! Every name a user sees (`Display`, JSON/YAML) comes from the variant's one declaration.

use serde::Serialize;

/// Why a Service family has the verdict it has, or why kube-proxy ignores hints.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(into = "&'static str")]
pub enum ReasonCode {
    // --- mode selection (docs/behaviour.md#mode-selection)
    /// Neither an enabling annotation nor a usable trafficDistribution.
    NotEnabled,
    /// An annotation is present with a value other than `Auto`/`auto`.
    AnnotationValueIgnored,
    /// The deprecated `topology-aware-hints` key is present and shadows `topology-mode`.
    DeprecatedAnnotationWins,
    /// The annotation enables hints, so `spec.trafficDistribution` is ignored.
    AnnotationOverridesTrafficDistribution,
    /// `spec.trafficDistribution` has a value this version's controller does not act on.
    TrafficDistributionUnsupported,
    /// The TopologyAwareHints gate is off at this version (≤1.23): the controller has no cache.
    TopologyGateOff,
    // --- Services the controller does not reconcile (docs/behaviour.md#reconciled-services-and-slices)
    /// `spec.selector` is absent: the controller writes no slices for this Service.
    NoSelector,
    /// `type: ExternalName`: the controller writes no slices for this Service.
    ExternalName,
    /// No controller-managed slices exist for this Service/family.
    NoManagedSlices,
    // --- data-plane constraints (docs/behaviour.md#traffic-policies-and-fallback)
    /// iTP/eTP `Local`: kube-proxy uses node-local endpoints and ignores hints for that traffic.
    TrafficPolicyLocal,
    /// No ClusterIP (headless): kube-proxy does not proxy the Service, so hints change no routing.
    HeadlessService,
    /// Some nodes run Windows: their kube-proxy ignores hints (k/k #123823, #137953).
    WindowsNodes,
    /// Some nodes' kubelets (standing for their kube-proxy) run an older version than the control
    /// plane: kube-proxy there is modelled at that version (docs/behaviour.md#skewed-clusters).
    /// Facts: `nodes` (those nodes), `value` (the oldest such version), `key` (the control plane's).
    KubeProxyVersionSkew,
    /// Cilium replaces kube-proxy and its service topology is off: hints change no routing.
    CiliumIgnoresHints,
    /// Cilium replaces kube-proxy with service topology on: Cilium, not kube-proxy, applies hints.
    CiliumAppliesHints,
    // --- safeguards (`SetNodes`, `getAllocations`, `AddHints`)
    /// Node information unavailable (Nodes could not be read).
    NodesUnknown,
    /// A counted node has no zone label: ratios are nil cluster-wide.
    NodeMissingZone,
    /// A counted node has zero/absent allocatable CPU: ratios are nil cluster-wide.
    NodeMissingCPU,
    /// Fewer than two zones (or zero total CPU) among counted nodes.
    SingleZone,
    /// More zones than ready endpoints.
    InsufficientEndpoints,
    /// Σ minimums exceeds the endpoint count (20 % overload threshold).
    OverloadThreshold,
    /// A ready endpoint being written has no zone.
    EndpointMissingZone,
    /// No hints allocated for zones (practically unreachable upstream).
    NoHintsAllocated,
    // --- diff (docs/behaviour.md#steady-state-and-ties)
    /// The controller would write hints but the slices carry none.
    HintsMissing,
    /// The slices carry hints the controller would remove.
    HintsUnexpected,
    /// The slices carry hints other than what the controller would keep or write.
    HintsInvalid,
    /// The controller's own output fails its keep-check: it rewrites the slice on every sync (W7, W9, W10).
    RewrittenEverySync,
    /// The overload recheck (`serviceOverloaded`) finds the live hint counts overloaded for today's zones.
    Overloaded,
    // --- kube-proxy (`topologyModeFromHints`, `canUseTopology`)
    /// Some ready endpoint has no zone hint → all endpoints.
    ProxyMissingZoneHint,
    /// No endpoint is hinted for this zone → all endpoints.
    ProxyZoneNotHinted,
    /// The node has no zone label → all endpoints.
    ProxyNodeMissingZone,
    /// Some ready endpoint has no node hint → node hints ignored.
    ProxyMissingNodeHint,
    /// No endpoint is hinted for this node → node hints ignored.
    ProxyNodeNotHinted,
    /// No ready endpoints: serving+terminating fallback or nothing.
    ProxyNoReadyEndpoints,
    /// This kube-proxy version does not consider hints for this Service (gate/annotation rules, docs/behaviour.md#proxy-eras).
    ProxyTopologyNotUsed,
    /// Windows kube-proxy ignores hints (docs/behaviour.md#windows).
    ProxyWindowsIgnoresHints,
    // --- incomplete input (last, so that the rule indexes of `-o sarif` stay as they were)
    /// EndpointSlices unavailable (the input holds none, yet Services select Pods): the Service's
    /// slices, and so its hints, are unknown.
    SlicesUnknown,
    // --- data-plane paths (docs/behaviour.md#data-plane; after the others, for `-o sarif`'s indexes)
    /// kube-proxy at its version reads the hints the controller writes for this Service.
    /// Facts: `value` (kube-proxy's version).
    KubeProxyAppliesHints,
    /// kube-proxy at its version ignores hints: the TopologyAwareHints gate is off before 1.24
    /// (a kube-proxy add-on older than the kubelets, as on EKS). Facts: `value` (its version).
    KubeProxyIgnoresHints,
    /// Cilium's socket load balancing beside kube-proxy, with service topology on: Cilium applies
    /// hints to pods' ClusterIP traffic. Facts: `value` (kube-proxy-replacement), `key` (service topology).
    CiliumSocketLbAppliesHints,
    /// Cilium's socket load balancing beside kube-proxy, service topology off: pods' ClusterIP
    /// traffic goes to every endpoint, whatever kube-proxy's rules say. Facts as above.
    CiliumSocketLbIgnoresHints,
    /// Cilium's version does not read the key or value that asks for topology on this Service.
    /// Facts: `key` (the annotation or field), `value` (its value), `zone` unused, `slices` unused;
    /// `nodes` unused; the Cilium version is the path's.
    CiliumVersionIgnoresValue,
    /// Cilium applies topology, but its version (which decides the keys it reads) is unknown.
    /// Facts: `key`, `value` as above.
    CiliumVersionUnknown,
    /// The data plane could not be seen: whether Cilium balances the Service is unknown.
    /// Facts: `value` (the read status of cilium-config), `key` (the read status of
    /// OVN-Kubernetes' DaemonSet ovnkube-node, when that is unknown too).
    DataPlaneUnknown,
    /// OVN-Kubernetes balances Services in place of kube-proxy, and its load balancers take every
    /// endpoint of the EndpointSlices: the hints change no routing (ovn-kubernetes
    /// `go-controller/pkg/ovn/controller/services/lb_config.go`; hint support was proposed in
    /// ovn-kubernetes#3165, closed unmerged). Facts: `key`/`value` (what asked for topology).
    OvnKubernetesIgnoresHints,
    // --- release bugs (docs/behaviour.md#release-fixes)
    /// The Service's newest topology Event says "Insufficient Node information" while every counted
    /// Node has a zone, on a release whose controller ignores a zone label added to an existing
    /// Node (kubernetes/kubernetes#117245): its node cache is stale, and a sync of the Service does
    /// not help. Facts: `release` (the modelled one).
    NodeZoneNotSeen,
    // --- front doors before the Service (docs/data-plane.md#front-doors; last, for `-o sarif`)
    /// A front door (Envoy Gateway, Istio ambient's ztunnel) balances the Service's endpoints
    /// itself and prefers its own zone, as the Service asks. Facts: `key` (what asked: the field,
    /// an annotation, or a BackendTrafficPolicy), `value` (its value or the policy), `zone` (the
    /// front door's name as the path names it), `nodes` (Envoy Gateway: the routes naming the
    /// Service, `KIND namespace/name`).
    FrontDoorPrefersZone,
    /// Istio ambient's ztunnel prefers the client's own node (`PreferSameNode`). Facts as above.
    FrontDoorPrefersNode,
    /// A front door reads the Service's value but does something else with it (Envoy Gateway
    /// treats every `trafficDistribution` value as same-zone, envoyproxy/gateway#9537; an Istio
    /// release without that value). Facts as above.
    FrontDoorIgnoresValue,
    /// A front door balances the Service's endpoints itself and reads neither its hints nor what
    /// asked for them: that traffic goes to every endpoint. Facts as above.
    FrontDoorIgnoresHints,
    /// Whether a front door routes the Service is unknown: its read was forbidden, failed, or is
    /// not in the dump. Facts: `key` (the object kind), `value` (the read status).
    FrontDoorUnknown,
    /// A front door balances the Service's endpoints itself and follows the zone hints the
    /// controller writes, as kube-proxy does (ingress-nginx with `--enable-topology-aware-routing`,
    /// Linkerd's destination controller). Facts: `zone` (the front door), `key` (what asked),
    /// `value`, `nodes` (ingress-nginx: the Ingresses naming the Service).
    FrontDoorAppliesHints,
}

/// A reason with the numbers behind it. Every fact is optional; each code documents which it sets.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Facts {
    /// Ready endpoints counted (`n`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endpoints: Option<i64>,
    /// Zones in the ratio map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zones: Option<i64>,
    /// Σ of per-zone minimums.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum_total: Option<i64>,
    /// Expected overload, percent (e.g. 33.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overload_percent: Option<f64>,
    /// Node names involved.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub nodes: Vec<String>,
    /// Zone involved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// Annotation key or field involved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Value involved (annotation value, trafficDistribution value, policy).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Endpoint addresses involved.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub addresses: Vec<String>,
    /// Slice names involved.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub slices: Vec<String>,
    /// The release modelled, on the reasons whose remedy depends on it (the knobs that exist
    /// there, docs/behaviour.md#remedies-per-release). Not serialized: the report's
    /// `kubernetesVersion` says it once.
    #[serde(skip)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub release: Option<crate::model::Behaviour>,
}

/// A reason code and its facts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Reason {
    /// The code.
    pub code: ReasonCode,
    /// The numbers behind it.
    #[serde(flatten)]
    pub facts: Facts,
}

impl Reason {
    /// A reason without facts.
    pub fn new(code: ReasonCode) -> Self {
        Reason { code, facts: Facts::default() }
    }
    /// A reason with facts.
    pub fn with(code: ReasonCode, facts: Facts) -> Self {
        Reason { code, facts }
    }
}

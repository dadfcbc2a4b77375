//! The only English in the crate's findings: one sentence per reason code, the controller's exact
//! Event text for it (docs/behaviour.md#controller-events), and the safeguard name from the Kubernetes docs.

pub mod partial;
pub mod watch;
pub mod whatif;

pub use partial::{events_forbidden_note, nodes_forbidden_note};

use crate::core::reason::{Reason, ReasonCode as C};
use crate::report::ReasonView;

/// A reason with its sentence, Event text and safeguard name. `address_type` completes the Event.
pub fn view(reason: Reason, address_type: Option<&str>) -> ReasonView {
    let event = event_message(&reason).map(|m| match address_type {
        Some(t) => format!("{m}, addressType: {t}"),
        None => m,
    });
    ReasonView {
        message: sentence(&reason),
        event,
        safeguard: safeguard(reason.code).map(str::to_string),
        reason,
    }
}

/// The Event message the controller emits for this condition, without the `, addressType` suffix.
pub fn event_message(reason: &Reason) -> Option<String> {
    use crate::core::topologycache::events as ev;
    let f = &reason.facts;
    let (n, z) = (f.endpoints.unwrap_or(0), f.zones.unwrap_or(0));
    Some(match reason.code {
        C::NodeMissingZone | C::NodeMissingCPU | C::SingleZone => ev::INSUFFICIENT_NODE_INFO.into(),
        C::InsufficientEndpoints => {
            format!("{} ({n} endpoints, {z} zones)", ev::INSUFFICIENT_NUMBER_OF_ENDPOINTS)
        }
        C::OverloadThreshold => {
            format!("{} ({n} endpoints, {z} zones)", ev::MIN_ALLOCATION_EXCEEDS_OVERLOAD_THRESHOLD)
        }
        C::EndpointMissingZone => ev::NO_ZONE_SPECIFIED.into(),
        C::NoHintsAllocated => ev::NO_ALLOCATED_HINTS_FOR_ZONES.into(),
        _ => return None,
    })
}

/// The safeguard or constraint name as the Kubernetes docs ("Topology Aware Routing") call it.
pub fn safeguard(code: C) -> Option<&'static str> {
    Some(match code {
        C::InsufficientEndpoints => "Insufficient number of endpoints",
        C::OverloadThreshold => "Impossible to achieve balanced allocation",
        C::NodeMissingZone | C::NodeMissingCPU | C::SingleZone => {
            "One or more Nodes has insufficient information"
        }
        C::ProxyMissingZoneHint => "One or more endpoints does not have a zone hint",
        C::ProxyZoneNotHinted => "A zone is not represented in hints",
        C::TrafficPolicyLocal => "internalTrafficPolicy or externalTrafficPolicy Local",
        _ => return None,
    })
}

fn list(items: &[String]) -> String {
    match items.len() {
        0 => "(none)".into(),
        1..=5 => items.join(", "),
        n => format!("{} and {} more", items[..5].join(", "), n - 5),
    }
}

fn quoted(value: &Option<String>) -> String {
    format!("{:?}", value.as_deref().unwrap_or(""))
}

/// One sentence explaining the reason with its numbers.
pub fn sentence(reason: &Reason) -> String {
    let f = &reason.facts;
    let (n, z) = (f.endpoints.unwrap_or(0), f.zones.unwrap_or(0));
    match reason.code {
        C::NotEnabled => "Neither the topology-mode annotation nor spec.trafficDistribution enables hints; \
             the controller removes any hints from the slices."
            .into(),
        C::AnnotationValueIgnored => format!(
            "Annotation {} is {} — only \"Auto\" or \"auto\" (exact case) enable hints.",
            f.key.as_deref().unwrap_or("?"),
            quoted(&f.value)
        ),
        C::DeprecatedAnnotationWins => format!(
            "The deprecated annotation service.kubernetes.io/topology-aware-hints is present ({}), so it decides \
             and service.kubernetes.io/topology-mode is not read.",
            quoted(&f.value)
        ),
        C::AnnotationOverridesTrafficDistribution => format!(
            "The annotation enables Auto hints, so spec.trafficDistribution {} is ignored by the controller.",
            quoted(&f.value)
        ),
        C::TrafficDistributionUnsupported => format!(
            "spec.trafficDistribution {} is not acted on by this controller version (or its feature gate is off); \
             hints are removed.",
            quoted(&f.value)
        ),
        C::TopologyGateOff => "The TopologyAwareHints feature gate is off by default at this version: the \
             controller writes no hints and removes existing ones."
            .into(),
        C::NoSelector => "The Service has no selector: the EndpointSlice controller does not manage its \
             slices, so it never writes hints for it."
            .into(),
        C::ExternalName => "ExternalName Services have no endpoints: there is nothing to hint.".into(),
        C::NoManagedSlices => "No EndpointSlice managed by endpointslice-controller.k8s.io exists for this \
             Service and address family."
            .into(),
        C::TrafficPolicyLocal => format!(
            "{} is Local: kube-proxy sends that traffic only to endpoints on the same node and ignores hints.",
            f.key.as_deref().unwrap_or("traffic policy")
        ),
        C::HeadlessService => "The Service is headless (no ClusterIP): kube-proxy does not proxy it, so \
             hints change no routing; clients connect to the pod addresses from DNS directly."
            .into(),
        C::WindowsNodes => format!(
            "Node(s) {} run Windows: their kube-proxy ignores topology hints and routes to all endpoints.",
            list(&f.nodes)
        ),
        C::CiliumIgnoresHints => format!(
            "Cilium replaces kube-proxy (kube-proxy-replacement: {}) and its enable-service-topology is {}: \
             Cilium's load balancer ignores topology hints and spreads traffic over every endpoint, whatever \
             the controller writes.",
            quoted(&f.value),
            quoted(&f.key)
        ),
        C::CiliumAppliesHints => format!(
            "Cilium replaces kube-proxy (kube-proxy-replacement: {}) with enable-service-topology on: Cilium, \
             not kube-proxy, applies the hints; the kube-proxy view below is what it is expected to route.",
            quoted(&f.value)
        ),
        _ => safeguard_sentence(reason, n, z),
    }
}

fn safeguard_sentence(reason: &Reason, n: i64, z: i64) -> String {
    let f = &reason.facts;
    match reason.code {
        C::NodesUnknown => "Nodes could not be read, so zone weights are unknown and the Auto allocation \
             could not be recomputed."
            .into(),
        C::NodeMissingZone => format!(
            "Ready worker node(s) {} have no topology.kubernetes.io/zone label: the controller drops all zone \
             weights, which disables hints for every Service in the cluster. Label the node(s) or mark them \
             control-plane.",
            list(&f.nodes)
        ),
        C::NodeMissingCPU => format!(
            "Ready worker node(s) {} report no allocatable CPU: the controller drops all zone weights, which \
             disables hints for every Service in the cluster.",
            list(&f.nodes)
        ),
        C::SingleZone => format!(
            "Only {z} zone(s) have Ready worker nodes with CPU; hints need at least 2 (the controller's \
             Event text for this case says \"Insufficient Node information\")."
        ),
        C::InsufficientEndpoints => format!(
            "{n} ready endpoint(s) for {z} zones: the controller needs at least one endpoint per zone."
        ),
        C::OverloadThreshold => format!(
            "{n} ready endpoints cannot be spread over {z} zones within the 20 % overload threshold: the zones' \
             minimums add up to {} > {n}{}. Scale so every zone can get its minimum.",
            f.minimum_total.unwrap_or(0),
            f.overload_percent.map(|p| format!(" (expected overload {p:.0} %)")).unwrap_or_default()
        ),
        C::EndpointMissingZone => format!(
            "Ready endpoint(s) {} have no zone: the controller removes all hints for this address family.",
            list(&f.addresses)
        ),
        C::NoHintsAllocated => "No hints were allocated for any zone; hints are removed.".into(),
        _ => diff_sentence(reason),
    }
}

fn diff_sentence(reason: &Reason) -> String {
    let f = &reason.facts;
    match reason.code {
        C::HintsMissing => format!(
            "The controller would write hints but slice(s) {} carry none. It only re-adds them on the \
             Service's next sync — triggered by an endpoint or Service change (e.g. a rollout or scaling), \
             not by Node changes (kubernetes/kubernetes#123401).",
            list(&f.slices)
        ),
        C::HintsUnexpected => {
            format!("Slice(s) {} carry hints the controller would remove on its next sync.", list(&f.slices))
        }
        C::HintsInvalid => format!(
            "Slice(s) {} carry hints other than what the controller would keep or write; it rewrites them on \
             its next sync of the Service.",
            list(&f.slices)
        ),
        C::RewrittenEverySync => format!(
            "The controller's own hints for slice(s) {} fail its keep-check (a zone outside its weights, or \
             outside its min/max), so it rewrites them identically on every sync.",
            list(&f.slices)
        ),
        C::Overloaded => format!(
            "With today's zone weights the hinted counts are overloaded{}: the controller requeues the Service \
             at the next Node add/delete/readiness/zone change.",
            f.zone.as_ref().map(|z| format!(" in zone {z}")).unwrap_or_default()
        ),
        _ => proxy_sentence(reason),
    }
}

fn proxy_sentence(reason: &Reason) -> String {
    let f = &reason.facts;
    let zone = quoted(&f.zone);
    match reason.code {
        C::ProxyMissingZoneHint => "An endpoint has no zone hint: kube-proxy ignores hints and uses all \
             ready endpoints."
            .into(),
        C::ProxyZoneNotHinted => {
            format!("No endpoint is hinted for zone {zone}: kube-proxy there uses all ready endpoints.")
        }
        C::ProxyNodeMissingZone => "The node has no topology.kubernetes.io/zone label: kube-proxy there \
             ignores zone hints and uses all ready endpoints."
            .into(),
        C::ProxyMissingNodeHint => "An endpoint has no node hint: kube-proxy ignores node hints.".into(),
        C::ProxyNodeNotHinted => {
            "No endpoint is hinted for this node: kube-proxy falls back to zone hints.".into()
        }
        C::ProxyNoReadyEndpoints => "No ready endpoints: kube-proxy uses serving+terminating endpoints, \
             ignoring hints, or drops the traffic."
            .into(),
        C::ProxyTopologyNotUsed => "This kube-proxy version does not consider hints for this Service \
             (feature gate or annotation rules of the version)."
            .into(),
        C::ProxyWindowsIgnoresHints => "Windows kube-proxy ignores topology hints.".into(),
        other => format!("{other:?}"),
    }
}

/// The one thing to do about a family whose most important reason is `reason` (None = nothing to do).
pub fn remedy(reason: Option<&Reason>) -> String {
    let Some(reason) = reason else {
        return "Nothing to do: hints are in place.".into();
    };
    let f = &reason.facts;
    match reason.code {
        C::NotEnabled => "To enable, annotate the Service service.kubernetes.io/topology-mode=Auto or set \
             spec.trafficDistribution: PreferSameZone."
            .into(),
        C::AnnotationValueIgnored => "Use exactly \"Auto\" as the annotation value.".into(),
        C::DeprecatedAnnotationWins => {
            "Remove the deprecated service.kubernetes.io/topology-aware-hints annotation.".into()
        }
        C::TrafficDistributionUnsupported => {
            "Use a trafficDistribution value this version supports (PreferClose), or upgrade.".into()
        }
        C::NoSelector | C::ExternalName | C::NoManagedSlices => {
            "Nothing the EndpointSlice controller can do: whoever writes these slices owns their hints."
                .into()
        }
        C::NodesUnknown => {
            "Bind the ClusterRole kubectl-topo-reader (deploy/rbac.yaml): `list nodes` at cluster scope gives the zone weights.".into()
        }
        C::NodeMissingZone => format!("Label node(s) {} with topology.kubernetes.io/zone.", list(&f.nodes)),
        C::NodeMissingCPU => format!("Fix node(s) {}: they report no allocatable CPU.", list(&f.nodes)),
        C::SingleZone => "Auto hints need Ready worker nodes in at least two zones.".into(),
        C::InsufficientEndpoints => {
            format!("Run at least {} ready endpoints (one per zone).", f.zones.unwrap_or(0))
        }
        C::OverloadThreshold => {
            "Scale to a count where hints hold (see Replicas below), or spread the pods in \
             proportion to zone CPU."
                .into()
        }
        C::EndpointMissingZone => "Give every endpoint's node a topology.kubernetes.io/zone label.".into(),
        C::HintsMissing | C::HintsInvalid | C::HintsUnexpected => {
            "Trigger a sync of the Service (any change to \
             its pods or the Service, e.g. `kubectl rollout restart`); Node changes alone do not."
                .into()
        }
        C::RewrittenEverySync | C::Overloaded => {
            "Spread the pods in proportion to zone CPU so the controller's \
             allocation is stable."
                .into()
        }
        _ => "See the reasons below.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::reason::Facts;

    #[test]
    fn event_texts_match_upstream_event_go() {
        let r = Reason::with(
            C::OverloadThreshold,
            Facts { endpoints: Some(4), zones: Some(3), ..Facts::default() },
        );
        assert_eq!(
            view(r, Some("IPv4")).event.unwrap(),
            "Unable to allocate minimum required endpoints to each zone without exceeding overload threshold \
             (4 endpoints, 3 zones), addressType: IPv4"
        );
        let r = Reason::with(
            C::InsufficientEndpoints,
            Facts { endpoints: Some(4), zones: Some(5), ..Facts::default() },
        );
        assert_eq!(event_message(&r).unwrap(), "Insufficient number of endpoints (4 endpoints, 5 zones)");
        assert_eq!(event_message(&Reason::new(C::HintsMissing)), None);
    }

    #[test]
    fn every_code_has_a_sentence_without_debug_fallback() {
        for code in C::ALL {
            let s = sentence(&Reason::new(code));
            assert!(s.ends_with('.') && s != format!("{code:?}"), "{code:?}: {s}");
        }
    }
}

//! The only English in the crate's findings: one sentence per reason code, the controller's exact
//! Event text for it (docs/behaviour.md#controller-events), and the safeguard name from the Kubernetes docs.

/// The front doors' reason codes as one pattern (`core/analyze/frontdoor.rs`), so that the
/// exhaustive matches of every code stay within the function limit.
macro_rules! front_door_codes {
    () => {
        topo_engine::report::reason::ReasonCode::FrontDoorPrefersZone
            | topo_engine::report::reason::ReasonCode::FrontDoorPrefersNode
            | topo_engine::report::reason::ReasonCode::FrontDoorIgnoresValue
            | topo_engine::report::reason::ReasonCode::FrontDoorIgnoresHints
            | topo_engine::report::reason::ReasonCode::FrontDoorUnknown
            | topo_engine::report::reason::ReasonCode::FrontDoorAppliesHints
    };
}
pub(crate) use front_door_codes;

/// The codes of a data-plane path's verdict (`core/analyze/dataplane.rs`) but Cilium's caveats,
/// as one pattern (the exhaustive matches of every code stay within the function limit).
macro_rules! path_codes {
    () => {
        topo_engine::report::reason::ReasonCode::KubeProxyAppliesHints
            | topo_engine::report::reason::ReasonCode::KubeProxyIgnoresHints
            | topo_engine::report::reason::ReasonCode::CiliumSocketLbAppliesHints
            | topo_engine::report::reason::ReasonCode::CiliumSocketLbIgnoresHints
            | topo_engine::report::reason::ReasonCode::CiliumVersionIgnoresValue
            | topo_engine::report::reason::ReasonCode::CiliumVersionUnknown
            | topo_engine::report::reason::ReasonCode::DataPlaneUnknown
            | topo_engine::report::reason::ReasonCode::OvnKubernetesIgnoresHints
    };
}

pub(crate) mod apply;
pub(crate) mod check;
pub(crate) mod dataplane;
mod frontdoor;
pub(crate) mod limits;
pub(crate) mod partial;
pub(crate) mod picture;
pub mod reference;
mod remedy;
mod sentence;
pub(crate) mod stability;
pub(crate) mod version;
pub(crate) mod watch;
pub mod whatif;
pub(crate) mod workloads;

pub(crate) use partial::{events_forbidden_note, nodes_forbidden_note};
pub(crate) use remedy::{family_remedy, remedy};
pub use sentence::sentence;

use serde::Serialize;
use topo_engine::report::reason::{Reason, ReasonCode as C};

/// A reason with its words: the sentence, the controller's Event text and the documented safeguard
/// name. This is how `-o json|yaml` shows every reason of a report (made by `view`).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ReasonView {
    /// Code and facts.
    #[serde(flatten)]
    pub reason: Reason,
    /// One English sentence.
    pub message: String,
    /// The exact Event message the controller emits for this condition, when it emits one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The safeguard / constraint name from the Kubernetes docs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safeguard: Option<String>,
}

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

/// The Event message the controller emits for this condition, without the `, addressType` suffix
/// (`None` for the codes it emits no Event for).
pub(crate) fn event_message(reason: &Reason) -> Option<String> {
    use topo_engine::core::topologycache::events as ev;
    let (n, z) = (reason.facts.endpoints.unwrap_or(0), reason.facts.zones.unwrap_or(0));
    let counted = |message: &str| format!("{message} ({n} endpoints, {z} zones)");
    Some(match reason.code {
        // NodeZoneNotSeen: the controller's stale cache still says so (kubernetes/kubernetes#117245).
        C::NodeMissingZone | C::NodeMissingCPU | C::SingleZone | C::NodeZoneNotSeen => {
            ev::INSUFFICIENT_NODE_INFO.into()
        }
        C::InsufficientEndpoints => counted(ev::INSUFFICIENT_NUMBER_OF_ENDPOINTS),
        C::OverloadThreshold => counted(ev::MIN_ALLOCATION_EXCEEDS_OVERLOAD_THRESHOLD),
        C::EndpointMissingZone => ev::NO_ZONE_SPECIFIED.into(),
        C::NoHintsAllocated => ev::NO_ALLOCATED_HINTS_FOR_ZONES.into(),
        C::NotEnabled
        | C::AnnotationValueIgnored
        | C::DeprecatedAnnotationWins
        | C::AnnotationOverridesTrafficDistribution
        | C::TrafficDistributionUnsupported
        | C::TopologyGateOff
        | C::NoSelector
        | C::ExternalName
        | C::NoManagedSlices
        | C::TrafficPolicyLocal
        | C::HeadlessService
        | C::WindowsNodes
        | C::KubeProxyVersionSkew
        | C::CiliumIgnoresHints
        | C::CiliumAppliesHints
        | path_codes!()
        | front_door_codes!()
        | C::NodesUnknown
        | C::SlicesUnknown
        | C::HintsMissing
        | C::HintsUnexpected
        | C::HintsInvalid
        | C::RewrittenEverySync
        | C::Overloaded
        | C::ProxyMissingZoneHint
        | C::ProxyZoneNotHinted
        | C::ProxyNodeMissingZone
        | C::ProxyMissingNodeHint
        | C::ProxyNodeNotHinted
        | C::ProxyNoReadyEndpoints
        | C::ProxyTopologyNotUsed
        | C::ProxyWindowsIgnoresHints => return None,
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
        // Not a safeguard or constraint the docs name.
        C::NotEnabled
        | C::AnnotationValueIgnored
        | C::DeprecatedAnnotationWins
        | C::AnnotationOverridesTrafficDistribution
        | C::TrafficDistributionUnsupported
        | C::TopologyGateOff
        | C::NoSelector
        | C::ExternalName
        | C::NoManagedSlices
        | C::HeadlessService
        | C::WindowsNodes
        | C::KubeProxyVersionSkew
        | C::CiliumIgnoresHints
        | C::CiliumAppliesHints
        | path_codes!()
        | front_door_codes!()
        | C::NodesUnknown
        | C::SlicesUnknown
        | C::EndpointMissingZone
        | C::NoHintsAllocated
        | C::HintsMissing
        | C::HintsUnexpected
        | C::HintsInvalid
        | C::RewrittenEverySync
        | C::Overloaded
        | C::ProxyNodeMissingZone
        | C::ProxyMissingNodeHint
        | C::ProxyNodeNotHinted
        | C::ProxyNoReadyEndpoints
        | C::ProxyTopologyNotUsed
        | C::ProxyWindowsIgnoresHints
        | C::NodeZoneNotSeen => return None,
    })
}

pub(crate) fn list(items: &[String]) -> String {
    match items.len() {
        0 => "(none)".into(),
        1..=5 => items.join(", "),
        n => format!("{} and {} more", items[..5].join(", "), n - 5),
    }
}

pub(crate) fn quoted(value: &Option<String>) -> String {
    format!("{:?}", value.as_deref().unwrap_or(""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantArray;
    use topo_engine::report::reason::Facts;

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
        for &code in C::VARIANTS {
            let s = sentence(&Reason::new(code));
            assert!(s.ends_with('.') && s != format!("{code:?}"), "{code:?}: {s}");
        }
    }
}

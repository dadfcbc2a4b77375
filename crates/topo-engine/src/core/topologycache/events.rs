//! Event texts of the topology cache (`topologycache/event.go`) and the events `AddHints` returns.
//! Upstream returns `EventBuilder`s instead of publishing them; so do we.

use serde::Serialize;

use super::Disabled;

/// `NoZoneSpecified`.
pub const NO_ZONE_SPECIFIED: &str = "One or more endpoints do not have a zone specified";
/// `NoAllocatedHintsForZones`.
pub const NO_ALLOCATED_HINTS_FOR_ZONES: &str = "No hints allocated for zones";
/// `TopologyAwareHintsEnabled`.
pub const TOPOLOGY_AWARE_HINTS_ENABLED: &str = "Topology Aware Hints has been enabled";
/// `TopologyAwareHintsDisabled` (emitted by the reconciler when the annotation goes away).
pub const TOPOLOGY_AWARE_HINTS_DISABLED: &str = "Topology Aware Hints has been disabled";
/// `InsufficientNodeInfo`.
pub const INSUFFICIENT_NODE_INFO: &str =
    "Insufficient Node information: allocatable CPU or zone not specified on one or more nodes";
/// `NodesReadyInOneZoneOnly`.
pub const NODES_READY_IN_ONE_ZONE_ONLY: &str = "Nodes only ready in one zone";
/// `InsufficientNumberOfEndpoints`.
pub const INSUFFICIENT_NUMBER_OF_ENDPOINTS: &str = "Insufficient number of endpoints";
/// `MinAllocationExceedsOverloadThreshold`.
pub const MIN_ALLOCATION_EXCEEDS_OVERLOAD_THRESHOLD: &str =
    "Unable to allocate minimum required endpoints to each zone without exceeding overload threshold";

/// Event reason when hints are removed.
pub const EVENT_REASON_DISABLED: &str = "TopologyAwareHintsDisabled";
/// Event reason when hints are first added.
pub const EVENT_REASON_ENABLED: &str = "TopologyAwareHintsEnabled";

/// One event on the Service (upstream `EventBuilder`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ControllerEvent {
    /// `Normal` or `Warning`.
    pub event_type: String,
    /// `TopologyAwareHintsEnabled` or `TopologyAwareHintsDisabled`.
    pub reason: String,
    /// Full message including the `, addressType: <T>` suffix.
    pub message: String,
}

impl ControllerEvent {
    /// Warning `TopologyAwareHintsDisabled` for `why`, suffixed with the address type.
    pub fn disabled(why: &Disabled, address_type: &str) -> Self {
        ControllerEvent {
            event_type: "Warning".to_string(),
            reason: EVENT_REASON_DISABLED.to_string(),
            message: format_with_address_type(&why.message(), address_type),
        }
    }
    /// Warning `TopologyAwareHintsDisabled` "Topology Aware Hints has been disabled": emitted by the
    /// reconciler (not `AddHints`) when the annotation stops enabling hints while the in-memory
    /// "populated" flag is set (endpointslice `reconciler.go` `reconcileByAddressType`).
    pub fn annotation_removed(address_type: &str) -> Self {
        ControllerEvent {
            event_type: "Warning".to_string(),
            reason: EVENT_REASON_DISABLED.to_string(),
            message: format_with_address_type(TOPOLOGY_AWARE_HINTS_DISABLED, address_type),
        }
    }
    /// Normal `TopologyAwareHintsEnabled`, suffixed with the address type.
    pub fn enabled(address_type: &str) -> Self {
        ControllerEvent {
            event_type: "Normal".to_string(),
            reason: EVENT_REASON_ENABLED.to_string(),
            message: format_with_address_type(TOPOLOGY_AWARE_HINTS_ENABLED, address_type),
        }
    }
}

/// The event as reports carry it.
impl From<ControllerEvent> for crate::report::ControllerEvent {
    fn from(e: ControllerEvent) -> Self {
        crate::report::ControllerEvent { event_type: e.event_type, reason: e.reason, message: e.message }
    }
}

// mirrors utils.go: FormatWithAddressType
/// `"<s>, addressType: <T>"`.
pub fn format_with_address_type(s: &str, address_type: &str) -> String {
    format!("{s}, addressType: {address_type}")
}

impl Disabled {
    /// The upstream event message without the address-type suffix.
    pub fn message(&self) -> String {
        match self {
            Disabled::InsufficientNodeInfo => INSUFFICIENT_NODE_INFO.to_string(),
            Disabled::OneZone => NODES_READY_IN_ONE_ZONE_ONLY.to_string(),
            // mirrors topologycache.go getAllocations: "%s (%d endpoints, %d zones)"
            Disabled::InsufficientEndpoints { endpoints, zones } => {
                format!("{INSUFFICIENT_NUMBER_OF_ENDPOINTS} ({endpoints} endpoints, {zones} zones)")
            }
            Disabled::OverloadThreshold { endpoints, zones, .. } => {
                format!("{MIN_ALLOCATION_EXCEEDS_OVERLOAD_THRESHOLD} ({endpoints} endpoints, {zones} zones)")
            }
            Disabled::NoZoneSpecified { .. } => NO_ZONE_SPECIFIED.to_string(),
            Disabled::NoHintsAllocated => NO_ALLOCATED_HINTS_FOR_ZONES.to_string(),
        }
    }
}

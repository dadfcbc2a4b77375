//! Pure extraction: k8s-openapi `Node`, `Service`, `EndpointSlice` and `Event` → the `model`
//! types, following the field semantics documented in `model/snapshot.rs` (absent and empty kept
//! apart). No I/O; both the dump reader and the live lister end here.

use k8s_openapi::api::core::v1 as core;
use k8s_openapi::api::discovery::v1 as discovery;
use k8s_openapi::api::events::v1 as events;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use std::collections::BTreeMap;

use topo_engine::model::{
    ANNOTATION_TOPOLOGY_AWARE_HINTS, ANNOTATION_TOPOLOGY_MODE, CpuAmount, Endpoint, EndpointSlice, Event,
    Hints, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, Node, Service, ServicePort, SlicePort, StrMap,
};

/// The Service annotations anything reads: the two topology annotations (`core/mode.rs`),
/// `check`'s ignore, and Istio's traffic distribution (`core/analyze/frontdoor.rs`). Readers keep only these ([`read_annotations`]): a Service often carries
/// kilobytes of others (`kubectl.kubernetes.io/last-applied-configuration` holds the whole object).
pub(crate) const SERVICE_ANNOTATIONS_READ: [&str; 4] = [
    ANNOTATION_TOPOLOGY_AWARE_HINTS,
    ANNOTATION_TOPOLOGY_MODE,
    crate::triage::IGNORE_ANNOTATION,
    topo_engine::model::ANNOTATION_ISTIO_TRAFFIC_DISTRIBUTION,
];

/// The annotations of [`SERVICE_ANNOTATIONS_READ`] among `annotations`.
pub(crate) fn read_annotations(mut annotations: BTreeMap<String, String>) -> StrMap {
    annotations.retain(|key, _| SERVICE_ANNOTATIONS_READ.contains(&key.as_str()));
    StrMap::from(annotations)
}

/// A field of an otherwise well-formed object that the model cannot take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub(crate) struct ConvertError {
    /// JSON path of the field, e.g. `status.allocatable.cpu`.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

fn name_of(meta: &ObjectMeta) -> String {
    meta.name.clone().unwrap_or_default()
}

fn namespace_of(meta: &ObjectMeta) -> String {
    meta.namespace.clone().unwrap_or_default()
}

/// Largest allocatable CPU we accept on one node: 10^12 cores. The API server rejects negative
/// quantities; it accepts absurdly large ones, but no node has them, and sums of them would overflow
/// the exact arithmetic, so a dump carrying one gets a clear error instead of a wrong ratio.
const MAX_NODE_MILLICORES: i128 = 1_000_000_000_000_000;

/// `written` is the quantity as the dump gives it, quoted in messages (Display would rewrite it).
fn check_cpu_range(cpu: &CpuAmount, written: &str) -> Result<(), ConvertError> {
    let millis = cpu.millis_ceil();
    let field = "status.allocatable.cpu".to_string();
    if millis < 0 {
        return Err(ConvertError {
            field,
            message: format!("negative quantity {written:?} (the API server rejects it)"),
        });
    }
    if millis > MAX_NODE_MILLICORES {
        return Err(ConvertError {
            field,
            message: format!("implausible quantity {written:?} (more than 10^12 cores)"),
        });
    }
    Ok(())
}

/// Extracts a Node: labels, exact allocatable CPU and the status of its `Ready` condition.
pub(crate) fn node_from(node: &core::Node) -> Result<Node, ConvertError> {
    let status = node.status.as_ref();
    let allocatable_cpu =
        allocatable_cpu(status.and_then(|s| s.allocatable.as_ref()).and_then(|a| a.get("cpu")))?;
    // mirrors nodeutil.GetNodeCondition: the first condition of that type
    let ready = status
        .and_then(|s| s.conditions.as_ref())
        .and_then(|conditions| conditions.iter().find(|c| c.type_ == "Ready"))
        .map(|c| c.status.clone());
    Ok(Node {
        name: name_of(&node.metadata),
        labels: Node::read_labels(node.metadata.labels.clone().unwrap_or_default()),
        allocatable_cpu,
        ready,
        kubelet_version: status
            .and_then(|s| s.node_info.as_ref())
            .map(|i| i.kubelet_version.clone())
            .filter(|v| !v.is_empty()),
    })
}

/// `status.allocatable["cpu"]`, parsed exactly and within range; `None` when absent.
fn allocatable_cpu(quantity: Option<&Quantity>) -> Result<Option<CpuAmount>, ConvertError> {
    let Some(quantity) = quantity else { return Ok(None) };
    // Quantity.UnmarshalJSON trims surrounding whitespace before ParseQuantity.
    let cpu = CpuAmount::parse_input(quantity.0.trim()).map_err(|_| ConvertError {
        field: "status.allocatable.cpu".to_string(),
        message: format!("invalid quantity {:?} (expected e.g. \"1930m\" or \"2\")", quantity.0),
    })?;
    check_cpu_range(&cpu, &quantity.0)?;
    Ok(Some(cpu))
}

/// Extracts a Service; `externally_accessible` follows kube-proxy's `ExternallyAccessible`.
pub(crate) fn service_from(service: &core::Service) -> Service {
    let spec = service.spec.clone().unwrap_or_default();
    let ports = spec.ports.clone().unwrap_or_default();
    let load_balancer_ip = service
        .status
        .as_ref()
        .and_then(|s| s.load_balancer.as_ref())
        .and_then(|lb| lb.ingress.as_ref())
        .is_some_and(|ingress| ingress.iter().any(|i| i.ip.as_deref().is_some_and(|ip| !ip.is_empty())));
    let node_port = ports.iter().any(|p| p.node_port.unwrap_or(0) != 0);
    let external_ip = spec.external_ips.as_ref().is_some_and(|ips| !ips.is_empty());
    Service {
        namespace: namespace_of(&service.metadata),
        name: name_of(&service.metadata),
        labels: service.metadata.labels.clone().unwrap_or_default().into(),
        annotations: read_annotations(service.metadata.annotations.clone().unwrap_or_default()),
        has_selector: spec.selector.is_some(),
        selector: spec.selector.clone().unwrap_or_default().into(),
        service_type: spec.type_.clone().unwrap_or_else(|| "ClusterIP".to_string()),
        cluster_ip: spec.cluster_ip.clone(),
        ip_families: spec.ip_families.clone().unwrap_or_default(),
        traffic_distribution: spec.traffic_distribution.clone(),
        internal_traffic_policy: spec.internal_traffic_policy.clone(),
        external_traffic_policy: spec.external_traffic_policy.clone(),
        externally_accessible: node_port || load_balancer_ip || external_ip,
        publish_not_ready_addresses: spec.publish_not_ready_addresses.unwrap_or(false),
        line: Default::default(),
        ports: ports
            .into_iter()
            .map(|p| ServicePort {
                name: p.name.unwrap_or_default(),
                port: p.port,
                protocol: p.protocol.unwrap_or_else(|| "TCP".to_string()),
                node_port: p.node_port.unwrap_or(0),
            })
            .collect(),
    }
}

/// Extracts an EndpointSlice of any manager and address type (FQDN slices included).
pub(crate) fn slice_from(slice: &discovery::EndpointSlice) -> EndpointSlice {
    let label = |key: &str| slice.metadata.labels.as_ref().and_then(|l| l.get(key)).cloned();
    EndpointSlice {
        namespace: namespace_of(&slice.metadata),
        name: name_of(&slice.metadata),
        service_name: label(LABEL_SERVICE_NAME),
        managed_by: label(LABEL_MANAGED_BY),
        address_type: slice.address_type.clone(),
        ports: slice
            .ports
            .iter()
            .flatten()
            .map(|p| SlicePort { name: p.name.clone(), port: p.port, protocol: p.protocol.clone() })
            .collect(),
        endpoints: slice.endpoints.iter().flatten().map(endpoint_from).collect(),
    }
}

fn endpoint_from(endpoint: &discovery::Endpoint) -> Endpoint {
    let conditions = endpoint.conditions.clone().unwrap_or_default();
    let hints = endpoint.hints.as_ref().map(|h| Hints {
        for_zones: h.for_zones.as_ref().map(|zones| zones.iter().map(|z| z.name.as_str().into()).collect()),
        for_nodes: h.for_nodes.as_ref().map(|nodes| nodes.iter().map(|n| n.name.as_str().into()).collect()),
    });
    Endpoint {
        addresses: endpoint.addresses.clone().into(),
        ready: conditions.ready,
        serving: conditions.serving,
        terminating: conditions.terminating,
        node_name: endpoint.node_name.as_deref().map(Into::into),
        zone: endpoint.zone.as_deref().map(Into::into),
        hints,
    }
}

/// Normalises a core/v1 Event (what `kubectl get events` lists and the controller's recorder writes).
pub(crate) fn event_from_core(event: &core::Event) -> Event {
    let object = &event.involved_object;
    let series = event.series.as_ref();
    Event {
        namespace: object.namespace.clone().unwrap_or_else(|| namespace_of(&event.metadata)),
        object_kind: object.kind.clone().unwrap_or_default(),
        object_name: object.name.clone().unwrap_or_default(),
        event_type: event.type_.clone().unwrap_or_default(),
        reason: event.reason.clone().unwrap_or_default(),
        message: event.message.clone().unwrap_or_default(),
        count: series.and_then(|s| s.count).or(event.count).unwrap_or(1),
        last_seen: event
            .last_timestamp
            .as_ref()
            .map(|t| t.0.to_string())
            .or_else(|| series.and_then(|s| s.last_observed_time.as_ref()).map(|t| t.0.to_string()))
            .or_else(|| event.event_time.as_ref().map(|t| t.0.to_string())),
        source: event
            .source
            .as_ref()
            .and_then(|s| s.component.clone())
            .or_else(|| event.reporting_component.clone())
            .filter(|s| !s.is_empty()),
    }
}

/// Normalises an events.k8s.io/v1 Event (`note` is the message, `regarding` the object).
pub(crate) fn event_from_events_v1(event: &events::Event) -> Event {
    let object = event.regarding.clone().unwrap_or_default();
    let series = event.series.as_ref();
    Event {
        namespace: object.namespace.clone().unwrap_or_else(|| namespace_of(&event.metadata)),
        object_kind: object.kind.clone().unwrap_or_default(),
        object_name: object.name.clone().unwrap_or_default(),
        event_type: event.type_.clone().unwrap_or_default(),
        reason: event.reason.clone().unwrap_or_default(),
        message: event.note.clone().unwrap_or_default(),
        count: series.map(|s| s.count).or(event.deprecated_count).unwrap_or(1),
        last_seen: series
            .map(|s| s.last_observed_time.0.to_string())
            .or_else(|| event.deprecated_last_timestamp.as_ref().map(|t| t.0.to_string()))
            .or_else(|| event.event_time.as_ref().map(|t| t.0.to_string())),
        source: event
            .deprecated_source
            .as_ref()
            .and_then(|s| s.component.clone())
            .or_else(|| event.reporting_controller.clone())
            .filter(|s| !s.is_empty()),
    }
}

pub(crate) mod frontdoor;
pub(crate) mod lean;
mod listed;
pub(crate) mod object;
pub(crate) mod optional;
pub(crate) mod workload;
pub(crate) use listed::{Lean, snapshot_from_lean};
pub(crate) use listed::{Listed, Shape, snapshot_from_raw};
pub use listed::{Raw, Whole};

#[cfg(test)]
mod tests;

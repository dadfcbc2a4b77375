//! The readers' own view of Nodes, Services and EndpointSlices (a dump's, and every live read's but
//! `dump`'s): only the fields the model takes, decoded straight from the text, everything else
//! skipped without being built (no images, conditions' timestamps, managedFields, targetRefs…).
//! The k8s-openapi types decode every field into owned values; on a large dump that was most of
//! the reading time, and on a live read they were kept beside the model for the whole run.
//!
//! Each field is read as k8s-openapi reads it, so a dump gives the same model either way (a test
//! holds the two converters equal): every field is optional and `null` is absent (k8s-openapi
//! defaults required fields too), the structs say what they expect with k8s-openapi's words
//! (`expected ObjectMeta`), and quantities are k8s-openapi's own `Quantity`. Fields the model does
//! not read are not type-checked: a dump whose `status.images` is a number is read, as the
//! analysis never looks there.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use serde::Deserialize;

use topo_engine::model;

use super::ConvertError;

mod fields;
use fields::{NodeReads, Reads, ServiceReads, SliceReads, annotations, labels, shared, unique};

/// `metadata`, as far as it is read: of its labels and annotations, those `K`'s model reads.
#[derive(Deserialize, Default)]
#[serde(expecting = "ObjectMeta", bound = "")]
struct Meta<K: Reads> {
    name: Option<String>,
    namespace: Option<String>,
    /// What `serve`'s watchers resume from ([`Head`]); the model does not keep it.
    #[serde(rename = "resourceVersion")]
    resource_version: Option<String>,
    /// Decoded for its type alone (a uid that is not a string is refused as k8s-openapi refuses
    /// it); nothing keeps it.
    #[allow(dead_code)]
    uid: Option<String>,
    #[serde(default, deserialize_with = "labels::<_, K>")]
    labels: Option<BTreeMap<String, String>>,
    #[serde(default, deserialize_with = "annotations::<_, K>")]
    annotations: Option<BTreeMap<String, String>>,
    #[serde(skip)]
    reads: PhantomData<K>,
}

/// What a watcher reads of an object (`serve`'s watches), decoded in the same pass as the model.
#[derive(Debug, Default)]
pub(crate) struct Head {
    pub(crate) name: Option<String>,
    pub(crate) namespace: Option<String>,
    pub(crate) resource_version: Option<String>,
}

/// The [`Head`] of an object's metadata (its resourceVersion taken: the model does not keep it).
fn head<K: Reads>(meta: &mut Option<Meta<K>>) -> Head {
    let Some(meta) = meta else { return Head::default() };
    Head {
        name: meta.name.clone(),
        namespace: meta.namespace.clone(),
        resource_version: meta.resource_version.take(),
    }
}

/// A Node: name, labels, allocatable CPU, the `Ready` condition, the kubelet version.
#[derive(Deserialize)]
#[serde(expecting = "Node")]
pub(crate) struct Node {
    metadata: Option<Meta<NodeReads>>,
    status: Option<NodeStatus>,
}

#[derive(Deserialize)]
#[serde(expecting = "NodeStatus", rename_all = "camelCase")]
struct NodeStatus {
    #[serde(default, deserialize_with = "unique")]
    allocatable: Option<BTreeMap<String, Quantity>>,
    conditions: Option<Vec<NodeCondition>>,
    node_info: Option<NodeSystemInfo>,
}

#[derive(Deserialize)]
#[serde(expecting = "NodeCondition")]
struct NodeCondition {
    #[serde(rename = "type")]
    type_: Option<String>,
    status: Option<String>,
}

#[derive(Deserialize)]
#[serde(expecting = "NodeSystemInfo", rename_all = "camelCase")]
struct NodeSystemInfo {
    kubelet_version: Option<String>,
}

impl Node {
    /// `metadata.name` (empty when absent).
    pub(crate) fn name(&self) -> &str {
        self.metadata.as_ref().and_then(|m| m.name.as_deref()).unwrap_or_default()
    }

    /// What a watcher reads of it.
    pub(crate) fn head(&mut self) -> Head {
        head(&mut self.metadata)
    }

    /// Whether `metadata.name` is given (the reader refuses a nameless Node).
    pub(crate) fn has_name(&self) -> bool {
        self.metadata.as_ref().is_some_and(|m| m.name.is_some())
    }

    /// The model's Node, as [`super::node_from`] makes it from the k8s-openapi type.
    pub(crate) fn into_model(self) -> Result<model::Node, ConvertError> {
        let meta = self.metadata.unwrap_or_default();
        let (allocatable, conditions, node_info) = match self.status {
            Some(s) => (s.allocatable, s.conditions, s.node_info),
            None => (None, None, None),
        };
        let allocatable_cpu = super::allocatable_cpu(allocatable.as_ref().and_then(|a| a.get("cpu")))?;
        // mirrors nodeutil.GetNodeCondition: the first condition of that type
        let ready = conditions
            .into_iter()
            .flatten()
            .find(|c| c.type_.as_deref().unwrap_or_default() == "Ready")
            .map(|c| c.status.unwrap_or_default());
        Ok(model::Node {
            name: meta.name.unwrap_or_default(),
            labels: model::Node::read_labels(meta.labels.unwrap_or_default()),
            allocatable_cpu,
            ready,
            kubelet_version: node_info.and_then(|i| i.kubelet_version).filter(|v| !v.is_empty()),
        })
    }
}

/// A Service: what the controller and kube-proxy read of it.
#[derive(Deserialize)]
#[serde(expecting = "Service")]
pub(crate) struct Service {
    metadata: Option<Meta<ServiceReads>>,
    spec: Option<ServiceSpec>,
    status: Option<ServiceStatus>,
}

#[derive(Deserialize, Default)]
#[serde(expecting = "ServiceSpec", rename_all = "camelCase")]
struct ServiceSpec {
    #[serde(default, deserialize_with = "unique")]
    selector: Option<BTreeMap<String, String>>,
    #[serde(rename = "type")]
    type_: Option<String>,
    #[serde(rename = "clusterIP")]
    cluster_ip: Option<String>,
    ip_families: Option<Vec<String>>,
    traffic_distribution: Option<String>,
    internal_traffic_policy: Option<String>,
    external_traffic_policy: Option<String>,
    #[serde(rename = "externalIPs")]
    external_ips: Option<Vec<String>>,
    publish_not_ready_addresses: Option<bool>,
    ports: Option<Vec<ServicePort>>,
}

#[derive(Deserialize)]
#[serde(expecting = "ServicePort", rename_all = "camelCase")]
struct ServicePort {
    name: Option<String>,
    port: Option<i32>,
    protocol: Option<String>,
    node_port: Option<i32>,
}

#[derive(Deserialize)]
#[serde(expecting = "ServiceStatus", rename_all = "camelCase")]
struct ServiceStatus {
    load_balancer: Option<LoadBalancerStatus>,
}

#[derive(Deserialize)]
#[serde(expecting = "LoadBalancerStatus")]
struct LoadBalancerStatus {
    ingress: Option<Vec<LoadBalancerIngress>>,
}

#[derive(Deserialize)]
#[serde(expecting = "LoadBalancerIngress")]
struct LoadBalancerIngress {
    ip: Option<String>,
}

impl Service {
    /// What a watcher reads of it.
    pub(crate) fn head(&mut self) -> Head {
        head(&mut self.metadata)
    }

    /// Whether `metadata.name` is given (the reader refuses a nameless Service).
    pub(crate) fn has_name(&self) -> bool {
        self.metadata.as_ref().is_some_and(|m| m.name.is_some())
    }

    /// `spec.selector`, when set.
    pub(crate) fn selector(&self) -> Option<&BTreeMap<String, String>> {
        self.spec.as_ref().and_then(|s| s.selector.as_ref())
    }

    /// The model's Service, as [`super::service_from`] makes it from the k8s-openapi type.
    pub(crate) fn into_model(self) -> model::Service {
        let meta = self.metadata.unwrap_or_default();
        let spec = self.spec.unwrap_or_default();
        let ports = spec.ports.unwrap_or_default();
        let ingress = self.status.and_then(|s| s.load_balancer).and_then(|lb| lb.ingress);
        let load_balancer_ip =
            ingress.iter().flatten().any(|i| i.ip.as_deref().is_some_and(|ip| !ip.is_empty()));
        let node_port = ports.iter().any(|p| p.node_port.unwrap_or(0) != 0);
        let external_ip = spec.external_ips.as_ref().is_some_and(|ips| !ips.is_empty());
        model::Service {
            namespace: meta.namespace.unwrap_or_default(),
            name: meta.name.unwrap_or_default(),
            labels: meta.labels.unwrap_or_default().into(),
            annotations: super::read_annotations(meta.annotations.unwrap_or_default()),
            has_selector: spec.selector.is_some(),
            selector: spec.selector.unwrap_or_default().into(),
            service_type: spec.type_.unwrap_or_else(|| "ClusterIP".to_string()),
            cluster_ip: spec.cluster_ip,
            ip_families: spec.ip_families.unwrap_or_default(),
            traffic_distribution: spec.traffic_distribution,
            internal_traffic_policy: spec.internal_traffic_policy,
            external_traffic_policy: spec.external_traffic_policy,
            externally_accessible: node_port || load_balancer_ip || external_ip,
            publish_not_ready_addresses: spec.publish_not_ready_addresses.unwrap_or(false),
            line: Default::default(),
            ports: ports
                .into_iter()
                .map(|p| model::ServicePort {
                    name: p.name.unwrap_or_default(),
                    port: p.port.unwrap_or_default(),
                    protocol: p.protocol.unwrap_or_else(|| "TCP".to_string()),
                    node_port: p.node_port.unwrap_or(0),
                })
                .collect(),
        }
    }
}

/// An EndpointSlice: its Service, manager, address type, ports and endpoints.
#[derive(Deserialize)]
#[serde(expecting = "EndpointSlice", rename_all = "camelCase")]
pub(crate) struct EndpointSlice {
    metadata: Option<Meta<SliceReads>>,
    address_type: Option<String>,
    endpoints: Option<Vec<Endpoint>>,
    ports: Option<Vec<EndpointPort>>,
}

#[derive(Deserialize)]
#[serde(expecting = "Endpoint", rename_all = "camelCase")]
struct Endpoint {
    addresses: Option<Vec<String>>,
    conditions: Option<EndpointConditions>,
    hints: Option<EndpointHints>,
    #[serde(default, deserialize_with = "shared")]
    node_name: Option<Arc<str>>,
    #[serde(default, deserialize_with = "shared")]
    zone: Option<Arc<str>>,
}

#[derive(Deserialize)]
#[serde(expecting = "EndpointConditions")]
struct EndpointConditions {
    ready: Option<bool>,
    serving: Option<bool>,
    terminating: Option<bool>,
}

#[derive(Deserialize)]
#[serde(expecting = "EndpointHints", rename_all = "camelCase")]
struct EndpointHints {
    for_zones: Option<Vec<ForZone>>,
    for_nodes: Option<Vec<ForNode>>,
}

#[derive(Deserialize)]
#[serde(expecting = "ForZone")]
struct ForZone {
    #[serde(default, deserialize_with = "shared")]
    name: Option<Arc<str>>,
}

#[derive(Deserialize)]
#[serde(expecting = "ForNode")]
struct ForNode {
    #[serde(default, deserialize_with = "shared")]
    name: Option<Arc<str>>,
}

#[derive(Deserialize)]
#[serde(expecting = "EndpointPort")]
struct EndpointPort {
    name: Option<String>,
    port: Option<i32>,
    protocol: Option<String>,
}

impl EndpointSlice {
    /// What a watcher reads of it.
    pub(crate) fn head(&mut self) -> Head {
        head(&mut self.metadata)
    }

    /// Whether `metadata.name` is given (the reader refuses a nameless EndpointSlice).
    pub(crate) fn has_name(&self) -> bool {
        self.metadata.as_ref().is_some_and(|m| m.name.is_some())
    }

    /// The model's EndpointSlice, as [`super::slice_from`] makes it from the k8s-openapi type.
    pub(crate) fn into_model(self) -> model::EndpointSlice {
        let meta = self.metadata.unwrap_or_default();
        let mut labels = meta.labels.unwrap_or_default();
        model::EndpointSlice {
            namespace: meta.namespace.unwrap_or_default(),
            name: meta.name.unwrap_or_default(),
            service_name: labels.remove(model::LABEL_SERVICE_NAME),
            managed_by: labels.remove(model::LABEL_MANAGED_BY),
            address_type: self.address_type.unwrap_or_default(),
            ports: (self.ports.into_iter().flatten())
                .map(|p| model::SlicePort { name: p.name, port: p.port, protocol: p.protocol })
                .collect(),
            endpoints: self.endpoints.into_iter().flatten().map(Endpoint::into_model).collect(),
        }
    }
}

impl Endpoint {
    fn into_model(self) -> model::Endpoint {
        let (ready, serving, terminating) = match self.conditions {
            Some(c) => (c.ready, c.serving, c.terminating),
            None => (None, None, None),
        };
        model::Endpoint {
            addresses: self.addresses.unwrap_or_default().into_boxed_slice(),
            ready,
            serving,
            terminating,
            node_name: self.node_name,
            zone: self.zone,
            hints: self.hints.map(|h| model::Hints {
                for_zones: h.for_zones.map(|z| z.into_iter().map(|z| z.name.unwrap_or_default()).collect()),
                for_nodes: h.for_nodes.map(|n| n.into_iter().map(|n| n.name.unwrap_or_default()).collect()),
            }),
        }
    }
}

#[cfg(test)]
mod tests;

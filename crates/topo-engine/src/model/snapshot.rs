//! The cluster as the engine sees it: only the fields the controller and kube-proxy read.
//!
//! Field semantics follow the Kubernetes API exactly, including the difference between an absent
//! value and an empty one (`None` vs `Some("")`, `None` vs `Some(vec![])`), because upstream treats
//! them differently in several places (docs/behaviour.md#inputs).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::cpu::CpuAmount;
use super::strmap::StrMap;

/// Label holding a node's zone; the only one upstream reads (`v1.LabelTopologyZone`).
pub const LABEL_ZONE: &str = "topology.kubernetes.io/zone";
/// Label naming a node's operating system (kube-proxy on Windows ignores hints).
pub const LABEL_OS: &str = "kubernetes.io/os";
/// Label key that excludes a node from the ratios, whatever its value (`hasExcludedLabels`).
pub const LABEL_CONTROL_PLANE: &str = "node-role.kubernetes.io/control-plane";
/// Legacy label key that excludes a node from the ratios, whatever its value (`hasExcludedLabels`).
pub const LABEL_MASTER: &str = "node-role.kubernetes.io/master";
/// The only Node labels anything reads. A Node carries a dozen or two others (instance type,
/// hostname, arch…); readers keep only these ([`Node::read_labels`]), which on 65,000 Nodes is
/// a few hundred megabytes less.
pub const NODE_LABELS_READ: [&str; 4] = [LABEL_ZONE, LABEL_OS, LABEL_CONTROL_PLANE, LABEL_MASTER];
/// Deprecated annotation; when present it wins over `topology-mode` (endpointslice `utils.go` `hintsEnabled`).
pub const ANNOTATION_TOPOLOGY_AWARE_HINTS: &str = "service.kubernetes.io/topology-aware-hints";
/// Annotation added in 1.27 (docs/behaviour.md#annotation).
pub const ANNOTATION_TOPOLOGY_MODE: &str = "service.kubernetes.io/topology-mode";
/// Label naming the Service of an EndpointSlice.
pub const LABEL_SERVICE_NAME: &str = "kubernetes.io/service-name";
/// Label naming the manager of an EndpointSlice.
pub const LABEL_MANAGED_BY: &str = "endpointslice.kubernetes.io/managed-by";
/// `managed-by` value of the EndpointSlice controller: only these slices are recomputed.
pub const CONTROLLER_NAME: &str = "endpointslice-controller.k8s.io";

/// Everything one run looks at: Nodes, Services, EndpointSlices and Events, plus where they came from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// All Nodes (cluster scope), in source order.
    pub nodes: Vec<Node>,
    /// Services in scope, in source order.
    pub services: Vec<Service>,
    /// EndpointSlices in scope (any manager, any address type), in source order.
    pub slices: Vec<EndpointSlice>,
    /// Events on Services in scope (core/v1 and events.k8s.io/v1 normalised).
    pub events: Vec<Event>,
    /// Facts about the source: server version, what could not be read.
    pub info: SourceInfo,
    /// Data-plane configuration read from the cluster, when readable (the optional reads,
    /// `model/dataplane.rs`).
    #[serde(default)]
    pub data_plane: super::dataplane::DataPlane,
    /// The workloads behind the Services, when a command reads them (`explain`;
    /// `model/workload.rs`); empty otherwise.
    #[serde(default, skip_serializing_if = "super::workload::Workloads::is_empty")]
    pub workloads: super::workload::Workloads,
}

/// Facts about where a Snapshot came from; shown in reports, never used by the algorithm.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceInfo {
    /// `dump:<path>` or `cluster:<context>`.
    pub origin: String,
    /// Server `gitVersion` when known (live `/version`, or recorded in a dump).
    pub server_version: Option<String>,
    /// True when Nodes could not be read (e.g. forbidden): zone weights are unknown.
    pub nodes_unavailable: bool,
    /// True when EndpointSlices were not read (a dump that holds none, while Services select
    /// Pods): which slices a Service has, and their hints, are unknown.
    #[serde(default)]
    pub slices_unavailable: bool,
    /// Human notes about partial data (one per missing resource).
    pub partial: Vec<String>,
}

/// A Node, reduced to what `SetNodes` and kube-proxy read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.labels`: those of [`NODE_LABELS_READ`] (zone, os, control-plane) when read
    /// from a cluster or a dump ([`Node::read_labels`]); any when built otherwise.
    pub labels: StrMap,
    /// `status.allocatable["cpu"]`, parsed exactly; `None` when absent.
    pub allocatable_cpu: Option<CpuAmount>,
    /// Status of the `Ready` condition: `Some("True")`, `Some("False")`, `Some("Unknown")`, or `None`
    /// when the condition is absent.
    pub ready: Option<String>,
    /// `status.nodeInfo.kubeletVersion`, when set: which version runs where a dump recorded no
    /// server version. Never read by the algorithm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubelet_version: Option<String>,
}

impl Node {
    /// The labels of [`NODE_LABELS_READ`] among `labels`.
    pub fn read_labels(mut labels: BTreeMap<String, String>) -> StrMap {
        // Already sorted: filtered in place and moved over, not sorted into a second map.
        labels.retain(|key, _| NODE_LABELS_READ.contains(&key.as_str()));
        StrMap::from(labels)
    }
}

/// A Service, reduced to what the controller and kube-proxy read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Service {
    /// `metadata.namespace`.
    pub namespace: String,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.labels` (for `-l`).
    pub labels: StrMap,
    /// `metadata.annotations`: those anything reads when read from a cluster or a dump.
    pub annotations: StrMap,
    /// True when `spec.selector` is set (even if empty); `false` for selector-less Services.
    pub has_selector: bool,
    /// `spec.selector`'s labels: which pod templates back the Service when its Pods are not read
    /// (`model/workload.rs`).
    #[serde(default, skip_serializing_if = "StrMap::is_empty")]
    pub selector: StrMap,
    /// `spec.type` (`ClusterIP` when absent).
    pub service_type: String,
    /// `spec.clusterIP`: `"None"` for headless ([`Service::is_headless`]); `None` (or `""`) when a
    /// manifest leaves it out, which the API server fills with an allocated address.
    pub cluster_ip: Option<String>,
    /// `spec.ipFamilies` as written (`IPv4`, `IPv6`).
    pub ip_families: Vec<String>,
    /// `spec.trafficDistribution` as written (any string).
    pub traffic_distribution: Option<String>,
    /// `spec.internalTrafficPolicy` (`Cluster` when absent).
    pub internal_traffic_policy: Option<String>,
    /// `spec.externalTrafficPolicy` (`Cluster` when absent).
    pub external_traffic_policy: Option<String>,
    /// nodePort ≠ 0 on some port, any LoadBalancer ingress IP, or any externalIP (kube-proxy's
    /// `ExternallyAccessible`, k/k `pkg/proxy/serviceport.go`).
    pub externally_accessible: bool,
    /// `spec.publishNotReadyAddresses`.
    pub publish_not_ready_addresses: bool,
    /// `spec.ports[]`: name, port, protocol.
    pub ports: Vec<ServicePort>,
    /// Where the Service stands in the dump it was read from (SARIF places its results there).
    #[serde(skip)]
    pub line: SourceLine,
}

/// The 1-based line where an object starts in the dump it was read from: none for a live read,
/// or YAML the full parser read (it keeps no lines). Where an object stands is not what it is, so
/// two are equal wherever they stand: the same dump as JSON and as YAML, compact or pretty.
#[derive(Debug, Clone, Copy, Default)]
pub struct SourceLine(pub Option<std::num::NonZeroU32>);

impl PartialEq for SourceLine {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Service {
    /// Headless: `clusterIP: None`, the only spelling the API server keeps. An absent or empty
    /// `clusterIP` (a manifest, `kubectl create --dry-run -o yaml`) is allocated an address when
    /// the Service is created, so such a Service is not headless.
    pub fn is_headless(&self) -> bool {
        self.cluster_ip.as_deref() == Some("None")
    }
}

/// One Service port.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServicePort {
    /// Port name (empty when unnamed).
    pub name: String,
    /// Port number.
    pub port: i32,
    /// `TCP`, `UDP` or `SCTP`.
    pub protocol: String,
    /// `nodePort`, 0 when unset.
    pub node_port: i32,
}

/// An EndpointSlice of any manager and address type.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EndpointSlice {
    /// `metadata.namespace`.
    pub namespace: String,
    /// `metadata.name`.
    pub name: String,
    /// Label `kubernetes.io/service-name`, when present.
    pub service_name: Option<String>,
    /// Label `endpointslice.kubernetes.io/managed-by`, when present.
    pub managed_by: Option<String>,
    /// `addressType`: `IPv4`, `IPv6` or `FQDN`.
    pub address_type: String,
    /// `ports[]` (name, port, protocol).
    pub ports: Vec<SlicePort>,
    /// `endpoints[]` in slice order.
    pub endpoints: Vec<Endpoint>,
}

impl EndpointSlice {
    /// True when the EndpointSlice controller owns this slice (labels only, docs/behaviour.md#inputs).
    pub fn is_controller_managed(&self) -> bool {
        self.managed_by.as_deref() == Some(CONTROLLER_NAME)
    }

    /// True when the slice is labelled with `service`'s name, in its namespace (any manager).
    pub fn is_for(&self, service: &Service) -> bool {
        self.namespace == service.namespace && self.service_name.as_deref() == Some(service.name.as_str())
    }
}

/// One EndpointSlice port.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlicePort {
    /// Port name; `None` when absent.
    pub name: Option<String>,
    /// Port number; `None` when absent.
    pub port: Option<i32>,
    /// Protocol; `None` when absent.
    pub protocol: Option<String>,
}

/// One endpoint of a slice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    /// `addresses[]`, at their length (a boxed slice: 16 bytes, not a `Vec`'s 24).
    pub addresses: Box<[String]>,
    /// `conditions.ready` (`None` when absent).
    pub ready: Option<bool>,
    /// `conditions.serving`.
    pub serving: Option<bool>,
    /// `conditions.terminating`.
    pub terminating: Option<bool>,
    /// `nodeName`: one string shared by every endpoint on that node when read through
    /// [`super::Names`] (a million endpoints name a few thousand nodes).
    #[serde(default, with = "super::shared::name")]
    pub node_name: Option<Arc<str>>,
    /// `zone`: one string shared per zone when read through [`super::Names`].
    #[serde(default, with = "super::shared::name")]
    pub zone: Option<Arc<str>>,
    /// `hints` (`None` when absent).
    pub hints: Option<Hints>,
}

impl Endpoint {
    /// Readiness as the controller reads it: present and true (endpointslice `topologycache/utils.go` `EndpointReady`).
    pub fn controller_ready(&self) -> bool {
        self.ready == Some(true)
    }
}

/// Names in a hint, at their length: a boxed slice is 16 bytes to a `Vec`'s 24, and a million
/// endpoints hold two each (with its addresses boxed too an [`Endpoint`] is 96 bytes, 112 before;
/// a test holds it).
pub type NameList = Box<[Arc<str>]>;

/// `endpoints[].hints`. Each list keeps the absent/empty distinction.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hints {
    /// `forZones[].name`; `None` when the field is absent.
    #[serde(default, with = "super::shared::names")]
    pub for_zones: Option<NameList>,
    /// `forNodes[].name`; `None` when the field is absent.
    #[serde(default, with = "super::shared::names")]
    pub for_nodes: Option<NameList>,
}

impl Hints {
    /// Hints of exactly one zone, as the annotation path writes them.
    pub fn zone(zone: &str) -> Self {
        Hints { for_zones: Some([zone.into()].into()), for_nodes: None }
    }
}

/// An Event on a Service, normalised from core/v1 or events.k8s.io/v1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// Namespace of the involved object.
    pub namespace: String,
    /// Kind of the involved object (`Service` for the ones we show).
    pub object_kind: String,
    /// Name of the involved object.
    pub object_name: String,
    /// `Normal` or `Warning`.
    #[serde(rename = "type")]
    pub event_type: String,
    /// Reason, e.g. `TopologyAwareHintsDisabled`.
    pub reason: String,
    /// Message.
    pub message: String,
    /// Repeat count (1 when unknown).
    pub count: i32,
    /// Last time seen, RFC 3339, as recorded.
    pub last_seen: Option<String>,
    /// Reporting component, e.g. `endpoint-slice-controller`.
    pub source: Option<String>,
}

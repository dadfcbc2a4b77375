//! One object of a kind a dump is read for, into the model: its kind from `apiVersion` + `kind`
//! ([`kind_of`]), then Nodes, Services and EndpointSlices into their lean types ([`lean`], also
//! straight from the JSON reader's item), the rest from a `Value` through k8s-openapi or the
//! optional, workload and front-door converters ([`decode`]). What is wrong with an object is said
//! with the path of its field. Which objects a dump holds, in what order, is the dump reader's.

use std::collections::BTreeMap;

use serde::de::Deserializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::error::Category;

use super::lean as lean_types;
use topo_engine::model::{self, OptionalObject, ReadStatus, WorkloadObject};

/// `apiVersion` of the [`ClusterInfo`] item that `kubectl topo dump` writes.
pub const CLUSTER_INFO_API_VERSION: &str = "kubectl-topo/v1alpha1";
/// `kind` of the [`ClusterInfo`] item.
pub const CLUSTER_INFO_KIND: &str = "ClusterInfo";

/// Facts about the dumped cluster that no Kubernetes object carries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterInfo {
    /// Server `gitVersion`, e.g. `v1.36.2`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_version: Option<String>,
    /// True when the Nodes could not be listed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nodes_unavailable: bool,
    /// Notes about data that could not be read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partial: Vec<String>,
    /// The optional reads that found nothing when the dump was made (absent, forbidden, failed):
    /// replayed as such instead of "not in the dump".
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub optional_reads: BTreeMap<OptionalObject, ReadStatus>,
    /// The workload reads that found nothing when the dump was made (forbidden, failed): replayed
    /// as such instead of "not in the dump".
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub workload_reads: BTreeMap<WorkloadObject, ReadStatus>,
}

/// Object kinds a dump is read for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Node,
    Service,
    EndpointSlice,
    /// A `discovery.k8s.io/v1beta1` EndpointSlice: refused, saying how to re-dump (skipping it
    /// would make every Service look unmanaged).
    RetiredSlice,
    CoreEvent,
    EventsV1Event,
    ConfigMap,
    DaemonSet,
    /// A kind of the workload reads (`convert::workload`).
    Workload(WorkloadObject),
    /// A front door's object (`convert::frontdoor`: routes, Gateways, classes, policies, Namespaces).
    FrontDoor(super::frontdoor::FrontKind),
    ClusterInfo,
}

pub(crate) fn kind_of(api_version: &str, kind: &str) -> Option<Kind> {
    Some(match (api_version, kind) {
        ("v1", "Node") => Kind::Node,
        ("v1", "Service") => Kind::Service,
        ("discovery.k8s.io/v1", "EndpointSlice") => Kind::EndpointSlice,
        ("discovery.k8s.io/v1beta1", "EndpointSlice") => Kind::RetiredSlice,
        ("v1", "Event") => Kind::CoreEvent,
        ("events.k8s.io/v1", "Event") => Kind::EventsV1Event,
        ("v1", "ConfigMap") => Kind::ConfigMap,
        ("apps/v1", "DaemonSet") => Kind::DaemonSet,
        (CLUSTER_INFO_API_VERSION, CLUSTER_INFO_KIND) => Kind::ClusterInfo,
        (api_version, kind) => match super::workload::object_named(api_version, kind) {
            Some(object) => Kind::Workload(object),
            None => Kind::FrontDoor(super::frontdoor::front_list(api_version, kind)?.kind),
        },
    })
}

impl Kind {
    /// The lower-case kind messages name (`node`).
    pub(crate) fn label(self) -> &'static str {
        match self {
            Kind::Node => "node",
            Kind::Service => "service",
            Kind::EndpointSlice | Kind::RetiredSlice => "endpointslice",
            Kind::CoreEvent | Kind::EventsV1Event => "event",
            Kind::ConfigMap => "configmap",
            Kind::DaemonSet => "daemonset",
            Kind::Workload(object) => super::workload::object_label(object),
            Kind::FrontDoor(kind) => kind.label(),
            Kind::ClusterInfo => "clusterinfo",
        }
    }
}

/// One object converted, before the reader records it.
pub(crate) enum Object {
    Node(model::Node),
    Service(model::Service),
    Slice(model::EndpointSlice),
    Event(model::Event),
    /// One of the optional reads (`convert::optional`), with its namespace and name.
    Optional(super::optional::Found, String, String),
    /// One of the workload reads (`convert::workload`).
    Workload(super::workload::Found),
    Info(ClusterInfo),
}

impl Object {
    /// Kind, namespace and name, for the objects a dump must list once. Events are not keyed: the
    /// model keeps only the object they are about, and a repeated Event changes no verdict.
    pub(crate) fn key(&self) -> Option<(&'static str, &str, &str)> {
        Some(match self {
            Object::Node(node) => ("node", "", &node.name),
            Object::Service(service) => ("service", &service.namespace, &service.name),
            Object::Slice(slice) => ("endpointslice", &slice.namespace, &slice.name),
            Object::Optional(found, ns, name) => (found.kind_label(), ns, name),
            Object::Workload(found) => found.key(),
            Object::Info(_) => ("clusterinfo", "", ""),
            Object::Event(_) => return None,
        })
    }
}

/// An object of a kind read, converted: the model object, or what is wrong with it. Boxed: a List's
/// objects wait in a vector until recorded, and most are small.
pub(crate) struct Decoded {
    pub(crate) kind: Kind,
    pub(crate) name: String,
    pub(crate) result: Result<Box<Object>, String>,
}

/// `metadata.name`, empty when absent.
pub(crate) fn name_of(value: &Value) -> String {
    value.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("").to_string()
}

/// Converts one object of a kind read; `None` for one that is none of the optional reads (a
/// ConfigMap, DaemonSet, Deployment or Pod of no interest, `convert::optional`), which is counted.
pub(crate) fn decode(kind: Kind, value: Value) -> Option<Decoded> {
    use super::{frontdoor, optional};
    let name = name_of(&value);
    let result = match kind {
        Kind::Node | Kind::Service | Kind::EndpointSlice => match lean_at_path(kind, value) {
            Ok(Ok(decoded)) => return Some(decoded),
            Ok(Err(message)) => Err(message),
            Err(err) => Err(json_message(&err)),
        },
        // The API server never stores one; rows and messages would name nothing.
        Kind::Workload(_) if value.pointer("/metadata/name").is_none() => {
            Err("metadata.name is missing".to_string())
        }
        Kind::CoreEvent => typed(value).map(|e| Some(Object::Event(super::event_from_core(&e)))),
        Kind::EventsV1Event => typed(value).map(|e| Some(Object::Event(super::event_from_events_v1(&e)))),
        // Only the optional reads' objects are read; other ConfigMaps and DaemonSets are counted
        // as skipped.
        Kind::ConfigMap => typed::<k8s_openapi::api::core::v1::ConfigMap>(value).map(|cm| {
            let (ns, name) = (cm.metadata.namespace.clone(), cm.metadata.name.clone());
            optional::from_config_map(&cm)
                .map(|found| Object::Optional(found, ns.unwrap_or_default(), name.unwrap_or_default()))
        }),
        Kind::DaemonSet => {
            let (ns, name, containers) = optional::daemon_set_parts(&value);
            Ok(optional::from_daemon_set(&ns, &name, &containers).map(|f| Object::Optional(f, ns, name)))
        }
        // ingress-nginx's controller is an optional read, not a workload behind a Service.
        Kind::Workload(WorkloadObject::Deployments) if optional::is_optional_deployment(&value) => {
            let (ns, name, containers) = optional::deployment_parts(&value);
            Ok(optional::from_deployment(&ns, &name, &containers).map(|f| Object::Optional(f, ns, name)))
        }
        // A front door's Pod (its labels) tells where requests come from, not a workload's.
        Kind::Workload(WorkloadObject::Pods) if frontdoor::is_front_pod(&value) => typed(value)
            .map(|pod| frontdoor::pod_found(pod).map(|(f, ns)| Object::Optional(f, ns, name.clone()))),
        Kind::Workload(object) => super::workload::Found::decode(object, value)
            .map(|f| Some(Object::Workload(f)))
            .map_err(|e| e.to_string()),
        Kind::FrontDoor(kind) => typed::<frontdoor::LeanItem>(value).map(|item| {
            let ns = item.namespace().to_string();
            let found = optional::Found::FrontDoor(kind, frontdoor::front_object(kind, item));
            Some(Object::Optional(found, ns, name.clone()))
        }),
        Kind::ClusterInfo => typed::<ClusterInfo>(value).map(|info| Some(Object::Info(info))),
        Kind::RetiredSlice => {
            Err("discovery.k8s.io/v1beta1 is not read (the API served it until Kubernetes 1.25; \
             1.21+ serves discovery.k8s.io/v1): re-create the dump with \
             `kubectl get endpointslices.v1.discovery.k8s.io -A -o yaml`"
                .to_string())
        }
    };
    Some(Decoded { kind, name, result: result.transpose()?.map(Box::new) })
}

/// Endpoints an EndpointSlice may hold: the API server refuses more (k8s.io/api discovery/v1
/// `EndpointSlice.endpoints`: "Each slice may include a maximum of 1000 endpoints";
/// pkg/apis/discovery/validation: `maxEndpoints`).
const MAX_SLICE_ENDPOINTS: usize = 1000;

/// A Node, Service or EndpointSlice decoded straight into its lean type: the model object, or why
/// not.
pub(crate) fn lean<'de, D: Deserializer<'de>>(kind: Kind, de: D) -> Result<Decoded, D::Error> {
    const NAMELESS: &str = "metadata.name is missing";
    let (name, result) = match kind {
        Kind::Node => match lean_types::Node::deserialize(de)? {
            node if node.has_name() => {
                let name = node.name().to_string();
                (name, node.into_model().map(Object::Node).map_err(|err| err.to_string()))
            }
            _ => (String::new(), Err(NAMELESS.to_string())),
        },
        Kind::Service => match lean_types::Service::deserialize(de)? {
            service if service.has_name() => {
                let service = service.into_model();
                (service.name.clone(), Ok(Object::Service(service)))
            }
            _ => (String::new(), Err(NAMELESS.to_string())),
        },
        _ => match lean_types::EndpointSlice::deserialize(de)? {
            slice if slice.has_name() => {
                let slice = slice.into_model();
                match slice.endpoints.len() {
                    // The API server would never have stored it.
                    count if count > MAX_SLICE_ENDPOINTS => (
                        slice.name,
                        Err(format!(
                            "endpoints: {count} endpoints, but an EndpointSlice holds at most {MAX_SLICE_ENDPOINTS} (the API server refuses more)"
                        )),
                    ),
                    _ => (slice.name.clone(), Ok(Object::Slice(slice))),
                }
            }
            _ => (String::new(), Err(NAMELESS.to_string())),
        },
    };
    Ok(Decoded { kind, name, result: result.map(Box::new) })
}

/// [`lean`], or what does not decode said with the path of its field; an error of the text
/// itself (a number out of range, a lone surrogate) is the error.
pub(crate) fn lean_at_path<'de, D>(kind: Kind, de: D) -> serde_json::Result<Result<Decoded, String>>
where
    D: Deserializer<'de, Error = serde_json::Error>,
{
    let mut track = serde_path_to_error::Track::new();
    match lean(kind, serde_path_to_error::Deserializer::new(de, &mut track)) {
        Ok(decoded) => Ok(Ok(decoded)),
        Err(err) if err.classify() != Category::Data => Err(err),
        Err(err) => Ok(Err(match track.path().to_string().as_str() {
            "." => json_message(&err),
            path => format!("{path}: {}", json_message(&err)),
        })),
    }
}

/// Decodes into a typed object; the message names the offending field path.
fn typed<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, String> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner().to_string();
        if path == "." { inner } else { format!("{path}: {inner}") }
    })
}

/// serde_json's message without the location it appends (the readers print their own).
pub(crate) fn json_message(err: &serde_json::Error) -> String {
    let message = err.to_string();
    match message.rsplit_once(" at line ") {
        // Its limit on values built (a skipped value may nest deeper: it is skipped without recursion).
        Some(("recursion limit exceeded", _)) => "nested deeper than 127 levels".to_string(),
        Some((what, _)) => what.to_string(),
        None => message,
    }
}

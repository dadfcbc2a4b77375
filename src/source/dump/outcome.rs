//! What one object of a dump is, decided from its `Value`: counted as skipped, decoded into the
//! model (or why not), or refused. Deciding needs no reader state; the [`Reader`](super::Reader)
//! records the results in order (indexes, duplicates, the first error). YAML documents, top-level
//! JSON values and the few List items the JSON reader does not decode straight into lean types
//! (Events, ConfigMaps, nested Lists) come here.

use serde::Deserialize;
use serde::de::Deserializer;
use serde_json::Value;
use serde_json::error::Category;

use super::convert::lean as lean_types;
use super::{CLUSTER_INFO_API_VERSION, CLUSTER_INFO_KIND, ClusterInfo, Inherited, convert, json_message};

/// Object kinds we read.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Node,
    Service,
    EndpointSlice,
    CoreEvent,
    EventsV1Event,
    ConfigMap,
    DaemonSet,
    /// A kind of the workload reads (`convert::workload`).
    Workload(topo_engine::model::WorkloadObject),
    /// A front door's object (`convert::frontdoor`: routes, Gateways, classes, policies, Namespaces).
    FrontDoor(convert::frontdoor::FrontKind),
    ClusterInfo,
}

pub(super) fn kind_of(api_version: &str, kind: &str) -> Option<Kind> {
    Some(match (api_version, kind) {
        ("v1", "Node") => Kind::Node,
        ("v1", "Service") => Kind::Service,
        ("discovery.k8s.io/v1", "EndpointSlice") => Kind::EndpointSlice,
        ("v1", "Event") => Kind::CoreEvent,
        ("events.k8s.io/v1", "Event") => Kind::EventsV1Event,
        ("v1", "ConfigMap") => Kind::ConfigMap,
        ("apps/v1", "DaemonSet") => Kind::DaemonSet,
        (CLUSTER_INFO_API_VERSION, CLUSTER_INFO_KIND) => Kind::ClusterInfo,
        (api_version, kind) => match convert::workload::object_named(api_version, kind) {
            Some(object) => Kind::Workload(object),
            None => Kind::FrontDoor(convert::frontdoor::front_list(api_version, kind)?.kind),
        },
    })
}

/// One object of a dump, decided.
pub(super) enum Outcome {
    /// Not read: counted under this key (`"apps/v1 Deployment"`, `"(not an object)"`).
    Skip(String),
    /// An object of a kind we read: the model object (`None`: a ConfigMap or DaemonSet that is
    /// none of the optional reads, `convert::optional`), or what is wrong with it. Boxed: a List's outcomes wait in a vector until
    /// recorded, and most are small.
    Decoded { kind: Kind, name: String, result: Result<Option<Box<Object>>, String> },
}

/// One object read, before it is recorded.
pub(super) enum Object {
    Node(topo_engine::model::Node),
    Service(topo_engine::model::Service),
    Slice(topo_engine::model::EndpointSlice),
    Event(topo_engine::model::Event),
    /// One of the optional reads (`convert::optional`), with its namespace and name.
    Optional(convert::optional::Found, String, String),
    /// One of the workload reads (`convert::workload`).
    Workload(convert::workload::Found),
    Info(ClusterInfo),
}

/// Decides `value` found `depth` Lists deep, items of a List first to last, into `out`.
pub(super) fn classify(value: Value, inherited: Inherited<'_>, depth: usize, out: &mut Vec<Outcome>) {
    let Value::Object(mut map) = value else {
        if !value.is_null() {
            out.push(Outcome::Skip("(not an object)".to_string()));
        }
        return;
    };
    let field = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_string);
    let (api_version, kind) = match (field("apiVersion"), field("kind"), inherited) {
        (Some(api_version), Some(kind), _) => (api_version, kind),
        (None, None, Some((api_version, kind))) => (api_version.to_string(), kind.to_string()),
        (api_version, kind, _) => {
            let key = match (api_version, kind) {
                (Some(api_version), None) => format!("{api_version} without kind"),
                (None, Some(kind)) => format!("{kind} without apiVersion"),
                _ => "objects without apiVersion and kind".to_string(),
            };
            out.push(Outcome::Skip(key));
            return;
        }
    };
    if kind.ends_with("List") && depth < 2 {
        match map.remove("items") {
            Some(Value::Array(items)) => {
                let item_kind = kind.trim_end_matches("List");
                let inherited = (kind != "List").then_some((api_version.as_str(), item_kind));
                for item in items {
                    classify(item, inherited, depth + 1, out);
                }
                return;
            }
            Some(other) => drop(map.insert("items".to_string(), other)),
            None => {}
        }
    }
    out.push(match kind_of(&api_version, &kind) {
        Some(kind) => decode(kind, Value::Object(map)),
        // Skipping these would make every Service look unmanaged: refused, saying how to re-dump.
        None if (api_version.as_str(), kind.as_str()) == ("discovery.k8s.io/v1beta1", "EndpointSlice") => {
            let message = "discovery.k8s.io/v1beta1 is not read (the API served it until Kubernetes 1.25; \
                           1.21+ serves discovery.k8s.io/v1): re-create the dump with \
                           `kubectl get endpointslices.v1.discovery.k8s.io -A -o yaml`";
            let name = name_of(&Value::Object(map));
            Outcome::Decoded { kind: Kind::EndpointSlice, name, result: Err(message.to_string()) }
        }
        None => Outcome::Skip(format!("{api_version} {kind}")),
    });
}

/// `metadata.name`, empty when absent.
pub(super) fn name_of(value: &Value) -> String {
    value.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("").to_string()
}

/// Decodes one object of a kind we read.
pub(super) fn decode(kind: Kind, value: Value) -> Outcome {
    let name = name_of(&value);
    let result = match kind {
        Kind::Node | Kind::Service | Kind::EndpointSlice => match lean_at_path(kind, value) {
            Ok(Ok(outcome)) => return outcome,
            Ok(Err(message)) => Err(message),
            Err(err) => Err(json_message(&err)),
        },
        // The API server never stores one; rows and messages would name nothing.
        Kind::Workload(_) if value.pointer("/metadata/name").is_none() => {
            Err("metadata.name is missing".to_string())
        }
        Kind::CoreEvent => typed(value).map(|e| Some(Object::Event(convert::event_from_core(&e)))),
        Kind::EventsV1Event => typed(value).map(|e| Some(Object::Event(convert::event_from_events_v1(&e)))),
        // Only the optional reads' objects are read; other ConfigMaps and DaemonSets are counted
        // as skipped.
        Kind::ConfigMap => typed::<k8s_openapi::api::core::v1::ConfigMap>(value).map(|cm| {
            let (ns, name) = (cm.metadata.namespace.clone(), cm.metadata.name.clone());
            convert::optional::from_config_map(&cm)
                .map(|found| Object::Optional(found, ns.unwrap_or_default(), name.unwrap_or_default()))
        }),
        Kind::DaemonSet => {
            let (ns, name, containers) = convert::optional::daemon_set_parts(&value);
            Ok(convert::optional::from_daemon_set(&ns, &name, &containers)
                .map(|f| Object::Optional(f, ns, name)))
        }
        // ingress-nginx's controller is an optional read, not a workload behind a Service.
        Kind::Workload(topo_engine::model::WorkloadObject::Deployments)
            if convert::optional::is_optional_deployment(&value) =>
        {
            let (ns, name, containers) = convert::optional::deployment_parts(&value);
            Ok(convert::optional::from_deployment(&ns, &name, &containers)
                .map(|f| Object::Optional(f, ns, name)))
        }
        // A front door's Pod (its labels) tells where requests come from, not a workload's.
        Kind::Workload(topo_engine::model::WorkloadObject::Pods)
            if convert::frontdoor::is_front_pod(&value) =>
        {
            typed(value).map(|pod| {
                convert::frontdoor::pod_found(pod).map(|(f, ns)| Object::Optional(f, ns, name.clone()))
            })
        }
        Kind::Workload(object) => convert::workload::Found::decode(object, value)
            .map(|f| Some(Object::Workload(f)))
            .map_err(|e| e.to_string()),
        Kind::FrontDoor(kind) => typed::<convert::frontdoor::LeanItem>(value).map(|item| {
            let ns = item.namespace().to_string();
            let found =
                convert::optional::Found::FrontDoor(kind, convert::frontdoor::front_object(kind, item));
            Some(Object::Optional(found, ns, name.clone()))
        }),
        Kind::ClusterInfo => typed::<ClusterInfo>(value).map(|info| Some(Object::Info(info))),
    };
    Outcome::Decoded { kind, name, result: result.map(|object| object.map(Box::new)) }
}

/// Endpoints an EndpointSlice may hold: the API server refuses more (k8s.io/api discovery/v1
/// `EndpointSlice.endpoints`: "Each slice may include a maximum of 1000 endpoints";
/// pkg/apis/discovery/validation: `maxEndpoints`).
const MAX_SLICE_ENDPOINTS: usize = 1000;

/// A Node, Service or EndpointSlice decoded straight into its lean type: the model object, or why
/// not.
pub(super) fn lean<'de, D: Deserializer<'de>>(kind: Kind, de: D) -> Result<Outcome, D::Error> {
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
    Ok(Outcome::Decoded { kind, name, result: result.map(|object| Some(Box::new(object))) })
}

/// [`lean`], or what does not decode said with the path of its field; an error of the text
/// itself (a number out of range, a lone surrogate) is the error.
pub(super) fn lean_at_path<'de, D>(kind: Kind, de: D) -> serde_json::Result<Result<Outcome, String>>
where
    D: Deserializer<'de, Error = serde_json::Error>,
{
    let mut track = serde_path_to_error::Track::new();
    match lean(kind, serde_path_to_error::Deserializer::new(de, &mut track)) {
        Ok(outcome) => Ok(Ok(outcome)),
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

//! The optional reads (docs/architecture.md#optional-reads): cluster objects a report can do
//! without, read best effort, each with a [`ReadStatus`] the report shows. One table
//! ([`OPTIONAL_READS`]) says what they are; the live reader gets each one by name (RBAC-tolerant,
//! bounded in time), the dump reader recognises them among a dump's objects, `dump` writes them
//! (reduced to what is read) with the status of those it could not read, and `--redact` reduces
//! their free text. Pure: the I/O is `source/live/optional.rs`.

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1 as apps;
use k8s_openapi::api::core::v1 as core;
use serde_json::{Value, json};

use topo_engine::model::{
    CILIUM_KEYS, CiliumConfig, DataPlane, IngressController, Linkerd, OptionalObject, ReadStatus,
    ingress_nginx_topology_flag, kube_proxy_mode,
};

/// The kind of an optional object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ObjectKind {
    /// `v1 ConfigMap`.
    ConfigMap,
    /// `apps/v1 DaemonSet`.
    DaemonSet,
    /// `apps/v1 Deployment` (its containers' images and arguments).
    Deployment,
}

/// One optional read: which object, where, by which names (the first found wins), and what of it
/// is kept.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OptionalRead {
    /// What it stands for in the model.
    pub(crate) object: OptionalObject,
    /// Its kind.
    pub(crate) kind: ObjectKind,
    /// Its namespace.
    pub(crate) namespace: &'static str,
    /// Its names, by distribution (kubeadm and AKS `kube-proxy`, EKS `kube-proxy-config`).
    pub(crate) names: &'static [&'static str],
    /// ConfigMap: the data keys kept. DaemonSet: the container whose image is read (else the first).
    pub(crate) keys: &'static [&'static str],
}

/// The data keys of kube-proxy's ConfigMap holding its KubeProxyConfiguration.
const KUBE_PROXY_KEYS: [&str; 2] = ["config.conf", "config"];

/// Every optional read by name (the front doors' lists are `convert::frontdoor::FRONT_LISTS`).
/// `deploy/rbac.yaml` grants `get` on exactly these names.
pub(crate) const OPTIONAL_READS: [OptionalRead; 9] = [
    OptionalRead {
        object: OptionalObject::CiliumConfig,
        kind: ObjectKind::ConfigMap,
        namespace: "kube-system",
        names: &["cilium-config"],
        keys: &CILIUM_KEYS,
    },
    OptionalRead {
        object: OptionalObject::CiliumAgent,
        kind: ObjectKind::DaemonSet,
        namespace: "kube-system",
        names: &["cilium"],
        keys: &["cilium-agent"],
    },
    OptionalRead {
        object: OptionalObject::KubeProxyConfig,
        kind: ObjectKind::ConfigMap,
        namespace: "kube-system",
        names: &["kube-proxy", "kube-proxy-config"],
        keys: &KUBE_PROXY_KEYS,
    },
    OptionalRead {
        object: OptionalObject::KubeProxyAgent,
        kind: ObjectKind::DaemonSet,
        namespace: "kube-system",
        names: &["kube-proxy"],
        keys: &["kube-proxy"],
    },
    OptionalRead {
        object: OptionalObject::Ztunnel,
        kind: ObjectKind::DaemonSet,
        namespace: "istio-system",
        names: &["ztunnel"],
        keys: &["istio-proxy"],
    },
    // OVN-Kubernetes' node DaemonSet: upstream's manifests, then OpenShift's (one object, two places).
    OptionalRead {
        object: OptionalObject::OvnKubeNode,
        kind: ObjectKind::DaemonSet,
        namespace: "ovn-kubernetes",
        names: &["ovnkube-node"],
        keys: &["ovnkube-node", "ovnkube-controller"],
    },
    OptionalRead {
        object: OptionalObject::OvnKubeNode,
        kind: ObjectKind::DaemonSet,
        namespace: "openshift-ovn-kubernetes",
        names: &["ovnkube-node"],
        keys: &["ovnkube-node", "ovnkube-controller"],
    },
    OptionalRead {
        object: OptionalObject::IngressNginxController,
        kind: ObjectKind::Deployment,
        namespace: super::frontdoor::INGRESS_NGINX_NAMESPACE,
        names: &[super::frontdoor::INGRESS_NGINX_DEPLOYMENT],
        keys: &["controller"],
    },
    OptionalRead {
        object: OptionalObject::LinkerdConfig,
        kind: ObjectKind::ConfigMap,
        namespace: "linkerd",
        names: &["linkerd-config"],
        keys: &["values"],
    },
];

/// The most telling of two statuses of one object read in two places (OVN-Kubernetes'): read,
/// then forbidden, then failed, then absent.
pub(crate) fn merge(a: ReadStatus, b: ReadStatus) -> ReadStatus {
    let rank = |s: ReadStatus| match s {
        ReadStatus::Read => 0,
        ReadStatus::Forbidden => 1,
        ReadStatus::Failed => 2,
        ReadStatus::Absent => 3,
        ReadStatus::NotInDump => 4,
    };
    if rank(a) <= rank(b) { a } else { b }
}

/// The optional read an object of `kind` named `namespace/name` answers, if any.
pub(crate) fn optional_read(kind: ObjectKind, namespace: &str, name: &str) -> Option<&'static OptionalRead> {
    OPTIONAL_READS.iter().find(|r| r.kind == kind && r.namespace == namespace && r.names.contains(&name))
}

/// What an optional object contributes to the model.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Found {
    /// cilium-config's keys.
    Cilium(CiliumConfig),
    /// kube-proxy's configured mode.
    KubeProxyMode(Option<String>),
    /// A DaemonSet's image.
    Image(OptionalObject, Option<String>),
    /// A front door's object, from one of its lists (`convert::frontdoor`).
    FrontDoor(super::frontdoor::FrontKind, super::frontdoor::FrontObject),
    /// linkerd-config's values.
    Linkerd(Linkerd),
    /// ingress-nginx's controller Deployment.
    IngressNginx(IngressController),
}

impl Found {
    /// The kind of object it came from, as a dump's messages name it.
    pub(crate) fn kind_label(&self) -> &'static str {
        match self {
            Found::Image(..) => "daemonset",
            Found::IngressNginx(_) => "deployment",
            Found::Cilium(_) | Found::KubeProxyMode(_) | Found::Linkerd(_) => "configmap",
            Found::FrontDoor(kind, _) => kind.label(),
        }
    }

    /// Puts what was found into `data_plane` and marks the read done.
    pub(crate) fn apply(self, data_plane: &mut DataPlane) {
        let object = match self {
            Found::Cilium(config) => {
                data_plane.cilium = Some(config);
                OptionalObject::CiliumConfig
            }
            Found::KubeProxyMode(mode) => {
                data_plane.kube_proxy_mode = mode;
                OptionalObject::KubeProxyConfig
            }
            Found::Image(object, image) => {
                match object {
                    OptionalObject::CiliumAgent => data_plane.cilium_image = image,
                    OptionalObject::Ztunnel => data_plane.front_doors.ztunnel_image = image,
                    OptionalObject::OvnKubeNode => data_plane.ovn_kubernetes_image = image,
                    _ => data_plane.kube_proxy_image = image,
                }
                object
            }
            Found::FrontDoor(kind, found) => {
                found.apply(data_plane);
                kind.object()
            }
            Found::Linkerd(linkerd) => {
                data_plane.front_doors.linkerd = Some(linkerd);
                OptionalObject::LinkerdConfig
            }
            Found::IngressNginx(controller) => {
                data_plane.front_doors.ingress_nginx = Some(controller);
                OptionalObject::IngressNginxController
            }
        };
        data_plane.reads.insert(object, ReadStatus::Read);
    }
}

/// A ConfigMap's contribution, when it is one of the optional reads.
pub(crate) fn from_config_map(config_map: &core::ConfigMap) -> Option<Found> {
    let meta = &config_map.metadata;
    let read = optional_read(ObjectKind::ConfigMap, meta.namespace.as_deref()?, meta.name.as_deref()?)?;
    let data = config_map.data.clone().unwrap_or_default();
    Some(match read.object {
        OptionalObject::CiliumConfig => Found::Cilium(CiliumConfig::from_data(|key| data.get(key).cloned())),
        OptionalObject::LinkerdConfig => {
            Found::Linkerd(Linkerd::from_values(data.get("values").map_or("", String::as_str)))
        }
        _ => {
            Found::KubeProxyMode(read.keys.iter().find_map(|k| data.get(*k)).and_then(|c| kube_proxy_mode(c)))
        }
    })
}

/// A DaemonSet's contribution (`namespace/name`, its containers' `(name, image)`), when it is one
/// of the optional reads: the image of the container the read names, else of the first.
pub(crate) fn from_daemon_set(
    namespace: &str,
    name: &str,
    containers: &[(String, Option<String>)],
) -> Option<Found> {
    let read = optional_read(ObjectKind::DaemonSet, namespace, name)?;
    let named = containers.iter().find(|(n, _)| read.keys.contains(&n.as_str()));
    let image = named.or(containers.first()).and_then(|(_, image)| image.clone());
    Some(Found::Image(read.object, image))
}

/// A Deployment's contribution (`namespace/name`, its containers' `(name, image, args)`), when it is
/// one of the optional reads (ingress-nginx's controller): the named container's image and flag.
pub(crate) fn from_deployment(namespace: &str, name: &str, containers: &[Container]) -> Option<Found> {
    let read = optional_read(ObjectKind::Deployment, namespace, name)?;
    let named = containers.iter().find(|c| read.keys.contains(&c.0.as_str())).or(containers.first());
    Some(Found::IngressNginx(IngressController {
        image: named.and_then(|c| c.1.clone()),
        topology_aware_routing: named
            .is_some_and(|c| ingress_nginx_topology_flag(c.2.iter().map(String::as_str))),
    }))
}

/// Whether a dump's Deployment is one of the optional reads (by namespace and name).
pub(crate) fn is_optional_deployment(value: &Value) -> bool {
    let text = |pointer: &str| value.pointer(pointer).and_then(Value::as_str).unwrap_or("");
    optional_read(ObjectKind::Deployment, text("/metadata/namespace"), text("/metadata/name")).is_some()
}

/// A container as `(name, image, args)`.
pub(crate) type Container = (String, Option<String>, Vec<String>);

/// A dump's Deployment as JSON: `(namespace, name, containers)`, without decoding the rest.
pub(crate) fn deployment_parts(value: &Value) -> (String, String, Vec<Container>) {
    let (namespace, name, containers) = daemon_set_parts(value);
    let all = value.pointer("/spec/template/spec/containers").and_then(Value::as_array);
    let args = |i: usize| -> Vec<String> {
        let list = all.and_then(|a| a.get(i)).and_then(|c| c.pointer("/args")).and_then(Value::as_array);
        list.into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
    };
    let containers = containers.into_iter().enumerate().map(|(i, (n, image))| (n, image, args(i))).collect();
    (namespace, name, containers)
}

/// A DaemonSet's containers as `(name, image)`.
pub(crate) fn containers_of(daemon_set: &apps::DaemonSet) -> Vec<(String, Option<String>)> {
    let spec = daemon_set.spec.as_ref().and_then(|s| s.template.spec.as_ref());
    spec.map(|s| s.containers.iter().map(|c| (c.name.clone(), c.image.clone())).collect()).unwrap_or_default()
}

/// A dump's DaemonSet as JSON: `(namespace, name, containers)`, without decoding the rest.
pub(crate) fn daemon_set_parts(value: &Value) -> (String, String, Vec<(String, Option<String>)>) {
    let text = |v: &Value, pointer: &str| v.pointer(pointer).and_then(Value::as_str).map(str::to_string);
    let containers = value.pointer("/spec/template/spec/containers").and_then(Value::as_array);
    let containers = containers
        .into_iter()
        .flatten()
        .map(|c| (text(c, "/name").unwrap_or_default(), text(c, "/image")))
        .collect();
    (
        text(value, "/metadata/namespace").unwrap_or_default(),
        text(value, "/metadata/name").unwrap_or_default(),
        containers,
    )
}

/// The data plane of a live read: what its optional objects hold, and every read's status.
pub(crate) fn data_plane_from(
    config_maps: &[core::ConfigMap],
    daemon_sets: &[apps::DaemonSet],
    front_doors: &topo_engine::model::FrontDoors,
    reads: &BTreeMap<OptionalObject, ReadStatus>,
) -> DataPlane {
    let mut data_plane =
        DataPlane { reads: reads.clone(), front_doors: front_doors.clone(), ..DataPlane::default() };
    config_maps.iter().filter_map(from_config_map).for_each(|found| found.apply(&mut data_plane));
    for ds in daemon_sets {
        let (meta, containers) = (&ds.metadata, containers_of(ds));
        let (ns, name) = (meta.namespace.as_deref().unwrap_or(""), meta.name.as_deref().unwrap_or(""));
        if let Some(found) = from_daemon_set(ns, name, &containers) {
            found.apply(&mut data_plane);
        }
    }
    data_plane
}

/// A ConfigMap reduced to the keys its read keeps (kube-proxy's configuration to its `mode:` line),
/// so a dump carries nothing else of it.
pub(crate) fn reduce_config_map(read: &OptionalRead, config_map: core::ConfigMap) -> core::ConfigMap {
    let mut data = config_map.data.unwrap_or_default();
    data.retain(|key, _| read.keys.contains(&key.as_str()));
    if read.object == OptionalObject::KubeProxyConfig {
        for value in data.values_mut() {
            *value = kube_proxy_mode(value).map(|m| format!("mode: {m:?}\n")).unwrap_or_default();
        }
    }
    if read.object == OptionalObject::LinkerdConfig {
        for value in data.values_mut() {
            *value = Linkerd::from_values(value).values();
        }
    }
    let metadata = k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta {
        name: config_map.metadata.name,
        namespace: config_map.metadata.namespace,
        ..Default::default()
    };
    core::ConfigMap { metadata, data: Some(data), ..core::ConfigMap::default() }
}

/// A DaemonSet reduced to its name and its containers' names and images, as a dump item.
pub(crate) fn daemon_set_item(namespace: &str, name: &str, containers: &[(String, Option<String>)]) -> Value {
    let containers: Vec<Value> =
        containers.iter().map(|(n, image)| json!({"name": n, "image": image})).collect();
    json!({"apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"namespace": namespace, "name": name},
        "spec": {"selector": {}, "template": {"spec": {"containers": containers}}}})
}

/// The statuses a dump records in its ClusterInfo: those of reads that found nothing (a read
/// object is in the dump itself).
pub(crate) fn recorded(reads: &BTreeMap<OptionalObject, ReadStatus>) -> BTreeMap<OptionalObject, ReadStatus> {
    reads
        .iter()
        .filter(|(_, s)| !matches!(s, ReadStatus::Read | ReadStatus::NotInDump))
        .map(|(o, s)| (*o, *s))
        .collect()
}

/// The status of every optional read of a dump: read when the dump holds the object, else what the
/// dump's ClusterInfo recorded, else not in the dump.
pub(crate) fn dump_statuses(data_plane: &mut DataPlane, recorded: &BTreeMap<OptionalObject, ReadStatus>) {
    super::frontdoor::dump_statuses(data_plane);
    let lists = super::frontdoor::FRONT_LISTS.iter().map(|l| l.object);
    let pods = std::iter::once(OptionalObject::FrontDoorPods);
    for object in OPTIONAL_READS.iter().map(|r| r.object).chain(lists).chain(pods) {
        let status = recorded.get(&object).copied().unwrap_or(ReadStatus::NotInDump);
        data_plane.reads.entry(object).or_insert(status);
    }
}

#[cfg(test)]
mod tests;

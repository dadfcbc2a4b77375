//! `dump --redact`: a dump rebuilt from the Snapshot (what `source::convert` read, nothing else),
//! keeping only the fields the engine and `check` read, with names and addresses replaced by
//! consistent pseudonyms (`pseudonyms.rs`), and other free text reduced to what the reports read of
//! it (`values.rs`: `invalid`, the controller's own Event sentences). What it keeps, field by field, is the README's
//! "Sharing a dump" list; anything not written here (UIDs, other labels and annotations, owner
//! references, Node addresses, Pod names, other Events) never reaches the output.

use serde_json::{Map, Value, json};

use topo_engine::core::topologycache::{EVENT_REASON_DISABLED, EVENT_REASON_ENABLED};
use topo_engine::core::zones::{LABEL_CONTROL_PLANE, LABEL_MASTER};
use topo_engine::model::{
    Endpoint, EndpointSlice, Event, LABEL_MANAGED_BY, LABEL_OS, LABEL_SERVICE_NAME, LABEL_ZONE, Node,
    Service, Snapshot,
};

use crate::source::convert::SERVICE_ANNOTATIONS_READ;

mod optional;
mod pseudonyms;
mod values;
use crate::source::convert::workload::Naming;
use pseudonyms::{Category, Pseudonyms};

/// The Node labels the engine reads besides the zone and the OS (kube-proxy and the Windows caveat
/// read `kubernetes.io/os`): the two role labels `SetNodes` excludes on (by key only).
const ROLE_LABELS: [&str; 2] = [LABEL_CONTROL_PLANE, LABEL_MASTER];

/// An address that stands for "reachable from outside" when no node port says so (TEST-NET-1).
const EXTERNAL_ADDRESS: &str = "192.0.2.1";

/// The redacted dump's items, ClusterInfo excluded, in the Snapshot's order.
pub(super) fn items(snapshot: &Snapshot) -> (Vec<Value>, Vec<String>) {
    let p = Pseudonyms::of(snapshot);
    let mut items: Vec<Value> = Vec::new();
    items.extend(snapshot.nodes.iter().map(|n| node(n, &p)));
    // A Service's selector matters only to find its workloads: written (as pseudonyms) when they
    // were looked for.
    let selectors = snapshot.workloads.looked_for();
    items.extend(snapshot.services.iter().map(|s| service(s, selectors, &p)));
    items.extend(snapshot.slices.iter().map(|s| slice(s, &p)));
    let events = snapshot.events.iter().filter(|e| is_controller_event(e));
    items.extend(events.enumerate().map(|(i, e)| event(i, e, &p)));
    items.extend(optional::items(&snapshot.data_plane));
    items.extend(crate::source::convert::workload::items(&snapshot.workloads, &|naming, name| {
        p.get(category(naming), name)
    }));
    items.extend(front_door_items(snapshot, &p));
    let namespaces: Vec<String> = snapshot
        .services
        .iter()
        .map(|s| &s.namespace)
        .chain(snapshot.slices.iter().map(|s| &s.namespace))
        .map(|ns| p.get(Category::Namespace, ns))
        .collect();
    let notes =
        snapshot.info.partial.iter().filter_map(|n| values::note(&p.in_text(n), &namespaces)).collect();
    (items, notes)
}

/// The category of pseudonyms a workload item's name is replaced from.
fn category(naming: Naming) -> Category {
    match naming {
        Naming::Namespace => Category::Namespace,
        Naming::Workload => Category::Workload,
        Naming::Pod => Category::Pod,
        Naming::Node => Category::Node,
        Naming::Address => Category::Address,
        Naming::Label => Category::Label,
    }
}

/// The front doors' items: Services and their namespaces under their pseudonyms, every other
/// name (routes, Gateways, classes, policies, namespaces without a Service) as `frontdoor-N` in
/// order of appearance, consistently, so a route still names its Gateway and its Services.
fn front_door_items(snapshot: &Snapshot, p: &Pseudonyms) -> Vec<Value> {
    use crate::source::convert::frontdoor::{Name, items};
    let others = std::cell::RefCell::new(std::collections::BTreeMap::<String, String>::new());
    let other = |name: &str| {
        let mut others = others.borrow_mut();
        let next = format!("frontdoor-{}", others.len() + 1);
        others.entry(name.to_string()).or_insert(next).clone()
    };
    let name = |what: Name, name: &str| match what {
        Name::Service => p.get(Category::Service, name),
        Name::Namespace if snapshot.services.iter().any(|s| s.namespace == name) => {
            p.get(Category::Namespace, name)
        }
        Name::Namespace => other(name),
        Name::Object => other(name),
        Name::Node => p.get(Category::Node, name),
        Name::Image => {
            format!(
                "controller:{}",
                optional::version_core(topo_engine::model::image_tag(name).unwrap_or(""))
            )
        }
    };
    items(&snapshot.data_plane.front_doors, &name)
}

/// The EndpointSlice controller's own Events: their texts are fixed sentences with numbers and
/// zones (endpointslice `topologycache/event.go`), never names; any other Event may carry some.
fn is_controller_event(event: &Event) -> bool {
    event.object_kind == "Service"
        && [EVENT_REASON_ENABLED, EVENT_REASON_DISABLED].contains(&event.reason.as_str())
}

fn insert_some(map: &mut Map<String, Value>, key: &str, value: Option<&str>) {
    if let Some(v) = value {
        map.insert(key.to_string(), Value::String(v.to_string()));
    }
}

fn node(node: &Node, p: &Pseudonyms) -> Value {
    let mut labels = Map::new();
    insert_some(&mut labels, LABEL_ZONE, node.labels.get(LABEL_ZONE).map(String::as_str));
    let os = node.labels.get(LABEL_OS).map(|v| values::os(v));
    insert_some(&mut labels, LABEL_OS, os.as_deref());
    for key in ROLE_LABELS.into_iter().filter(|k| node.labels.contains_key(k)) {
        labels.insert(key.to_string(), Value::String(String::new()));
    }
    let mut status = Map::new();
    if let Some(cpu) = &node.allocatable_cpu {
        status.insert("allocatable".into(), json!({"cpu": cpu.to_string()}));
    }
    if let Some(ready) = &node.ready {
        status.insert("conditions".into(), json!([{"type": "Ready", "status": values::condition(ready)}]));
    }
    if let Some(kubelet) = &node.kubelet_version {
        status.insert("nodeInfo".into(), json!({"kubeletVersion": version_core(kubelet)}));
    }
    json!({"apiVersion": "v1", "kind": "Node",
        "metadata": {"name": p.get(Category::Node, &node.name), "labels": labels}, "status": status})
}

/// `v1.33.4` of `v1.33.4-eks-4a3f9d1`: the minor is all that is read (which version to model);
/// the build suffix names the provider and its build.
fn version_core(version: &str) -> &str {
    let end = version
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || (i == 0 && c == 'v')))
        .map_or(version.len(), |(i, _)| i);
    &version[..end]
}

fn service(service: &Service, selectors: bool, p: &Pseudonyms) -> Value {
    let mut annotations = Map::new();
    for key in SERVICE_ANNOTATIONS_READ {
        let value = service.annotations.get(key).map(|v| values::annotation(key, v));
        insert_some(&mut annotations, key, value.as_deref());
    }
    let mut spec = Map::new();
    if service.has_selector {
        let selector = match selectors {
            true => {
                crate::source::convert::workload::labels(&service.selector, &|_, l| p.get(Category::Label, l))
            }
            false => json!({}),
        };
        spec.insert("selector".into(), selector);
    }
    spec.insert("type".into(), Value::String(values::service_type(&service.service_type)));
    let cluster_ip = service.cluster_ip.as_deref().map(|ip| p.get(Category::Address, ip));
    insert_some(&mut spec, "clusterIP", cluster_ip.as_deref());
    if !service.ip_families.is_empty() {
        let families: Vec<String> = service.ip_families.iter().map(|f| values::address_type(f)).collect();
        spec.insert("ipFamilies".into(), json!(families));
    }
    let distribution = service.traffic_distribution.as_deref().map(values::traffic_distribution);
    insert_some(&mut spec, "trafficDistribution", distribution.as_deref());
    let internal = service.internal_traffic_policy.as_deref().map(values::traffic_policy);
    insert_some(&mut spec, "internalTrafficPolicy", internal.as_deref());
    let external = service.external_traffic_policy.as_deref().map(values::traffic_policy);
    insert_some(&mut spec, "externalTrafficPolicy", external.as_deref());
    if service.publish_not_ready_addresses {
        spec.insert("publishNotReadyAddresses".into(), Value::Bool(true));
    }
    let ports = service.ports.iter().map(|port| {
        let mut v = json!({"port": port.port, "protocol": values::protocol(&port.protocol)});
        if !port.name.is_empty() {
            v["name"] = Value::String(p.get(Category::Port, &port.name));
        }
        if port.node_port != 0 {
            v["nodePort"] = json!(port.node_port);
        }
        v
    });
    spec.insert("ports".into(), Value::Array(ports.collect()));
    let mut item = json!({"apiVersion": "v1", "kind": "Service",
        "metadata": {"namespace": p.get(Category::Namespace, &service.namespace),
            "name": p.get(Category::Service, &service.name), "annotations": annotations},
        "spec": spec});
    // kube-proxy's ExternallyAccessible, kept when no node port carries it.
    if service.externally_accessible && service.ports.iter().all(|port| port.node_port == 0) {
        item["status"] = json!({"loadBalancer": {"ingress": [{"ip": EXTERNAL_ADDRESS}]}});
    }
    item
}

fn slice(slice: &EndpointSlice, p: &Pseudonyms) -> Value {
    let mut labels = Map::new();
    let service = slice.service_name.as_deref().map(|s| p.get(Category::Service, s));
    insert_some(&mut labels, LABEL_SERVICE_NAME, service.as_deref());
    let manager = slice.managed_by.as_deref().map(|m| p.get(Category::Manager, m));
    insert_some(&mut labels, LABEL_MANAGED_BY, manager.as_deref());
    let ports = slice.ports.iter().map(|port| {
        let mut v = Map::new();
        let name = port.name.as_deref().map(|n| p.get(Category::Port, n));
        insert_some(&mut v, "name", name.as_deref());
        if let Some(number) = port.port {
            v.insert("port".into(), json!(number));
        }
        let protocol = port.protocol.as_deref().map(values::protocol);
        insert_some(&mut v, "protocol", protocol.as_deref());
        Value::Object(v)
    });
    json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
        "metadata": {"namespace": p.get(Category::Namespace, &slice.namespace),
            "name": p.get(Category::Slice, &slice.name), "labels": labels},
        "addressType": values::address_type(&slice.address_type),
        "ports": ports.collect::<Vec<_>>(),
        "endpoints": slice.endpoints.iter().map(|e| endpoint(e, p)).collect::<Vec<_>>()})
}

fn endpoint(endpoint: &Endpoint, p: &Pseudonyms) -> Value {
    let addresses: Vec<String> = endpoint.addresses.iter().map(|a| p.get(Category::Address, a)).collect();
    let mut conditions = Map::new();
    for (key, value) in
        [("ready", endpoint.ready), ("serving", endpoint.serving), ("terminating", endpoint.terminating)]
    {
        if let Some(v) = value {
            conditions.insert(key.into(), Value::Bool(v));
        }
    }
    let mut v = json!({"addresses": addresses, "conditions": conditions});
    if let Some(node) = &endpoint.node_name {
        v["nodeName"] = Value::String(p.get(Category::Node, node));
    }
    if let Some(zone) = &endpoint.zone {
        v["zone"] = Value::String(zone.to_string());
    }
    if let Some(hints) = &endpoint.hints {
        let mut h = Map::new();
        if let Some(zones) = &hints.for_zones {
            h.insert("forZones".into(), zones.iter().map(|z| json!({"name": &**z})).collect());
        }
        if let Some(nodes) = &hints.for_nodes {
            let named = nodes.iter().map(|n| json!({"name": p.get(Category::Node, n)}));
            h.insert("forNodes".into(), named.collect());
        }
        v["hints"] = Value::Object(h);
    }
    v
}

fn event(index: usize, event: &Event, p: &Pseudonyms) -> Value {
    let namespace = p.get(Category::Namespace, &event.namespace);
    let mut v = json!({"apiVersion": "v1", "kind": "Event",
        "metadata": {"namespace": namespace, "name": format!("event-{}", index + 1)},
        "involvedObject": {"kind": event.object_kind, "namespace": namespace,
            "name": p.get(Category::Service, &event.object_name)},
        "type": values::event_type(&event.event_type), "reason": event.reason,
        "message": values::event_message(&event.message), "count": event.count});
    if let Some(last) = event.last_seen.as_deref().and_then(values::timestamp) {
        v["lastTimestamp"] = Value::String(last);
    }
    if let Some(source) = event.source.as_deref().and_then(values::event_source) {
        v["source"] = json!({"component": source});
    }
    v
}

#[cfg(test)]
mod tests;

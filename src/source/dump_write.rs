//! `kubectl topo dump`: what a live read saw, written as one YAML `v1 List` that `--from-file`
//! reads back. With `source/dump.rs` and `render/structured.rs`, one of the only YAML call sites.
//!
//! Items: Nodes, Services, EndpointSlices, Events, then `{apiVersion: kubectl-topo/v1alpha1,
//! kind: ClusterInfo, serverVersion}`. `managedFields` and the last-applied annotation are removed.
//! `--redact` replaces names and addresses consistently (the same input name always becomes the same
//! output name), keeping zones, CPU, conditions and every field the engine reads.

use std::collections::BTreeMap;
use std::io::Write;

use serde_json::{Map, Value, json};

use crate::error::Error;
use crate::source::live::Raw;

/// `apiVersion` of the ClusterInfo item.
pub const CLUSTER_INFO_API_VERSION: &str = "kubectl-topo/v1alpha1";
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The dump as a JSON value (`v1 List`).
pub fn dump_value(raw: &Raw, redact: bool) -> Value {
    let mut items: Vec<Value> = Vec::new();
    items.extend(raw.nodes.iter().map(|o| with_type(o, "v1", "Node")));
    items.extend(raw.services.iter().map(|o| with_type(o, "v1", "Service")));
    items.extend(raw.slices.iter().map(|o| with_type(o, "discovery.k8s.io/v1", "EndpointSlice")));
    items.extend(raw.events.iter().map(|o| with_type(o, "v1", "Event")));
    items.extend(raw.config_maps.iter().map(|o| with_type(o, "v1", "ConfigMap")));
    for item in &mut items {
        strip(item);
    }
    if redact {
        let mut r = Redactor::default();
        for item in &mut items {
            r.item(item);
        }
    }
    let mut info = json!({"apiVersion": CLUSTER_INFO_API_VERSION, "kind": "ClusterInfo"});
    if let Some(v) = &raw.server_version {
        info["serverVersion"] = Value::String(v.clone());
    }
    // A partly forbidden read replays as what it was: weights unknown, the same notes.
    if raw.nodes_unavailable {
        info["nodesUnavailable"] = Value::Bool(true);
    }
    if !raw.notes.is_empty() {
        info["partial"] = json!(raw.notes);
    }
    items.push(info);
    json!({"apiVersion": "v1", "kind": "List", "metadata": {}, "items": items})
}

/// Write the dump as YAML.
pub fn write_dump(raw: &Raw, redact: bool, out: &mut dyn Write) -> Result<(), Error> {
    let text = serde_saphyr::to_string(&dump_value(raw, redact))
        .map_err(|e| Error::Live(format!("cannot serialise the dump: {e}")))?;
    out.write_all(text.as_bytes()).map_err(Error::Write)
}

/// List items from the API carry no apiVersion/kind; put them back so the dump reads alone.
fn with_type<T: serde::Serialize>(object: &T, api_version: &str, kind: &str) -> Value {
    let mut v = serde_json::to_value(object).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut v {
        let mut ordered = Map::new();
        ordered.insert("apiVersion".into(), Value::String(api_version.into()));
        ordered.insert("kind".into(), Value::String(kind.into()));
        for (k, val) in std::mem::take(map) {
            if k != "apiVersion" && k != "kind" {
                ordered.insert(k, val);
            }
        }
        *map = ordered;
    }
    v
}

fn strip(item: &mut Value) {
    if let Some(meta) = item.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("managedFields");
        if let Some(ann) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
            ann.remove(LAST_APPLIED);
            if ann.is_empty() {
                meta.remove("annotations");
            }
        }
    }
}

/// Consistent pseudonyms per category.
#[derive(Default)]
struct Redactor {
    names: BTreeMap<(&'static str, String), String>,
    counters: BTreeMap<&'static str, usize>,
    v4: BTreeMap<String, String>,
    v6: BTreeMap<String, String>,
}

impl Redactor {
    fn name(&mut self, category: &'static str, original: &str) -> String {
        if original.is_empty() || (category == "ns" && is_system_namespace(original)) {
            return original.to_string();
        }
        if category == "svc" && original == "kubernetes" {
            return original.to_string();
        }
        if let Some(n) = self.names.get(&(category, original.to_string())) {
            return n.clone();
        }
        let counter = self.counters.entry(category).or_default();
        *counter += 1;
        let n = format!("{category}-{counter}");
        self.names.insert((category, original.to_string()), n.clone());
        n
    }

    fn address(&mut self, original: &str) -> String {
        if original.contains(':') {
            let next = self.v6.len() + 1;
            self.v6.entry(original.to_string()).or_insert_with(|| format!("fd00::{next:x}")).clone()
        } else if original.parse::<std::net::Ipv4Addr>().is_ok() {
            let next = self.v4.len() + 1;
            self.v4
                .entry(original.to_string())
                .or_insert_with(|| format!("10.{}.{}.{}", (next >> 16) & 255, (next >> 8) & 255, next & 255))
                .clone()
        } else if original == "None" {
            original.to_string()
        } else {
            self.name("host", original)
        }
    }

    fn set_name(&mut self, v: &mut Value, pointer: &str, category: &'static str) {
        if let Some(Value::String(s)) = v.pointer_mut(pointer) {
            *s = self.name(category, s);
        }
    }

    fn set_address(&mut self, v: &mut Value, pointer: &str) {
        if let Some(Value::String(s)) = v.pointer_mut(pointer) {
            *s = self.address(s);
        }
    }

    fn set_addresses(&mut self, v: &mut Value, pointer: &str) {
        if let Some(Value::Array(list)) = v.pointer_mut(pointer) {
            for a in list {
                if let Value::String(s) = a {
                    *s = self.address(s);
                }
            }
        }
    }

    fn item(&mut self, item: &mut Value) {
        let kind = item.get("kind").and_then(Value::as_str).unwrap_or_default().to_string();
        self.set_name(item, "/metadata/namespace", "ns");
        if let Some(meta) = item.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.remove("ownerReferences");
            if let Some(ann) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
                // Keep only what the engine reads.
                ann.retain(|k, _| k.starts_with("service.kubernetes.io/topology"));
            }
        }
        match kind.as_str() {
            "Node" => {
                self.set_name(item, "/metadata/name", "node");
                if let Some(Value::String(h)) = item.pointer_mut("/metadata/labels/kubernetes.io~1hostname") {
                    *h = self.name("node", h);
                }
                if let Some(Value::Array(addrs)) = item.pointer_mut("/status/addresses") {
                    for a in addrs {
                        self.set_address(a, "/address");
                    }
                }
                if let Some(status) = item.get_mut("status").and_then(Value::as_object_mut) {
                    status.remove("images");
                    status.remove("nodeInfo");
                }
                if let Some(spec) = item.get_mut("spec").and_then(Value::as_object_mut) {
                    spec.remove("providerID");
                    spec.remove("podCIDR");
                    spec.remove("podCIDRs");
                }
            }
            "Service" => {
                self.set_name(item, "/metadata/name", "svc");
                self.set_address(item, "/spec/clusterIP");
                self.set_addresses(item, "/spec/clusterIPs");
                self.set_addresses(item, "/spec/externalIPs");
                self.set_address(item, "/spec/loadBalancerIP");
                if let Some(Value::Array(ings)) = item.pointer_mut("/status/loadBalancer/ingress") {
                    for i in ings {
                        self.set_address(i, "/ip");
                        self.set_address(i, "/hostname");
                    }
                }
                if let Some(sel) = item.pointer_mut("/spec/selector").and_then(Value::as_object_mut) {
                    for v in sel.values_mut() {
                        if let Value::String(s) = v {
                            *s = self.name("label", s);
                        }
                    }
                }
            }
            "EndpointSlice" => {
                let service =
                    item.pointer("/metadata/labels/kubernetes.io~1service-name").and_then(Value::as_str);
                let service = service.map(|s| self.name("svc", s));
                if let (Some(svc), Some(Value::String(s))) =
                    (&service, item.pointer_mut("/metadata/labels/kubernetes.io~1service-name"))
                {
                    *s = svc.clone();
                }
                let n =
                    self.name("slice", item.pointer("/metadata/name").and_then(Value::as_str).unwrap_or(""));
                if let Some(Value::String(s)) = item.pointer_mut("/metadata/name") {
                    *s = match &service {
                        Some(svc) => format!("{svc}-{n}"),
                        None => n,
                    };
                }
                item.pointer_mut("/metadata")
                    .and_then(Value::as_object_mut)
                    .map(|m| m.remove("generateName"));
                if let Some(Value::Array(eps)) = item.pointer_mut("/endpoints") {
                    for ep in eps {
                        self.set_addresses(ep, "/addresses");
                        self.set_name(ep, "/nodeName", "node");
                        self.set_name(ep, "/hostname", "pod");
                        self.set_name(ep, "/targetRef/name", "pod");
                        self.set_name(ep, "/targetRef/namespace", "ns");
                        if let Some(Value::Array(nodes)) = ep.pointer_mut("/hints/forNodes") {
                            for n in nodes {
                                self.set_name(n, "/name", "node");
                            }
                        }
                    }
                }
            }
            "Event" => {
                self.set_name(item, "/metadata/name", "event");
                self.set_name(item, "/involvedObject/namespace", "ns");
                self.set_name(item, "/involvedObject/name", "svc");
                self.set_name(item, "/source/host", "node");
                if let Some(obj) = item.as_object_mut() {
                    obj.remove("reportingInstance");
                }
            }
            _ => {}
        }
        // Labels of Services and slices may hold app names: redact values except the well-known keys.
        if kind != "Node"
            && let Some(labels) = item.pointer_mut("/metadata/labels").and_then(Value::as_object_mut)
        {
            for (k, v) in labels.iter_mut() {
                let keep = k.starts_with("endpointslice.kubernetes.io/") || k == "kubernetes.io/service-name";
                if let (false, Value::String(s)) = (keep, v) {
                    *s = self.name("label", s);
                }
            }
        }
    }
}

fn is_system_namespace(ns: &str) -> bool {
    matches!(ns, "default" | "kube-system" | "kube-public" | "kube-node-lease")
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::{Node, Service};
    use k8s_openapi::api::discovery::v1::EndpointSlice;

    fn raw() -> Raw {
        let node: Node = serde_json::from_value(json!({
            "metadata": {"name": "ip-10-0-1-5.ec2.internal", "labels": {"topology.kubernetes.io/zone": "us-east-1a",
              "kubernetes.io/hostname": "ip-10-0-1-5.ec2.internal"},
              "managedFields": [{"manager": "kubelet"}]},
            "status": {"allocatable": {"cpu": "3920m"}, "addresses": [{"type": "InternalIP", "address": "10.0.1.5"}]}
        }))
        .unwrap();
        let svc: Service = serde_json::from_value(json!({
            "metadata": {"name": "demo-service", "namespace": "demo", "annotations": {
                "service.kubernetes.io/topology-mode": "Auto",
                "kubectl.kubernetes.io/last-applied-configuration": "{}"}},
            "spec": {"clusterIP": "10.96.0.10", "clusterIPs": ["10.96.0.10"], "selector": {"app": "demo"}}
        }))
        .unwrap();
        let slice: EndpointSlice = serde_json::from_value(json!({
            "metadata": {"name": "demo-service-abcde", "namespace": "demo",
              "labels": {"kubernetes.io/service-name": "demo-service",
                         "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"}},
            "addressType": "IPv4",
            "endpoints": [{"addresses": ["10.0.1.77"], "nodeName": "ip-10-0-1-5.ec2.internal", "zone": "us-east-1a",
              "conditions": {"ready": true}, "hints": {"forZones": [{"name": "us-east-1a"}],
              "forNodes": [{"name": "ip-10-0-1-5.ec2.internal"}]}}]
        }))
        .unwrap();
        Raw {
            nodes: vec![node],
            services: vec![svc],
            slices: vec![slice],
            events: vec![],
            config_maps: vec![],
            server_version: Some("v1.36.3".into()),
            notes: vec![],
            nodes_unavailable: false,
        }
    }

    #[test]
    fn cilium_config_survives_a_redacted_dump_round_trip() {
        let cm: k8s_openapi::api::core::v1::ConfigMap = serde_json::from_value(json!({
            "metadata": {"name": "cilium-config", "namespace": "kube-system"},
            "data": {"kube-proxy-replacement": "true", "enable-service-topology": "false"}
        }))
        .unwrap();
        let with = Raw { config_maps: vec![cm], ..raw() };
        let yaml = serde_saphyr::to_string(&dump_value(&with, true)).unwrap();
        let parsed = crate::source::dump::parse_dump(&yaml, "dump").unwrap();
        let cilium = parsed.snapshot.data_plane.cilium.expect("cilium-config read back");
        assert_eq!(cilium.kube_proxy_replacement.as_deref(), Some("true"));
        assert_eq!(cilium.service_topology.as_deref(), Some("false"));
        let without = serde_saphyr::to_string(&dump_value(&raw(), false)).unwrap();
        assert_eq!(
            crate::source::dump::parse_dump(&without, "dump").unwrap().snapshot.data_plane.cilium,
            None
        );
    }

    #[test]
    fn a_partly_forbidden_read_replays_as_partial() {
        let note = crate::prose::nodes_forbidden_note("list nodes at cluster scope");
        let partial = Raw { nodes: vec![], nodes_unavailable: true, notes: vec![note.clone()], ..raw() };
        let text = serde_saphyr::to_string(&dump_value(&partial, false)).unwrap();
        let parsed = crate::source::dump::parse_dump(&text, "dump.yaml").unwrap();
        assert!(parsed.snapshot.info.nodes_unavailable);
        assert_eq!(parsed.snapshot.info.partial, vec![note]);
        let whole = crate::source::dump::parse_dump(
            &serde_saphyr::to_string(&dump_value(&raw(), false)).unwrap(),
            "d",
        )
        .unwrap();
        assert!(!whole.snapshot.info.nodes_unavailable && whole.snapshot.info.partial.is_empty());
    }

    #[test]
    fn list_with_types_cluster_info_and_stripped_metadata() {
        let v = dump_value(&raw(), false);
        assert_eq!(v["kind"], "List");
        let items = v["items"].as_array().unwrap();
        assert_eq!(items.len(), 4);
        assert_eq!(items[0]["kind"], "Node");
        assert_eq!(items[0]["apiVersion"], "v1");
        assert!(items[0]["metadata"].get("managedFields").is_none());
        assert_eq!(items[1]["metadata"]["annotations"].as_object().unwrap().len(), 1);
        assert_eq!(items[2]["apiVersion"], "discovery.k8s.io/v1");
        assert_eq!(
            items[3],
            json!({"apiVersion": "kubectl-topo/v1alpha1", "kind": "ClusterInfo", "serverVersion": "v1.36.3"})
        );
        let yaml = serde_saphyr::to_string(&v).unwrap();
        assert!(yaml.contains("kind: ClusterInfo"), "{yaml}");
    }

    #[test]
    fn redaction_is_consistent_and_keeps_topology() {
        let v = dump_value(&raw(), true);
        let text = v.to_string();
        for secret in ["ip-10-0-1-5", "demo-service", "10.0.1.77", "10.96.0.10", "\"demo\""] {
            assert!(!text.contains(secret), "{secret} leaked: {text}");
        }
        let items = v["items"].as_array().unwrap();
        let node = items[0]["metadata"]["name"].as_str().unwrap();
        assert_eq!(items[2]["endpoints"][0]["nodeName"], node);
        assert_eq!(items[2]["endpoints"][0]["hints"]["forNodes"][0]["name"], node);
        assert_eq!(
            items[2]["metadata"]["labels"]["kubernetes.io/service-name"],
            items[1]["metadata"]["name"]
        );
        assert_eq!(items[2]["metadata"]["namespace"], items[1]["metadata"]["namespace"]);
        assert_eq!(items[2]["endpoints"][0]["zone"], "us-east-1a");
        assert_eq!(items[0]["status"]["allocatable"]["cpu"], "3920m");
        assert_eq!(items[1]["metadata"]["annotations"]["service.kubernetes.io/topology-mode"], "Auto");
    }
}

//! `dump --redact`: consistent pseudonyms for names and addresses, keeping every field the engine
//! reads (zones, CPU, conditions, hints, the topology annotations).

use std::collections::BTreeMap;

use serde_json::Value;

/// Consistent pseudonyms per category.
#[derive(Default)]
pub(super) struct Redactor {
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

    pub(super) fn item(&mut self, item: &mut Value) {
        let kind = item.get("kind").and_then(Value::as_str).unwrap_or_default().to_string();
        self.set_name(item, "/metadata/namespace", "ns");
        if let Some(meta) = item.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.remove("ownerReferences");
            if let Some(ann) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
                // Keep only what the engine and `check`'s ignore rules read.
                ann.retain(|k, _| {
                    k.starts_with("service.kubernetes.io/topology") || k == crate::triage::IGNORE_ANNOTATION
                });
            }
        }
        match kind.as_str() {
            "Node" => self.node(item),
            "Service" => self.service(item),
            "EndpointSlice" => self.slice(item),
            "Event" => self.event(item),
            _ => {}
        }
        if kind != "Node" {
            self.labels(item);
        }
    }

    fn node(&mut self, item: &mut Value) {
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

    fn service(&mut self, item: &mut Value) {
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

    fn slice(&mut self, item: &mut Value) {
        let service = item.pointer("/metadata/labels/kubernetes.io~1service-name").and_then(Value::as_str);
        let service = service.map(|s| self.name("svc", s));
        if let (Some(svc), Some(Value::String(s))) =
            (&service, item.pointer_mut("/metadata/labels/kubernetes.io~1service-name"))
        {
            *s = svc.clone();
        }
        let n = self.name("slice", item.pointer("/metadata/name").and_then(Value::as_str).unwrap_or(""));
        if let Some(Value::String(s)) = item.pointer_mut("/metadata/name") {
            *s = match &service {
                Some(svc) => format!("{svc}-{n}"),
                None => n,
            };
        }
        item.pointer_mut("/metadata").and_then(Value::as_object_mut).map(|m| m.remove("generateName"));
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

    fn event(&mut self, item: &mut Value) {
        self.set_name(item, "/metadata/name", "event");
        self.set_name(item, "/involvedObject/namespace", "ns");
        self.set_name(item, "/involvedObject/name", "svc");
        self.set_name(item, "/source/host", "node");
        if let Some(obj) = item.as_object_mut() {
            obj.remove("reportingInstance");
        }
    }

    /// Labels of Services and slices may hold app names: redact values except the well-known keys.
    fn labels(&mut self, item: &mut Value) {
        if let Some(labels) = item.pointer_mut("/metadata/labels").and_then(Value::as_object_mut) {
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

//! The workload reads' objects as dump items, rebuilt from the model: reduced to what is read (a
//! Pod to its controller, node and addresses; a workload to its replicas, controller, template
//! labels and spread; an HPA to its target and range), every name through `name` (the identity
//! for `dump`, the pseudonyms for `dump --redact`), so the dump reads back into the same model.

use serde_json::{Map, Value, json};

use topo_engine::model::{Hpa, Owner, Pod, SpreadConstraint, StrMap, Workload, Workloads};

use super::{WORKLOAD_KINDS, object_of};

/// What a name stands for, so a redacted dump replaces each kind of name consistently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Naming {
    /// A namespace.
    Namespace,
    /// A Deployment, StatefulSet, ReplicaSet, HPA or other controller.
    Workload,
    /// A Pod.
    Pod,
    /// A Node.
    Node,
    /// A Pod's address.
    Address,
    /// A label key or value (templates', Services' selectors).
    Label,
}

/// Every object of `workloads`, Pods first, each named through `name`.
pub(crate) fn items(workloads: &Workloads, name: &dyn Fn(Naming, &str) -> String) -> Vec<Value> {
    let mut items: Vec<Value> = workloads.pods.iter().map(|p| pod(p, name)).collect();
    items.extend(workloads.workloads.iter().map(|w| workload(w, name)));
    items.extend(workloads.autoscalers.iter().map(|h| hpa(h, name)));
    items
}

fn meta(
    namespace: &str,
    object: &str,
    owner: Option<&Owner>,
    name: &dyn Fn(Naming, &str) -> String,
) -> Value {
    let mut meta = json!({"namespace": name(Naming::Namespace, namespace), "name": object});
    if let Some(owner) = owner {
        meta["ownerReferences"] =
            json!([{"kind": owner.kind, "name": name(Naming::Workload, &owner.name), "controller": true}]);
    }
    meta
}

fn pod(pod: &Pod, name: &dyn Fn(Naming, &str) -> String) -> Value {
    let ips: Vec<Value> = pod.ips.iter().map(|ip| json!({"ip": name(Naming::Address, ip)})).collect();
    let mut item = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": meta(&pod.namespace, &name(Naming::Pod, &pod.name), pod.owner.as_ref(), name),
        "spec": {}, "status": {"podIPs": ips}});
    if let Some(node) = &pod.node_name {
        item["spec"]["nodeName"] = Value::String(name(Naming::Node, node));
    }
    item
}

/// Labels with keys and values named through `name`.
pub(crate) fn labels(labels: &StrMap, name: &dyn Fn(Naming, &str) -> String) -> Value {
    Value::Object(
        labels.iter().map(|(k, v)| (name(Naming::Label, k), Value::String(name(Naming::Label, v)))).collect(),
    )
}

fn workload(w: &Workload, name: &dyn Fn(Naming, &str) -> String) -> Value {
    let (api_version, kind, _) =
        WORKLOAD_KINDS.iter().find(|(_, _, o)| *o == object_of(w.kind)).copied().unwrap_or(WORKLOAD_KINDS[1]);
    let template_labels = labels(&w.template_labels, name);
    let spread: Vec<Value> = w.spread.iter().map(|c| constraint(c, &template_labels)).collect();
    let mut spec = Map::new();
    if let Some(replicas) = w.replicas {
        spec.insert("replicas".into(), json!(replicas));
    }
    spec.insert(
        "template".into(),
        json!({"metadata": {"labels": template_labels}, "spec": {"topologySpreadConstraints": spread}}),
    );
    json!({"apiVersion": api_version, "kind": kind,
        "metadata": meta(&w.namespace, &name(Naming::Workload, &w.name), w.owner.as_ref(), name),
        "spec": spec})
}

/// A constraint whose selector is the template's own labels when it selects them, else one that
/// selects no Pod of the template (what the model keeps of it).
fn constraint(c: &SpreadConstraint, template_labels: &Value) -> Value {
    let selector = match c.selects_own_pods {
        true => json!({"matchLabels": template_labels}),
        false => json!({"matchExpressions": [{"key": "kubectl-topo.io/other-pods", "operator": "Exists"}]}),
    };
    let mut v = json!({"topologyKey": c.topology_key, "maxSkew": c.max_skew,
        "whenUnsatisfiable": c.when_unsatisfiable, "labelSelector": selector});
    let optional = [
        ("minDomains", c.min_domains.map(|m| json!(m))),
        ("nodeAffinityPolicy", c.node_affinity_policy.as_ref().map(|p| json!(p))),
        ("nodeTaintsPolicy", c.node_taints_policy.as_ref().map(|p| json!(p))),
    ];
    for (key, value) in optional {
        if let Some(value) = value {
            v[key] = value;
        }
    }
    v
}

fn hpa(h: &Hpa, name: &dyn Fn(Naming, &str) -> String) -> Value {
    json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
        "metadata": meta(&h.namespace, &name(Naming::Workload, &h.range.name), None, name),
        "spec": {"scaleTargetRef": {"kind": h.target.kind, "name": name(Naming::Workload, &h.target.name)},
            "minReplicas": h.range.min, "maxReplicas": h.range.max}})
}

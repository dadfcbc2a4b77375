//! The front doors written back as dump items (`dump`, `dump --redact`): what was read of each
//! object and nothing else, in the shape the lists give them.

use serde_json::{Value, json};

use super::{FRONT_LISTS, FrontKind, FrontList};
use topo_engine::model::{
    ANNOTATION_ISTIO_TRAFFIC_DISTRIBUTION, FrontDoors, INGRESS_NGINX_CLASS, INGRESS_NGINX_TOPOLOGY_FLAG,
    ObjectRef,
};

/// The dump items that carry `doors` (what was read of them, nothing else), with `name` mapping
/// each `(category, name)` to what the dump writes (`--redact` pseudonymises; else the name).
pub(crate) fn items(doors: &FrontDoors, name: &dyn Fn(Name, &str) -> String) -> Vec<Value> {
    let api = |kind: FrontKind| FRONT_LISTS.iter().find(|l| l.kind == kind).map(FrontList::api_version);
    let reference = |r: &ObjectRef, what: Name| json!({"namespace": name(Name::Namespace, &r.namespace), "name": name(what, &r.name)});
    let meta = reference;
    let mut items = Vec::new();
    for r in &doors.routes {
        let kind = if r.kind == "GRPCRoute" { FrontKind::GrpcRoute } else { FrontKind::HttpRoute };
        let parents: Vec<Value> = r.parents.iter().map(|p| reference(p, Name::Object)).collect();
        let backends: Vec<Value> = r.backends.iter().map(|b| reference(b, Name::Service)).collect();
        items.push(json!({"apiVersion": api(kind), "kind": r.kind, "metadata": meta(&r.route, Name::Object),
            "spec": {"parentRefs": parents, "rules": [{"backendRefs": backends}]}}));
    }
    for g in &doors.gateways {
        items.push(json!({"apiVersion": api(FrontKind::Gateway), "kind": "Gateway",
            "metadata": meta(&g.gateway, Name::Object), "spec": {"gatewayClassName": name(Name::Object, &g.class)}}));
    }
    for c in &doors.classes {
        items.push(json!({"apiVersion": api(FrontKind::GatewayClass), "kind": "GatewayClass",
            "metadata": {"name": name(Name::Object, &c.name)}, "spec": {"controllerName": c.controller}}));
    }
    for p in &doors.policies {
        let targets: Vec<Value> = p
            .targets
            .iter()
            .map(|(kind, target)| json!({"kind": kind, "name": name(Name::Object, target)}))
            .collect();
        let mut spec = json!({"targetRefs": targets});
        if p.prefer_local {
            spec["loadBalancer"] = json!({"zoneAware": {"preferLocal": {}}});
        }
        items
            .push(json!({"apiVersion": api(FrontKind::BackendTrafficPolicy), "kind": "BackendTrafficPolicy",
            "metadata": meta(&p.policy, Name::Object), "spec": spec}));
    }
    items.extend(ingress_items(doors, name));
    for n in &doors.namespaces {
        items.push(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name(Name::Namespace, &n.name),
            "annotations": {ANNOTATION_ISTIO_TRAFFIC_DISTRIBUTION: n.traffic_distribution}}}));
    }
    items.extend(doors.pods.iter().map(|p| super::pods::pod_item(p, name)));
    items
}

/// The Ingresses, IngressClasses and ingress-nginx's controller Deployment, as `items` writes them.
fn ingress_items(doors: &FrontDoors, name: &dyn Fn(Name, &str) -> String) -> Vec<Value> {
    let api = |kind: FrontKind| FRONT_LISTS.iter().find(|l| l.kind == kind).map(FrontList::api_version);
    let meta = |r: &ObjectRef| json!({"namespace": name(Name::Namespace, &r.namespace), "name": name(Name::Object, &r.name)});
    let mut items = Vec::new();
    for i in &doors.ingresses {
        let paths: Vec<Value> = (i.backends.iter())
            .map(|b| json!({"backend": {"service": {"name": name(Name::Service, &b.name)}}}))
            .collect();
        let mut metadata = meta(&i.ingress);
        if i.service_upstream {
            metadata["annotations"] = json!({"nginx.ingress.kubernetes.io/service-upstream": "true"});
        }
        let class = i.class.as_deref().map(|c| class_name(c, name));
        items.push(json!({"apiVersion": api(FrontKind::Ingress), "kind": "Ingress", "metadata": metadata,
            "spec": {"ingressClassName": class, "rules": [{"http": {"paths": paths}}]}}));
    }
    for c in &doors.ingress_classes {
        items.push(json!({"apiVersion": api(FrontKind::IngressClass), "kind": "IngressClass",
            "metadata": {"name": class_name(&c.name, name)}, "spec": {"controller": c.controller}}));
    }
    if let Some(controller) = &doors.ingress_nginx {
        let args: Vec<String> = controller
            .topology_aware_routing
            .then(|| format!("{INGRESS_NGINX_TOPOLOGY_FLAG}=true"))
            .into_iter()
            .collect();
        let image = controller.image.as_deref().map(|i| name(Name::Image, i));
        items.push(json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"namespace": INGRESS_NGINX_NAMESPACE, "name": INGRESS_NGINX_DEPLOYMENT},
            "spec": {"selector": {}, "template": {"spec": {"containers": [{"name": "controller", "image": image, "args": args}]}}}}));
    }
    items
}

/// An IngressClass's name as written: ingress-nginx's default class name is kept (`--redact`
/// would otherwise hide that an Ingress without an IngressClass object is ingress-nginx's).
fn class_name(class: &str, name: &dyn Fn(Name, &str) -> String) -> String {
    if class == INGRESS_NGINX_CLASS { class.to_string() } else { name(Name::Object, class) }
}

/// What a name in a front-door item stands for, for `--redact`'s pseudonyms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Name {
    Namespace,
    Service,
    /// A route, Gateway, GatewayClass or policy.
    Object,
    /// A controller's image (`--redact`: its component and release only).
    Image,
    /// A Node (a front door's Pod's `nodeName`; `--redact`: the Node's own pseudonym).
    Node,
}

/// ingress-nginx's controller Deployment, as its manifests and Helm chart name it.
pub(crate) const INGRESS_NGINX_NAMESPACE: &str = "ingress-nginx";
/// See [`INGRESS_NGINX_NAMESPACE`].
pub(crate) const INGRESS_NGINX_DEPLOYMENT: &str = "ingress-nginx-controller";

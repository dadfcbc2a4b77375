//! The front-door reads (docs/data-plane.md#front-doors): lists of Gateway API routes, Gateways,
//! GatewayClasses, Envoy Gateway's BackendTrafficPolicies and Namespaces, each item decoded lean
//! ([`LeanItem`]: a route's parentRefs and backendRefs, a Gateway's class, a class's controller, a
//! policy's targets and whether it sets zone-aware routing, a Namespace's one annotation; serde
//! skips every other field without keeping it), into `model::frontdoor`. Pure: the lists are
//! `source/live/frontdoor.rs`, a dump's items come through `convert/object.rs`.

use topo_engine::model::{
    BackendPolicy, DataPlane, FrontPod, Gateway, GatewayClass, GatewayRoute, Ingress, NamespaceMeta,
    ObjectRef, OptionalObject, ReadStatus,
};

/// One listed kind of front-door object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FrontKind {
    HttpRoute,
    GrpcRoute,
    Gateway,
    GatewayClass,
    BackendTrafficPolicy,
    Namespace,
    Ingress,
    IngressClass,
    /// A front door's Pod (`pods.rs`: two lists by label selector, not in [`FRONT_LISTS`]).
    Pod,
}

/// One front-door list: the kind, its API group and version, its plural, the read it answers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FrontList {
    pub(crate) kind: FrontKind,
    pub(crate) group: &'static str,
    pub(crate) version: &'static str,
    pub(crate) name: &'static str,
    pub(crate) plural: &'static str,
    pub(crate) object: OptionalObject,
}

const GATEWAY_API: &str = "gateway.networking.k8s.io";

const NETWORKING: &str = "networking.k8s.io";

/// Every front-door list. `deploy/rbac.yaml` grants `list` on exactly these.
pub(crate) const FRONT_LISTS: [FrontList; 8] = [
    FrontList {
        kind: FrontKind::HttpRoute,
        group: GATEWAY_API,
        version: "v1",
        name: "HTTPRoute",
        plural: "httproutes",
        object: OptionalObject::HttpRoutes,
    },
    FrontList {
        kind: FrontKind::GrpcRoute,
        group: GATEWAY_API,
        version: "v1",
        name: "GRPCRoute",
        plural: "grpcroutes",
        object: OptionalObject::GrpcRoutes,
    },
    FrontList {
        kind: FrontKind::Gateway,
        group: GATEWAY_API,
        version: "v1",
        name: "Gateway",
        plural: "gateways",
        object: OptionalObject::Gateways,
    },
    FrontList {
        kind: FrontKind::GatewayClass,
        group: GATEWAY_API,
        version: "v1",
        name: "GatewayClass",
        plural: "gatewayclasses",
        object: OptionalObject::GatewayClasses,
    },
    FrontList {
        kind: FrontKind::BackendTrafficPolicy,
        group: "gateway.envoyproxy.io",
        version: "v1alpha1",
        name: "BackendTrafficPolicy",
        plural: "backendtrafficpolicies",
        object: OptionalObject::BackendTrafficPolicies,
    },
    FrontList {
        kind: FrontKind::Namespace,
        group: "",
        version: "v1",
        name: "Namespace",
        plural: "namespaces",
        object: OptionalObject::Namespaces,
    },
    FrontList {
        kind: FrontKind::Ingress,
        group: NETWORKING,
        version: "v1",
        name: "Ingress",
        plural: "ingresses",
        object: OptionalObject::Ingresses,
    },
    FrontList {
        kind: FrontKind::IngressClass,
        group: NETWORKING,
        version: "v1",
        name: "IngressClass",
        plural: "ingressclasses",
        object: OptionalObject::IngressClasses,
    },
];

impl FrontList {
    /// `group/version` (`v1` for the core group).
    pub(crate) fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_string()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }
}

/// The list an object of `api_version` and `kind` belongs to. Gateway API objects are taken at
/// `v1` and `v1beta1` alike (the fields read are the same).
pub(crate) fn front_list(api_version: &str, kind: &str) -> Option<&'static FrontList> {
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    FRONT_LISTS.iter().find(|l| {
        l.name == kind
            && l.group == group
            && (l.version == version || (group == GATEWAY_API && version == "v1beta1"))
    })
}

/// What one front-door object contributes to the model.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FrontObject {
    Route(GatewayRoute),
    Gateway(Gateway),
    Class(GatewayClass),
    Policy(BackendPolicy),
    /// A Namespace; `None` when it has no Istio annotation (nothing kept).
    Namespace(Option<NamespaceMeta>),
    /// An Ingress; `None` when it names no Service (nothing kept).
    Ingress(Option<Ingress>),
    IngressClass(GatewayClass),
    Pod(FrontPod),
}

impl FrontKind {
    /// The read it answers.
    pub(crate) fn object(self) -> OptionalObject {
        if self == FrontKind::Pod {
            return OptionalObject::FrontDoorPods;
        }
        FRONT_LISTS.iter().find(|l| l.kind == self).map_or(OptionalObject::Namespaces, |l| l.object)
    }

    /// Its name in a dump's messages.
    pub(crate) fn label(self) -> &'static str {
        match self {
            FrontKind::HttpRoute => "httproute",
            FrontKind::GrpcRoute => "grpcroute",
            FrontKind::Gateway => "gateway",
            FrontKind::GatewayClass => "gatewayclass",
            FrontKind::BackendTrafficPolicy => "backendtrafficpolicy",
            FrontKind::Namespace => "namespace",
            FrontKind::Ingress => "ingress",
            FrontKind::IngressClass => "ingressclass",
            // Not `pod`: `dump -A` writes the same Pod again among the workloads' (without its
            // labels), which is no duplicate.
            FrontKind::Pod => "front-door pod",
        }
    }
}

impl FrontObject {
    /// Puts it into `data_plane`.
    pub(crate) fn apply(self, data_plane: &mut DataPlane) {
        let doors = &mut data_plane.front_doors;
        match self {
            FrontObject::Route(r) => doors.routes.push(r),
            FrontObject::Gateway(g) => doors.gateways.push(g),
            FrontObject::Class(c) => doors.classes.push(c),
            FrontObject::Policy(p) => doors.policies.push(p),
            FrontObject::Namespace(n) => doors.namespaces.extend(n),
            FrontObject::Ingress(i) => doors.ingresses.extend(i),
            FrontObject::IngressClass(c) => doors.ingress_classes.push(c),
            FrontObject::Pod(p) => {
                if !doors.pods.iter().any(|q| q.pod == p.pod) {
                    doors.pods.push(p);
                }
            }
        }
    }
}

fn is_kind(r: &LeanRef, group: &str, kind: &str) -> bool {
    r.group.as_deref().unwrap_or(group) == group && r.kind.as_deref().unwrap_or(kind) == kind
}

/// One item of `kind`, decoded lean, into the model.
pub(crate) fn front_object(kind: FrontKind, item: LeanItem) -> FrontObject {
    let LeanItem { metadata, spec } = item;
    let namespace = metadata.namespace.unwrap_or_default();
    let this = ObjectRef { namespace: namespace.clone(), name: metadata.name.clone() };
    let resolve = |r: &LeanRef| ObjectRef {
        namespace: r.namespace.clone().unwrap_or_else(|| namespace.clone()),
        name: r.name.clone(),
    };
    match kind {
        FrontKind::HttpRoute | FrontKind::GrpcRoute => FrontObject::Route(GatewayRoute {
            kind: if kind == FrontKind::HttpRoute { "HTTPRoute" } else { "GRPCRoute" }.to_string(),
            route: this.clone(),
            parents: spec
                .parent_refs
                .iter()
                .filter(|r| is_kind(r, GATEWAY_API, "Gateway"))
                .map(resolve)
                .collect(),
            backends: (spec.rules.iter().flat_map(|rule| &rule.backend_refs))
                .filter(|r| is_kind(r, "", "Service"))
                .map(resolve)
                .collect(),
        }),
        FrontKind::Gateway => FrontObject::Gateway(Gateway {
            gateway: this,
            class: spec.gateway_class_name.unwrap_or_default(),
        }),
        FrontKind::GatewayClass => FrontObject::Class(GatewayClass {
            name: metadata.name,
            controller: spec.controller_name.unwrap_or_default(),
        }),
        FrontKind::BackendTrafficPolicy => FrontObject::Policy(policy(this, spec)),
        FrontKind::Namespace => FrontObject::Namespace(
            metadata
                .annotations
                .istio_traffic_distribution
                .map(|td| NamespaceMeta { name: metadata.name, traffic_distribution: Some(td) }),
        ),
        FrontKind::Ingress => FrontObject::Ingress(ingress(this, spec, metadata.annotations)),
        FrontKind::IngressClass => FrontObject::IngressClass(GatewayClass {
            name: metadata.name,
            controller: spec.controller.unwrap_or_default(),
        }),
        // Never listed as a LeanItem (`pods.rs` decodes them); nothing to keep.
        FrontKind::Pod => FrontObject::Namespace(None),
    }
}

/// A BackendTrafficPolicy's targets and whether it sets zone-aware routing.
fn policy(this: ObjectRef, spec: lean::LeanSpec) -> BackendPolicy {
    BackendPolicy {
        policy: this,
        targets: (spec.target_refs.iter().chain(spec.target_ref.as_ref()))
            .map(|r| (r.kind.clone().unwrap_or_default(), r.name.clone()))
            .collect(),
        prefer_local: spec
            .load_balancer
            .and_then(|lb| lb.zone_aware)
            .is_some_and(|z| z.prefer_local.is_some()),
    }
}

/// An Ingress's class and the Services it names (`None`: it names none, nothing is kept).
fn ingress(this: ObjectRef, spec: lean::LeanSpec, annotations: lean::LeanAnnotations) -> Option<Ingress> {
    let paths = spec.rules.iter().filter_map(|rule| rule.http.as_ref()).flat_map(|h| &h.paths);
    let backends: Vec<ObjectRef> =
        (spec.default_backend.iter().chain(paths.filter_map(|p| p.backend.as_ref())))
            .filter_map(|b| b.service.as_ref())
            .map(|s| ObjectRef { namespace: this.namespace.clone(), name: s.name.clone() })
            .collect();
    let upstream =
        |v: &serde_json::Value| v.as_bool() == Some(true) || v.as_str().is_some_and(|t| t.trim() == "true");
    (!backends.is_empty()).then(|| Ingress {
        ingress: this,
        class: spec.ingress_class_name.or(annotations.ingress_class),
        backends,
        service_upstream: annotations.service_upstream.as_ref().is_some_and(upstream),
    })
}

/// The Gateway API reads are one family: a dump holding any of them holds the others it has (a
/// `kubectl get httproutes,grpcroutes,gateways,gatewayclasses` of a cluster without GRPCRoutes
/// writes none), so those count as read and empty rather than not in the dump.
pub(crate) fn dump_statuses(data_plane: &mut DataPlane) {
    let gateway_api: &[OptionalObject] = &[
        OptionalObject::HttpRoutes,
        OptionalObject::GrpcRoutes,
        OptionalObject::Gateways,
        OptionalObject::GatewayClasses,
    ];
    // The same for `kubectl get ingresses,ingressclasses` of a cluster without one of them.
    let ingress: &[OptionalObject] = &[OptionalObject::Ingresses, OptionalObject::IngressClasses];
    for family in [gateway_api, ingress] {
        if family.iter().any(|o| data_plane.status(*o) == Some(ReadStatus::Read)) {
            for object in family {
                data_plane.reads.entry(*object).or_insert(ReadStatus::Read);
            }
        }
    }
}

mod items;
mod lean;
mod pods;
pub(crate) use items::{INGRESS_NGINX_DEPLOYMENT, INGRESS_NGINX_NAMESPACE, Name, items};
pub(crate) use lean::LeanItem;
use lean::LeanRef;
pub(crate) use pods::{FRONT_POD_SELECTORS, LeanPod, is_front_pod, pod_found};

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn decode(kind: FrontKind, value: Value) -> FrontObject {
        front_object(kind, serde_json::from_value(value).unwrap())
    }

    #[test]
    fn a_route_keeps_its_gateways_and_services_only() {
        let route = decode(
            FrontKind::HttpRoute,
            json!({"metadata": {"name": "web", "namespace": "shop", "labels": {"a": "b"}},
                "spec": {"hostnames": ["x"], "parentRefs": [{"name": "eg", "namespace": "infra"},
                    {"group": "", "kind": "Service", "name": "mesh"}],
                "rules": [{"matches": [{"path": {"value": "/"}}], "backendRefs": [{"name": "backend", "port": 80},
                    {"group": "gateway.envoyproxy.io", "kind": "Backend", "name": "ext"}]}]}}),
        );
        let FrontObject::Route(route) = route else { panic!("a route") };
        assert_eq!(route.parents, vec![ObjectRef { namespace: "infra".into(), name: "eg".into() }]);
        assert_eq!(route.backends, vec![ObjectRef { namespace: "shop".into(), name: "backend".into() }]);
    }

    #[test]
    fn a_policy_sets_zone_aware_only_with_prefer_local() {
        let policy = |lb: Value| match decode(
            FrontKind::BackendTrafficPolicy,
            json!({"metadata": {"name": "p", "namespace": "shop"},
                "spec": {"targetRefs": [{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "name": "web"}],
                    "loadBalancer": lb}}),
        ) {
            FrontObject::Policy(p) => p,
            _ => panic!("a policy"),
        };
        assert!(
            policy(json!({"type": "RoundRobin", "zoneAware": {"preferLocal": {"minEndpointsThreshold": 3}}}))
                .prefer_local
        );
        assert!(!policy(json!({"type": "RoundRobin"})).prefer_local);
        assert_eq!(policy(json!({})).targets, vec![("HTTPRoute".to_string(), "web".to_string())]);
    }

    #[test]
    fn an_ingress_keeps_its_class_and_services_only() {
        let ingress = decode(
            FrontKind::Ingress,
            json!({"metadata": {"name": "web", "namespace": "shop", "annotations": {
                    "kubernetes.io/ingress.class": "nginx", "nginx.ingress.kubernetes.io/service-upstream": "true"}},
                "spec": {"defaultBackend": {"service": {"name": "fallback", "port": {"number": 80}}},
                    "rules": [{"host": "x", "http": {"paths": [{"path": "/", "backend": {"service": {"name": "backend"}}},
                        {"path": "/static", "backend": {"resource": {"kind": "StorageBucket", "name": "b"}}}]}}]}}),
        );
        let FrontObject::Ingress(Some(ingress)) = ingress else { panic!("an Ingress") };
        let names: Vec<&str> = ingress.backends.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["fallback", "backend"]);
        assert_eq!((ingress.class.as_deref(), ingress.service_upstream), (Some("nginx"), true));
        let none = decode(
            FrontKind::Ingress,
            json!({"metadata": {"name": "r"}, "spec": {"rules": [{"host": "x"}]}}),
        );
        assert_eq!(none, FrontObject::Ingress(None), "no Service named: nothing kept");
        assert_eq!(
            front_list("networking.k8s.io/v1", "IngressClass").map(|l| l.kind),
            Some(FrontKind::IngressClass)
        );
    }

    #[test]
    fn lists_are_recognised_by_group_and_kind() {
        assert_eq!(
            front_list("gateway.networking.k8s.io/v1beta1", "HTTPRoute").map(|l| l.kind),
            Some(FrontKind::HttpRoute)
        );
        assert_eq!(front_list("v1", "Namespace").map(|l| l.kind), Some(FrontKind::Namespace));
        assert!(front_list("networking.istio.io/v1", "Gateway").is_none(), "Istio's own Gateway");
    }
}

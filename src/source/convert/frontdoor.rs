//! The front-door reads (docs/data-plane.md#front-doors): lists of Gateway API routes, Gateways,
//! GatewayClasses, Envoy Gateway's BackendTrafficPolicies and Namespaces, each item decoded lean
//! ([`LeanItem`]: a route's parentRefs and backendRefs, a Gateway's class, a class's controller, a
//! policy's targets and whether it sets zone-aware routing, a Namespace's one annotation; serde
//! skips every other field without keeping it), into `model::frontdoor`. Pure: the lists are
//! `source/live/frontdoor.rs`, a dump's items come through `dump/outcome.rs`.

use serde::Deserialize;
use serde::de::IgnoredAny;

use topo_engine::model::{
    BackendPolicy, DataPlane, Gateway, GatewayClass, GatewayRoute, NamespaceMeta, ObjectRef, OptionalObject,
    ReadStatus,
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

/// Every front-door list. `deploy/rbac.yaml` grants `list` on exactly these.
pub(crate) const FRONT_LISTS: [FrontList; 6] = [
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

/// An item of any front-door list, decoded lean.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct LeanItem {
    #[serde(default, deserialize_with = "nullable")]
    metadata: LeanMeta,
    #[serde(default, deserialize_with = "nullable")]
    spec: LeanSpec,
}

impl LeanItem {
    /// Its namespace (empty for a cluster-scoped object).
    pub(crate) fn namespace(&self) -> &str {
        self.metadata.namespace.as_deref().unwrap_or("")
    }
}

#[derive(Debug, Default, Deserialize)]
struct LeanMeta {
    #[serde(default, deserialize_with = "nullable")]
    name: String,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    annotations: LeanAnnotations,
}

#[derive(Debug, Default, Deserialize)]
struct LeanAnnotations {
    #[serde(rename = "networking.istio.io/traffic-distribution", default)]
    istio_traffic_distribution: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LeanSpec {
    #[serde(default, deserialize_with = "nullable")]
    parent_refs: Vec<LeanRef>,
    #[serde(default, deserialize_with = "nullable")]
    rules: Vec<LeanRule>,
    #[serde(default)]
    gateway_class_name: Option<String>,
    #[serde(default)]
    controller_name: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    target_refs: Vec<LeanRef>,
    #[serde(default)]
    target_ref: Option<LeanRef>,
    #[serde(default)]
    load_balancer: Option<LeanLoadBalancer>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LeanRule {
    #[serde(default, deserialize_with = "nullable")]
    backend_refs: Vec<LeanRef>,
}

#[derive(Debug, Default, Deserialize)]
struct LeanRef {
    #[serde(default)]
    group: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    name: String,
    #[serde(default)]
    namespace: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LeanLoadBalancer {
    #[serde(default)]
    zone_aware: Option<LeanZoneAware>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LeanZoneAware {
    #[serde(default)]
    prefer_local: Option<IgnoredAny>,
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
}

impl FrontKind {
    /// The read it answers.
    pub(crate) fn object(self) -> OptionalObject {
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
        }
    }
}

fn is_kind(r: &LeanRef, group: &str, kind: &str) -> bool {
    r.group.as_deref().unwrap_or(group) == group && r.kind.as_deref().unwrap_or(kind) == kind
}

/// A field given as `null` reads as its default, as k8s-openapi reads it.
fn nullable<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Option::<T>::deserialize(deserializer).map(Option::unwrap_or_default)
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
        FrontKind::BackendTrafficPolicy => FrontObject::Policy(BackendPolicy {
            policy: this,
            targets: (spec.target_refs.iter().chain(spec.target_ref.as_ref()))
                .map(|r| (r.kind.clone().unwrap_or_default(), r.name.clone()))
                .collect(),
            prefer_local: spec
                .load_balancer
                .and_then(|lb| lb.zone_aware)
                .is_some_and(|z| z.prefer_local.is_some()),
        }),
        FrontKind::Namespace => FrontObject::Namespace(
            metadata
                .annotations
                .istio_traffic_distribution
                .map(|td| NamespaceMeta { name: metadata.name, traffic_distribution: Some(td) }),
        ),
    }
}

/// The Gateway API reads are one family: a dump holding any of them holds the others it has (a
/// `kubectl get httproutes,grpcroutes,gateways,gatewayclasses` of a cluster without GRPCRoutes
/// writes none), so those count as read and empty rather than not in the dump.
pub(crate) fn dump_statuses(data_plane: &mut DataPlane) {
    let family = [
        OptionalObject::HttpRoutes,
        OptionalObject::GrpcRoutes,
        OptionalObject::Gateways,
        OptionalObject::GatewayClasses,
    ];
    if family.iter().any(|o| data_plane.status(*o) == Some(ReadStatus::Read)) {
        for object in family {
            data_plane.reads.entry(object).or_insert(ReadStatus::Read);
        }
    }
}

mod items;
pub(crate) use items::{Name, items};

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
    fn lists_are_recognised_by_group_and_kind() {
        assert_eq!(
            front_list("gateway.networking.k8s.io/v1beta1", "HTTPRoute").map(|l| l.kind),
            Some(FrontKind::HttpRoute)
        );
        assert_eq!(front_list("v1", "Namespace").map(|l| l.kind), Some(FrontKind::Namespace));
        assert!(front_list("networking.istio.io/v1", "Gateway").is_none(), "Istio's own Gateway");
    }
}

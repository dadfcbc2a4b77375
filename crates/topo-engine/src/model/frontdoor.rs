//! The front doors users put before Services (docs/data-plane.md#front-doors): Gateway API routes
//! whose Gateway Envoy Gateway controls, Envoy Gateway's BackendTrafficPolicies, and Istio ambient's
//! ztunnel with the Namespaces' `networking.istio.io/traffic-distribution`. Read by the optional
//! reads, reduced to the few fields the rules read (a route's parentRefs and backendRefs, a
//! Gateway's class, a class's controller, a policy's targets and whether it sets zone-aware
//! routing, a Namespace's one annotation).

use serde::{Deserialize, Serialize};

use super::ingress::{INGRESS_NGINX_CLASS, INGRESS_NGINX_CONTROLLER, Ingress, IngressController, Linkerd};
use super::object_ref::ObjectRef;

/// Envoy Gateway's controller name (envoyproxy/gateway `api/v1alpha1/envoygateway_types.go`,
/// `GatewayControllerName`).
pub const ENVOY_GATEWAY_CONTROLLER: &str = "gateway.envoyproxy.io/gatewayclass-controller";

/// Istio's traffic-distribution annotation, on a Service or its Namespace (istio/istio
/// `pilot/pkg/model/service.go`, `GetTrafficDistribution`).
pub const ANNOTATION_ISTIO_TRAFFIC_DISTRIBUTION: &str = "networking.istio.io/traffic-distribution";

/// A Gateway API route (HTTPRoute or GRPCRoute), reduced to what the rules read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayRoute {
    /// `HTTPRoute` or `GRPCRoute`.
    pub kind: String,
    /// The route itself.
    pub route: ObjectRef,
    /// Its `parentRefs` of kind Gateway.
    #[serde(default)]
    pub parents: Vec<ObjectRef>,
    /// Its rules' `backendRefs` of kind Service (core group).
    #[serde(default)]
    pub backends: Vec<ObjectRef>,
}

/// A Gateway and its class.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Gateway {
    /// The Gateway.
    pub gateway: ObjectRef,
    /// `spec.gatewayClassName`.
    pub class: String,
}

/// A GatewayClass and its controller.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayClass {
    /// Its name.
    pub name: String,
    /// `spec.controllerName`.
    pub controller: String,
}

/// An Envoy Gateway BackendTrafficPolicy: its targets and whether it sets
/// `loadBalancer.zoneAware.preferLocal`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BackendPolicy {
    /// The policy.
    pub policy: ObjectRef,
    /// Its `targetRefs` (and `targetRef`): `(kind, name)` in the policy's namespace.
    #[serde(default)]
    pub targets: Vec<(String, String)>,
    /// `spec.loadBalancer.zoneAware.preferLocal` is set.
    #[serde(default)]
    pub prefer_local: bool,
}

/// A Namespace's Istio traffic-distribution annotation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NamespaceMeta {
    /// Its name.
    pub name: String,
    /// `networking.istio.io/traffic-distribution`, when set.
    #[serde(default)]
    pub traffic_distribution: Option<String>,
}

/// What the front-door reads found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FrontDoors {
    /// HTTPRoutes and GRPCRoutes.
    #[serde(default)]
    pub routes: Vec<GatewayRoute>,
    /// Gateways.
    #[serde(default)]
    pub gateways: Vec<Gateway>,
    /// GatewayClasses.
    #[serde(default)]
    pub classes: Vec<GatewayClass>,
    /// Envoy Gateway's BackendTrafficPolicies.
    #[serde(default)]
    pub policies: Vec<BackendPolicy>,
    /// Namespaces with Istio's annotation (others are not kept).
    #[serde(default)]
    pub namespaces: Vec<NamespaceMeta>,
    /// The image of DaemonSet `istio-system/ztunnel` (Istio ambient's node proxy), when read.
    #[serde(default)]
    pub ztunnel_image: Option<String>,
    /// Ingresses that name a Service.
    #[serde(default)]
    pub ingresses: Vec<Ingress>,
    /// IngressClasses and their `spec.controller`.
    #[serde(default)]
    pub ingress_classes: Vec<GatewayClass>,
    /// ingress-nginx's controller, when its Deployment was read.
    #[serde(default)]
    pub ingress_nginx: Option<IngressController>,
    /// Linkerd's control plane, when linkerd-config was read.
    #[serde(default)]
    pub linkerd: Option<Linkerd>,
    /// The Pods of ingress-nginx's controller and of Envoy Gateway's proxies: where the requests
    /// of the Services behind them come from (docs/stability.md#callers-from-the-front-door).
    #[serde(default)]
    pub pods: Vec<FrontPod>,
}

/// Whose Pod a [`FrontPod`] is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FrontPodOf {
    /// ingress-nginx's controller (labels `app.kubernetes.io/name=ingress-nginx`,
    /// `app.kubernetes.io/component=controller`).
    IngressNginx,
    /// Envoy Gateway's proxy of this Gateway (labels `gateway.envoyproxy.io/owning-gateway-name`
    /// and `-namespace`).
    EnvoyGateway(ObjectRef),
}

/// A front door's Pod, reduced to where it runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FrontPod {
    /// The Pod.
    pub pod: ObjectRef,
    /// Whose it is.
    pub of: FrontPodOf,
    /// `spec.nodeName` (`None`: not scheduled).
    #[serde(default)]
    pub node: Option<String>,
}

/// The front doors whose Pods send one Service's requests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FrontedBy {
    /// The Ingresses and routes (`kind namespace/name`) naming the Service through them.
    pub routes: Vec<String>,
    /// An Ingress of an ingress-nginx class names it (with or without `service-upstream`).
    pub ingress_nginx: bool,
    /// The Envoy Gateway Gateways of the routes naming it.
    pub gateways: Vec<ObjectRef>,
}

/// How Envoy Gateway routes to one Service, from the routes that name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvoyGatewayUse {
    /// The routes (`kind namespace/name`) of an Envoy Gateway Gateway naming the Service.
    pub routes: Vec<String>,
    /// A BackendTrafficPolicy targeting one of those routes or their Gateways that sets
    /// zone-aware routing (`namespace/name`).
    pub policy: Option<String>,
}

impl FrontDoors {
    /// Envoy Gateway's use of Service `namespace/name`: the routes naming it whose parent
    /// Gateway's class Envoy Gateway controls (`None`: no such route).
    pub fn envoy_gateway(&self, namespace: &str, name: &str) -> Option<EnvoyGatewayUse> {
        let names_it =
            |r: &&GatewayRoute| r.backends.iter().any(|b| b.namespace == namespace && b.name == name);
        self.envoy_gateway_of(self.routes.iter().filter(names_it).collect())
    }

    /// [`FrontDoors::envoy_gateway`] of the routes already known to name the Service (an index
    /// by backend: `core::analyze::Cluster`).
    pub fn envoy_gateway_of(&self, naming: Vec<&GatewayRoute>) -> Option<EnvoyGatewayUse> {
        let ours = |parent: &ObjectRef| self.envoy_gateway_controls(parent);
        let routes: Vec<&GatewayRoute> = naming.into_iter().filter(|r| r.parents.iter().any(ours)).collect();
        if routes.is_empty() {
            return None;
        }
        let targets = |p: &BackendPolicy, r: &GatewayRoute| {
            p.targets.iter().any(|(kind, target)| {
                (kind == &r.kind && p.policy.namespace == r.route.namespace && target == &r.route.name)
                    || (kind == "Gateway"
                        && r.parents.iter().any(|g| g.namespace == p.policy.namespace && &g.name == target))
            })
        };
        let policy = self
            .policies
            .iter()
            .filter(|p| p.prefer_local)
            .find(|p| routes.iter().any(|r| targets(p, r)))
            .map(|p| format!("{}/{}", p.policy.namespace, p.policy.name));
        let routes =
            routes.iter().map(|r| format!("{} {}/{}", r.kind, r.route.namespace, r.route.name)).collect();
        Some(EnvoyGatewayUse { routes, policy })
    }

    /// The Istio annotation of Namespace `name`, when set.
    pub fn namespace_traffic_distribution(&self, name: &str) -> Option<&str> {
        self.namespaces.iter().find(|n| n.name == name)?.traffic_distribution.as_deref()
    }

    /// The front doors in front of a Service whose Pods are its callers, from the Ingresses and
    /// routes already known to name it (`core::analyze::Cluster`'s index by backend).
    pub fn fronted_by(&self, ingresses: &[&Ingress], routes: &[&GatewayRoute]) -> FrontedBy {
        let nginx: Vec<&Ingress> = ingresses
            .iter()
            .copied()
            .filter(|i| i.class.as_deref().is_some_and(|c| self.ingress_nginx_class(c)))
            .collect();
        let mut by = FrontedBy { ingress_nginx: !nginx.is_empty(), ..FrontedBy::default() };
        by.routes.extend(nginx.iter().map(|i| format!("Ingress {}/{}", i.ingress.namespace, i.ingress.name)));
        for route in routes {
            let ours: Vec<&ObjectRef> =
                route.parents.iter().filter(|p| self.envoy_gateway_controls(p)).collect();
            if !ours.is_empty() {
                by.routes.push(format!("{} {}/{}", route.kind, route.route.namespace, route.route.name));
                by.gateways.extend(
                    ours.into_iter().filter(|g| !by.gateways.contains(g)).cloned().collect::<Vec<_>>(),
                );
            }
        }
        by
    }

    /// The Pods of the front doors `by` names.
    pub fn caller_pods(&self, by: &FrontedBy) -> Vec<&FrontPod> {
        let theirs = |p: &&FrontPod| match &p.of {
            FrontPodOf::IngressNginx => by.ingress_nginx,
            FrontPodOf::EnvoyGateway(gateway) => by.gateways.contains(gateway),
        };
        self.pods.iter().filter(theirs).collect()
    }

    /// Whether Gateway `parent`'s class is Envoy Gateway's.
    fn envoy_gateway_controls(&self, parent: &ObjectRef) -> bool {
        let gateway = self.gateways.iter().find(|g| &g.gateway == parent);
        gateway.is_some_and(|g| {
            self.classes.iter().any(|c| c.name == g.class && c.controller == ENVOY_GATEWAY_CONTROLLER)
        })
    }

    /// Whether IngressClass `class` is ingress-nginx's (a class not read: its default name).
    fn ingress_nginx_class(&self, class: &str) -> bool {
        match self.ingress_classes.iter().find(|c| c.name == class) {
            Some(c) => c.controller == INGRESS_NGINX_CONTROLLER,
            None => class == INGRESS_NGINX_CLASS,
        }
    }

    /// The Ingresses (`namespace/name`) of an ingress-nginx class that send Service
    /// `namespace/name`'s requests to its endpoints (not those with `service-upstream`, which go to
    /// the ClusterIP); empty when none does.
    pub fn ingress_nginx_routes(&self, namespace: &str, name: &str) -> Vec<String> {
        let names_it = |i: &&Ingress| i.backends.iter().any(|b| b.namespace == namespace && b.name == name);
        self.ingress_nginx_routes_of(self.ingresses.iter().filter(names_it).collect())
    }

    /// [`FrontDoors::ingress_nginx_routes`] of the Ingresses already known to name the Service (an
    /// index by backend: `core::analyze::Cluster`).
    pub fn ingress_nginx_routes_of(&self, naming: Vec<&Ingress>) -> Vec<String> {
        (naming.into_iter())
            .filter(|i| {
                !i.service_upstream && i.class.as_deref().is_some_and(|c| self.ingress_nginx_class(c))
            })
            .map(|i| format!("Ingress {}/{}", i.ingress.namespace, i.ingress.name))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(namespace: &str, name: &str) -> ObjectRef {
        ObjectRef { namespace: namespace.into(), name: name.into() }
    }

    fn doors(controller: &str) -> FrontDoors {
        FrontDoors {
            routes: vec![GatewayRoute {
                kind: "HTTPRoute".into(),
                route: r("shop", "web"),
                parents: vec![r("infra", "eg")],
                backends: vec![r("shop", "backend")],
            }],
            gateways: vec![Gateway { gateway: r("infra", "eg"), class: "eg".into() }],
            classes: vec![GatewayClass { name: "eg".into(), controller: controller.into() }],
            ..FrontDoors::default()
        }
    }

    #[test]
    fn a_route_counts_only_through_an_envoy_gateway_gateway() {
        let eg = doors(ENVOY_GATEWAY_CONTROLLER);
        let used = eg.envoy_gateway("shop", "backend").expect("routed by Envoy Gateway");
        assert_eq!(used.routes, vec!["HTTPRoute shop/web".to_string()]);
        assert_eq!(used.policy, None);
        assert_eq!(eg.envoy_gateway("shop", "other"), None, "another Service");
        assert_eq!(doors("istio.io/gateway-controller").envoy_gateway("shop", "backend"), None);
    }

    #[test]
    fn a_zone_aware_policy_on_the_route_or_its_gateway_is_found() {
        for (ns, kind, name) in [("shop", "HTTPRoute", "web"), ("infra", "Gateway", "eg")] {
            let mut eg = doors(ENVOY_GATEWAY_CONTROLLER);
            let policy = |prefer_local| BackendPolicy {
                policy: r(ns, "zonal"),
                targets: vec![(kind.into(), name.into())],
                prefer_local,
            };
            eg.policies = vec![policy(false)];
            assert_eq!(eg.envoy_gateway("shop", "backend").unwrap().policy, None, "no zoneAware");
            eg.policies = vec![policy(true)];
            assert_eq!(eg.envoy_gateway("shop", "backend").unwrap().policy, Some(format!("{ns}/zonal")));
        }
    }

    #[test]
    fn an_ingress_counts_through_an_ingress_nginx_class_and_not_with_service_upstream() {
        let ingress = |class: &str, service_upstream| Ingress {
            ingress: r("shop", "web"),
            class: Some(class.into()),
            backends: vec![r("shop", "backend")],
            service_upstream,
        };
        let classes = vec![
            GatewayClass { name: "public".into(), controller: INGRESS_NGINX_CONTROLLER.into() },
            GatewayClass { name: "f5".into(), controller: "nginx.org/ingress-controller".into() },
        ];
        let doors =
            |ingresses| FrontDoors { ingresses, ingress_classes: classes.clone(), ..FrontDoors::default() };
        let routed = doors(vec![ingress("public", false)]);
        assert_eq!(routed.ingress_nginx_routes("shop", "backend"), vec!["Ingress shop/web".to_string()]);
        assert!(routed.ingress_nginx_routes("shop", "other").is_empty(), "another Service");
        assert!(doors(vec![ingress("public", true)]).ingress_nginx_routes("shop", "backend").is_empty());
        assert!(doors(vec![ingress("f5", false)]).ingress_nginx_routes("shop", "backend").is_empty());
        let annotated = doors(vec![ingress(INGRESS_NGINX_CLASS, false)]);
        assert_eq!(annotated.ingress_nginx_routes("shop", "backend").len(), 1, "the annotation's nginx");
    }

    #[test]
    fn the_front_doors_of_a_service_are_its_nginx_ingresses_with_or_without_upstream_and_eg_routes() {
        let mut eg = doors(ENVOY_GATEWAY_CONTROLLER);
        let ingress = |name: &str, class: &str, service_upstream| Ingress {
            ingress: r("shop", name),
            class: Some(class.into()),
            backends: vec![r("shop", "backend")],
            service_upstream,
        };
        eg.ingresses = vec![
            ingress("direct", "nginx", false),
            ingress("upstream", "nginx", true),
            ingress("f5", "f5", false),
        ];
        let naming: Vec<&Ingress> = eg.ingresses.iter().collect();
        let routes: Vec<&GatewayRoute> = eg.routes.iter().collect();
        let by = eg.fronted_by(&naming, &routes);
        assert_eq!(by.routes, ["Ingress shop/direct", "Ingress shop/upstream", "HTTPRoute shop/web"]);
        assert!(by.ingress_nginx);
        assert_eq!(by.gateways, vec![r("infra", "eg")]);
        let pods = |of| FrontPod { pod: r("edge", "p"), of, node: None };
        eg.pods = vec![pods(FrontPodOf::IngressNginx), pods(FrontPodOf::EnvoyGateway(r("infra", "other")))];
        assert_eq!(eg.caller_pods(&by), vec![&eg.pods[0]], "another Gateway's proxy is not a caller");
        let none = doors("istio.io/gateway-controller").fronted_by(&[], &routes);
        assert_eq!(none, FrontedBy::default(), "a Gateway Envoy Gateway does not control");
    }
}

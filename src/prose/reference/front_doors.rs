//! The reference pages of the front-door codes (docs/data-plane.md#front-doors): Envoy Gateway and
//! Istio ambient balance a Service's endpoints themselves, by their own reading of the Service.

use super::Entry;
use topo_engine::report::reason::ReasonCode as C;

/// The page of a front door's code (`FrontDoorPrefersZone` for any other: the caller matches
/// only the front doors' codes).
pub(super) fn entry(code: C) -> Entry {
    match code {
        C::FrontDoorPrefersNode => FRONT_DOOR_PREFERS_NODE,
        C::FrontDoorIgnoresValue => FRONT_DOOR_IGNORES_VALUE,
        C::FrontDoorIgnoresHints => FRONT_DOOR_IGNORES_HINTS,
        C::FrontDoorUnknown => FRONT_DOOR_UNKNOWN,
        C::FrontDoorAppliesHints => FRONT_DOOR_APPLIES_HINTS,
        _ => FRONT_DOOR_PREFERS_ZONE,
    }
}

pub(super) const FRONT_DOOR_PREFERS_ZONE: Entry = Entry {
    summary: "A front door (Envoy Gateway, Istio ambient) balances the endpoints itself and prefers its own zone.",
    meaning: "Requests through an Envoy Gateway route, or connections of pods in Istio's ambient mesh, are \
        balanced by Envoy or ztunnel over the Service's endpoints, not by kube-proxy over the hinted \
        ones. They read the Service's trafficDistribution (Envoy Gateway also topology-mode Auto, and a \
        BackendTrafficPolicy's zoneAware.preferLocal; Istio also its own annotation on the Service or \
        its Namespace) and prefer endpoints in their own zone, without the controller's safeguards.",
    upstream: &[
        "envoyproxy/gateway internal/gatewayapi/route.go, processPreferLocalZone (v1.4.0, #5299)",
        "envoyproxy/gateway internal/xds/translator/cluster.go, buildLocalityLbConfig (#6485, v1.5.0)",
        "istio/istio pilot/pkg/model/service.go, GetTrafficDistribution; pilot/pkg/serviceregistry/ambient/services.go",
    ],
    fix: &[("every release", "Nothing to do: the front door keeps that traffic in its zone.")],
};

pub(super) const FRONT_DOOR_PREFERS_NODE: Entry = Entry {
    summary: "Istio ambient's ztunnel prefers endpoints on the client's own node.",
    meaning: "ztunnel balances the connections of pods enrolled in the ambient mesh itself. For \
        trafficDistribution PreferSameNode (or Istio's annotation with that value), and for \
        internalTrafficPolicy Local, it prefers (Local: only uses) endpoints on the client's node.",
    upstream: &[
        "istio/istio pilot/pkg/serviceregistry/ambient/services.go (internalTrafficPolicy, preferSameNodeLoadBalancer)",
        "istio/istio #56042 (PreferSameZone and PreferSameNode, Istio 1.27)",
    ],
    fix: &[("every release", "Nothing to do.")],
};

pub(super) const FRONT_DOOR_IGNORES_VALUE: Entry = Entry {
    summary: "A front door reads the Service's value but routes otherwise (Envoy Gateway: any value is same-zone).",
    meaning: "Envoy Gateway checks only that trafficDistribution is set: PreferClose, PreferSameZone and \
        PreferSameNode all become \"prefer the local zone, forced\" for requests through its routes \
        (envoyproxy/gateway#9537), so PreferSameNode does not keep traffic on the node there. An Istio \
        release that predates a value (PreferSameZone and PreferSameNode before 1.27, the Namespace \
        annotation before 1.30) treats it as no preference.",
    upstream: &[
        "envoyproxy/gateway #9537; internal/gatewayapi/route.go, processPreferLocalZone",
        "istio/istio #56042 (1.27), #58701 (Namespace annotation, 1.30)",
    ],
    fix: &[
        (
            "Envoy Gateway",
            "Set a BackendTrafficPolicy with loadBalancer.zoneAware on the route to choose its thresholds; \
             same-node routing through the gateway is not available.",
        ),
        ("Istio before 1.27 / 1.30", "Upgrade Istio, or use a value it reads (PreferClose)."),
    ],
};

pub(super) const FRONT_DOOR_IGNORES_HINTS: Entry = Entry {
    summary: "A front door balances the endpoints itself and reads nothing that asks for topology here.",
    meaning: "Envoy Gateway and Istio's ztunnel do not read the hints in the EndpointSlices. A Service that \
        asks for them only through keys those front doors do not read (the deprecated \
        topology-aware-hints annotation; for ztunnel also topology-mode Auto) gets its front-door \
        traffic sent to every endpoint, while kube-proxy keeps other traffic in zone. ingress-nginx \
        reads the hints only with --enable-topology-aware-routing (v1.6.0 and later), Linkerd only from \
        stable-2.12 with enableEndpointSlices on.",
    upstream: &[
        "envoyproxy/gateway internal/gatewayapi/route.go, processPreferLocalZone (topology-mode Auto only)",
        "istio/istio pilot/pkg/serviceregistry/ambient/services.go (no EndpointSlice hints)",
        "kubernetes/ingress-nginx cmd/nginx/flags.go (--enable-topology-aware-routing, #9165)",
        "linkerd/linkerd2 controller/api/destination/endpoint_translator.go, filterAddresses",
    ],
    fix: &[
        (
            "Envoy Gateway, Istio ambient",
            "Set spec.trafficDistribution: PreferClose (Istio also reads networking.istio.io/traffic-distribution), \
             where the Kubernetes release has the field.",
        ),
        (
            "ingress-nginx v1.6.0 and later",
            "Start the controller with --enable-topology-aware-routing (Helm \
             controller.enableTopologyAwareRouting=true), with controller pods in every zone.",
        ),
        ("Linkerd", "Upgrade to stable-2.12 or later and keep enableEndpointSlices on."),
    ],
};

pub(super) const FRONT_DOOR_UNKNOWN: Entry = Entry {
    summary: "Whether a front door (Envoy Gateway, Istio ambient, ingress-nginx, Linkerd) routes the Service is unknown.",
    meaning: "The Gateway API routes, Gateways, GatewayClasses, DaemonSet istio-system/ztunnel, the \
        Ingresses and IngressClasses, ingress-nginx's controller Deployment or ConfigMap \
        linkerd/linkerd-config could not be read (forbidden, failed, or not in the dump), so whether \
        that front door balances the Service's endpoints itself, and how, is unknown. kubectl topo says \
        so instead of assuming kube-proxy.",
    upstream: &["docs/data-plane.md#front-doors (the objects read)"],
    fix: &[(
        "every release",
        "Let the reader list the Gateway API routes, Gateways, GatewayClasses, Ingresses, IngressClasses \
         and Namespaces and get istio-system/ztunnel, ingress-nginx/ingress-nginx-controller and \
         linkerd/linkerd-config (deploy/rbac.yaml), or add them to the dump (docs/data-plane.md).",
    )],
};

pub(super) const FRONT_DOOR_APPLIES_HINTS: Entry = Entry {
    summary: "A front door (ingress-nginx with its flag, Linkerd) balances the endpoints itself and follows the zone hints.",
    meaning: "ingress-nginx's controller and Linkerd's destination controller read the Service's \
        EndpointSlices themselves. With ingress-nginx's --enable-topology-aware-routing (controller \
        v1.6.0 and later) and in Linkerd from stable-2.12 (with EndpointSlices on, the default), they keep \
        the endpoints whose zone hints name their own zone, as kube-proxy does, so the Service's hint \
        verdict holds for that traffic too. Both read the zone hints only, and only when every endpoint \
        has one; ingress-nginx has no fallback when none is for its zone (kubernetes/ingress-nginx#11342).",
    upstream: &[
        "kubernetes/ingress-nginx internal/ingress/controller/endpointslices.go, getEndpointsFromSlices (#9165, v1.6.0)",
        "linkerd/linkerd2 controller/api/destination/endpoint_translator.go, filterAddresses (stable-2.12)",
    ],
    fix: &[(
        "every release",
        "Nothing to do for the front door: the hints decide (see the Service's other reasons). Run \
         ingress-nginx's controller pods in every zone that has endpoints.",
    )],
};

//! The words of the front doors (docs/data-plane.md#front-doors): Envoy Gateway, Istio ambient,
//! ingress-nginx and Linkerd, one sentence and one remedy per verdict. The front door's name is the verdict's `zone` fact.

use topo_engine::report::reason::{Facts, Reason, ReasonCode as C};

use super::quoted;

fn door(f: &Facts) -> &str {
    f.zone.as_deref().unwrap_or("The front door")
}

/// What asked, as a clause: ` (KEY="VALUE")`; nothing when no fact says (a reference page).
fn asked(f: &Facts) -> String {
    f.key.as_deref().map_or_else(String::new, |key| format!(" ({key}={})", quoted(&f.value)))
}

/// What asked, as an object: `KEY="VALUE"`, else "it".
fn asked_object(f: &Facts) -> String {
    f.key.as_deref().map_or_else(|| "it".to_string(), |key| format!("{key}={}", quoted(&f.value)))
}

/// The routes naming the Service (Envoy Gateway), as a clause.
fn routes(f: &Facts) -> String {
    match f.nodes.as_slice() {
        [] => String::new(),
        [one] => format!(" ({one})"),
        [first, rest @ ..] => format!(" ({first} and {} more)", rest.len()),
    }
}

/// A front door that reads the zone hints itself (ingress-nginx, Linkerd).
fn hint_reader(f: &Facts) -> bool {
    matches!(f.zone.as_deref(), Some("ingress-nginx" | "Linkerd"))
}

/// The sentence of a front-door verdict (`None` for any other code).
pub(super) fn sentence(reason: &Reason) -> Option<String> {
    let f = &reason.facts;
    Some(match reason.code {
        C::FrontDoorPrefersZone => format!(
            "{}{} balances this Service's endpoints itself, not through the hints, and prefers its own \
             zone{}, without the controller's safeguards.",
            door(f),
            routes(f),
            asked(f)
        ),
        C::FrontDoorPrefersNode => format!(
            "{} balances this Service's endpoints itself and prefers the client's own node{}.",
            door(f),
            asked(f)
        ),
        C::FrontDoorIgnoresValue => format!(
            "{}{} reads {} but does not route as it asks: {}",
            door(f),
            routes(f),
            asked_object(f),
            match door(f) {
                "ingress-nginx" | "Linkerd" =>
                    "it reads the zone hints only, so this traffic stays in the \
                     client's zone, not on its node.",
                _ =>
                    "Envoy Gateway keeps every trafficDistribution value in the local zone, and an Istio \
                     release without the value routes anywhere.",
            }
        ),
        C::FrontDoorAppliesHints => format!(
            "{}{} balances this Service's endpoints itself and keeps those whose zone hints name its own \
             zone, as kube-proxy does{}: the hints decide for that traffic too.",
            door(f),
            routes(f),
            if door(f) == "ingress-nginx" { " (but with no fallback when none is for its zone)" } else { "" }
        ),
        C::FrontDoorIgnoresHints => format!(
            "{}{} balances this Service's endpoints itself and does not read {} or the hints: its \
             traffic goes to every endpoint.",
            door(f),
            routes(f),
            asked_object(f)
        ),
        C::FrontDoorUnknown => format!(
            "Whether a front door balances this Service is unknown: the {} read was {}.",
            f.key.as_deref().unwrap_or("front-door"),
            super::partial::status(f.value.as_deref())
        ),
        _ => return None,
    })
}

/// The remedy of a front-door verdict (`None` for any other code).
pub(super) fn remedy(reason: &Reason) -> Option<String> {
    let f = &reason.facts;
    let istio = f.zone.as_deref() == Some("Istio ambient");
    Some(match reason.code {
        C::FrontDoorPrefersZone | C::FrontDoorPrefersNode => "See the reasons below.".into(),
        C::FrontDoorAppliesHints if f.zone.as_deref() == Some("ingress-nginx") => "Run ingress-nginx's \
             controller pods in every zone that has endpoints: a controller whose zone has no hinted \
             endpoint answers 503 (kubernetes/ingress-nginx#11342)."
            .into(),
        C::FrontDoorAppliesHints => "See the reasons below.".into(),
        C::FrontDoorIgnoresValue if hint_reader(f) => "Through this front door the Service is routed \
             same-zone, not same-node: use PreferSameZone, or send node-local clients to the Service \
             directly."
            .into(),
        C::FrontDoorIgnoresHints if f.zone.as_deref() == Some("ingress-nginx") => "Start ingress-nginx's \
             controller with --enable-topology-aware-routing (v1.6.0 and later; Helm \
             controller.enableTopologyAwareRouting=true), or set nginx.ingress.kubernetes.io/service-upstream: \
             \"true\" on the Ingress so that kube-proxy routes it."
            .into(),
        C::FrontDoorIgnoresHints if f.zone.as_deref() == Some("Linkerd") => "Upgrade Linkerd to \
             stable-2.12 or later and keep enableEndpointSlices on: its destination controller reads the \
             hints from there."
            .into(),
        C::FrontDoorIgnoresValue if istio => {
            "Upgrade Istio, or use a value it reads (PreferClose on the Service).".into()
        }
        C::FrontDoorIgnoresValue => "Through Envoy Gateway this Service is routed same-zone, not same-node: \
             tune it with a BackendTrafficPolicy (loadBalancer.zoneAware) on the route, or send \
             node-local clients to the Service directly."
            .into(),
        C::FrontDoorIgnoresHints if istio => "Set spec.trafficDistribution: PreferClose (or Istio's \
             networking.istio.io/traffic-distribution) on the Service: ztunnel reads those, not the hints."
            .into(),
        C::FrontDoorIgnoresHints => "Set spec.trafficDistribution: PreferClose, or topology-mode: Auto, on \
             the Service (or a BackendTrafficPolicy with loadBalancer.zoneAware on the route): Envoy \
             Gateway reads those, not the hints."
            .into(),
        C::FrontDoorUnknown => "Let kubectl-topo read the front doors: list the Gateway API routes, \
             Gateways, GatewayClasses, Ingresses, IngressClasses and Namespaces and get istio-system/ztunnel, \
             ingress-nginx/ingress-nginx-controller and linkerd/linkerd-config (deploy/rbac.yaml), or add them \
             to the dump."
            .into(),
        _ => return None,
    })
}

//! The front doors before a Service (docs/data-plane.md#front-doors): Envoy Gateway, whose Envoy
//! proxies balance a routed Service's endpoints themselves, and Istio ambient's ztunnel, which
//! balances enrolled pods' connections. Neither reads the hints in the EndpointSlices: each reads
//! the Service's own field and annotations by its own rules, cited per rule. A front door whose
//! read failed, was forbidden or is not in the dump is one `FrontDoorUnknown` path.

use crate::model::{
    ANNOTATION_ISTIO_TRAFFIC_DISTRIBUTION, ANNOTATION_TOPOLOGY_AWARE_HINTS, ANNOTATION_TOPOLOGY_MODE,
    DataPlane, GatewayRoute, OptionalObject as O, ReadStatus, Service,
};
use crate::report::dataplane::{DataPath, PathKind, Traffic, VersionSource};
use crate::report::reason::{Facts, ReasonCode as C};

/// Envoy Gateway reads the field by presence and `topology-mode` `Auto`/`auto` (envoyproxy/gateway
/// `internal/gatewayapi/route.go`, `processPreferLocalZone`, since v1.4.0, #5299).
const CITE_EG_SERVICE: &str =
    "envoyproxy/gateway internal/gatewayapi/route.go processPreferLocalZone (v1.4.0, #5299)";
/// Any value of the field is same-zone (envoyproxy/gateway#9537).
const CITE_EG_VALUE: &str =
    "envoyproxy/gateway#9537 (internal/gatewayapi/route.go processPreferLocalZone checks presence only)";
/// A BackendTrafficPolicy's `loadBalancer.zoneAware.preferLocal` wins over the Service's
/// (`internal/xds/translator/cluster.go`, `buildLocalityLbConfig`; v1.5.0, #6485).
const CITE_EG_POLICY: &str = "envoyproxy/gateway internal/xds/translator/cluster.go buildLocalityLbConfig (BackendTrafficPolicy zoneAware, v1.5.0, #6485)";
/// ztunnel's Service load balancing: internalTrafficPolicy, else `GetTrafficDistribution`; never
/// the hints (istio/istio `pilot/pkg/serviceregistry/ambient/services.go`).
const CITE_ISTIO: &str = "istio/istio pilot/pkg/model/service.go GetTrafficDistribution; pilot/pkg/serviceregistry/ambient/services.go";
/// What the optional reads say about reading front doors.
const CITE_UNKNOWN: &str = "docs/data-plane.md#front-doors";

/// Istio's first minor reading `trafficDistribution: PreferClose` in ambient (istio/istio#50519).
pub const ISTIO_FIELD_MINOR: u32 = 23;
/// Istio's first minor reading the Service annotation (istio/istio#53435).
pub const ISTIO_ANNOTATION_MINOR: u32 = 24;
/// Istio's first minor reading `PreferSameZone`/`PreferSameNode` (istio/istio#56042).
pub const ISTIO_PREFER_SAME_MINOR: u32 = 27;
/// Istio's first minor reading the Namespace annotation (istio/istio#58701).
pub const ISTIO_NAMESPACE_MINOR: u32 = 30;

/// Where ztunnel's choice for a Service comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preference {
    /// Any endpoint.
    Any,
    /// The client's zone first.
    Zone,
    /// The client's node first.
    Node,
}

/// The front-door paths of `service`, after its kube-proxy and Cilium paths.
pub(super) fn paths(dp: &DataPlane, service: &Service, routes: Vec<&GatewayRoute>) -> Vec<DataPath> {
    let mut paths = Vec::new();
    let routes_read = [O::HttpRoutes, O::GrpcRoutes, O::Gateways, O::GatewayClasses]
        .into_iter()
        .map(|o| (o, dp.status(o)))
        .find(|(_, s)| !matches!(s, Some(ReadStatus::Read | ReadStatus::Absent)));
    match routes_read {
        Some((object, status)) => paths.push(unknown(object, status)),
        None => paths.extend(envoy_gateway(dp, service, routes)),
    }
    match dp.status(O::Ztunnel) {
        Some(ReadStatus::Read) => paths.push(istio_ambient(dp, service)),
        Some(ReadStatus::Absent) => {}
        status => paths.push(unknown(O::Ztunnel, status)),
    }
    paths
}

fn unknown(object: O, status: Option<ReadStatus>) -> DataPath {
    DataPath {
        path: PathKind::FrontDoorUnknown,
        traffic: if object == O::Ztunnel { Traffic::AmbientPods } else { Traffic::ThroughGateway },
        version: None,
        version_source: VersionSource::Unknown,
        read: status,
        verdict: C::FrontDoorUnknown,
        facts: Facts {
            key: Some(object_name(object).to_string()),
            value: status.map(|s| <&'static str>::from(s).to_string()),
            ..Facts::default()
        },
        citation: CITE_UNKNOWN.into(),
    }
}

/// The object an unknown front door's read is about, as the Kubernetes API names it.
fn object_name(object: O) -> &'static str {
    match object {
        O::HttpRoutes => "HTTPRoute list",
        O::GrpcRoutes => "GRPCRoute list",
        O::Gateways => "Gateway list",
        O::GatewayClasses => "GatewayClass list",
        O::BackendTrafficPolicies => "BackendTrafficPolicy list",
        O::Namespaces => "Namespace list",
        _ => "DaemonSet istio-system/ztunnel",
    }
}

fn facts(door: &str, key: &str, value: &str) -> Facts {
    Facts { key: Some(key.into()), value: Some(value.into()), zone: Some(door.into()), ..Facts::default() }
}

/// What asks for topology on `service` in the keys only the controller reads (the hints).
fn asks_for_hints(service: &Service) -> Option<(String, String)> {
    [ANNOTATION_TOPOLOGY_MODE, ANNOTATION_TOPOLOGY_AWARE_HINTS].into_iter().find_map(|key| {
        let value = service.annotations.get(key)?.trim().to_string();
        (!value.is_empty() && !value.eq_ignore_ascii_case("disabled")).then(|| (key.to_string(), value))
    })
}

/// Envoy Gateway's path, when a route of one of its Gateways names `service` (`routes`: those
/// naming it).
fn envoy_gateway(dp: &DataPlane, service: &Service, routes: Vec<&GatewayRoute>) -> Option<DataPath> {
    let used = dp.front_doors.envoy_gateway_of(routes)?;
    const DOOR: &str = "Envoy Gateway";
    let auto = service.annotations.get(ANNOTATION_TOPOLOGY_MODE).filter(|v| *v == "Auto" || *v == "auto");
    let (verdict, facts, citation) = match (&used.policy, &service.traffic_distribution, auto) {
        (Some(policy), ..) => {
            (C::FrontDoorPrefersZone, facts(DOOR, "BackendTrafficPolicy", policy), CITE_EG_POLICY)
        }
        (None, Some(td), _) if td == "PreferSameNode" => {
            (C::FrontDoorIgnoresValue, facts(DOOR, "spec.trafficDistribution", td), CITE_EG_VALUE)
        }
        (None, Some(td), _) => {
            (C::FrontDoorPrefersZone, facts(DOOR, "spec.trafficDistribution", td), CITE_EG_SERVICE)
        }
        (None, None, Some(value)) => {
            (C::FrontDoorPrefersZone, facts(DOOR, ANNOTATION_TOPOLOGY_MODE, value), CITE_EG_SERVICE)
        }
        (None, None, None) => match asks_for_hints(service) {
            Some((key, value)) => (C::FrontDoorIgnoresHints, facts(DOOR, &key, &value), CITE_EG_SERVICE),
            None => (C::NotEnabled, Facts { zone: Some(DOOR.into()), ..Facts::default() }, CITE_EG_SERVICE),
        },
    };
    Some(DataPath {
        path: PathKind::EnvoyGateway,
        traffic: Traffic::ThroughGateway,
        version: None,
        version_source: VersionSource::Unknown,
        read: dp.status(O::HttpRoutes),
        verdict,
        facts: Facts { nodes: used.routes, ..facts },
        citation: citation.into(),
    })
}

/// Istio ambient's path: ztunnel's choice for `service` at its release.
fn istio_ambient(dp: &DataPlane, service: &Service) -> DataPath {
    const DOOR: &str = "Istio ambient";
    let release = dp.ztunnel_release();
    let namespace = dp.front_doors.namespace_traffic_distribution(&service.namespace);
    let minor = release.map_or(u32::MAX, |(minor, _)| minor);
    let local = service.internal_traffic_policy.as_deref() == Some("Local");
    let (verdict, facts) = if local {
        (C::FrontDoorPrefersNode, facts(DOOR, "spec.internalTrafficPolicy", "Local"))
    } else {
        match traffic_distribution(minor, service, namespace) {
            (Preference::Zone, Some((key, value))) => (C::FrontDoorPrefersZone, facts(DOOR, &key, &value)),
            (Preference::Node, Some((key, value))) => (C::FrontDoorPrefersNode, facts(DOOR, &key, &value)),
            (_, Some((key, value))) => (C::FrontDoorIgnoresValue, facts(DOOR, &key, &value)),
            (_, None) => match asks_for_hints(service) {
                Some((key, value)) => (C::FrontDoorIgnoresHints, facts(DOOR, &key, &value)),
                None => (C::NotEnabled, Facts { zone: Some(DOOR.into()), ..Facts::default() }),
            },
        }
    };
    DataPath {
        path: PathKind::IstioAmbient,
        traffic: Traffic::AmbientPods,
        version: release.map(|(minor, patch)| format!("1.{minor}.{patch}")),
        version_source: if release.is_some() {
            VersionSource::FrontDoorImage
        } else {
            VersionSource::Unknown
        },
        read: dp.status(O::Ztunnel),
        verdict,
        facts,
        citation: CITE_ISTIO.into(),
    }
}

/// istio/istio `GetTrafficDistribution` at Istio `1.minor` (`u32::MAX`: the newest): the field's
/// known values first, then the Service's annotation (an unknown value there is `Any`, the
/// Namespace is not consulted), then the Namespace's; with the key and value that decided, or that
/// was set but not understood. Values before `minor`'s support fall through as the Go switch does.
pub fn traffic_distribution(
    minor: u32,
    service: &Service,
    namespace: Option<&str>,
) -> (Preference, Option<(String, String)>) {
    let same = minor >= ISTIO_PREFER_SAME_MINOR;
    let known = |value: &str, ignore_case: bool| {
        let is = |name: &str| if ignore_case { value.eq_ignore_ascii_case(name) } else { value == name };
        match () {
            _ if is("PreferClose") => Some(Preference::Zone),
            _ if same && is("PreferSameZone") => Some(Preference::Zone),
            _ if same && is("PreferSameNode") => Some(Preference::Node),
            _ => None,
        }
    };
    let mut seen = None;
    if let Some(td) = service.traffic_distribution.as_deref().filter(|_| minor >= ISTIO_FIELD_MINOR) {
        if let Some(p) = known(td, false) {
            return (p, Some(("spec.trafficDistribution".into(), td.into())));
        }
        seen = Some(("spec.trafficDistribution".to_string(), td.to_string()));
    }
    // "Any" is Istio's own word for no preference (its default branch, taken on purpose).
    let annotated = |value: &str, key: &str| match known(value, true) {
        None if value.eq_ignore_ascii_case("Any") => (Preference::Any, None),
        p => (p.unwrap_or(Preference::Any), Some((key.to_string(), value.to_string()))),
    };
    let own = service.annotations.get(ANNOTATION_ISTIO_TRAFFIC_DISTRIBUTION).filter(|v| !v.is_empty());
    if let Some(value) = own.filter(|_| minor >= ISTIO_ANNOTATION_MINOR) {
        return annotated(value, ANNOTATION_ISTIO_TRAFFIC_DISTRIBUTION);
    }
    if let Some(value) = namespace.filter(|v| !v.is_empty() && minor >= ISTIO_NAMESPACE_MINOR) {
        return annotated(value, "Namespace networking.istio.io/traffic-distribution");
    }
    (Preference::Any, seen.or_else(|| own.map(|v| (ANNOTATION_ISTIO_TRAFFIC_DISTRIBUTION.into(), v.clone()))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::StrMap;

    fn service(field: Option<&str>, annotation: Option<&str>) -> Service {
        let mut annotations = std::collections::BTreeMap::new();
        if let Some(value) = annotation {
            annotations.insert(ANNOTATION_ISTIO_TRAFFIC_DISTRIBUTION.to_string(), value.to_string());
        }
        Service {
            traffic_distribution: field.map(str::to_string),
            annotations: StrMap::from(annotations),
            ..crate::core::testkit_td::service()
        }
    }

    fn pref(minor: u32, field: Option<&str>, annotation: Option<&str>, ns: Option<&str>) -> Preference {
        traffic_distribution(minor, &service(field, annotation), ns).0
    }

    /// istio/istio `GetTrafficDistribution` (1.30): field, then the Service's annotation, then the
    /// Namespace's; an unknown annotation value on the Service stops there.
    #[test]
    fn istio_reads_the_field_then_the_service_then_the_namespace() {
        let newest = u32::MAX;
        assert_eq!(pref(newest, Some("PreferSameNode"), Some("PreferClose"), None), Preference::Node);
        assert_eq!(
            pref(newest, Some("Unknown"), Some("preferclose"), None),
            Preference::Zone,
            "case-insensitive"
        );
        assert_eq!(pref(newest, None, Some("PreferSameNode"), Some("PreferClose")), Preference::Node);
        assert_eq!(
            pref(newest, None, Some("Bogus"), Some("PreferClose")),
            Preference::Any,
            "stops at the Service"
        );
        assert_eq!(pref(newest, None, None, Some("PreferSameZone")), Preference::Zone);
        assert_eq!(pref(newest, None, None, None), Preference::Any);
        let (any, asked) = traffic_distribution(newest, &service(None, Some("Any")), None);
        assert_eq!((any, asked), (Preference::Any, None), "Any is no preference, not a value ignored");
    }

    #[test]
    fn each_source_from_the_release_that_reads_it() {
        assert_eq!(pref(22, Some("PreferClose"), None, None), Preference::Any);
        assert_eq!(pref(23, Some("PreferClose"), None, None), Preference::Zone);
        assert_eq!(pref(23, None, Some("PreferClose"), None), Preference::Any, "annotation from 1.24");
        assert_eq!(pref(26, Some("PreferSameNode"), None, None), Preference::Any, "values from 1.27");
        assert_eq!(pref(27, Some("PreferSameNode"), None, None), Preference::Node);
        assert_eq!(pref(29, None, None, Some("PreferClose")), Preference::Any, "Namespace from 1.30");
        assert_eq!(pref(30, None, None, Some("PreferClose")), Preference::Zone);
        let (_, asked) = traffic_distribution(29, &service(None, None), Some("PreferClose"));
        assert_eq!(asked, None, "a Namespace annotation 1.29 does not read is not the Service's ask");
    }
}

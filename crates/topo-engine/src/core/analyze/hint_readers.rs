//! The front doors that read the hints themselves (docs/data-plane.md#front-doors): ingress-nginx,
//! whose controller balances an Ingress's Service over its EndpointSlices and filters them by the
//! zone hints only behind its own flag, and Linkerd, whose destination controller gives meshed
//! pods' proxies the endpoints hinted for their zone. Both read `hints.forZones` only (never
//! `forNodes`), whatever value asked for them. A read that was forbidden, failed or is not in the
//! dump is one `FrontDoorUnknown` path.

use super::asked::asked;
use crate::model::{DataPlane, Ingress, OptionalObject as O, ReadStatus, Service};
use crate::report::dataplane::{DataPath, PathKind, Traffic, VersionSource};
use crate::report::mode::Mode;
use crate::report::reason::{Facts, ReasonCode as C};

/// ingress-nginx filters by the zone hints behind `--enable-topology-aware-routing` (kubernetes/
/// ingress-nginx#9165, controller v1.6.0), per EndpointSlice whose every endpoint has a zone hint,
/// with no fallback when none is for its zone (kubernetes/ingress-nginx#11342).
const CITE_INGRESS_NGINX: &str = "kubernetes/ingress-nginx internal/ingress/controller/endpointslices.go getEndpointsFromSlices (--enable-topology-aware-routing, #9165, v1.6.0; #11342)";
/// Linkerd's destination controller filters by `forZones` when every endpoint has one, and falls
/// back to all when none is for the client's zone (stable-2.12).
const CITE_LINKERD: &str = "linkerd/linkerd2 controller/api/destination/endpoint_translator.go filterAddresses (topology aware hints, stable-2.12)";
const CITE_UNKNOWN: &str = "docs/data-plane.md#front-doors";

/// ingress-nginx's first minor (1.x) with `--enable-topology-aware-routing`.
pub(crate) const INGRESS_NGINX_TOPOLOGY_MINOR: u32 = 6;
/// Linkerd's first stable minor (2.x) that reads the hints.
pub(crate) const LINKERD_HINTS_MINOR: u32 = 12;

/// The ingress-nginx and Linkerd paths of `service`, asking for topology with `mode` (`ingresses`:
/// those naming it).
pub(super) fn paths(
    dp: &DataPlane,
    service: &Service,
    mode: Mode,
    ingresses: Vec<&Ingress>,
) -> Vec<DataPath> {
    let mut paths = Vec::new();
    let lists = [O::Ingresses, O::IngressClasses].map(|o| (o, dp.status(o)));
    match lists.into_iter().find(|(_, s)| !matches!(s, Some(ReadStatus::Read | ReadStatus::Absent))) {
        Some((object, status)) => paths.push(unknown(object, status, Traffic::ThroughIngress)),
        None => paths.extend(ingress_nginx(dp, service, mode, ingresses)),
    }
    match dp.status(O::LinkerdConfig) {
        Some(ReadStatus::Read) => paths.push(linkerd(dp, service, mode)),
        Some(ReadStatus::Absent) => {}
        status => paths.push(unknown(O::LinkerdConfig, status, Traffic::MeshedPods)),
    }
    paths
}

fn unknown(object: O, status: Option<ReadStatus>, traffic: Traffic) -> DataPath {
    let key = match object {
        O::Ingresses => "Ingress list",
        O::IngressClasses => "IngressClass list",
        O::IngressNginxController => "Deployment ingress-nginx/ingress-nginx-controller",
        _ => "ConfigMap linkerd/linkerd-config",
    };
    DataPath {
        path: PathKind::FrontDoorUnknown,
        traffic,
        version: None,
        version_source: VersionSource::Unknown,
        read: status,
        verdict: C::FrontDoorUnknown,
        facts: Facts {
            key: Some(key.to_string()),
            value: status.map(|s| <&'static str>::from(s).to_string()),
            ..Facts::default()
        },
        citation: CITE_UNKNOWN.into(),
    }
}

/// The verdict of a front door that reads the zone hints when `reads` (else ignores them), for a
/// Service asking with `mode` by `(key, value)`.
fn verdict(door: &str, reads: bool, mode: Mode, service: &Service) -> (C, Facts) {
    let (key, value) = asked(service).unzip();
    let facts = Facts { key, value, zone: Some(door.to_string()), ..Facts::default() };
    let verdict = match mode {
        Mode::None => C::NotEnabled,
        _ if !reads => C::FrontDoorIgnoresHints,
        // The controller writes zone hints beside the node hints: the door keeps the zone.
        Mode::PreferSameNode => C::FrontDoorIgnoresValue,
        _ => C::FrontDoorAppliesHints,
    };
    (verdict, facts)
}

/// ingress-nginx's path, when an Ingress of its class sends `service`'s requests to its endpoints.
fn ingress_nginx(dp: &DataPlane, service: &Service, mode: Mode, naming: Vec<&Ingress>) -> Option<DataPath> {
    let ingresses = dp.front_doors.ingress_nginx_routes_of(naming);
    if ingresses.is_empty() {
        return None;
    }
    let status = dp.status(O::IngressNginxController);
    let controller = dp.front_doors.ingress_nginx.as_ref().filter(|_| status == Some(ReadStatus::Read));
    let Some(controller) = controller else {
        // Routed, but whether the flag is on is not known (not read, or named otherwise).
        let mut path = unknown(O::IngressNginxController, status, Traffic::ThroughIngress);
        path.facts.nodes = ingresses;
        return Some(path);
    };
    let release = dp.ingress_nginx_release();
    let flag_exists = release.is_none_or(|(minor, _)| minor >= INGRESS_NGINX_TOPOLOGY_MINOR);
    let reads = controller.topology_aware_routing && flag_exists;
    let (verdict, facts) = verdict("ingress-nginx", reads, mode, service);
    Some(DataPath {
        path: PathKind::IngressNginx,
        traffic: Traffic::ThroughIngress,
        version: release.map(|(minor, patch)| format!("1.{minor}.{patch}")),
        version_source: if release.is_some() {
            VersionSource::ControllerImage
        } else {
            VersionSource::Unknown
        },
        read: status,
        verdict,
        facts: Facts { nodes: ingresses, ..facts },
        citation: CITE_INGRESS_NGINX.into(),
    })
}

/// Linkerd's path: meshed pods' requests to `service`.
fn linkerd(dp: &DataPlane, service: &Service, mode: Mode) -> DataPath {
    let config = dp.front_doors.linkerd.clone().unwrap_or_default();
    let release = dp.linkerd_release();
    let slices = config.endpoint_slices != Some(false);
    let reads = slices && release.is_none_or(|(minor, _)| minor >= LINKERD_HINTS_MINOR);
    let local = service.internal_traffic_policy.as_deref() == Some("Local");
    let (verdict, facts) = if local {
        let facts = Facts {
            key: Some("spec.internalTrafficPolicy".into()),
            value: Some("Local".into()),
            zone: Some("Linkerd".into()),
            ..Facts::default()
        };
        (C::FrontDoorPrefersNode, facts)
    } else {
        verdict("Linkerd", reads, mode, service)
    };
    DataPath {
        path: PathKind::Linkerd,
        traffic: Traffic::MeshedPods,
        version: config.version.clone(),
        version_source: if config.version.is_some() {
            VersionSource::MeshConfig
        } else {
            VersionSource::Unknown
        },
        read: dp.status(O::LinkerdConfig),
        verdict,
        facts,
        citation: CITE_LINKERD.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FrontDoors, GatewayClass, Ingress, IngressController, Linkerd, ObjectRef};

    fn service(td: Option<&str>) -> Service {
        Service { traffic_distribution: td.map(str::to_string), ..crate::core::testkit_td::service() }
    }

    fn read(objects: &[O]) -> std::collections::BTreeMap<O, ReadStatus> {
        objects.iter().map(|o| (*o, ReadStatus::Read)).collect()
    }

    fn nginx(flag: bool, image: &str, svc: &Service) -> DataPlane {
        let r = |ns: &str, name: &str| ObjectRef { namespace: ns.into(), name: name.into() };
        DataPlane {
            reads: read(&[O::Ingresses, O::IngressClasses, O::IngressNginxController, O::LinkerdConfig]),
            front_doors: FrontDoors {
                ingresses: vec![Ingress {
                    ingress: r(&svc.namespace, "web"),
                    class: Some("nginx".into()),
                    backends: vec![r(&svc.namespace, &svc.name)],
                    service_upstream: false,
                }],
                ingress_classes: vec![GatewayClass {
                    name: "nginx".into(),
                    controller: "k8s.io/ingress-nginx".into(),
                }],
                ingress_nginx: Some(IngressController {
                    image: Some(image.into()),
                    topology_aware_routing: flag,
                }),
                ..FrontDoors::default()
            },
            ..DataPlane::default()
        }
    }

    fn all(dp: &DataPlane, svc: &Service, mode: Mode) -> Vec<DataPath> {
        let naming =
            |i: &&Ingress| i.backends.iter().any(|b| b.namespace == svc.namespace && b.name == svc.name);
        paths(dp, svc, mode, dp.front_doors.ingresses.iter().filter(naming).collect())
    }

    fn verdicts(dp: &DataPlane, svc: &Service, mode: Mode) -> Vec<(PathKind, C)> {
        all(dp, svc, mode).into_iter().map(|p| (p.path, p.verdict)).collect()
    }

    #[test]
    fn ingress_nginx_follows_the_zone_hints_only_behind_its_flag() {
        let svc = service(Some("PreferClose"));
        let image = "registry.k8s.io/ingress-nginx/controller:v1.9.4";
        let on = verdicts(&nginx(true, image, &svc), &svc, Mode::PreferClose);
        assert_eq!(on[0], (PathKind::IngressNginx, C::FrontDoorAppliesHints));
        let off = verdicts(&nginx(false, image, &svc), &svc, Mode::PreferClose);
        assert_eq!(off[0], (PathKind::IngressNginx, C::FrontDoorIgnoresHints));
        let old = verdicts(
            &nginx(true, "registry.k8s.io/ingress-nginx/controller:v1.5.1", &svc),
            &svc,
            Mode::PreferClose,
        );
        assert_eq!(old[0].1, C::FrontDoorIgnoresHints, "before v1.6.0 there is no such flag");
        let node = verdicts(&nginx(true, image, &svc), &svc, Mode::PreferSameNode);
        assert_eq!(node[0].1, C::FrontDoorIgnoresValue, "forZones only: PreferSameNode stays in the zone");
        assert_eq!(verdicts(&nginx(true, image, &svc), &svc, Mode::None)[0].1, C::NotEnabled);
    }

    #[test]
    fn ingress_nginx_is_unknown_when_its_flag_could_not_be_read() {
        let svc = service(None);
        let mut dp = nginx(true, "controller:v1.9.4", &svc);
        dp.reads.insert(O::IngressNginxController, ReadStatus::Forbidden);
        let path = &all(&dp, &svc, Mode::Auto)[0];
        assert_eq!((path.path, path.verdict), (PathKind::FrontDoorUnknown, C::FrontDoorUnknown));
        assert_eq!(path.facts.nodes, vec![format!("Ingress {}/web", svc.namespace)]);
        dp.reads.insert(O::Ingresses, ReadStatus::NotInDump);
        let path = &all(&dp, &svc, Mode::Auto)[0];
        assert_eq!(path.facts.key.as_deref(), Some("Ingress list"));
        let other = Service { name: "other".into(), ..svc.clone() };
        let mut routed_elsewhere = nginx(true, "controller:v1.9.4", &svc);
        routed_elsewhere.reads.insert(O::LinkerdConfig, ReadStatus::Absent);
        assert!(all(&routed_elsewhere, &other, Mode::Auto).is_empty(), "no Ingress names it: no row");
    }

    #[test]
    fn linkerd_reads_the_hints_from_2_12_with_endpoint_slices() {
        let svc = service(Some("PreferClose"));
        let with = |version: &str, endpoint_slices| DataPlane {
            reads: read(&[O::Ingresses, O::IngressClasses, O::LinkerdConfig]),
            front_doors: FrontDoors {
                linkerd: Some(Linkerd { version: Some(version.into()), endpoint_slices }),
                ..FrontDoors::default()
            },
            ..DataPlane::default()
        };
        let one = |dp: &DataPlane, mode| verdicts(dp, &svc, mode)[0];
        assert_eq!(
            one(&with("stable-2.14.10", None), Mode::PreferClose),
            (PathKind::Linkerd, C::FrontDoorAppliesHints)
        );
        assert_eq!(one(&with("stable-2.11.5", None), Mode::PreferClose).1, C::FrontDoorIgnoresHints);
        assert_eq!(one(&with("stable-2.14.10", Some(false)), Mode::Auto).1, C::FrontDoorIgnoresHints);
        assert_eq!(one(&with("edge-24.5.1", Some(true)), Mode::PreferSameNode).1, C::FrontDoorIgnoresValue);
        let local = Service { internal_traffic_policy: Some("Local".into()), ..svc.clone() };
        assert_eq!(
            all(&with("stable-2.14.10", None), &local, Mode::None)[0].verdict,
            C::FrontDoorPrefersNode
        );
    }
}

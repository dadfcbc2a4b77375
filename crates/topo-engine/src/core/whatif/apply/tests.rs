//! `simulate --apply` over a Snapshot built in code: which Services it reports, the endpoints it
//! derives from the workloads, and the certificate after the change.

use super::*;
use crate::core::testkit_tc::{EndpointBuild, NodeBuild, ep, node, slice};
use crate::model::{ANNOTATION_TOPOLOGY_MODE, EndpointSlice, SpreadConstraint, StrMap};
use crate::report::Verdict;

fn labels(pairs: &[(&str, &str)]) -> StrMap {
    let mut map = StrMap::new();
    for (k, v) in pairs {
        map.insert(k.to_string(), v.to_string());
    }
    map
}

fn service(name: &str) -> Service {
    Service {
        namespace: "ns".into(),
        name: name.into(),
        labels: StrMap::new(),
        annotations: labels(&[(ANNOTATION_TOPOLOGY_MODE, "Auto")]),
        has_selector: true,
        selector: labels(&[("app", name)]),
        service_type: "ClusterIP".into(),
        cluster_ip: Some("10.96.0.10".into()),
        ip_families: vec!["IPv4".into()],
        traffic_distribution: None,
        internal_traffic_policy: Some("Cluster".into()),
        external_traffic_policy: None,
        externally_accessible: false,
        publish_not_ready_addresses: false,
        ports: vec![],
        line: Default::default(),
    }
}

fn deployment(name: &str, replicas: i32, max_skew: Option<i32>) -> Workload {
    Workload {
        kind: WorkloadKind::Deployment,
        namespace: "ns".into(),
        name: name.into(),
        replicas: Some(replicas),
        owner: None,
        spread: max_skew
            .map(|skew| SpreadConstraint {
                topology_key: LABEL_ZONE.into(),
                max_skew: skew,
                min_domains: None,
                when_unsatisfiable: "DoNotSchedule".into(),
                node_affinity_policy: None,
                node_taints_policy: None,
                selects_own_pods: true,
            })
            .into_iter()
            .collect(),
        template_labels: labels(&[("app", name)]),
    }
}

/// Three equal zones; Service `web` with one ready endpoint per zone, each hinted to its zone.
fn cluster() -> Snapshot {
    let zones = ["a", "b", "c"];
    let nodes = zones.iter().map(|z| node(&format!("node-{z}")).zone(z).cpu_millis(4000).ready()).collect();
    let mut web: EndpointSlice = slice("web-1");
    web.service_name = Some("web".into());
    for (i, z) in zones.iter().enumerate() {
        let mut e = ep(&format!("10.0.0.{}", i + 1)).zone(z).ready().hint(z);
        e.node_name = Some(format!("node-{z}").into());
        web.endpoints.push(e);
    }
    Snapshot { nodes, services: vec![service("web")], slices: vec![web], ..Snapshot::default() }
}

fn run(snapshot: &Snapshot, manifests: &Manifests) -> ApplyReport {
    let changes = Changes::default();
    let traffic = TrafficModel::ZoneCpu;
    let scope =
        ApplyScope { namespace: Some("ns"), service: None, node_changes: &changes, traffic: &traffic };
    apply(snapshot, manifests, &scope, Behaviour::new(crate::model::version::DEFAULT_MINOR)).expect("applies")
}

#[test]
fn eleven_replicas_under_max_skew_one_block_the_hints_k8s_122437() {
    let manifests = Manifests { workloads: vec![deployment("web", 11, Some(1))], ..Manifests::default() };
    let report = run(&cluster(), &manifests);
    let [web] = report.services.as_slice() else { panic!("{:?}", report.services) };
    assert_eq!((web.change, web.causes.as_slice()), (ObjectChange::Unchanged, &[Cause::Workloads][..]));
    let family = &web.simulation.summary[0];
    assert_eq!(family.verdict.before, Some(Verdict::Active));
    assert_ne!(family.verdict.after, Some(Verdict::Active), "{family:?}");
    let ready: i64 = family.zones.iter().map(|z| z.ready.after).sum();
    assert_eq!(ready, 11);
    assert!(family.zones.iter().all(|z| z.hinted.after == 0), "{family:?}");
    let certificate = web.certificate.as_ref().expect("Auto: a certificate");
    assert_eq!((certificate.min, certificate.max), (11, 11));
    assert_eq!(certificate.spread.map(|s| s.max_skew), Some(1));
    let eleven = certificate.exceptions.iter().find(|e| e.count == 11).expect("11 fails");
    assert_eq!(eleven.allowed, 3, "4/4/3 in its three arrangements");
}

#[test]
fn an_autoscaler_gives_the_certificate_its_range_and_clamps_the_count() {
    let mut manifests = Manifests { workloads: vec![deployment("web", 2, Some(1))], ..Manifests::default() };
    manifests.autoscalers.push(Hpa {
        namespace: "ns".into(),
        target: crate::model::Owner { kind: "Deployment".into(), name: "web".into() },
        range: Autoscaler { name: "web".into(), min: 6, max: 12 },
    });
    let report = run(&cluster(), &manifests);
    let web = &report.services[0];
    assert_eq!(web.workloads[0].replicas.after, Some(6), "2 clamped into 6..12");
    let certificate = web.certificate.as_ref().unwrap();
    assert_eq!((certificate.min, certificate.max), (6, 12));
}

#[test]
fn an_unchanged_manifest_affects_nothing_and_a_new_node_every_service() {
    let snapshot = cluster();
    let same = Manifests { services: vec![service("web")], ..Manifests::default() };
    let report = run(&snapshot, &same);
    assert!(report.services.is_empty(), "{:?}", report.services);
    assert_eq!(report.objects[0].change, ObjectChange::Unchanged);
    let pool =
        Manifests { nodes: vec![node("node-d").zone("d").cpu_millis(4000).ready()], ..Manifests::default() };
    let report = run(&snapshot, &pool);
    assert_eq!(report.services[0].causes, [Cause::Nodes]);
    assert_eq!(report.objects[0].change, ObjectChange::Added);
    assert_eq!(report.services[0].certificate.as_ref().unwrap().zones, ["a", "b", "c", "d"]);
}

#[test]
fn a_later_object_of_the_same_name_wins() {
    let m = Manifests {
        workloads: vec![deployment("web", 3, None), deployment("web", 9, None)],
        ..Manifests::default()
    };
    let report = run(&cluster(), &m);
    assert_eq!(report.objects.len(), 1);
    assert_eq!(report.services[0].workloads[0].replicas.after, Some(9));
}

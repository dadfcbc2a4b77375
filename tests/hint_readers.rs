//! The data planes and front doors of issue 33 that read the hints themselves or ignore them
//! (docs/data-plane.md): OVN-Kubernetes in place of kube-proxy, ingress-nginx behind its flag,
//! Linkerd's destination controller. On dumps, through `dump -f` and `dump --redact -f` and back.

use kubectl_topo::source::dump::parse_dump;
use topo_engine::core::analyze;
use topo_engine::model::{OptionalObject, ReadStatus, Snapshot};
use topo_engine::report::ServiceReport;
use topo_engine::report::dataplane::PathKind;
use topo_engine::report::reason::ReasonCode as C;

use crate::support::{dump_json, path, read, temp_file};

/// w03 (four zones, hinted, `topology-mode: Auto`) and these extra YAML documents.
fn dump(extra: &str) -> String {
    format!("{}{extra}", read(&path("tests/fixtures/w03-four-zones-hinted.yaml")))
}

fn snapshot(text: &str) -> Snapshot {
    parse_dump(text, "test").unwrap().snapshot
}

fn explain(s: &Snapshot) -> ServiceReport {
    let chosen = topo_engine::core::version::choose(None, s).unwrap();
    analyze::explain(s, &s.services[0], chosen.behaviour)
}

fn service(s: &Snapshot) -> (String, String) {
    (s.services[0].namespace.clone(), s.services[0].name.clone())
}

fn path_of(r: &ServiceReport, kind: PathKind) -> Option<C> {
    r.data_plane.iter().find(|p| p.path == kind).map(|p| p.verdict)
}

/// An IngressClass `nginx` of ingress-nginx, an Ingress `web` in `ns` naming `backend`, and the
/// controller's Deployment with `args`.
fn ingress_nginx(ns: &str, backend: &str, annotations: &str, args: &[&str]) -> String {
    let args: String = args.iter().map(|a| format!("        - {a}\n")).collect();
    format!(
        "\n---\napiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: nginx\nspec:\n  controller: k8s.io/ingress-nginx\n\
         ---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\n  namespace: {ns}\n  annotations: {{{annotations}}}\n\
         spec:\n  ingressClassName: nginx\n  rules:\n  - http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service:\n            name: {backend}\n            port:\n              number: 80\n\
         ---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ingress-nginx-controller\n  namespace: ingress-nginx\n\
         spec:\n  selector: {{}}\n  template:\n    spec:\n      containers:\n      - name: controller\n        image: registry.k8s.io/ingress-nginx/controller:v1.9.4@sha256:5b161f051d017e55d358435f295f5e9a297e66158f136321d9b04520ec6c48a3\n        args:\n{args}"
    )
}

const LINKERD: &str = "\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: linkerd-config\n  namespace: linkerd\n\
    data:\n  values: |\n    controllerReplicas: 1\n    identityTrustAnchorsPEM: secret-looking text\n    linkerdVersion: stable-2.14.10\n";

const OVN: &str = "\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: ovnkube-node\n  namespace: openshift-ovn-kubernetes\n\
    spec:\n  selector: {}\n  template:\n    spec:\n      containers:\n      - name: ovnkube-controller\n        image: quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:00112233\n";

#[test]
fn ingress_nginx_follows_the_zone_hints_only_with_its_flag() {
    let (ns, name) = service(&snapshot(&dump("")));
    let flag = ["/nginx-ingress-controller", "--enable-topology-aware-routing=true"];
    let on = explain(&snapshot(&dump(&ingress_nginx(&ns, &name, "", &flag))));
    assert_eq!(path_of(&on, PathKind::IngressNginx), Some(C::FrontDoorAppliesHints), "{:?}", on.data_plane);
    assert!(!on.notes.iter().any(|n| n.code == C::FrontDoorIgnoresHints), "{:?}", on.notes);
    let off = explain(&snapshot(&dump(&ingress_nginx(&ns, &name, "", &["/nginx-ingress-controller"]))));
    assert_eq!(path_of(&off, PathKind::IngressNginx), Some(C::FrontDoorIgnoresHints));
    assert!(off.notes.iter().any(|n| n.code == C::FrontDoorIgnoresHints), "a note: {:?}", off.notes);
    // service-upstream: the requests go to the ClusterIP, kube-proxy's path.
    let upstream = "nginx.ingress.kubernetes.io/service-upstream: \"true\"";
    let through_cluster_ip = explain(&snapshot(&dump(&ingress_nginx(&ns, &name, upstream, &flag))));
    assert_eq!(path_of(&through_cluster_ip, PathKind::IngressNginx), None);
    // Another Service's Ingress: no row.
    let other = explain(&snapshot(&dump(&ingress_nginx(&ns, "other", "", &flag))));
    assert_eq!(path_of(&other, PathKind::IngressNginx), None);
}

#[test]
fn an_ingress_nginx_route_without_its_controller_is_unknown() {
    let (ns, name) = service(&snapshot(&dump("")));
    let text = dump(&ingress_nginx(&ns, &name, "", &[]));
    let without = text.split("---\napiVersion: apps/v1\nkind: Deployment").next().unwrap();
    let r = explain(&snapshot(without));
    let unknown: Vec<_> = r.data_plane.iter().filter(|p| p.path == PathKind::FrontDoorUnknown).collect();
    let row = unknown
        .iter()
        .find(|p| p.facts.key.as_deref() == Some("Deployment ingress-nginx/ingress-nginx-controller"));
    let row = row.unwrap_or_else(|| panic!("{unknown:?}"));
    assert_eq!(
        (row.read, row.facts.nodes.clone()),
        (Some(ReadStatus::NotInDump), vec![format!("Ingress {ns}/web")])
    );
}

#[test]
fn ovn_kubernetes_replaces_kube_proxy_and_ignores_the_hints() {
    let r = explain(&snapshot(&dump(OVN)));
    assert_eq!(path_of(&r, PathKind::OvnKubernetes), Some(C::OvnKubernetesIgnoresHints));
    assert_eq!(path_of(&r, PathKind::KubeProxy), None, "no kube-proxy beside OVN-Kubernetes");
    assert!(r.notes.iter().any(|n| n.code == C::OvnKubernetesIgnoresHints), "{:?}", r.notes);
    let unknown = r.data_plane.iter().find(|p| p.path == PathKind::Unknown).unwrap();
    assert_eq!(unknown.facts.key, None, "only Cilium is unknown now");
}

#[test]
fn linkerd_follows_the_zone_hints_from_2_12() {
    let r = explain(&snapshot(&dump(LINKERD)));
    let linkerd = r.data_plane.iter().find(|p| p.path == PathKind::Linkerd).unwrap();
    assert_eq!(
        (linkerd.verdict, linkerd.version.as_deref()),
        (C::FrontDoorAppliesHints, Some("stable-2.14.10"))
    );
    let old = explain(&snapshot(&dump(&LINKERD.replace("stable-2.14.10", "stable-2.11.5"))));
    assert_eq!(path_of(&old, PathKind::Linkerd), Some(C::FrontDoorIgnoresHints));
}

/// `dump -f` and `dump --redact -f` write the three back, reduced, and every path holds.
#[test]
fn dump_and_redact_keep_ovn_ingress_nginx_and_linkerd() {
    let (ns, name) = service(&snapshot(&dump("")));
    let flag = ["--enable-topology-aware-routing"];
    let input = temp_file(&dump(&format!("{}{LINKERD}{OVN}", ingress_nginx(&ns, &name, "", &flag))));
    for extra in [&[][..], &["--redact"][..]] {
        let written = dump_json(input.path(), extra);
        // `dump -f` converts a dump as it is; `--redact` rebuilds linkerd-config from the model.
        if !extra.is_empty() {
            assert!(
                !written.contains("secret-looking") && !written.contains("controllerReplicas"),
                "{written}"
            );
            assert!(!written.contains("sha256") && !written.contains("registry.k8s.io"), "{written}");
            assert!(written.contains("\"controller:v1.9.4\""), "{written}");
        }
        let back = snapshot(&written);
        assert_eq!(back.data_plane.status(OptionalObject::IngressNginxController), Some(ReadStatus::Read));
        let r = explain(&back);
        assert_eq!(path_of(&r, PathKind::IngressNginx), Some(C::FrontDoorAppliesHints), "{extra:?}");
        assert_eq!(path_of(&r, PathKind::Linkerd), Some(C::FrontDoorAppliesHints), "{extra:?}");
        assert_eq!(path_of(&r, PathKind::OvnKubernetes), Some(C::OvnKubernetesIgnoresHints), "{extra:?}");
    }
}

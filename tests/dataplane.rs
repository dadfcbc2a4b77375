//! The data plane of a Service (docs/behaviour.md#data-plane) on dumps rebuilt from issue 33's
//! classes: a kube-proxy add-on older than the kubelets (class 1), Cilium's socket load balancing
//! beside kube-proxy (class 2), and Cilium's own version (class 3); and a path that could not be
//! seen, said to be unknown.

use kubectl_topo::source::dump::parse_dump;
use topo_engine::core::analyze;
use topo_engine::model::{ReadStatus, Snapshot};
use topo_engine::report::ServiceReport;
use topo_engine::report::dataplane::{PathKind, Traffic, VersionSource};
use topo_engine::report::reason::ReasonCode as C;

use crate::support::{path, read, topo};

const EKS_KUBE_PROXY: &str = "602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/kube-proxy:v1.21.2-eksbuild.2";

/// w03 (four zones, hinted), with the server at `server` and these extra YAML documents.
fn dump(server: &str, annotation: &str, extra: &str) -> String {
    let base = read(&path("tests/fixtures/w03-four-zones-hinted.yaml"))
        .replace("serverVersion: v1.36.2", &format!("serverVersion: {server}"))
        .replace("service.kubernetes.io/topology-mode: Auto", annotation);
    format!("{base}{extra}")
}

fn daemon_set(name: &str, container: &str, image: &str) -> String {
    format!(
        "\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: {name}\n  namespace: kube-system\n\
         spec:\n  selector: {{}}\n  template:\n    spec:\n      containers:\n      - name: {container}\n        image: {image}\n"
    )
}

fn cilium_config(data: &[(&str, &str)]) -> String {
    let data: String = data.iter().map(|(k, v)| format!("  {k}: \"{v}\"\n")).collect();
    format!(
        "\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cilium-config\n  namespace: kube-system\ndata:\n{data}"
    )
}

fn snapshot(text: &str) -> Snapshot {
    parse_dump(text, "test").unwrap().snapshot
}

fn explain(s: &Snapshot) -> ServiceReport {
    let chosen = topo_engine::core::version::choose(None, s).unwrap();
    analyze::explain(s, &s.services[0], chosen.behaviour)
}

/// The paths of kube-proxy and Cilium (the front doors' are `tests/frontdoors.rs`').
fn verdicts(r: &ServiceReport) -> Vec<(PathKind, C)> {
    r.data_plane.iter().filter(|p| !front_door(p.path)).map(|p| (p.path, p.verdict)).collect()
}

fn front_door(path: PathKind) -> bool {
    matches!(
        path,
        PathKind::EnvoyGateway
            | PathKind::IstioAmbient
            | PathKind::IngressNginx
            | PathKind::Linkerd
            | PathKind::FrontDoorUnknown
    )
}

const AWARE_HINTS: &str = "service.kubernetes.io/topology-aware-hints: auto";
const MODE_AUTO: &str = "service.kubernetes.io/topology-mode: Auto";

#[test]
fn class1_a_kube_proxy_add_on_older_than_the_kubelets_ignores_hints() {
    let lagging = snapshot(&dump(
        "v1.24.17-eks-1",
        AWARE_HINTS,
        &daemon_set("kube-proxy", "kube-proxy", EKS_KUBE_PROXY),
    ));
    let r = explain(&lagging);
    let kube_proxy = r.data_plane.iter().find(|p| p.path == PathKind::KubeProxy).unwrap();
    assert_eq!(kube_proxy.verdict, C::KubeProxyIgnoresHints);
    assert_eq!(kube_proxy.version.as_deref(), Some("1.21.2-eksbuild.2"));
    assert_eq!(kube_proxy.version_source, VersionSource::DaemonSetImage);
    assert_eq!(kube_proxy.read, Some(ReadStatus::Read));
    assert!(r.notes.iter().any(|n| n.code == C::KubeProxyIgnoresHints), "{:?}", r.notes);
    // kube-proxy's own view: every node at 1.21, where the gate is off.
    let proxy = format!("{:?}", r.families[0].proxy);
    assert!(proxy.contains("ProxyTopologyNotUsed"), "{proxy}");

    // The same cluster with kube-proxy at the kubelets' version: hints are applied.
    let current = snapshot(&dump(
        "v1.24.17-eks-1",
        AWARE_HINTS,
        &daemon_set("kube-proxy", "kube-proxy", "registry.k8s.io/kube-proxy:v1.24.17"),
    ));
    let r = explain(&current);
    assert!(verdicts(&r).contains(&(PathKind::KubeProxy, C::KubeProxyAppliesHints)), "{:?}", verdicts(&r));
    assert!(!r.notes.iter().any(|n| n.code == C::KubeProxyIgnoresHints));
    assert!(!format!("{:?}", r.families[0].proxy).contains("ProxyTopologyNotUsed"));
}

#[test]
fn class1_the_cli_notes_the_daemon_sets_version_and_check_carries_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("eks.yaml");
    std::fs::write(
        &file,
        dump("v1.24.17-eks-1", AWARE_HINTS, &daemon_set("kube-proxy", "kube-proxy", EKS_KUBE_PROXY)),
    )
    .unwrap();
    let out = topo().args(["explain", "svc", "-n", "w", "-f"]).arg(&file).output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        stderr.contains("kube-proxy runs v1.21.2-eksbuild.2 (image of DaemonSet kube-system/kube-proxy)"),
        "{stderr}"
    );
    assert!(stdout.contains("Data plane") && stdout.contains("KubeProxyIgnoresHints"), "{stdout}");
    let out = topo().args(["check", "-A", "-o", "json", "-f"]).arg(&file).output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reasons = json.pointer("/services/0/families/0/reasons").unwrap().to_string();
    assert!(reasons.contains("KubeProxyIgnoresHints"), "{reasons}");
}

#[test]
fn class2_cilium_socket_lb_beside_kube_proxy_balances_pod_traffic_itself() {
    let with = |data: &[(&str, &str)]| explain(&snapshot(&dump("v1.36.2", MODE_AUTO, &cilium_config(data))));
    let r = with(&[("kube-proxy-replacement", "partial"), ("bpf-lb-sock", "true")]);
    let socket = r.data_plane.iter().find(|p| p.path == PathKind::CiliumSocketLb).unwrap();
    assert_eq!((socket.traffic, socket.verdict), (Traffic::PodToClusterIp, C::CiliumSocketLbIgnoresHints));
    let kube_proxy = r.data_plane.iter().find(|p| p.path == PathKind::KubeProxy).unwrap();
    assert_eq!(kube_proxy.traffic, Traffic::NotPodToClusterIp);
    assert!(r.notes.iter().any(|n| n.code == C::CiliumSocketLbIgnoresHints));

    let probe = with(&[("kube-proxy-replacement", "probe")]);
    assert!(verdicts(&probe).contains(&(PathKind::CiliumSocketLb, C::CiliumSocketLbIgnoresHints)));
    let on =
        [("kube-proxy-replacement", "false"), ("bpf-lb-sock", "true"), ("enable-service-topology", "true")];
    let unknown = with(&on);
    let pair = (PathKind::CiliumSocketLb, C::CiliumVersionUnknown);
    assert!(verdicts(&unknown).contains(&pair), "topology-mode needs Cilium 1.14+");
    let agent = daemon_set("cilium", "cilium-agent", "quay.io/cilium/cilium:v1.16.3");
    let on = explain(&snapshot(&dump("v1.36.2", MODE_AUTO, &format!("{}{agent}", cilium_config(&on)))));
    let pair = (PathKind::CiliumSocketLb, C::CiliumSocketLbAppliesHints);
    assert!(verdicts(&on).contains(&pair), "{:?}", verdicts(&on));
    // Socket LB for host-network processes only, or off: kube-proxy routes pods' traffic.
    for data in [
        &[
            ("kube-proxy-replacement", "partial"),
            ("bpf-lb-sock", "true"),
            ("bpf-lb-sock-hostns-only", "true"),
        ][..],
        &[("kube-proxy-replacement", "partial")][..],
        &[("kube-proxy-replacement", "false")][..],
    ] {
        let r = with(data);
        assert_eq!(verdicts(&r), vec![(PathKind::KubeProxy, C::KubeProxyAppliesHints)], "{data:?}");
    }
}

#[test]
fn class3_cilium_reads_only_the_keys_its_version_knows() {
    let cilium = |image: Option<&str>, annotation: &str, td: Option<&str>| {
        let mut extra =
            cilium_config(&[("kube-proxy-replacement", "true"), ("enable-service-topology", "true")]);
        if let Some(image) = image {
            extra.push_str(&daemon_set("cilium", "cilium-agent", image));
        }
        let mut text = dump("v1.36.2", annotation, &extra);
        if let Some(td) = td {
            text = text.replace(
                "    type: ClusterIP\n",
                &format!("    type: ClusterIP\n    trafficDistribution: {td}\n"),
            );
        }
        let r = explain(&snapshot(&text));
        let paths = verdicts(&r);
        assert_eq!(paths.len(), 1, "Cilium replaces kube-proxy: one path");
        (paths[0].1, r.notes.iter().map(|n| n.code).collect::<Vec<_>>())
    };
    let old = "quay.io/cilium/cilium:v1.13.4@sha256:bde8800d61aaad8b8451b10e247ac7bdeb7af187bb698f83d40ad75a38c1ee6b";
    let (verdict, notes) = cilium(Some(old), MODE_AUTO, None);
    assert_eq!(verdict, C::CiliumVersionIgnoresValue);
    assert!(notes.contains(&C::CiliumVersionIgnoresValue), "{notes:?}");
    assert_eq!(
        cilium(Some(old), AWARE_HINTS, None).0,
        C::CiliumAppliesHints,
        "the deprecated key works on 1.13"
    );
    assert_eq!(cilium(Some("quay.io/cilium/cilium:v1.14.0"), MODE_AUTO, None).0, C::CiliumAppliesHints);
    assert_eq!(cilium(None, MODE_AUTO, None).0, C::CiliumVersionUnknown);
    let none = "app: svc";
    let same_zone = |v: &str| cilium(Some(v), none, Some("PreferSameZone")).0;
    assert_eq!(same_zone("quay.io/cilium/cilium:v1.19.3"), C::CiliumVersionIgnoresValue);
    assert_eq!(same_zone("quay.io/cilium/cilium:v1.20.0"), C::CiliumAppliesHints);
}

#[test]
fn a_path_that_could_not_be_seen_is_unknown_not_kube_proxy() {
    let r = explain(&snapshot(&dump("v1.36.2", MODE_AUTO, "")));
    let unknown = r.data_plane.iter().find(|p| p.path == PathKind::Unknown).unwrap();
    assert_eq!((unknown.verdict, unknown.read), (C::DataPlaneUnknown, Some(ReadStatus::NotInDump)));
    let kube_proxy = r.data_plane.iter().find(|p| p.path == PathKind::KubeProxy).unwrap();
    assert_eq!(
        (kube_proxy.read, kube_proxy.version_source),
        (Some(ReadStatus::NotInDump), VersionSource::ControlPlane)
    );
    // A dump that recorded the read as forbidden replays it as forbidden.
    let forbidden = dump("v1.36.2", MODE_AUTO, "").replace(
        "  serverVersion: v1.36.2\n",
        "  serverVersion: v1.36.2\n  optionalReads:\n    CiliumConfig: forbidden\n",
    );
    let r = explain(&snapshot(&forbidden));
    let unknown = r.data_plane.iter().find(|p| p.path == PathKind::Unknown).unwrap();
    assert_eq!(unknown.read, Some(ReadStatus::Forbidden));
    // A cluster known to run no Cilium still may run OVN-Kubernetes: unknown until that is read.
    let absent = forbidden.replace("CiliumConfig: forbidden", "CiliumConfig: absent");
    let r = explain(&snapshot(&absent));
    let unknown = r.data_plane.iter().find(|p| p.path == PathKind::Unknown).unwrap();
    assert_eq!(unknown.facts.key.as_deref(), Some("notInDump"), "ovnkube-node's status");
    // A cluster known to run neither has no unknown path.
    let neither = absent.replace("CiliumConfig: absent", "CiliumConfig: absent\n    OvnKubeNode: absent");
    assert!(!explain(&snapshot(&neither)).data_plane.iter().any(|p| p.path == PathKind::Unknown));
}

#[test]
fn a_redacted_dump_keeps_the_optional_reads_and_their_statuses() {
    let text = dump(
        "v1.24.17",
        AWARE_HINTS,
        &format!(
            "{}{}",
            daemon_set("kube-proxy", "kube-proxy", EKS_KUBE_PROXY),
            cilium_config(&[("kube-proxy-replacement", "partial"), ("bpf-lb-sock", "true")])
        ),
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.yaml");
    std::fs::write(
        &file,
        text.replace(
            "  serverVersion: v1.24.17\n",
            "  serverVersion: v1.24.17\n  optionalReads:\n    CiliumAgent: forbidden\n",
        ),
    )
    .unwrap();
    let out = topo().args(["dump", "--redact", "-A", "-f"]).arg(&file).output().unwrap();
    let redacted = String::from_utf8(out.stdout).unwrap();
    assert!(!redacted.contains("602401143452") && !redacted.contains("eksbuild"), "{redacted}");
    let s = snapshot(&redacted);
    assert_eq!(s.data_plane.kube_proxy_image.as_deref(), Some("kube-proxy:v1.21.2"));
    assert_eq!(
        s.data_plane.status(topo_engine::model::OptionalObject::CiliumAgent),
        Some(ReadStatus::Forbidden)
    );
    assert_eq!(s.data_plane.cilium.as_ref().and_then(|c| c.socket_lb.as_deref()), Some("true"));
    assert!(verdicts(&explain(&s)).contains(&(PathKind::CiliumSocketLb, C::CiliumSocketLbIgnoresHints)));
}

//! The data plane of a Service (docs/behaviour.md#data-plane): which component routes its traffic
//! — kube-proxy, Cilium replacing it, Cilium's socket load balancing beside it — at which version,
//! and what each does with the value the Service asks for. Reads only the optional reads of
//! [`DataPlane`]; a path whose read was forbidden, failed or is not in the dump is `Unknown`.
//! Not a port of one upstream function: each rule cites the upstream file or PR it comes from.

use super::Cluster;
use super::asked::asked;
use crate::model::version::ProxyEra;
use crate::model::{
    ANNOTATION_TOPOLOGY_AWARE_HINTS, ANNOTATION_TOPOLOGY_MODE, Behaviour, CiliumConfig, DataPlane,
    OptionalObject as O, ReadStatus, Service,
};
use crate::report::dataplane::{DataPath, PathKind, Traffic, VersionSource};
use crate::report::mode::Mode;
use crate::report::reason::{Facts, Reason, ReasonCode as C};

/// kube-proxy's gate and eras (k/k `pkg/proxy/topology.go`, `pkg/features/kube_features.go`).
const CITE_KUBE_PROXY: &str = "kubernetes/kubernetes pkg/proxy/topology.go; TopologyAwareHints beta-on in 1.24 (pkg/features/kube_features.go)";
/// Cilium's replacement and `enable-service-topology` (cilium/cilium#17929, Cilium 1.11).
const CITE_CILIUM_TOPOLOGY: &str = "cilium/cilium#17929 (enable-service-topology, Cilium 1.11)";
/// Socket LB keys (`EnableSocketLB = "bpf-lb-sock"`, `BPFSocketLBHostnsOnly`), and hints bypassed
/// beside kube-proxy (cilium/cilium#23837).
const CITE_SOCKET_LB: &str =
    "cilium/cilium pkg/option/config.go (bpf-lb-sock, bpf-lb-sock-hostns-only); cilium/cilium#23837";
/// `topology-mode` read from Cilium 1.14 (cilium/cilium#31948 points at `pkg/k8s/service.go`).
const CITE_CILIUM_MODE: &str =
    "cilium/cilium pkg/k8s/service.go (topology-mode from Cilium 1.14, cilium/cilium#31948)";
/// `trafficDistribution: PreferClose` in Cilium's kube-proxy replacement from Cilium 1.16
/// (its kube-proxy-free guide, "Traffic Distribution and Topology Aware Hints").
const CITE_CILIUM_TD: &str =
    "Cilium 1.16 kube-proxy-free guide (Traffic Distribution and Topology Aware Hints)";
/// PreferSameZone and PreferSameNode in Cilium (cilium/cilium#44771, first released in 1.20).
const CITE_CILIUM_PREFER_SAME: &str = "cilium/cilium#44771 (pkg/loadbalancer/writer/writer.go, Cilium 1.20)";
/// OVN-Kubernetes builds its load balancers from every endpoint (no hint filtering; ovn-kubernetes
/// #3165 proposed it and was closed unmerged, #6888 proposes trafficDistribution).
const CITE_OVN: &str = "ovn-kubernetes go-controller/pkg/ovn/controller/services/lb_config.go buildServiceLBConfigs (no hints; #3165 closed unmerged, #6888 open)";
/// No data-plane read.
const CITE_UNKNOWN: &str = "docs/architecture.md#optional-reads";

/// Cilium's first minor that reads `topology-mode` (before: only `topology-aware-hints`).
pub(crate) const CILIUM_TOPOLOGY_MODE_MINOR: u32 = 14;
/// Cilium's first minor that reads `trafficDistribution: PreferClose`.
pub(crate) const CILIUM_PREFER_CLOSE_MINOR: u32 = 16;
/// Cilium's first minor that reads `PreferSameZone`/`PreferSameNode` (cilium/cilium#44771).
pub(crate) const CILIUM_PREFER_SAME_MINOR: u32 = 20;

/// The verdicts of a path that routes the Service's traffic without the hints it asks for.
pub(super) const IGNORING: [C; 7] = [
    C::KubeProxyIgnoresHints,
    C::OvnKubernetesIgnoresHints,
    C::CiliumIgnoresHints,
    C::CiliumSocketLbIgnoresHints,
    C::CiliumVersionIgnoresValue,
    C::FrontDoorIgnoresValue,
    C::FrontDoorIgnoresHints,
];

/// Each path of `service`'s traffic, in order: Cilium's, then kube-proxy's, then what is unknown,
/// then the front doors before it (`frontdoor.rs`).
pub(super) fn paths(cluster: &Cluster<'_>, service: &Service, mode: Mode) -> Vec<DataPath> {
    let dp = &cluster.snapshot.data_plane;
    let cilium = match dp.status(O::CiliumConfig) {
        Some(ReadStatus::Read) => dp.cilium.as_ref(),
        _ => None,
    };
    let mut paths = Vec::new();
    let ovn = dp.status(O::OvnKubeNode) == Some(ReadStatus::Read);
    if ovn {
        paths.push(ovn_path(service, mode));
    }
    let replaced = ovn || cilium.is_some_and(replaces_kube_proxy);
    if let Some(config) = cilium.filter(|c| replaced || socket_lb(c)) {
        let (kind, traffic) = if replaced {
            (PathKind::CiliumKubeProxyReplacement, Traffic::All)
        } else {
            (PathKind::CiliumSocketLb, Traffic::PodToClusterIp)
        };
        paths.push(cilium_path(dp, config, service, mode, kind, traffic));
    }
    if !replaced {
        let traffic = if paths.is_empty() { Traffic::All } else { Traffic::NotPodToClusterIp };
        paths.push(kube_proxy_path(cluster, mode, traffic));
    }
    let cilium_status = dp.status(O::CiliumConfig);
    let known = |s: Option<ReadStatus>| matches!(s, Some(ReadStatus::Read | ReadStatus::Absent));
    // OVN-Kubernetes is a question only where neither Cilium nor a kube-proxy DaemonSet was seen.
    let seen = |o: O| dp.status(o) == Some(ReadStatus::Read);
    let ovn_status = if seen(O::CiliumConfig) || seen(O::KubeProxyAgent) {
        Some(ReadStatus::Absent)
    } else {
        dp.status(O::OvnKubeNode)
    };
    if !known(cilium_status) || !known(ovn_status) {
        let status = cilium_status.map(|s| <&'static str>::from(s).to_string());
        let ovn_unknown =
            (!known(ovn_status)).then(|| ovn_status.map_or("", <&'static str>::from).to_string());
        paths.push(DataPath {
            path: PathKind::Unknown,
            traffic: Traffic::PodToClusterIp,
            version: None,
            version_source: VersionSource::Unknown,
            read: cilium_status,
            verdict: C::DataPlaneUnknown,
            facts: Facts { value: status, key: ovn_unknown, ..Facts::default() },
            citation: CITE_UNKNOWN.into(),
        });
    }
    paths.extend(super::frontdoor::paths(dp, service, cluster.routes_of(service)));
    paths.extend(super::hint_readers::paths(dp, service, mode, cluster.ingresses_of(service)));
    paths
}

/// OVN-Kubernetes' path: it replaces kube-proxy, and its load balancers take every endpoint.
fn ovn_path(service: &Service, mode: Mode) -> DataPath {
    let (key, value) = asked(service).unzip();
    let verdict = if mode == Mode::None { C::NotEnabled } else { C::OvnKubernetesIgnoresHints };
    DataPath {
        path: PathKind::OvnKubernetes,
        traffic: Traffic::All,
        version: None,
        version_source: VersionSource::Unknown,
        read: Some(ReadStatus::Read),
        verdict,
        facts: Facts { key, value, zone: Some("OVN-Kubernetes".into()), ..Facts::default() },
        citation: CITE_OVN.into(),
    }
}

/// The note `explain` and `check` carry for the worst path, when a path ignores the Service's
/// hints (an unknown path is shown in the data-plane section only: every `kubectl get` dump lacks
/// the reads, and a note on every Service would drown the findings). Cilium applying hints in
/// kube-proxy's place is noted too, as before paths were modelled.
pub(super) fn worst_note(paths: &[DataPath]) -> Option<Reason> {
    // The last path that ignores the hints (as `max_by_key` picks among equals), else Cilium
    // applying them; an unknown path in between (a front door not read) notes nothing.
    let ignoring = paths.iter().rev().find(|p| p.ignores_hints());
    let worst = ignoring.or_else(|| paths.iter().find(|p| p.verdict == C::CiliumAppliesHints))?;
    Some(Reason::with(worst.verdict, worst.facts.clone()))
}

fn replaces_kube_proxy(config: &CiliumConfig) -> bool {
    let replacement = config.kube_proxy_replacement.as_deref().unwrap_or("").trim();
    matches!(replacement.to_ascii_lowercase().as_str(), "true" | "strict")
}

fn is_true(value: Option<&str>) -> bool {
    value.is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
}

/// Cilium balances pods' ClusterIP connections at the socket beside kube-proxy: `bpf-lb-sock`
/// (`enable-host-reachable-services` before 1.12) on, or `kube-proxy-replacement: probe` (which
/// turns it on where the kernel allows: assumed) unless `bpf-lb-sock: false`; never with
/// `bpf-lb-sock-hostns-only: true` (host-network processes only).
fn socket_lb(config: &CiliumConfig) -> bool {
    if is_true(config.socket_lb_hostns_only.as_deref()) {
        return false;
    }
    let replacement = config.kube_proxy_replacement.as_deref().unwrap_or("").trim().to_ascii_lowercase();
    let explicitly_off = config.socket_lb.as_deref().is_some_and(|v| v.trim().eq_ignore_ascii_case("false"));
    is_true(config.socket_lb.as_deref())
        || is_true(config.host_reachable_services.as_deref())
        || (replacement == "probe" && !explicitly_off)
}

/// The first Cilium minor that reads what `service` asks with, and the rule's citation.
fn cilium_minor_for(key: &str, value: &str) -> (u32, &'static str) {
    match (key, value) {
        (ANNOTATION_TOPOLOGY_AWARE_HINTS, _) => (11, CITE_CILIUM_TOPOLOGY),
        (ANNOTATION_TOPOLOGY_MODE, _) => (CILIUM_TOPOLOGY_MODE_MINOR, CITE_CILIUM_MODE),
        (_, "PreferSameZone" | "PreferSameNode") => (CILIUM_PREFER_SAME_MINOR, CITE_CILIUM_PREFER_SAME),
        _ => (CILIUM_PREFER_CLOSE_MINOR, CITE_CILIUM_TD),
    }
}

fn cilium_path(
    dp: &DataPlane,
    config: &CiliumConfig,
    service: &Service,
    mode: Mode,
    path: PathKind,
    traffic: Traffic,
) -> DataPath {
    let release = dp.cilium_release();
    let version = release.map(|(minor, patch)| format!("1.{minor}.{patch}"));
    let version_source =
        if release.is_some() { VersionSource::DaemonSetImage } else { VersionSource::Unknown };
    let socket = path == PathKind::CiliumSocketLb;
    let (applies, ignores) = if socket {
        (C::CiliumSocketLbAppliesHints, C::CiliumSocketLbIgnoresHints)
    } else {
        (C::CiliumAppliesHints, C::CiliumIgnoresHints)
    };
    let topology_cite = if socket { CITE_SOCKET_LB } else { CITE_CILIUM_TOPOLOGY };
    let settings = Facts {
        value: Some(config.kube_proxy_replacement.clone().unwrap_or_default().trim().to_string()),
        key: Some(config.service_topology.clone().unwrap_or_default()),
        ..Facts::default()
    };
    let asked_facts = |key: &str, value: &str| Facts {
        key: Some(key.to_string()),
        value: Some(value.to_string()),
        zone: version.clone(),
        ..Facts::default()
    };
    let (verdict, facts, citation) = match asked(service) {
        _ if mode == Mode::None => (C::NotEnabled, settings, topology_cite),
        _ if !is_true(config.service_topology.as_deref()) => (ignores, settings, topology_cite),
        None => (C::NotEnabled, settings, topology_cite),
        Some((key, value)) => {
            let (first, cite) = cilium_minor_for(&key, &value);
            match release {
                Some((minor, _)) if minor < first => {
                    (C::CiliumVersionIgnoresValue, asked_facts(&key, &value), cite)
                }
                None if first > 11 => (C::CiliumVersionUnknown, asked_facts(&key, &value), cite),
                _ => (applies, settings, cite),
            }
        }
    };
    let read = dp.status(O::CiliumConfig);
    DataPath { path, traffic, version, version_source, read, verdict, facts, citation: citation.into() }
}

/// kube-proxy's path: its DaemonSet's image tag when read (it wins over the kubelets': an add-on
/// upgraded on its own), else the oldest kubelet older than the control plane, else the control
/// plane's version.
fn kube_proxy_path(cluster: &Cluster<'_>, mode: Mode, traffic: Traffic) -> DataPath {
    let dp = &cluster.snapshot.data_plane;
    let (behaviour, version_source, version): (Behaviour, _, _) = match dp.kube_proxy_release() {
        Some(release) => {
            let tag = dp.kube_proxy_image.as_deref().and_then(crate::model::image_tag).unwrap_or("");
            (release, VersionSource::DaemonSetImage, tag.trim_start_matches('v').to_string())
        }
        None => match cluster.proxy_nodes.oldest_skewed(cluster.behaviour) {
            Some(oldest) => (oldest, VersionSource::Kubelets, oldest.to_string()),
            None => (cluster.behaviour, VersionSource::ControlPlane, cluster.behaviour.to_string()),
        },
    };
    let verdict = match () {
        _ if mode == Mode::None => C::NotEnabled,
        _ if behaviour.proxy_era() == ProxyEra::V121 => C::KubeProxyIgnoresHints,
        _ => C::KubeProxyAppliesHints,
    };
    DataPath {
        path: PathKind::KubeProxy,
        traffic,
        version: Some(version.clone()),
        version_source,
        read: dp.status(O::KubeProxyAgent),
        verdict,
        facts: Facts { value: Some(version.clone()), ..Facts::default() },
        citation: CITE_KUBE_PROXY.into(),
    }
}

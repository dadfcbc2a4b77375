//! The words of the data plane (docs/behaviour.md#data-plane): one sentence and one remedy per
//! path verdict, the names of paths, traffic and version sources, and the read statuses of the
//! optional reads, as `explain`'s "Data plane" section and `check` show them.

use topo_engine::report::dataplane::{PathKind, Traffic, VersionSource};
use topo_engine::report::reason::{Facts, Reason, ReasonCode as C};

pub(crate) use super::partial::read_status;
use super::partial::status;
use super::quoted;

/// The sentence of a data-plane verdict (`None` for any other code).
pub(super) fn sentence(reason: &Reason) -> Option<String> {
    let f = &reason.facts;
    Some(match reason.code {
        C::KubeProxyAppliesHints => format!(
            "kube-proxy {} reads the hints the controller writes for this Service (the kube-proxy rows \
             say what it routes where).",
            version(f)
        ),
        C::KubeProxyIgnoresHints => format!(
            "kube-proxy {} predates topology hints being on by default (the TopologyAwareHints gate is \
             off before 1.24): it routes to every endpoint, whatever the controller writes and whatever \
             version the kubelets run.",
            version(f)
        ),
        C::CiliumSocketLbAppliesHints => format!(
            "Cilium balances pods' connections to the ClusterIP at the socket beside kube-proxy \
             (kube-proxy-replacement: {}) with enable-service-topology on: Cilium, not kube-proxy, \
             applies the hints to that traffic.",
            quoted(&f.value)
        ),
        C::CiliumSocketLbIgnoresHints => format!(
            "Cilium balances pods' connections to the ClusterIP at the socket beside kube-proxy \
             (kube-proxy-replacement: {}) and its enable-service-topology is {}: that traffic goes to \
             every endpoint, whatever kube-proxy's rules and the hints say.",
            quoted(&f.value),
            quoted(&f.key)
        ),
        C::CiliumVersionIgnoresValue => format!(
            "Cilium {} does not read {}={}: its load balancer does not apply topology for this \
             Service, whatever the controller writes.",
            f.zone.as_deref().unwrap_or("(version unknown)"),
            f.key.as_deref().unwrap_or(""),
            quoted(&f.value)
        ),
        C::CiliumVersionUnknown => "Cilium applies topology, but its version is unknown (DaemonSet \
             kube-system/cilium not read), and which keys it reads depends on it."
            .into(),
        C::DataPlaneUnknown => data_plane_unknown(f),
        C::OvnKubernetesIgnoresHints => format!(
            "OVN-Kubernetes balances this Service in place of kube-proxy, and its load balancers take \
             every endpoint: it does not read {} or the hints.",
            f.key
                .as_deref()
                .map_or_else(|| "what asked".to_string(), |k| format!("{k}={}", quoted(&f.value)))
        ),
        _ => return super::frontdoor::sentence(reason),
    })
}

/// Who could not be seen: Cilium (cilium-config's status is `value`), OVN-Kubernetes (ovnkube-node's
/// status is `key`, when unknown too), or both.
fn data_plane_unknown(f: &Facts) -> String {
    match (&f.value, &f.key) {
        (Some(cilium), Some(ovn)) if cilium == "read" || cilium == "absent" => format!(
            "Whether OVN-Kubernetes balances this Service in place of kube-proxy is unknown: DaemonSet \
             ovnkube-node was {}.",
            status(Some(ovn))
        ),
        (cilium, Some(ovn)) if cilium.as_deref() == Some(ovn.as_str()) => format!(
            "Whether Cilium or OVN-Kubernetes balances this Service is unknown: ConfigMap \
             kube-system/cilium-config and DaemonSet ovnkube-node were {}.",
            status(Some(ovn))
        ),
        (_, Some(ovn)) => format!(
            "Whether Cilium or OVN-Kubernetes balances this Service is unknown: ConfigMap \
             kube-system/cilium-config was {}, DaemonSet ovnkube-node {}.",
            status(f.value.as_deref()),
            status(Some(ovn))
        ),
        (_, None) => format!(
            "Whether Cilium balances this Service is unknown: ConfigMap kube-system/cilium-config was {}.",
            status(f.value.as_deref())
        ),
    }
}

/// The data-plane codes that say a path sends the Service's traffic to every endpoint.
pub(super) fn ignores_hints(code: C) -> bool {
    matches!(
        code,
        C::CiliumIgnoresHints
            | C::CiliumSocketLbIgnoresHints
            | C::CiliumVersionIgnoresValue
            | C::KubeProxyIgnoresHints
            | C::OvnKubernetesIgnoresHints
            | C::FrontDoorIgnoresValue
            | C::FrontDoorIgnoresHints
    )
}

/// The remedy of a data-plane verdict (`None` for any other code).
pub(super) fn remedy(reason: &Reason) -> Option<String> {
    Some(match reason.code {
        C::CiliumIgnoresHints => "Set enable-service-topology: \"true\" in cilium-config (Helm \
             loadBalancer.serviceTopology=true) and restart the Cilium agents: Cilium replaces kube-proxy \
             and routes this Service to every endpoint until then."
            .into(),
        C::KubeProxyIgnoresHints => {
            "Upgrade the kube-proxy add-on (DaemonSet kube-system/kube-proxy) to the \
             control plane's version; on EKS, update the kube-proxy add-on."
                .into()
        }
        C::CiliumSocketLbIgnoresHints => "Set enable-service-topology: \"true\" in cilium-config (Helm \
             loadBalancer.serviceTopology=true) and restart the Cilium agents, or turn socket load \
             balancing off for pods (bpf-lb-sock-hostns-only: \"true\")."
            .into(),
        C::CiliumVersionIgnoresValue => "Upgrade Cilium, or ask for topology with a key this Cilium reads \
             (service.kubernetes.io/topology-aware-hints: Auto before Cilium 1.14)."
            .into(),
        C::DataPlaneUnknown | C::CiliumVersionUnknown => "Let kubectl-topo read the data plane: `get` on \
             kube-system's cilium-config, kube-proxy ConfigMaps and DaemonSets and OVN-Kubernetes' DaemonSet \
             ovnkube-node (deploy/rbac.yaml), or add them to the dump."
            .into(),
        C::OvnKubernetesIgnoresHints => "OVN-Kubernetes has no topology-aware routing: keep traffic local \
             with internalTrafficPolicy: Local (endpoints on every client node needed), or accept that this \
             Service's traffic crosses zones."
            .into(),
        C::KubeProxyAppliesHints | C::CiliumSocketLbAppliesHints => "See the reasons below.".into(),
        _ => return super::frontdoor::remedy(reason),
    })
}

fn version(f: &Facts) -> String {
    f.value.clone().unwrap_or_default()
}

/// A path in words, for the section's table.
pub(crate) fn path(kind: PathKind) -> &'static str {
    match kind {
        PathKind::KubeProxy => "kube-proxy",
        PathKind::CiliumKubeProxyReplacement => "Cilium (kube-proxy replacement)",
        PathKind::CiliumSocketLb => "Cilium socket LB",
        PathKind::Unknown => "unknown (Cilium, OVN-K?)",
        PathKind::EnvoyGateway => "Envoy Gateway",
        PathKind::IstioAmbient => "Istio ambient (ztunnel)",
        PathKind::FrontDoorUnknown => "unknown (a front door?)",
        PathKind::OvnKubernetes => "OVN-Kubernetes",
        PathKind::IngressNginx => "ingress-nginx",
        PathKind::Linkerd => "Linkerd",
    }
}

/// Which traffic, in words.
pub(crate) fn traffic(traffic: Traffic) -> &'static str {
    match traffic {
        Traffic::All => "all",
        Traffic::PodToClusterIp => "pod → ClusterIP",
        Traffic::NotPodToClusterIp => "other than pod → ClusterIP",
        Traffic::ThroughGateway => "through the gateway",
        Traffic::AmbientPods => "ambient pods",
        Traffic::ThroughIngress => "through the Ingress",
        Traffic::MeshedPods => "meshed pods",
    }
}

/// Where a version came from, in words.
pub(crate) fn version_source(source: VersionSource) -> &'static str {
    match source {
        VersionSource::DaemonSetImage => "DaemonSet image",
        VersionSource::FrontDoorImage => "ztunnel image",
        VersionSource::ControllerImage => "controller image",
        VersionSource::MeshConfig => "linkerd-config",
        VersionSource::Kubelets => "kubelets",
        VersionSource::ControlPlane => "control plane",
        VersionSource::Unknown => "unknown",
    }
}

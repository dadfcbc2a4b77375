//! The data plane of a Service: each path its traffic takes (kube-proxy, Cilium's kube-proxy
//! replacement, Cilium's socket load balancing beside kube-proxy, or a path that could not be
//! seen), the version modelled for it and where that version came from, and what it does with
//! this Service's hints as a reason code. Codes and citations (upstream file or PR) only; the
//! words are the caller's.

use serde::Serialize;

use crate::model::ReadStatus;
use crate::report::reason::{Facts, ReasonCode};

/// Which component routes the traffic of a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum PathKind {
    /// kube-proxy (iptables, IPVS or nftables rules on each node).
    KubeProxy,
    /// Cilium replacing kube-proxy (`kube-proxy-replacement: true`, `strict` before 1.14).
    CiliumKubeProxyReplacement,
    /// Cilium's socket load balancing beside kube-proxy: a pod's connect() to a ClusterIP is
    /// translated by Cilium before kube-proxy's rules see it.
    CiliumSocketLb,
    /// Cilium or kube-proxy could not be seen (a read forbidden, failed, or not in the dump).
    Unknown,
    /// Envoy Gateway: an HTTPRoute or GRPCRoute of a Gateway it controls names the Service, and
    /// its Envoy proxies balance the Service's endpoints themselves.
    EnvoyGateway,
    /// Istio ambient: ztunnel on each node balances connections of pods enrolled in the mesh.
    IstioAmbient,
    /// A front door that could not be seen (its read forbidden, failed, or not in the dump).
    FrontDoorUnknown,
    /// OVN-Kubernetes: its OVN load balancers replace kube-proxy for every Service.
    OvnKubernetes,
    /// ingress-nginx: an Ingress of its class names the Service, and the controller balances the
    /// Service's endpoints itself (its Lua balancer).
    IngressNginx,
    /// Linkerd: the proxies of meshed pods balance the endpoints the destination controller gives.
    Linkerd,
}

/// Which traffic of the Service a path routes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Traffic {
    /// Every connection to the Service.
    All,
    /// Pods connecting to the ClusterIP.
    PodToClusterIp,
    /// Everything else: host-network clients, NodePorts, load balancers, external IPs.
    NotPodToClusterIp,
    /// Requests entering through a Gateway's routes.
    ThroughGateway,
    /// Connections of pods enrolled in Istio's ambient mesh.
    AmbientPods,
    /// Requests entering through an Ingress.
    ThroughIngress,
    /// Requests of pods meshed by Linkerd (its proxy injected).
    MeshedPods,
}

/// Where the version of a path came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum VersionSource {
    /// The image tag of its DaemonSet in kube-system.
    DaemonSetImage,
    /// The image tag of a front door's DaemonSet (Istio's ztunnel).
    FrontDoorImage,
    /// The image tag of a front door's controller (ingress-nginx's Deployment).
    ControllerImage,
    /// The version a mesh's configuration records (Linkerd's `linkerdVersion`).
    MeshConfig,
    /// The Nodes' kubelets (the oldest one older than the control plane).
    Kubelets,
    /// The Kubernetes version modelled for the control plane.
    ControlPlane,
    /// Not known.
    Unknown,
}

/// One path of a Service's traffic.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DataPath {
    /// The component.
    pub path: PathKind,
    /// Which traffic it routes.
    pub traffic: Traffic,
    /// Its version (`1.21.2`, Cilium's `1.13.4`), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Where the version came from.
    pub version_source: VersionSource,
    /// What the optional read that shows this path found (`None`: nothing was read for it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read: Option<ReadStatus>,
    /// What it does with this Service's hints.
    pub verdict: ReasonCode,
    /// The facts of the verdict, as its reason code documents them.
    pub facts: Facts,
    /// The upstream file or pull request the verdict's rule comes from.
    pub citation: String,
}

impl DataPath {
    /// True when this path routes the Service's traffic without the hints the Service asks for.
    pub fn ignores_hints(&self) -> bool {
        matches!(
            self.verdict,
            ReasonCode::KubeProxyIgnoresHints
                | ReasonCode::CiliumIgnoresHints
                | ReasonCode::CiliumSocketLbIgnoresHints
                | ReasonCode::CiliumVersionIgnoresValue
                | ReasonCode::OvnKubernetesIgnoresHints
                | ReasonCode::FrontDoorIgnoresValue
                | ReasonCode::FrontDoorIgnoresHints
        )
    }

    /// How bad a verdict is, for the worst path of a Service: ignoring hints, then unknown, then
    /// the rest.
    pub fn severity(&self) -> u8 {
        match self.verdict {
            _ if self.ignores_hints() => 2,
            ReasonCode::DataPlaneUnknown
            | ReasonCode::CiliumVersionUnknown
            | ReasonCode::FrontDoorUnknown => 1,
            _ => 0,
        }
    }
}

//! What routes a Service's traffic besides the controller's hints: the cluster configuration read
//! by the *optional reads* (docs/architecture.md#optional-reads). Each optional object has a
//! [`ReadStatus`] the report shows (read, absent, forbidden, failed, not in the dump), so a path
//! that could not be seen is reported as unknown instead of assumed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::frontdoor::FrontDoors;
use super::version::{Behaviour, release_of};

/// One object an optional read looks for. Namespaces and names are the reader's
/// (`src/source/optional.rs`); the engine only knows what each one stands for.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::Display,
    strum::VariantArray,
)]
pub enum OptionalObject {
    /// ConfigMap `kube-system/cilium-config`: Cilium's mode, socket LB and service topology.
    CiliumConfig,
    /// DaemonSet `kube-system/cilium`: Cilium's version (its agent's image tag).
    CiliumAgent,
    /// ConfigMap `kube-system/kube-proxy` (kubeadm, AKS) or `kube-system/kube-proxy-config`
    /// (EKS): kube-proxy's mode.
    KubeProxyConfig,
    /// DaemonSet `kube-system/kube-proxy`: kube-proxy's version (its image tag), which may lag
    /// the kubelets' (an add-on upgraded on its own, as on EKS).
    KubeProxyAgent,
    /// Every `gateway.networking.k8s.io/v1 HTTPRoute` (a list: parentRefs and backendRefs only).
    HttpRoutes,
    /// Every `gateway.networking.k8s.io/v1 GRPCRoute` (a list, as above).
    GrpcRoutes,
    /// Every Gateway (a list: its class only).
    Gateways,
    /// Every GatewayClass (a list: its controller only).
    GatewayClasses,
    /// Every `gateway.envoyproxy.io/v1alpha1 BackendTrafficPolicy` (a list: targets, zone-aware).
    BackendTrafficPolicies,
    /// DaemonSet `istio-system/ztunnel`: Istio ambient's node proxy and its version.
    Ztunnel,
    /// Every Namespace (a list: Istio's traffic-distribution annotation only).
    Namespaces,
    /// DaemonSet `ovnkube-node` (namespace `ovn-kubernetes`, OpenShift `openshift-ovn-kubernetes`):
    /// OVN-Kubernetes balances Services in place of kube-proxy.
    OvnKubeNode,
    /// Every `networking.k8s.io/v1 Ingress` (a list: class and backend Services only).
    Ingresses,
    /// Every IngressClass (a list: its controller only).
    IngressClasses,
    /// Deployment `ingress-nginx/ingress-nginx-controller`: its version and whether
    /// `--enable-topology-aware-routing` is on.
    IngressNginxController,
    /// ConfigMap `linkerd/linkerd-config`: Linkerd's version and `enableEndpointSlices`.
    LinkerdConfig,
    /// The Pods of ingress-nginx's controller and of Envoy Gateway's proxies (two lists by label
    /// selector: their names and nodes only), the callers of the Services behind them.
    FrontDoorPods,
}

impl OptionalObject {
    /// The reads of the front doors (`model::frontdoor`).
    pub fn is_front_door(self) -> bool {
        !matches!(
            self,
            Self::CiliumConfig
                | Self::CiliumAgent
                | Self::KubeProxyConfig
                | Self::KubeProxyAgent
                | Self::OvnKubeNode
        )
    }
}

/// What an optional read found.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::Display,
    strum::IntoStaticStr,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
#[strum(serialize_all = "camelCase")]
pub enum ReadStatus {
    /// Read: the object is in the model.
    Read,
    /// The cluster has no such object (404).
    Absent,
    /// The reader may not get it (403).
    Forbidden,
    /// Another failure (timeout, server error): best effort, so the report goes on without it.
    Failed,
    /// A dump that does not hold it (and records no status for it).
    NotInDump,
}

/// The data-plane configuration of a cluster, from the optional reads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DataPlane {
    /// What each optional read found; an object not listed was not looked for (a Snapshot built
    /// in code), which reads as unknown too.
    #[serde(default)]
    pub reads: BTreeMap<OptionalObject, ReadStatus>,
    /// ConfigMap `kube-system/cilium-config`, when read.
    pub cilium: Option<CiliumConfig>,
    /// The image of DaemonSet `kube-system/cilium`'s agent container, when read.
    #[serde(default)]
    pub cilium_image: Option<String>,
    /// The image of DaemonSet `kube-system/kube-proxy`'s container, when read.
    #[serde(default)]
    pub kube_proxy_image: Option<String>,
    /// `mode` of kube-proxy's configuration (`iptables`, `ipvs`, `nftables`, `""` = the default),
    /// when its ConfigMap was read and names one.
    #[serde(default)]
    pub kube_proxy_mode: Option<String>,
    /// The image of DaemonSet `ovnkube-node`'s container, when read (OVN-Kubernetes runs).
    #[serde(default)]
    pub ovn_kubernetes_image: Option<String>,
    /// The front doors before Services (Envoy Gateway, Istio ambient), when read.
    #[serde(default)]
    pub front_doors: FrontDoors,
}

impl DataPlane {
    /// What the optional read of `object` found (`None`: not looked for).
    pub fn status(&self, object: OptionalObject) -> Option<ReadStatus> {
        self.reads.get(&object).copied()
    }

    /// kube-proxy's release from its DaemonSet's image tag (`…/kube-proxy:v1.21.2-eksbuild.2`).
    pub fn kube_proxy_release(&self) -> Option<Behaviour> {
        release_of(image_tag(self.kube_proxy_image.as_deref()?)?)
    }

    /// Istio's `(minor, patch)` from ztunnel's image tag (`…/ztunnel:1.24.0-distroless`).
    pub fn ztunnel_release(&self) -> Option<(u32, u32)> {
        cilium_version(image_tag(self.front_doors.ztunnel_image.as_deref()?)?)
    }

    /// ingress-nginx's `(minor, patch)` from its controller's image tag (`…/controller:v1.9.4@sha256:…`).
    pub fn ingress_nginx_release(&self) -> Option<(u32, u32)> {
        let image = self.front_doors.ingress_nginx.as_ref()?.image.as_deref()?;
        cilium_version(image_tag(image)?)
    }

    /// Linkerd's stable `(minor, patch)` (`stable-2.14.10`, `enterprise-2.16.0`), or for an edge
    /// release (`edge-24.5.1`) the stable line it follows: every edge from 2023 on is past 2.12.
    pub fn linkerd_release(&self) -> Option<(u32, u32)> {
        let version = self.front_doors.linkerd.as_ref()?.version.as_deref()?.trim();
        let digits =
            |p: &str| p.chars().take_while(char::is_ascii_digit).collect::<String>().parse::<u32>().ok();
        if let Some(edge) = version.strip_prefix("edge-") {
            let year = digits(edge.split('.').next()?)?;
            return (year >= 23).then_some((12, 0));
        }
        let numbers = version.rsplit('-').next()?.trim_start_matches('v');
        let mut parts = numbers.splitn(3, '.');
        if parts.next()? != "2" {
            return None;
        }
        Some((digits(parts.next()?)?, parts.next().and_then(digits).unwrap_or(0)))
    }

    /// Cilium's `(minor, patch)` from its agent's image tag (`…/cilium:v1.13.4@sha256:…`).
    pub fn cilium_release(&self) -> Option<(u32, u32)> {
        cilium_version(image_tag(self.cilium_image.as_deref()?)?)
    }
}

/// The tag of an image reference: after the last `:` of the last path segment, before any
/// `@digest`. `None` when untagged.
pub fn image_tag(image: &str) -> Option<&str> {
    let named = image.split('@').next()?;
    let last = named.rsplit('/').next()?;
    let tag = last.split_once(':')?.1.trim();
    (!tag.is_empty()).then_some(tag)
}

/// `1.NN.P` of a Cilium or Istio tag (`v1.14.2`, `1.16.0-rc.1`); both are 1.x.
fn cilium_version(tag: &str) -> Option<(u32, u32)> {
    let mut parts = tag.trim_start_matches('v').splitn(3, '.');
    let digits = |p: &str| p.chars().take_while(char::is_ascii_digit).collect::<String>().parse::<u32>().ok();
    if parts.next()? != "1" {
        return None;
    }
    let minor = digits(parts.next()?)?;
    Some((minor, parts.next().and_then(digits).unwrap_or(0)))
}

/// The keys of `kube-system/cilium-config` that decide how Cilium treats hints (cilium/cilium
/// `pkg/option/config.go` names them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CiliumConfig {
    /// `kube-proxy-replacement` (`"true"`/`"false"`; before Cilium 1.14 `strict`/`partial`/`probe`/`disabled`).
    pub kube_proxy_replacement: Option<String>,
    /// `enable-service-topology`: Cilium's own load balancer honours topology hints.
    pub service_topology: Option<String>,
    /// `bpf-lb-sock` (`EnableSocketLB`): socket load balancing, Cilium translating a pod's
    /// connect() to a ClusterIP itself, before kube-proxy's rules see the packet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub socket_lb: Option<String>,
    /// `enable-host-reachable-services`: the same before Cilium 1.12.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_reachable_services: Option<String>,
    /// `bpf-lb-sock-hostns-only` (`BPFSocketLBHostnsOnly`): socket LB for host-network processes
    /// only, so pods' traffic is not balanced by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub socket_lb_hostns_only: Option<String>,
}

/// The keys of [`CiliumConfig`], as cilium-config names them: what a reader keeps of the ConfigMap.
pub const CILIUM_KEYS: [&str; 5] = [
    "kube-proxy-replacement",
    "enable-service-topology",
    "bpf-lb-sock",
    "enable-host-reachable-services",
    "bpf-lb-sock-hostns-only",
];

impl CiliumConfig {
    /// The config from cilium-config's data (only [`CILIUM_KEYS`] are read).
    pub fn from_data(get: impl Fn(&str) -> Option<String>) -> Self {
        CiliumConfig {
            kube_proxy_replacement: get(CILIUM_KEYS[0]),
            service_topology: get(CILIUM_KEYS[1]),
            socket_lb: get(CILIUM_KEYS[2]),
            host_reachable_services: get(CILIUM_KEYS[3]),
            socket_lb_hostns_only: get(CILIUM_KEYS[4]),
        }
    }

    /// The values by key, in [`CILIUM_KEYS`] order (what a dump writes back).
    pub fn data(&self) -> [(&'static str, Option<&str>); 5] {
        [
            (CILIUM_KEYS[0], self.kube_proxy_replacement.as_deref()),
            (CILIUM_KEYS[1], self.service_topology.as_deref()),
            (CILIUM_KEYS[2], self.socket_lb.as_deref()),
            (CILIUM_KEYS[3], self.host_reachable_services.as_deref()),
            (CILIUM_KEYS[4], self.socket_lb_hostns_only.as_deref()),
        ]
    }
}

/// `mode` of a KubeProxyConfiguration document (the ConfigMap's `config.conf` or `config`): the
/// value of a top-level `mode:` line, unquoted; `Some("")` when it is empty (the default mode).
pub fn kube_proxy_mode(config: &str) -> Option<String> {
    config.lines().find_map(|line| {
        let value = line.strip_prefix("mode:")?;
        let value = value.split(" #").next().unwrap_or("").trim();
        Some(value.trim_matches(|c| c == '"' || c == '\'').to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_tags_of_the_providers_images() {
        let release = |image: &str| {
            DataPlane { kube_proxy_image: Some(image.into()), ..DataPlane::default() }.kube_proxy_release()
        };
        let eks = "602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/kube-proxy:v1.21.2-eksbuild.2";
        assert_eq!(release(eks), Some(Behaviour::patch(21, 2)));
        assert_eq!(release("registry.k8s.io/kube-proxy:v1.30.2"), Some(Behaviour::patch(30, 2)));
        let aks = "mcr.microsoft.com/oss/kubernetes/kube-proxy:v1.27.7-hotfix.20231120";
        assert_eq!(release(aks), Some(Behaviour::patch(27, 7)));
        assert_eq!(release("gke.gcr.io/kube-proxy-amd64:v1.29.1-gke.1589017"), Some(Behaviour::patch(29, 1)));
        assert_eq!(release("localhost:5000/kube-proxy"), None, "a registry port is not a tag");
        assert_eq!(release("kube-proxy:latest"), None);
        let cilium = |image: &str| {
            DataPlane { cilium_image: Some(image.into()), ..DataPlane::default() }.cilium_release()
        };
        assert_eq!(
            cilium(
                "quay.io/cilium/cilium:v1.13.4@sha256:bde8800d61aaad8b8451b10e247ac7bdeb7af187bb698f83d40ad75a38c1ee6b"
            ),
            Some((13, 4))
        );
        assert_eq!(cilium("quay.io/cilium/cilium:1.16.0-rc.1"), Some((16, 0)));
        assert_eq!(cilium("quay.io/cilium/cilium@sha256:abc"), None);
    }

    #[test]
    fn linkerd_and_ingress_nginx_releases() {
        let linkerd = |version: &str| {
            DataPlane {
                front_doors: FrontDoors {
                    linkerd: Some(super::super::ingress::Linkerd {
                        version: Some(version.into()),
                        endpoint_slices: None,
                    }),
                    ..FrontDoors::default()
                },
                ..DataPlane::default()
            }
            .linkerd_release()
        };
        assert_eq!(linkerd("stable-2.14.10"), Some((14, 10)));
        assert_eq!(linkerd("enterprise-2.16.0"), Some((16, 0)));
        assert_eq!(linkerd("stable-2.11.5"), Some((11, 5)));
        assert_eq!(linkerd("edge-24.5.1"), Some((12, 0)), "an edge after 2.12");
        assert_eq!(linkerd("edge-22.6.2"), None, "an edge of 2022: which side of 2.12 is not known");
        assert_eq!(linkerd("linkerdVersionValue"), None);
        let nginx = DataPlane {
            front_doors: FrontDoors {
                ingress_nginx: Some(super::super::ingress::IngressController {
                    image: Some("registry.k8s.io/ingress-nginx/controller:v1.9.4@sha256:5b161f05".into()),
                    topology_aware_routing: true,
                }),
                ..FrontDoors::default()
            },
            ..DataPlane::default()
        };
        assert_eq!(nginx.ingress_nginx_release(), Some((9, 4)));
    }

    #[test]
    fn the_mode_line_of_a_kube_proxy_configuration() {
        let conf = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nipvs:\n  mode: nested\nmode: \"ipvs\" # set by kubeadm\n";
        assert_eq!(kube_proxy_mode(conf).as_deref(), Some("ipvs"));
        assert_eq!(kube_proxy_mode("mode: \"\"\n").as_deref(), Some(""));
        assert_eq!(kube_proxy_mode("kind: KubeProxyConfiguration\n"), None);
    }
}

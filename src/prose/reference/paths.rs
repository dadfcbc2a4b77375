//! Reference pages: the data-plane paths of a Service (`explain`'s Data plane section) and the
//! release bugs that change what a sync does.

use super::Entry;

pub(super) const KUBE_PROXY_APPLIES_HINTS: Entry = Entry {
    summary: "kube-proxy, at its own version, routes by the hints the controller writes for this Service.",
    meaning: "The path through kube-proxy reads the Service's hints: its version (the kube-proxy \
        DaemonSet's image tag when read, else the kubelets', else the control plane's) has the topology \
        gate on and reads the key or field the Service asks with.",
    upstream: &[
        "kubernetes/kubernetes pkg/proxy/topology.go, CategorizeEndpoints and canUseTopology",
        "kubernetes/kubernetes pkg/features/kube_features.go, TopologyAwareHints (on by default from 1.24)",
    ],
    fix: &[("every release", "Nothing to fix: this path keeps traffic where the hints say.")],
};

pub(super) const KUBE_PROXY_IGNORES_HINTS: Entry = Entry {
    summary: "kube-proxy, at its own version, ignores hints: its topology gate is off (before 1.24).",
    meaning: "kube-proxy is upgraded on its own where it is an add-on (EKS, kubeadm's DaemonSet), so it \
        may be older than the kubelets. Before 1.24 the TopologyAwareHints gate is off by default, and \
        such a kube-proxy routes every Service to every endpoint whatever hints the slices carry.",
    upstream: &[
        "kubernetes/kubernetes pkg/features/kube_features.go, TopologyAwareHints (beta, on by default in 1.24)",
        "kubernetes/kubernetes pkg/proxy/topology.go, FilterEndpoints (before 1.24)",
    ],
    fix: &[
        (
            "kube-proxy before 1.24",
            "Upgrade the kube-proxy add-on to the kubelets' minor (on EKS: the \
          kube-proxy add-on version of the cluster's Kubernetes version), or turn its \
          TopologyAwareHints gate on.",
        ),
        ("1.24 and later", "Nothing to fix on this path."),
    ],
};

pub(super) const CILIUM_SOCKET_LB_APPLIES_HINTS: Entry = Entry {
    summary: "Cilium's socket load balancing beside kube-proxy applies hints to pods' ClusterIP traffic.",
    meaning: "With socket load balancing on (bpf-lb-sock, or kube-proxy-replacement partial or probe), \
        Cilium translates a pod's connect() to the ClusterIP itself, so kube-proxy never sees that \
        traffic. With enable-service-topology on and a key its version reads, Cilium filters by the \
        hints as kube-proxy would.",
    upstream: &[
        "cilium/cilium pkg/option/config.go, EnableSocketLB and BPFSocketLBHostnsOnly",
        "cilium/cilium #17929 (topology-aware hints support)",
    ],
    fix: &[("every release", "Nothing to fix: pods' ClusterIP traffic follows the hints.")],
};

pub(super) const CILIUM_SOCKET_LB_IGNORES_HINTS: Entry = Entry {
    summary: "Cilium's socket load balancing beside kube-proxy ignores hints: service topology is off.",
    meaning: "Cilium balances pods' ClusterIP traffic in the socket layer before kube-proxy sees it, and \
        without enable-service-topology it sends that traffic to every endpoint. kube-proxy still \
        follows the hints for the rest (host-network clients, NodePorts, load balancers), which is \
        why hints look honoured from a node and ignored from a pod.",
    upstream: &[
        "cilium/cilium pkg/option/config.go, EnableSocketLB, EnableServiceTopology",
        "cilium/cilium #23837 (a maintainer's answer naming this split)",
    ],
    fix: &[(
        "Cilium 1.11 and later",
        "Set enable-service-topology: true in cilium-config (Helm loadBalancer.serviceTopology=true) and \
         restart the Cilium agents; or limit socket load balancing to host-network processes \
         (bpf-lb-sock-hostns-only: true) so pods go through kube-proxy.",
    )],
};

pub(super) const CILIUM_VERSION_IGNORES_VALUE: Entry = Entry {
    summary: "The Cilium version in use does not read the key or value this Service asks for topology with.",
    meaning: "Cilium learned the keys one by one: the deprecated topology-aware-hints annotation from 1.11, \
        topology-mode from 1.14, trafficDistribution PreferClose from 1.16, PreferSameZone and \
        PreferSameNode later still. An older Cilium sends the Service's traffic to every endpoint.",
    upstream: &[
        "cilium/cilium #31948 (pkg/k8s/service.go: topology-mode)",
        "cilium/cilium #38277 (trafficDistribution)",
        "cilium/cilium #44771 (pkg/loadbalancer/writer/writer.go: PreferSameZone, PreferSameNode)",
    ],
    fix: &[
        (
            "Cilium before 1.14",
            "Also set service.kubernetes.io/topology-aware-hints: auto on the Service, \
          or upgrade Cilium.",
        ),
        (
            "Cilium 1.14 and later",
            "Use a key or trafficDistribution value that version reads (see \
          docs/behaviour.md, Data plane), or upgrade Cilium.",
        ),
    ],
};

pub(super) const CILIUM_VERSION_UNKNOWN: Entry = Entry {
    summary: "Cilium applies topology, but its version, which decides the keys it reads, is unknown.",
    meaning: "Whether Cilium honours the Service's key or value depends on its version, and the Cilium \
        DaemonSet (whose image tag gives it) could not be read.",
    upstream: &["cilium/cilium #31948, #38277, #44771 (the keys each version reads)"],
    fix: &[(
        "every release",
        "Let the reader get daemonsets in kube-system (deploy/rbac.yaml), or add \
         `kubectl get daemonset -n kube-system cilium -o yaml` to the dump.",
    )],
};

pub(super) const DATA_PLANE_UNKNOWN: Entry = Entry {
    summary: "Who routes the Service is unknown: the data plane's configuration could not be read.",
    meaning: "kube-system/cilium-config (or OVN-Kubernetes' DaemonSet ovnkube-node) was forbidden, failed \
        or is not in the dump, so whether Cilium (or OVN-Kubernetes) balances the Service instead of \
        kube-proxy is unknown. kubectl topo says so instead of assuming kube-proxy.",
    upstream: &[
        "cilium/cilium pkg/option/config.go (the keys read from cilium-config)",
        "ovn-kubernetes dist/templates/ovnkube-node.yaml.j2 (DaemonSet ovnkube-node)",
    ],
    fix: &[(
        "every release",
        "Let the reader get configmaps and daemonsets in kube-system (deploy/rbac.yaml), or add them to \
         the dump (docs/data-plane.md lists the command).",
    )],
};

pub(super) const OVN_KUBERNETES_IGNORES_HINTS: Entry = Entry {
    summary: "OVN-Kubernetes balances Services in place of kube-proxy and ignores the hints.",
    meaning: "OVN-Kubernetes runs no kube-proxy: it builds an OVN load balancer per Service from every \
        ready endpoint of its EndpointSlices, with no topology filtering. Whatever the controller writes \
        into the hints, and whatever the Service asks for, its traffic goes to every endpoint (only \
        internalTrafficPolicy and externalTrafficPolicy Local are honoured).",
    upstream: &[
        "ovn-kubernetes go-controller/pkg/ovn/controller/services/lb_config.go, buildServiceLBConfigs",
        "ovn-kubernetes #3165 (topology aware hints, closed unmerged); #6888 (trafficDistribution, open)",
    ],
    fix: &[(
        "every release",
        "Nothing in the Service changes OVN-Kubernetes' routing: keep traffic local with \
         internalTrafficPolicy: Local (endpoints on every node needed), or balance in a mesh or gateway \
         that reads trafficDistribution.",
    )],
};

pub(super) const NODE_ZONE_NOT_SEEN: Entry = Entry {
    summary: "The controller's node cache missed a zone label added to an existing Node (k/k #117245).",
    meaning: "On releases before the fix, the EndpointSlice controller ignores a Node update that only \
        adds topology.kubernetes.io/zone, so a Node that joined without its zone stays zone-less in its \
        cache: the Service's newest topology Event says \"Insufficient Node information\" although every \
        counted Node has a zone now. A sync of the Service does not help.",
    upstream: &[
        "kubernetes/kubernetes pkg/controller/endpointslice/endpointslice_controller.go, updateNode",
        "kubernetes/kubernetes #117245; backports #117267 (1.25.13), #117268 (1.26.8), #117269 (1.27.5)",
    ],
    fix: &[
        (
            "1.24 to 1.25.12, 1.26.0–1.26.7, 1.27.0–1.27.4",
            "Restart kube-controller-manager, or make a Node \
          change it does see (add or delete a Node, or a readiness change), then touch the Service; \
          upgrade to a release with the fix.",
        ),
        ("1.25.13, 1.26.8, 1.27.5, 1.28 and later", "Fixed: a sync of the Service restores the hints."),
    ],
};

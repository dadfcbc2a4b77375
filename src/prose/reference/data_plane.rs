//! Reference pages: who routes the Service's traffic, and whether hints change anything there.

use super::Entry;

pub(super) const TRAFFIC_POLICY_LOCAL: Entry = Entry {
    summary: "internalTrafficPolicy or externalTrafficPolicy is Local: that traffic ignores hints.",
    meaning: "Hints only filter kube-proxy's cluster-wide endpoint list. With internalTrafficPolicy: Local \
        (on a Service not reachable from outside), or externalTrafficPolicy: Local for external traffic, \
        kube-proxy uses the node's own endpoints instead, whatever the hints say, and drops the traffic \
        when the node has none.",
    upstream: &[
        "kubernetes/kubernetes pkg/proxy/topology.go, CategorizeEndpoints",
        "kubernetes/kubernetes pkg/proxy/serviceport.go, UsesClusterEndpoints, UsesLocalEndpoints, \
         ExternallyAccessible",
        "before 1.24: pkg/proxy/topology.go, FilterEndpoints (externalTrafficPolicy Local overrides \
         internalTrafficPolicy)",
    ],
    fix: &[(
        "every release",
        "Nothing to fix if node-local routing is what you want; set the policy to Cluster to let hints \
         choose zone-local endpoints instead.",
    )],
};

pub(super) const HEADLESS_SERVICE: Entry = Entry {
    summary: "Headless Service (clusterIP: None): kube-proxy does not proxy it, hints route nothing.",
    meaning: "Clients of a headless Service connect to the Pod addresses DNS returns, so no proxy reads the \
        hints the controller writes. The controller still writes them if asked, and DNS-based clients that \
        read EndpointSlices may use them.",
    upstream: &["kubernetes/kubernetes pkg/proxy/util, ShouldSkipService and IsServiceIPSet"],
    fix: &[(
        "every release",
        "Nothing to fix for kube-proxy; give the Service a ClusterIP if zone-local routing through \
         kube-proxy is wanted.",
    )],
};

pub(super) const WINDOWS_NODES: Entry = Entry {
    summary: "Some nodes run Windows: their kube-proxy ignores topology hints.",
    meaning: "The winkernel proxier's topology handling is a no-op: clients on Windows nodes reach every \
        ready endpoint, whatever the hints. Linux nodes in the same cluster still follow the hints.",
    upstream: &[
        "kubernetes/kubernetes pkg/proxy/winkernel: no topology filtering",
        "kubernetes/kubernetes #123823; #137953 proposes support",
    ],
    fix: &[(
        "every release",
        "Nothing to fix on the Service: expect cross-zone traffic from Windows nodes, or keep their clients \
         on Linux nodes.",
    )],
};

pub(super) const KUBE_PROXY_VERSION_SKEW: Entry = Entry {
    summary: "Some nodes run an older kubelet (and kube-proxy) than the control plane.",
    meaning: "The EndpointSlice controller runs at the control plane's version, kube-proxy at each node's \
        (the skew policy allows three minors behind). kubectl topo models each older node's kube-proxy at \
        its own version. The classic case: a 1.31+ control plane writes hints for trafficDistribution: \
        PreferClose, which a 1.30 kube-proxy ignores without the annotation.",
    upstream: &[
        "Kubernetes version skew policy: kube-proxy up to three minors older than kube-apiserver",
        "kubernetes/kubernetes pkg/proxy/topology.go, canUseTopology (1.24–1.32) and topologyModeFromHints \
         (1.33+)",
    ],
    fix: &[
        (
            "control plane 1.31+, nodes 1.30 or older",
            "Finish the node upgrade, or also annotate the Service topology-mode=Auto while old nodes remain.",
        ),
        (
            "any skew",
            "Upgrade the node groups to the control plane's minor; until then read the per-node rows.",
        ),
    ],
};

pub(super) const CILIUM_IGNORES_HINTS: Entry = Entry {
    summary: "Cilium replaces kube-proxy with service topology off: hints change no routing.",
    meaning: "The ConfigMap kube-system/cilium-config says kube-proxy-replacement is on and \
        enable-service-topology is not \"true\": Cilium's load balancer spreads traffic over every endpoint, \
        whatever the EndpointSlice controller writes. The kube-proxy view is then what kube-proxy would do, \
        not what happens.",
    upstream: &[
        "Cilium documentation, kube-proxy replacement: enable-service-topology (Topology Aware Hints)",
    ],
    fix: &[(
        "every release",
        "Set enable-service-topology: \"true\" in cilium-config (Helm: loadBalancer.serviceTopology=true) and \
         restart the Cilium agents.",
    )],
};

pub(super) const CILIUM_APPLIES_HINTS: Entry = Entry {
    summary: "Cilium replaces kube-proxy and applies the hints itself.",
    meaning: "kube-proxy-replacement is on and enable-service-topology is \"true\": Cilium, not kube-proxy, \
        routes Service traffic and honours the hints. The kube-proxy view shows what Cilium is expected to \
        route; a caveat, not a fault.",
    upstream: &[
        "Cilium documentation, kube-proxy replacement: enable-service-topology (Topology Aware Hints)",
    ],
    fix: &[("every release", "Nothing to fix.")],
};

//! Reference pages: why kube-proxy on a node routes to every endpoint instead of the hinted ones.

use super::Entry;

const TOPOLOGY_GO: &str = "kubernetes/kubernetes pkg/proxy/topology.go, topologyModeFromHints (1.33+) and \
     canUseTopology (1.24–1.32)";

pub(super) const MISSING_ZONE_HINT: Entry = Entry {
    summary: "A ready endpoint has no zone hint: kube-proxy ignores zone hints and uses every endpoint.",
    meaning: "kube-proxy uses zone hints only when every ready endpoint of the Service carries one; a single \
        endpoint without (often from a slice written by another manager, or in the middle of a rewrite) \
        turns topology off on every node, and it logs \"Ignoring same-zone topology hints for service since \
        one or more endpoints is missing a zone hint\".",
    upstream: &[
        TOPOLOGY_GO,
        "kubernetes/kubernetes #121457: the log line names the endpoint (1.29, 1.28.10+)",
    ],
    fix: &[(
        "every release",
        "Find the endpoint without a hint in explain's slice table; if the controller writes it, trigger a \
         sync of the Service; if another manager does, that manager must hint every endpoint.",
    )],
};

pub(super) const ZONE_NOT_HINTED: Entry = Entry {
    summary: "No endpoint is hinted for this node's zone: kube-proxy there uses every endpoint.",
    meaning: "Every endpoint has a hint, but none names this zone (a zone added after the last sync, or \
        a zone without Ready worker nodes when the hints were written). kube-proxy in that zone falls back \
        to all ready endpoints.",
    upstream: &[TOPOLOGY_GO],
    fix: &[(
        "every release",
        "Trigger a sync of the Service so the controller hints the zone (a new zone with nodes requeues only \
         Services with cached hints).",
    )],
};

pub(super) const NODE_MISSING_ZONE: Entry = Entry {
    summary: "The node has no topology.kubernetes.io/zone label: its kube-proxy ignores zone hints.",
    meaning: "kube-proxy's zone is its own Node's zone label; without one it cannot pick zone-local \
        endpoints and uses all of them (\"node is missing label\"). The controller may still hint everything \
        else.",
    upstream: &[TOPOLOGY_GO],
    fix: &[("every release", "Label the node topology.kubernetes.io/zone=<zone>.")],
};

pub(super) const MISSING_NODE_HINT: Entry = Entry {
    summary: "A ready endpoint has no node hint: kube-proxy ignores node hints (PreferSameNode).",
    meaning: "Node hints (forNodes, written for trafficDistribution: PreferSameNode) are used only when \
        every ready endpoint has one; otherwise kube-proxy goes on to zone hints.",
    upstream: &[TOPOLOGY_GO],
    fix: &[
        ("1.33", "Node hints need the PreferSameTrafficDistribution gate on kube-proxy and the controller."),
        ("1.34 and later", "Trigger a sync of the Service; check that every endpoint's node name is set."),
    ],
};

pub(super) const NODE_NOT_HINTED: Entry = Entry {
    summary: "No endpoint is hinted for this node: kube-proxy falls back to zone hints.",
    meaning: "With PreferSameNode every ready endpoint is hinted for its own node; a node that runs none of \
        the Service's endpoints finds no hint for itself and uses the zone hints, as PreferSameZone would.",
    upstream: &[TOPOLOGY_GO],
    fix: &[("1.34 and later", "Nothing to fix: expected on nodes without a local endpoint.")],
};

pub(super) const NO_READY_ENDPOINTS: Entry = Entry {
    summary: "No ready endpoints: kube-proxy uses serving+terminating ones, ignoring hints, or drops traffic.",
    meaning: "Hints filter only ready endpoints. With none, kube-proxy falls back to endpoints that are \
        serving and terminating (1.26+), whatever their hints, or drops the traffic.",
    upstream: &[
        "kubernetes/kubernetes pkg/proxy/topology.go, CategorizeEndpoints",
        "kubernetes/kubernetes #132680 (1.34) and #136743 (1.36): no topology logs without endpoints",
    ],
    fix: &[("every release", "Make the Service's Pods ready (readiness probes, rollout state).")],
};

pub(super) const TOPOLOGY_NOT_USED: Entry = Entry {
    summary: "This kube-proxy version does not consider hints for this Service.",
    meaning: "kube-proxy's own rules decide whether it looks at hints at all: up to 1.23 the \
        TopologyAwareHints gate is off; 1.24–1.26 need the annotation exactly Auto or auto; 1.27–1.30 need \
        an annotation that is not empty or disabled; from 1.31 the annotation is no longer consulted. So a \
        1.30 kube-proxy ignores hints a newer controller writes for trafficDistribution alone.",
    upstream: &[
        "kubernetes/kubernetes pkg/proxy/topology.go, canUseTopology (1.24–1.32), FilterEndpoints (1.21–1.23)",
        "kubernetes/kubernetes #116522 (1.27): any value but empty or disabled enables filtering",
    ],
    fix: &[
        ("1.21–1.23", "Enable the TopologyAwareHints gate on kube-proxy."),
        ("1.24–1.30", "Annotate the Service topology-mode=Auto (1.24–1.26: topology-aware-hints=Auto)."),
        ("1.31 and later", "Upgrade the older nodes; see KubeProxyVersionSkew."),
    ],
};

pub(super) const WINDOWS_IGNORES_HINTS: Entry = Entry {
    summary: "Windows kube-proxy ignores topology hints.",
    meaning: "The winkernel proxier routes to every ready endpoint whatever the hints, so this node's \
        clients send traffic across zones.",
    upstream: &[
        "kubernetes/kubernetes pkg/proxy/winkernel",
        "kubernetes/kubernetes #123823; #137953 proposes support",
    ],
    fix: &[("every release", "Nothing to fix on the Service; see WindowsNodes.")],
};

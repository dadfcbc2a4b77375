//! Reference pages: the safeguards that make the controller withhold Auto hints, and input too
//! incomplete to judge.

use super::Entry;

pub(super) const NODES_UNKNOWN: Entry = Entry {
    summary: "Nodes could not be read: zone weights, and so the Auto allocation, are unknown.",
    meaning: "Listing Nodes was forbidden, or the dump holds no Node. Auto Services get the verdict Unknown \
        instead of a guess; trafficDistribution Services are judged as usual, since they do not use zone \
        weights. Unknown never fails check.",
    upstream: &["k8s.io/endpointslice topologycache/topologycache.go, (*TopologyCache).SetNodes: what the \
         controller reads of the Nodes"],
    fix: &[(
        "every release",
        "Grant list on nodes at cluster scope (deploy/rbac.yaml, ClusterRole kubectl-topo-reader), or dump \
         with kubectl get nodes,services,endpointslices,events -A -o yaml.",
    )],
};

pub(super) const SLICES_UNKNOWN: Entry = Entry {
    summary: "The input holds no EndpointSlice at all: the Service's slices and hints are unknown.",
    meaning: "A dump made with kubectl get all lists no EndpointSlice. Rather than call a Service that \
        selects Pods Unmanaged, kubectl topo says Unknown: no slice read is not nobody managing them.",
    upstream: &["k8s.io/endpointslice reconciler.go, (*Reconciler).Reconcile: the slices the controller \
         manages"],
    fix: &[(
        "every release",
        "Dump the EndpointSlices too: kubectl get nodes,services,endpointslices,events -A -o yaml.",
    )],
};

pub(super) const NODE_MISSING_ZONE: Entry = Entry {
    summary: "A Ready worker node has no topology.kubernetes.io/zone label: hints are off cluster-wide.",
    meaning: "SetNodes skips control-plane and NotReady nodes; every other node must have a non-empty zone \
        label. One that has none makes the zone weights nil for the whole cluster, so every Auto Service \
        loses its hints at its next sync, with the Event \"Insufficient Node information\". The deprecated \
        failure-domain.beta.kubernetes.io/zone label is not read.",
    upstream: &[
        "k8s.io/endpointslice topologycache/topologycache.go, (*TopologyCache).SetNodes (sufficientNodeInfo)",
        "kubernetes/kubernetes pkg/controller/endpointslice/endpointslice_controller.go, \
         checkNodeTopologyDistribution",
    ],
    fix: &[(
        "every release",
        "Label the node topology.kubernetes.io/zone=<zone> (cloud providers do it for you; bare metal does \
         not), or mark it control-plane if it is one.",
    )],
};

pub(super) const NODE_MISSING_CPU: Entry = Entry {
    summary: "A Ready worker node reports no allocatable CPU: hints are off cluster-wide.",
    meaning: "Every counted node must report non-zero status.allocatable.cpu. One that does not makes the \
        zone weights nil for the whole cluster, as a node without a zone label does.",
    upstream: &["k8s.io/endpointslice topologycache/topologycache.go, (*TopologyCache).SetNodes"],
    fix: &[(
        "every release",
        "Fix the node's kubelet (allocatable CPU comes from its capacity minus reservations), or cordon and \
         remove it.",
    )],
};

pub(super) const SINGLE_ZONE: Entry = Entry {
    summary: "Fewer than two zones have Ready worker nodes with CPU: nothing to route between.",
    meaning: "The zone weights are nil when fewer than two zones remain after SetNodes (or the total CPU is \
        zero). The Event says \"Insufficient Node information\" for this case too; a cache that never saw \
        Nodes says \"Nodes only ready in one zone\".",
    upstream: &["k8s.io/endpointslice topologycache/topologycache.go, (*TopologyCache).SetNodes and \
         getAllocations"],
    fix: &[(
        "every release",
        "Run Ready worker nodes in at least two zones; in a single-zone cluster hints change nothing, leave \
         them off.",
    )],
};

pub(super) const INSUFFICIENT_ENDPOINTS: Entry = Entry {
    summary: "Fewer ready endpoints than zones: the controller needs at least one per zone.",
    meaning: "getAllocations aborts when the zone weights name more zones than there are ready endpoints, \
        with the Event \"Insufficient number of endpoints (N endpoints, Z zones)\", and the hints are \
        removed.",
    upstream: &[
        "k8s.io/endpointslice topologycache/topologycache.go, (*TopologyCache).getAllocations",
        "k8s.io/endpointslice topologycache/event.go, InsufficientNumberOfEndpoints",
    ],
    fix: &[(
        "every release",
        "Run at least one ready endpoint per zone (more, in proportion to zone CPU: see OverloadThreshold), or \
         use spec.trafficDistribution (1.31+), which has no such safeguard.",
    )],
};

pub(super) const OVERLOAD_THRESHOLD: Entry = Entry {
    summary: "The endpoints cannot be spread over the zones within the 20 % overload threshold.",
    meaning: "Each zone needs at least ceil(share × n / 1.2) of the n ready endpoints, share being its part \
        of the cluster's allocatable CPU; when those minimums add up to more than n, getAllocations aborts \
        with \"Unable to allocate minimum required endpoints to each zone without exceeding overload \
        threshold\". The arithmetic is IEEE-754 double in upstream's order, so counts that look fine on \
        paper can fail (and explain shows which counts work).",
    upstream: &[
        "k8s.io/endpointslice topologycache/topologycache.go, (*TopologyCache).getAllocations \
         (overloadThreshold = 0.2)",
        "k8s.io/endpointslice topologycache/event.go, MinAllocationExceedsOverloadThreshold",
    ],
    fix: &[(
        "every release",
        "Scale to a count where hints hold (explain lists them under Replicas; check's REPLICAS column is \
         the nearest), balance the zones' CPU, or use spec.trafficDistribution (1.31+).",
    )],
};

pub(super) const ENDPOINT_MISSING_ZONE: Entry = Entry {
    summary: "A ready endpoint being written has no zone: all hints of the address family are removed.",
    meaning: "AddHints gives every ready endpoint of the slices it writes a hint for its own zone; one \
        without a zone aborts the whole allocation with \"One or more endpoints do not have a zone \
        specified\". The endpoint's zone comes from its node's topology.kubernetes.io/zone label.",
    upstream: &[
        "k8s.io/endpointslice topologycache/topologycache.go, (*TopologyCache).AddHints",
        "k8s.io/endpointslice topologycache/event.go, NoZoneSpecified",
    ],
    fix: &[(
        "every release",
        "Label the nodes of those endpoints with topology.kubernetes.io/zone; the controller fills the \
         endpoint's zone at its next sync.",
    )],
};

pub(super) const NO_HINTS_ALLOCATED: Entry = Entry {
    summary: "No hint was allocated to any zone: hints are removed.",
    meaning: "After redistribution no zone received a hint; AddHints emits \"No hints allocated for zones\" \
        and removes them. Practically unreachable with the checks that come before it.",
    upstream: &[
        "k8s.io/endpointslice topologycache/topologycache.go, (*TopologyCache).AddHints",
        "k8s.io/endpointslice topologycache/event.go, NoAllocatedHintsForZones",
    ],
    fix: &[("every release", "Report the Service's dump (kubectl topo dump --redact) as an issue.")],
};

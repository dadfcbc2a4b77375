//! Reference pages: the hints on the slices against what the controller's next sync keeps or writes.

use super::Entry;

pub(super) const HINTS_MISSING: Entry = Entry {
    summary: "The controller would write hints, but the slices carry none.",
    meaning: "Typically hints were removed (a safeguard fired, a node lost its zone) and the cause is gone, \
        but nothing has synced the Service since: a Node change only requeues Services whose cached hints \
        are overloaded, and a Service without hints has no cache entry. The hints come back only with the \
        Service's next sync.",
    upstream: &[
        "k8s.io/endpointslice topologycache/topologycache.go, (*TopologyCache).GetOverloadedServices",
        "kubernetes/kubernetes pkg/controller/endpointslice/endpointslice_controller.go, \
         checkNodeTopologyDistribution",
        "kubernetes/kubernetes #123401: hints removed and never restored",
    ],
    fix: &[(
        "every release",
        "Trigger a sync of the Service: any change to its Pods or the Service itself (kubectl rollout restart, \
         scaling, touching an annotation); kubectl topo simulate shows what the sync writes.",
    )],
};

pub(super) const HINTS_UNEXPECTED: Entry = Entry {
    summary: "The slices carry hints the controller would remove at its next sync.",
    meaning: "The Service no longer asks for hints (or a safeguard now withholds them), yet its slices still \
        carry some: kube-proxy follows them until the Service syncs again.",
    upstream: &[
        "k8s.io/endpointslice topologycache/utils.go, RemoveHintsFromSlices",
        "k8s.io/endpointslice trafficdist/trafficdist.go, ReconcileHints (defaultHeuristic)",
    ],
    fix: &[(
        "every release",
        "Trigger a sync of the Service (kubectl rollout restart, or touch the Service).",
    )],
};

pub(super) const HINTS_INVALID: Entry = Entry {
    summary: "The slices carry hints other than what the controller would keep or write.",
    meaning: "Some slice fails the controller's keep-check (an endpoint without a hint, a zone outside the \
        zone weights, a zone over its maximum) or its trafficDistribution check, so its next sync rewrites \
        it. Hints edited by hand or written by an older controller look like this.",
    upstream: &[
        "k8s.io/endpointslice topologycache/sliceinfo.go, (*SliceInfo).getAllocatedHintsByZone",
        "k8s.io/endpointslice trafficdist/trafficdist.go, needsUpdate",
    ],
    fix: &[("every release", "Trigger a sync of the Service; do not edit controller-managed hints by hand.")],
};

pub(super) const REWRITTEN_EVERY_SYNC: Entry = Entry {
    summary: "The controller's own hints fail its keep-check, so it rewrites them on every sync.",
    meaning: "Nothing re-validates what AddHints writes: the result can break the minimums and maximums it \
        just computed, and the next sync's keep-check rejects the slice and writes the same hints again. \
        Harmless for routing, but every sync is an API write.",
    upstream: &[
        "k8s.io/endpointslice topologycache/topologycache.go, (*TopologyCache).AddHints and \
         redistributeHints",
        "k8s.io/endpointslice topologycache/sliceinfo.go, getAllocatedHintsByZone",
    ],
    fix: &[(
        "every release",
        "Spread the Pods in proportion to zone CPU (topology spread constraints), so the allocation the \
         controller writes is one it keeps.",
    )],
};

pub(super) const OVERLOADED: Entry = Entry {
    summary: "With today's zone weights, the cached hint counts are overloaded.",
    meaning: "serviceOverloaded finds a zone with fewer hinted endpoints than its minimum for today's zone \
        weights. The controller requeues the Service at the next Node add, delete, readiness or zone change, \
        not at a CPU change, so it can hold stale weights until then.",
    upstream: &[
        "k8s.io/endpointslice topologycache/utils.go, serviceOverloaded",
        "kubernetes/kubernetes #117245 (1.28): a zone label change also rechecks",
    ],
    fix: &[("every release", "Trigger a sync of the Service, or spread the Pods in proportion to zone CPU.")],
};

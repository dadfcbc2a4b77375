//! Reference pages: whether the Service asks for hints, and whether the controller reconciles it.

use super::Entry;

pub(super) const NOT_ENABLED: Entry = Entry {
    summary: "Nothing asks for hints: no enabling annotation and no usable spec.trafficDistribution.",
    meaning: "The EndpointSlice controller takes one of three paths per Service: the annotation path (Auto \
        hints), the trafficDistribution path, or removal. With neither an annotation that enables hints nor a \
        trafficDistribution this version acts on, it removes any hints from the Service's slices. Such a \
        Service is NotEnabled and `check` hides it unless --show-all.",
    upstream: &[
        "k8s.io/endpointslice reconciler.go, (*Reconciler).reconcileByAddressType: the choice between \
         AddHints, trafficdist.ReconcileHints and RemoveHintsFromSlices",
        "k8s.io/endpointslice utils.go, hintsEnabled (kubernetes/kubernetes pkg/controller/endpointslice \
         before 1.28)",
        "k8s.io/endpointslice topologycache/utils.go, RemoveHintsFromSlices",
    ],
    fix: &[
        ("1.21–1.23", "The TopologyAwareHints feature gate is off by default; see TopologyGateOff."),
        ("1.24–1.26", "Annotate the Service service.kubernetes.io/topology-aware-hints=Auto."),
        ("1.27–1.30", "Annotate the Service service.kubernetes.io/topology-mode=Auto."),
        (
            "1.31–1.33",
            "Annotate topology-mode=Auto, or set spec.trafficDistribution: PreferClose (hints for every \
             zone with a ready endpoint, no CPU weights or safeguards).",
        ),
        (
            "1.34 and later",
            "Set spec.trafficDistribution: PreferSameZone (or PreferClose, the same; PreferSameNode for \
             node hints), or annotate topology-mode=Auto for CPU-weighted hints.",
        ),
    ],
};

pub(super) const ANNOTATION_VALUE_IGNORED: Entry = Entry {
    summary: "A topology annotation is present, but its value is not exactly Auto or auto.",
    meaning: "hintsEnabled compares the annotation's value with \"Auto\" and \"auto\" only: no trimming, no \
        other capitalisation. Any other value (\"AUTO\", \"true\", \"PreferZone\", \" Auto\") does not enable \
        the annotation path. Some kube-proxy versions (1.27–1.30) still filter by hints for such a value, so \
        the controller and kube-proxy can disagree.",
    upstream: &[
        "k8s.io/endpointslice utils.go, hintsEnabled",
        "kubernetes/kubernetes #101053 (1.21.1): \"Auto\" accepted besides \"auto\"",
        "kubernetes/kubernetes pkg/proxy/topology.go, canUseTopology (1.24–1.32): which values kube-proxy \
         accepts",
    ],
    fix: &[(
        "every release",
        "Set the annotation to exactly Auto (or remove it and use spec.trafficDistribution on 1.31+).",
    )],
};

pub(super) const DEPRECATED_ANNOTATION_WINS: Entry = Entry {
    summary: "The deprecated topology-aware-hints annotation is present, so topology-mode is not read.",
    meaning: "When the key service.kubernetes.io/topology-aware-hints is present, hintsEnabled decides by its \
        value alone, whatever service.kubernetes.io/topology-mode says. So topology-aware-hints: \"\" next \
        to topology-mode: Auto does not enable hints.",
    upstream: &[
        "k8s.io/endpointslice utils.go, hintsEnabled: the deprecated key wins by presence",
        "kubernetes/kubernetes #116522 (1.27): topology-mode introduced, topology-aware-hints deprecated",
    ],
    fix: &[
        ("1.24–1.26", "topology-mode is not read yet: set topology-aware-hints=Auto."),
        ("1.27 and later", "Remove the service.kubernetes.io/topology-aware-hints annotation."),
    ],
};

pub(super) const ANNOTATION_OVERRIDES_TRAFFIC_DISTRIBUTION: Entry = Entry {
    summary: "The annotation enables Auto hints, so spec.trafficDistribution is ignored.",
    meaning: "canUseTrafficDistribution is false whenever hintsEnabled is true: the annotation path wins and \
        the controller allocates CPU-weighted Auto hints with its safeguards, not the trafficDistribution \
        hints the field asks for. A caveat, not a fault.",
    upstream: &["k8s.io/endpointslice reconciler.go, (*Reconciler).reconcileByAddressType and \
         canUseTrafficDistribution"],
    fix: &[(
        "1.31 and later",
        "Keep one of the two: remove the topology-mode annotation to get trafficDistribution hints, or \
         remove spec.trafficDistribution to say Auto is meant.",
    )],
};

pub(super) const TRAFFIC_DISTRIBUTION_UNSUPPORTED: Entry = Entry {
    summary: "spec.trafficDistribution has a value this version's controller does not act on.",
    meaning: "On 1.30 the ServiceTrafficDistribution gate is off, so the field changes nothing. On 1.33 \
        PreferSameZone and PreferSameNode need the PreferSameTrafficDistribution gate (off by default), and \
        any value other than PreferClose, PreferSameZone and PreferSameNode is never valid. The controller \
        then takes the removal path and strips any hints.",
    upstream: &[
        "k8s.io/endpointslice reconciler.go, (*Reconciler).validTrafficDistribution (1.33+)",
        "k8s.io/endpointslice v0.30–v0.32 reconciler.go: the ServiceTrafficDistribution gate alone",
        "kubernetes/kubernetes pkg/features/kube_features.go: ServiceTrafficDistribution (beta, on, 1.31), \
         PreferSameTrafficDistribution (beta, on, 1.34)",
    ],
    fix: &[
        ("1.30", "Enable the ServiceTrafficDistribution gate, or annotate topology-mode=Auto."),
        ("1.31–1.32", "Use PreferClose, the only value these releases know."),
        (
            "1.33",
            "Use PreferClose, or enable PreferSameTrafficDistribution on kube-controller-manager and \
             kube-proxy for PreferSameZone/PreferSameNode.",
        ),
        ("1.34 and later", "Use PreferClose, PreferSameZone or PreferSameNode (check the spelling)."),
    ],
};

pub(super) const TOPOLOGY_GATE_OFF: Entry = Entry {
    summary: "The TopologyAwareHints feature gate is off at this version: no hints are written.",
    meaning: "Up to 1.23 the gate is off by default (alpha in 1.21, beta but off in 1.23): the controller has \
        no topology cache, writes no hints and removes existing ones, and kube-proxy does not filter by them.",
    upstream: &[
        "kubernetes/kubernetes pkg/features/kube_features.go, TopologyAwareHints",
        "kubernetes/kubernetes #108747 (1.23: beta, still off); on by default from 1.24",
        "kubernetes/kubernetes pkg/controller/endpointslice/endpointslice_controller.go, NewController: the \
         cache exists only with the gate",
    ],
    fix: &[
        (
            "1.21–1.23",
            "Enable --feature-gates=TopologyAwareHints=true on kube-apiserver, kube-controller-manager and \
             kube-proxy, or upgrade to 1.24 or later.",
        ),
        ("1.24 and later", "The gate is on by default; check --feature-gates on the control plane."),
    ],
};

pub(super) const NO_SELECTOR: Entry = Entry {
    summary: "The Service has no selector: the controller does not manage its slices.",
    meaning: "syncService returns early for a Service without spec.selector: whoever writes its \
        EndpointSlices (an operator, the mirroring controller, a person) owns their hints. kube-proxy still \
        reads the slices and their hints.",
    upstream: &[
        "kubernetes/kubernetes pkg/controller/endpointslice/endpointslice_controller.go, syncService",
    ],
    fix: &[(
        "every release",
        "Add a selector if the Service should be managed, or write the hints yourself in the slices you own.",
    )],
};

pub(super) const EXTERNAL_NAME: Entry = Entry {
    summary: "ExternalName Service: no endpoints, nothing to hint.",
    meaning: "An ExternalName Service is a DNS CNAME: the controller writes no slices for it and kube-proxy \
        does not proxy it.",
    upstream: &[
        "kubernetes/kubernetes pkg/controller/endpointslice/endpointslice_controller.go, syncService",
        "kubernetes/kubernetes pkg/proxy/util, ShouldSkipService",
    ],
    fix: &[("every release", "Nothing to fix: topology hints do not apply.")],
};

pub(super) const NO_MANAGED_SLICES: Entry = Entry {
    summary: "No EndpointSlice managed by endpointslice-controller.k8s.io exists for the Service.",
    meaning: "Only slices labelled kubernetes.io/service-name=<Service> and \
        endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io are the controller's. With \
        none (slices mirrored from Endpoints, written by another manager, or not created yet) nothing the \
        controller decides shows on the data plane.",
    upstream: &[
        "k8s.io/endpointslice reconciler.go, (*Reconciler).Reconcile: slices are filtered by the managed-by \
         label",
        "kubernetes/kubernetes pkg/controller/endpointslicemirroring: the mirrored slices' own manager",
    ],
    fix: &[(
        "every release",
        "If the slices belong to another manager, that manager owns their hints; if the Service has a \
         selector and no slices, check the controller's logs and the Pods' readiness.",
    )],
};

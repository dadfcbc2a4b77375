//! Notes about partial data (a live read that was partly forbidden): what could not be read, what
//! that leaves unknown, and which ClusterRole grants it. Printed as `note:` lines on stderr, in the
//! table output, and in the `partial` list of the JSON/YAML report.

/// The ClusterRole shipped in `deploy/rbac.yaml`.
pub(crate) const READER_ROLE: &str = "kubectl-topo-reader";

/// Nodes forbidden: zone weights are unknown; says which checks did not run.
pub(crate) fn nodes_forbidden_note(action: &str) -> String {
    format!(
        "Nodes not read (forbidden to {action}): zone weights are unknown, so Services in Auto mode get \
         the verdict Unknown; not computed: the Auto hint allocation, kube-proxy's routing by zone, the \
         cross-zone share and the replicas needed. Bind the ClusterRole {READER_ROLE} (deploy/rbac.yaml) \
         to compute them"
    )
}

/// Events forbidden: the report is complete without them.
pub(crate) fn events_forbidden_note(action: &str) -> String {
    format!(
        "Events not shown (forbidden to {action}); the verdicts do not depend on them. Bind the \
         ClusterRole {READER_ROLE} (deploy/rbac.yaml) to see them"
    )
}

/// `simulate` changes the Nodes: without them there is nothing to simulate.
pub(crate) const SIMULATE_NEEDS_NODES: &str =
    "there is nothing to simulate (simulate changes Nodes and recomputes zone weights from them)";

/// Every verdict asked for is Unknown: the report above is all that could be said.
pub(crate) const NO_VERDICT_WITHOUT_NODES: &str =
    "zone weights are unknown and no verdict could be computed (the report above shows what was read)";

/// The command that dumps everything a verdict reads (named by every note about an incomplete dump).
pub(crate) const DUMP_COMMAND: &str = "kubectl get nodes,services,endpointslices,events -A -o yaml";

/// A dump that holds no Node: as when Nodes are forbidden, zone weights are unknown.
pub(crate) fn dump_without_nodes_note() -> String {
    format!(
        "the dump holds no Node: zone weights are unknown, so Services in Auto mode get the verdict \
         Unknown (NodesUnknown); not computed: the Auto hint allocation, kube-proxy's routing by zone, the \
         cross-zone share and the replicas needed. Dump the Nodes too: `{DUMP_COMMAND} > dump.yaml`"
    )
}

/// A dump that holds no EndpointSlice while some Service selects Pods (`kubectl get all`).
pub(crate) fn dump_without_slices_note() -> String {
    format!(
        "the dump holds no EndpointSlice, yet Services select Pods: their slices and hints are unknown, so \
         they get the verdict Unknown (SlicesUnknown). Dump the EndpointSlices too (`kubectl get all` lists \
         none): `{DUMP_COMMAND} > dump.yaml`"
    )
}

/// What cannot be done without the Nodes, from a dump.
pub(crate) const NO_VERDICT_WITHOUT_DUMPED_KINDS: &str =
    "no verdict could be computed (the report above shows what was read)";

/// A read status as the report says it.
pub(crate) fn status(value: Option<&str>) -> &'static str {
    match value {
        Some("read") => "read",
        Some("absent") => "absent from the cluster",
        Some("forbidden") => "forbidden to this user",
        Some("failed") => "unreadable (the request failed)",
        Some("notInDump") => "not in the dump",
        _ => "not read",
    }
}

/// A [`topo_engine::model::ReadStatus`] in words.
pub(crate) fn read_status(read: Option<topo_engine::model::ReadStatus>) -> &'static str {
    status(read.map(<&'static str>::from))
}

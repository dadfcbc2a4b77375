//! The limits of what is modelled (docs/behaviour.md#limits), as the one error line and its hint.

use topo_engine::model::LABEL_ZONE;

/// The snapshot names more than `limit` zones.
pub(crate) fn too_many_zones(limit: usize) -> String {
    format!(
        "the cluster names more than {limit} zones (Node label {LABEL_ZONE}, endpoint zones and zone \
         hints together), the most kubectl-topo models: no real cluster has that many, and routing \
         between so many zones would take minutes and gigabytes"
    )
}

/// What to do about it.
pub(crate) fn too_many_zones_hint(bin_name: &str) -> String {
    format!("check the Nodes' zone labels: `{bin_name} zones` lists the zones and their nodes")
}

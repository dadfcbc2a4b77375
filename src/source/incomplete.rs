//! What a dump does not hold, decided once after it is read (whatever reader read it): a dump with
//! no Node at all (`kubectl get services,endpointslices`, or Nodes forbidden to whoever dumped it)
//! is read as a live read that could not list Nodes, and a dump with no EndpointSlice at all while
//! Services select Pods (`kubectl get all`) leaves those Services' slices unknown. The engine then
//! says `Unknown` (`NodesUnknown`, `SlicesUnknown`) instead of a confident verdict, and a note names
//! the command that dumps everything.

use topo_engine::model::Snapshot;

use crate::prose::partial;

/// Mark what `snapshot` (read from a dump) lacks; the notes to print, also kept in its `partial`.
pub(crate) fn mark_dump(snapshot: &mut Snapshot) -> Vec<String> {
    let mut notes = Vec::new();
    if snapshot.nodes.is_empty() && !snapshot.info.nodes_unavailable {
        snapshot.info.nodes_unavailable = true;
        notes.push(partial::dump_without_nodes_note());
    }
    if snapshot.slices.is_empty() && snapshot.services.iter().any(selects_pods) {
        snapshot.info.slices_unavailable = true;
        notes.push(partial::dump_without_slices_note());
    }
    // A redacted dump of such a dump recorded the notes already (ClusterInfo `partial`).
    notes.retain(|note| !snapshot.info.partial.contains(note));
    snapshot.info.partial.extend(notes.iter().cloned());
    notes
}

/// True when [`mark_dump`] found the dump without Nodes (its note is in `partial`), as opposed to
/// a dump that recorded a live read forbidden to list them (`ClusterInfo` `nodesUnavailable`),
/// which the replay reports as that read did.
pub(crate) fn nodes_not_dumped(info: &topo_engine::model::SourceInfo) -> bool {
    info.nodes_unavailable && info.partial.contains(&partial::dump_without_nodes_note())
}

/// A Service the EndpointSlice controller writes slices for: one with a selector, not ExternalName.
fn selects_pods(service: &topo_engine::model::Service) -> bool {
    service.has_selector && service.service_type != "ExternalName"
}

#[cfg(test)]
mod tests;

//! What can go wrong applying `simulate` changes to a Snapshot.

/// A change that does not fit the Snapshot (unknown node, zone without nodes, …); exit code 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SimulateError(pub String);

//! What can go wrong applying `simulate` changes to a Snapshot.

/// A change that does not fit the Snapshot (unknown node, zone without nodes, …); exit code 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SimulateError(pub String, pub Misfit);

/// What does not fit, for the remedy the caller shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misfit {
    /// A node or zone the changes name is not in the cluster (or already is, for `--add-node`).
    Names,
    /// The zone counts of `--spread` do not add up to `--replicas`.
    SpreadTotal,
    /// The manifests of `--apply` ask for more than is simulated.
    Manifests,
}

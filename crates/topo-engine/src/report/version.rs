//! Where the modelled Kubernetes version came from, as data (the words are the CLI's).

use serde::Serialize;

/// Why a report models the Kubernetes version it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum VersionBasis {
    /// `--k8s-version`.
    Flag,
    /// The API server's `gitVersion` (live `/version`, or recorded by `dump`).
    Server {
        /// As the server gave it, e.g. `v1.33.4-eks-1234`.
        git_version: String,
        /// The server is newer than the newest line modelled, which is modelled instead.
        newer_than_modelled: bool,
    },
    /// No server version: inferred from the Nodes' `status.nodeInfo.kubeletVersion` (the newest
    /// minor among them; the control plane runs at least that one).
    Kubelets {
        /// Oldest kubelet minor, e.g. `1.28`.
        lowest: String,
        /// Newest kubelet minor.
        highest: String,
        /// Nodes that report a readable version.
        nodes: usize,
        /// The kubelets are newer than the newest line modelled, which is modelled instead.
        newer_than_modelled: bool,
    },
    /// Nothing said which version runs: the newest line modelled.
    Default,
}

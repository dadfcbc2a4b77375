//! The label set of each metric family: its label names are the contract docs/monitoring.md lists.

use prometheus_client::encoding::EncodeLabelSet;

use super::super::store::Resource;

/// `resource` label.
#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub struct ResourceLabels {
    /// `nodes`, `services`, `endpointslices`.
    pub resource: String,
}

impl ResourceLabels {
    /// The label of a resource.
    pub fn of(resource: Resource) -> Self {
        ResourceLabels { resource: <&str>::from(resource).to_string() }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub(super) struct FamilyLabels {
    pub(super) namespace: String,
    pub(super) service: String,
    pub(super) address_type: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub(super) struct VerdictLabels {
    pub(super) namespace: String,
    pub(super) service: String,
    pub(super) address_type: String,
    pub(super) verdict: String,
    pub(super) reason: String,
    pub(super) mode: String,
    /// `true` when an ignore rule sets every finding of the family aside.
    pub(super) ignored: String,
}

/// The worst data-plane path of a Service.
#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub(super) struct PathLabels {
    pub(super) namespace: String,
    pub(super) service: String,
    pub(super) path: String,
    pub(super) verdict: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub(super) struct StaleLabels {
    pub(super) namespace: String,
    pub(super) service: String,
    pub(super) address_type: String,
    /// `true` when an ignore rule sets `HintsMissing` aside.
    pub(super) ignored: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub(super) struct ZoneLabels {
    pub(super) namespace: String,
    pub(super) service: String,
    pub(super) address_type: String,
    /// Not `zone`: the exporter guide asks for label names that do not clash with the target
    /// labels a scrape config or a relabelling may attach (`zone` is a common one).
    pub(super) topology_zone: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub(super) struct ShareLabels {
    pub(super) namespace: String,
    pub(super) service: String,
    pub(super) address_type: String,
    pub(super) hints: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub(super) struct NodeZoneLabels {
    pub(super) topology_zone: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub(super) struct BuildLabels {
    pub(super) version: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
pub(super) struct SufficientLabels {
    pub(super) reason: String,
}

//! The nodes kube-proxy runs on, as every Service's view reads them: sorted, indexed by name and
//! grouped into (zone, Windows, kubelet version) classes once per run.

use std::collections::{BTreeSet, HashMap};

use super::cache::normalise_ip;
use crate::model::version::{kube_proxy_on_node, release_of};
use crate::model::{Behaviour, EndpointSlice, LABEL_OS, LABEL_ZONE, Node};

/// One node kube-proxy runs on: (name, zone label, windows, kubelet release).
pub(super) type NodeRow = (String, Option<String>, bool, Option<Behaviour>);

/// The rows of `nodes`; `kube_proxy` (its DaemonSet's release, when known) stands for the
/// version of every Linux node's kube-proxy instead of its kubelet's (Windows nodes run their own).
pub(super) fn node_rows(nodes: &[Node], kube_proxy: Option<Behaviour>) -> Vec<NodeRow> {
    let mut rows: Vec<NodeRow> = nodes
        .iter()
        .map(|n| {
            let windows = n.labels.get(LABEL_OS).is_some_and(|os| os == "windows");
            let kubelet = n.kubelet_version.as_deref().and_then(release_of);
            let kubelet = if windows { kubelet } else { kube_proxy.or(kubelet) };
            (n.name.clone(), n.labels.get(LABEL_ZONE).cloned(), windows, kubelet)
        })
        .collect();
    rows.sort();
    rows
}

/// The nodes kube-proxy runs on, sorted by name once per run and shared by every Service's view.
/// Nodes that host none of a Service's endpoints and are named in none of its hints get the same
/// outcome as every other such node of their (zone, Windows) class, so a view computes one node
/// per class plus the nodes its endpoints name, instead of every node.
#[derive(Debug, Clone, Default)]
pub struct ProxyNodes {
    pub(super) rows: Vec<NodeRow>,
    pub(super) index: HashMap<String, usize>,
    /// Class of each row: rows with the same zone label, Windows flag and kubelet version share one.
    pub(super) class: Vec<usize>,
    /// Rows of each class, in row order.
    pub(super) members: Vec<Vec<usize>>,
    /// The distinct kubelet releases the rows report.
    pub(super) kubelets: BTreeSet<Behaviour>,
}

impl ProxyNodes {
    /// Sort and index `nodes`.
    pub fn new(nodes: &[Node]) -> Self {
        Self::with_kube_proxy(nodes, None)
    }

    /// Sort and index `nodes`, kube-proxy on Linux nodes at `kube_proxy` when known (the image
    /// tag of its DaemonSet, which wins over the kubelets': on EKS the add-on is upgraded on its
    /// own and may lag them).
    pub fn with_kube_proxy(nodes: &[Node], kube_proxy: Option<Behaviour>) -> Self {
        let rows = node_rows(nodes, kube_proxy);
        let mut index = HashMap::new();
        for (i, row) in rows.iter().enumerate() {
            index.entry(row.0.clone()).or_insert(i);
        }
        let mut ids: HashMap<(Option<&str>, bool, Option<Behaviour>), usize> = HashMap::new();
        let class: Vec<usize> = rows
            .iter()
            .map(|(_, zone, windows, kubelet)| {
                let next = ids.len();
                *ids.entry((zone.as_deref(), *windows, *kubelet)).or_insert(next)
            })
            .collect();
        let mut members = vec![Vec::new(); ids.len()];
        class.iter().enumerate().for_each(|(row, &c)| members[c].push(row));
        let kubelets = rows.iter().filter_map(|row| row.3).collect();
        ProxyNodes { rows, index, class, members, kubelets }
    }

    /// The behaviour kube-proxy on `row` runs when the control plane runs `control_plane`: the
    /// node's own version when it is older ([`kube_proxy_on_node`]), else the control plane's.
    pub(super) fn kube_proxy(&self, row: usize, control_plane: Behaviour) -> Behaviour {
        kube_proxy_on_node(control_plane, self.rows[row].3).unwrap_or(control_plane)
    }

    /// The oldest kube-proxy behaviour of a node older than `control_plane` (its kubelet's
    /// version); `None` when no node is.
    pub fn oldest_skewed(&self, control_plane: Behaviour) -> Option<Behaviour> {
        self.kubelets.iter().find_map(|&k| kube_proxy_on_node(control_plane, Some(k)))
    }

    /// Names of the nodes whose kube-proxy runs an older version than `control_plane`, in name order.
    pub fn skewed_nodes(&self, control_plane: Behaviour) -> Vec<String> {
        if self.oldest_skewed(control_plane).is_none() {
            return vec![];
        }
        let skewed = |row: &&NodeRow| kube_proxy_on_node(control_plane, row.3).is_some();
        self.rows.iter().filter(skewed).map(|row| row.0.clone()).collect()
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Class of a row: rows with the same zone label, Windows flag and kubelet version share one.
    pub fn class_of(&self, row: usize) -> usize {
        self.class[row]
    }

    /// Rows of a class, in row order.
    pub fn class_members(&self, class: usize) -> &[usize] {
        &self.members[class]
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.members.len()
    }

    /// No nodes (unreadable).
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Row index of a node name.
    pub fn row(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// `(name, zone label)` of a row.
    pub fn node(&self, row: usize) -> (&str, Option<&str>) {
        (&self.rows[row].0, self.rows[row].1.as_deref())
    }
}

/// When the node an endpoint runs on can see other endpoints than the rest of its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Locality {
    /// A `Local` traffic policy: the local list is per node.
    Every,
    /// Before 1.36 without a Local policy: only the duplicate merge reads `is_local` (a later local
    /// copy wins), so only nodes hosting a duplicated address.
    Duplicates,
    /// Nothing reads `is_local`.
    Never,
}

/// Nodes whose outcome may differ from their class's: those named in node hints, and those
/// hosting an endpoint (`nodeName`) whose locality is read (see [`Locality`]).
pub(super) fn named_rows(own: &[&EndpointSlice], nodes: &ProxyNodes, locality: Locality) -> BTreeSet<usize> {
    let duplicated =
        if locality == Locality::Duplicates { duplicated_addresses(own) } else { BTreeSet::new() };
    let mut named = BTreeSet::new();
    for endpoint in own.iter().flat_map(|s| &s.endpoints) {
        let reads_locality = match locality {
            Locality::Every => true,
            Locality::Duplicates => {
                endpoint.addresses.first().is_some_and(|a| duplicated.contains(&normalise_ip(a)))
            }
            Locality::Never => false,
        };
        if reads_locality {
            named.extend(endpoint.node_name.as_deref().and_then(|n| nodes.row(n)));
        }
        let hinted = endpoint.hints.as_ref().and_then(|h| h.for_nodes.as_ref());
        named.extend(hinted.into_iter().flatten().filter_map(|n| nodes.row(n)));
    }
    named
}

/// First addresses (normalised as kube-proxy keys them) that occur more than once.
fn duplicated_addresses(own: &[&EndpointSlice]) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut twice = BTreeSet::new();
    for address in own.iter().flat_map(|s| &s.endpoints).filter_map(|e| e.addresses.first()) {
        let address = normalise_ip(address);
        if !seen.insert(address.clone()) {
            twice.insert(address);
        }
    }
    twice
}

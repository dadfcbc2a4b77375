//! The nodes kube-proxy runs on, as every Service's view reads them: sorted, indexed by name and
//! grouped into (zone, Windows) classes once per run.

use std::collections::{BTreeSet, HashMap};

use super::cache::normalise_ip;
use crate::model::{EndpointSlice, LABEL_OS, LABEL_ZONE, Node};

/// One node kube-proxy runs on: (name, zone label, windows).
pub(super) type NodeRow = (String, Option<String>, bool);

pub(super) fn node_rows(nodes: &[Node]) -> Vec<NodeRow> {
    let mut rows: Vec<NodeRow> = nodes
        .iter()
        .map(|n| {
            let windows = n.labels.get(LABEL_OS).is_some_and(|os| os == "windows");
            (n.name.clone(), n.labels.get(LABEL_ZONE).cloned(), windows)
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
    /// Class of each row: rows with the same zone label and Windows flag share one.
    pub(super) class: Vec<usize>,
    /// Rows of each class, in row order.
    pub(super) members: Vec<Vec<usize>>,
}

impl ProxyNodes {
    /// Sort and index `nodes`.
    pub fn new(nodes: &[Node]) -> Self {
        let rows = node_rows(nodes);
        let mut index = HashMap::new();
        for (i, row) in rows.iter().enumerate() {
            index.entry(row.0.clone()).or_insert(i);
        }
        let mut ids: HashMap<(Option<&str>, bool), usize> = HashMap::new();
        let class: Vec<usize> = rows
            .iter()
            .map(|(_, zone, windows)| {
                let next = ids.len();
                *ids.entry((zone.as_deref(), *windows)).or_insert(next)
            })
            .collect();
        let mut members = vec![Vec::new(); ids.len()];
        class.iter().enumerate().for_each(|(row, &c)| members[c].push(row));
        ProxyNodes { rows, index, class, members }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Class of a row: rows with the same zone label and Windows flag share one.
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

//! kube-proxy per node: the engine's endpoint list against any of the oracle's cells.

use std::collections::{BTreeMap, BTreeSet};

use super::{OurProxy, ProxyNodeOut};

/// `ip:port` / `[ip]:port` → `ip`.
pub fn address_of(endpoint: &str) -> String {
    if let Some(rest) = endpoint.strip_prefix('[') {
        return rest.split(']').next().unwrap_or_default().to_string();
    }
    endpoint.rsplit_once(':').map(|(a, _)| a).unwrap_or(endpoint).to_string()
}

pub(super) fn compare_proxy(
    ours: &BTreeMap<String, OurProxy>,
    theirs: &BTreeMap<String, BTreeMap<String, ProxyNodeOut>>,
) -> Vec<String> {
    let mut errors = Vec::new();
    let families: BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
    for family in families {
        let mine = ours.get(family);
        let nodes = theirs.get(family);
        let node_names: BTreeSet<&String> = nodes
            .into_iter()
            .flat_map(|n| n.keys())
            .chain(mine.into_iter().flat_map(|m| m.nodes.keys()))
            .collect();
        for node in node_names {
            let my_eps: Vec<String> = mine.and_then(|m| m.nodes.get(node)).cloned().unwrap_or_default();
            let cells: Vec<Vec<String>> = match (
                nodes.and_then(|n| n.get(node)),
                mine.and_then(|m| m.port.as_ref()),
            ) {
                (Some(n), Some(port)) => match n.ports.get(port) {
                    Some(cells) => cells
                        .iter()
                        .map(|c| {
                            let list = if mine.is_some_and(|m| m.local) { &c.local } else { &c.cluster };
                            let mut v: Vec<String> = list.iter().flatten().map(|e| address_of(e)).collect();
                            v.sort();
                            v
                        })
                        .collect(),
                    None => vec![vec![]],
                },
                // kube-proxy does not serve this family / port, or we skip the Service: nothing.
                (Some(n), None) => {
                    if n.ports
                        .values()
                        .flatten()
                        .any(|c| c.cluster.iter().chain(c.local.iter()).any(|l| !l.is_empty()))
                    {
                        errors.push(format!("proxy {family} {node}: kube-proxy has endpoints, the engine shows none for this family"));
                    }
                    continue;
                }
                (None, _) => vec![vec![]],
            };
            if !cells.contains(&my_eps) {
                errors.push(format!("proxy {family} {node}: ours {my_eps:?}, oracle one of {cells:?}"));
            }
        }
    }
    errors
}

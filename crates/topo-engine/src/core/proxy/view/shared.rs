//! How the rows of one view are decided ([`Rows`]) and what their groups share: each distinct
//! endpoint list is kept once ([`Lists`]), and nodes that decide alike are decided once ([`Alike`]) — a Service over 1,000 zones would
//! otherwise hold and compute 1,000 copies of the same list (issue 32).

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::rc::Rc;
use std::sync::Arc;

use super::{Outcome, outcome, service_info_at};
use crate::core::proxy::cache::ProxyEndpoint;
use crate::core::proxy::nodes::ProxyNodes;
use crate::core::proxy::{Categories, ProxyNode, ProxyServiceInfo, categorize, endpoints_for_port};
use crate::model::{Behaviour, EndpointSlice, Service};

/// The endpoint lists of one view, each kept once: without hints every zone's nodes route to the
/// same endpoints, and 1,000 zones of 1,000 endpoints would otherwise hold a million addresses.
#[derive(Default)]
pub(super) struct Lists {
    by_hash: HashMap<u64, Vec<Arc<[String]>>>,
}

impl Lists {
    /// The kept list equal to the addresses of the endpoints at `positions`, sorted (added if new).
    pub(super) fn get(&mut self, positions: &[usize], endpoints: &[ProxyEndpoint]) -> Arc<[String]> {
        let mut items: Vec<&str> = positions.iter().map(|&i| endpoints[i].address.as_str()).collect();
        items.sort_unstable();
        let bucket = self.by_hash.entry(foldhash::fast::FixedState::default().hash_one(&items)).or_default();
        let same =
            |list: &&Arc<[String]>| list.len() == items.len() && list.iter().zip(&items).all(|(a, b)| a == b);
        if let Some(found) = bucket.iter().find(same) {
            return found.clone();
        }
        let list: Arc<[String]> = items.into_iter().map(str::to_string).collect();
        bucket.push(list.clone());
        list
    }
}

/// Every endpoint a node may route to carries no hint at all, and one is ready: then what kube-proxy
/// routes to and logs does not depend on the node's name or which zone it is in (only on whether it
/// has a zone label: kube-proxy before 1.31 checks the label first).
pub(super) fn unhinted(endpoints: &[ProxyEndpoint]) -> bool {
    endpoints.iter().any(|ep| ep.ready)
        && endpoints.iter().all(|ep| ep.zone_hints.is_none() && ep.node_hints.is_none())
}

/// The outcomes of nodes that decide alike, when every node sees the same unhinted endpoints
/// ([`unhinted`]): one per (Windows, has a zone label, kube-proxy version), so a Service over 1,000
/// zones categorizes its endpoints once rather than once per zone (issue 32).
pub(super) struct Alike {
    enabled: bool,
    seen: HashMap<(bool, bool, Behaviour), (Rc<Categories>, Outcome)>,
}

impl Alike {
    pub(super) fn new(enabled: bool) -> Self {
        Alike { enabled, seen: HashMap::new() }
    }

    pub(super) fn get(&self, key: (bool, bool, Behaviour)) -> Option<(Rc<Categories>, Outcome)> {
        self.seen.get(&key).filter(|_| self.enabled).cloned()
    }

    pub(super) fn put(
        &mut self,
        key: (bool, bool, Behaviour),
        categorized: &Rc<Categories>,
        result: &Outcome,
    ) {
        if self.enabled {
            self.seen.insert(key, (categorized.clone(), result.clone()));
        }
    }
}

/// What every row's outcome is computed from.
pub(super) struct Rows<'r> {
    pub(super) service: &'r Service,
    /// The control plane's reading of the Service's first port.
    pub(super) svc: &'r ProxyServiceInfo,
    pub(super) own: &'r [&'r EndpointSlice],
    pub(super) nodes: &'r ProxyNodes,
    pub(super) behaviour: Behaviour,
    /// The endpoints every node sees, when they all see the same.
    pub(super) shared: &'r Option<Vec<ProxyEndpoint>>,
}

impl Rows<'_> {
    /// What kube-proxy (at version `at`) on `row` routes to.
    pub(super) fn decide(&self, row: usize, at: Behaviour, lists: &mut Lists) -> (Rc<Categories>, Outcome) {
        let (name, zone, windows, _) = &self.nodes.rows[row];
        let node = ProxyNode { name, zone: zone.as_deref(), windows: *windows };
        let svc = service_info_at(self.service, self.svc, at, self.behaviour);
        let own_endpoints;
        let endpoints = match self.shared {
            Some(eps) => eps,
            None => {
                let port = &self.service.ports[0];
                own_endpoints = endpoints_for_port(self.own, &port.name, &port.protocol, name, at);
                &own_endpoints
            }
        };
        let categorized = Rc::new(categorize(endpoints, &svc, &node, at));
        let skew = (at != self.behaviour).then_some(at);
        let result = outcome(&svc, &categorized, endpoints, skew, lists);
        (categorized, result)
    }
}

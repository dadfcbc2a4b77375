//! What kube-proxy holds per service port: a port of `EndpointSliceCache.addEndpoints` and
//! `endpointsMapFromEndpointInfo` (k/k `pkg/proxy/endpointslicecache.go`, docs/behaviour.md#endpoints-kube-proxy-holds).

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;
use std::sync::Arc;

use serde::Serialize;

use super::gosort::go_sort;
use crate::model::{Behaviour, Endpoint, EndpointSlice};

/// One endpoint of one service port as kube-proxy sees it (`BaseEndpointInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProxyEndpoint {
    /// First address, normalised like `ParseIPSloppy(...).String()`.
    pub address: String,
    /// The slice's port number for this service port.
    pub port: i32,
    /// `nodeName` of the endpoint.
    pub node_name: Option<String>,
    /// `nodeName` equals this kube-proxy's (non-empty) node name.
    pub is_local: bool,
    /// `ready`, nil counts as ready.
    pub ready: bool,
    /// `serving`, nil counts as serving.
    pub serving: bool,
    /// `terminating`, nil counts as not terminating.
    pub terminating: bool,
    /// `forZones` names when non-empty (and read at this version), else `None`.
    pub zone_hints: Option<BTreeSet<String>>,
    /// `forNodes` names when non-empty and the PreferSameTrafficDistribution gate is on, else `None`.
    pub node_hints: Option<BTreeSet<String>>,
}

impl ProxyEndpoint {
    /// kube-proxy's identity and sort key: `net.JoinHostPort(ip, port)`, e.g. `10.1.2.3:80`.
    pub fn identity(&self) -> String {
        if self.address.contains(':') {
            format!("[{}]:{}", self.address, self.port)
        } else {
            format!("{}:{}", self.address, self.port)
        }
    }
    /// `ZoneHints().Has(zone)`.
    pub fn has_zone_hint(&self, zone: &str) -> bool {
        self.zone_hints.as_ref().is_some_and(|hints| hints.contains(zone))
    }
    /// `NodeHints().Has(node)`.
    pub fn has_node_hint(&self, node: &str) -> bool {
        self.node_hints.as_ref().is_some_and(|hints| hints.contains(node))
    }
}

/// `utilnet.ParseIPSloppy(addr).String()`: canonical form, IPv4-mapped IPv6 printed as IPv4.
/// Addresses Rust cannot parse (e.g. IPv4 with leading zeros, which Go accepts) are kept as written.
pub(super) fn normalise_ip(address: &str) -> String {
    match address.parse::<IpAddr>() {
        Ok(IpAddr::V6(v6)) => v6.to_ipv4_mapped().map_or_else(|| v6.to_string(), |v4| v4.to_string()),
        Ok(ip) => ip.to_string(),
        Err(_) => address.to_string(),
    }
}

/// 1.36+ prefers a non-terminating copy of a duplicate; 1.21–1.35 preferred the local copy.
pub(crate) fn prefers_non_terminating(behaviour: Behaviour) -> bool {
    behaviour.minor >= 36
}

/// 1.21–1.30 sort each slice's endpoints by their joined addresses with Go's unstable `sort.Sort`
/// before merging (k/k v1.30.14 endpointslicecache.go:150 `sort.Sort(byAddress(...))`; removed in
/// 1.31), which decides which copy of a duplicated address comes first.
fn sorts_slice_endpoints(behaviour: Behaviour) -> bool {
    behaviour.minor <= 30
}

/// Zone hints are read only with the TopologyAwareHints gate before 1.33 (locked on since).
fn reads_zone_hints(behaviour: Behaviour) -> bool {
    behaviour.topology_aware_hints_gate()
}

fn names(list: Option<&[Arc<str>]>) -> Option<BTreeSet<String>> {
    list.filter(|names| !names.is_empty()).map(|names| names.iter().map(|n| n.to_string()).collect())
}

fn proxy_endpoint(endpoint: &Endpoint, port: i32, node_name: &str, behaviour: Behaviour) -> ProxyEndpoint {
    let hints = endpoint.hints.as_ref();
    ProxyEndpoint {
        address: normalise_ip(&endpoint.addresses[0]),
        port,
        node_name: endpoint.node_name.as_deref().map(str::to_string),
        // mirrors EndpointSliceCache.isLocal: `len(cache.nodeName) > 0 && nodeName == cache.nodeName`
        is_local: !node_name.is_empty() && endpoint.node_name.as_deref() == Some(node_name),
        ready: endpoint.ready.unwrap_or(true),
        serving: endpoint.serving.unwrap_or(true),
        terminating: endpoint.terminating.unwrap_or(false),
        zone_hints: hints.and_then(|h| names(h.for_zones.as_deref())).filter(|_| reads_zone_hints(behaviour)),
        node_hints: hints
            .and_then(|h| names(h.for_nodes.as_deref()))
            .filter(|_| behaviour.prefer_same_traffic_distribution_gate()),
    }
}

/// A slice's endpoints in the order kube-proxy merges them (`newEndpointSliceInfo`).
fn visit_order(slice: &EndpointSlice, behaviour: Behaviour) -> impl Iterator<Item = &Endpoint> {
    let mut order: Vec<(String, &Endpoint)> = slice.endpoints.iter().map(|e| (String::new(), e)).collect();
    if sorts_slice_endpoints(behaviour) {
        // mirrors byAddress.Less: strings.Join(Addresses, ",")
        order.iter_mut().for_each(|(key, e)| *key = e.addresses.join(","));
        go_sort(&mut order, |a, b| a.0 < b.0);
    }
    order.into_iter().map(|(_, e)| e)
}

// mirrors endpointslicecache.go: endpointInfoByServicePort + addEndpoints + endpointsMapFromEndpointInfo
/// The endpoints kube-proxy on `node_name` programs for one service port (matched by port name and
/// protocol, like `ServicePortName`), from every slice of the Service (any manager) of one address
/// family. Ports without a name or number are ignored; endpoints without addresses are skipped;
/// duplicates (same first address and port) are merged, and the result is sorted by identity
/// (`byEndpoint`).
///
/// Duplicates are merged as `addEndpoints` does, endpoint by endpoint: a copy replaces the one
/// already held when it is not terminating (1.36+, k/k v1.36.0 endpointslicecache.go:247
/// `!exists || !terminating`) or when it is local (≤1.35, v1.35.0:238 `!exists || isLocal`). So
/// within one slice the last such copy wins (in address order up to 1.30, see
/// [`sorts_slice_endpoints`]). Upstream visits slices in Go map order, so across
/// slices the survivor is arbitrary; here slices are visited in the given order.
pub fn endpoints_for_port(
    slices: &[&EndpointSlice],
    port_name: &str,
    protocol: &str,
    node_name: &str,
    behaviour: Behaviour,
) -> Vec<ProxyEndpoint> {
    let mut by_identity: BTreeMap<String, ProxyEndpoint> = BTreeMap::new();
    for slice in slices.iter().filter(|slice| slice.address_type != "FQDN") {
        for port in &slice.ports {
            let (Some(name), Some(number)) = (port.name.as_deref(), port.port) else { continue };
            // The API server defaults a missing protocol to TCP.
            if number == 0 || name != port_name || port.protocol.as_deref().unwrap_or("TCP") != protocol {
                continue;
            }
            for endpoint in visit_order(slice, behaviour).filter(|endpoint| !endpoint.addresses.is_empty()) {
                let info = proxy_endpoint(endpoint, number, node_name, behaviour);
                let replaces =
                    if prefers_non_terminating(behaviour) { !info.terminating } else { info.is_local };
                match by_identity.entry(info.identity()) {
                    Entry::Vacant(slot) => _ = slot.insert(info),
                    Entry::Occupied(mut held) if replaces => _ = held.insert(info),
                    Entry::Occupied(_) => {}
                }
            }
        }
    }
    by_identity.into_values().collect()
}

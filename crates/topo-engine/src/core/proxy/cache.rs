//! What kube-proxy holds per service port: a port of `EndpointSliceCache.addEndpoints` and
//! `endpointsMapFromEndpointInfo` (k/k `pkg/proxy/endpointslicecache.go`, docs/behaviour.md#endpoints-kube-proxy-holds).

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;

use serde::Serialize;

use super::gosort::go_sort;
use crate::model::{Behaviour, Endpoint, EndpointSlice, NameList};

/// One endpoint of one service port as kube-proxy sees it (`BaseEndpointInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProxyEndpoint {
    /// First address, normalised like `ParseIPSloppy(...).String()`.
    pub address: String,
    /// The slice's port number for this service port.
    pub port: i32,
    /// `nodeName` of the endpoint (the model's shared name).
    pub node_name: Option<Arc<str>>,
    /// `nodeName` equals this kube-proxy's (non-empty) node name.
    pub is_local: bool,
    /// `ready`, nil counts as ready.
    pub ready: bool,
    /// `serving`, nil counts as serving.
    pub serving: bool,
    /// `terminating`, nil counts as not terminating.
    pub terminating: bool,
    /// `forZones` names when non-empty (and read at this version), else `None`; the model's
    /// shared names, in the slice's order (only ever asked whether they hold a name).
    pub zone_hints: Option<NameList>,
    /// `forNodes` names when non-empty and the PreferSameTrafficDistribution gate is on, else `None`.
    pub node_hints: Option<NameList>,
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
        self.zone_hints.as_ref().is_some_and(|hints| hints.iter().any(|h| &**h == zone))
    }
    /// `NodeHints().Has(node)`.
    pub fn has_node_hint(&self, node: &str) -> bool {
        self.node_hints.as_ref().is_some_and(|hints| hints.iter().any(|h| &**h == node))
    }
}

/// `utilnet.ParseIPSloppy(addr).String()`: canonical form, IPv4-mapped IPv6 printed as IPv4.
/// Addresses Rust cannot parse (e.g. IPv4 with leading zeros, which Go accepts) are kept as written.
pub(super) fn normalise_ip(address: &str) -> String {
    // An IPv4 address Rust parses (four decimal octets, no leading zero) prints as written.
    if address.parse::<Ipv4Addr>().is_ok() {
        return address.to_string();
    }
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

fn names(list: Option<&NameList>) -> Option<NameList> {
    list.filter(|names| !names.is_empty()).cloned()
}

fn proxy_endpoint(endpoint: &Endpoint, port: i32, node_name: &str, behaviour: Behaviour) -> ProxyEndpoint {
    let hints = endpoint.hints.as_ref();
    ProxyEndpoint {
        address: normalise_ip(&endpoint.addresses[0]),
        port,
        node_name: endpoint.node_name.clone(),
        // mirrors EndpointSliceCache.isLocal: `len(cache.nodeName) > 0 && nodeName == cache.nodeName`
        is_local: !node_name.is_empty() && endpoint.node_name.as_deref() == Some(node_name),
        ready: endpoint.ready.unwrap_or(true),
        serving: endpoint.serving.unwrap_or(true),
        terminating: endpoint.terminating.unwrap_or(false),
        zone_hints: hints.filter(|_| reads_zone_hints(behaviour)).and_then(|h| names(h.for_zones.as_ref())),
        node_hints: hints
            .filter(|_| behaviour.prefer_same_traffic_distribution_gate())
            .and_then(|h| names(h.for_nodes.as_ref())),
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
    // Every copy in visit order, then sorted by identity (stable: copies keep that order).
    let mut copies: Vec<ProxyEndpoint> = Vec::new();
    for slice in slices.iter().filter(|slice| slice.address_type != "FQDN") {
        for port in &slice.ports {
            let (Some(name), Some(number)) = (port.name.as_deref(), port.port) else { continue };
            // The API server defaults a missing protocol to TCP.
            if number == 0 || name != port_name || port.protocol.as_deref().unwrap_or("TCP") != protocol {
                continue;
            }
            for endpoint in visit_order(slice, behaviour).filter(|endpoint| !endpoint.addresses.is_empty()) {
                copies.push(proxy_endpoint(endpoint, number, node_name, behaviour));
            }
        }
    }
    merged(copies, behaviour)
}

/// The copies sorted by identity (`byEndpoint`), duplicates merged as `addEndpoints` merges them.
fn merged(copies: Vec<ProxyEndpoint>, behaviour: Behaviour) -> Vec<ProxyEndpoint> {
    // Each identity written once into one buffer, the copies ordered by it (a stable sort: copies
    // of one identity keep their visit order).
    let mut identities = Vec::with_capacity(copies.len() * 24);
    let spans: Vec<std::ops::Range<usize>> = (copies.iter())
        .map(|copy| {
            let start = identities.len();
            identities.extend(identity_bytes(copy, &mut [0; 11]));
            start..identities.len()
        })
        .collect();
    let identity = |i: usize| &identities[spans[i].clone()];
    let mut order: Vec<usize> = (0..copies.len()).collect();
    order.sort_by(|&a, &b| identity(a).cmp(identity(b)));
    let replaces = |info: &ProxyEndpoint| match prefers_non_terminating(behaviour) {
        true => !info.terminating,
        false => info.is_local,
    };
    let mut copies: Vec<Option<ProxyEndpoint>> = copies.into_iter().map(Some).collect();
    let mut out: Vec<ProxyEndpoint> = Vec::with_capacity(copies.len());
    let mut held = None;
    for i in order {
        let Some(info) = copies[i].take() else { continue };
        // The first copy of an identity is held; a later one replaces it when `replaces`.
        match out.last_mut() {
            Some(last) if held.is_some_and(|h| identity(h) == identity(i)) => {
                if replaces(&info) {
                    *last = info;
                }
            }
            _ => {
                out.push(info);
                held = Some(i);
            }
        }
    }
    out
}

/// [`ProxyEndpoint::identity`]'s bytes, without writing a `String`: `[`, the address, `]` for an
/// IPv6 one, then `:` and the port in decimal.
fn identity_bytes<'a>(e: &'a ProxyEndpoint, port: &'a mut [u8; 11]) -> impl Iterator<Item = u8> + 'a {
    let v6 = e.address.contains(':');
    let digits = decimal(e.port, port);
    let (open, close): (&[u8], &[u8]) = if v6 { (b"[", b"]:") } else { (b"", b":") };
    open.iter().chain(e.address.as_bytes()).chain(close).chain(digits.iter()).copied()
}

/// `n` in decimal, as `format!("{n}")` writes it, into `buffer`.
fn decimal(n: i32, buffer: &mut [u8; 11]) -> &[u8] {
    let mut value = n.unsigned_abs();
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    if n < 0 {
        at -= 1;
        buffer[at] = b'-';
    }
    &buffer[at..]
}

#[cfg(test)]
mod identity_tests {
    use super::*;

    #[test]
    fn identity_bytes_are_the_identity() {
        let at = |address: &str, port: i32| ProxyEndpoint {
            address: address.into(),
            port,
            node_name: None,
            is_local: false,
            ready: true,
            serving: true,
            terminating: false,
            zone_hints: None,
            node_hints: None,
        };
        for (address, port) in [
            ("10.0.0.1", 80),
            ("10.0.0.10", 8080),
            ("fd00::1", 9),
            ("10.0.0.2", -1),
            ("2.0.0.0", 2147483647),
            ("not-an-ip", 0),
            ("fd00::10", i32::MIN),
        ] {
            let endpoint = at(address, port);
            let bytes: Vec<u8> = identity_bytes(&endpoint, &mut [0; 11]).collect();
            assert_eq!(String::from_utf8(bytes).as_deref(), Ok(endpoint.identity().as_str()));
        }
    }
}

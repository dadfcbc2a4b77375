//! Small dumps written inline (a `v1 List` as `kubectl topo dump` writes it) and text edits of the
//! fixture dumps, so a scenario test shows its whole input.

use std::fmt::Write as _;

/// A Node of an inline dump.
#[derive(Debug, Clone)]
pub struct NodeSpec {
    pub name: &'static str,
    pub zone: Option<&'static str>,
    pub cpu: Option<&'static str>,
    pub ready: bool,
    pub control_plane: bool,
}

/// A Ready worker with a zone and CPU.
pub fn node(name: &'static str, zone: &'static str, cpu: &'static str) -> NodeSpec {
    NodeSpec { name, zone: Some(zone), cpu: Some(cpu), ready: true, control_plane: false }
}

/// A Service of an inline dump (one port `http` 80/TCP).
#[derive(Debug, Clone)]
pub struct ServiceSpec {
    pub name: &'static str,
    pub annotations: Vec<(&'static str, &'static str)>,
    pub selector: bool,
    pub service_type: &'static str,
    pub traffic_distribution: Option<&'static str>,
    pub ip_families: Vec<&'static str>,
}

/// A selector-backed ClusterIP Service annotated `topology-mode: Auto`.
pub fn auto_service(name: &'static str) -> ServiceSpec {
    ServiceSpec {
        name,
        annotations: vec![("service.kubernetes.io/topology-mode", "Auto")],
        selector: true,
        service_type: "ClusterIP",
        traffic_distribution: None,
        ip_families: vec!["IPv4"],
    }
}

/// One endpoint of an inline slice.
#[derive(Debug, Clone, Default)]
pub struct EndpointSpec {
    pub addresses: Vec<&'static str>,
    pub zone: Option<&'static str>,
    pub node: Option<&'static str>,
    pub ready: bool,
    pub for_zones: Option<Vec<&'static str>>,
    pub for_nodes: Option<Vec<&'static str>>,
}

/// A ready endpoint at `address` on `node` in `zone`, without hints.
pub fn ep(address: &'static str, zone: &'static str, node: &'static str) -> EndpointSpec {
    EndpointSpec {
        addresses: vec![address],
        zone: Some(zone),
        node: Some(node),
        ready: true,
        ..EndpointSpec::default()
    }
}

impl EndpointSpec {
    /// With `hints.forZones`.
    pub fn hinted(mut self, zones: &[&'static str]) -> Self {
        self.for_zones = Some(zones.to_vec());
        self
    }
}

/// A controller-managed slice.
#[derive(Debug, Clone)]
pub struct SliceSpec {
    pub name: &'static str,
    pub service: &'static str,
    pub address_type: &'static str,
    pub endpoints: Vec<EndpointSpec>,
}

/// A controller-managed IPv4 slice.
pub fn slice(name: &'static str, service: &'static str, endpoints: Vec<EndpointSpec>) -> SliceSpec {
    SliceSpec { name, service, address_type: "IPv4", endpoints }
}

/// An inline dump: namespace `w`, server version v1.36.2.
pub fn list(nodes: &[NodeSpec], services: &[ServiceSpec], slices: &[SliceSpec]) -> String {
    let mut y = String::from(
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: kubectl-topo/v1alpha1\n  kind: ClusterInfo\n  serverVersion: v1.36.2\n",
    );
    for n in nodes {
        y.push_str(&node_yaml(n));
    }
    for (i, s) in services.iter().enumerate() {
        service_yaml(&mut y, s, i);
    }
    for s in slices {
        slice_yaml(&mut y, s);
    }
    y
}

/// One Node item (also used to add nodes to fixtures).
pub fn node_yaml(n: &NodeSpec) -> String {
    let mut y = format!("- apiVersion: v1\n  kind: Node\n  metadata:\n    name: {}\n    labels:\n", n.name);
    let _ = writeln!(y, "      kubernetes.io/hostname: {}", n.name);
    if let Some(zone) = n.zone {
        let _ = writeln!(y, "      topology.kubernetes.io/zone: {zone}");
    }
    if n.control_plane {
        y.push_str("      node-role.kubernetes.io/control-plane: \"\"\n");
    }
    y.push_str("  status:\n    allocatable:\n");
    if let Some(cpu) = n.cpu {
        let _ = writeln!(y, "      cpu: \"{cpu}\"");
    }
    y.push_str("      pods: \"110\"\n    conditions:\n    - type: Ready\n");
    let _ = writeln!(y, "      status: \"{}\"", if n.ready { "True" } else { "False" });
    y
}

fn service_yaml(y: &mut String, s: &ServiceSpec, index: usize) {
    let _ =
        write!(y, "- apiVersion: v1\n  kind: Service\n  metadata:\n    name: {}\n    namespace: w\n", s.name);
    if !s.annotations.is_empty() {
        y.push_str("    annotations:\n");
        for (k, v) in &s.annotations {
            let _ = writeln!(y, "      {k}: \"{v}\"");
        }
    }
    let _ = writeln!(y, "  spec:\n    type: {}", s.service_type);
    if s.service_type == "ExternalName" {
        y.push_str("    externalName: example.com\n");
        return;
    }
    let v4 = format!("10.96.0.{}", 10 + index);
    let v6 = format!("fd00::{}", 10 + index);
    let ips: Vec<&str> =
        s.ip_families.iter().map(|f| if *f == "IPv6" { v6.as_str() } else { v4.as_str() }).collect();
    let _ = writeln!(y, "    clusterIP: {}\n    clusterIPs: [{}]", ips[0], ips.join(", "));
    let _ = writeln!(y, "    ipFamilies: [{}]", s.ip_families.join(", "));
    y.push_str("    ports:\n    - name: http\n      port: 80\n      protocol: TCP\n      targetPort: 8080\n");
    if s.selector {
        let _ = writeln!(y, "    selector:\n      app: {}", s.name);
    }
    if let Some(td) = s.traffic_distribution {
        let _ = writeln!(y, "    trafficDistribution: {td}");
    }
}

fn slice_yaml(y: &mut String, s: &SliceSpec) {
    let _ = writeln!(
        y,
        "- apiVersion: discovery.k8s.io/v1\n  kind: EndpointSlice\n  addressType: {}",
        s.address_type
    );
    let _ = write!(
        y,
        "  metadata:\n    name: {}\n    namespace: w\n    labels:\n      kubernetes.io/service-name: {}\n",
        s.name, s.service
    );
    y.push_str("      endpointslice.kubernetes.io/managed-by: endpointslice-controller.k8s.io\n");
    y.push_str("  ports:\n  - name: http\n    port: 8080\n    protocol: TCP\n  endpoints:\n");
    for e in &s.endpoints {
        let quoted: Vec<String> = e.addresses.iter().map(|a| format!("\"{a}\"")).collect();
        let _ = writeln!(y, "  - addresses: [{}]", quoted.join(", "));
        let _ =
            writeln!(y, "    conditions: {{ready: {}, serving: {}, terminating: false}}", e.ready, e.ready);
        if let Some(zone) = e.zone {
            let _ = writeln!(y, "    zone: {zone}");
        }
        if let Some(node) = e.node {
            let _ = writeln!(y, "    nodeName: {node}");
        }
        if e.for_zones.is_some() || e.for_nodes.is_some() {
            y.push_str("    hints:\n");
            let names =
                |list: &[&str]| list.iter().map(|n| format!("{{name: {n}}}")).collect::<Vec<_>>().join(", ");
            if let Some(zones) = &e.for_zones {
                let _ = writeln!(y, "      forZones: [{}]", names(zones));
            }
            if let Some(nodes) = &e.for_nodes {
                let _ = writeln!(y, "      forNodes: [{}]", names(nodes));
            }
        }
    }
}

/// Write `hints.forZones: [zone]` onto the endpoint whose first address is `address` (fixture
/// endpoints list `conditions` right after `addresses`; the hint goes after `terminating`).
pub fn with_zone_hint(text: &str, address: &str, zone: &str) -> String {
    let at = text.find(&format!("    - {address}\n")).unwrap_or_else(|| panic!("no endpoint {address}"));
    let marker = "      terminating: false\n";
    let end = at + text[at..].find(marker).expect("conditions") + marker.len();
    format!("{}    hints:\n      forZones:\n      - name: {zone}\n{}", &text[..end], &text[end..])
}

/// Hint each `(address, zone)` pair.
pub fn with_zone_hints(text: &str, hints: &[(&str, &str)]) -> String {
    hints.iter().fold(text.to_string(), |t, (address, zone)| with_zone_hint(&t, address, zone))
}

/// Remove the list item of `kind` named `name` (items start with `- ` at column 0).
pub fn without_item(text: &str, kind: &str, name: &str) -> String {
    let starts: Vec<usize> =
        text.match_indices("\n- ").map(|(i, _)| i + 1).chain(std::iter::once(text.len())).collect();
    for pair in starts.windows(2) {
        let item = &text[pair[0]..pair[1]];
        if item.contains(&format!("\n  kind: {kind}\n")) && item.contains(&format!("\n    name: {name}\n")) {
            return format!("{}{}", &text[..pair[0]], &text[pair[1]..]);
        }
    }
    panic!("no {kind} {name}");
}

/// Add a Node item right after `items:`.
pub fn with_node(text: &str, node: &NodeSpec) -> String {
    text.replacen("items:\n", &format!("items:\n{}", node_yaml(node)), 1)
}

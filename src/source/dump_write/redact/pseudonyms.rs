//! The pseudonyms of a redacted dump: every name and address of a Snapshot, per category, sorted,
//! then numbered with a fixed width (`node-1` … `node-9`, or `node-01` … `node-12`), so the same
//! input always gives the same output and pseudonyms sort like the names they replace (reports
//! list Services, slices and endpoints in the same order before and after redaction).

use std::collections::{BTreeMap, BTreeSet};
use std::net::{Ipv4Addr, Ipv6Addr};

use topo_engine::model::Snapshot;

/// A kind of name; each has its own numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Category {
    /// Namespaces (the system ones are kept).
    Namespace,
    /// Services (`default/kubernetes` is kept).
    Service,
    /// Nodes: names, endpoints' `nodeName`, `forNodes` hints.
    Node,
    /// EndpointSlices.
    Slice,
    /// `endpointslice.kubernetes.io/managed-by` values other than Kubernetes' own controllers.
    Manager,
    /// Endpoint and Service addresses: IPv4, IPv6, and names (FQDN slices).
    Address,
    /// Port names, of Services and EndpointSlices alike (kube-proxy matches them by name).
    Port,
    /// Deployments, StatefulSets, ReplicaSets, HPAs and Pods' other controllers.
    Workload,
    /// Pods.
    Pod,
    /// Label keys and values of Services' selectors and pod templates (one numbering, so a
    /// selector still selects the templates it selected).
    Label,
}

impl Category {
    fn prefix(self) -> &'static str {
        match self {
            Category::Namespace => "ns",
            Category::Service => "svc",
            Category::Node => "node",
            Category::Slice => "slice",
            Category::Manager => "manager",
            Category::Address => "host",
            Category::Port => "port",
            Category::Workload => "workload",
            Category::Pod => "pod",
            Category::Label => "label",
        }
    }
}

/// Names that say nothing about a cluster and that users type (`-n default`), kept as they are.
fn kept(category: Category, name: &str) -> bool {
    match category {
        Category::Namespace => matches!(name, "default" | "kube-system" | "kube-public" | "kube-node-lease"),
        Category::Service => name == "kubernetes",
        Category::Manager => KUBERNETES_MANAGERS.contains(&name),
        Category::Address => name.is_empty() || name == "None",
        Category::Node
        | Category::Slice
        | Category::Port
        | Category::Workload
        | Category::Pod
        | Category::Label => name.is_empty(),
    }
}

/// The managers Kubernetes' own controllers write (`endpointslice.kubernetes.io/managed-by`).
const KUBERNETES_MANAGERS: [&str; 2] =
    ["endpointslice-controller.k8s.io", "endpointslicemirroring-controller.k8s.io"];

/// original → pseudonym, per category.
#[derive(Debug, Default)]
pub(super) struct Pseudonyms {
    map: BTreeMap<(Category, String), String>,
}

impl Pseudonyms {
    /// Every name of `snapshot` that a redacted dump writes, numbered.
    pub(super) fn of(snapshot: &Snapshot) -> Self {
        let mut names: BTreeMap<Category, BTreeSet<&str>> = BTreeMap::new();
        collect(snapshot, &mut |category, name| {
            if !kept(category, name) {
                names.entry(category).or_default().insert(name);
            }
        });
        let mut map = BTreeMap::new();
        for (category, set) in names {
            if category == Category::Address {
                number_addresses(&set, &mut map);
            } else {
                let width = set.len().to_string().len();
                for (i, name) in set.into_iter().enumerate() {
                    let pseudonym = format!("{}-{:0width$}", category.prefix(), i + 1);
                    map.insert((category, name.to_string()), pseudonym);
                }
            }
        }
        Pseudonyms { map }
    }

    /// The pseudonym of `name`, or `name` itself when it is kept.
    pub(super) fn get(&self, category: Category, name: &str) -> String {
        self.map.get(&(category, name.to_string())).cloned().unwrap_or_else(|| name.to_string())
    }

    /// `text` with every quoted original name (`"demo"`, as notes quote them) quoted as its pseudonym.
    pub(super) fn in_text(&self, text: &str) -> String {
        let mut out = text.to_string();
        for ((_, original), pseudonym) in &self.map {
            out = out.replace(&format!("{original:?}"), &format!("{pseudonym:?}"));
        }
        out
    }
}

fn collect<'a>(snapshot: &'a Snapshot, add: &mut dyn FnMut(Category, &'a str)) {
    for node in &snapshot.nodes {
        add(Category::Node, &node.name);
    }
    for service in &snapshot.services {
        add(Category::Namespace, &service.namespace);
        add(Category::Service, &service.name);
        add(Category::Address, service.cluster_ip.as_deref().unwrap_or_default());
        service.ports.iter().for_each(|p| add(Category::Port, &p.name));
    }
    for slice in &snapshot.slices {
        add(Category::Namespace, &slice.namespace);
        add(Category::Slice, &slice.name);
        slice.service_name.iter().for_each(|s| add(Category::Service, s));
        slice.managed_by.iter().for_each(|m| add(Category::Manager, m));
        slice.ports.iter().filter_map(|p| p.name.as_deref()).for_each(|n| add(Category::Port, n));
        for endpoint in &slice.endpoints {
            endpoint.addresses.iter().for_each(|a| add(Category::Address, a));
            endpoint.node_name.iter().for_each(|n| add(Category::Node, n));
            let for_nodes = endpoint.hints.as_ref().and_then(|h| h.for_nodes.as_ref());
            for_nodes.into_iter().flatten().for_each(|n| add(Category::Node, n));
        }
    }
    for event in &snapshot.events {
        add(Category::Namespace, &event.namespace);
        add(Category::Service, &event.object_name);
    }
    if snapshot.workloads.looked_for() {
        for service in &snapshot.services {
            service
                .selector
                .iter()
                .for_each(|(k, v)| [k, v].into_iter().for_each(|l| add(Category::Label, l)));
        }
        collect_workloads(&snapshot.workloads, add);
    }
}

/// The names of the workload reads (`model/workload.rs`).
fn collect_workloads<'a>(w: &'a topo_engine::model::Workloads, add: &mut dyn FnMut(Category, &'a str)) {
    for pod in &w.pods {
        add(Category::Namespace, &pod.namespace);
        add(Category::Pod, &pod.name);
        pod.owner.iter().for_each(|o| add(Category::Workload, &o.name));
        pod.node_name.iter().for_each(|n| add(Category::Node, n));
        pod.ips.iter().for_each(|a| add(Category::Address, a));
    }
    for workload in &w.workloads {
        add(Category::Namespace, &workload.namespace);
        add(Category::Workload, &workload.name);
        workload.owner.iter().for_each(|o| add(Category::Workload, &o.name));
        workload
            .template_labels
            .iter()
            .for_each(|(k, v)| [k, v].into_iter().for_each(|l| add(Category::Label, l)));
    }
    for hpa in &w.autoscalers {
        add(Category::Namespace, &hpa.namespace);
        add(Category::Workload, &hpa.range.name);
        add(Category::Workload, &hpa.target.name);
    }
}

/// Octets 100–255 keep every pseudonym the same width, so text order is numeric order.
const OCTETS: usize = 156;

/// IPv4 → `10.a.b.c`, IPv6 → `fd00::hhhh:hhhh`, other names → `host-N.invalid`; each family
/// numbered in the order of the originals.
fn number_addresses(set: &BTreeSet<&str>, map: &mut BTreeMap<(Category, String), String>) {
    let v4: Vec<&str> = set.iter().copied().filter(|a| a.parse::<Ipv4Addr>().is_ok()).collect();
    let v6: Vec<&str> = set.iter().copied().filter(|a| a.parse::<Ipv6Addr>().is_ok()).collect();
    let hosts: Vec<&str> = set
        .iter()
        .copied()
        .filter(|a| a.parse::<Ipv4Addr>().is_err() && a.parse::<Ipv6Addr>().is_err())
        .collect();
    let fixed = v4.len() <= OCTETS * OCTETS * OCTETS;
    for (i, original) in v4.into_iter().enumerate() {
        let pseudonym = if fixed {
            let digit = |n: usize| 100 + (i / n) % OCTETS;
            format!("10.{}.{}.{}", digit(OCTETS * OCTETS), digit(OCTETS), digit(1))
        } else {
            format!("10.{}.{}.{}", (i >> 16) & 255, (i >> 8) & 255, i & 255)
        };
        map.insert((Category::Address, original.to_string()), pseudonym);
    }
    for (i, original) in v6.into_iter().enumerate() {
        let pseudonym = format!("fd00::{:04x}:{:04x}", 0x1000 + (i >> 16), i & 0xffff);
        map.insert((Category::Address, original.to_string()), pseudonym);
    }
    let width = hosts.len().to_string().len();
    for (i, original) in hosts.into_iter().enumerate() {
        map.insert((Category::Address, original.to_string()), format!("host-{:0width$}.invalid", i + 1));
    }
}

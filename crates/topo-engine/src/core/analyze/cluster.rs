//! What an analysis computes once and shares: the [`Cluster`] of one snapshot (Nodes' topology,
//! kube-proxy's node index, traffic origins, the release's facts) and the [`NodeIndex`] it is built
//! from, which `serve` keeps across snapshots over the same Nodes.

use foldhash::{HashMap, HashMapExt};
use std::sync::Arc;

use super::{TrafficModel, caveats, crosszone};
use crate::core::proxy::ProxyNodes;
use crate::core::zones::{NodeTopology, set_nodes};
use crate::model::{Behaviour, EndpointSlice, Service, Snapshot};

/// Cluster-wide facts computed once per run (node topology is shared by every Service).
pub struct Cluster<'a> {
    /// The snapshot.
    pub snapshot: &'a Snapshot,
    /// Behaviour modelled.
    pub behaviour: Behaviour,
    /// `SetNodes` over all nodes.
    pub topology: Arc<NodeTopology>,
    /// Where requests originate, for the cross-zone share.
    pub traffic: TrafficModel,
    /// The nodes sorted and indexed for kube-proxy's view.
    pub proxy_nodes: Arc<ProxyNodes>,
    /// Where requests originate (over `proxy_nodes`, with `traffic`).
    pub origins: Arc<crosszone::Origins>,
    /// Windows nodes, in snapshot order.
    pub windows_nodes: Vec<String>,
    /// Nodes whose kube-proxy runs older than the control plane (their kubelet's version), by name.
    pub skewed_nodes: Vec<String>,
    /// Whether reports carry the per-node kube-proxy groups (`check` shows none of them).
    pub proxy_detail: bool,
    /// Whether family reports carry only what a `check` row shows (verdict, reasons, replicas
    /// needed, the overall cross-zone share now and after the sync): no zone or endpoint rows, and
    /// of the cross-zone share no rows, destinations, endpoint loads or share without hints.
    pub row_only: bool,
    /// Whether family reports carry only what `serve`'s summary reads (verdict, reasons, margin,
    /// zone rows, the overall cross-zone share now, after the sync and without hints): no
    /// endpoint rows, no replicas needed, of the cross-zone share no rows, destinations or
    /// endpoint loads, and no load check. What they carry is what a full report carries.
    pub summary_only: bool,
    /// Allocatable CPU sizes of the counted Nodes per zone (the Node margin's candidates).
    pub node_sizes: Arc<crate::core::stability::nodes::NodeSizes>,
    /// The nearest share move by ready endpoints of a `check` row or `serve`'s summary, shared by
    /// every Service.
    pub(super) nearest_shares: crate::core::stability::NearestShares,
    /// Slices by (namespace, service name), in snapshot order.
    pub(super) slices: HashMap<&'a str, HashMap<&'a str, Vec<&'a EndpointSlice>>>,
    /// Gateway API routes by the Services their backendRefs name (a Service's front doors are
    /// looked up, not searched: thousands of routes times thousands of Services).
    pub(super) routes: HashMap<(&'a str, &'a str), Vec<&'a crate::model::GatewayRoute>>,
    /// Ingresses by the Services their backends name (likewise).
    pub(super) ingresses: HashMap<(&'a str, &'a str), Vec<&'a crate::model::Ingress>>,
}

impl<'a> Cluster<'a> {
    /// Index the snapshot once.
    pub fn new(snapshot: &'a Snapshot, behaviour: Behaviour) -> Self {
        Self::with_traffic(snapshot, behaviour, &TrafficModel::default())
    }

    /// Index the snapshot once, with a traffic model for the cross-zone share.
    pub fn with_traffic(snapshot: &'a Snapshot, behaviour: Behaviour, traffic: &TrafficModel) -> Self {
        let kube_proxy = snapshot.data_plane.kube_proxy_release();
        Self::with_index(
            snapshot,
            behaviour,
            &NodeIndex::with_kube_proxy(&snapshot.nodes, traffic, kube_proxy),
        )
    }

    /// Index the snapshot's slices, with what was derived from its nodes already (`index` must
    /// have been built from `snapshot.nodes`).
    pub fn with_index(snapshot: &'a Snapshot, behaviour: Behaviour, index: &NodeIndex) -> Self {
        let mut slices: HashMap<&str, HashMap<&str, Vec<&EndpointSlice>>> = HashMap::new();
        for s in &snapshot.slices {
            if let Some(svc) = &s.service_name {
                slices.entry(s.namespace.as_str()).or_default().entry(svc.as_str()).or_default().push(s);
            }
        }
        let mut routes: HashMap<(&str, &str), Vec<&crate::model::GatewayRoute>> = HashMap::new();
        for route in &snapshot.data_plane.front_doors.routes {
            for b in &route.backends {
                let named = routes.entry((b.namespace.as_str(), b.name.as_str())).or_default();
                if !named.iter().any(|r| std::ptr::eq(*r, route)) {
                    named.push(route);
                }
            }
        }
        let mut ingresses: HashMap<(&str, &str), Vec<&crate::model::Ingress>> = HashMap::new();
        for ingress in &snapshot.data_plane.front_doors.ingresses {
            for b in &ingress.backends {
                let named = ingresses.entry((b.namespace.as_str(), b.name.as_str())).or_default();
                if !named.iter().any(|i| std::ptr::eq(*i, ingress)) {
                    named.push(ingress);
                }
            }
        }
        Cluster {
            snapshot,
            behaviour,
            topology: index.topology.clone(),
            traffic: index.traffic.clone(),
            proxy_nodes: index.proxy_nodes.clone(),
            origins: index.origins.clone(),
            windows_nodes: index.windows_nodes.clone(),
            skewed_nodes: index.proxy_nodes.skewed_nodes(behaviour),
            node_sizes: index.node_sizes.clone(),
            proxy_detail: true,
            row_only: false,
            summary_only: false,
            nearest_shares: Default::default(),
            slices,
            routes,
            ingresses,
        }
    }

    /// [`Cluster::with_traffic`] for full reports without the per-node kube-proxy groups (as
    /// [`service_reports_with`] makes them; `check` pictures draw them one Service at a time).
    pub fn without_proxy_groups(
        snapshot: &'a Snapshot,
        behaviour: Behaviour,
        traffic: &TrafficModel,
    ) -> Self {
        Cluster { proxy_detail: false, ..Self::with_traffic(snapshot, behaviour, traffic) }
    }

    /// The Gateway API routes whose backendRefs name this Service.
    pub fn routes_of(&self, service: &Service) -> Vec<&'a crate::model::GatewayRoute> {
        let key = (service.namespace.as_str(), service.name.as_str());
        self.routes.get(&key).cloned().unwrap_or_default()
    }

    /// The Ingresses whose backends name this Service.
    pub fn ingresses_of(&self, service: &Service) -> Vec<&'a crate::model::Ingress> {
        let key = (service.namespace.as_str(), service.name.as_str());
        self.ingresses.get(&key).cloned().unwrap_or_default()
    }

    /// Every slice labelled with this Service's name (any manager, any address type).
    pub fn slices_of(&self, service: &Service) -> &[&'a EndpointSlice] {
        let by_name = self.slices.get(service.namespace.as_str());
        by_name.and_then(|m| m.get(service.name.as_str())).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// What a [`Cluster`] derives from the Nodes alone (and the traffic model): `SetNodes`, kube-proxy's
/// node index and where requests originate. Built once and shared by the Clusters of many
/// snapshots over the same Nodes (`serve` analyses one changed Service at a time).
#[derive(Debug, Clone)]
pub struct NodeIndex {
    topology: Arc<NodeTopology>,
    proxy_nodes: Arc<ProxyNodes>,
    origins: Arc<crosszone::Origins>,
    windows_nodes: Vec<String>,
    traffic: TrafficModel,
    node_sizes: Arc<crate::core::stability::nodes::NodeSizes>,
}

impl NodeIndex {
    /// Derive everything node-side once.
    pub fn new(nodes: &[crate::model::Node], traffic: &TrafficModel) -> Self {
        Self::with_kube_proxy(nodes, traffic, None)
    }

    /// [`NodeIndex::new`] where kube-proxy's release is known (its DaemonSet's image tag): it wins
    /// over the kubelets' on every Linux node ([`ProxyNodes::with_kube_proxy`]).
    pub fn with_kube_proxy(
        nodes: &[crate::model::Node],
        traffic: &TrafficModel,
        kube_proxy: Option<Behaviour>,
    ) -> Self {
        let topology = set_nodes(nodes);
        let proxy_nodes = ProxyNodes::with_kube_proxy(nodes, kube_proxy);
        let origins = crosszone::Origins::new(nodes, &topology, traffic, &proxy_nodes);
        NodeIndex {
            topology: Arc::new(topology),
            proxy_nodes: Arc::new(proxy_nodes),
            origins: Arc::new(origins),
            windows_nodes: caveats::windows_nodes(nodes),
            traffic: traffic.clone(),
            node_sizes: Arc::new(crate::core::stability::nodes::sizes_by_zone(nodes)),
        }
    }
}

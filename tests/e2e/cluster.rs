//! Objects for the scenarios, written with the admin kubeconfig to the test's own apiserver (the
//! product itself stays read-only). There is no kubelet: Nodes and Pods get their status patched.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::{Namespace, Node, Pod, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::{Client, ResourceExt};
use serde_json::{Value, json};

pub const ZONE: &str = "topology.kubernetes.io/zone";
const MANAGED_BY: &str = "endpointslice.kubernetes.io/managed-by";
const SERVICE: &str = "kubernetes.io/service-name";

/// Admin-side helpers around one client.
#[derive(Clone)]
pub struct Cluster {
    pub client: Client,
}

/// Pod IPs are unique per test process, not per [`Cluster`]: every scenario group has its own.
static NEXT_POD_IP: AtomicU32 = AtomicU32::new(1);

/// One node to create.
#[derive(Debug, Clone)]
pub struct NodeSpec {
    pub name: String,
    pub zone: Option<String>,
    pub cpu: String,
    pub ready: bool,
    pub control_plane: bool,
}

pub fn node(name: &str, zone: Option<&str>, cpu: &str) -> NodeSpec {
    NodeSpec {
        name: name.into(),
        zone: zone.map(Into::into),
        cpu: cpu.into(),
        ready: true,
        control_plane: false,
    }
}

impl Cluster {
    pub fn new(client: Client) -> Cluster {
        Cluster { client }
    }

    fn nodes(&self) -> Api<Node> {
        Api::all(self.client.clone())
    }

    pub async fn namespace(&self, name: &str) {
        let ns: Namespace = serde_json::from_value(json!({"metadata": {"name": name}})).unwrap();
        Api::<Namespace>::all(self.client.clone())
            .create(&PostParams::default(), &ns)
            .await
            .expect("create namespace");
    }

    /// Create a Node, then patch its status as a kubelet would (capacity, allocatable, Ready).
    pub async fn create_node(&self, spec: &NodeSpec) {
        let mut labels = json!({"kubernetes.io/hostname": spec.name, "kubernetes.io/os": "linux"});
        if let Some(z) = &spec.zone {
            labels[ZONE] = json!(z);
        }
        if spec.control_plane {
            labels["node-role.kubernetes.io/control-plane"] = json!("");
        }
        let n: Node =
            serde_json::from_value(json!({"metadata": {"name": spec.name, "labels": labels}})).unwrap();
        self.nodes()
            .create(&PostParams::default(), &n)
            .await
            .unwrap_or_else(|e| panic!("create node {}: {e}", spec.name));
        self.set_node_status(&spec.name, &spec.cpu, spec.ready).await;
    }

    pub async fn set_node_status(&self, name: &str, cpu: &str, ready: bool) {
        let now = "2026-01-01T00:00:00Z";
        let resources = json!({"cpu": cpu, "memory": "16Gi", "pods": "110"});
        let status = json!({"status": {
            "capacity": resources, "allocatable": resources,
            "conditions": [{"type": "Ready", "status": if ready {"True"} else {"False"},
                            "reason": "E2E", "message": "set by the e2e harness",
                            "lastHeartbeatTime": now, "lastTransitionTime": now}],
            "addresses": [{"type": "Hostname", "address": name}]
        }});
        self.nodes()
            .patch_status(name, &PatchParams::default(), &Patch::Merge(&status))
            .await
            .unwrap_or_else(|e| panic!("patch node status {name}: {e}"));
    }

    pub async fn label_node(&self, name: &str, key: &str, value: Option<&str>) {
        let patch = json!({"metadata": {"labels": {key: value}}});
        self.nodes().patch(name, &PatchParams::default(), &Patch::Merge(&patch)).await.expect("label node");
    }

    /// Make the cluster's Nodes exactly `specs`: delete the others, (re)create changed ones. A CPU
    /// change needs a new Node: the controller recomputes zone weights only on add/delete or a Ready
    /// or zone-label change.
    pub async fn set_nodes(&self, specs: &[NodeSpec]) {
        let existing = self.nodes().list(&ListParams::default()).await.expect("list nodes").items;
        for n in existing {
            let name = n.metadata.name.clone().unwrap_or_default();
            if !specs.iter().any(|s| s.name == name)
                || !node_matches(&n, specs.iter().find(|s| s.name == name).unwrap())
            {
                self.nodes().delete(&name, &DeleteParams::default()).await.expect("delete node");
            }
        }
        let remaining = self.nodes().list(&ListParams::default()).await.expect("list nodes").items;
        for s in specs {
            if !remaining.iter().any(|n| n.metadata.name.as_deref() == Some(&s.name)) {
                self.create_node(s).await;
            }
        }
    }

    /// A Service selecting `app=<name>` on port 80.
    pub async fn create_service(
        &self,
        ns: &str,
        name: &str,
        annotations: Value,
        traffic_distribution: Option<&str>,
    ) {
        self.try_create_service(ns, name, annotations, traffic_distribution)
            .await
            .unwrap_or_else(|e| panic!("create service {ns}/{name}: {e}"));
    }

    pub async fn try_create_service(
        &self,
        ns: &str,
        name: &str,
        annotations: Value,
        traffic_distribution: Option<&str>,
    ) -> Result<(), kube::Error> {
        let mut spec = json!({"selector": {"app": name}, "ports": [{"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP"}]});
        if let Some(td) = traffic_distribution {
            spec["trafficDistribution"] = json!(td);
        }
        let svc: Service = serde_json::from_value(json!({
            "metadata": {"name": name, "namespace": ns, "annotations": annotations, "labels": {"e2e": "kubectl-topo"}},
            "spec": spec
        }))
        .unwrap();
        Api::<Service>::namespaced(self.client.clone(), ns)
            .create(&PostParams::default(), &svc)
            .await
            .map(|_| ())
    }

    pub async fn patch_service(&self, ns: &str, name: &str, patch: Value) {
        Api::<Service>::namespaced(self.client.clone(), ns)
            .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .unwrap_or_else(|e| panic!("patch service {ns}/{name}: {e}"));
    }

    /// A running, ready Pod of `app` on `node`, with a fresh pod IP.
    pub async fn create_pod(&self, ns: &str, name: &str, app: &str, node: &str) {
        let pods: Api<Pod> = Api::namespaced(self.client.clone(), ns);
        let pod: Pod = serde_json::from_value(json!({
            "metadata": {"name": name, "namespace": ns, "labels": {"app": app}},
            "spec": {"nodeName": node, "automountServiceAccountToken": false,
                     "containers": [{"name": "app", "image": "registry.invalid/app:1", "ports": [{"containerPort": 8080}]}]}
        }))
        .unwrap();
        pods.create(&PostParams::default(), &pod)
            .await
            .unwrap_or_else(|e| panic!("create pod {ns}/{name}: {e}"));
        let n = NEXT_POD_IP.fetch_add(1, Ordering::SeqCst);
        let ip = format!("10.244.{}.{}", n / 250, n % 250 + 2);
        let now = "2026-01-01T00:00:00Z";
        let conds: Vec<Value> = ["PodScheduled", "Initialized", "ContainersReady", "Ready"]
            .iter()
            .map(|t| json!({"type": t, "status": "True", "lastTransitionTime": now}))
            .collect();
        let status = json!({"status": {"phase": "Running", "podIP": ip, "podIPs": [{"ip": ip}], "hostIP": "192.0.2.1",
            "conditions": conds, "startTime": now}});
        pods.patch_status(name, &PatchParams::default(), &Patch::Merge(&status))
            .await
            .unwrap_or_else(|e| panic!("patch pod status {ns}/{name}: {e}"));
    }

    pub async fn delete_pod(&self, ns: &str, name: &str) {
        let pods: Api<Pod> = Api::namespaced(self.client.clone(), ns);
        pods.delete(name, &DeleteParams { grace_period_seconds: Some(0), ..DeleteParams::default() })
            .await
            .unwrap_or_else(|e| panic!("delete pod {ns}/{name}: {e}"));
    }

    /// Delete every Pod of the cluster, then wait until no slice of the controller has an
    /// endpoint left (before Nodes go away: a Pod on a deleted Node keeps its Service requeued).
    pub async fn clear_pods(&self, limit: Duration) {
        let pods: Api<Pod> = Api::all(self.client.clone());
        for p in pods.list(&ListParams::default()).await.expect("list pods").items {
            let (ns, name) = (p.metadata.namespace.unwrap_or_default(), p.metadata.name.unwrap_or_default());
            self.delete_pod(&ns, &name).await;
        }
        let slices: Api<EndpointSlice> = Api::all(self.client.clone());
        let lp = ListParams::default().labels(&format!("{MANAGED_BY}=endpointslice-controller.k8s.io"));
        let start = Instant::now();
        loop {
            let items = slices.list(&lp).await.expect("list slices").items;
            let left: Vec<String> = items
                .iter()
                .filter(|s| s.endpoints.as_ref().is_some_and(|e| !e.is_empty()))
                .map(|s| {
                    let svc = s.labels().get(SERVICE).cloned().unwrap_or_default();
                    format!("{}/{svc}", s.namespace().unwrap_or_default())
                })
                .collect();
            if left.is_empty() {
                return;
            }
            assert!(start.elapsed() < limit, "slices still with endpoints after {limit:?}: {left:?}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// The controller's slices of a Service.
    pub async fn slices(&self, ns: &str, service: &str) -> Vec<EndpointSlice> {
        let api: Api<EndpointSlice> = Api::namespaced(self.client.clone(), ns);
        let lp = ListParams::default().labels(&format!("{SERVICE}={service}"));
        api.list(&lp).await.expect("list slices").items
    }

    /// Poll the Service's slices until `pred` holds; panics with the last state after `limit`.
    pub async fn wait_slices(
        &self,
        ns: &str,
        service: &str,
        what: &str,
        limit: Duration,
        pred: impl Fn(&SliceState) -> bool,
    ) -> SliceState {
        let start = Instant::now();
        loop {
            let state = SliceState::of(&self.slices(ns, service).await);
            if pred(&state) {
                return state;
            }
            if start.elapsed() > limit {
                panic!("{ns}/{service}: {what}: not reached after {limit:?}; last state: {state:#?}");
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Wait until the Service's slices stop changing for `quiet` (the controller is done).
    pub async fn settle(&self, ns: &str, service: &str, quiet: Duration) -> SliceState {
        let mut last = SliceState::of(&self.slices(ns, service).await);
        let mut since = Instant::now();
        let start = Instant::now();
        while since.elapsed() < quiet && start.elapsed() < Duration::from_secs(60) {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let now = SliceState::of(&self.slices(ns, service).await);
            if now != last {
                last = now;
                since = Instant::now();
            }
        }
        last
    }

    /// Events the controller recorded on a Service (reason, message).
    pub async fn service_events(&self, ns: &str, service: &str) -> Vec<(String, String)> {
        let api: Api<k8s_openapi::api::core::v1::Event> = Api::namespaced(self.client.clone(), ns);
        let lp = ListParams::default()
            .fields(&format!("involvedObject.kind=Service,involvedObject.name={service}"));
        api.list(&lp)
            .await
            .expect("list events")
            .items
            .into_iter()
            .map(|e| (e.reason.unwrap_or_default(), e.message.unwrap_or_default()))
            .collect()
    }

    pub async fn apply_cluster_role(&self, role: &ClusterRole) {
        Api::<ClusterRole>::all(self.client.clone())
            .create(&PostParams::default(), role)
            .await
            .expect("create clusterrole");
    }

    /// Create `role` unless a ClusterRole of that name exists (the shipped role of
    /// deploy/rbac.yaml: several groups bind it, in any order).
    pub async fn ensure_cluster_role(&self, role: &ClusterRole) {
        match Api::<ClusterRole>::all(self.client.clone()).create(&PostParams::default(), role).await {
            Ok(_) => {}
            Err(kube::Error::Api(s)) if s.code == 409 => {}
            Err(e) => panic!("create clusterrole: {e}"),
        }
    }

    pub async fn bind_cluster_role(&self, binding: &str, role: &str, user: &str) {
        let b: ClusterRoleBinding = serde_json::from_value(json!({
            "metadata": {"name": binding},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
            "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": user}]
        }))
        .unwrap();
        Api::<ClusterRoleBinding>::all(self.client.clone())
            .create(&PostParams::default(), &b)
            .await
            .expect("create binding");
    }
}

fn node_matches(n: &Node, s: &NodeSpec) -> bool {
    let labels = n.metadata.labels.clone().unwrap_or_default();
    let cpu = n
        .status
        .as_ref()
        .and_then(|st| st.allocatable.as_ref())
        .and_then(|a| a.get("cpu"))
        .map(|q| q.0.clone());
    let ready = n
        .status
        .as_ref()
        .and_then(|st| st.conditions.as_ref())
        .and_then(|c| c.iter().find(|c| c.type_ == "Ready"))
        .is_some_and(|c| c.status == "True");
    labels.get(ZONE) == s.zone.as_ref()
        && cpu.as_deref() == Some(s.cpu.as_str())
        && ready == s.ready
        && labels.contains_key("node-role.kubernetes.io/control-plane") == s.control_plane
}

/// What the controller wrote, reduced to what the scenarios assert.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SliceState {
    /// Ready endpoints (addresses) per endpoint zone.
    pub endpoints_per_zone: BTreeMap<String, usize>,
    /// Endpoints hinted for each zone (`forZones`).
    pub hinted_per_zone: BTreeMap<String, usize>,
    /// Endpoints with any hints.
    pub hinted: usize,
    /// Endpoints in total.
    pub endpoints: usize,
    /// One row per endpoint, sorted.
    pub rows: Vec<Row>,
}

/// (address, endpoint zone, hinted zones, hinted nodes, node name)
pub type Row = (String, Option<String>, Option<Vec<String>>, Option<Vec<String>>, Option<String>);

impl SliceState {
    pub fn of(slices: &[EndpointSlice]) -> SliceState {
        let mut s = SliceState::default();
        for slice in slices {
            for ep in slice.endpoints.iter().flatten() {
                s.endpoints += 1;
                let zone = ep.zone.clone();
                *s.endpoints_per_zone.entry(zone.clone().unwrap_or_default()).or_default() += 1;
                let zones = ep
                    .hints
                    .as_ref()
                    .and_then(|h| h.for_zones.as_ref())
                    .map(|z| z.iter().map(|z| z.name.clone()).collect::<Vec<_>>());
                let nodes = ep
                    .hints
                    .as_ref()
                    .and_then(|h| h.for_nodes.as_ref())
                    .map(|z| z.iter().map(|z| z.name.clone()).collect::<Vec<_>>());
                if ep.hints.is_some() {
                    s.hinted += 1;
                }
                for z in zones.iter().flatten() {
                    *s.hinted_per_zone.entry(z.clone()).or_default() += 1;
                }
                s.rows.push((
                    ep.addresses.first().cloned().unwrap_or_default(),
                    zone,
                    zones,
                    nodes,
                    ep.node_name.clone(),
                ));
            }
        }
        s.rows.sort();
        s
    }
}

//! `cargo xtask gen --workloads`: the workloads behind each Service of a plan, as `kubectl get -o
//! json` prints them — one Deployment per Service with its ReplicaSet and one Pod per endpoint
//! (ownerReferences Pod → ReplicaSet → Deployment, the endpoints' targetRefs naming the Pods), some
//! with an autoscaling/v2 HorizontalPodAutoscaler (min..max around today's replicas) and some with
//! a zone `topologySpreadConstraint` (maxSkew 1, DoNotSchedule), so that `check --certify` has
//! certificates that hold and certificates with exceptions. Drawn from a generator of its own, so a
//! dump without `--workloads` is byte for byte what it always was.

use serde_json::{Value, json};

use crate::hints::ip;
use crate::plan::{ClusterPlan, Rng};

const CREATED: &str = "2026-03-01T08:00:00Z";
const ZONE_KEY: &str = "topology.kubernetes.io/zone";

/// The workload of one Service.
#[derive(Debug, Clone)]
pub struct WorkloadPlan {
    /// The ReplicaSet's pod-template-hash (its name is `<deployment>-<hash>`).
    pub hash: String,
    /// `minReplicas..maxReplicas` of its HPA, if it has one.
    pub hpa: Option<(usize, usize)>,
    /// A zone spread with maxSkew 1, DoNotSchedule.
    pub spread: bool,
    pub uids: [String; 2],
}

/// Draw each Service's workload and rename its endpoints' Pods after its ReplicaSet
/// (`<deployment>-<hash>-<suffix>`, as the ReplicaSet controller names them).
pub fn plan(cluster: &mut ClusterPlan) -> Vec<WorkloadPlan> {
    let mut rng = Rng::new(cluster.size.seed ^ 0x3011_0ad5);
    (cluster.services.iter_mut())
        .map(|svc| {
            let hash = rng.suffix(10);
            for e in &mut svc.endpoints {
                e.pod = format!("{}-{hash}-{}", svc.name, rng.suffix(5));
            }
            let n = svc.endpoints.len();
            // 40 % autoscaled: from half today's replicas to half as many again (at least 2 more).
            let hpa = rng.chance(40).then(|| (n.div_ceil(2).max(1), n + (n / 2).max(2)));
            let spread = rng.chance(50);
            WorkloadPlan { hash, hpa, spread, uids: [rng.uid(), rng.uid()] }
        })
        .collect()
}

/// The objects of Service `s`'s workload: Deployment, ReplicaSet, HPA (if any), then its Pods.
pub fn objects(cluster: &ClusterPlan, s: usize, w: &WorkloadPlan, rng: &mut Rng) -> Vec<Value> {
    let svc = &cluster.services[s];
    let (name, ns) = (svc.name.as_str(), svc.namespace.as_str());
    let rs = format!("{name}-{}", w.hash);
    let labels = json!({"app.kubernetes.io/name": name, "pod-template-hash": w.hash});
    let replicas = svc.endpoints.len();
    let mut out = vec![
        controller("Deployment", name, ns, &w.uids[0], None, replicas, template(name, w, None)),
        controller(
            "ReplicaSet",
            &rs,
            ns,
            &w.uids[1],
            Some(("Deployment", name, &w.uids[0])),
            replicas,
            template(name, w, Some(&w.hash)),
        ),
    ];
    if let Some((min, max)) = w.hpa {
        out.push(hpa(name, ns, min, max, rng));
    }
    for e in &svc.endpoints {
        let node = &cluster.nodes[e.node];
        out.push(json!({
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "creationTimestamp": CREATED,
                "generateName": format!("{rs}-"),
                "labels": labels,
                "name": e.pod,
                "namespace": ns,
                "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true,
                                     "kind": "ReplicaSet", "name": rs, "uid": w.uids[1]}],
                "resourceVersion": format!("{}", 100_000 + rng.below(900_000)),
                "uid": rng.uid()
            },
            "spec": {
                "containers": [container(name)],
                "dnsPolicy": "ClusterFirst",
                "enableServiceLinks": true,
                "nodeName": node.name,
                "restartPolicy": "Always",
                "schedulerName": "default-scheduler",
                "serviceAccountName": "default",
                "terminationGracePeriodSeconds": 30
            },
            "status": {
                "conditions": [
                    {"lastTransitionTime": CREATED, "status": "True", "type": "PodScheduled"},
                    {"lastTransitionTime": CREATED, "status": if e.ready { "True" } else { "False" }, "type": "Ready"}
                ],
                "hostIP": ip(node.ip),
                "hostIPs": [{"ip": ip(node.ip)}],
                "phase": "Running",
                "podIP": ip(e.ip),
                "podIPs": [{"ip": ip(e.ip)}],
                "qosClass": "Burstable",
                "startTime": CREATED
            }
        }));
    }
    out
}

fn container(name: &str) -> Value {
    json!({
        "image": format!("ghcr.io/example/{name}:v1.4.2"),
        "imagePullPolicy": "IfNotPresent",
        "name": "app",
        "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
        "resources": {"limits": {"memory": "256Mi"}, "requests": {"cpu": "100m", "memory": "128Mi"}}
    })
}

/// The pod template: the Service's selector label (and the ReplicaSet's hash), the spread if any.
fn template(name: &str, w: &WorkloadPlan, hash: Option<&str>) -> Value {
    let mut labels = json!({"app.kubernetes.io/name": name});
    if let Some(hash) = hash {
        labels["pod-template-hash"] = json!(hash);
    }
    let mut spec = json!({"containers": [container(name)], "restartPolicy": "Always"});
    if w.spread {
        spec["topologySpreadConstraints"] = json!([{
            "labelSelector": {"matchLabels": {"app.kubernetes.io/name": name}},
            "maxSkew": 1,
            "topologyKey": ZONE_KEY,
            "whenUnsatisfiable": "DoNotSchedule"
        }]);
    }
    json!({"metadata": {"labels": labels}, "spec": spec})
}

fn controller(
    kind: &str,
    name: &str,
    ns: &str,
    uid: &str,
    owner: Option<(&str, &str, &str)>,
    replicas: usize,
    template: Value,
) -> Value {
    let mut metadata = json!({
        "creationTimestamp": CREATED, "generation": 1, "name": name, "namespace": ns,
        "resourceVersion": "4242", "uid": uid
    });
    if let Some((kind, name, uid)) = owner {
        metadata["ownerReferences"] = json!([{"apiVersion": "apps/v1", "blockOwnerDeletion": true,
            "controller": true, "kind": kind, "name": name, "uid": uid}]);
    }
    json!({
        "apiVersion": "apps/v1",
        "kind": kind,
        "metadata": metadata,
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": template["metadata"]["labels"].clone()},
            "template": template
        },
        "status": {"availableReplicas": replicas, "readyReplicas": replicas, "replicas": replicas}
    })
}

fn hpa(name: &str, ns: &str, min: usize, max: usize, rng: &mut Rng) -> Value {
    json!({
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": {"creationTimestamp": CREATED, "name": name, "namespace": ns,
                     "resourceVersion": "4242", "uid": rng.uid()},
        "spec": {
            "maxReplicas": max,
            "metrics": [{"resource": {"name": "cpu", "target": {"averageUtilization": 70, "type": "Utilization"}},
                         "type": "Resource"}],
            "minReplicas": min,
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": name}
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::generate;
    use crate::plan::Size;
    use topo_engine::core::analyze;
    use topo_engine::core::analyze::certify_rows;
    use topo_engine::model::{Behaviour, WorkloadKind};

    /// The small cluster with workloads: a Pod per endpoint behind its Service's Deployment, and
    /// certificates for every Auto Service, some holding and some with an exception; without the
    /// flag the same cluster has no workloads.
    #[test]
    fn small_cluster_with_workloads_certifies_every_auto_service() {
        let dir = tempfile::tempdir().unwrap();
        let (with, without) = (dir.path().join("w.json"), dir.path().join("plain.json"));
        let summary = generate::write_with(Size::preset("small").unwrap(), &with, true).unwrap();
        generate::write(Size::preset("small").unwrap(), &without).unwrap();
        let read = |p: &std::path::Path| {
            let text = std::fs::read_to_string(p).unwrap();
            kubectl_topo::source::dump::parse_dump(&text, "small").unwrap().snapshot
        };
        let snapshot = read(&with);
        assert_eq!(snapshot.workloads.pods.len(), summary.endpoints);
        let deployments = snapshot.workloads.workloads.iter().filter(|w| w.kind == WorkloadKind::Deployment);
        assert_eq!(deployments.count(), summary.services);
        assert!(read(&without).workloads.pods.is_empty());
        let services: Vec<_> = snapshot.services.iter().collect();
        let mut report = analyze::check(&snapshot, &services, Behaviour::default());
        certify_rows(&snapshot, &services, &mut report.services);
        let certified: Vec<_> = report.services.iter().filter_map(|r| r.certificates.as_deref()).collect();
        assert!(!certified.is_empty());
        assert!(certified.iter().all(|c| c.unknown.is_none() && c.workloads.len() == 1));
        assert!(certified.iter().any(|c| c.excepted()) && certified.iter().any(|c| !c.excepted()));
        let autoscaled =
            certified.iter().filter(|c| c.workloads[0].certificate.min < c.workloads[0].certificate.max);
        assert!(autoscaled.count() > 0, "some ranges come from an HPA");
    }
}

//! The Kubernetes objects of a plan, shaped like what a real cluster returns (EKS-style Nodes of
//! 5–10 KB with images, conditions and addresses; Services; controller-packed EndpointSlices).

use serde_json::{Value, json};

use crate::hints::{HintTable, ip, slice_name};
use crate::plan::{ClusterPlan, MAX_PER_SLICE, Mode, NODE_TYPES, NodePlan, Rng, ServicePlan};

const CREATED: &str = "2026-03-01T08:00:00Z";
const HEARTBEAT: &str = "2026-07-31T14:05:00Z";

const IMAGES: [&str; 24] = [
    "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni",
    "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni-init",
    "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/kube-proxy",
    "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/pause",
    "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/aws-ebs-csi-driver",
    "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/csi-node-driver-registrar",
    "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/livenessprobe",
    "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon/aws-network-policy-agent",
    "public.ecr.aws/eks-distro/kubernetes/pause",
    "quay.io/prometheus/node-exporter",
    "quay.io/cilium/cilium",
    "docker.io/fluent/fluent-bit",
    "registry.k8s.io/coredns/coredns",
    "registry.k8s.io/metrics-server/metrics-server",
    "registry.k8s.io/ingress-nginx/controller",
    "ghcr.io/example/checkout-api",
    "ghcr.io/example/payments-worker",
    "ghcr.io/example/catalog",
    "ghcr.io/example/frontend",
    "ghcr.io/example/search-indexer",
    "docker.io/library/redis",
    "docker.io/library/nginx",
    "docker.io/datadog/agent",
    "docker.io/istio/proxyv2",
];

fn labels(n: &NodePlan, instance: &str) -> Value {
    let mut labels = json!({
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": instance,
        "beta.kubernetes.io/os": "linux",
        "eks.amazonaws.com/capacityType": "ON_DEMAND",
        "eks.amazonaws.com/nodegroup": format!("ng-{}", n.zone),
        "eks.amazonaws.com/nodegroup-image": "ami-0c1b2a3d4e5f60718",
        "failure-domain.beta.kubernetes.io/region": "us-east-1",
        "failure-domain.beta.kubernetes.io/zone": n.zone,
        "k8s.io/cloud-provider-aws": "a94967527effcefb5f5829f529c0a1b9",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": n.name,
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": instance,
        "topology.ebs.csi.aws.com/zone": n.zone,
        "topology.k8s.aws/zone-id": format!("use1-az{}", n.zone.len() % 7 + 1),
        "topology.kubernetes.io/region": "us-east-1",
        "topology.kubernetes.io/zone": n.zone,
    });
    if n.control_plane {
        labels["node-role.kubernetes.io/control-plane"] = json!("");
    }
    labels
}

fn conditions(ready: bool) -> Value {
    let ok = |t: &str, reason: &str, message: &str| {
        json!({"type": t, "status": "False", "reason": reason, "message": message,
               "lastHeartbeatTime": HEARTBEAT, "lastTransitionTime": CREATED})
    };
    let readiness = if ready {
        json!({"type": "Ready", "status": "True", "reason": "KubeletReady",
               "message": "kubelet is posting ready status", "lastHeartbeatTime": HEARTBEAT,
               "lastTransitionTime": CREATED})
    } else {
        json!({"type": "Ready", "status": "Unknown", "reason": "NodeStatusUnknown",
               "message": "Kubelet stopped posting node status.", "lastHeartbeatTime": HEARTBEAT,
               "lastTransitionTime": HEARTBEAT})
    };
    json!([
        ok("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
        ok("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
        ok("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
        readiness,
    ])
}

pub fn node(n: &NodePlan, rng: &mut Rng) -> Value {
    let (cores, millis, instance) = NODE_TYPES[n.node_type];
    let memory_ki = cores as u64 * 4 * 1024 * 1024 - 600_000;
    // kubelet reports up to 50 images; 14 keep a Node in the 5–10 KB of the issue.
    let images: Vec<Value> = IMAGES
        .iter()
        .take(14)
        .map(|repo| {
            json!({"names": [format!("{repo}@sha256:{}", rng.hex(64)), format!("{repo}:v1.{}.{}", rng.below(30), rng.below(10))],
                   "sizeBytes": 10_000_000 + rng.below(400_000_000)})
        })
        .collect();
    let instance_id = format!("i-0{}", rng.hex(16));
    json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": {
                "alpha.kubernetes.io/provided-node-ip": ip(n.ip),
                "csi.volume.kubernetes.io/nodeid": format!("{{\"ebs.csi.aws.com\":\"{instance_id}\"}}"),
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true"
            },
            "creationTimestamp": CREATED,
            "labels": labels(n, instance),
            "name": n.name,
            "resourceVersion": format!("{}", 100_000 + rng.below(900_000)),
            "uid": rng.uid()
        },
        "spec": {"providerID": format!("aws:///{}/{instance_id}", n.zone)},
        "status": {
            "addresses": [
                {"address": ip(n.ip), "type": "InternalIP"},
                {"address": n.name, "type": "InternalDNS"},
                {"address": n.name, "type": "Hostname"}
            ],
            "allocatable": {"cpu": format!("{millis}m"), "ephemeral-storage": "95491281146",
                            "hugepages-1Gi": "0", "hugepages-2Mi": "0",
                            "memory": format!("{}Ki", memory_ki - 1_000_000), "pods": "110"},
            "capacity": {"cpu": format!("{cores}"), "ephemeral-storage": "104845292Ki",
                         "hugepages-1Gi": "0", "hugepages-2Mi": "0",
                         "memory": format!("{memory_ki}Ki"), "pods": "110"},
            "conditions": conditions(n.ready),
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "images": images,
            "nodeInfo": {
                "architecture": "amd64", "bootID": rng.uid(),
                "containerRuntimeVersion": "containerd://1.7.27",
                "kernelVersion": "6.1.141-155.222.amzn2023.x86_64", "kubeProxyVersion": "",
                "kubeletVersion": "v1.36.3-eks-1d2f3a4", "machineID": rng.hex(32),
                "operatingSystem": "linux", "osImage": "Amazon Linux 2023.8.20250808",
                "systemUUID": rng.uid()
            }
        }
    })
}

pub fn service(svc: &ServicePlan, uid: &str) -> Value {
    let mut annotations = json!({});
    let mut spec = json!({
        "clusterIP": ip(svc.cluster_ip), "clusterIPs": [ip(svc.cluster_ip)],
        "internalTrafficPolicy": "Cluster", "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack",
        "ports": [{"name": "http", "port": 80, "protocol": "TCP", "targetPort": 8080}],
        "selector": {"app.kubernetes.io/name": svc.name}, "sessionAffinity": "None", "type": "ClusterIP"
    });
    match svc.mode {
        Mode::Auto => annotations["service.kubernetes.io/topology-mode"] = json!("Auto"),
        Mode::PreferClose => spec["trafficDistribution"] = json!("PreferClose"),
        Mode::PreferSameZone => spec["trafficDistribution"] = json!("PreferSameZone"),
        Mode::PreferSameNode => spec["trafficDistribution"] = json!("PreferSameNode"),
        Mode::None => {}
    }
    json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {
            "annotations": annotations,
            "creationTimestamp": CREATED,
            "labels": {"app.kubernetes.io/name": svc.name, "app.kubernetes.io/part-of": svc.namespace},
            "name": svc.name, "namespace": svc.namespace, "resourceVersion": "4242", "uid": uid
        },
        "spec": spec,
        "status": {"loadBalancer": {}}
    })
}

/// Slice `k` of Service `s`: endpoints `100·k ..` in order, with the hints of `table`.
pub fn slice(
    plan: &ClusterPlan,
    s: usize,
    k: usize,
    service_uid: &str,
    table: &HintTable,
    rng: &mut Rng,
) -> Value {
    let svc = &plan.services[s];
    let chunk = svc.endpoints.chunks(MAX_PER_SLICE).nth(k).unwrap_or_default();
    let endpoints: Vec<Value> = chunk
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let node = &plan.nodes[e.node];
            let mut ep = json!({
                "addresses": [ip(e.ip)],
                "conditions": {"ready": e.ready, "serving": e.ready, "terminating": false},
                "nodeName": node.name,
                "targetRef": {"kind": "Pod", "name": e.pod, "namespace": svc.namespace, "uid": rng.uid()},
                "zone": node.zone
            });
            if let Some(h) = table.get(&(s, k, i)) {
                let mut hints = json!({});
                if let Some(z) = &h.for_zones {
                    hints["forZones"] = z.iter().map(|z| json!({"name": &**z})).collect();
                }
                if let Some(n) = &h.for_nodes {
                    hints["forNodes"] = n.iter().map(|n| json!({"name": &**n})).collect();
                }
                ep["hints"] = hints;
            }
            ep
        })
        .collect();
    json!({
        "addressType": "IPv4",
        "apiVersion": "discovery.k8s.io/v1",
        "endpoints": endpoints,
        "kind": "EndpointSlice",
        "metadata": {
            "annotations": {"endpoints.kubernetes.io/last-change-trigger-time": HEARTBEAT},
            "creationTimestamp": CREATED,
            "generateName": format!("{}-", svc.name),
            "generation": 1 + rng.below(20),
            "labels": {
                "app.kubernetes.io/name": svc.name,
                "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io",
                "kubernetes.io/service-name": svc.name
            },
            "name": slice_name(plan, s, k),
            "namespace": svc.namespace,
            "ownerReferences": [{"apiVersion": "v1", "blockOwnerDeletion": true, "controller": true,
                                 "kind": "Service", "name": svc.name, "uid": service_uid}],
            "resourceVersion": format!("{}", 100_000 + rng.below(900_000)),
            "uid": rng.uid()
        },
        "ports": [{"name": "http", "port": 8080, "protocol": "TCP"}]
    })
}

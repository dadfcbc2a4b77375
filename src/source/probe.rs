//! Short, best-effort questions for shell completion and `version`: Service names, namespaces,
//! nodes and zones, kubeconfig names, and the server version. A dump is read as usual; a live cluster is asked with the short timeout the
//! caller put in its `LiveSpec`.
//!
//! A live cluster is asked through `source::live` with the caller's `LiveSpec::request_timeout`;
//! when no cluster is configured or reachable the answer is "nothing" (no candidates, no server
//! line). Namespaces are those holding Services, so completion needs no permission beyond
//! `deploy/rbac.yaml` (no `list namespaces`).

use std::path::Path;

use k8s_openapi::api::core::v1::Service;
use kube::Api;
use kube::api::ListParams;

use super::SourceError;
use crate::source::{LiveSpec, SourceSpec};
use topo_engine::model::snapshot::LABEL_ZONE;
use topo_engine::model::{WorkloadKind, WorkloadObject};

fn dump_snapshot(spec: &SourceSpec) -> Result<topo_engine::model::Snapshot, SourceError> {
    let all = crate::source::Scope::AllNamespaces;
    let request =
        super::Request { scope: &all, service: None, nodes_only: false, whole: false, workloads: false };
    Ok(super::load(spec, request, &mut std::io::sink())?.snapshot)
}

/// Names of the Services in `namespace` (`None`: the default namespace of the source), sorted.
pub(crate) fn service_names(spec: &SourceSpec, namespace: Option<&str>) -> Result<Vec<String>, SourceError> {
    match spec {
        SourceSpec::Dump(_) => {
            let snapshot = dump_snapshot(spec)?;
            let namespace = namespace.unwrap_or("default");
            let mut names: Vec<String> =
                snapshot.services.into_iter().filter(|s| s.namespace == namespace).map(|s| s.name).collect();
            names.sort();
            names.dedup();
            Ok(names)
        }
        SourceSpec::Live(live) => live_service_names(live, namespace),
    }
}

/// Names of the Deployments, StatefulSets or Pods (`object`) in `namespace` (`None`: the default
/// namespace of the source), sorted: a dump's, or a live list of names only (RBAC-tolerant: a
/// refused list is no names).
pub(crate) fn workload_names(
    spec: &SourceSpec,
    namespace: Option<&str>,
    object: WorkloadObject,
) -> Result<Vec<String>, SourceError> {
    match spec {
        SourceSpec::Dump(_) => {
            let all = crate::source::Scope::AllNamespaces;
            let request = super::Request {
                scope: &all,
                service: None,
                nodes_only: false,
                whole: false,
                workloads: true,
            };
            let workloads = super::load(spec, request, &mut std::io::sink())?.snapshot.workloads;
            let namespace = namespace.unwrap_or("default");
            let names: Vec<String> = match object {
                WorkloadObject::Pods => {
                    workloads.pods.into_iter().filter(|p| p.namespace == namespace).map(|p| p.name).collect()
                }
                _ => {
                    let kind = if object == WorkloadObject::Deployments {
                        WorkloadKind::Deployment
                    } else {
                        WorkloadKind::StatefulSet
                    };
                    let ours = |w: &topo_engine::model::Workload| w.namespace == namespace && w.kind == kind;
                    workloads.workloads.into_iter().filter(ours).map(|w| w.name).collect()
                }
            };
            Ok(sorted(names.into_iter()))
        }
        SourceSpec::Live(live) => live_workload_names(live, namespace, object),
    }
}

/// Namespaces that hold Services, sorted.
pub(crate) fn namespaces(spec: &SourceSpec) -> Result<Vec<String>, SourceError> {
    match spec {
        SourceSpec::Dump(_) => {
            let snapshot = dump_snapshot(spec)?;
            let mut names: Vec<String> = snapshot.services.into_iter().map(|s| s.namespace).collect();
            names.sort();
            names.dedup();
            Ok(names)
        }
        SourceSpec::Live(live) => live_namespaces(live),
    }
}

/// Node names and the zones they are in, each sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct NodeNames {
    /// Node names.
    pub(crate) names: Vec<String>,
    /// Values of the nodes' `topology.kubernetes.io/zone` label.
    pub(crate) zones: Vec<String>,
}

/// The nodes of the dump, or of the live cluster (a list of Nodes only).
pub(crate) fn nodes(spec: &SourceSpec) -> Result<NodeNames, SourceError> {
    let all = crate::source::Scope::AllNamespaces;
    let request =
        super::Request { scope: &all, service: None, nodes_only: true, whole: false, workloads: false };
    let nodes = super::load(spec, request, &mut std::io::sink())?.snapshot.nodes;
    let zones = nodes.iter().filter_map(|n| n.labels.get(LABEL_ZONE).cloned());
    Ok(NodeNames { zones: sorted(zones), names: sorted(nodes.iter().map(|n| n.name.clone())) })
}

/// Which names of a kubeconfig.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KubeconfigPart {
    /// `contexts[].name` (`--context`).
    Contexts,
    /// `clusters[].name` (`--cluster`).
    Clusters,
    /// `users[].name` (`--user`).
    Users,
}

/// Names of the kubeconfig at `path` (else `KUBECONFIG` merged, else `~/.kube/config`), in file
/// order.
pub(crate) fn kubeconfig_names(
    path: Option<&Path>,
    part: KubeconfigPart,
) -> Result<Vec<String>, SourceError> {
    let kubeconfig = super::live::read_kubeconfig(path)?;
    Ok(match part {
        KubeconfigPart::Contexts => kubeconfig.contexts.into_iter().map(|c| c.name).collect(),
        KubeconfigPart::Clusters => kubeconfig.clusters.into_iter().map(|c| c.name).collect(),
        KubeconfigPart::Users => kubeconfig.auth_infos.into_iter().map(|u| u.name).collect(),
    })
}

/// The server's `gitVersion` (e.g. `v1.36.3`); `None` when no cluster is configured at all (no
/// kubeconfig, not in a Pod). A configured cluster that does not answer within the request
/// timeout, or answers as no API server would, is the error.
pub(crate) fn server_version(live: &LiveSpec) -> Result<Option<String>, SourceError> {
    let version = block_on(async {
        let conn = super::live::connect(live).await?;
        super::live::server_version(&conn).await
    });
    match version {
        Ok(version) => Ok(Some(version)),
        Err(SourceError::NoKubeconfig(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// What completion reads of an object: its name and namespace (nothing else is decoded).
#[derive(serde::Deserialize)]
struct Named {
    // Absent or `null` reads as empty, as k8s-openapi reads it.
    #[serde(default, deserialize_with = "super::live::null_as_default")]
    metadata: NamedMeta,
}

#[derive(serde::Deserialize, Default)]
struct NamedMeta {
    name: Option<String>,
    namespace: Option<String>,
}

/// Names of the Services in `namespace` (the kubeconfig context's namespace when `None`).
fn live_service_names(live: &LiveSpec, namespace: Option<&str>) -> Result<Vec<String>, SourceError> {
    block_on(async {
        let conn = super::live::connect(live).await?;
        let namespace = namespace.unwrap_or(&conn.default_namespace).to_string();
        let api: Api<Service> = Api::namespaced(conn.client.clone(), &namespace);
        let action = format!("list services in namespace {namespace}");
        let services: Vec<Named> = super::live::list_all(&conn, &api, ListParams::default(), &action).await?;
        Ok(sorted(services.into_iter().filter_map(|s| s.metadata.name)))
    })
}

/// Names of `object` in `namespace` (the kubeconfig context's namespace when `None`).
fn live_workload_names(
    live: &LiveSpec,
    namespace: Option<&str>,
    object: WorkloadObject,
) -> Result<Vec<String>, SourceError> {
    use k8s_openapi::api::apps::v1::{Deployment, StatefulSet};
    use k8s_openapi::api::core::v1::Pod;
    block_on(async {
        let conn = super::live::connect(live).await?;
        let namespace = namespace.unwrap_or(&conn.default_namespace).to_string();
        let client = conn.client.clone();
        let named: Vec<Named> = match object {
            WorkloadObject::Deployments => {
                let api: Api<Deployment> = Api::namespaced(client, &namespace);
                let action = format!("list deployments in namespace {namespace}");
                super::live::list_all(&conn, &api, ListParams::default(), &action).await?
            }
            WorkloadObject::StatefulSets => {
                let api: Api<StatefulSet> = Api::namespaced(client, &namespace);
                let action = format!("list statefulsets in namespace {namespace}");
                super::live::list_all(&conn, &api, ListParams::default(), &action).await?
            }
            _ => {
                let api: Api<Pod> = Api::namespaced(client, &namespace);
                let action = format!("list pods in namespace {namespace}");
                super::live::list_all(&conn, &api, ListParams::default(), &action).await?
            }
        };
        Ok(sorted(named.into_iter().filter_map(|n| n.metadata.name)))
    })
}

/// The namespaces of a cluster-wide Service list (no `list namespaces` permission needed).
fn live_namespaces(live: &LiveSpec) -> Result<Vec<String>, SourceError> {
    block_on(async {
        let conn = super::live::connect(live).await?;
        let api: Api<Service> = Api::all(conn.client.clone());
        let services: Vec<Named> =
            super::live::list_all(&conn, &api, ListParams::default(), "list services at cluster scope")
                .await?;
        Ok(sorted(services.into_iter().filter_map(|s| s.metadata.namespace)))
    })
}

fn sorted(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut items: Vec<String> = items.collect();
    items.sort();
    items.dedup();
    items
}

/// Run one probe on a current-thread runtime (the probes are short and sequential).
fn block_on<T>(future: impl std::future::Future<Output = Result<T, SourceError>>) -> Result<T, SourceError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(SourceError::Runtime)?
        .block_on(future)
}

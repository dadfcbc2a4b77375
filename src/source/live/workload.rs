//! The workload reads of a live cluster (`convert::workload`): Pods, Deployments, StatefulSets,
//! ReplicaSets and autoscaling/v2 HorizontalPodAutoscalers, each listed in pages and decoded lean,
//! side by side, best effort — a 403 is `Forbidden`, a 404 (autoscaling/v2 not served) `Absent`,
//! any other failure `Failed` after the request's own timeout and retries. None fails the command.
//! For one Service only its Pods are listed (by its selector, which the EndpointSlice controller
//! made its endpoints from); in a namespace or across namespaces, every Pod of the scope.

use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler;
use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::ListParams;
use serde::de::DeserializeOwned;
use topo_engine::model::{ReadStatus, WorkloadKind, Workloads};

use super::{Connection, list_all};
use crate::source::SourceError;
use crate::source::convert::workload::{Found, LeanHpa, LeanPod, LeanWorkload, WORKLOAD_KINDS};

/// Which Pods to list: all of the scope, or those of one Service's selector (`None`: a Service
/// without a selector, whose endpoints are not the controller's: no Pod is listed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pods {
    /// Every Pod of the scope.
    All,
    /// The Pods a label selector (`app=web,tier=fe`) selects.
    Selected(Option<String>),
}

/// Every workload read of `namespace` (`None`: all namespaces), side by side.
pub(crate) async fn read_all(conn: &Connection, namespace: Option<&str>, pods: &Pods) -> Workloads {
    let scope = match namespace {
        Some(ns) => format!("in namespace {ns:?}"),
        None => "at cluster scope".to_string(),
    };
    let pod_params = match pods {
        Pods::All => Some(ListParams::default()),
        Pods::Selected(Some(selector)) => Some(ListParams::default().labels(selector)),
        Pods::Selected(None) => None,
    };
    let pods = async {
        match pod_params {
            Some(params) => list::<Pod, LeanPod>(conn, namespace, params, format!("list pods {scope}")).await,
            None => (ReadStatus::Read, Vec::new()),
        }
    };
    let all = ListParams::default;
    let (pods, deployments, stateful_sets, replica_sets, hpas) = tokio::join!(
        pods,
        list::<Deployment, LeanWorkload>(conn, namespace, all(), format!("list deployments.apps {scope}")),
        list::<StatefulSet, LeanWorkload>(conn, namespace, all(), format!("list statefulsets.apps {scope}")),
        list::<ReplicaSet, LeanWorkload>(conn, namespace, all(), format!("list replicasets.apps {scope}")),
        list::<HorizontalPodAutoscaler, LeanHpa>(
            conn,
            namespace,
            all(),
            format!("list horizontalpodautoscalers.autoscaling {scope}")
        ),
    );
    let kinds = [
        (deployments, WorkloadKind::Deployment),
        (stateful_sets, WorkloadKind::StatefulSet),
        (replica_sets, WorkloadKind::ReplicaSet),
    ];
    let statuses = [pods.0, kinds[0].0.0, kinds[1].0.0, kinds[2].0.0, hpas.0];
    let mut found: Vec<Found> = pods.1.into_iter().map(|p| Found::Pod(p.into_model())).collect();
    for ((_, items), kind) in kinds {
        found.extend(items.into_iter().map(|w| Found::Workload(w.into_model(kind))));
    }
    found.extend(hpas.1.into_iter().map(|h| Found::Hpa(h.into_model())));
    assemble(found, statuses)
}

/// The model of what was found, with each read's status (in [`WORKLOAD_KINDS`] order).
fn assemble(found: Vec<Found>, statuses: [ReadStatus; 5]) -> Workloads {
    let mut workloads = Workloads::default();
    found.into_iter().for_each(|f| f.apply(&mut workloads));
    workloads.reads = WORKLOAD_KINDS.iter().map(|(_, _, o)| *o).zip(statuses).collect();
    workloads
}

/// One list, paged and decoded into `T`; its status.
async fn list<K, T>(
    conn: &Connection,
    namespace: Option<&str>,
    params: ListParams,
    action: String,
) -> (ReadStatus, Vec<T>)
where
    K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope>,
    <K as kube::Resource>::DynamicType: Default,
    T: DeserializeOwned,
{
    let api: Api<K> = match namespace {
        Some(ns) => Api::namespaced(conn.client.clone(), ns),
        None => Api::all(conn.client.clone()),
    };
    match list_all(conn, &api, params, &action).await {
        Ok(items) => (ReadStatus::Read, items),
        Err(e) => (status_of(&e), Vec::new()),
    }
}

fn status_of(error: &SourceError) -> ReadStatus {
    if error.is_api_status(403) {
        ReadStatus::Forbidden
    } else if error.is_api_status(404) {
        ReadStatus::Absent
    } else {
        ReadStatus::Failed
    }
}

//! The optional reads of a live cluster (`convert::optional::OPTIONAL_READS`): each object got by
//! name, side by side, best effort — a 404 is `Absent`, a 403 `Forbidden` (most users may not read
//! kube-system; deploy/rbac.yaml grants `get` on these names only), any other failure `Failed`
//! after the request's own timeout and retries. None of them fails the command.

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::{DaemonSet, Deployment};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::Api;
use topo_engine::model::{OptionalObject, ReadStatus};

use super::{Connection, get_opt};
use crate::source::SourceError;
use crate::source::convert::optional::{self, OPTIONAL_READS, ObjectKind, OptionalRead};

/// What the optional reads found: the objects (reduced to what is read) and every read's status.
#[derive(Debug, Default)]
pub(super) struct Found {
    pub(super) config_maps: Vec<ConfigMap>,
    pub(super) daemon_sets: Vec<DaemonSet>,
    /// The front doors' lists (`live/frontdoor.rs`), lean.
    pub(super) front_doors: topo_engine::model::FrontDoors,
    pub(super) reads: BTreeMap<OptionalObject, ReadStatus>,
}

enum Object {
    ConfigMap(Box<ConfigMap>),
    DaemonSet(Box<DaemonSet>),
    Deployment(Box<Deployment>),
}

/// Every optional read, and the front doors' lists, `width` at a time (a one-shot read: all side
/// by side; `serve`'s periodic re-read: one at a time, one more connection at most).
pub(super) async fn read_all(conn: &Connection, width: usize) -> Found {
    use futures::StreamExt;
    // By index: a closure over `&OptionalRead` is not general enough for a `Send` stream.
    let reads = futures::stream::iter(0..OPTIONAL_READS.len()).map(|i| read_one(conn, &OPTIONAL_READS[i]));
    let gets = reads.buffered(width).collect::<Vec<_>>();
    let lists = super::frontdoor::read_all(conn, width);
    let (gets, (front_doors, lists)) =
        if width > 1 { futures::future::join(gets, lists).await } else { (gets.await, lists.await) };
    let mut found = Found { front_doors, reads: lists, ..Found::default() };
    for (read, (status, object)) in OPTIONAL_READS.iter().zip(gets) {
        // One object may be looked for in two places (OVN-Kubernetes'): the most telling wins.
        let merged = found.reads.get(&read.object).map_or(status, |s| optional::merge(*s, status));
        found.reads.insert(read.object, merged);
        match object {
            Some(Object::ConfigMap(cm)) => found.config_maps.push(optional::reduce_config_map(read, *cm)),
            Some(Object::DaemonSet(ds)) => found.daemon_sets.push(reduce_daemon_set(*ds)),
            // The model holds what is read of it (image, flag); `dump` writes it back from there.
            Some(Object::Deployment(d)) => {
                let (ns, name) =
                    (d.metadata.namespace.as_deref().unwrap_or(""), d.metadata.name.as_deref().unwrap_or(""));
                let containers = deployment_containers(&d);
                if let Some(optional::Found::IngressNginx(c)) =
                    optional::from_deployment(ns, name, &containers)
                {
                    found.front_doors.ingress_nginx = Some(c);
                }
            }
            None => {}
        }
    }
    found
}

/// One read: its names in order, the first found wins; otherwise the most telling status
/// (forbidden, then failed, then absent).
async fn read_one(conn: &Connection, read: &OptionalRead) -> (ReadStatus, Option<Object>) {
    let mut status = ReadStatus::Absent;
    for name in read.names {
        let got = match read.kind {
            ObjectKind::ConfigMap => get(conn, read.namespace, name, "configmaps")
                .await
                .map(|o| o.map(|cm| Object::ConfigMap(Box::new(cm)))),
            ObjectKind::DaemonSet => get(conn, read.namespace, name, "daemonsets.apps")
                .await
                .map(|o| o.map(|ds| Object::DaemonSet(Box::new(ds)))),
            ObjectKind::Deployment => get(conn, read.namespace, name, "deployments.apps")
                .await
                .map(|o| o.map(|d| Object::Deployment(Box::new(d)))),
        };
        match got {
            Ok(Some(object)) => return (ReadStatus::Read, Some(object)),
            Ok(None) => {}
            Err(e) if e.is_api_status(403) => status = ReadStatus::Forbidden,
            Err(_) if status != ReadStatus::Forbidden => status = ReadStatus::Failed,
            Err(_) => {}
        }
    }
    (status, None)
}

async fn get<K>(
    conn: &Connection,
    namespace: &str,
    name: &str,
    resource: &str,
) -> Result<Option<K>, SourceError>
where
    K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope> + serde::de::DeserializeOwned,
    <K as kube::Resource>::DynamicType: Default,
{
    let api: Api<K> = Api::namespaced(conn.client.clone(), namespace);
    get_opt(conn, &api, name, &format!("get {resource} {name:?} in namespace {namespace:?}")).await
}

/// A Deployment's containers as `(name, image, args)`.
fn deployment_containers(d: &Deployment) -> Vec<optional::Container> {
    let spec = d.spec.as_ref().and_then(|s| s.template.spec.as_ref());
    let containers = spec.map(|s| s.containers.as_slice()).unwrap_or_default();
    containers.iter().map(|c| (c.name.clone(), c.image.clone(), c.args.clone().unwrap_or_default())).collect()
}

/// A DaemonSet with only its name and its containers' names and images.
fn reduce_daemon_set(ds: DaemonSet) -> DaemonSet {
    let (namespace, name) =
        (ds.metadata.namespace.clone().unwrap_or_default(), ds.metadata.name.clone().unwrap_or_default());
    let item = optional::daemon_set_item(&namespace, &name, &optional::containers_of(&ds));
    serde_json::from_value(item).unwrap_or_default()
}

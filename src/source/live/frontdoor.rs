//! The front-door lists of a live cluster (`convert::frontdoor::FRONT_LISTS`): each kind listed
//! across namespaces in pages of 500, items decoded lean (a few fields each), side by side with
//! the other optional reads, best effort — a 404 (the CRD is not installed) is `Absent`, a 403
//! `Forbidden`, any other failure `Failed`. None of them fails the command. The front doors' Pods
//! are listed the same way, by label selector.

use std::collections::BTreeMap;

use kube::Api;
use kube::api::{ApiResource, DynamicObject, ListParams};
use topo_engine::model::{DataPlane, FrontDoors, FrontPod, OptionalObject, ReadStatus};

use super::{Connection, list_all};
use crate::source::convert::frontdoor::{
    FRONT_LISTS, FRONT_POD_SELECTORS, FrontList, LeanItem, LeanPod, front_object,
};
use crate::source::convert::optional;

/// Every front-door list, `width` at a time: what they hold, and each list's status.
pub(super) async fn read_all(
    conn: &Connection,
    width: usize,
) -> (FrontDoors, BTreeMap<OptionalObject, ReadStatus>) {
    use futures::StreamExt;
    // By index: a closure over `&FrontList` is not general enough for a `Send` stream.
    let lists = futures::stream::iter(0..FRONT_LISTS.len()).map(|i| read_one(conn, &FRONT_LISTS[i]));
    let answers: Vec<_> = lists.buffered(width).collect().await;
    let mut data_plane = DataPlane::default();
    let mut reads = BTreeMap::new();
    for (list, (status, items)) in FRONT_LISTS.iter().zip(answers) {
        reads.insert(list.object, status);
        for item in items {
            front_object(list.kind, item).apply(&mut data_plane);
        }
    }
    // Their Pods only when a Service may stand behind them (most clusters have no Ingress or route).
    let doors = &mut data_plane.front_doors;
    if !doors.ingresses.is_empty() || !doors.routes.is_empty() {
        let (status, pods) = read_pods(conn).await;
        reads.insert(OptionalObject::FrontDoorPods, status);
        doors.pods = pods;
    }
    (data_plane.front_doors, reads)
}

/// The front doors' Pods (`convert::frontdoor::FRONT_POD_SELECTORS`): two lists across namespaces
/// by label selector, one after the other (a few Pods each), the most telling status of the two;
/// read and none found is `Absent`, which a dump records.
async fn read_pods(conn: &Connection) -> (ReadStatus, Vec<FrontPod>) {
    let resource = ApiResource {
        group: String::new(),
        version: "v1".to_string(),
        api_version: "v1".to_string(),
        kind: "Pod".to_string(),
        plural: "pods".to_string(),
    };
    let api: Api<DynamicObject> = Api::all_with(conn.client.clone(), &resource);
    let (mut status, mut pods) = (None, Vec::new());
    for selector in FRONT_POD_SELECTORS {
        let action = format!("list pods -l {selector}");
        let params = ListParams::default().labels(selector);
        let one = match list_all::<DynamicObject, LeanPod>(conn, &api, params, &action).await {
            Ok(items) => {
                pods.extend(items.into_iter().filter_map(LeanPod::into_model));
                ReadStatus::Read
            }
            Err(e) if e.is_api_status(403) => ReadStatus::Forbidden,
            Err(_) => ReadStatus::Failed,
        };
        status = Some(status.map_or(one, |s| optional::merge(s, one)));
    }
    // A Pod both selectors match is listed twice.
    pods.sort_by(|a, b| a.pod.cmp(&b.pod));
    pods.dedup_by(|a, b| a.pod == b.pod);
    let status = status.unwrap_or(ReadStatus::Failed);
    (if status == ReadStatus::Read && pods.is_empty() { ReadStatus::Absent } else { status }, pods)
}

async fn read_one(conn: &Connection, list: &FrontList) -> (ReadStatus, Vec<LeanItem>) {
    let resource = ApiResource {
        group: list.group.to_string(),
        version: list.version.to_string(),
        api_version: list.api_version(),
        kind: list.name.to_string(),
        plural: list.plural.to_string(),
    };
    let api: Api<DynamicObject> = Api::all_with(conn.client.clone(), &resource);
    let action = format!("list {}", list.plural);
    match list_all::<DynamicObject, LeanItem>(conn, &api, ListParams::default(), &action).await {
        Ok(items) => (ReadStatus::Read, items),
        Err(e) if e.is_api_status(404) => (ReadStatus::Absent, Vec::new()),
        Err(e) if e.is_api_status(403) => (ReadStatus::Forbidden, Vec::new()),
        Err(_) => (ReadStatus::Failed, Vec::new()),
    }
}

//! The front-door lists of a live cluster (`convert::frontdoor::FRONT_LISTS`): each kind listed
//! across namespaces in pages of 500, items decoded lean (a few fields each), side by side with
//! the other optional reads, best effort — a 404 (the CRD is not installed) is `Absent`, a 403
//! `Forbidden`, any other failure `Failed`. None of them fails the command.

use std::collections::BTreeMap;

use kube::Api;
use kube::api::{ApiResource, DynamicObject, ListParams};
use topo_engine::model::{DataPlane, FrontDoors, OptionalObject, ReadStatus};

use super::{Connection, list_all};
use crate::source::convert::frontdoor::{FRONT_LISTS, FrontList, LeanItem, front_object};

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
    (data_plane.front_doors, reads)
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

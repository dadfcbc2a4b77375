//! One shared string per distinct zone and node name.
//!
//! A million endpoints name six zones and a few tens of thousands of nodes; each endpoint used to
//! hold its own copy of both, and of the zone and node names in its hints (four strings, each with
//! its own allocation). Readers pass every EndpointSlice through [`Names::share_slice`] as they
//! read it, so all endpoints on a node point at one string. Values and order are unchanged: only
//! where the bytes live.

use std::collections::HashSet;
use std::sync::Arc;

use super::snapshot::{EndpointSlice, Hints, Snapshot};

/// The names seen so far, each stored once.
#[derive(Debug, Default, Clone)]
pub struct Names {
    seen: HashSet<Arc<str>, foldhash::fast::RandomState>,
}

impl Names {
    /// The shared string equal to `name`, stored on first sight.
    pub fn get(&mut self, name: &str) -> Arc<str> {
        if let Some(shared) = self.seen.get(name) {
            return Arc::clone(shared);
        }
        let shared: Arc<str> = Arc::from(name);
        self.seen.insert(Arc::clone(&shared));
        shared
    }

    /// Points `name` at the shared string equal to it.
    fn share(&mut self, name: &mut Arc<str>) {
        let shared = self.get(name);
        *name = shared;
    }

    /// Every zone and node name of `slice`'s endpoints and their hints, shared.
    pub fn share_slice(&mut self, slice: &mut EndpointSlice) {
        slice_names_mut(slice, |name| self.share(name));
    }

    /// Every EndpointSlice of `snapshot`, shared (for Snapshots not built through a reader that
    /// shares as it reads).
    pub fn share_snapshot(&mut self, snapshot: &mut Snapshot) {
        for slice in &mut snapshot.slices {
            self.share_slice(slice);
        }
    }

    /// How many distinct names are stored.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// True when no name is stored.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

/// Calls `f` on every zone and node name of `slice`'s endpoints and their hints: what a set of
/// shared names (this one, or `serve`'s, which also forgets names) points at one string each.
pub fn slice_names_mut(slice: &mut EndpointSlice, mut f: impl FnMut(&mut Arc<str>)) {
    for endpoint in &mut slice.endpoints {
        endpoint.zone.iter_mut().chain(endpoint.node_name.iter_mut()).for_each(&mut f);
        if let Some(Hints { for_zones, for_nodes }) = &mut endpoint.hints {
            for_zones.iter_mut().chain(for_nodes.iter_mut()).flatten().for_each(&mut f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Endpoint;

    fn endpoint(zone: &str, node: &str) -> Endpoint {
        Endpoint {
            addresses: vec!["10.0.0.1".into()].into(),
            ready: Some(true),
            serving: Some(true),
            terminating: Some(false),
            node_name: Some(node.into()),
            zone: Some(zone.into()),
            hints: Some(Hints {
                for_zones: Some(vec![zone.into()].into()),
                for_nodes: Some(vec![node.into()].into()),
            }),
        }
    }

    fn slice(endpoints: Vec<Endpoint>) -> EndpointSlice {
        EndpointSlice {
            namespace: "default".into(),
            name: "web-abc".into(),
            service_name: Some("web".into()),
            managed_by: None,
            address_type: "IPv4".into(),
            ports: vec![],
            endpoints,
        }
    }

    #[test]
    fn endpoints_on_one_node_share_one_string_per_name() {
        let mut names = Names::default();
        let mut a = slice(vec![endpoint("zone-a", "node-1"), endpoint("zone-a", "node-1")]);
        let mut b = slice(vec![endpoint("zone-a", "node-2")]);
        let before = (a.clone(), b.clone());
        names.share_slice(&mut a);
        names.share_slice(&mut b);
        assert_eq!((a.clone(), b.clone()), before, "sharing changes no value");
        assert_eq!(names.len(), 3);
        let zone = |e: &Endpoint| e.zone.clone().unwrap();
        let node = |e: &Endpoint| e.node_name.clone().unwrap();
        let hinted_zone = |e: &Endpoint| e.hints.as_ref().unwrap().for_zones.as_ref().unwrap()[0].clone();
        let hinted_node = |e: &Endpoint| e.hints.as_ref().unwrap().for_nodes.as_ref().unwrap()[0].clone();
        let (first, second, other) = (&a.endpoints[0], &a.endpoints[1], &b.endpoints[0]);
        assert!(Arc::ptr_eq(&zone(first), &zone(second)));
        assert!(Arc::ptr_eq(&zone(first), &zone(other)));
        assert!(Arc::ptr_eq(&zone(first), &hinted_zone(other)));
        assert!(Arc::ptr_eq(&node(first), &node(second)));
        assert!(Arc::ptr_eq(&node(first), &hinted_node(second)));
        assert!(!Arc::ptr_eq(&node(first), &node(other)));
    }

    #[test]
    fn shared_names_read_and_write_as_plain_strings() {
        let e = endpoint("zone-a", "node-1");
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json["zone"], "zone-a");
        assert_eq!(json["nodeName"], "node-1");
        assert_eq!(json["hints"]["forZones"], serde_json::json!(["zone-a"]));
        assert_eq!(serde_json::from_value::<Endpoint>(json).unwrap(), e);
        let bare = serde_json::json!({"addresses": [], "ready": null, "serving": null, "terminating": null,
                                      "hints": {}});
        let read: Endpoint = serde_json::from_value(bare).unwrap();
        assert_eq!((read.zone, read.node_name), (None, None), "absent names are None");
        assert_eq!(read.hints, Some(Hints::default()));
    }

    #[test]
    fn an_endpoint_record_stays_lean() {
        // A million of these on the largest clusters: the names are shared pointers (16 bytes),
        // not strings of their own (24 bytes plus an allocation each), and the lists boxed slices
        // (16 bytes, not a `Vec`'s 24): 96 bytes, 112 before.
        assert!(std::mem::size_of::<Endpoint>() <= 96, "{}", std::mem::size_of::<Endpoint>());
        assert_eq!(std::mem::size_of::<Option<Arc<str>>>(), 16);
    }

    #[test]
    fn absent_and_empty_hints_stay_as_they_were() {
        let mut names = Names::default();
        let mut e = endpoint("z", "n");
        e.hints = Some(Hints { for_zones: Some(vec![].into()), for_nodes: None });
        let mut s = slice(vec![e.clone(), Endpoint { hints: None, zone: None, node_name: None, ..e }]);
        let before = s.clone();
        names.share_slice(&mut s);
        assert_eq!(s, before);
        assert_eq!(names.len(), 2);
    }
}

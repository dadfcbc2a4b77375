//! The objects `serve` holds in memory, fed by watch events, and which Services a change affects.
//! Pure: the watchers in `serve::follow` turn API events into [`Change`]s; nothing here reads the
//! network or the clock.

use std::collections::{BTreeMap, BTreeSet};

use topo_engine::model::{EndpointSlice, Node, Service};

use super::names::Names;

/// A Service (or slice) by namespace and name.
pub type Key = (String, String);

/// One watched object, already converted to the engine's model.
#[derive(Debug, Clone, PartialEq)]
pub enum Object {
    /// A Node.
    Node(Node),
    /// A Service.
    Service(Service),
    /// An EndpointSlice.
    Slice(EndpointSlice),
}

/// The watched resources.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, strum::IntoStaticStr, strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum Resource {
    /// Nodes.
    Nodes,
    /// Services.
    Services,
    /// EndpointSlices.
    EndpointSlices,
}

/// A change seen by a watch.
// Each change is moved once, from the watch to the state: boxing the large variant would only add
// an allocation per event.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// An object was added or modified.
    Applied(Object),
    /// An object was deleted (Nodes have an empty namespace).
    Deleted(Resource, Key),
    /// A (re)list finished: these are all the objects of that resource now (after a 410 Gone or a
    /// reconnect the watcher lists again, and what is not listed is gone).
    Listed(Resource, Vec<Object>),
}

/// What a change touched: Services to recompute, and whether the node side changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Touched {
    /// Services whose own objects (the Service, its slices) changed.
    pub services: BTreeSet<Key>,
    /// The engine's view of the Nodes changed: zone weights and kube-proxy's zones are recomputed,
    /// and with them every Service.
    pub nodes: bool,
}

impl Touched {
    /// Merge another change's effects.
    pub fn merge(&mut self, other: Touched) {
        self.services.extend(other.services);
        self.nodes |= other.nodes;
    }
}

/// The Nodes, sorted by name, each name once: the engine's input as it stands (a Snapshot's
/// `nodes`), so a recompute borrows them ([`Nodes::lend`]) instead of holding a second copy. At
/// 130,000 Nodes a copy (and a map's keys) was tens of megabytes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Nodes(Vec<Node>);

impl Nodes {
    fn find(&self, name: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|n| n.name.as_str().cmp(name))
    }

    /// The Node named `name`.
    pub fn get(&self, name: &str) -> Option<&Node> {
        self.find(name).ok().map(|i| &self.0[i])
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// In name order.
    pub fn values(&self) -> std::slice::Iter<'_, Node> {
        self.0.iter()
    }

    /// The names, in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|n| &n.name)
    }

    /// The Nodes as a Snapshot holds them, for the length of a computation; give them back with
    /// [`Nodes::restore`].
    pub fn lend(&mut self) -> Vec<Node> {
        std::mem::take(&mut self.0)
    }

    /// Take back what [`Nodes::lend`] lent.
    pub fn restore(&mut self, nodes: Vec<Node>) {
        self.0 = nodes;
    }

    fn insert(&mut self, node: Node) -> Option<Node> {
        match self.find(&node.name) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i], node)),
            Err(i) => {
                self.0.insert(i, node);
                None
            }
        }
    }

    fn remove(&mut self, name: &str) -> Option<Node> {
        self.find(name).ok().map(|i| self.0.remove(i))
    }

    /// Every Node at once (a relist): sorted once, the last of a name kept, as one insert after
    /// another would keep it. True when the engine can tell the new set from the old.
    fn replace(&mut self, mut nodes: Vec<Node>) -> bool {
        nodes.reverse();
        nodes.sort_by(|a, b| a.name.cmp(&b.name));
        nodes.dedup_by(|later, first| later.name == first.name);
        // A list collected in place keeps the capacity of the list of objects it came from.
        exact(&mut nodes);
        let changed = nodes.len() != self.0.len()
            || nodes.iter().zip(&self.0).any(|(new, old)| !same_for_engine(new, old));
        self.0 = nodes;
        changed
    }
}

/// Every watched object, keyed by name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Store {
    /// Nodes, by name.
    pub nodes: Nodes,
    /// Services by (namespace, name).
    pub services: BTreeMap<Key, Service>,
    /// EndpointSlices by (namespace, name).
    pub slices: BTreeMap<Key, EndpointSlice>,
    /// Slice names by the Service they are labelled for, sorted (a Service has one slice or a
    /// few: a set's first node alone was 280 bytes each).
    by_service: BTreeMap<Key, Vec<String>>,
    /// The zone and node names the slices' endpoints share.
    names: Names,
}

/// The Service a slice is labelled for.
fn owner(slice: &EndpointSlice) -> Option<Key> {
    slice.service_name.as_ref().map(|name| (slice.namespace.clone(), name.clone()))
}

/// Two Nodes that the engine cannot tell apart (a heartbeat or a kubelet upgrade changes nothing
/// it computes; the version to model is chosen once, at start).
fn same_for_engine(a: &Node, b: &Node) -> bool {
    a.name == b.name && a.labels == b.labels && a.allocatable_cpu == b.allocatable_cpu && a.ready == b.ready
}

impl Store {
    /// Apply one change and say what it touched.
    pub fn apply(&mut self, change: Change) -> Touched {
        match change {
            Change::Applied(object) => self.put(object),
            Change::Deleted(resource, key) => self.forget(resource, &key),
            Change::Listed(resource, objects) => self.relist(resource, objects),
        }
    }

    /// The slices labelled for a Service, sorted by name.
    pub fn slices_of(&self, service: &Key) -> impl Iterator<Item = &EndpointSlice> {
        let names = self.by_service.get(service).into_iter().flatten();
        names.filter_map(|name| self.slices.get(&(service.0.clone(), name.clone())))
    }

    /// The given Services and their slices (in that order, each Service's sorted by name), taken
    /// out for the length of a computation rather than copied; give them back with
    /// [`Store::restore`] and the same keys. Each leaves an empty object in its place meanwhile:
    /// taken and put back in place, not removed from the maps and inserted again (which
    /// rebalanced two B-trees and made every key again, at each change).
    pub fn lend(&mut self, services: &[&Key]) -> (Vec<Service>, Vec<EndpointSlice>) {
        let mut lent = (Vec::with_capacity(services.len()), Vec::new());
        for key in services {
            lent.0.extend(self.services.get_mut(*key).map(std::mem::take));
            for name in self.by_service.get(*key).into_iter().flatten() {
                lent.1.extend(self.slices.get_mut(&(key.0.clone(), name.clone())).map(std::mem::take));
            }
        }
        lent
    }

    /// Take back what [`Store::lend`] lent for the same `services`.
    pub fn restore(&mut self, services: &[&Key], lent: (Vec<Service>, Vec<EndpointSlice>)) {
        let (mut objects, mut slices) = (lent.0.into_iter(), lent.1.into_iter());
        for key in services {
            if let Some(place) = self.services.get_mut(*key) {
                *place = objects.next().unwrap_or_default();
            }
            for name in self.by_service.get(*key).into_iter().flatten() {
                if let Some(place) = self.slices.get_mut(&(key.0.clone(), name.clone())) {
                    *place = slices.next().unwrap_or_default();
                }
            }
        }
    }

    fn put(&mut self, object: Object) -> Touched {
        let mut touched = Touched::default();
        match object {
            Object::Node(node) => {
                let old = self.nodes.get(&node.name);
                touched.nodes = old.is_none_or(|old| !same_for_engine(old, &node));
                self.nodes.insert(node);
            }
            Object::Service(mut service) => {
                exact(&mut service.ports);
                exact(&mut service.ip_families);
                let key = (service.namespace.clone(), service.name.clone());
                if self.services.get(&key) != Some(&service) {
                    self.services.insert(key.clone(), service);
                    touched.services.insert(key);
                }
            }
            Object::Slice(mut slice) => {
                self.names.share_slice(&mut slice);
                exact(&mut slice.endpoints);
                let key = (slice.namespace.clone(), slice.name.clone());
                if self.slices.get(&key) == Some(&slice) {
                    return touched;
                }
                touched.services.extend(self.remove_slice(&key));
                touched.services.extend(owner(&slice));
                if let Some(service) = owner(&slice) {
                    let names = self.by_service.entry(service).or_default();
                    if let Err(at) = names.binary_search(&slice.name) {
                        names.insert(at, slice.name.clone());
                    }
                }
                self.slices.insert(key, slice);
            }
        }
        touched
    }

    fn forget(&mut self, resource: Resource, key: &Key) -> Touched {
        let mut touched = Touched::default();
        match resource {
            Resource::Nodes => touched.nodes = self.nodes.remove(&key.1).is_some(),
            Resource::Services => {
                if self.services.remove(key).is_some() {
                    touched.services.insert(key.clone());
                }
            }
            Resource::EndpointSlices => touched.services.extend(self.remove_slice(key)),
        }
        touched
    }

    /// Remove a slice; the Service it was labelled for, if any.
    fn remove_slice(&mut self, key: &Key) -> Option<Key> {
        let old = self.slices.remove(key)?;
        let service = owner(&old)?;
        if let Some(names) = self.by_service.get_mut(&service) {
            names.retain(|name| *name != old.name);
            if names.is_empty() {
                self.by_service.remove(&service);
            }
        }
        Some(service)
    }

    /// Replace every object of a resource: deletions for what is gone, applies for the rest.
    fn relist(&mut self, resource: Resource, objects: Vec<Object>) -> Touched {
        let listed: BTreeSet<Key> = match resource {
            Resource::Nodes => {
                let nodes = objects.into_iter().filter_map(|o| match o {
                    Object::Node(node) => Some(node),
                    _ => None,
                });
                return Touched { nodes: self.nodes.replace(nodes.collect()), ..Touched::default() };
            }
            _ => objects.iter().map(key_of).collect(),
        };
        let unlisted = |k: &&Key| !listed.contains(*k);
        let gone: Vec<Key> = match resource {
            Resource::Services => self.services.keys().filter(unlisted).cloned().collect(),
            _ => self.slices.keys().filter(unlisted).cloned().collect(),
        };
        let mut touched = Touched::default();
        for key in gone {
            touched.merge(self.forget(resource, &key));
        }
        for object in objects.into_iter().filter(|o| resource_of(o) == resource) {
            touched.merge(self.put(object));
        }
        touched
    }
}

/// `v` in an allocation of its length: lists decoded or collected in place keep the capacity
/// they grew to (up to twice their length), and the allocator keeps a block shrunk by less than
/// half as it is.
fn exact<T>(v: &mut Vec<T>) {
    if v.capacity() > v.len() {
        let mut fitted = Vec::with_capacity(v.len());
        fitted.append(v);
        *v = fitted;
    }
}

/// The key of an object (Nodes: empty namespace).
pub fn key_of(object: &Object) -> Key {
    match object {
        Object::Node(n) => (String::new(), n.name.clone()),
        Object::Service(s) => (s.namespace.clone(), s.name.clone()),
        Object::Slice(s) => (s.namespace.clone(), s.name.clone()),
    }
}

/// The resource an object belongs to.
pub fn resource_of(object: &Object) -> Resource {
    match object {
        Object::Node(_) => Resource::Nodes,
        Object::Service(_) => Resource::Services,
        Object::Slice(_) => Resource::EndpointSlices,
    }
}

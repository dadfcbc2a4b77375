//! One shared string per zone and node name among the endpoints the exporter holds. Each
//! endpoint of a watched slice arrives with its own copies of its node's name, its zone and the
//! zones of its hints (each its own allocation); at 100,000 endpoints that was about 10 MB of a
//! handful of distinct names (the model's `Names` does the same for one-shot reads). Unlike a
//! one-shot read, `serve` runs for months while Nodes come and go, so names no endpoint points at
//! any more are dropped ([`Names::prune`]) once the set has doubled since it was last pruned.

use std::collections::HashSet;
use std::sync::Arc;

use topo_engine::model::EndpointSlice;
use topo_engine::model::names::slice_names_mut;

/// Below this many names the set is never pruned (a prune walks it).
const PRUNE_FLOOR: usize = 1024;

/// The names held, each once.
#[derive(Debug, Clone, Default)]
pub(crate) struct Names {
    seen: HashSet<Arc<str>>,
    /// How many names the set held after the last prune.
    kept: usize,
}

/// The names are where the bytes of equal strings live, not what the store holds: two stores
/// with equal objects are equal whatever their sets hold.
impl PartialEq for Names {
    fn eq(&self, _: &Names) -> bool {
        true
    }
}

impl Names {
    /// Points `name` at the shared string equal to it, storing it on first sight.
    fn share(&mut self, name: &mut Arc<str>) {
        match self.seen.get(&**name) {
            Some(shared) => *name = Arc::clone(shared),
            None => {
                self.seen.insert(Arc::clone(name));
            }
        }
    }

    /// Every zone and node name of `slice`'s endpoints and their hints, shared.
    pub(crate) fn share_slice(&mut self, slice: &mut EndpointSlice) {
        slice_names_mut(slice, |name| self.share(name));
        if self.seen.len() >= PRUNE_FLOOR.max(2 * self.kept) {
            self.prune();
        }
    }

    /// Drop the names only this set points at (their endpoints are gone).
    pub(crate) fn prune(&mut self) {
        self.seen.retain(|name| Arc::strong_count(name) > 1);
        self.kept = self.seen.len();
    }

    /// How many names are held.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.seen.len()
    }

    /// True when none is.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{EndpointSpec, slice};

    fn zone_of(slice: &EndpointSlice) -> &Arc<str> {
        slice.endpoints[0].zone.as_ref().expect("a zone")
    }

    #[test]
    fn equal_names_share_one_string_and_unused_ones_are_dropped() {
        let mut names = Names::default();
        let spec: EndpointSpec = (Some(1), true, Some(1));
        let (mut a, mut b) = (slice(0, 0, &[spec]), slice(1, 0, &[spec]));
        assert!(!Arc::ptr_eq(zone_of(&a), zone_of(&b)), "read separately, two copies");
        names.share_slice(&mut a);
        names.share_slice(&mut b);
        assert!(Arc::ptr_eq(zone_of(&a), zone_of(&b)));
        let held = names.len();
        assert!(held >= 1, "the zone at least");
        drop((a, b));
        names.prune();
        assert!(names.is_empty(), "no endpoint points at a name any more");
    }
}

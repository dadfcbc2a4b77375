//! What each object of a dump is ([`classify`]: skipped, or converted by [`convert::object`]), and
//! the [`Reader`] that records it in source order: model objects into the [`Snapshot`] (each listed
//! once), other kinds counted, the first error kept. Deciding needs no reader state.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use topo_engine::model::{Names, SourceLine};

use super::*;
use convert::object::{Decoded, Object, decode, kind_of};

/// One object of a dump, decided.
pub(super) enum Outcome {
    /// Not read: counted under this key (`"apps/v1 Deployment"`, `"(not an object)"`).
    Skip(String),
    /// An object of a kind we read, converted.
    Decoded(Decoded),
}

/// Decides `value` found `depth` Lists deep, items of a List first to last, into `out`.
pub(super) fn classify(value: Value, inherited: Inherited<'_>, depth: usize, out: &mut Vec<Outcome>) {
    let Value::Object(mut map) = value else {
        if !value.is_null() {
            out.push(Outcome::Skip("(not an object)".to_string()));
        }
        return;
    };
    let field = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_string);
    let (api_version, kind) = match (field("apiVersion"), field("kind"), inherited) {
        (Some(api_version), Some(kind), _) => (api_version, kind),
        (None, None, Some((api_version, kind))) => (api_version.to_string(), kind.to_string()),
        (api_version, kind, _) => {
            let key = match (api_version, kind) {
                (Some(api_version), None) => format!("{api_version} without kind"),
                (None, Some(kind)) => format!("{kind} without apiVersion"),
                _ => "objects without apiVersion and kind".to_string(),
            };
            out.push(Outcome::Skip(key));
            return;
        }
    };
    if depth < 2
        && let Some(inherited) = list_items(&api_version, &kind)
    {
        match map.remove("items") {
            Some(Value::Array(items)) => {
                for item in items {
                    classify(item, inherited, depth + 1, out);
                }
                return;
            }
            Some(other) => drop(map.insert("items".to_string(), other)),
            None => {}
        }
    }
    let decoded = kind_of(&api_version, &kind).and_then(|known| decode(known, Value::Object(map)));
    out.push(decoded.map_or_else(|| Outcome::Skip(format!("{api_version} {kind}")), Outcome::Decoded));
}

/// When `kind` is a List's, the type its items inherit: `Some(None)` for a plain `List`, whose
/// items name their own.
pub(super) fn list_items<'v>(api_version: &'v str, kind: &'v str) -> Option<Inherited<'v>> {
    let item_kind = kind.strip_suffix("List")?;
    Some((!item_kind.is_empty()).then_some((api_version, item_kind)))
}

/// Accumulates objects in source order. Where a List's items begin before its `kind` is known, a
/// copy of it is what they roll back to (once per document: of nothing for a dump of one).
#[derive(Clone, Default)]
pub(super) struct Reader<'a> {
    origin: &'a str,
    snapshot: Snapshot,
    skipped: BTreeMap<String, usize>,
    info: ClusterInfo,
    index: usize,
    /// Objects read so far by kind, namespace and name, with their item index: a dump lists each
    /// object once, and one listed twice (two dumps concatenated) would be counted twice.
    seen: HashMap<(&'static str, String, String), usize>,
    /// Zone and node names, one shared string each: a million endpoints name a few thousand.
    names: Names,
}

/// `(apiVersion, kind)` that items of a typed list (`NodeList`) inherit when they omit them.
pub(super) type Inherited<'v> = Option<(&'v str, &'v str)>;

impl<'a> Reader<'a> {
    pub(super) fn new(origin: &'a str) -> Self {
        Reader { origin, ..Reader::default() }
    }

    /// Reads a top-level `value` (a document) that starts at `line`.
    pub(super) fn read(&mut self, value: Value, line: SourceLine) -> Result<(), DumpError> {
        let mut outcomes = Vec::new();
        classify(value, None, 0, &mut outcomes);
        outcomes.into_iter().try_for_each(|outcome| self.record(outcome, line))
    }

    /// Records one decided object, which starts at `line`: counted, added, or the error that
    /// stops the read.
    pub(super) fn record(&mut self, outcome: Outcome, line: SourceLine) -> Result<(), DumpError> {
        let Decoded { kind, name, result } = match outcome {
            Outcome::Skip(key) => {
                *self.skipped.entry(key).or_default() += 1;
                self.index += 1;
                return Ok(());
            }
            Outcome::Decoded(decoded) => decoded,
        };
        let (origin, index) = (self.origin, self.index);
        match result {
            Err(message) => Err(DumpError::Item {
                origin: origin.to_string(),
                index,
                kind: kind.label().to_string(),
                name,
                message,
            }),
            Ok(object) => self.add(*object, line).map_err(|(first, namespace)| DumpError::Duplicate {
                origin: origin.to_string(),
                index,
                first,
                kind: kind.label().to_string(),
                namespace,
                name,
            }),
        }
    }

    /// Records a decoded object and moves to the next index; the first listing's index and the
    /// object's namespace when it was read before (nothing recorded then).
    fn add(&mut self, object: Object, line: SourceLine) -> Result<(), (usize, String)> {
        if let Some((kind, namespace, name)) = object.key() {
            match self.seen.entry((kind, namespace.to_string(), name.to_string())) {
                Entry::Occupied(first) => return Err((*first.get(), namespace.to_string())),
                Entry::Vacant(slot) => drop(slot.insert(self.index)),
            }
        }
        let s = &mut self.snapshot;
        match object {
            Object::Node(node) => s.nodes.push(node),
            Object::Service(mut service) => {
                service.line = line;
                s.services.push(service);
            }
            Object::Slice(mut slice) => {
                self.names.share_slice(&mut slice);
                s.slices.push(slice);
            }
            Object::Event(event) => s.events.push(event),
            Object::Optional(found, _, _) => found.apply(&mut s.data_plane),
            Object::Workload(found) => found.apply(&mut s.workloads),
            Object::Info(info) => self.info = info,
        }
        self.index += 1;
        Ok(())
    }

    pub(super) fn finish(self) -> Result<ParsedDump, DumpError> {
        let Reader { origin, mut snapshot, skipped, info, index, .. } = self;
        // Workloads alone are usable too: rendered manifests (`simulate --apply`) may hold nothing else.
        let workloads = snapshot.workloads.workloads.len() + snapshot.workloads.autoscalers.len();
        let usable = snapshot.nodes.len()
            + snapshot.services.len()
            + snapshot.slices.len()
            + snapshot.events.len()
            + workloads;
        if usable == 0 {
            return Err(if skipped.is_empty() && index == 0 {
                DumpError::Empty { origin: origin.to_string() }
            } else {
                DumpError::NoUsableObjects { origin: origin.to_string(), skipped }
            });
        }
        // Growth by doubling left up to half of each list unused; the analysis keeps them to the end.
        snapshot.nodes.shrink_to_fit();
        snapshot.services.shrink_to_fit();
        snapshot.slices.shrink_to_fit();
        convert::optional::dump_statuses(&mut snapshot.data_plane, &info.optional_reads);
        convert::workload::dump_statuses(&mut snapshot.workloads, &info.workload_reads);
        snapshot.info = SourceInfo {
            origin: origin.to_string(),
            server_version: info.server_version,
            nodes_unavailable: info.nodes_unavailable,
            slices_unavailable: false,
            partial: info.partial,
        };
        Ok(ParsedDump { snapshot, skipped })
    }
}

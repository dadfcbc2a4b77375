//! What a live read lists, in one of two shapes: k8s-openapi's whole objects ([`Raw`], for `dump`,
//! which writes them back), or the lean types of `convert::lean` (every other command: only the
//! fields the model takes are decoded, and nothing else is built or kept, as for a dump file).

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1 as apps;
use k8s_openapi::api::core::v1 as core;
use k8s_openapi::api::discovery::v1 as discovery;
use serde::de::DeserializeOwned;

use topo_engine::model::{self, Names, OptionalObject, ReadStatus, Snapshot, SourceInfo};

use super::{ConvertError, event_from_core, lean, node_from, optional, service_from, slice_from};

/// The types Nodes, Services and EndpointSlices are decoded into.
pub trait Shape {
    /// A Node.
    type Node: DeserializeOwned;
    /// A Service.
    type Service: DeserializeOwned;
    /// An EndpointSlice.
    type Slice: DeserializeOwned;
    /// A Service's `spec.selector` as a label selector (`app=web,tier=fe`); `None` when it has none.
    fn selector(service: &Self::Service) -> Option<String>;
}

/// `spec.selector` as the label selector `kubectl get pods -l` takes.
fn selector_text(selector: Option<&BTreeMap<String, String>>) -> Option<String> {
    selector.map(|s| s.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(","))
}

/// k8s-openapi's objects, every field: what `dump` writes back.
#[derive(Debug, Clone, Default)]
pub struct Whole;

/// Only what the model takes (`convert::lean`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Lean;

impl Shape for Whole {
    type Node = core::Node;
    type Service = core::Service;
    type Slice = discovery::EndpointSlice;
    fn selector(service: &core::Service) -> Option<String> {
        selector_text(service.spec.as_ref().and_then(|s| s.selector.as_ref()))
    }
}

impl Shape for Lean {
    type Node = lean::Node;
    type Service = lean::Service;
    type Slice = lean::EndpointSlice;
    fn selector(service: &lean::Service) -> Option<String> {
        selector_text(service.selector())
    }
}

/// The objects of a live read (`Debug` and `Clone` where the item types are: [`Raw`]'s are).
#[derive(Debug, Clone)]
pub struct Listed<S: Shape> {
    /// Nodes.
    pub nodes: Vec<S::Node>,
    /// Services.
    pub services: Vec<S::Service>,
    /// EndpointSlices.
    pub slices: Vec<S::Slice>,
    /// core/v1 Events on Services.
    pub events: Vec<core::Event>,
    /// The ConfigMaps of the optional reads that were found (reduced to the keys
    /// `convert::optional` reads, so a dump carries nothing else of them).
    pub config_maps: Vec<core::ConfigMap>,
    /// The DaemonSets of the optional reads that were found (reduced to their containers' images).
    pub daemon_sets: Vec<apps::DaemonSet>,
    /// What the front-door lists found (`convert::frontdoor`), lean.
    pub front_doors: topo_engine::model::FrontDoors,
    /// What each optional read found.
    pub reads: BTreeMap<OptionalObject, ReadStatus>,
    /// `/version` gitVersion.
    pub server_version: Option<String>,
    /// What could not be read (e.g. Events forbidden), for `SourceInfo::partial`.
    pub notes: Vec<String>,
    /// Nodes could not be read (forbidden): zone weights are unknown.
    pub nodes_unavailable: bool,
    /// The workload reads (`convert::workload`), decoded lean whatever the shape: `dump` writes
    /// them back from the model.
    pub workloads: model::Workloads,
}

// Not derived: a derive would ask for `Default` of each item type too.
impl<S: Shape> Default for Listed<S> {
    fn default() -> Self {
        Listed {
            nodes: Vec::new(),
            services: Vec::new(),
            slices: Vec::new(),
            events: Vec::new(),
            config_maps: Vec::new(),
            daemon_sets: Vec::new(),
            front_doors: topo_engine::model::FrontDoors::default(),
            reads: BTreeMap::new(),
            server_version: None,
            notes: Vec::new(),
            nodes_unavailable: false,
            workloads: model::Workloads::default(),
        }
    }
}

/// The objects as the API returned them, for `dump`.
pub type Raw = Listed<Whole>;

/// Raw objects → the engine's Snapshot, through the pure converters of `source::convert`.
pub(crate) fn snapshot_from_raw(raw: &Raw) -> Snapshot {
    let mut notes = raw.notes.clone();
    let mut nodes = Vec::with_capacity(raw.nodes.len());
    for node in &raw.nodes {
        match node_from(node) {
            Ok(n) => nodes.push(n),
            Err(e) => notes.push(left_out(node.metadata.name.as_deref().unwrap_or(""), &e)),
        }
    }
    let services = raw.services.iter().map(service_from).collect();
    assemble(nodes, services, raw.slices.iter().map(slice_from), notes, raw)
}

/// Lean objects → the engine's Snapshot; each object's strings move into the model.
pub(crate) fn snapshot_from_lean(mut listed: Listed<Lean>) -> Snapshot {
    let mut notes = std::mem::take(&mut listed.notes);
    let mut nodes = Vec::with_capacity(listed.nodes.len());
    for node in std::mem::take(&mut listed.nodes) {
        let name = node.name().to_owned();
        match node.into_model() {
            Ok(n) => nodes.push(n),
            Err(e) => notes.push(left_out(&name, &e)),
        }
    }
    let services = std::mem::take(&mut listed.services).into_iter().map(lean::Service::into_model).collect();
    let slices = std::mem::take(&mut listed.slices).into_iter().map(lean::EndpointSlice::into_model);
    assemble(nodes, services, slices, notes, &listed)
}

/// The API server validates quantities, so this needs a very odd server; say so, never guess.
fn left_out(name: &str, e: &ConvertError) -> String {
    format!("node {name:?} left out: {}: {}", e.field, e.message)
}

/// The Snapshot of the models made so far and the rest of `listed` (Events, the data plane, what
/// the read says of itself).
fn assemble<S: Shape>(
    nodes: Vec<model::Node>,
    services: Vec<model::Service>,
    slices: impl Iterator<Item = model::EndpointSlice>,
    notes: Vec<String>,
    listed: &Listed<S>,
) -> Snapshot {
    // One string per zone and node name, shared by every endpoint naming it.
    let mut names = Names::default();
    let share = |mut slice: model::EndpointSlice| {
        names.share_slice(&mut slice);
        slice
    };
    let mut snapshot = Snapshot {
        nodes,
        services,
        slices: slices.map(share).collect(),
        events: listed.events.iter().map(event_from_core).collect(),
        info: SourceInfo::default(),
        data_plane: optional::data_plane_from(
            &listed.config_maps,
            &listed.daemon_sets,
            &listed.front_doors,
            &listed.reads,
        ),
        workloads: listed.workloads.clone(),
    };
    snapshot.info.server_version = listed.server_version.clone();
    snapshot.info.partial = notes;
    snapshot.info.nodes_unavailable = listed.nodes_unavailable;
    snapshot
}

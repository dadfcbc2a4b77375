//! Mode selection of the EndpointSlice controller (docs/behaviour.md#mode-selection): whether a Service's slices get
//! CPU-proportional hints (annotation path, `topologycache.AddHints`), `trafficDistribution` hints
//! (`trafficdist.ReconcileHints`), or have every hint removed. A port of `k8s.io/endpointslice`
//! `reconciler.go` (`validTrafficDistribution`, the decision in `reconcileByAddressType`) and `utils.go`
//! (`hintsEnabled`), per version era.

use serde::Serialize;

use crate::core::trafficdist::{Heuristic, PREFER_CLOSE, PREFER_SAME_NODE, PREFER_SAME_ZONE, heuristic_for};
use crate::model::{ANNOTATION_TOPOLOGY_AWARE_HINTS, ANNOTATION_TOPOLOGY_MODE, Behaviour, Service, StrMap};
use crate::report::mode::{Mode, ModeSource};
use crate::report::reason::{Facts, Reason, ReasonCode};

/// Name of the Service field used in [`ModeSource::Field`] and in reason facts.
pub const FIELD_TRAFFIC_DISTRIBUTION: &str = "spec.trafficDistribution";

/// Which branch of the reconciler runs for the Service's slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum ModePath {
    /// `topologyCache.AddHints` (docs/behaviour.md#auto-allocation).
    Annotation,
    /// `trafficdist.ReconcileHints` with this heuristic (docs/behaviour.md#trafficdistribution-hints).
    TrafficDistribution {
        /// The heuristic `ReconcileHints` picks.
        heuristic: Heuristic,
    },
    /// `RemoveHintsFromSlices` (docs/behaviour.md#hint-removal).
    RemoveHints,
}

/// The reconciler's decision for one Service at one version.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModeDecision {
    /// Which branch runs.
    pub path: ModePath,
    /// The mode the controller applies (`None` when hints are removed).
    pub mode: Mode,
    /// What decided.
    pub source: ModeSource,
    /// Why other inputs were ignored (reason codes, facts `key`/`value`).
    pub notes: Vec<Reason>,
}

/// The annotation that decides, with upstream precedence: the deprecated
/// `topology-aware-hints` key by presence, else `topology-mode` (read only since 1.27).
pub fn effective_annotation(annotations: &StrMap, behaviour: Behaviour) -> Option<(&'static str, &str)> {
    if let Some(value) = annotations.get(ANNOTATION_TOPOLOGY_AWARE_HINTS) {
        return Some((ANNOTATION_TOPOLOGY_AWARE_HINTS, value));
    }
    if behaviour.reads_topology_mode_annotation()
        && let Some(value) = annotations.get(ANNOTATION_TOPOLOGY_MODE)
    {
        return Some((ANNOTATION_TOPOLOGY_MODE, value));
    }
    None
}

// mirrors endpointslice utils.go: hintsEnabled (before 1.27: k/k pkg/controller/endpointslice/utils.go)
/// True when the annotation enables the annotation path: the deciding value is exactly `Auto` or
/// `auto` (case-sensitive, no trimming).
pub fn hints_enabled(annotations: &StrMap, behaviour: Behaviour) -> bool {
    matches!(effective_annotation(annotations, behaviour), Some((_, "Auto" | "auto")))
}

// mirrors endpointslice reconciler.go: validTrafficDistribution (1.33+); before 1.33 the reconciler
// used `trafficDistributionEnabled` (the ServiceTrafficDistribution gate) without looking at the value.
/// Whether the controller would take the `trafficDistribution` path for this value (ignoring the
/// annotation). 1.30–1.32: the gate alone decides, even for an unset or unknown value (which then
/// gets the remove-all heuristic). Before 1.30 the field does not exist: always false.
pub fn valid_traffic_distribution(traffic_distribution: Option<&str>, behaviour: Behaviour) -> bool {
    if behaviour.minor < 30 {
        return false;
    }
    if !behaviour.validates_traffic_distribution() {
        return behaviour.service_traffic_distribution_gate();
    }
    // 1.33–1.35 also require the ServiceTrafficDistribution gate (on, locked); 1.36 removed it.
    match traffic_distribution {
        Some(PREFER_CLOSE) => true,
        Some(PREFER_SAME_ZONE | PREFER_SAME_NODE) => behaviour.prefer_same_traffic_distribution_gate(),
        _ => false,
    }
}

// mirrors k/k endpointslice_controller.go: syncService (ExternalName and nil-selector early returns)
/// Why the controller does not reconcile this Service at all, if it does not (k/k `endpointslice_controller.go` `syncService`).
pub fn controller_reconciles(service: &Service) -> Option<Reason> {
    if service.service_type == "ExternalName" {
        return Some(Reason::new(ReasonCode::ExternalName));
    }
    if !service.has_selector {
        return Some(Reason::new(ReasonCode::NoSelector));
    }
    None
}

fn note(code: ReasonCode, key: &str, value: Option<&str>) -> Reason {
    Reason::with(
        code,
        Facts { key: Some(key.to_string()), value: value.map(str::to_string), ..Facts::default() },
    )
}

// mirrors endpointslice reconciler.go: reconcileByAddressType (the hints if/else after SliceInfo)
/// The reconciler's decision (docs/behaviour.md#mode-selection), including the TopologyAwareHints gate being off (no
/// topology cache) before 1.24.
pub fn select_mode(service: &Service, behaviour: Behaviour) -> ModeDecision {
    let annotation = effective_annotation(&service.annotations, behaviour);
    let enabled = hints_enabled(&service.annotations, behaviour);
    let has_cache = behaviour.topology_aware_hints_gate();
    let td = service.traffic_distribution.as_deref();
    let can_use_td = valid_traffic_distribution(td, behaviour) && !enabled;

    let (path, mode) = if has_cache && enabled {
        (ModePath::Annotation, Mode::Auto)
    } else if can_use_td {
        let heuristic = heuristic_for(td, behaviour);
        (ModePath::TrafficDistribution { heuristic }, mode_of(heuristic, td))
    } else {
        (ModePath::RemoveHints, Mode::None)
    };

    let source = match (path, annotation) {
        (ModePath::Annotation, Some((key, value))) => annotation_source(key, value),
        (ModePath::TrafficDistribution { .. }, _) => field_source(td),
        (_, Some((key, value))) => annotation_source(key, value),
        (_, None) if td.is_some() => field_source(td),
        _ => ModeSource::Nothing,
    };

    let notes = mode_notes(service, behaviour, enabled, path, mode);
    ModeDecision { path, mode, source, notes }
}

fn annotation_source(key: &str, value: &str) -> ModeSource {
    ModeSource::Annotation { key: key.to_string(), value: value.to_string() }
}

fn field_source(td: Option<&str>) -> ModeSource {
    ModeSource::Field { name: FIELD_TRAFFIC_DISTRIBUTION.to_string(), value: td.map(str::to_string) }
}

fn mode_of(heuristic: Heuristic, td: Option<&str>) -> Mode {
    match (heuristic, td) {
        (Heuristic::Default, _) => Mode::None,
        (_, Some(PREFER_SAME_ZONE)) => Mode::PreferSameZone,
        (_, Some(PREFER_SAME_NODE)) => Mode::PreferSameNode,
        _ => Mode::PreferClose,
    }
}

fn mode_notes(
    service: &Service,
    behaviour: Behaviour,
    enabled: bool,
    path: ModePath,
    mode: Mode,
) -> Vec<Reason> {
    let annotations = &service.annotations;
    let td = service.traffic_distribution.as_deref();
    let mut notes = Vec::new();
    let deprecated = annotations.get(ANNOTATION_TOPOLOGY_AWARE_HINTS);
    let topology_mode = annotations.get(ANNOTATION_TOPOLOGY_MODE);
    match (deprecated, topology_mode) {
        (Some(value), Some(_)) if behaviour.reads_topology_mode_annotation() => {
            notes.push(note(
                ReasonCode::DeprecatedAnnotationWins,
                ANNOTATION_TOPOLOGY_AWARE_HINTS,
                Some(value),
            ));
        }
        // Before 1.27 `topology-mode` does not exist for the controller.
        (_, Some(value)) if !behaviour.reads_topology_mode_annotation() => {
            notes.push(note(ReasonCode::AnnotationValueIgnored, ANNOTATION_TOPOLOGY_MODE, Some(value)));
        }
        _ => {}
    }
    if let Some((key, value)) = effective_annotation(annotations, behaviour) {
        if !enabled {
            notes.push(note(ReasonCode::AnnotationValueIgnored, key, Some(value)));
        } else if !behaviour.topology_aware_hints_gate() {
            notes.push(note(ReasonCode::TopologyGateOff, key, Some(value)));
        } else if td.is_some() {
            notes.push(note(
                ReasonCode::AnnotationOverridesTrafficDistribution,
                FIELD_TRAFFIC_DISTRIBUTION,
                td,
            ));
        }
    }
    let td_ignored = match path {
        ModePath::TrafficDistribution { heuristic: Heuristic::Default } => td.is_some(),
        ModePath::RemoveHints => td.is_some() && !enabled,
        _ => false,
    };
    if td_ignored {
        notes.push(note(ReasonCode::TrafficDistributionUnsupported, FIELD_TRAFFIC_DISTRIBUTION, td));
    }
    // An annotation that asks for Auto while the gate is off did ask: `TopologyGateOff` says why
    // nothing happens, and "not enabled" would send the user to annotate again.
    let asked = notes.iter().any(|n| n.code == ReasonCode::TopologyGateOff);
    if mode == Mode::None && !asked {
        notes.push(Reason::new(ReasonCode::NotEnabled));
    }
    // Their remedies name the knobs of the release modelled (docs/behaviour.md#remedies-per-release).
    for reason in &mut notes {
        reason.facts.release = Some(behaviour);
    }
    notes
}

#[cfg(test)]
mod tests;

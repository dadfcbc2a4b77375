//! Mode selection of the EndpointSlice controller (spec §2.1–§2.2): whether a Service's slices get
//! CPU-proportional hints (annotation path, `topologycache.AddHints`), `trafficDistribution` hints
//! (`trafficdist.ReconcileHints`), or have every hint removed. A port of `k8s.io/endpointslice`
//! `reconciler.go` (`validTrafficDistribution`, the decision in `reconcile`) and `utils.go`
//! (`hintsEnabled`), per version era.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::core::reason::{Facts, Reason, ReasonCode};
use crate::core::trafficdist::{Heuristic, PREFER_CLOSE, PREFER_SAME_NODE, PREFER_SAME_ZONE, heuristic_for};
use crate::model::{ANNOTATION_TOPOLOGY_AWARE_HINTS, ANNOTATION_TOPOLOGY_MODE, Behaviour, Service};

/// Name of the Service field used in [`ModeSource::Field`] and in reason facts.
pub const FIELD_TRAFFIC_DISTRIBUTION: &str = "spec.trafficDistribution";

/// The mode the controller applies, as displayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Mode {
    /// Annotation path: CPU-proportional hints.
    Auto,
    /// `trafficDistribution: PreferClose`.
    PreferClose,
    /// `trafficDistribution: PreferSameZone`.
    PreferSameZone,
    /// `trafficDistribution: PreferSameNode`.
    PreferSameNode,
    /// Hints are removed.
    None,
}

/// Which branch of the reconciler runs for the Service's slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum ModePath {
    /// `topologyCache.AddHints` (spec §2.4).
    Annotation,
    /// `trafficdist.ReconcileHints` with this heuristic (spec §3).
    TrafficDistribution {
        /// The heuristic `ReconcileHints` picks.
        heuristic: Heuristic,
    },
    /// `RemoveHintsFromSlices` (spec §2.6).
    RemoveHints,
}

/// What decided the mode, as data (no English).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum ModeSource {
    /// The annotation the controller reads (key and value as written).
    Annotation {
        /// Annotation key.
        key: String,
        /// Annotation value.
        value: String,
    },
    /// A Service field.
    Field {
        /// Field path, [`FIELD_TRAFFIC_DISTRIBUTION`].
        name: String,
        /// Its value; `None` when unset (possible in 1.30–1.32, where the gate alone decides).
        value: Option<String>,
    },
    /// Neither an annotation nor the field is set.
    Nothing,
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
    /// Why other inputs were ignored (codes of spec §2.2, facts `key`/`value`).
    pub notes: Vec<Reason>,
}

/// The annotation that decides, with upstream precedence: the deprecated
/// `topology-aware-hints` key by presence, else `topology-mode` (read only since 1.27).
pub fn effective_annotation(
    annotations: &BTreeMap<String, String>,
    behaviour: Behaviour,
) -> Option<(&'static str, &str)> {
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
pub fn hints_enabled(annotations: &BTreeMap<String, String>, behaviour: Behaviour) -> bool {
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
/// Why the controller does not reconcile this Service at all, if it does not (spec §2.1).
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
/// The reconciler's decision (spec §2.2), including the TopologyAwareHints gate being off (no
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
    if mode == Mode::None {
        notes.push(Reason::new(ReasonCode::NotEnabled));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testkit_td::{ServiceTestExt, service};

    const DEPRECATED: &str = ANNOTATION_TOPOLOGY_AWARE_HINTS;
    const MODE: &str = ANNOTATION_TOPOLOGY_MODE;

    fn codes(decision: &ModeDecision) -> Vec<ReasonCode> {
        decision.notes.iter().map(|reason| reason.code).collect()
    }

    #[test]
    fn hints_enabled_precedence() {
        let v = Behaviour::new;
        type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], u32, bool);
        let cases: &[Case] = &[
            ("topology-mode Auto", &[(MODE, "Auto")], 36, true),
            ("topology-mode auto", &[(MODE, "auto")], 36, true),
            ("AUTO is case-sensitive", &[(MODE, "AUTO")], 36, false),
            ("aUto", &[(MODE, "aUto")], 36, false),
            ("leading space", &[(MODE, " Auto")], 36, false),
            ("deprecated Auto", &[(DEPRECATED, "Auto")], 36, true),
            ("deprecated empty shadows topology-mode Auto", &[(DEPRECATED, ""), (MODE, "Auto")], 36, false),
            ("deprecated Disabled shadows Auto", &[(DEPRECATED, "Disabled"), (MODE, "Auto")], 36, false),
            (
                "deprecated auto wins over topology-mode Disabled",
                &[(DEPRECATED, "auto"), (MODE, "Disabled")],
                36,
                true,
            ),
            ("pre-1.27 ignores topology-mode", &[(MODE, "Auto")], 26, false),
            ("pre-1.27 deprecated key", &[(DEPRECATED, "Auto")], 24, true),
            ("1.27 reads topology-mode", &[(MODE, "Auto")], 27, true),
            ("none", &[], 36, false),
        ];
        for (name, annotations, minor, want) in cases {
            let map = annotations.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            assert_eq!(hints_enabled(&map, v(*minor)), *want, "{name}");
        }
    }

    #[test]
    fn valid_traffic_distribution_per_era() {
        let cases: &[(Option<&str>, u32, bool)] = &[
            (None, 36, false),
            (Some("PreferClose"), 36, true),
            (Some("PreferSameZone"), 36, true),
            (Some("PreferSameNode"), 34, true),
            (Some("PreferSameZone"), 33, false), // PreferSameTrafficDistribution alpha (off)
            (Some("PreferClose"), 33, true),
            (Some("Unknown"), 36, false),
            (None, 31, true), // 1.30–1.32: gate only
            (Some("Unknown"), 32, true),
            (Some("PreferClose"), 30, false), // ServiceTrafficDistribution alpha (off)
            (Some("PreferClose"), 29, false), // field does not exist
        ];
        for (td, minor, want) in cases {
            assert_eq!(valid_traffic_distribution(*td, Behaviour::new(*minor)), *want, "{td:?} at 1.{minor}");
        }
    }

    #[test]
    fn select_mode_cases() {
        use ReasonCode::*;
        let pc = Heuristic::PreferClose { node_hints: false };
        type Case = (&'static str, Service, u32, ModePath, Mode, Vec<ReasonCode>);
        let cases: Vec<Case> = vec![
            ("nothing set", service(), 36, ModePath::RemoveHints, Mode::None, vec![NotEnabled]),
            (
                "topology-mode Auto",
                service().annotation(MODE, "Auto"),
                36,
                ModePath::Annotation,
                Mode::Auto,
                vec![],
            ),
            (
                "annotation beats PreferClose",
                service().annotation(MODE, "Auto").traffic_distribution("PreferClose"),
                36,
                ModePath::Annotation,
                Mode::Auto,
                vec![AnnotationOverridesTrafficDistribution],
            ),
            (
                "deprecated Disabled + PreferClose",
                service().annotation(DEPRECATED, "Disabled").traffic_distribution("PreferClose"),
                36,
                ModePath::TrafficDistribution { heuristic: pc },
                Mode::PreferClose,
                vec![AnnotationValueIgnored],
            ),
            (
                "deprecated empty shadows Auto",
                service().annotation(DEPRECATED, "").annotation(MODE, "Auto"),
                36,
                ModePath::RemoveHints,
                Mode::None,
                vec![DeprecatedAnnotationWins, AnnotationValueIgnored, NotEnabled],
            ),
            (
                "Auto with gate off (1.23)",
                service().annotation(DEPRECATED, "Auto"),
                23,
                ModePath::RemoveHints,
                Mode::None,
                vec![TopologyGateOff, NotEnabled],
            ),
            (
                "pre-1.27 topology-mode ignored",
                service().annotation(MODE, "Auto"),
                26,
                ModePath::RemoveHints,
                Mode::None,
                vec![AnnotationValueIgnored, NotEnabled],
            ),
            (
                "PreferSameZone at 1.33 (gate off)",
                service().traffic_distribution("PreferSameZone"),
                33,
                ModePath::RemoveHints,
                Mode::None,
                vec![TrafficDistributionUnsupported, NotEnabled],
            ),
            (
                "PreferSameNode at 1.34",
                service().traffic_distribution("PreferSameNode"),
                34,
                ModePath::TrafficDistribution { heuristic: Heuristic::PreferClose { node_hints: true } },
                Mode::PreferSameNode,
                vec![],
            ),
            (
                "1.31 unset field still takes the trafficdist path",
                service(),
                31,
                ModePath::TrafficDistribution { heuristic: Heuristic::Default },
                Mode::None,
                vec![NotEnabled],
            ),
            (
                "1.32 PreferSameZone gets the default heuristic",
                service().traffic_distribution("PreferSameZone"),
                32,
                ModePath::TrafficDistribution { heuristic: Heuristic::Default },
                Mode::None,
                vec![TrafficDistributionUnsupported, NotEnabled],
            ),
            (
                "1.30 PreferClose with the gate off",
                service().traffic_distribution("PreferClose"),
                30,
                ModePath::RemoveHints,
                Mode::None,
                vec![TrafficDistributionUnsupported, NotEnabled],
            ),
        ];
        for (name, svc, minor, path, mode, notes) in cases {
            let decision = select_mode(&svc, Behaviour::new(minor));
            assert_eq!((decision.path, decision.mode), (path, mode), "{name}");
            assert_eq!(codes(&decision), notes, "{name}");
        }
    }

    #[test]
    fn source_and_facts_are_data() {
        let svc = service().annotation(DEPRECATED, "").annotation(MODE, "Auto");
        let decision = select_mode(&svc, Behaviour::new(36));
        assert_eq!(decision.source, ModeSource::Annotation { key: DEPRECATED.into(), value: String::new() });
        assert_eq!(decision.notes[0].facts.key.as_deref(), Some(DEPRECATED));
        assert_eq!(decision.notes[0].facts.value.as_deref(), Some(""));
        let td = select_mode(&service().traffic_distribution("PreferClose"), Behaviour::new(36));
        assert_eq!(
            td.source,
            ModeSource::Field { name: FIELD_TRAFFIC_DISTRIBUTION.into(), value: Some("PreferClose".into()) }
        );
        let json = serde_json::to_value(&td).unwrap();
        assert_eq!(json["mode"], "PreferClose");
        assert_eq!(json["path"]["heuristic"]["nodeHints"], false);
    }

    #[test]
    fn controller_skips_external_name_and_selectorless() {
        let mut external = service();
        external.service_type = "ExternalName".into();
        assert_eq!(controller_reconciles(&external).map(|r| r.code), Some(ReasonCode::ExternalName));
        let mut no_selector = service();
        no_selector.has_selector = false;
        assert_eq!(controller_reconciles(&no_selector).map(|r| r.code), Some(ReasonCode::NoSelector));
        assert_eq!(controller_reconciles(&service()), None);
    }
}

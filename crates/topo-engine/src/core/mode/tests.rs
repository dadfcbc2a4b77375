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
            "Auto with gate off (1.23): the annotation asked, so not NotEnabled",
            service().annotation(DEPRECATED, "Auto"),
            23,
            ModePath::RemoveHints,
            Mode::None,
            vec![TopologyGateOff],
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

#[test]
fn lowercase_auto_with_the_gate_off_is_a_request_not_a_missing_one() {
    for minor in 21..=23 {
        let decision = select_mode(&service().annotation(DEPRECATED, "auto"), Behaviour::new(minor));
        assert_eq!(codes(&decision), vec![ReasonCode::TopologyGateOff], "1.{minor}");
    }
    let nothing = select_mode(&service(), Behaviour::new(23));
    assert_eq!(codes(&nothing), vec![ReasonCode::NotEnabled], "nothing asked on 1.23");
}

#[test]
fn every_note_carries_the_release_its_remedy_is_for() {
    let release = Behaviour::patch(33, 2);
    let decision = select_mode(&service().traffic_distribution("PreferSameZone"), release);
    assert!(!decision.notes.is_empty());
    assert!(decision.notes.iter().all(|n| n.facts.release == Some(release)), "{:?}", decision.notes);
}

use super::*;

/// (minors, words the remedy must hold, words it must not): only knobs of that release.
type Row = (std::ops::RangeInclusive<u32>, &'static [&'static str], &'static [&'static str]);

#[test]
fn enable_names_only_the_knobs_of_each_release() {
    let rows: &[Row] = &[
        (
            21..=23,
            &["TopologyAwareHints feature gate", "topology-aware-hints=Auto"],
            &["topology-mode", "Prefer"],
        ),
        (24..=26, &["topology-aware-hints=Auto", "restarts nothing"], &["topology-mode", "Prefer", "gate"]),
        (27..=29, &["topology-mode=Auto", "does not exist before 1.30"], &["topology-aware-hints", "Prefer"]),
        (
            30..=30,
            &["topology-mode=Auto", "PreferClose", "ServiceTrafficDistribution feature gate"],
            &["SameZone"],
        ),
        (31..=32, &["topology-mode=Auto", "PreferClose"], &["SameZone", "gate"]),
        (
            33..=33,
            &["PreferClose", "PreferSameTrafficDistribution feature gate"],
            &["set spec.trafficDistribution: PreferSameZone"],
        ),
        (
            34..=34,
            &["set spec.trafficDistribution: PreferSameZone", "means the same"],
            &["deprecated", "gate"],
        ),
        (35..=37, &["set spec.trafficDistribution: PreferSameZone", "deprecated alias"], &["gate"]),
    ];
    for (minors, must, must_not) in rows {
        for minor in minors.clone() {
            let text = enable(Some(Behaviour::new(minor)));
            for word in *must {
                assert!(text.contains(word), "1.{minor} lacks {word:?}: {text}");
            }
            for word in *must_not {
                assert!(!text.contains(word), "1.{minor} names {word:?}: {text}");
            }
        }
    }
}

#[test]
fn an_unsupported_value_gets_a_value_or_gate_of_its_release() {
    let text = |minor, value: &str| {
        let facts =
            Facts { value: Some(value.into()), release: Some(Behaviour::new(minor)), ..Facts::default() };
        traffic_distribution_unsupported(&facts)
    };
    assert!(text(29, "PreferClose").contains("does not exist before 1.30"));
    assert!(text(26, "PreferClose").contains("topology-aware-hints=Auto"));
    assert!(text(30, "PreferClose").contains("ServiceTrafficDistribution feature gate"));
    assert!(text(32, "PreferSameZone").contains("PreferClose, the only value"));
    let gated = text(33, "PreferSameZone");
    assert!(
        gated.contains("PreferSameTrafficDistribution feature gate") && gated.contains("Use PreferClose")
    );
    assert!(!text(33, "Bogus").contains("gate"));
    assert!(text(36, "Bogus").contains("PreferSameZone"));
}

#[test]
fn topology_mode_before_127_is_sent_to_the_old_key() {
    let facts = |minor| Facts {
        key: Some(ANNOTATION_TOPOLOGY_MODE.into()),
        value: Some("Auto".into()),
        release: Some(Behaviour::new(minor)),
        ..Facts::default()
    };
    assert!(annotation_value_ignored(&facts(26)).contains("topology-aware-hints=Auto"));
    assert!(annotation_value_ignored(&facts(27)).contains("exactly \"Auto\""));
}

#[test]
fn a_sync_is_not_enough_where_117245_is_not_fixed() {
    assert!(!hints_missing(None).contains("117245"));
    assert!(hints_missing(None).contains("restarts nothing"));
    let buggy = hints_missing(Some(Behaviour::patch(26, 3)));
    assert!(buggy.contains("117245") && buggy.contains("1.26.8"), "{buggy}");
    assert!(!hints_missing(Some(Behaviour::patch(26, 8))).contains("117245"));
    let stale = node_zone_not_seen(Some(Behaviour::patch(27, 2)));
    assert!(stale.contains("Restart kube-controller-manager") && stale.contains("1.27.5"), "{stale}");
    assert!(!stale.contains("rollout restart"));
    assert!(topology_gate_off(Some(Behaviour::new(23))).contains("1.23 has it off"));
}

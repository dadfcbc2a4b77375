use std::collections::BTreeMap;

use super::*;

fn parse_text(text: &str) -> Result<IgnoreRules, ConfigError> {
    parse(text, Path::new("cfg.yaml"))
}

#[test]
fn a_full_config_becomes_rules() {
    let rules = parse_text(
        "excludes:\n  - namespace: \"kube-*\"\n  - name: batch-*\n    reasons: [OverloadThreshold]\nlevels:\n  RewrittenEverySync: warning\n  HintsInvalid: error\n",
    )
    .unwrap();
    assert_eq!(rules.excludes.len(), 2);
    let pattern = |text: &str| NamePattern::new(text).unwrap();
    assert_eq!(rules.excludes[0].namespace, pattern("kube-*"));
    assert_eq!((&rules.excludes[0].name, &rules.excludes[0].reasons), (&pattern("*"), &None));
    assert_eq!(rules.excludes[1].reasons, Some(BTreeSet::from([ReasonCode::OverloadThreshold])));
    assert_eq!(
        rules.levels,
        BTreeMap::from([
            (ReasonCode::RewrittenEverySync, Level::Warning),
            (ReasonCode::HintsInvalid, Level::Error)
        ])
    );
    assert_eq!(parse_text("").unwrap(), IgnoreRules::default());
    assert_eq!(parse_text("# nothing\n").unwrap(), IgnoreRules::default());
}

#[test]
fn each_mistake_is_one_message_with_its_line_and_column() {
    let cases = [
        (
            "excludes:\n  - namespace: \"web-[\"\n",
            "cfg.yaml:2:16: bad pattern \"web-[\": unclosed character class; missing ']'",
        ),
        (
            "excludes:\n  - reasons: [Overload]\n",
            "cfg.yaml:2:15: unknown reason code \"Overload\"; valid: NotEnabled, ",
        ),
        ("levels:\n  Nope: warning\n", "cfg.yaml:2:3: unknown reason code \"Nope\""),
        (
            "levels:\n  HintsMissing: fatal\n",
            "cfg.yaml:2:17: unknown level \"fatal\"; valid: error, warning, ignore",
        ),
        ("exclude:\n  - name: x\n", "cfg.yaml:1:1: invalid config: unknown field `exclude`"),
        ("excludes: [\n", "cfg.yaml:"),
    ];
    for (text, want) in cases {
        let message = parse_text(text).unwrap_err().to_string();
        assert!(message.starts_with(want), "{text:?}: {message}");
        assert!(!message.contains('\n'), "{message}");
    }
}

#[test]
fn the_default_file_is_optional_a_given_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("config.yaml");
    assert_eq!(load(&ConfigPath::Default(missing.clone())).unwrap(), IgnoreRules::default());
    assert_eq!(load(&ConfigPath::None).unwrap(), IgnoreRules::default());
    let error = load(&ConfigPath::Given(missing)).unwrap_err();
    assert!(error.to_string().contains("config.yaml: cannot read: "), "{error}");
}

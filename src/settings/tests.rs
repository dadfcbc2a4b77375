use clap::Parser;

use super::*;
use crate::source::{DumpPath, Secret};

pub(super) fn resolve(args: &[&str], ambient: &Ambient) -> Result<Settings, SettingsError> {
    let mut argv = vec!["kubectl-topo"];
    argv.extend_from_slice(args);
    Settings::resolve(Cli::try_parse_from(argv).expect("clap accepts"), ambient, "kubectl topo")
}

pub(super) fn tty() -> Ambient {
    Ambient { stdout_is_tty: true, stderr_is_tty: true, ..Ambient::default() }
}

/// The parser takes `args` (a flag a subcommand does not use is not declared on it).
pub(super) fn parses(args: &[&str]) -> bool {
    Cli::try_parse_from(std::iter::once("kubectl-topo").chain(args.iter().copied())).is_ok()
}

#[test]
fn colour_is_one_decision_from_flag_no_color_tty_and_format() {
    let cases: &[(&[&str], Ambient, bool)] = &[
        (&["zones"], tty(), true),
        (&["zones"], Ambient::default(), false),
        (&["zones"], Ambient { no_color: true, ..tty() }, false),
        (&["zones"], Ambient { term_dumb: true, ..tty() }, false),
        (&["zones", "--color", "always"], Ambient::default(), true),
        (&["zones", "--color", "always", "-o", "json"], tty(), false),
        (&["zones", "--color", "never"], tty(), false),
        (&["zones", "-o", "yaml"], tty(), false),
    ];
    for (args, ambient, want) in cases {
        assert_eq!(resolve(args, ambient).unwrap().color, *want, "{args:?} {ambient:?}");
    }
}

#[test]
fn service_references_in_kubectl_forms() {
    for (text, want) in [
        ("svc/demo", "demo"),
        ("service/a.b", "a.b"),
        ("services/x-1", "x-1"),
        ("web", "web"),
        ("Service/web", "web"),
        ("SVC/web", "web"),
    ] {
        assert_eq!(parse_service_ref(text).unwrap(), want);
    }
    for bad in ["deploy/web", "svc/", "", "svc/Web", "svc/-a", "a/b/c", "svc/a_b"] {
        assert!(parse_service_ref(bad).is_err(), "{bad}");
    }
    assert_eq!(parse_service_ref("Deployment/web"), Err(SettingsError::NotAService("Deployment/web".into())));
}

#[test]
fn dump_source_and_scope() {
    let s = resolve(&["check", "-A", "--from-file", "-"], &tty()).unwrap();
    assert_eq!(s.source, SourceSpec::Dump(DumpPath::Stdin));
    assert_eq!(s.scope, Scope::AllNamespaces);
    let s = resolve(&["explain", "svc/x", "-n", "demo", "-f", "d.yaml", "--exit-code"], &tty()).unwrap();
    assert_eq!(s.scope, Scope::Namespace(Some("demo".into())));
    assert_eq!(
        s.job,
        Job::Explain {
            names: vec!["x".into()],
            behind: None,
            fail_on: Some(FailOn::Drift),
            config: ConfigPath::None
        }
    );
    // kubectl lets -A win over -n (`kubectl get svc -A -n x` lists every namespace).
    assert_eq!(resolve(&["check", "-A", "-n", "x"], &tty()).unwrap().scope, Scope::AllNamespaces);
}

#[test]
fn versions_and_timeouts() {
    assert_eq!(resolve(&["zones", "--k8s-version", "1.33"], &tty()).unwrap().behaviour.unwrap().minor, 33);
    assert!(resolve(&["zones", "--k8s-version", "1.99"], &tty()).is_err());
    assert_eq!(parse_timeout("0").unwrap(), None);
    assert_eq!(parse_timeout("1m30s").unwrap(), Some(Duration::from_secs(90)));
    assert_eq!(parse_timeout("45").unwrap(), Some(Duration::from_secs(45)));
    assert_eq!(parse_timeout("1.5s").unwrap(), Some(Duration::from_millis(1500)));
    assert_eq!(parse_timeout("500ms").unwrap(), Some(Duration::from_millis(500)));
    assert_eq!(parse_timeout("0s").unwrap(), None);
    for bad in ["", "10x", "s", "1.5", "-1s", "99999999999h"] {
        assert!(parse_timeout(bad).is_err(), "{bad}");
    }
}

#[test]
fn watch_follows_one_service_or_a_scope_of_a_live_cluster() {
    let s = resolve(&["watch", "svc/web", "-n", "demo", "-o", "json"], &tty()).unwrap();
    assert_eq!(s.job, Job::Watch { name: Some("web".into()) });
    assert!(matches!(s.source, SourceSpec::Live(_)));
    let s = resolve(&["watch", "-A"], &tty()).unwrap();
    assert_eq!((s.job, s.scope), (Job::Watch { name: None }, Scope::AllNamespaces));
    assert!(!parses(&["watch", "-f", "d.yaml"]), "watch declares no -f");
    assert_eq!(resolve(&["watch", "svc/web", "-A"], &tty()).unwrap_err(), SettingsError::WatchOneWithAll);
    assert!(matches!(resolve(&["watch", "deploy/web"], &tty()), Err(SettingsError::NotAService(_))));
}

#[test]
fn dump_writes_yaml_by_default_json_on_request_and_refuses_wide_and_files() {
    let job = |args: &[&str]| resolve(args, &tty()).map(|s| s.job);
    assert_eq!(job(&["dump", "-A"]).unwrap(), Job::Dump { redact: false, format: DumpFormat::Yaml });
    assert_eq!(job(&["dump", "-o", "yaml"]).unwrap(), Job::Dump { redact: false, format: DumpFormat::Yaml });
    assert_eq!(
        job(&["dump", "--redact", "-o", "json"]).unwrap(),
        Job::Dump { redact: true, format: DumpFormat::Json }
    );
    assert!(!parses(&["dump", "-o", "wide"]), "dump's -o takes yaml and json only");
    // Issue 35: `dump -f` without --redact converts and narrows the dump.
    assert!(job(&["dump", "-f", "d.yaml", "-o", "json"]).is_ok());
    assert_eq!(
        job(&["dump", "-f", "d.yaml", "--redact"]).unwrap(),
        Job::Dump { redact: true, format: DumpFormat::Yaml }
    );
}

#[test]
fn unicode_follows_the_first_locale_variable_set() {
    let locale = |all: Option<&str>, ctype: Option<&str>, lang: Option<&str>| Locale {
        lc_all: all.map(str::to_string),
        lc_ctype: ctype.map(str::to_string),
        lang: lang.map(str::to_string),
    };
    let cases = [
        (locale(None, None, None), false),
        (locale(None, None, Some("en_US.UTF-8")), true),
        (locale(None, None, Some("C.utf8")), true),
        (locale(None, None, Some("C")), false),
        (locale(Some("C"), None, Some("en_US.UTF-8")), false),
        (locale(Some(""), Some("de_DE.UTF-8"), Some("C")), true),
        (locale(None, Some("POSIX"), Some("en_US.UTF-8")), false),
    ];
    for (l, want) in cases {
        let ambient = Ambient { locale: l.clone(), ..Ambient::default() };
        assert_eq!(resolve(&["zones"], &ambient).unwrap().unicode, want, "{l:?}");
    }
}

fn check_job(args: &[&str], ambient: &Ambient) -> Result<(FailOn, View, ConfigPath), SettingsError> {
    let mut argv = vec!["check"];
    argv.extend_from_slice(args);
    match resolve(&argv, ambient)?.job {
        Job::Check(CheckJob { fail_on, view, config, .. }) => Ok((fail_on, view, config)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn picture_formats_only_where_written() {
    for format in ["html", "dot", "mermaid"] {
        for ok in [&["explain", "svc/a"][..], &["check"], &["simulate", "svc/a", "--remove-node", "n"]] {
            let mut args = ok.to_vec();
            args.extend(["-o", format, "-f", "x.yaml"]);
            assert!(resolve(&args, &Ambient::default()).is_ok(), "{args:?}");
        }
        for refused in [&["zones"][..], &["dump"], &["watch"], &["version"]] {
            let mut args = refused.to_vec();
            args.extend(["-o", format]);
            assert!(!parses(&args), "{args:?}");
        }
    }
}

#[test]
fn check_filters_become_engine_names() {
    use topo_engine::report::Verdict;
    use topo_engine::report::mode::Mode;
    use topo_engine::report::reason::ReasonCode;
    let (_, view, _) = check_job(
        &[
            "--verdict",
            "Drift,Blocked",
            "--reason",
            "OverloadThreshold",
            "--reason",
            "HintsMissing",
            "--mode",
            "Auto",
        ],
        &tty(),
    )
    .unwrap();
    assert_eq!(view.verdicts, [Verdict::Drift, Verdict::Blocked]);
    assert_eq!(view.reasons, [ReasonCode::OverloadThreshold, ReasonCode::HintsMissing]);
    assert_eq!(view.modes, [Mode::Auto]);
    assert_eq!((view.sort_by, view.show_all), (crate::triage::SortBy::Namespace, false));
    let (_, view, _) =
        check_job(&["--sort-by", "cross-zone", "--show-all", "--exclude-namespace", "kube-*"], &tty())
            .unwrap();
    assert_eq!((view.sort_by, view.show_all), (crate::triage::SortBy::CrossZone, true));
    assert!(view.exclude_namespaces[0].matches("kube-system"));
}

#[test]
fn a_bad_check_filter_names_the_valid_values() {
    let error = check_job(&["--verdict", "drifted"], &tty()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "--verdict \"drifted\": use one of Active, Blocked, NotEnabled, Drift, Unmanaged, Unknown"
    );
    let error = check_job(&["--reason", "Overload"], &tty()).unwrap_err().to_string();
    assert!(
        error.starts_with("--reason \"Overload\": use one of NotEnabled, AnnotationValueIgnored, "),
        "{error}"
    );
    let error = check_job(&["--mode", "automatic"], &tty()).unwrap_err().to_string();
    assert_eq!(
        error,
        "--mode \"automatic\": use one of Auto, PreferClose, PreferSameZone, PreferSameNode, None"
    );
    let error = check_job(&["--exclude-namespace", "kube-["], &tty()).unwrap_err().to_string();
    assert_eq!(error, "--exclude-namespace \"kube-[\": unclosed character class; missing ']'");
}

#[test]
fn the_config_file_is_the_flag_then_the_environment_then_the_config_home() {
    let home = Ambient { config_home: Some("/home/u/.config".into()), ..tty() };
    let env = Ambient { config_env: Some("/etc/topo.yaml".into()), ..home.clone() };
    let config = |args: &[&str], ambient: &Ambient| check_job(args, ambient).unwrap().2;
    assert_eq!(config(&["--config", "c.yaml"], &env), ConfigPath::Given("c.yaml".into()));
    assert_eq!(config(&[], &env), ConfigPath::Given("/etc/topo.yaml".into()));
    assert_eq!(config(&[], &home), ConfigPath::Default("/home/u/.config/kubectl-topo/config.yaml".into()));
    assert_eq!(config(&[], &tty()), ConfigPath::None);
}

#[test]
fn report_formats_are_for_check_only() {
    assert!(check_job(&["-o", "sarif"], &tty()).is_ok());
    for format in ["markdown", "junit", "sarif"] {
        for command in [&["zones"][..], &["explain", "svc/x"], &["version"], &["dump"]] {
            let mut args = command.to_vec();
            args.extend(["-o", format]);
            assert!(!parses(&args), "{args:?}");
        }
    }
    assert!(!resolve(&["check", "-o", "markdown", "--color", "always"], &tty()).unwrap().color);
}

#[test]
fn several_sources_are_for_check_only() {
    let s = resolve(&["check", "-f", "a.yaml", "-f", "dir"], &tty()).unwrap();
    assert_eq!(s.sources.len(), 2);
    assert_eq!(s.source, SourceSpec::Dump(DumpPath::File("a.yaml".into())));
    let s = resolve(&["check", "--context", "a", "--context", "b"], &tty()).unwrap();
    let contexts: Vec<Option<String>> = s
        .sources
        .iter()
        .map(|spec| match spec {
            SourceSpec::Live(live) => live.context.clone(),
            SourceSpec::Dump(_) => None,
        })
        .collect();
    assert_eq!(contexts, [Some("a".to_string()), Some("b".to_string())]);
    assert_eq!(resolve(&["zones", "-f", "a", "-f", "b"], &tty()).unwrap_err(), SettingsError::OneSource);
    assert_eq!(
        resolve(&["explain", "svc/x", "--context", "a", "--context", "b"], &tty()).unwrap_err(),
        SettingsError::OneSource
    );
    assert_eq!(
        resolve(&["check", "--all-contexts", "-f", "a"], &tty()).unwrap_err(),
        SettingsError::AllContextsFromFile
    );
}

#[test]
fn version_waits_5s_for_the_server_unless_told_otherwise() {
    let live_timeout = |args: &[&str]| match resolve(args, &Ambient::default()).unwrap().source {
        SourceSpec::Live(live) => live.request_timeout,
        SourceSpec::Dump(_) => panic!("a live source"),
    };
    assert_eq!(live_timeout(&["version"]), Some(VERSION_TIMEOUT));
    assert_eq!(live_timeout(&["version", "--request-timeout", "20s"]), Some(Duration::from_secs(20)));
    assert_eq!(live_timeout(&["zones"]), Some(DEFAULT_TIMEOUT));
}

#[test]
fn connection_flags_become_overrides_as_kubectl_checks_them() {
    let live = |args: &[&str]| match resolve(args, &Ambient::default()).unwrap().source {
        SourceSpec::Live(live) => live,
        SourceSpec::Dump(_) => panic!("a live source"),
    };
    let spec =
        live(&["zones", "-s", "10.0.0.1:6443", "--token", "t", "--as", "a", "--as-group", "g", "-v", "6"]);
    assert_eq!(spec.overrides.server.as_deref(), Some("https://10.0.0.1:6443"));
    assert_eq!(spec.overrides.token, Some(Secret("t".into())));
    assert!(!format!("{spec:?}").contains("\"t\""), "the token is not in Debug output");
    assert_eq!((spec.overrides.impersonate.as_deref(), spec.verbosity), (Some("a"), 6));
    assert_eq!(spec.overrides.impersonate_groups, ["g"]);
    assert!(live(&["zones"]).overrides.is_empty());
    assert_eq!(
        resolve(&["zones", "--as-group", "g"], &Ambient::default()).unwrap_err(),
        SettingsError::AsGroupWithoutAs
    );
    assert!(matches!(
        resolve(&["zones", "-s", "ftp://x"], &Ambient::default()),
        Err(SettingsError::Server(_))
    ));
}

#[test]
fn shared_flags_a_subcommand_would_ignore_are_not_declared_on_it() {
    let refused: &[&[&str]] = &[
        &["explain", "web", "-A"],
        &["explain", "web", "-l", "a=b"],
        &["simulate", "web", "--replicas", "2", "-A"],
        &["zones", "-o", "wide"],
        &["zones", "-n", "x"],
        &["dump", "-o", "table"],
        &["dump", "--k8s-version", "1.33"],
        &["version", "-f", "x.yaml"],
        &["completion", "bash", "-n", "x"],
        &["-n", "x", "check"],
    ];
    for args in refused {
        assert!(!parses(args), "{args:?}");
    }
    let taken: &[&[&str]] = &[
        &["check", "-A", "-l", "a=b", "-o", "wide", "--no-headers"],
        &["watch", "-A", "-l", "a=b"],
        &["dump", "-A", "-o", "json"],
        &["explain", "web", "-n", "x", "-o", "wide"],
        &["zones", "-o", "json"],
    ];
    for args in taken {
        assert!(resolve(args, &Ambient::default()).is_ok(), "{args:?}");
    }
}

#[test]
fn prose_wraps_at_columns_else_the_terminal_else_nowhere() {
    use super::ambient::wrap_width;
    assert_eq!(wrap_width(Some("60"), Some(120)), Some(60));
    assert_eq!(wrap_width(Some("60"), None), Some(60), "COLUMNS counts in a pipe too");
    assert_eq!(wrap_width(None, Some(50)), Some(50));
    assert_eq!(wrap_width(Some("wide"), Some(50)), Some(50), "a COLUMNS that is no number is ignored");
    assert_eq!(wrap_width(Some("0"), None), None);
    assert_eq!(wrap_width(None, None), None);
    assert_eq!(wrap_width(Some("5"), None), Some(super::ambient::MIN_WRAP_WIDTH));
    let piped = Ambient { columns: None, stdout_columns: None, ..Ambient::default() };
    assert_eq!(resolve(&["zones"], &piped).unwrap().width, None);
    let terminal = Ambient { stdout_columns: Some(72), stderr_columns: Some(90), ..tty() };
    assert_eq!(resolve(&["zones"], &terminal).unwrap().width, Some(72));
    assert_eq!(terminal.stderr_width(), Some(90));
}

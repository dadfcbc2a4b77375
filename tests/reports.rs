//! `check`'s listing on the demo dump through the binary: Services nobody asked hints for are hidden
//! and counted, filters and `--sort-by`, `--fail-on any` no longer failing on `default/kubernetes`,
//! the `kubectl-topo.io/ignore` annotation and the config file (flag, `KUBECTL_TOPO_CONFIG`, the
//! default location), each reason set aside still counted and present in JSON.

use std::path::Path;

use crate::support::{demo, read, topo};

fn demo_arg() -> String {
    demo().display().to_string()
}

/// Run `check -A -f DUMP ARGS…`; (exit code, stdout, stderr).
fn check(dump: &str, args: &[&str], env: &[(&str, &Path)]) -> (i32, String, String) {
    let mut cmd = topo();
    cmd.args(["check", "-A", "-f", dump]).args(args);
    for (key, value) in env {
        cmd.env(key, value);
    }
    let out = cmd.output().expect("runs");
    let text = |b: &[u8]| String::from_utf8(b.to_vec()).expect("UTF-8");
    (out.status.code().expect("exit code"), text(&out.stdout), text(&out.stderr))
}

/// Names listed by a table (first two columns of each row).
fn listed(table: &str) -> Vec<String> {
    table
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join("/"))
        .collect()
}

/// The demo dump with an ignore annotation on demo/demo-service-4 (Blocked: OverloadThreshold).
fn annotated_demo(dir: &Path, value: &str) -> String {
    let text = read(&demo()).replace(
        "      service.kubernetes.io/topology-mode: Auto\n    creationTimestamp: \"2026-07-31T14:02:11Z\"\n    labels:\n      app: demo-service-4\n",
        &format!(
            "      service.kubernetes.io/topology-mode: Auto\n      kubectl-topo.io/ignore: \"{value}\"\n    creationTimestamp: \"2026-07-31T14:02:11Z\"\n    labels:\n      app: demo-service-4\n"
        ),
    );
    assert!(text.contains("kubectl-topo.io/ignore"), "the demo dump changed: update annotated_demo");
    let path = dir.join("annotated.yaml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn services_nobody_asked_hints_for_are_hidden_counted_and_never_fail() {
    let (code, out, _) = check(&demo_arg(), &[], &[]);
    assert_eq!(code, 0);
    assert_eq!(listed(&out), ["demo/demo-same-node", "demo/demo-service", "demo/demo-service-4"]);
    assert!(out.contains(
        "3 Service(s): 2 Active, 1 Blocked; 1 hidden (nobody asked for hints and none are present: --show-all lists them)"
    ));
    let (_, out, _) = check(&demo_arg(), &["--show-all"], &[]);
    assert_eq!(listed(&out)[0], "default/kubernetes");
    assert!(out.contains("4 Service(s): 2 Active, 1 Blocked, 1 Unmanaged\n"), "{out}");
    // default/kubernetes (Unmanaged, NoSelector) alone no longer fails --fail-on any, listed or not.
    for extra in [&[][..], &["--show-all"]] {
        let mut args = vec!["--fail-on", "any", "-n", "default"];
        args.extend_from_slice(extra);
        let out = topo().args(["check", "-f", &demo_arg()]).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
    }
    assert_eq!(check(&demo_arg(), &["--fail-on", "any"], &[]).0, 1);
}

#[test]
fn filters_and_sorting() {
    let (code, out, _) = check(&demo_arg(), &["--verdict", "Blocked", "--fail-on", "blocked"], &[]);
    assert_eq!((code, listed(&out)), (1, vec!["demo/demo-service-4".to_string()]));
    assert!(out.contains("; 1 hidden (") && out.contains("; 2 filtered out"), "{out}");
    // Filtered-out Services do not fail the run.
    assert_eq!(check(&demo_arg(), &["--verdict", "Active", "--fail-on", "blocked"], &[]).0, 0);
    let (_, out, _) = check(&demo_arg(), &["--reason", "OverloadThreshold"], &[]);
    assert_eq!(listed(&out), ["demo/demo-service-4"]);
    let (_, out, _) = check(&demo_arg(), &["--mode", "PreferSameNode,None", "--show-all"], &[]);
    assert_eq!(listed(&out), ["default/kubernetes", "demo/demo-same-node"]);
    let (_, out, _) = check(&demo_arg(), &["--exclude-namespace", "dem?", "--show-all"], &[]);
    assert_eq!(listed(&out), ["default/kubernetes"]);
    let (_, out, _) = check(&demo_arg(), &["--sort-by", "verdict"], &[]);
    assert_eq!(listed(&out)[0], "demo/demo-service-4");
    let (_, out, _) = check(&demo_arg(), &["--sort-by", "cross-zone"], &[]);
    assert_eq!(listed(&out)[0], "demo/demo-service-4");
}

#[test]
fn a_bad_filter_value_is_one_error_line_with_the_valid_names() {
    let cases: [(&[&str], &str); 3] = [
        (
            &["--verdict", "blocked"],
            "error: --verdict \"blocked\": use one of Active, Blocked, NotEnabled, Drift, Unmanaged, Unknown\n",
        ),
        (
            &["--mode", "auto"],
            "error: --mode \"auto\": use one of Auto, PreferClose, PreferSameZone, PreferSameNode, None\n",
        ),
        (
            &["--exclude-namespace", "a{b"],
            "error: --exclude-namespace \"a{b\": unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)\n",
        ),
    ];
    for (args, want) in cases {
        let (code, out, err) = check(&demo_arg(), args, &[]);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert!(err.starts_with(want), "{args:?}: {err}");
        assert_eq!(err.lines().filter(|l| l.starts_with("error:")).count(), 1);
    }
    let (code, _, err) = check(&demo_arg(), &["--sort-by", "size"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("size") && err.contains("cross-zone"), "{err}");
}

#[test]
fn the_ignore_annotation_sets_reasons_aside_and_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let dump = annotated_demo(dir.path(), "OverloadThreshold");
    let (code, out, err) = check(&dump, &["--fail-on", "blocked"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    let row = out.lines().find(|l| l.starts_with("demo        demo-service-4")).unwrap();
    assert!(row.contains(" Blocked   ignored:OverloadThreshold "), "{out}");
    assert!(out.contains("; 1 reason ignored by rules"), "{out}");
    let json = crate::support::json(&["check", "-A", "-f", &dump, "--fail-on", "blocked"], 0);
    let family = &json["services"][2]["families"][0];
    assert_eq!((&family["verdict"], &family["reasons"]), (&"Blocked".into(), &serde_json::json!([])));
    assert_eq!(family["ignored"][0]["code"], "OverloadThreshold");
    assert_eq!(json["summary"]["ignored"], 1);
    assert_eq!(json["summary"]["hidden"], 1);

    let dump = annotated_demo(dir.path(), "Overload, HintsMissing");
    let (code, _, err) = check(&dump, &["--fail-on", "blocked"], &[]);
    assert_eq!(code, 1);
    assert!(err.contains(
        "note: demo/demo-service-4: annotation kubectl-topo.io/ignore names no reason code: Overload"
    ));
}

#[test]
fn the_config_file_from_the_flag_the_environment_or_the_config_home() {
    let dir = tempfile::tempdir().unwrap();
    let exclude = "excludes:\n  - namespace: demo\n    name: \"*-4\"\n    reasons: [OverloadThreshold]\n";
    let file = dir.path().join("topo.yaml");
    std::fs::write(&file, exclude).unwrap();
    let file_arg = file.display().to_string();
    assert_eq!(check(&demo_arg(), &["--fail-on", "blocked"], &[]).0, 1);
    let (code, out, _) = check(&demo_arg(), &["--fail-on", "blocked", "--config", &file_arg], &[]);
    assert_eq!(code, 0);
    assert!(out.contains("ignored:OverloadThreshold"));
    assert_eq!(check(&demo_arg(), &["--fail-on", "blocked"], &[("KUBECTL_TOPO_CONFIG", &file)]).0, 0);
    let home = dir.path().join("xdg");
    std::fs::create_dir_all(home.join("kubectl-topo")).unwrap();
    std::fs::write(home.join("kubectl-topo/config.yaml"), exclude).unwrap();
    assert_eq!(check(&demo_arg(), &["--fail-on", "blocked"], &[("XDG_CONFIG_HOME", &home)]).0, 0);
    // A level: error fails whatever --fail-on says short of none; warning never fails.
    std::fs::write(&file, "levels:\n  OverloadThreshold: error\n").unwrap();
    assert_eq!(check(&demo_arg(), &["--config", &file_arg], &[]).0, 1);
    assert_eq!(check(&demo_arg(), &["--config", &file_arg, "--fail-on", "none"], &[]).0, 0);
    std::fs::write(&file, "levels:\n  OverloadThreshold: warning\n").unwrap();
    assert_eq!(check(&demo_arg(), &["--config", &file_arg, "--fail-on", "any"], &[]).0, 0);
    // A --config that does not exist is an error; a missing default file is not.
    let (code, _, err) = check(&demo_arg(), &["--config", "no-such.yaml"], &[]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: config no-such.yaml: cannot read: "), "{err}");
    assert_eq!(check(&demo_arg(), &[], &[("XDG_CONFIG_HOME", &dir.path().join("none"))]).0, 0);
}

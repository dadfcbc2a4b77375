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
            &["--verdict", "blockd"],
            "error: --verdict \"blockd\": use one of Active, Blocked, NotEnabled, Drift, Unmanaged, Unknown\n",
        ),
        (
            &["--mode", "automatic"],
            "error: --mode \"automatic\": use one of Auto, PreferClose, PreferSameZone, PreferSameNode, None\n",
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

/// Run `check ARGS…` (no -A/-f added); (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = topo().arg("check").args(args).output().expect("runs");
    let text = |b: &[u8]| String::from_utf8(b.to_vec()).expect("UTF-8");
    (out.status.code().expect("exit code"), text(&out.stdout), text(&out.stderr))
}

#[test]
fn several_dumps_a_directory_and_a_bad_file_among_good_ones() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["w03-four-zones-hinted.yaml", "w14-traffic-distribution.yaml"] {
        std::fs::copy(crate::support::path("tests/fixtures").join(name), dir.path().join(name)).unwrap();
    }
    std::fs::write(dir.path().join("notes.txt"), "not a dump").unwrap();
    let dir_arg = dir.path().display().to_string();
    // Two files: a CLUSTER column, one summary line each; no findings at --fail-on drift.
    let (code, out, _) = run(&["-A", "-f", &demo_arg(), "-f", "tests/fixtures/w03-four-zones-hinted.yaml"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("CLUSTER "), "{out}");
    assert!(out.contains(&format!("\n{}: 3 Service(s): 2 Active, 1 Blocked; 1 hidden", demo_arg())), "{out}");
    assert!(out.contains("\ntests/fixtures/w03-four-zones-hinted.yaml: 1 Service(s): 1 Active\n"), "{out}");
    // A directory: its *.yaml files in name order, each a cluster; other files skipped.
    let (code, out, _) = run(&["-A", "-f", &dir_arg, "--fail-on", "none"]);
    assert_eq!(code, 0);
    let clusters: Vec<&str> = out
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert!(
        clusters[0].ends_with("w03-four-zones-hinted.yaml")
            && clusters.last().unwrap().ends_with("w14-traffic-distribution.yaml"),
        "{out}"
    );
    // A bad file among good ones: an Error row and a note, the others reported; exit 2 (input)
    // unless findings make it 1.
    let bad = "tests/bad-inputs/yaml-tab-indent.yaml";
    let (code, out, err) = run(&["-A", "-f", &dir_arg, "-f", bad, "--fail-on", "none"]);
    assert_eq!(code, 2, "{out}{err}");
    let row = out.lines().find(|l| l.starts_with(bad)).expect("an error row");
    assert!(row.contains(" Error ") && row.contains("see the error below"), "{row}");
    // The cluster's summary line has all of the message, and it is told only there.
    assert!(out.contains(&format!("{bad}: error: {bad}:4:2: invalid YAML: tabs disallowed")), "{out}");
    assert!(!err.contains("invalid YAML"), "{err}");
    assert!(!err.lines().any(|l| l.starts_with("error:")), "{err}");
    let (code, _, _) = run(&["-A", "-f", &demo_arg(), "-f", bad, "--fail-on", "blocked"]);
    assert_eq!(code, 1);
}

#[test]
fn several_clusters_as_json_are_a_list_of_single_cluster_reports() {
    let bad = "tests/bad-inputs/yaml-tab-indent.yaml";
    let out = topo().args(["check", "-A", "-f", &demo_arg(), "-f", bad, "-o", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&doc["apiVersion"], &doc["kind"]),
        (&"kubectl-topo/v1alpha1".into(), &"CheckReportList".into())
    );
    let items = doc["items"].as_array().unwrap();
    assert_eq!(items[0]["cluster"], demo_arg());
    let single = crate::support::json(&["check", "-A", "-f", &demo_arg()], 0);
    assert_eq!(items[0]["report"]["services"], single["services"]);
    assert_eq!(items[1]["error"]["exitCode"], 2);
    assert!(items[1]["error"]["message"].as_str().unwrap().contains("invalid YAML"));
    assert!(items[1].get("report").is_none());
}

#[test]
fn several_sources_are_for_check_and_its_tables_json_and_yaml_only() {
    let (code, _, err) = run(&["-A", "-f", &demo_arg(), "-f", &demo_arg(), "-o", "sarif"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: -o sarif reports one cluster: give one -f or one --context"), "{err}");
    let out = topo().args(["zones", "-f", &demo_arg(), "-f", &demo_arg()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: only check reads several clusters"));
    let (code, _, err) = run(&["--all-contexts", "-f", &demo_arg()]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: --all-contexts reads the kubeconfig's clusters"), "{err}");
}

#[test]
fn all_contexts_reads_every_context_and_a_dead_one_is_an_error_row_with_exit_3() {
    // Both contexts point at 127.0.0.1:1, where nothing listens: refused at once, no retry wait.
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("config");
    std::fs::write(
        &kubeconfig,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: dead\n  cluster: {server: \"https://127.0.0.1:1\"}\n\
         contexts:\n- name: one\n  context: {cluster: dead, user: u}\n- name: two\n  context: {cluster: dead, user: u}\n\
         users:\n- name: u\n  user: {token: x}\ncurrent-context: one\n",
    )
    .unwrap();
    let (code, out, err) = run(&["--all-contexts", "--kubeconfig", &kubeconfig.display().to_string(), "-A"]);
    assert_eq!(code, 3, "{out}{err}");
    let rows: Vec<&str> = out.lines().skip(1).take_while(|l| !l.is_empty()).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(rows[0].starts_with("one ") && rows[1].starts_with("two "), "{out}");
    assert!(rows.iter().all(|r| r.contains(" Error ") && r.contains(" see the error below ")), "{out}");
    for context in ["one", "two"] {
        let summary = format!("{context}: error: cannot reach the API server at https://127.0.0.1:1");
        assert!(out.contains(&summary), "{out}");
    }
    assert!(!err.contains("cannot reach"), "told once, under the table: {err}");
    assert!(!err.lines().any(|l| l.starts_with("error:")), "{err}");
}

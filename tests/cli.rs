//! CLI behaviour on the bundled example and bad input: exit codes, one-line errors, colour rules.

use predicates::prelude::*;

use crate::support::{demo, json, read, topo};

fn demo_arg() -> String {
    demo().display().to_string()
}

#[test]
fn explain_demo_service_is_active() {
    let v = json(&["explain", "svc/demo-service", "-n", "demo", "--from-file", &demo_arg()], 0);
    assert_eq!(v["apiVersion"], "kubectl-topo/v1alpha1");
    assert_eq!(v["kind"], "ServiceReport");
    assert_eq!(v["service"]["name"], "demo-service");
    assert_eq!(v["mode"], "Auto");
    assert_eq!(v["families"][0]["addressType"], "IPv4");
    assert_eq!(v["families"][0]["verdict"], "Active");
}

#[test]
fn explain_demo_service_4_is_blocked_by_the_overload_threshold() {
    let v = json(&["explain", "svc/demo-service-4", "-n", "demo", "-f", &demo_arg()], 0);
    let family = &v["families"][0];
    assert_eq!(family["verdict"], "Blocked");
    let reason = &family["reasons"][0];
    assert_eq!(reason["code"], "OverloadThreshold");
    assert_eq!(reason["overloadPercent"], 33.3);
    assert!(reason["event"].as_str().unwrap().starts_with("Unable to allocate minimum required endpoints"));
}

#[test]
fn removing_hints_from_the_dump_is_drift_with_one_expected_hint_per_zone() {
    let stripped: String = strip_hints(&read(&demo()));
    let out = topo()
        .args(["explain", "service/demo-service", "-n", "demo", "-f", "-", "-o", "json"])
        .write_stdin(stripped)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let family = &v["families"][0];
    assert_eq!(family["verdict"], "Drift");
    assert_eq!(family["reasons"][0]["code"], "HintsMissing");
    for zone in family["zones"].as_array().unwrap() {
        assert_eq!(zone["expectedHinted"], 1, "{zone}");
        assert_eq!(zone["actualHinted"], 0, "{zone}");
    }
    for ep in family["endpoints"].as_array().unwrap() {
        assert_eq!(ep["expectedZones"], serde_json::json!([ep["zone"]]), "{ep}");
    }
}

/// Drop every `hints:` block (the lines indented deeper than `hints:` that follow it).
pub fn strip_hints(yaml: &str) -> String {
    let mut out = String::new();
    let mut skip_deeper_than: Option<usize> = None;
    for line in yaml.lines() {
        let indent = line.len() - line.trim_start().len();
        if let Some(level) = skip_deeper_than {
            if indent > level || line.trim_start().starts_with("- name:") && indent >= level {
                continue;
            }
            skip_deeper_than = None;
        }
        if line.trim_start().starts_with("hints:") {
            skip_deeper_than = Some(indent);
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[test]
fn check_all_namespaces_exit_codes_follow_fail_on() {
    let v = json(&["check", "-A", "-f", &demo_arg()], 0);
    assert_eq!(v["kind"], "CheckReport");
    let verdict = |name: &str| {
        v["services"].as_array().unwrap().iter().find(|s| s["service"]["name"] == name).unwrap()["families"]
            [0]["verdict"]
            .clone()
    };
    assert_eq!(verdict("demo-service"), "Active");
    assert_eq!(verdict("demo-service-4"), "Blocked");
    topo().args(["check", "-A", "-f", &demo_arg(), "--fail-on", "blocked"]).assert().code(1);
    topo().args(["check", "-A", "-f", &demo_arg(), "--fail-on", "none"]).assert().code(0);
    topo()
        .args([
            "explain",
            "demo-service-4",
            "-n",
            "demo",
            "-f",
            &demo_arg(),
            "--exit-code",
            "--fail-on",
            "blocked",
        ])
        .assert()
        .code(1);
}

#[test]
fn unknown_service_names_the_namespaces_where_it_exists() {
    topo()
        .args(["explain", "svc/demo-service", "-f", &demo_arg()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("error: service default/demo-service not found"))
        .stderr(predicate::str::contains(
            "hint: a Service named \"demo-service\" exists in namespace(s) demo",
        ));
}

#[test]
fn invalid_yaml_is_one_error_line_with_a_location_and_exit_2() {
    let out = topo()
        .args(["zones", "-f", "-"])
        .write_stdin("items:\n  - kind: Node\n   bad: [\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains("stdin:3:4"), "location missing: {stderr}");
}

#[test]
fn unreadable_file_and_bad_flags_exit_2() {
    topo()
        .args(["zones", "-f", "/nonexistent/dump.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
    topo().args(["zones", "--k8s-version", "1.99", "-f", &demo_arg()]).assert().code(2);
    topo().args(["explain", "deploy/x", "-f", &demo_arg()]).assert().code(2);
    topo().args(["zones", "--bogus"]).assert().code(2);
}

/// A refused command line is one `error:` line and one `hint:` line, like every other error,
/// not clap's usage block.
#[test]
fn bad_command_lines_get_one_error_line_and_a_hint() {
    for args in [&["zones", "--bogus"][..], &["explian"], &["check", "-o", "xml"], &["explain"]] {
        let out = topo().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {stderr}");
        assert!(lines[0].starts_with("error: ") && lines[1].starts_with("hint: see `kubectl"), "{stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn usage_says_kubectl_topo() {
    topo().arg("--help").assert().success().stdout(predicate::str::contains("Usage: kubectl topo"));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let args = ["check", "-A", "-f", &demo_arg()];
    let piped = topo().args(args).output().unwrap();
    assert!(!piped.stdout.contains(&0x1b), "piped output has ANSI codes");
    let never = topo().args(args).args(["--color", "never"]).output().unwrap();
    assert!(!never.stdout.contains(&0x1b));
    let always = topo().args(args).args(["--color", "always"]).output().unwrap();
    assert!(always.stdout.contains(&0x1b), "--color always did not colour");
    let no_color = topo().args(args).env("NO_COLOR", "1").output().unwrap();
    assert!(!no_color.stdout.contains(&0x1b));
}

#[test]
fn yaml_output_is_the_same_envelope() {
    let out = topo().args(["zones", "-f", &demo_arg(), "-o", "yaml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("apiVersion: kubectl-topo/v1alpha1\nkind: ZoneReport\n"), "{text}");
}

#[test]
fn completion_scripts_generate() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        topo().args(["completion", shell]).assert().success().stdout(predicate::str::contains("topo"));
    }
}

fn node_with_cpu(cpu: &str) -> String {
    format!(
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n    labels:\n      \
         topology.kubernetes.io/zone: a\n  status:\n    allocatable:\n      cpu: \"{cpu}\"\n    conditions:\n    - type: Ready\n      \
         status: \"True\"\n"
    )
}

#[test]
fn negative_or_absurd_node_cpu_is_one_error_line_not_an_overflow() {
    for (cpu, words) in [("-1", "negative quantity"), ("1e29", "implausible quantity")] {
        let out = topo().args(["zones", "-f", "-"]).write_stdin(node_with_cpu(cpu)).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{cpu}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(errors.len(), 1, "{stderr}");
        assert!(errors[0].contains("n1") && errors[0].contains(words), "{stderr}");
    }
}

#[test]
fn without_traffic_distribution_1_31_is_not_enabled_not_blocked() {
    // 1.30–1.32 send every Service without an enabling annotation through trafficdist's default
    // heuristic (it only removes hints): that is "not enabled", not a blocked request.
    let v =
        json(&["explain", "svc/kubernetes", "-n", "default", "-f", &demo_arg(), "--k8s-version", "1.31"], 0);
    assert_eq!(v["families"][0]["verdict"], "Unmanaged");
    let dump = strip_hints(&read(&demo())).replace("service.kubernetes.io/topology-mode: Auto", "x: y");
    let out = topo()
        .args(["explain", "svc/demo-service", "-n", "demo", "-f", "-", "-o", "json", "--k8s-version", "1.31"])
        .write_stdin(dump)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["families"][0]["verdict"], "NotEnabled", "{v}");
}

#[test]
fn flags_a_subcommand_does_not_use_are_refused_with_its_help() {
    let demo = demo_arg();
    let cases: &[(&[&str], &str)] = &[
        (&["explain", "svc/demo-service", "-A"], "error: explain does not take -A"),
        (&["explain", "svc/demo-service", "-n", "demo", "-l", "app=x"], "error: explain does not take -l"),
        (
            &["zones", "-o", "wide"],
            "error: zones does not write -o wide: use -o table, json, yaml or jsonpath=TEMPLATE",
        ),
        (&["dump", "-o", "table"], "error: dump does not write -o table: use -o json or yaml"),
        (&["zones", "-n", "demo"], "error: zones does not take -n: it reads no namespaced object"),
        (&["check", "-A", "-V"], "error: unexpected argument '-V'"),
        (&["serve", "-n", "shop"], "error: serve does not take -n"),
        (&["serve", "-o", "json"], "error: serve does not take -o"),
    ];
    for (args, expected) in cases {
        let mut argv = args.to_vec();
        if !matches!(argv[0], "dump" | "serve") {
            argv.extend(["-f", &demo]);
        }
        let out = topo().args(&argv).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{argv:?}: {stderr}");
        assert_eq!(stderr.lines().filter(|l| l.starts_with("error:")).count(), 1, "{argv:?}: {stderr}");
        assert!(stderr.contains(expected), "{argv:?}: {stderr}");
        assert!(stderr.contains(&format!("hint: see `kubectl topo {}", args[0])), "{argv:?}: {stderr}");
    }
}

#[test]
fn spread_and_directory_errors_hint_at_what_is_wrong() {
    let demo = demo_arg();
    let run = |args: &[&str]| {
        let out = topo().args(args).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, stderr) = run(&[
        "simulate",
        "svc/demo-service",
        "-n",
        "demo",
        "--replicas",
        "3",
        "--spread",
        "zone=us-east-1a:1",
        "-f",
        &demo,
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("error: --spread adds up to 1 endpoints but --replicas is 3"), "{stderr}");
    assert!(stderr.contains("hint: make the zone counts of --spread add up to --replicas"), "{stderr}");
    // A directory: `check` reads every dump in it; the others say that only check does.
    let (code, stderr) = run(&["check", "-A", "-f", "examples"]);
    assert!(code.is_some_and(|c| c < 2), "{stderr}");
    for args in
        [&["zones", "-f", "examples"][..], &["explain", "svc/demo-service", "-n", "demo", "-f", "examples"]]
    {
        let (code, stderr) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("hint: only `check` reads a directory"), "{args:?}: {stderr}");
    }
}

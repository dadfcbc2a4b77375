//! kubectl's manners in values, syntax, help and errors (issue 35, items 3–5): each test runs the
//! binary as a user would and fails on the behaviour the issue reported.

use crate::support::{demo, read, topo};

fn demo_arg() -> String {
    demo().display().to_string()
}

/// Exit code, stdout and stderr of `kubectl-topo args…`.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = topo().args(args).output().expect("runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8");
    (out.status.code(), text(out.stdout), text(out.stderr))
}

/// `--help` of a subcommand, as printed.
fn help(sub: &str) -> String {
    let (code, out, err) = run(&[sub, "--help"]);
    assert_eq!(code, Some(0), "{err}");
    out
}

// Item 3: case and spelling.

#[test]
fn flag_values_are_accepted_in_any_case() {
    let d = demo_arg();
    // demo-service-4 is Blocked: --fail-on Blocked fails as --fail-on blocked does.
    for fail_on in ["blocked", "Blocked", "BLOCKED"] {
        let (code, _, err) = run(&["check", "-A", "-f", &d, "--fail-on", fail_on]);
        assert_eq!(code, Some(1), "--fail-on {fail_on}: {err}");
    }
    let (code, out, err) = run(&["check", "-A", "-f", &d, "--sort-by", "Verdict", "-o", "JSON"]);
    assert_eq!(code, Some(0), "{err}");
    serde_json::from_str::<serde_json::Value>(&out).expect("-o JSON is JSON");
    let (code, out, err) =
        run(&["check", "-A", "-f", &d, "--verdict", "blocked", "--reason", "overloadthreshold"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("demo-service-4") && !out.contains("demo-same-node"), "{out}");
    let (code, out, err) = run(&["check", "-A", "-f", &d, "--mode", "prefersamenode"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("demo-same-node") && !out.contains("demo-service-4"), "{out}");
    assert_eq!(run(&["check", "-A", "-f", &d, "--mode", "none"]).0, Some(0));
}

#[test]
fn simulate_mode_none_is_shown_in_one_spelling() {
    for typed in ["none", "None", "NONE"] {
        let (code, out, err) =
            run(&["simulate", "svc/demo-service", "-n", "demo", "-f", &demo_arg(), "--mode", typed]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains("--mode None"), "--mode {typed}: {out}");
    }
}

#[test]
fn the_ignore_annotation_takes_codes_in_any_case() {
    let annotated = read(&demo()).replace(
        "      service.kubernetes.io/topology-mode: Auto\n    creationTimestamp: \"2026-07-31T14:02:11Z\"\n    labels:\n      app: demo-service-4\n",
        "      service.kubernetes.io/topology-mode: Auto\n      kubectl-topo.io/ignore: overloadthreshold\n    creationTimestamp: \"2026-07-31T14:02:11Z\"\n    labels:\n      app: demo-service-4\n",
    );
    assert!(annotated.contains("kubectl-topo.io/ignore"), "the fixture changed");
    let out = topo()
        .args(["check", "-A", "-f", "-", "--fail-on", "blocked"])
        .write_stdin(annotated)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("overloadthreshold"), "reported as unknown: {err}");
}

// Item 4: kubectl's syntax.

#[test]
fn a_service_is_named_as_kubectl_names_a_resource() {
    let d = demo_arg();
    for words in [
        &["svc", "demo-service"][..],
        &["Service", "demo-service"],
        &["service.v1./demo-service"],
        &["services.v1/demo-service"],
        &["SVC/demo-service"],
    ] {
        let mut args = vec!["explain"];
        args.extend_from_slice(words);
        args.extend(["-n", "demo", "-f", &d, "-o", "json"]);
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(0), "{words:?}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["service"]["name"], "demo-service", "{words:?}");
    }
    let (code, _, err) = run(&["explain", "configmap", "demo-service", "-n", "demo", "-f", &d]);
    assert_eq!(code, Some(2));
    assert!(err.contains("\"configmap\" names another kind"), "{err}");
    // A Deployment names the Services in front of it (docs/workloads.md); the demo dump holds no
    // workloads, which the error says.
    let (code, _, err) = run(&["explain", "deploy", "demo-service", "-n", "demo", "-f", &d]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("in front of deployment/demo-service in namespace demo: pods not in the dump"),
        "{err}"
    );
}

#[test]
fn several_services_are_explained_in_turn_as_kubectl_gets_several_objects() {
    let d = demo_arg();
    for words in [&["svc/demo-service", "svc/demo-service-4"][..], &["svc", "demo-service", "demo-service-4"]]
    {
        let mut args = vec!["explain"];
        args.extend_from_slice(words);
        args.extend(["-n", "demo", "-f", &d]);
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(0), "{words:?}: {err}");
        let headers: Vec<&str> = out.lines().filter(|l| l.starts_with("Service demo/")).collect();
        assert!(headers[0].starts_with("Service demo/demo-service "), "{out}");
        assert!(headers[1].starts_with("Service demo/demo-service-4 "), "{out}");
        args.extend(["-o", "json"]);
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(0), "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["kind"], "ServiceReportList");
        let names: Vec<&str> =
            v["items"].as_array().unwrap().iter().map(|i| i["service"]["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["demo-service", "demo-service-4"]);
    }
    // The worst Service decides the exit code; an unknown one stops the run, as for one Service.
    let (code, _, _) = run(&[
        "explain",
        "svc",
        "demo-service",
        "demo-service-4",
        "-n",
        "demo",
        "-f",
        &d,
        "--fail-on",
        "blocked",
    ]);
    assert_eq!(code, Some(1));
    let (code, _, err) = run(&["explain", "svc/demo-service", "svc/nope", "-n", "demo", "-f", &d]);
    assert_eq!(code, Some(2));
    assert!(err.contains("demo/nope not found"), "{err}");
    let (code, _, err) =
        run(&["explain", "svc/demo-service", "svc/demo-service-4", "-n", "demo", "-f", &d, "-o", "html"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("a picture draws one Service"), "{err}");
}

#[test]
fn boolean_flags_take_a_value_after_equals_as_in_kubectl() {
    let d = demo_arg();
    let listed = |extra: &[&str]| {
        let mut args = vec!["check", "-f", &d];
        args.extend_from_slice(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(0), "{extra:?}: {err}");
        out
    };
    assert!(listed(&["--all-namespaces=true"]).contains("demo-service-4"));
    assert!(!listed(&["--all-namespaces=false"]).contains("demo-service-4"));
    assert!(listed(&["-A", "--show-all=true"]).contains("kubernetes"));
    assert!(!listed(&["-A", "--show-all=false"]).contains("kubernetes"));
    assert_eq!(
        listed(&["-A", "--no-headers=1"]).lines().next(),
        listed(&["-A", "--no-headers"]).lines().next()
    );
    // Live flags are checked before any cluster is read.
    let (code, _, err) = run(&["version", "--client", "--insecure-skip-tls-verify=true"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(&["check", "-A=maybe", "-f", &d]);
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn all_namespaces_wins_over_a_namespace() {
    let d = demo_arg();
    let (code, out, err) = run(&["check", "-A", "-n", "demo", "-f", &d, "--show-all"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("default") && out.contains("demo-service"), "{out}");
}

#[test]
fn a_bare_command_and_help_help_print_help_on_stdout() {
    for args in [&[][..], &["help", "--help"], &["help", "-h"]] {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(out.contains("Usage:") && err.is_empty(), "{args:?}: {out}{err}");
    }
    let (code, out, _) = run(&["help", "explain", "--help"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("--exit-code"), "{out}");
}

#[test]
fn explain_fail_on_implies_exit_code() {
    let d = demo_arg();
    let (code, _, err) =
        run(&["explain", "svc/demo-service-4", "-n", "demo", "-f", &d, "--fail-on", "blocked"]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(run(&["explain", "svc/demo-service-4", "-n", "demo", "-f", &d]).0, Some(0));
    // The default level, drift, does not fail a Blocked Service.
    assert_eq!(run(&["explain", "svc/demo-service-4", "-n", "demo", "-f", &d, "--exit-code"]).0, Some(0));
}

#[test]
fn version_client_asks_no_server() {
    // A server that never answers: `--client` must not wait for it.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let server = format!("https://{}", listener.local_addr().unwrap());
    let (code, out, err) = run(&["version", "--client", "--server", &server, "--request-timeout", "60s"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, format!("Plugin Version: v{}\n", env!("CARGO_PKG_VERSION")));
    drop(listener);
}

// Item 5: help and errors that are right where they are printed.

#[test]
fn a_flag_error_points_at_the_subcommands_help() {
    let (code, _, err) = run(&["check", "-f", &demo_arg(), "--verdict", "nope"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("hint: see `kubectl topo check --help`"), "{err}");
}

#[test]
fn k8s_version_help_names_the_real_default_and_no_dump_where_none_is_read() {
    let newest = format!("1.{}", topo_engine::model::version::NEWEST_MINOR);
    for sub in ["zones", "explain", "check", "simulate", "watch", "serve"] {
        let text = help(sub);
        let flag = text.split("--k8s-version").nth(1).expect("listed");
        let flag = flag.split("\n  -").next().unwrap_or(flag);
        assert!(flag.contains(&format!("else {newest}")), "{sub}: {flag}");
        if matches!(sub, "watch" | "serve") {
            assert!(!text.contains("dump"), "{sub} --help speaks of a dump:\n{text}");
        }
    }
}

#[test]
fn check_only_flags_are_described_only_under_check() {
    for sub in ["zones", "explain", "simulate", "dump", "watch", "serve", "version"] {
        let text = help(sub);
        assert!(
            !text.contains("`check`: repeatable") && !text.contains("one cluster each"),
            "{sub}:\n{text}"
        );
    }
    let check = help("check");
    assert!(
        check.contains("(repeatable: one cluster each)") && check.contains("Repeatable, and a"),
        "{check}"
    );
    let dump = help("dump");
    assert!(!dump.contains("report model"), "dump -o json is no report model:\n{dump}");
    assert!(dump.contains("kubectl get -o json"), "{dump}");
}

#[test]
fn a_refusal_never_advises_a_flag_the_subcommand_refuses() {
    let (code, _, err) = run(&["zones", "-A"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("zones does not take -A") && !err.contains("-n"), "{err}");
    // watch and serve read no dump: their kubeconfig hint does not suggest one.
    for sub in ["watch", "serve"] {
        let out = topo().arg(sub).env("KUBECONFIG", "/nonexistent/kubeconfig").output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{sub}: {err}");
        assert!(err.contains("hint: ") && !err.contains("--from-file"), "{sub}: {err}");
    }
}

#[test]
fn a_kubeconfig_without_that_context_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    let config = crate::support::apiserver::kubeconfig_at(dir.path(), "https://127.0.0.1:1");
    let config = config.display().to_string();
    let (code, _, err) = run(&["check", "--kubeconfig", &config, "--context", "nope"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no context \"nope\""), "{err}");
}

#[test]
fn check_in_one_namespace_that_lists_nothing_says_where_it_looked() {
    let (code, out, err) = run(&["check", "-f", &demo_arg()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains("demo-service"), "{out}");
    assert!(err.contains("no Services listed in namespace \"default\"") && err.contains("-A"), "{err}");
    let (_, _, err) = run(&["check", "-f", &demo_arg(), "-A"]);
    assert!(!err.contains("no Services listed"), "{err}");
}

#[test]
fn a_cluster_that_fails_is_told_once_and_whole() {
    let dir = tempfile::tempdir().unwrap();
    let config = crate::support::apiserver::kubeconfig_at(dir.path(), "https://127.0.0.1:1");
    let config = config.display().to_string();
    let (code, out, err) =
        run(&["check", "--kubeconfig", &config, "--all-contexts", "--request-timeout", "5s"]);
    assert_eq!(code, Some(3), "{out}{err}");
    let both = format!("{out}{err}");
    assert_eq!(both.matches("https://127.0.0.1:1").count(), 1, "{both}");
    assert!(!both.contains('…'), "cut: {both}");
}

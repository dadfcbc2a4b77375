//! kubectl conventions and terminal manners, end to end: data on stdout and diagnostics on stderr,
//! `version`, a closed pipe keeps the exit code (0 with nothing found, 1 with a finding), colour
//! and the progress indicator only on a terminal (a real
//! pseudo-terminal through util-linux `script`), and strings from the cluster escaped.

use std::process::{Command, Stdio};

use crate::support::{demo, read, root, topo};

fn demo_arg() -> String {
    demo().display().to_string()
}

#[test]
fn data_goes_to_stdout_and_notes_and_errors_to_stderr() {
    // An object of another kind (a ConfigMap): a note on stderr, never in the JSON on stdout.
    let with_configmap = read(&demo()).replacen(
        "items:\n",
        "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: coredns\n    namespace: kube-system\n",
        1,
    );
    let out =
        topo().args(["check", "-A", "-f", "-", "-o", "json"]).write_stdin(with_configmap).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("stdout is only JSON");
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("note: skipped 1 object"));
    let failed = topo().args(["explain", "svc/nope", "-f", &demo_arg()]).output().unwrap();
    assert_eq!(failed.status.code(), Some(2));
    assert!(failed.stdout.is_empty(), "an error wrote to stdout");
    assert!(String::from_utf8_lossy(&failed.stderr).contains("error: service default/nope not found"));
}

#[test]
fn same_input_same_output() {
    let run = || topo().args(["check", "-A", "-f", &demo_arg(), "-o", "wide"]).output().unwrap().stdout;
    assert_eq!(run(), run());
}

#[test]
fn version_prints_the_plugin_version_and_no_server_without_a_cluster() {
    let out = topo().arg("version").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("Plugin Version: v{}\n", env!("CARGO_PKG_VERSION"))
    );
    let json: serde_json::Value =
        serde_json::from_slice(&topo().args(["version", "-o", "json"]).output().unwrap().stdout).unwrap();
    assert_eq!(json["kind"], "Version");
    assert_eq!(json["pluginVersion"], format!("v{}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn a_closed_pipe_keeps_the_exit_code() {
    // The reader is gone before the first write, so every write fails with EPIPE (`| head` case):
    // nothing said, and the exit code is the run's (the demo has no Drift, and one Blocked Service).
    for (fail_on, code) in [("drift", 0), ("blocked", 1)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kubectl-topo"))
            .args(["check", "-A", "-f", &demo_arg(), "--fail-on", fail_on])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "--fail-on {fail_on}, stderr: {stderr}");
        assert!(!stderr.contains("error"), "{stderr}");
    }
}

#[test]
fn cluster_strings_are_escaped_before_the_terminal() {
    let evil = read(&demo()).replace(
        "topology.kubernetes.io/zone: us-east-1a",
        "topology.kubernetes.io/zone: \"us-east-1a\\e]0;pwned\\a\"",
    );
    let out = topo().args(["zones", "-f", "-", "--color", "always"]).write_stdin(evil).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("us-east-1a\\u{1b}]0;pwned\\u{7}"), "{text}");
    assert!(
        !text.contains("\u{1b}]") && !text.contains('\u{7}'),
        "raw escape reached the terminal: {text:?}"
    );
}

/// Run `shell_command` on a pseudo-terminal (stdout and stderr are TTYs) with only PATH and `env`
/// set; returns what the terminal showed.
fn on_a_terminal(shell_command: &str, env: &[(&str, &str)]) -> String {
    let mut cmd = Command::new("script");
    cmd.args(["-qec", shell_command, "/dev/null"])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .current_dir(root())
        .stdin(Stdio::null());
    for (key, value) in env {
        cmd.env(key, value);
    }
    let out = cmd.output().expect("util-linux `script` runs");
    assert!(out.status.success(), "{shell_command}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn topo_command(args: &str) -> String {
    format!("'{}' {args}", env!("CARGO_BIN_EXE_kubectl-topo"))
}

#[test]
fn colour_on_a_terminal_unless_no_color_dumb_or_structured() {
    let check = topo_command(&format!("check -A -f '{}'", demo_arg()));
    let term = ("TERM", "xterm-256color");
    assert!(on_a_terminal(&check, &[term]).contains('\u{1b}'), "no colour on a terminal");
    assert!(!on_a_terminal(&check, &[term, ("NO_COLOR", "1")]).contains('\u{1b}'), "NO_COLOR ignored");
    assert!(!on_a_terminal(&check, &[("TERM", "dumb")]).contains('\u{1b}'), "TERM=dumb ignored");
    assert!(!on_a_terminal(&format!("{check} --color never"), &[term]).contains('\u{1b}'));
    assert!(!on_a_terminal(&format!("{check} -o json --color always"), &[term]).contains('\u{1b}'));
}

#[test]
fn progress_shows_on_a_terminal_for_slow_reads_and_never_in_a_pipe() {
    // stdin arrives after a second: longer than the indicator's delay.
    let slow = format!("(sleep 1; cat '{}') | {}", demo_arg(), topo_command("zones -f - --color never"));
    let shown = on_a_terminal(&slow, &[("TERM", "xterm-256color"), ("LANG", "C.UTF-8")]);
    assert!(shown.contains("reading stdin…"), "no progress on a terminal: {shown:?}");
    // Not UTF-8: an ASCII spinner and message.
    let ascii = on_a_terminal(&slow, &[("TERM", "xterm-256color")]);
    assert!(ascii.contains("\r| reading stdin...") && ascii.is_ascii(), "{ascii:?}");
    assert!(shown.contains("\r\u{1b}[2K"), "progress line not erased: {shown:?}");
    assert!(shown.contains("ZONE "), "{shown:?}");
    // stderr to a pipe: no indicator, even on a terminal's stdout.
    let piped = on_a_terminal(&format!("{slow} 2>&1 | cat"), &[("TERM", "xterm-256color")]);
    assert!(!piped.contains("reading stdin"), "progress written to a pipe: {piped:?}");
    // TERM=dumb: none either.
    assert!(!on_a_terminal(&slow, &[("TERM", "dumb")]).contains("reading stdin"));
}

#[test]
fn plain_ascii_unless_the_locale_says_utf8() {
    let demo = demo_arg();
    let commands: &[&[&str]] = &[
        &["explain", "svc/demo-service-4", "-n", "demo", "-f", &demo],
        &["check", "-A", "-o", "wide", "-f", &demo],
        &["zones", "-f", &demo],
        &["simulate", "svc/demo-service", "-n", "demo", "--replicas", "2", "-f", &demo],
    ];
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let out = topo().args(args).envs(env.iter().copied()).output().unwrap();
        assert!(
            out.status.code().is_some_and(|c| c < 2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let mut unicode_seen = false;
    // No locale variable, "C", "POSIX", a non-UTF-8 codeset, and LC_ALL over a UTF-8 LANG.
    let ascii: &[&[(&str, &str)]] = &[
        &[],
        &[("LANG", "C")],
        &[("LC_CTYPE", "POSIX"), ("LANG", "en_US.UTF-8")],
        &[("LANG", "de_DE.ISO-8859-1")],
        &[("LC_ALL", "C"), ("LANG", "en_US.UTF-8")],
    ];
    for args in commands {
        for env in ascii {
            let (stdout, stderr) = run(args, env);
            assert!(stdout.is_ascii(), "{args:?} {env:?}:\n{stdout}");
            assert!(stderr.is_ascii(), "{args:?} {env:?}:\n{stderr}");
        }
        let (stdout, _) = run(args, &[("LC_ALL", "C.UTF-8")]);
        unicode_seen |= !stdout.is_ascii();
    }
    assert!(unicode_seen, "a UTF-8 locale keeps the arrows and dashes");
    // JSON is never rewritten.
    let (json, _) = run(&["explain", "svc/demo-service-4", "-n", "demo", "-f", &demo, "-o", "json"], &[]);
    let (utf8, _) = run(
        &["explain", "svc/demo-service-4", "-n", "demo", "-f", &demo, "-o", "json"],
        &[("LANG", "C.UTF-8")],
    );
    assert_eq!(json, utf8);
}

//! kubectl's connection flags and `-v`, against the recording API server on 127.0.0.1: what
//! reaches the server (credentials, impersonation), what `-v 6` prints (never a token), and
//! `version` (its line at once, a server that does not answer, a URL that is no API server).

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::process::Stdio;

use crate::support::apiserver::{Recorder, kubeconfig_at};
use crate::support::{demo, topo, topo_std};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = topo().args(args).output().expect("runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

#[test]
fn server_token_and_impersonation_flags_replace_the_kubeconfigs() {
    let server = Recorder::start();
    let dir = tempfile::tempdir().unwrap();
    // The kubeconfig points at a port where nothing listens, with token `t`: the flags win.
    let kc = kubeconfig_at(dir.path(), "http://127.0.0.1:1").display().to_string();
    let url = server.url();
    let args = [
        "zones",
        "--kubeconfig",
        &kc,
        "-s",
        &url,
        "--token",
        "s3cret",
        "--as",
        "alice",
        "--as-group",
        "devs",
        "--as-group",
        "ops",
    ];
    let (code, _, stderr) = run(&args);
    assert_eq!(code, 0, "{stderr}");
    let seen = server.seen();
    assert!(seen.iter().any(|s| s.line.starts_with("GET /api/v1/nodes")), "{seen:#?}");
    for request in &seen {
        assert_eq!(request.header("authorization"), ["Bearer s3cret"], "{request:?}");
        assert_eq!(request.header("impersonate-user"), ["alice"], "{request:?}");
        assert_eq!(request.header("impersonate-group"), ["devs", "ops"], "{request:?}");
    }
}

#[test]
fn a_server_alone_needs_no_kubeconfig() {
    let server = Recorder::start();
    // topo() clears KUBECONFIG and HOME: there is no kubeconfig at all.
    let (code, stdout, stderr) = run(&["zones", "--server", &server.url()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("ZONE"), "{stdout}");
    let bad = run(&["zones", "--server", "http://"]);
    assert_eq!(bad.0, 2, "{bad:?}");
    assert!(bad.2.starts_with("error: --server \"http://\" is not a URL"), "{bad:?}");
}

#[test]
fn as_is_a_flag_now_and_as_group_needs_it() {
    // Accepted (it only matters for a live cluster), no "did you mean --namespace".
    let demo = demo().display().to_string();
    let (code, _, stderr) = run(&["zones", "--as", "alice", "-f", &demo]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("error:") && !stderr.contains("hint:"), "{stderr}");
    let (code, _, stderr) = run(&["zones", "--as-group", "devs", "-f", &demo]);
    assert_eq!(code, 2);
    assert_eq!(stderr.lines().filter(|l| l.starts_with("error:")).count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: --as-group needs --as"), "{stderr}");
}

#[test]
fn v6_prints_each_request_and_never_the_token() {
    let server = Recorder::start();
    let dir = tempfile::tempdir().unwrap();
    let kc = server.kubeconfig(dir.path()).display().to_string();
    let url = server.url();
    for level in [["-v", "6"], ["--v", "7"]] {
        let (code, _, stderr) =
            run(&["check", "-A", "--kubeconfig", &kc, "--token", "s3cret", level[0], level[1]]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains(&format!("GET {url}/version 200 OK in ")), "{stderr}");
        assert!(stderr.contains(&format!("GET {url}/api/v1/nodes?")), "{stderr}");
        assert!(stderr.contains(&format!("GET {url}/api/v1/services?")), "{stderr}");
        assert!(!stderr.contains("s3cret"), "{stderr}");
    }
    let (code, _, quiet) = run(&["check", "-A", "--kubeconfig", &kc, "--v=5"]);
    assert_eq!(code, 0, "{quiet}");
    assert!(!quiet.contains("GET "), "{quiet}");
}

#[test]
fn version_prints_its_own_line_before_the_server_answers() {
    // Accepts connections (the kernel's backlog) and never answers.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://127.0.0.1:{}", silent.local_addr().unwrap().port());
    let mut child = topo_std()
        .args(["version", "-s", &url, "--request-timeout", "60s"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let still_waiting = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(first, format!("Plugin Version: v{}\n", env!("CARGO_PKG_VERSION")));
    assert!(still_waiting, "the plugin line came only after the server gave up");
    drop(silent);
}

#[test]
fn version_says_when_the_server_does_not_answer_or_is_no_api_server() {
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://127.0.0.1:{}", silent.local_addr().unwrap().port());
    let (code, stdout, stderr) = run(&["version", "-s", &url, "--request-timeout", "1s"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stdout.starts_with("Plugin Version: "), "{stdout}");
    assert!(
        stderr.starts_with(&format!(
            "error: timed out after 1s trying to get the server version (/version) on {url}"
        )),
        "{stderr}"
    );
    drop(silent);
    let not_found = Recorder::not_found();
    let (code, stdout, stderr) = run(&["version", "-s", &not_found.url()]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stdout.starts_with("Plugin Version: "), "{stdout}");
    let expected = format!(
        "error: {} answered 404 Not Found for /version (404 page not found): it is not a Kubernetes API server",
        not_found.url()
    );
    assert!(stderr.starts_with(&expected), "{stderr}");
    assert!(stderr.contains("hint: check the URL: --server"), "{stderr}");
}

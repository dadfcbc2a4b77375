//! Which Kubernetes version is modelled, end to end: the demo dump (made with `kubectl get`, so no
//! server version) infers it from its kubelets and says so; `--k8s-version` wins; a recorded server
//! newer than the newest modelled line is modelled as the newest with a note; an older one is
//! refused with one error line.

use crate::support::{demo, read, topo};

fn demo_text() -> String {
    read(&demo())
}

/// The demo dump with a `ClusterInfo` recording `server` as the server version.
fn with_server(server: &str) -> String {
    let info =
        format!("- apiVersion: kubectl-topo/v1alpha1\n  kind: ClusterInfo\n  serverVersion: {server}\n");
    demo_text().replacen("items:\n", &format!("items:\n{info}"), 1)
}

fn run(args: &[&str], stdin: String) -> (i32, String, String) {
    // A UTF-8 locale: the headers below are matched with their middle dot.
    let out = topo().args(args).args(["-f", "-"]).env("LANG", "C.UTF-8").write_stdin(stdin).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

const EXPLAIN: [&str; 4] = ["explain", "svc/demo-service", "-n", "demo"];

#[test]
fn a_kubectl_get_dump_is_modelled_at_its_kubelets_version_and_says_so() {
    let (code, stdout, stderr) = run(&EXPLAIN, demo_text());
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout
            .lines()
            .next()
            .unwrap()
            .ends_with("· Kubernetes 1.36 behaviour, inferred from kubelet versions")
    );
    assert!(stderr.starts_with("note: no server version recorded: modelling Kubernetes 1.36, inferred from the kubelets of 3 Node(s)"), "{stderr}");
    let (_, json, _) = run(&["check", "-A", "-o", "json"], demo_text());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["kubernetesVersion"], "1.36");
    assert_eq!(v["kubernetesVersionBasis"]["kind"], "kubelets");
    assert_eq!(v["kubernetesVersionBasis"]["nodes"], 3);
}

#[test]
fn the_flag_always_wins_without_a_note() {
    let (code, stdout, stderr) = run(&[&EXPLAIN[..], &["--k8s-version", "1.33.4"]].concat(), demo_text());
    assert_eq!((code, stderr.as_str()), (0, ""));
    // The patch is kept: patch releases that changed behaviour are modelled (docs/behaviour.md).
    assert!(stdout.lines().next().unwrap().ends_with("· Kubernetes 1.33.4 behaviour"), "{stdout}");
}

#[test]
fn a_newer_server_is_modelled_as_the_newest_line_and_an_older_one_refused() {
    let (code, stdout, stderr) = run(&EXPLAIN, with_server("v1.40.2-gke.1"));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout
            .lines()
            .next()
            .unwrap()
            .ends_with("· Kubernetes 1.37 behaviour, the newest modelled (server v1.40.2-gke.1)")
    );
    assert!(stderr.contains("newer than the newest line modelled (1.37)"), "{stderr}");
    let (code, stdout, stderr) = run(&EXPLAIN, with_server("v1.36.3"));
    assert_eq!((code, stderr.as_str()), (0, ""), "an exact server version needs no note");
    assert!(stdout.lines().next().unwrap().ends_with("· Kubernetes 1.36 behaviour"), "{stdout}");
    let (code, stdout, stderr) = run(&EXPLAIN, with_server("v1.19.16"));
    assert_eq!((code, stdout.as_str()), (2, ""));
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(
        errors,
        [
            "error: the server runs Kubernetes 1.19, older than the oldest line modelled (1.21, the first with topology hints)"
        ]
    );
}

#[test]
fn kubelets_older_than_the_hints_api_are_refused() {
    let text = demo_text().replace("kubeletVersion: v1.36.2-eks-4a3f9d1", "kubeletVersion: v1.20.15");
    let (code, _, stderr) = run(&["zones"], text);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("error: the newest kubelet runs Kubernetes 1.20"), "{stderr}");
}

#[test]
fn a_dump_without_versions_models_the_newest_line_and_the_header_says_assumed() {
    let text = demo_text().replace("kubeletVersion: v1.36.2-eks-4a3f9d1", "kubeletVersion: \"\"");
    let (code, stdout, stderr) = run(&EXPLAIN, text);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert!(
        stdout
            .lines()
            .next()
            .unwrap()
            .ends_with("· Kubernetes 1.37 behaviour, assumed (no version recorded)")
    );
}

use std::time::Duration;

use super::*;

const NODES: &str = "list nodes at cluster scope";

fn api(code: u16) -> kube::Error {
    kube::Error::Api(Box::new(kube::core::Status::failure("m", "Reason").with_code(code)))
}

fn kube_error(code: u16, attempts: u32) -> SourceError {
    SourceError::Kube { action: NODES.into(), server: "https://x".into(), source: api(code), attempts }
}

fn not_found(found_in: &[&str]) -> SourceError {
    SourceError::from(ServiceNotFound {
        namespace: "default".into(),
        name: "web".into(),
        origin: "dump:d.yaml".into(),
        found_in: found_in.iter().map(|s| s.to_string()).collect(),
        near: None,
    })
}

#[test]
fn api_failures_are_one_line_naming_what_was_tried() {
    let cases = [
        (kube_error(403, 1), "forbidden: cannot list nodes at cluster scope"),
        (
            kube_error(401, 1),
            "unauthorized: https://x rejected the credentials while trying to list nodes at cluster scope (m)",
        ),
        (kube_error(404, 1), "not found: cannot list nodes at cluster scope: m"),
        (
            kube_error(503, 4),
            "cannot list nodes at cluster scope: the API server answered 503: m (after 4 attempts)",
        ),
        (
            SourceError::Timeout {
                action: NODES.into(),
                server: "https://x".into(),
                after: Duration::from_millis(1500),
            },
            "timed out after 1.5s trying to list nodes at cluster scope on https://x",
        ),
        (
            SourceError::Missing { action: NODES, consequence: "nothing" },
            "forbidden: cannot list nodes at cluster scope, so nothing",
        ),
    ];
    for (error, want) in cases {
        assert_eq!(error.to_string(), want);
        assert_eq!(error.exit_status(), ExitStatus::Cluster, "{want}");
        assert!(error.hint("kubectl topo").is_some(), "{want}");
    }
    assert_eq!(kube_error(403, 1).hint("k").as_deref(), Some(FORBIDDEN_HINT));
    assert!(kube_error(401, 1).hint("k").unwrap().starts_with("the credentials of the current context"));
    assert!(kube_error(403, 1).is_api_status(403) && !kube_error(403, 1).is_api_status(410));
}

#[test]
fn kubeconfig_problems_name_the_file_and_share_one_remedy() {
    let with_path =
        SourceError::Kubeconfig { path: Some("/k/config".into()), source: KubeconfigError::FindPath };
    assert_eq!(with_path.to_string(), "kubeconfig /k/config: failed to find the path of kubeconfig");
    let without = SourceError::Kubeconfig { path: None, source: KubeconfigError::FindPath };
    assert_eq!(without.to_string(), "kubeconfig: failed to find the path of kubeconfig");
    let none =
        SourceError::NoKubeconfig(InClusterError::ReadEnvironmentVariable(std::env::VarError::NotPresent));
    assert!(
        none.to_string().starts_with(
            "no kubeconfig found (KUBECONFIG unset, ~/.kube/config missing) and not running in a Pod (failed to read"
        ),
        "{none}"
    );
    // A kubeconfig that is wrong is input (2); none at all, outside a Pod, is no cluster (3).
    let expected = [ExitStatus::Usage, ExitStatus::Usage, ExitStatus::Cluster];
    for (error, status) in [with_path, without, none].into_iter().zip(expected) {
        assert_eq!(error.exit_status(), status, "{error}");
        assert!(error.hint("k").unwrap().starts_with("pass --kubeconfig FILE"));
    }
}

#[test]
fn a_missing_service_is_an_input_error_from_a_dump_and_a_cluster_alike() {
    assert_eq!(not_found(&[]).to_string(), "service default/web not found in dump:d.yaml");
    assert_eq!(not_found(&[]).exit_status(), ExitStatus::Usage);
    assert_eq!(
        not_found(&[]).hint("kubectl topo").unwrap(),
        "list the Services with `kubectl topo check -A --show-all` and check the name and -n"
    );
    assert_eq!(
        not_found(&["a", "b"]).hint("kubectl topo").unwrap(),
        "a Service named \"web\" exists in namespace(s) a, b: add -n a"
    );
}

#[test]
fn unreadable_input_is_a_usage_error() {
    let read = SourceError::Read { path: "d.yaml".into(), source: std::io::ErrorKind::NotFound.into() };
    assert_eq!(read.to_string(), "cannot read d.yaml: entity not found");
    assert_eq!(read.exit_status(), ExitStatus::Usage);
    let dump = SourceError::from(DumpError::Empty { origin: "d.yaml".into() });
    assert_eq!(dump.exit_status(), ExitStatus::Usage);
    assert!(dump.hint("k").unwrap().starts_with("create a dump with"));
    let runtime = SourceError::Runtime(std::io::ErrorKind::Other.into());
    assert!(runtime.to_string().starts_with("cannot start the I/O runtime: "));
    assert_eq!((runtime.exit_status(), runtime.hint("k")), (ExitStatus::Cluster, None));
}

#[test]
fn kubeconfig_parse_errors_give_the_place_and_the_fault_never_the_text() {
    let text = "apiVersion: v1\nusers:\n- name: u\n  user:\n    token: planted-token\n    key: \"QUJD\n";
    let source = kube::config::Kubeconfig::from_yaml(text).expect_err("does not parse");
    let message = SourceError::Kubeconfig { path: Some("/k/config".into()), source }.to_string();
    assert!(message.starts_with("kubeconfig /k/config:"), "{message}");
    assert!(message.contains(": invalid YAML: "), "{message}");
    for secret in ["planted-token", "QUJD", "token", "-->", "\n"] {
        assert!(!message.contains(secret), "{secret:?} in {message}");
    }
    assert_eq!(
        without_values("error: line 5 column 9: invalid type: string \"planted\", expected a map at line 5"),
        "invalid type: string (…), expected a map"
    );
    assert_eq!(
        without_values("unknown field `secret`, expected one of `a`"),
        "unknown field (…), expected one of (…)"
    );
}

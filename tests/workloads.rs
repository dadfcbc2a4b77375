//! The workloads behind a Service (issue 34 item 1) on `kubectl get … -o yaml` style dumps: w02's
//! Service with its Deployment, ReplicaSet, StatefulSet, HPA and Pods; the same without Pods (found
//! by selector); with the workload reads recorded as forbidden; and `explain deploy/NAME`,
//! `statefulset/NAME`, `pod/NAME` finding the Service in front.

use serde_json::Value;

use crate::support::{path, read, topo};

/// w02 with the documents of `extra` (files under tests/fixtures/workloads) appended.
fn dump(extra: &[&str], info: &str) -> tempfile::NamedTempFile {
    let mut text = read(&path("tests/fixtures/w02-three-zones-four-endpoints.yaml"))
        .replace("serverVersion: v1.36.2", &format!("serverVersion: v1.36.2{info}"));
    for name in extra {
        text.push_str("---\n");
        text.push_str(&read(&path(&format!("tests/fixtures/workloads/{name}.yaml"))));
    }
    let file = tempfile::Builder::new().suffix(".yaml").tempfile().unwrap();
    std::fs::write(file.path(), text).unwrap();
    file
}

fn run(file: &tempfile::NamedTempFile, args: &[&str]) -> (i32, String, String) {
    let out = topo().args(args).args(["-n", "w", "-f"]).arg(file.path()).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

fn workloads_json(file: &tempfile::NamedTempFile) -> Value {
    let (code, out, err) = run(file, &["explain", "svc", "-o", "json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str::<Value>(&out).unwrap()["workloads"].clone()
}

const FORBIDDEN: &str = "\n  workloadReads:\n    Pods: forbidden\n    Deployments: forbidden\n    \
     StatefulSets: forbidden\n    ReplicaSets: forbidden\n    HorizontalPodAutoscalers: forbidden";

#[test]
fn pods_lead_to_the_deployment_its_replicas_range_and_spread() {
    let file = dump(&["apps", "pods"], "");
    let w = workloads_json(&file);
    assert_eq!(w["foundBy"], "Pods");
    let list = w["workloads"].as_array().unwrap();
    assert_eq!(list.len(), 1, "the ReplicaSet is its Deployment's; the StatefulSet backs nothing: {w}");
    let deployment = &list[0];
    assert_eq!((deployment["kind"].as_str(), deployment["name"].as_str()), (Some("Deployment"), Some("svc")));
    assert_eq!(deployment["replicas"], 4);
    assert_eq!(deployment["pods"], 3);
    assert_eq!(
        (deployment["autoscaler"]["min"].as_i64(), deployment["autoscaler"]["max"].as_i64()),
        (Some(2), Some(9))
    );
    let spread = deployment["spread"].as_array().unwrap();
    assert_eq!(spread[0]["topologyKey"], "topology.kubernetes.io/zone");
    assert_eq!(
        (spread[0]["selectsOwnPods"].as_bool(), spread[1]["selectsOwnPods"].as_bool()),
        (Some(true), Some(false))
    );
    assert_eq!(w["unownedEndpoints"], 1, "svc-c1 has no controller");
    let (_, text, _) = run(&file, &["explain", "svc"]);
    let section = text.split("\nWorkloads\n").nth(1).expect("a Workloads section");
    assert!(section.contains("deployment/svc") && section.contains("2-9 (hpa/svc)"), "{section}");
    assert!(section.contains("zone maxSkew 1 DoNotSchedule"), "{section}");
    assert!(!section.contains("unavailable"), "every read was done: {section}");
}

#[test]
fn without_pods_the_selector_finds_the_template_and_says_so() {
    let file = dump(&["apps"], "");
    let w = workloads_json(&file);
    assert_eq!(w["foundBy"], "Selector");
    let names: Vec<&str> =
        w["workloads"].as_array().unwrap().iter().map(|w| w["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["svc"]);
    assert_eq!(w["reads"]["Pods"], "notInDump");
    let (_, text, _) = run(&file, &["explain", "svc"]);
    assert!(text.contains("Pods were not read"), "{text}");
    assert!(text.contains("unavailable: pods not in the dump"), "{text}");
}

#[test]
fn forbidden_reads_are_said_plainly() {
    let file = dump(&[], FORBIDDEN);
    let w = workloads_json(&file);
    assert_eq!(w["foundBy"], "Unknown");
    assert_eq!(w["workloads"], Value::Array(vec![]));
    let (_, text, _) = run(&file, &["explain", "svc"]);
    assert!(text.contains("pods forbidden to this user"), "{text}");
    assert!(text.contains("deploy/rbac.yaml"), "the remedy: {text}");
}

#[test]
fn a_dump_without_workloads_shows_no_section() {
    let file = dump(&[], "");
    let (code, out, err) = run(&file, &["explain", "svc", "-o", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(serde_json::from_str::<Value>(&out).unwrap().get("workloads").is_none());
    let (_, text, _) = run(&file, &["explain", "svc"]);
    assert!(!text.contains("\nWorkloads\n"), "{text}");
}

#[test]
fn explain_of_a_workload_or_pod_explains_the_service_in_front() {
    let file = dump(&["apps", "pods"], "");
    for target in [&["deploy/svc"][..], &["deployment", "svc"], &["pod/svc-c1"], &["pods/svc-5d9c7b-a1"]] {
        let (code, out, err) = run(&file, &[&["explain"][..], target].concat());
        assert_eq!(code, 0, "{target:?}: {err}");
        assert!(out.starts_with("Service w/svc "), "{target:?}: {out}");
    }
    let without_pods = dump(&["apps"], "");
    let (code, out, _) = run(&without_pods, &["explain", "deploy/svc"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Service w/svc "), "found by selector: {out}");
}

#[test]
fn nothing_in_front_is_one_error_line_and_exit_2() {
    let file = dump(&["apps", "pods"], "");
    let (code, out, err) = run(&file, &["explain", "sts/cache"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("error: no Service in namespace w has endpoints on statefulset/cache\nhint: "),
        "{err}"
    );
    let forbidden = dump(&[], FORBIDDEN);
    let (code, _, err) = run(&forbidden, &["explain", "pod/svc-c1"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot tell which Service is in front of pod/svc-c1 in namespace w: pods forbidden"),
        "{err}"
    );
}

#[test]
fn a_redacted_dump_keeps_the_workloads_under_other_names() {
    let file = dump(&["apps", "pods"], "");
    let out = topo().args(["dump", "--redact", "-A", "-f"]).arg(file.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    for original in ["svc-5d9c7b", "svc-c1", "cache", "app: svc", "10.0.1.11"] {
        assert!(!text.contains(original), "{original:?} is left in the redacted dump");
    }
    let redacted = tempfile::Builder::new().suffix(".yaml").tempfile().unwrap();
    std::fs::write(redacted.path(), &text).unwrap();
    // One namespace and one Service: their pseudonyms are the first of each numbering.
    let args = ["explain", "-o", "json", "-n", "ns-1", "svc-1", "-f"];
    let out = topo().args(args).arg(redacted.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let w = serde_json::from_slice::<Value>(&out.stdout).unwrap()["workloads"].clone();
    assert_eq!(w["foundBy"], "Pods", "{w}");
    let deployment = &w["workloads"][0];
    assert_eq!(
        (deployment["kind"].as_str(), deployment["replicas"].as_i64(), deployment["pods"].as_i64()),
        (Some("Deployment"), Some(4), Some(3))
    );
    assert_eq!(deployment["autoscaler"]["max"], 9);
    assert_eq!(deployment["spread"][0]["selectsOwnPods"], true);
}

/// A loopback API server whose Pods are forbidden: the Deployment is found by the Service's
/// selector, and the report says the Pods were forbidden.
fn pods_forbidden(method: &str, path: &str) -> (&'static str, String) {
    const FORBIDDEN: &str =
        r#"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403}"#;
    let list = |kind: &str, api_version: &str, items: &str| {
        format!(
            r#"{{"apiVersion":"{api_version}","kind":"{kind}","metadata":{{"resourceVersion":"1"}},"items":[{items}]}}"#
        )
    };
    let deployment = r#"{"metadata":{"name":"web","namespace":"default"},"spec":{"replicas":3,"template":{"metadata":{"labels":{"app":"web"}}}}}"#;
    let hpa = r#"{"metadata":{"name":"web","namespace":"default"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"minReplicas":2,"maxReplicas":6}}"#;
    match path {
        "/api/v1/namespaces/default/pods" => ("403 Forbidden", FORBIDDEN.into()),
        "/apis/apps/v1/namespaces/default/deployments" => {
            ("200 OK", list("DeploymentList", "apps/v1", deployment))
        }
        "/apis/apps/v1/namespaces/default/statefulsets" => ("200 OK", list("StatefulSetList", "apps/v1", "")),
        "/apis/apps/v1/namespaces/default/replicasets" => ("403 Forbidden", FORBIDDEN.into()),
        "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers" => {
            ("200 OK", list("HorizontalPodAutoscalerList", "autoscaling/v2", hpa))
        }
        _ => crate::support::apiserver::answer(method, path),
    }
}

#[test]
fn live_reads_are_rbac_tolerant_and_list_only_the_services_pods() {
    let api = crate::support::apiserver::Recorder::start_with(pods_forbidden);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.kubeconfig(dir.path());
    let out =
        topo().args(["explain", "svc/web", "-o", "json", "--kubeconfig"]).arg(&kubeconfig).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let w = serde_json::from_slice::<Value>(&out.stdout).unwrap()["workloads"].clone();
    assert_eq!(
        (w["reads"]["Pods"].as_str(), w["reads"]["ReplicaSets"].as_str()),
        (Some("forbidden"), Some("forbidden"))
    );
    assert_eq!(w["foundBy"], "Selector");
    let web = &w["workloads"][0];
    assert_eq!(
        (web["name"].as_str(), web["replicas"].as_i64(), web["autoscaler"]["min"].as_i64()),
        (Some("web"), Some(3), Some(2))
    );
    let pods: Vec<String> = api.requests().into_iter().filter(|r| r.contains("/pods")).collect();
    assert_eq!(pods.len(), 1, "{pods:?}");
    assert!(pods[0].contains("labelSelector=app%3Dweb"), "only the Service's Pods: {pods:?}");
    let out = topo().args(["explain", "svc/web", "--kubeconfig"]).arg(&kubeconfig).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("unavailable: pods forbidden to this user, replicasets forbidden to this user"),
        "{text}"
    );
}

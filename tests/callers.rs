//! The load check's callers behind a front door (docs/stability.md#callers-from-the-front-door):
//! W14's `svc-close` (PreferClose; ready endpoints a:1, b:3, c:2) named by an Ingress of the
//! `nginx` class, with ingress-nginx's controller Pods on chosen Nodes, on a dump, through `dump`
//! and `dump --redact`, and with `--traffic`, which wins.

use serde_json::Value;

use crate::support::{dump_json, json, path, read, temp_file, topo};

const W14: &str = "tests/fixtures/w14-traffic-distribution.yaml";
/// Ready endpoints of `svc-close` per zone; W14's Nodes n0, n1, n2 are in zones a, b, c.
const READY: [(&str, f64); 3] = [("a", 1.0), ("b", 3.0), ("c", 2.0)];

/// W14, an Ingress `w/web` of class nginx naming svc-close, and one controller Pod per entry of
/// `nodes` (`None`: not scheduled).
fn dump(nodes: &[Option<&str>]) -> String {
    let mut text = read(&path(W14));
    text.push_str(
        "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\n  namespace: w\nspec:\n  ingressClassName: nginx\n  rules:\n  - http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service:\n            name: svc-close\n            port:\n              number: 80\n",
    );
    for (i, node) in nodes.iter().enumerate() {
        let spec = node.map_or(String::new(), |n| format!("spec:\n  nodeName: {n}\n"));
        text.push_str(&format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: controller-{i}\n  namespace: ingress-nginx\n  labels:\n    app.kubernetes.io/name: ingress-nginx\n    app.kubernetes.io/component: controller\n{spec}"
        ));
    }
    text
}

fn load_of(file: &std::path::Path, extra: &[&str]) -> Value {
    let file = file.to_str().unwrap();
    let mut args = vec!["explain", "svc/svc-close", "-n", "w", "-f", file];
    args.extend(extra);
    json(&args, 0)["families"][0]["load"].clone()
}

fn zones_of(list: &Value) -> Vec<String> {
    let mut zones: Vec<String> =
        list.as_array().unwrap().iter().map(|e| e["zone"].as_str().unwrap().to_string()).collect();
    zones.sort();
    zones
}

/// Each zone's requests, in proportion to its controller Pods, stay on its own endpoints.
fn assert_follows_pods(load: &Value, pods: &[(&str, f64)]) {
    assert_eq!(load["trafficSource"], "FrontDoor", "{load}");
    let n: f64 = READY.iter().map(|(_, r)| r).sum();
    let total: f64 = pods.iter().map(|(_, p)| p).sum();
    let expected = |zone: &str| {
        pods.iter().find(|(z, _)| *z == zone).map_or(0.0, |(_, p)| *p)
            / total
            / READY.iter().find(|(z, _)| *z == zone).unwrap().1
            * n
    };
    let (mut over, mut idle) = (Vec::new(), Vec::new());
    for (zone, count) in READY {
        let e = expected(zone);
        let list = if e > 2.0 {
            &mut over
        } else if e == 0.0 {
            &mut idle
        } else {
            continue;
        };
        list.extend(std::iter::repeat_n(zone.to_string(), count as usize));
    }
    assert_eq!(zones_of(&load["overloaded"]), over, "{pods:?}: {load}");
    assert_eq!(zones_of(&load["idle"]), idle, "{pods:?}: {load}");
    let max = READY.iter().map(|(z, _)| expected(z)).fold(0.0, f64::max);
    assert!((load["maxLoad"].as_f64().unwrap() - max).abs() < 1e-9, "{pods:?}: {load}");
    for (zone, count) in pods {
        assert_eq!(load["frontDoor"]["podsByZone"][zone].as_f64(), Some(*count), "{load}");
    }
}

#[test]
fn behind_ingress_nginx_the_callers_are_its_controller_pods_zones() {
    for (nodes, pods) in [
        (&[Some("n0")][..], &[("a", 1.0)][..]),
        (&[Some("n0"), Some("n1")], &[("a", 1.0), ("b", 1.0)]),
        (&[Some("n2"), Some("n2"), Some("n1")], &[("b", 1.0), ("c", 2.0)]),
    ] {
        let file = temp_file(&dump(nodes));
        let load = load_of(file.path(), &[]);
        assert_follows_pods(&load, pods);
        assert_eq!(load["frontDoor"]["routes"], serde_json::json!(["Ingress w/web"]), "{load}");
    }
    // One controller in zone a: all requests reach a's one endpoint, the five others get none.
    let file = temp_file(&dump(&[Some("n0")]));
    let out = topo().args(["explain", "svc/svc-close", "-n", "w", "-f"]).arg(file.path()).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.contains("no overload safeguard")).expect("a load line");
    assert!(line.contains("callers: the Pods of Ingress w/web, 1 in zone a"), "{text}");
    assert!(line.contains("gets 6.0") && line.contains("no request at all:"), "{text}");
}

#[test]
fn traffic_wins_and_an_unknown_zone_or_no_pods_fall_back_to_zone_cpu_with_a_note() {
    let file = temp_file(&dump(&[Some("n0")]));
    let given = load_of(file.path(), &["--traffic", "a=1,b=1,c=1"]);
    assert_eq!(given["trafficSource"], "Given", "{given}");
    assert!(given.get("frontDoor").is_none(), "{given}");
    let cpu = load_of(&path(W14), &[]);
    assert_eq!(cpu["trafficSource"], "ZoneCpu", "no front door: {cpu}");
    for (nodes, fallback) in [
        (&[Some("n0"), None][..], "unknownZone"),
        (&[Some("n0"), Some("gone")], "unknownZone"),
        (&[], "podsNotRead"),
    ] {
        let file = temp_file(&dump(nodes));
        let load = load_of(file.path(), &[]);
        assert_eq!(load["trafficSource"], "ZoneCpu", "{load}");
        assert_eq!(load["frontDoor"]["fallback"], fallback, "{load}");
        for key in ["overloaded", "idle", "maxLoad"] {
            assert_eq!(load[key], cpu[key], "zone CPU's figures: {key}");
        }
        let out =
            topo().args(["explain", "svc/svc-close", "-n", "w", "-f"]).arg(file.path()).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("callers weighted by zone CPU instead"), "{text}");
    }
    let file = temp_file(&dump(&[Some("n0"), None]));
    let load = load_of(file.path(), &[]);
    assert_eq!(load["frontDoor"]["unknownZone"], serde_json::json!(["ingress-nginx/controller-1"]), "{load}");
    let file = temp_file(&dump(&[]));
    assert_eq!(load_of(file.path(), &[])["frontDoor"]["podsRead"], "notInDump");
}

#[test]
fn dump_and_redact_keep_the_controller_pods_and_their_zones() {
    let file = temp_file(&dump(&[Some("n0"), Some("n1")]));
    for extra in [&[][..], &["--redact"]] {
        let written = temp_file(&dump_json(file.path(), extra));
        let text = read(written.path());
        assert!(text.contains("\"app.kubernetes.io/component\": \"controller\""), "{text}");
        assert!(!text.contains("admission"), "only what is read");
        if extra.is_empty() {
            assert_follows_pods(&load_of(written.path(), &[]), &[("a", 1.0), ("b", 1.0)]);
        } else {
            assert!(!text.contains("controller-0"), "Pod names are pseudonymised: {text}");
            // The Ingress names the Service under its pseudonyms.
            let doc: Value = serde_json::from_str(&text).unwrap();
            let items = doc["items"].as_array().unwrap();
            let ingress = items.iter().find(|i| i["kind"] == "Ingress").expect("the Ingress");
            let ns = ingress["metadata"]["namespace"].as_str().unwrap();
            let service = ingress.pointer("/spec/rules/0/http/paths/0/backend/service/name").unwrap();
            let target = format!("svc/{}", service.as_str().unwrap());
            let args = ["explain", &target, "-n", ns, "-f", written.path().to_str().unwrap()];
            let load = json(&args, 0)["families"][0]["load"].clone();
            assert_follows_pods(&load, &[("a", 1.0), ("b", 1.0)]);
        }
    }
}

/// The API server of `support::apiserver` with an Ingress of class nginx naming `default/web`, and
/// ingress-nginx's controller Pod on `n1` (zone a) for every Pod list (both selectors).
fn with_ingress(method: &str, path: &str) -> (&'static str, String) {
    let list = |kind: &str, api_version: &str, items: &str| {
        format!(
            r#"{{"apiVersion":"{api_version}","kind":"{kind}","metadata":{{"resourceVersion":"1"}},"items":[{items}]}}"#
        )
    };
    let ingress = r#"{"metadata":{"name":"web","namespace":"default"},"spec":{"ingressClassName":"nginx","defaultBackend":{"service":{"name":"web","port":{"number":80}}}}}"#;
    let pod = r#"{"metadata":{"name":"controller-0","namespace":"ingress-nginx","labels":{"app.kubernetes.io/name":"ingress-nginx","app.kubernetes.io/component":"controller"}},"spec":{"nodeName":"n1","containers":[{"name":"controller","image":"x"}]},"status":{"phase":"Running"}}"#;
    match path {
        "/apis/networking.k8s.io/v1/ingresses" => {
            ("200 OK", list("IngressList", "networking.k8s.io/v1", ingress))
        }
        "/api/v1/pods" => ("200 OK", list("PodList", "v1", pod)),
        _ => crate::support::apiserver::answer(method, path),
    }
}

/// [`with_ingress`], the Pod lists forbidden.
fn pods_forbidden(method: &str, path: &str) -> (&'static str, String) {
    match path {
        "/api/v1/pods" => (
            "403 Forbidden",
            r#"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403}"#
                .into(),
        ),
        _ => with_ingress(method, path),
    }
}

fn live_dump(answer: crate::support::apiserver::Answer) -> (Value, Vec<String>) {
    let api = crate::support::apiserver::Recorder::start_with(answer);
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = api.kubeconfig(dir.path());
    let out = topo().args(["dump", "-A", "-o", "json", "--kubeconfig"]).arg(&kubeconfig).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let front = |r: &String| {
        r.contains("/api/v1/pods?") && (r.contains("ingress-nginx") || r.contains("gateway.envoyproxy.io"))
    };
    let pods = api.requests().into_iter().filter(front).collect();
    (serde_json::from_slice(&out.stdout).unwrap(), pods)
}

/// Every item of a dump, Lists unwrapped.
fn items(doc: &Value) -> Vec<&Value> {
    let mut out = Vec::new();
    for item in doc["items"].as_array().unwrap() {
        match item["items"].as_array() {
            Some(inner) => out.extend(inner),
            None => out.push(item),
        }
    }
    out
}

#[test]
fn live_the_controller_pods_are_listed_by_selector_only_behind_a_front_door_and_rbac_tolerant() {
    let (doc, requests) = live_dump(with_ingress);
    assert_eq!(requests.len(), 2, "{requests:?}");
    assert!(requests.iter().all(|r| r.contains("labelSelector=")), "by selector only: {requests:?}");
    let pods: Vec<&Value> = items(&doc)
        .into_iter()
        .filter(|i| i["kind"] == "Pod" && i["metadata"].get("labels").is_some())
        .collect();
    assert_eq!(pods.len(), 1, "listed by both selectors, written once: {pods:?}");
    assert_eq!(pods[0]["spec"], serde_json::json!({"nodeName": "n1"}), "its node and nothing else");
    // Read back: the same Pod among the workloads' (`-A`, without its labels) is no duplicate.
    let file = temp_file(&doc.to_string());
    let out = topo().args(["explain", "svc/web", "-o", "json", "-f"]).arg(file.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let (doc, _) = live_dump(pods_forbidden);
    let info = items(&doc).into_iter().find(|i| i["kind"] == "ClusterInfo").cloned().expect("ClusterInfo");
    assert_eq!(info["optionalReads"]["FrontDoorPods"], "forbidden", "{info}");
    let (_, requests) = live_dump(crate::support::apiserver::answer);
    assert!(requests.is_empty(), "no Ingress or route, no Pod list: {requests:?}");
}

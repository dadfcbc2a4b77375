use std::path::Path;

use super::*;

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

fn parse_ok(text: &str) -> ParsedDump {
    parse_dump(text, "t").unwrap_or_else(|e| panic!("{e}"))
}

/// `(nodes, services, slices, events, endpoints over all slices)`.
fn counts(parsed: &ParsedDump) -> (usize, usize, usize, usize, usize) {
    let s = &parsed.snapshot;
    let endpoints = s.slices.iter().map(|slice| slice.endpoints.len()).sum();
    (s.nodes.len(), s.services.len(), s.slices.len(), s.events.len(), endpoints)
}

#[test]
fn demo_cluster_parses_with_expected_objects() {
    let parsed = parse_dump(&read("examples/demo-cluster.yaml"), "dump:examples/demo-cluster.yaml").unwrap();
    assert_eq!(counts(&parsed), (3, 4, 4, 2, 3 + 4 + 3 + 2));
    assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
    assert_eq!(
        (parsed.snapshot.info.server_version.as_deref(), parsed.snapshot.info.origin.as_str()),
        (None, "dump:examples/demo-cluster.yaml")
    );
    let s = &parsed.snapshot;
    assert!(s.nodes.iter().all(|n| n.allocatable_cpu.map(|c| c.milli_value()) == Some(1930)));
    assert!(s.nodes.iter().all(|n| n.ready.as_deref() == Some("True")));
    assert!(s.nodes.iter().all(|n| n.kubelet_version.as_deref() == Some("v1.36.2-eks-4a3f9d1")));
    let kubernetes = s.services.iter().find(|svc| svc.name == "kubernetes").unwrap();
    assert!(!kubernetes.has_selector);
    let hinted = s.slices.iter().find(|slice| slice.name == "demo-service-x7k2p").unwrap();
    assert!(hinted.is_controller_managed());
    assert!(
        hinted.endpoints.iter().all(|e| e.hints.as_ref().and_then(|h| h.for_zones.clone())
            == Some(vec![e.zone.clone().unwrap()].into()))
    );
    let warning = s.events.iter().find(|e| e.event_type == "Warning").unwrap();
    assert_eq!((warning.object_name.as_str(), warning.count), ("demo-service-4", 15));
    assert!(warning.message.ends_with("(4 endpoints, 3 zones), addressType: IPv4"));
}

#[test]
fn every_fixture_parses_with_expected_counts() {
    let expected = [
        ("w01-docs-12-4-vcpu", (2, 1, 1, 0, 4)),
        ("w02-three-zones-four-endpoints", (3, 1, 1, 0, 4)),
        ("w03-four-zones-hinted", (4, 1, 1, 0, 4)),
        ("w04-two-to-one-two-endpoints", (2, 1, 1, 0, 2)),
        ("w05-single-zone", (3, 1, 1, 0, 2)),
        ("w06-endpoint-without-zone", (3, 1, 1, 0, 7)),
        ("w07-control-plane-zone", (3, 1, 1, 0, 4)),
        ("w08-tie", (3, 1, 1, 0, 14)),
        ("w09-float-bounds", (2, 1, 1, 0, 6)),
        ("w10-bounds-no-float", (2, 1, 1, 0, 7)),
        ("w11-float-refuses", (2, 1, 1, 0, 6)),
        ("w12-all-in-one-zone", (3, 1, 1, 0, 3)),
        ("w13-stable-imbalance", (3, 1, 1, 0, 30)),
        ("w14-traffic-distribution", (3, 3, 3, 0, 18)),
        ("w15-kube-proxy-prefer-same-node", (5, 1, 1, 0, 3)),
    ];
    let on_disk = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"))
        .unwrap()
        .filter(|entry| entry.as_ref().unwrap().path().extension().is_some_and(|e| e == "yaml"))
        .count();
    assert_eq!(on_disk, expected.len(), "a fixture without an expectation here");
    for (name, want) in expected {
        let parsed = parse_ok(&read(&format!("tests/fixtures/{name}.yaml")));
        assert_eq!(counts(&parsed), want, "{name}");
        assert!(parsed.skipped.is_empty(), "{name}: {:?}", parsed.skipped);
        assert_eq!(parsed.snapshot.info.server_version.as_deref(), Some("v1.36.2"), "{name}");
    }
}

#[test]
fn json_and_yaml_of_the_same_list_are_equal() {
    let yaml = read("examples/demo-cluster.yaml");
    let value = yaml_documents(&yaml, "t").unwrap().remove(0);
    let json = serde_json::to_string_pretty(&value).unwrap();
    assert_eq!(parse_ok(&json), parse_ok(&yaml));
    let compact = serde_json::to_string(&value).unwrap();
    assert_eq!(parse_ok(&compact), parse_ok(&yaml));
}

const NODE: &str =
    "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nstatus:\n  allocatable:\n    cpu: \"2\"\n";

#[test]
fn single_objects_multi_documents_and_typed_lists() {
    assert_eq!(counts(&parse_ok(NODE)), (1, 0, 0, 0, 0));
    let typed_list = "apiVersion: discovery.k8s.io/v1\nkind: EndpointSliceList\nitems:\n- metadata: {name: s, namespace: w}\n  addressType: FQDN\n  endpoints: [{addresses: [a.example]}]\n";
    let events_v1 = "apiVersion: events.k8s.io/v1\nkind: Event\nmetadata: {name: e, namespace: w}\neventTime: null\nreason: R\nnote: hi\n";
    let info = "apiVersion: kubectl-topo/v1alpha1\nkind: ClusterInfo\nserverVersion: v1.33.4-eks-1\nnodesUnavailable: true\npartial: [nodes forbidden]\n";
    let text = format!("---\n{NODE}---\n---\n{typed_list}---\n~\n---\n{events_v1}---\n{info}");
    let parsed = parse_ok(&text);
    assert_eq!(counts(&parsed), (1, 0, 1, 1, 1));
    assert_eq!(parsed.snapshot.slices[0].address_type, "FQDN", "FQDN slices are kept");
    assert_eq!(parsed.snapshot.events[0].message, "hi");
    assert_eq!(parsed.snapshot.info.server_version.as_deref(), Some("v1.33.4-eks-1"));
    assert!(parsed.snapshot.info.nodes_unavailable);
    assert_eq!(parsed.snapshot.info.partial, ["nodes forbidden"]);
    let lists = format!(
        "apiVersion: v1\nkind: List\nitems: [null]\n---\napiVersion: v1\nkind: NodeList\nitems:\n- metadata: {{name: a}}\n- metadata: {{name: b}}\n---\n{NODE}"
    );
    assert_eq!(counts(&parse_ok(&lists)), (3, 0, 0, 0, 0));
}

#[test]
fn other_kinds_are_counted_not_read() {
    let text = format!(
        "apiVersion: v1\nkind: List\nitems:\n- {{apiVersion: batch/v1, kind: Job}}\n- {{apiVersion: batch/v1, kind: Job}}\n- {{kind: Pod}}\n- {{apiVersion: v1}}\n- {{}}\n- 42\n---\n{NODE}"
    );
    let parsed = parse_ok(&text);
    let skipped: Vec<(&str, usize)> = parsed.skipped.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(
        skipped,
        [
            ("(not an object)", 1),
            ("Pod without apiVersion", 1),
            ("batch/v1 Job", 2),
            ("objects without apiVersion and kind", 1),
            ("v1 without kind", 1),
        ]
    );
    assert_eq!(parsed.snapshot.nodes.len(), 1);
}

#[test]
fn retired_endpointslice_version_is_refused_not_skipped() {
    // Skipping it would make the Service look unmanaged (NoManagedSlices).
    let text = format!(
        "apiVersion: v1\nkind: List\nitems:\n- {{apiVersion: discovery.k8s.io/v1beta1, kind: EndpointSlice, metadata: {{name: s1}}}}\n---\n{NODE}"
    );
    let message = error(&text);
    assert!(
        message
            .starts_with("dump:x.yaml: item 0: endpointslice \"s1\": discovery.k8s.io/v1beta1 is not read"),
        "{message}"
    );
    assert!(message.contains("kubectl get endpointslices.v1.discovery.k8s.io -A -o yaml"), "{message}");
    // In a List of v1 EndpointSlices, an item that names its type late is decoded as one on a
    // guess, which its type then proves wrong.
    let late = r#"{"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSliceList", "items": [
        {"metadata": {"name": "s1"}, "apiVersion": "discovery.k8s.io/v1beta1", "kind": "EndpointSlice"}]}"#;
    let message = parse_dump(late, "d.json").unwrap_err().to_string();
    assert!(
        message.starts_with("d.json: item 0: endpointslice \"s1\": discovery.k8s.io/v1beta1"),
        "{message}"
    );
}

#[test]
fn objects_without_a_name_are_refused() {
    let message = error("apiVersion: v1\nkind: Service\nmetadata: {namespace: default}\n");
    assert_eq!(
        message,
        "dump:x.yaml: item 0: service \"\": metadata.name is missing; fix or remove that object"
    );
}

fn error(text: &str) -> String {
    parse_dump(text, "dump:x.yaml").unwrap_err().to_string()
}

#[test]
fn error_messages_are_one_line_with_location_and_remedy() {
    let cases = [
        (
            "apiVersion: v1\nitems:\n  - a: [1, 2\n",
            "dump:x.yaml:3:8: invalid YAML: unclosed bracket '['; fix the file or re-create it with `kubectl topo dump`",
        ),
        (
            "{\"apiVersion\": \"v1\",\n \"kind\": }",
            "dump:x.yaml:2:10: invalid JSON: expected value; fix the file or re-create it with `kubectl topo dump`",
        ),
        (
            "a: 1\na: 2\n",
            "dump:x.yaml:2:1: invalid YAML: duplicate mapping key: a; fix the file or re-create it with `kubectl topo dump`",
        ),
        (
            "apiVersion: v1\nkind: Node\nmetadata: {name: ip-10-0-1-5}\nstatus: {allocatable: {cpu: abc}}\n",
            r#"dump:x.yaml: item 0: node "ip-10-0-1-5": status.allocatable.cpu: invalid quantity "abc" (expected e.g. "1930m" or "2"); fix or remove that object"#,
        ),
        (
            "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap}\n- apiVersion: v1\n  kind: Service\n  metadata: {name: s}\n  spec: {ports: [{port: eighty}]}\n",
            r#"dump:x.yaml: item 1: service "s": spec.ports[0].port: invalid type: string "eighty", expected i32; fix or remove that object"#,
        ),
        (
            "apiVersion: v1\nkind: ConfigMap\n---\napiVersion: batch/v1\nkind: Job\n",
            "dump:x.yaml: no Nodes, Services, EndpointSlices or Events (found 1 batch/v1 Job, 1 v1 ConfigMap); dump them with `kubectl get nodes,services,endpointslices,events -A -o yaml`",
        ),
        (
            "# nothing here\n",
            "dump:x.yaml: the dump is empty; pass the output of `kubectl topo dump` or `kubectl get nodes,services,endpointslices,events -A -o yaml`",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(error(text), want);
    }
    for empty in ["", "   \n", "---\n---\n", "~\n", "apiVersion: v1\nkind: List\nitems: []\n"] {
        assert_eq!(parse_dump(empty, "o"), Err(DumpError::Empty { origin: "o".into() }), "{empty:?}");
    }
    let Err(DumpError::Syntax { line, column, .. }) = parse_dump("a: [\n", "o") else {
        panic!("syntax error")
    };
    assert!(line > 0 && column > 0);
}

#[test]
fn hostile_inputs_are_rejected_without_panicking() {
    let mut bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n".to_string();
    for (name, prev) in [("b", "a"), ("c", "b"), ("d", "c"), ("e", "d"), ("f", "e"), ("g", "f"), ("h", "g")] {
        bomb += &format!("{name}: &{name} [{}]\n", vec![format!("*{prev}"); 9].join(", "));
    }
    assert!(error(&bomb).contains("too many YAML anchors/aliases (an alias bomb?)"), "{}", error(&bomb));
    let deep: String = (0..200).map(|i| format!("{}- \n", "  ".repeat(i))).collect();
    assert!(error(&deep).contains("nested deeper than 64 levels"), "{}", error(&deep));
    assert!(error(&"[".repeat(100_000)).contains("nested deeper than 127 levels"));
    let huge =
        "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: \"1e99999999999\"}}\n";
    assert!(error(huge).contains(r#"invalid quantity "1e99999999999""#), "{}", error(huge));
    let infinite = huge.replace('"', "");
    assert!(
        error(&infinite).starts_with("dump:x.yaml:4:29: invalid YAML: non-finite float"),
        "{}",
        error(&infinite)
    );
    let numbers = "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 99999999999999999999999}]}\n";
    assert!(error(numbers).contains("spec.ports[0].port"), "{}", error(numbers));
    // Labels the model keeps (`NODE_LABELS_READ`).
    let norway = parse_ok(
        "apiVersion: v1\nkind: Node\nmetadata: {name: n, labels: {topology.kubernetes.io/zone: no, kubernetes.io/os: '0755'}}\n",
    );
    assert_eq!(norway.snapshot.nodes[0].name, "n", "YAML 1.2 booleans only");
    assert_eq!(norway.snapshot.nodes[0].labels["topology.kubernetes.io/zone"], "no");
    assert_eq!(norway.snapshot.nodes[0].labels["kubernetes.io/os"], "0755");
    for odd in
        ["!!binary aGk=", "? [a]\n: b\n", ".nan", "&x a\n", "*x\n", "\u{feff}{}", "{\"kind\": 1}", "[1, {}]"]
    {
        let _ = parse_dump(odd, "o");
    }
}

#[test]
fn a_twenty_megabyte_dump_parses() {
    let mut text = String::from("apiVersion: v1\nkind: List\nitems:\n");
    let mut nodes = 0;
    while text.len() < 20 << 20 {
        text += &format!(
            "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: ip-10-0-{nodes}.ec2.internal\n    labels:\n      topology.kubernetes.io/zone: us-east-1{}\n      kubernetes.io/os: linux\n  status:\n    allocatable:\n      cpu: 1930m\n    conditions:\n    - type: Ready\n      status: \"True\"\n",
            ["a", "b", "c"][nodes % 3]
        );
        text += &format!(
            "- apiVersion: discovery.k8s.io/v1\n  kind: EndpointSlice\n  metadata: {{name: s{nodes}, namespace: w, labels: {{kubernetes.io/service-name: svc}}}}\n  addressType: IPv4\n  endpoints:\n  - addresses: [10.1.0.1]\n    conditions: {{ready: true}}\n    zone: us-east-1a\n    hints: {{forZones: [{{name: us-east-1a}}]}}\n"
        );
        nodes += 1;
    }
    let parsed = parse_ok(&text);
    assert_eq!((parsed.snapshot.nodes.len(), parsed.snapshot.slices.len()), (nodes, nodes));
}

//! What the fuzz targets run, shared with the normal test suite (`tests/fuzz_corpus.rs` replays
//! every file of `fuzz/corpus/*` and `fuzz/regressions/*` through these same functions).
//!
//! - [`dump`]: arbitrary bytes → `parse_dump`; a dump that parses is analysed and rendered, one
//!   that does not must give a one-line message.
//! - [`json`]: the reader on an input that hands out a few bytes per read (values straddle the
//!   window's edges) and `parse_dump` on the whole text must give the same snapshot or the same
//!   error.
//! - [`yaml`]: the differential target of the YAML rewrite: a YAML text read by `parse_dump` (the
//!   rewrite into JSON where it takes the text) must give what serde-saphyr's documents of the
//!   same text give, written as JSON and read: the same snapshot, or an error on both sides.
//! - [`engine`]: arbitrary bytes drive a small structured generator of Snapshots (zones, nodes,
//!   CPU, Services, slices, hints, events drawn from pools of normal and hostile values); the
//!   Snapshot goes through `zones`, `check`, `explain`, `simulate` and every renderer.
//!
//! Invariants checked besides "no panic": error messages are one line; table output without
//! colour never carries a raw ESC byte (cluster strings are escaped before the terminal); the
//! machine formats (`-o json`, `-o yaml`, `-o sarif`) carry no raw hidden character at all — C0
//! but the line feed, DEL, C1, bidi and other format characters are escapes (`\u202e`).

use std::collections::BTreeMap;

use kubectl_topo::render::{self, CheckContext, Format as OutputFormat, RenderOptions};
use kubectl_topo::source::dump::{parse_dump, read_dump};
use kubectl_topo::triage::{self, FailOn, IgnoreRules, View};
use topo_engine::core::analyze::{self, TrafficModel};
use topo_engine::core::whatif::{self, changes::Changes, changes::SpreadSpec};
use topo_engine::model::{
    Behaviour, CONTROLLER_NAME, CpuAmount, Endpoint, EndpointSlice, Event, Hints, LABEL_ZONE, Node, Service,
    ServicePort, SlicePort, Snapshot,
};

/// Bytes → `parse_dump` → (when it parses) the whole engine.
pub fn dump(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match parse_dump(&text, "fuzz.yaml") {
        Ok(parsed) => {
            let behaviour = parsed
                .snapshot
                .info
                .server_version
                .as_deref()
                .and_then(|v| v.parse().ok())
                .unwrap_or_default();
            exercise(&parsed.snapshot, behaviour, &Changes::default(), data.first().copied().unwrap_or(0));
        }
        Err(error) => {
            let message = error.to_string();
            assert!(!message.contains('\n'), "multi-line error: {message:?}");
            assert!(!message.contains('\u{1b}'), "raw ESC in error: {message:?}");
        }
    }
}

/// Bytes → a generated Snapshot → the whole engine.
pub fn engine(data: &[u8]) {
    let mut bytes = Bytes { data, pos: 0 };
    let snapshot = snapshot_from(&mut bytes);
    let behaviour = Behaviour::new(21 + u32::from(bytes.byte() % 17));
    let changes = changes_from(&mut bytes);
    let style = bytes.byte();
    exercise(&snapshot, behaviour, &changes, style);
}

/// Every analysis and renderer the binary runs on a Snapshot.
pub fn exercise(snapshot: &Snapshot, behaviour: Behaviour, changes: &Changes, style: u8) {
    let format = [
        OutputFormat::Table,
        OutputFormat::Wide,
        OutputFormat::Json,
        OutputFormat::Yaml,
        OutputFormat::Html,
        OutputFormat::Dot,
        OutputFormat::Mermaid,
    ][usize::from(style % 7)];
    let options = RenderOptions {
        format,
        color: false,
        no_headers: style & 8 != 0,
        unicode: style & 16 != 0,
        width: None,
    };
    let traffic = TrafficModel::default();
    let zones = analyze::zones(snapshot, behaviour);
    check_output(format, |out| render::zones(&zones, &options, out));
    let services: Vec<&Service> = snapshot.services.iter().collect();
    let check = analyze::check(snapshot, &services, behaviour);
    let view = View { show_all: style & 8 != 0, ..View::default() };
    let check =
        triage::triage(check, &|_| Some("OverloadThreshold"), &view, &IgnoreRules::default(), FailOn::Any);
    // `check` alone also writes the CI reports.
    let check_format = [OutputFormat::Markdown, OutputFormat::Junit, OutputFormat::Sarif, format]
        [usize::from(style >> 4) % 4];
    let check_options = RenderOptions { format: check_format, ..options };
    let context = CheckContext { file: Some("fuzz.yaml".into()), ..CheckContext::default() };
    check_output(check_format, |out| render::check(&check, &context, &check_options, out));
    for service in services.iter().take(3) {
        let report = analyze::explain(snapshot, service, behaviour);
        check_output(format, |out| render::explain(&report, &options, out));
        if let Ok(report) = whatif::simulate(snapshot, service, behaviour, changes, &traffic) {
            check_output(format, |out| render::simulate(&report, &options, out));
        }
    }
}

fn check_output(format: OutputFormat, render: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) {
    let mut out = Vec::new();
    render(&mut out).expect("rendering to memory succeeds");
    if matches!(format, OutputFormat::Json | OutputFormat::Yaml | OutputFormat::Sarif) {
        let text = String::from_utf8(out).expect("machine formats are UTF-8");
        let raw = text.chars().find(|&c| c != '\n' && kubectl_topo::is_hidden(c));
        assert_eq!(raw, None, "raw hidden character in {format:?} output:\n{text}");
    } else {
        assert!(!out.contains(&0x1b), "raw ESC in {format:?} output");
    }
}

/// A cursor over the fuzzer's bytes; past the end every read is 0.
struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }
    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n.max(1)
    }
    fn pick<T: Clone>(&mut self, pool: &[T]) -> T {
        pool[self.below(pool.len())].clone()
    }
    fn option<T: Clone>(&mut self, pool: &[T]) -> Option<T> {
        if self.byte().is_multiple_of(5) { None } else { Some(self.pick(pool)) }
    }
    fn tri(&mut self) -> Option<bool> {
        [None, Some(true), Some(false), Some(true)][self.below(4)]
    }
    fn done(&self) -> bool {
        self.pos >= self.data.len()
    }
}

const ZONES: &[&str] = &[
    "a",
    "b",
    "c",
    "d",
    "",
    "zone\u{1b}[2J",
    "z\u{7}\t\r\n",
    "ü-zone",
    "z\u{202e}\u{9b}1",
    "z\u{2066}\u{200d}",
];
const NODES: &[&str] = &["n0", "n1", "n2", "n3", "n4", "n5\u{1b}]0;x\u{7}", ""];
const CPUS: &[&str] = &["4", "2", "1", "500m", "0", "1.5", "3900m", "1Ki", "1e3", "0.001", "-1", "1n"];
const SERVICES: &[&str] = &["s0", "s1", "s2", "s\u{1b}[31m", "s\u{202e}4"];
const ADDRESSES: &[&str] = &["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "fd00::1", "x.example", ""];

fn snapshot_from(bytes: &mut Bytes<'_>) -> Snapshot {
    let mut snapshot = Snapshot::default();
    for _ in 0..bytes.below(8) {
        snapshot.nodes.push(node_from(bytes));
    }
    for _ in 0..bytes.below(4) {
        snapshot.services.push(service_from(bytes));
    }
    while !bytes.done() && snapshot.slices.len() < 6 {
        snapshot.slices.push(slice_from(bytes));
    }
    if bytes.flag() {
        snapshot.events.push(event_from(bytes));
    }
    snapshot.info.nodes_unavailable = bytes.byte() == 7;
    snapshot
}

fn node_from(bytes: &mut Bytes<'_>) -> Node {
    let mut labels = BTreeMap::new();
    if let Some(zone) = bytes.option(ZONES) {
        labels.insert(LABEL_ZONE.to_string(), zone.to_string());
    }
    match bytes.byte() % 8 {
        0 => drop(labels.insert("node-role.kubernetes.io/control-plane".into(), String::new())),
        1 => drop(labels.insert("kubernetes.io/os".into(), "windows".into())),
        _ => {}
    }
    let allocatable_cpu = bytes.option(CPUS).and_then(|cpu| CpuAmount::parse(cpu).ok());
    let ready = bytes.option(&["True", "False", "Unknown", ""]).map(str::to_string);
    Node {
        name: bytes.pick(NODES).to_string(),
        labels: labels.into(),
        allocatable_cpu,
        ready,
        kubelet_version: None,
    }
}

fn service_from(bytes: &mut Bytes<'_>) -> Service {
    let mut annotations = BTreeMap::new();
    match bytes.byte() % 6 {
        0 | 1 => drop(annotations.insert("service.kubernetes.io/topology-mode".into(), "Auto".into())),
        2 => drop(annotations.insert("service.kubernetes.io/topology-aware-hints".into(), "auto".into())),
        3 => drop(annotations.insert("service.kubernetes.io/topology-mode".into(), "AUTO\u{1b}".into())),
        _ => {}
    }
    let ip_families = match bytes.byte() % 4 {
        0 => vec![],
        1 => vec!["IPv6".to_string()],
        2 => vec!["IPv4".to_string(), "IPv6".to_string()],
        _ => vec!["IPv4".to_string()],
    };
    Service {
        namespace: "ns".to_string(),
        name: bytes.pick(SERVICES).to_string(),
        labels: Default::default(),
        annotations: annotations.into(),
        has_selector: !bytes.byte().is_multiple_of(6),
        selector: Default::default(),
        service_type: bytes.pick(&["ClusterIP", "ClusterIP", "NodePort", "ExternalName", ""]).to_string(),
        cluster_ip: bytes.option(&["10.96.0.10", "None", ""]).map(str::to_string),
        ip_families,
        traffic_distribution: bytes
            .option(&["PreferClose", "PreferSameZone", "PreferSameNode", "Bogus"])
            .filter(|_| bytes.flag())
            .map(str::to_string),
        internal_traffic_policy: bytes.option(&["Cluster", "Local"]).map(str::to_string),
        external_traffic_policy: bytes.option(&["Cluster", "Local"]).map(str::to_string),
        externally_accessible: bytes.flag(),
        publish_not_ready_addresses: bytes.flag(),
        line: Default::default(),
        ports: vec![ServicePort { name: String::new(), port: 80, protocol: "TCP".into(), node_port: 0 }],
    }
}

fn slice_from(bytes: &mut Bytes<'_>) -> EndpointSlice {
    let count = bytes.below(13);
    let endpoints = (0..count).map(|_| endpoint_from(bytes)).collect();
    EndpointSlice {
        namespace: "ns".to_string(),
        name: format!("slice-{}", bytes.below(5)),
        service_name: bytes.option(SERVICES).map(str::to_string),
        managed_by: bytes.option(&[CONTROLLER_NAME, CONTROLLER_NAME, "other"]).map(str::to_string),
        address_type: bytes.pick(&["IPv4", "IPv4", "IPv6", "FQDN", ""]).to_string(),
        ports: vec![SlicePort { name: Some(String::new()), port: Some(80), protocol: Some("TCP".into()) }],
        endpoints,
    }
}

fn endpoint_from(bytes: &mut Bytes<'_>) -> Endpoint {
    let addresses = (0..bytes.below(3)).map(|_| bytes.pick(ADDRESSES).to_string()).collect();
    let hints = match bytes.byte() % 4 {
        0 => None,
        1 => Some(Hints::default()),
        _ => {
            let zones = (0..bytes.below(10)).map(|_| bytes.pick(ZONES).into()).collect();
            let nodes = (0..bytes.below(3)).map(|_| bytes.pick(NODES).into()).collect();
            Some(Hints { for_zones: Some(zones), for_nodes: bytes.flag().then_some(nodes) })
        }
    };
    Endpoint {
        addresses,
        ready: bytes.tri(),
        serving: bytes.tri(),
        terminating: bytes.tri(),
        node_name: bytes.option(NODES).map(Into::into),
        zone: bytes.option(ZONES).map(Into::into),
        hints,
    }
}

fn event_from(bytes: &mut Bytes<'_>) -> Event {
    Event {
        namespace: "ns".into(),
        object_kind: "Service".into(),
        object_name: bytes.pick(SERVICES).to_string(),
        event_type: "Warning".into(),
        reason: "TopologyAwareHintsDisabled".into(),
        message: bytes
            .pick(&["Insufficient Node information", "x\u{1b}[2Jy\r\n", "x\u{200d}\u{2066}\u{85}"])
            .to_string(),
        count: i32::from(bytes.byte()) - 1,
        last_seen: bytes.option(&["2026-07-31T14:05:58Z", "yesterday"]).map(str::to_string),
        source: None,
    }
}

fn changes_from(bytes: &mut Bytes<'_>) -> Changes {
    let mut changes = Changes::default();
    match bytes.byte() % 6 {
        0 => changes.replicas = Some(bytes.below(40) as i64),
        1 => changes.remove_zones.push(bytes.pick(ZONES).to_string()),
        2 => changes.not_ready.push(bytes.pick(NODES).to_string()),
        3 => {
            let zones: BTreeMap<String, i64> =
                (0..bytes.below(4)).map(|_| (bytes.pick(ZONES).to_string(), bytes.below(9) as i64)).collect();
            changes.spread = Some(if zones.is_empty() { SpreadSpec::Even } else { SpreadSpec::Zones(zones) });
        }
        4 => changes.remove_nodes.push(bytes.pick(NODES).to_string()),
        _ => {}
    }
    changes
}

/// Hands out its text a few bytes per read.
struct Trickle<'t> {
    text: &'t [u8],
    bytes: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.bytes.min(buf.len()).min(self.text.len());
        buf[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        Ok(n)
    }
}

/// The reader on the same bytes handed out a few at a time (so the window ends inside values) and
/// whole: the same snapshot or the same error message (so the same place and class).
pub fn json(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    if !looks_like_json(text) {
        return;
    }
    let bytes = usize::from(data.first().copied().unwrap_or(0) % 16) + 1;
    let whole = parse_dump(text, "fuzz.json").map_err(|e| e.to_string());
    let trickled = read_dump(Trickle { text: text.as_bytes(), bytes }, "fuzz.json", None);
    let trickled = trickled.map_err(|e| e.to_string());
    assert!(
        trickled == whole,
        "reads of {bytes} bytes disagree with one read on {text:?}:\n{trickled:?}\n{whole:?}"
    );
}

/// The YAML rewrite against serde-saphyr: `parse_dump` on a YAML text (rewritten into JSON when
/// it is in kubectl's block style) and on the same text with a last comment line holding a tab,
/// which the rewrite never takes, so serde-saphyr parses it (with the product's options). Where
/// the rewrite reads a text, the YAML library must read it too, into the same snapshot.
pub fn yaml(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let by_rewrite = parse_dump(&format!("{text}\n"), "fuzz");
    let by_library = parse_dump(&format!("{text}\n#\t\n"), "fuzz");
    if let Ok(read) = by_rewrite {
        match by_library {
            Ok(parsed) => assert!(read == parsed, "the YAML rewrite disagrees with serde-saphyr on {text:?}"),
            Err(err) => panic!("the YAML rewrite read {text:?}, which serde-saphyr refuses: {err}"),
        }
    }
}

fn looks_like_json(text: &str) -> bool {
    text.trim_start_matches('\u{feff}').trim_start().starts_with(['{', '['])
}

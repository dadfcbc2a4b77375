//! `simulate` on fixture dumps (the seeds' cases W1–W3 and their variants), its snapshots, and the
//! CLI: flag parsing and one-line errors on bad values (exit code 2).

use kubectl_topo::render::{self, Format as OutputFormat, RenderOptions};
use kubectl_topo::settings::changes::{parse_add_node, parse_set_cpu};
use kubectl_topo::source::dump::parse_dump;
use topo_engine::core::analyze::TrafficModel;
use topo_engine::core::whatif::changes::{Changes, SpreadSpec};
use topo_engine::core::whatif::simulate;
use topo_engine::model::{Behaviour, Snapshot};
use topo_engine::report::reason::ReasonCode as C;
use topo_engine::report::whatif::{SimulationReport, SyncNote as N};
use topo_engine::report::{FamilyReport, Verdict};

use crate::support::{path, read, topo};

const THREE_ZONES: &str = "tests/fixtures/simulate/three-zones-three-endpoints.yaml";
const W01: &str = "tests/fixtures/w01-docs-12-4-vcpu.yaml";
const W03: &str = "tests/fixtures/w03-four-zones-hinted.yaml";

fn load(relative: &str) -> Snapshot {
    parse_dump(&read(&path(relative)), "test").expect("dump parses").snapshot
}

fn run(relative: &str, changes: Changes) -> SimulationReport {
    let snapshot = load(relative);
    let service = snapshot.services.iter().find(|s| s.name == "svc").expect("svc").clone();
    let behaviour: Behaviour = "1.36".parse().unwrap();
    simulate(&snapshot, &service, behaviour, &changes, &TrafficModel::ZoneCpu).expect("simulates")
}

fn after(r: &SimulationReport) -> &FamilyReport {
    &r.after.families[0]
}

fn codes(f: &FamilyReport) -> Vec<C> {
    f.reasons.iter().map(|r| r.code).collect()
}

/// (zone, hinted) on the slices after the change.
fn hinted(f: &FamilyReport) -> Vec<(String, i64)> {
    f.zones.iter().map(|z| (z.zone.clone(), z.actual_hinted)).collect()
}

fn pairs(items: &[(&str, i64)]) -> Vec<(String, i64)> {
    items.iter().map(|(z, n)| (z.to_string(), *n)).collect()
}

fn event_messages(r: &SimulationReport) -> Vec<String> {
    r.sync.events.iter().map(|e| format!("{} {}: {}", e.event_type, e.reason, e.message)).collect()
}

const UNABLE_4_3: &str = "Warning TopologyAwareHintsDisabled: Unable to allocate minimum required endpoints to each \
     zone without exceeding overload threshold (4 endpoints, 3 zones), addressType: IPv4";

/// W3: zone d's nodes are deleted. The cached counts {a,b,c,d:1} are overloaded for three zones
/// (requeue), and the pod on node-d is gone (its node left the lister): n = 3 → one hint per zone.
#[test]
fn w03_zone_removed_requeues_and_hints_the_three_zones_left() {
    let r = run(W03, Changes { remove_zones: vec!["d".into()], ..Changes::default() });
    assert!(r.sync.synced);
    assert_eq!(r.sync.requeued, Some(true));
    assert_eq!(r.sync.notes, vec![N::NodesRecomputed, N::Requeued, N::EndpointsChanged]);
    assert_eq!(after(&r).verdict, Verdict::Active);
    assert_eq!(hinted(after(&r)), pairs(&[("a", 1), ("b", 1), ("c", 1)]));
    // The populated flag was already set: no second "enabled" Event.
    assert!(r.sync.events.is_empty(), "{:?}", r.sync.events);
    assert_eq!(r.sync.updated_slices, vec!["svc-w03".to_string()]);
}

/// W3, endpoint still ready: node-d goes NotReady (Ready flip) but its pod is not marked yet:
/// requeued, n = 4 over 3 zones → W2's safeguard, every hint removed.
#[test]
fn w03_zone_not_ready_with_the_endpoint_still_ready_removes_all_hints() {
    let r = run(W03, Changes { not_ready: vec!["node-d".into()], ..Changes::default() });
    assert_eq!((r.sync.synced, r.sync.requeued), (true, Some(true)));
    assert_eq!(r.sync.notes, vec![N::NodesRecomputed, N::Requeued]);
    assert_eq!(event_messages(&r), vec![UNABLE_4_3.to_string()]);
    let f = after(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Blocked, vec![C::OverloadThreshold]));
    assert!(hinted(f).iter().all(|(_, n)| *n == 0));
}

/// W3's last variant: a fifth zone with no endpoints → 5 zones > 4 endpoints.
#[test]
fn w03_fifth_zone_added_is_insufficient_endpoints() {
    let node = parse_add_node("zone=e,cpu=4").unwrap();
    let r = run(W03, Changes { add_nodes: vec![node], ..Changes::default() });
    assert_eq!((r.sync.synced, r.sync.requeued), (true, Some(true)));
    let f = after(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Blocked, vec![C::InsufficientEndpoints]));
    let facts = &f.reasons[0].facts;
    assert_eq!((facts.endpoints, facts.zones), (Some(4), Some(5)));
}

/// W2: three equal zones scaled 3 → 4. The new pod goes to zone a (equal remainders, ties by name);
/// the sync aborts with the overload threshold and removes every hint.
#[test]
fn w02_scaled_from_three_to_four_is_blocked_at_33_percent() {
    let r = run(THREE_ZONES, Changes { replicas: Some(4), ..Changes::default() });
    assert_eq!(r.before.families[0].verdict, Verdict::Active);
    assert_eq!((r.sync.synced, r.sync.requeued), (true, None));
    assert_eq!(r.sync.notes, vec![N::EndpointsChanged]);
    assert_eq!(event_messages(&r), vec![UNABLE_4_3.to_string()]);
    let f = after(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Blocked, vec![C::OverloadThreshold]));
    assert_eq!(f.reasons[0].facts.overload_percent, Some(33.3));
    let ready: Vec<(String, i64)> = f.zones.iter().map(|z| (z.zone.clone(), z.ready_endpoints)).collect();
    assert_eq!(ready, pairs(&[("a", 2), ("b", 1), ("c", 1)]));
    // The new endpoint joins the existing slice (getSliceToFill), which is then written.
    assert_eq!(r.sync.updated_slices, vec!["svc-w02s".to_string()]);
    assert!(r.sync.created_slices.is_empty());
    let d = &r.summary[0];
    assert_eq!((d.verdict.before, d.verdict.after), (Some(Verdict::Active), Some(Verdict::Blocked)));
    // Replicas needed after the change: 6 is the next count that works.
    assert_eq!(f.replicas.as_ref().unwrap().nearest, Some(6));
}

/// W1 (12/4 vCPU, 4 endpoints a:2 b:2, no hints yet): a CPU change alone recomputes nothing.
#[test]
fn w01_cpu_change_alone_is_not_noticed() {
    let cpu = parse_set_cpu("node-b=12").unwrap();
    let r = run(W01, Changes { set_cpu: vec![cpu], ..Changes::default() });
    assert!(!r.sync.synced);
    assert_eq!(r.sync.notes, vec![N::CpuChangeIgnored, N::NotReached]);
    // Once something syncs it, 12/12 gives every endpoint its own zone.
    let f = after(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Drift, vec![C::HintsMissing]));
    let expected: Vec<(String, i64)> = f.zones.iter().map(|z| (z.zone.clone(), z.expected_hinted)).collect();
    assert_eq!(expected, pairs(&[("a", 2), ("b", 2)]));
}

/// W1 with a node added: the node event recomputes the weights, but nothing is cached for a
/// Service without hints, so it is not requeued (kubernetes/kubernetes#123401).
#[test]
fn w01_node_added_does_not_requeue_a_service_without_hints() {
    let node = parse_add_node("zone=b,cpu=8").unwrap();
    let r = run(W01, Changes { add_nodes: vec![node], ..Changes::default() });
    assert_eq!((r.sync.synced, r.sync.requeued), (false, None));
    assert_eq!(r.sync.notes, vec![N::NodesRecomputed, N::NotRequeuedNoCache, N::NotReached]);
    assert_eq!(after(&r).verdict, Verdict::Drift);
}

/// W1 scaled to 5: spread a:3 b:2 (tie → a); min 4 + 2 = 6 > 5 → blocked; 6 works again.
#[test]
fn w01_scaled_to_five_is_blocked_and_six_works() {
    let r = run(W01, Changes { replicas: Some(5), ..Changes::default() });
    let f = after(&r);
    assert_eq!((f.verdict, codes(f)), (Verdict::Blocked, vec![C::OverloadThreshold]));
    assert_eq!(f.reasons[0].facts.minimum_total, Some(6));
    assert_eq!(f.replicas.as_ref().unwrap().nearest, Some(6));
    let r = run(W01, Changes { replicas: Some(6), ..Changes::default() });
    assert_eq!(after(&r).verdict, Verdict::Active);
    assert_eq!(hinted(after(&r)), pairs(&[("a", 4), ("b", 2)]));
}

/// An explicit spread and a CPU change combined with an endpoint change: the sync uses the old
/// weights (no node event recomputed them).
#[test]
fn explicit_spread_and_stale_weights() {
    let spread = SpreadSpec::Zones([("a".to_string(), 3), ("b".to_string(), 1)].into());
    let cpu = parse_set_cpu("node-a=4").unwrap();
    let r = run(W01, Changes { spread: Some(spread), set_cpu: vec![cpu], ..Changes::default() });
    assert!(r.sync.synced);
    assert_eq!(r.sync.notes, vec![N::CpuChangeIgnored, N::EndpointsChanged, N::StaleWeights]);
    // Written with 12/4 weights (a:3 b:1, no moves); with 4/4 the next recompute wants 2/2.
    assert_eq!(hinted(after(&r)), pairs(&[("a", 3), ("b", 1)]));
    assert_eq!(after(&r).verdict, Verdict::Drift);
}

#[test]
fn unknown_node_is_an_error() {
    let snapshot = load(W03);
    let service = snapshot.services[0].clone();
    let changes = Changes { remove_nodes: vec!["nope".into()], ..Changes::default() };
    let err =
        simulate(&snapshot, &service, "1.36".parse().unwrap(), &changes, &TrafficModel::ZoneCpu).unwrap_err();
    assert_eq!(err.to_string(), "--remove-node nope: no such node (after the removals)");
}

fn text(r: &SimulationReport) -> String {
    let mut out = Vec::new();
    let options = RenderOptions {
        format: OutputFormat::Table,
        color: false,
        no_headers: false,
        unicode: false,
        width: None,
    };
    render::simulate(r, &options, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn snapshots_of_the_simulate_output() {
    insta::assert_snapshot!(
        "simulate_w02_replicas_4",
        text(&run(THREE_ZONES, Changes { replicas: Some(4), ..Changes::default() }))
    );
    insta::assert_snapshot!(
        "simulate_w03_remove_zone_d",
        text(&run(W03, Changes { remove_zones: vec!["d".into()], ..Changes::default() }))
    );
    let cpu = parse_set_cpu("node-b=12").unwrap();
    insta::assert_snapshot!(
        "simulate_w01_set_cpu",
        text(&run(W01, Changes { set_cpu: vec![cpu], ..Changes::default() }))
    );
}

// --- CLI ------------------------------------------------------------------------------------

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = topo().args(["simulate", "svc/svc", "-n", "w"]).args(args).output().expect("runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

#[test]
fn cli_parses_combined_changes_to_json() {
    let (code, stdout, stderr) = cli(&[
        "-f",
        W03,
        "--remove-node",
        "node-d",
        "--add-node",
        "zone=a,cpu=2,name=extra",
        "--set-cpu",
        "node-b=6",
        "--replicas",
        "3",
        "--mode",
        "Auto",
        "--traffic",
        "a=1,b=1,c=2",
        "-o",
        "json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["kind"], "SimulationReport");
    let changes: Vec<&str> = v["changes"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert_eq!(
        changes,
        [
            "--remove-node node-d",
            "--add-node zone=a,cpu=2000m,name=extra",
            "--set-cpu node-b=6000m",
            "--mode Auto",
            "--replicas 3"
        ]
    );
    assert_eq!(v["after"]["families"][0]["crossZone"]["trafficSource"], "Given");
}

#[test]
fn cli_bad_values_are_one_line_errors_with_exit_code_2() {
    let cases: [(&[&str], &str); 12] = [
        (&["--replicas", "x"], "error: --replicas \"x\": use a whole number from 0 to 10000"),
        (&["--replicas=-1"], "error: --replicas \"-1\""),
        (&["--spread", "zone=a"], "error: --spread \"zone=a\""),
        (&["--add-node", "zone=a"], "error: --add-node \"zone=a\": cpu=Q is required"),
        (&["--add-node", "cpu=4"], "error: --add-node \"cpu=4\": zone=Z is required"),
        (&["--add-node", "zone=a,cpu=4,gpu"], "error: --add-node \"zone=a,cpu=4,gpu\": unknown part \"gpu\""),
        (&["--set-cpu", "node-a"], "error: --set-cpu \"node-a\": use NODE=QUANTITY"),
        (&["--set-cpu", "node-a=lots"], "error: --set-cpu \"node-a=lots\": invalid CPU quantity"),
        (
            &["--mode", "automatic"],
            "error: --mode \"automatic\": use Auto, PreferClose, PreferSameZone, PreferSameNode or None",
        ),
        (&["--replicas", "3", "--traffic", "a=x"], "error: --traffic \"a=x\""),
        (&[], "error: simulate needs a change"),
        (&["--remove-node", "nope"], "error: --remove-node nope: no such node"),
    ];
    for (args, want) in cases {
        let mut all = vec!["-f", W03];
        all.extend_from_slice(args);
        let (code, stdout, stderr) = cli(&all);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert!(lines[0].starts_with(want), "{args:?}: {stderr}");
        assert!(
            lines.len() <= 2 && lines.get(1).is_none_or(|l| l.starts_with("hint: ")),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn cli_traffic_zone_without_nodes_is_an_error() {
    let (code, _, stderr) = cli(&["-f", W03, "--replicas", "4", "--traffic", "a=1,z=1"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: --traffic: no node is in zone \"z\""), "{stderr}");
}

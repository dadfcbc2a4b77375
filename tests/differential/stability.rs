//! The stability margin and certificate (docs/stability.md) against the Go oracle: random Auto
//! clusters built here (seed `ORACLE_SEED`, `ORACLE_STABILITY_CASES` clusters, default 60), each
//! answered by the engine, then every change the answer names applied to the cluster and run
//! through the oracle's fresh sync (the 1.36 line):
//!
//! * today: the oracle writes hints iff the margin says they hold;
//! * share: the zone's CPU set to `holdsToMillis` keeps the oracle's verdict, to `flipsAtMillis`
//!   flips it (one Node of the zone resized by the difference);
//! * nodes: every listed single-Node change flips it, and up to three examined changes not listed
//!   do not;
//! * endpoints: one more / one fewer ready endpoint per zone flips it exactly when listed;
//! * certificate: a random range and spread; for every count, up to two placements the spread
//!   allows hold in the oracle iff the count is in a `holds` range, and fail iff it is an exception.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use topo_engine::core::analyze;
use topo_engine::core::stability::service_certificate;
use topo_engine::model::Behaviour;
use topo_engine::report::stability::{Margin, NodeChange, SpreadRule};

use super::compare::OracleResult;
use super::lines::Line;

/// A small deterministic generator (xorshift64*), so a seed replays a run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> i64 {
        (self.next() % n) as i64
    }
}

/// A cluster: Nodes as (zone, milli-CPU), ready endpoints per zone.
#[derive(Clone, Debug)]
struct Cluster {
    nodes: Vec<(String, i64)>,
    endpoints: BTreeMap<String, i64>,
}

fn random_cluster(rng: &mut Rng) -> Cluster {
    let zones = 2 + rng.below(3);
    let sizes = [1000, 2000, 4000, 8000, 250 * (2 + rng.below(60))];
    let mut nodes = Vec::new();
    let mut endpoints = BTreeMap::new();
    for z in 0..zones {
        let zone = format!("zone-{}", (b'a' + z as u8) as char);
        for _ in 0..1 + rng.below(3) {
            nodes.push((zone.clone(), sizes[rng.below(sizes.len() as u64) as usize]));
        }
        endpoints.insert(zone, rng.below(6));
    }
    if endpoints.values().sum::<i64>() == 0 {
        *endpoints.values_mut().next().expect("a zone") = 1;
    }
    Cluster { nodes, endpoints }
}

/// The oracle case of a cluster: an Auto Service with one managed IPv4 slice.
fn case(id: &str, c: &Cluster) -> Value {
    let mut items: Vec<Value> = c
        .nodes
        .iter()
        .enumerate()
        .map(|(i, (zone, millis))| {
            json!({"apiVersion": "v1", "kind": "Node",
                "metadata": {"name": format!("node-{i}"), "labels": {"topology.kubernetes.io/zone": zone}},
                "status": {"allocatable": {"cpu": format!("{millis}m")}, "conditions": [{"type": "Ready", "status": "True"}]}})
        })
        .collect();
    items.push(json!({"apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "svc", "namespace": "prod", "uid": "uid-svc",
            "annotations": {"service.kubernetes.io/topology-mode": "Auto"}},
        "spec": {"ports": [{"protocol": "TCP", "port": 80, "targetPort": 8080}], "selector": {"app": "svc"},
            "clusterIP": "10.96.0.10", "clusterIPs": ["10.96.0.10"], "type": "ClusterIP", "ipFamilies": ["IPv4"]}}));
    let mut endpoints = Vec::new();
    for (zone, n) in &c.endpoints {
        let node = c.nodes.iter().position(|(z, _)| z == zone).map(|i| format!("node-{i}"));
        for _ in 0..*n {
            let k = endpoints.len();
            endpoints.push(json!({"addresses": [format!("10.244.{}.{}", k / 200, k % 200 + 1)],
                "conditions": {"ready": true, "serving": true, "terminating": false},
                "nodeName": node, "zone": zone}));
        }
    }
    items.push(json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
        "metadata": {"name": "svc-1", "namespace": "prod", "labels": {
            "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io",
            "kubernetes.io/service-name": "svc"}},
        "addressType": "IPv4", "endpoints": endpoints,
        "ports": [{"name": "", "protocol": "TCP", "port": 8080}]}));
    json!({"id": id, "k8sVersion": "1.36", "runs": 1, "dump": {"apiVersion": "v1", "kind": "List", "items": items}})
}

fn snapshot(c: &Cluster) -> topo_engine::model::Snapshot {
    let text = serde_json::to_string(&case("x", c)["dump"]).expect("JSON");
    kubectl_topo::source::dump::parse_dump(&text, "case").expect("the case reads").snapshot
}

/// The engine's margin of the cluster's one family.
fn margin(c: &Cluster) -> Margin {
    let s = snapshot(c);
    let report = analyze::explain(&s, &s.services[0], Behaviour::default());
    report.families[0].stability.clone().expect("an Auto family with ratios has a margin")
}

/// The oracle writes hints on a fresh sync, in every outcome.
fn oracle_holds(result: &OracleResult) -> bool {
    !result.outcomes.is_empty()
        && result
            .outcomes
            .iter()
            .all(|o| o.families.iter().all(|f| f.fresh.as_ref().is_some_and(|s| !s.counts.is_empty())))
}

/// One question to the oracle: the cluster, and whether hints should be written.
struct Probe {
    what: String,
    cluster: Cluster,
    holds: bool,
}

fn probes_of(seed: u64, i: usize, base: &Cluster, rng: &mut Rng) -> Vec<Probe> {
    let m = margin(base);
    let mut out = vec![Probe { what: "today".into(), cluster: base.clone(), holds: m.holds }];
    for s in &m.shares {
        for (flip, dir) in [(s.down, "down"), (s.up, "up")] {
            let Some(f) = flip else { continue };
            for (millis, holds, label) in
                [(f.holds_to_millis, m.holds, "holds to"), (f.flips_at_millis, !m.holds, "flips at")]
            {
                if let Some(cluster) = with_zone_millis(base, &s.zone, s.millis, millis) {
                    out.push(Probe {
                        what: format!("zone {} {dir} {label} {millis}m", s.zone),
                        cluster,
                        holds,
                    });
                }
            }
        }
    }
    node_probes(base, &m, rng, &mut out);
    for e in m.endpoints.iter().filter(|e| !e.zone.is_empty()) {
        let mut more = base.clone();
        *more.endpoints.entry(e.zone.clone()).or_default() += 1;
        out.push(Probe {
            what: format!("+1 endpoint in {}", e.zone),
            cluster: more,
            holds: m.holds != e.add_flips,
        });
        if let Some(flips) = e.remove_flips {
            let mut fewer = base.clone();
            *fewer.endpoints.get_mut(&e.zone).expect("zone") -= 1;
            out.push(Probe {
                what: format!("-1 endpoint in {}", e.zone),
                cluster: fewer,
                holds: m.holds != flips,
            });
        }
    }
    certificate_probes(base, rng, &mut out);
    for p in &mut out {
        p.what = format!("seed {seed} cluster {i} {:?}: {}", base, p.what);
    }
    out
}

/// The cluster with zone `zone`'s milli-CPU moved from `today` to `target` (its first Node
/// resized by the difference); None when that Node would go below 1m.
fn with_zone_millis(base: &Cluster, zone: &str, today: i64, target: i64) -> Option<Cluster> {
    let mut c = base.clone();
    let node = c.nodes.iter_mut().find(|(z, _)| z == zone)?;
    node.1 += target - today;
    (node.1 >= 1).then_some(c)
}

fn node_probes(base: &Cluster, m: &Margin, rng: &mut Rng, out: &mut Vec<Probe>) {
    let sizes: std::collections::BTreeSet<i64> = base.nodes.iter().map(|(_, s)| *s).collect();
    let zones: std::collections::BTreeSet<&String> = base.nodes.iter().map(|(z, _)| z).collect();
    let mut unlisted = Vec::new();
    for zone in zones {
        for &size in &sizes {
            let cpu = topo_engine::model::CpuAmount::from_millis(size).to_string();
            let listed =
                |change| m.nodes.iter().any(|f| &f.zone == zone && f.cpu == cpu && f.change == change);
            let mut added = base.clone();
            added.nodes.push((zone.clone(), size));
            let probe = |c, flips: bool, what| Probe { what, cluster: c, holds: m.holds != flips };
            let add = probe(added, listed(NodeChange::Added), format!("add {size}m node to {zone}"));
            if add.holds == m.holds {
                unlisted.push(add)
            } else {
                out.push(add)
            }
            if let Some(i) = base.nodes.iter().position(|(z, s)| z == zone && *s == size) {
                let mut removed = base.clone();
                removed.nodes.remove(i);
                let remove =
                    probe(removed, listed(NodeChange::Removed), format!("remove {size}m node from {zone}"));
                if remove.holds == m.holds { unlisted.push(remove) } else { out.push(remove) }
            }
        }
    }
    for _ in 0..3.min(unlisted.len()) {
        let k = rng.below(unlisted.len() as u64) as usize;
        out.push(unlisted.swap_remove(k));
    }
}

/// A random range and spread; per count, up to two placements the spread allows.
fn certificate_probes(base: &Cluster, rng: &mut Rng, out: &mut Vec<Probe>) {
    let min = rng.below(10);
    let max = min + rng.below(6);
    let spread = match rng.below(3) {
        0 => None,
        k => Some(SpreadRule {
            max_skew: 1 + rng.below(2),
            min_domains: (rng.below(2) == 1).then(|| 1 + rng.below(4)),
            hard: k == 1,
        }),
    };
    let s = snapshot(base);
    let report = service_certificate(&s, &s.services[0], Behaviour::default(), (min, max, spread));
    let cert = report.certificate;
    assert!(!cert.truncated);
    let zones = cert.zones.clone();
    for n in min..=max {
        let placements = allowed_placements(&zones, n, spread);
        let holds = cert.holds.iter().any(|r| r.from <= n && n <= r.to);
        let exception = cert.exceptions.iter().any(|e| e.count == n);
        let unschedulable = cert.unschedulable.iter().any(|r| r.from <= n && n <= r.to);
        assert_eq!(placements.is_empty(), unschedulable, "count {n} {spread:?}: unschedulable");
        assert!(placements.is_empty() || holds != exception, "count {n}: one of holds / exception");
        for _ in 0..2.min(placements.len()) {
            let p = &placements[rng.below(placements.len() as u64) as usize];
            let mut c = base.clone();
            c.endpoints = zones.iter().cloned().zip(p.iter().copied()).collect();
            out.push(Probe {
                what: format!("certificate {min}..{max} {spread:?}: {n} as {p:?}"),
                cluster: c,
                holds,
            });
        }
    }
}

/// Every placement of `n` pods over `zones` that `spread` allows (docs/stability.md#certificate),
/// by brute force.
fn allowed_placements(zones: &[String], n: i64, spread: Option<SpreadRule>) -> Vec<Vec<i64>> {
    let mut all: Vec<Vec<i64>> = vec![vec![]];
    for _ in zones {
        all = all.into_iter().flat_map(|p| (0..=n).map(move |k| [p.clone(), vec![k]].concat())).collect();
    }
    all.retain(|p| p.iter().sum::<i64>() == n);
    let Some(rule) = spread.filter(|r| r.hard) else { return all };
    all.retain(|p| {
        let max = p.iter().copied().max().unwrap_or(0);
        let min = if (zones.len() as i64) < rule.min_domains.unwrap_or(1) {
            0
        } else {
            p.iter().copied().min().unwrap_or(0)
        };
        max - min <= rule.max_skew
    });
    all
}

fn run_oracle(cases: &[Value]) -> Vec<OracleResult> {
    let mut input = tempfile::NamedTempFile::new().expect("temp file");
    for case in cases {
        writeln!(input, "{case}").expect("write cases");
    }
    let file = std::fs::File::open(input.path()).expect("reopen cases");
    let out = Command::new(Line::V136.bin())
        .args(["--jobs", "2"])
        .stdin(file)
        .stderr(Stdio::inherit())
        .output()
        .expect("the oracle runs");
    assert!(out.status.success(), "the oracle failed: {}", out.status);
    let text = String::from_utf8(out.stdout).expect("UTF-8 results");
    text.lines().map(|l| serde_json::from_str(l).expect("result JSON")).collect()
}

#[test]
fn differential_stability() {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse::<u64>().ok());
    let count = env("ORACLE_STABILITY_CASES").unwrap_or(60) as usize;
    let seed = env("ORACLE_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("clock").as_secs()
    });
    let mut rng = Rng(seed | 1);
    let mut probes = Vec::new();
    for i in 0..count {
        let base = random_cluster(&mut rng);
        probes.extend(probes_of(seed, i, &base, &mut rng));
    }
    let cases: Vec<Value> =
        probes.iter().enumerate().map(|(i, p)| case(&format!("stab-{i}"), &p.cluster)).collect();
    let results = run_oracle(&cases);
    assert_eq!(results.len(), probes.len());
    let wrong: Vec<String> = probes
        .iter()
        .zip(&results)
        .filter(|(p, r)| r.error.is_some() || oracle_holds(r) != p.holds)
        .map(|(p, r)| {
            format!(
                "{}: engine says hints {}, oracle {}",
                p.what,
                p.holds,
                r.error.clone().unwrap_or_else(|| oracle_holds(r).to_string())
            )
        })
        .collect();
    let flips = probes.iter().zip(&results).filter(|(p, _)| !p.what.ends_with("today")).count();
    let summary = format!(
        "differential stability: seed {seed}, {count} clusters, {} oracle runs ({flips} changed clusters), mismatches {}",
        probes.len(),
        wrong.len()
    );
    println!("{summary}");
    assert!(wrong.is_empty(), "{summary}\n{}", wrong.iter().take(20).cloned().collect::<Vec<_>>().join("\n"));
}

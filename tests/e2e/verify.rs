//! What `kubectl-topo` must say about a Service the controller has synced: `explain -o json` on
//! the live cluster (verdict, reasons, `actualHinted` per zone = the slices) and on a `dump` with
//! every hint removed (`expectedHinted` per zone = what the controller wrote).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::cluster::SliceState;
use crate::shared::Env;
use crate::topo;

/// What `explain` must say about a Service's IPv4 family.
pub struct Expect<'a> {
    pub verdict: &'a str,
    pub codes: &'a [&'a str],
}

pub const ACTIVE: Expect<'static> = Expect { verdict: "Active", codes: &[] };

pub fn family(report: &Value) -> &Value {
    report["families"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["addressType"] == "IPv4").or(f.first()))
        .unwrap_or_else(|| panic!("no family in {report:#}"))
}

pub fn codes(fam: &Value) -> Vec<String> {
    fam["reasons"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["code"].as_str().map(String::from))
        .collect()
}

/// `zones[]` of a family as zone → (expectedHinted, actualHinted).
pub fn zone_rows(fam: &Value) -> BTreeMap<String, (i64, i64)> {
    fam["zones"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|z| {
            let name = z["zone"].as_str().unwrap_or_default().to_string();
            (name, (z["expectedHinted"].as_i64().unwrap_or(-1), z["actualHinted"].as_i64().unwrap_or(-1)))
        })
        .collect()
}

/// Assert what `kubectl-topo` says about the live Service and about a hint-less dump of it.
pub async fn verify(
    env: &Env<'_>,
    ns: &str,
    svc: &str,
    expect: &Expect<'_>,
    state: &SliceState,
    fresh_matches: bool,
) -> Value {
    let Some(topo) = &env.topo else { return Value::Null };
    let target = format!("svc/{svc}");
    let live = topo.json(&["explain", &target, "-n", ns]);
    let fam = family(&live);
    let ctx_text = || format!("{ns}/{svc}: slices {state:#?}\nreport {live:#}");
    assert_eq!(fam["verdict"], expect.verdict, "verdict of {}", ctx_text());
    let got = codes(fam);
    for c in expect.codes {
        assert!(got.iter().any(|g| g == c), "{ns}/{svc}: reason {c} missing from {got:?}\n{}", ctx_text());
    }
    let rows = zone_rows(fam);
    for (zone, (_, actual)) in &rows {
        let on_slices = state.hinted_per_zone.get(zone).copied().unwrap_or(0) as i64;
        assert_eq!(*actual, on_slices, "{ns}/{svc} zone {zone}: actualHinted vs slices\n{}", ctx_text());
    }
    for (zone, n) in &state.hinted_per_zone {
        if !rows.is_empty() {
            assert!(
                rows.contains_key(zone),
                "{ns}/{svc}: no zone row for hinted zone {zone} ({n})\n{}",
                ctx_text()
            );
        }
    }
    if fresh_matches {
        // Recompute from a dump with every hint removed: must reproduce what the controller wrote.
        let mut dump = topo.dump(&["-n", ns]);
        topo::strip_hints(&mut dump);
        let file = env.cp.dir.path().join(format!("dump-{ns}-{svc}.json"));
        std::fs::write(&file, serde_json::to_string_pretty(&dump).unwrap()).unwrap();
        let fresh = topo.json(&["explain", &target, "-n", ns, "--from-file", file.to_str().unwrap()]);
        let fam = family(&fresh);
        for (zone, (expected, _)) in zone_rows(fam) {
            let written = state.hinted_per_zone.get(&zone).copied().unwrap_or(0) as i64;
            assert_eq!(
                expected, written,
                "{ns}/{svc} zone {zone}: expectedHinted (from a hint-less dump) vs controller\n{fresh:#}"
            );
        }
        if fam["zones"].as_array().is_some_and(|z| !z.is_empty()) {
            for zone in state.hinted_per_zone.keys() {
                assert!(zone_rows(fam).contains_key(zone), "{ns}/{svc}: zone {zone} missing from {fresh:#}");
            }
        }
    }
    live
}

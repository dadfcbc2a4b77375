//! docs/behaviour.md#steady-state-and-ties: is the live state one of the outputs the controller's rewrite can produce?
//! Used when the keep-check rejects live slices that are nevertheless exactly what the controller
//! writes (W7, W9, W10) or one of its random tie outcomes (W8).

use std::collections::{BTreeMap, BTreeSet};

use crate::model::EndpointSlice;

/// True when the rewritten slices' live hints are an acceptable controller output: (b) every ready
/// endpoint has exactly one zone hint and no node hints; (c) a foreign hint only on an endpoint whose
/// zone gives; (d) live per-zone counts equal a reachable outcome; (e) foreign hints out of / into each
/// zone match that outcome's give/take.
pub(crate) fn equivalent_rewrite(
    live: &[EndpointSlice],
    rewritten: &[String],
    outcomes: &[BTreeMap<String, i64>],
) -> bool {
    let mut counts: BTreeMap<String, i64> = BTreeMap::new();
    let mut pre: BTreeMap<String, i64> = BTreeMap::new();
    let (mut out, mut into): (BTreeMap<String, i64>, BTreeMap<String, i64>) = Default::default();
    // A set: a Service with thousands of slices would otherwise scan the list once per slice.
    let rewritten: BTreeSet<&str> = rewritten.iter().map(String::as_str).collect();
    for slice in live {
        let rewrite = rewritten.contains(slice.name.as_str());
        for e in slice.endpoints.iter().filter(|e| e.controller_ready()) {
            let zones = e.hints.as_ref().and_then(|h| h.for_zones.as_deref()).unwrap_or(&[]);
            if !rewrite {
                for z in zones {
                    super::spread::add_one(&mut counts, z);
                    super::spread::add_one(&mut pre, z);
                }
                continue;
            }
            let node_hints =
                e.hints.as_ref().is_some_and(|h| h.for_nodes.as_ref().is_some_and(|v| !v.is_empty()));
            let (Some(own), [hint]) = (e.zone.as_ref(), zones) else { return false };
            if node_hints {
                return false;
            }
            super::spread::add_one(&mut counts, hint);
            super::spread::add_one(&mut pre, own);
            if hint != own {
                super::spread::add_one(&mut out, own);
                super::spread::add_one(&mut into, hint);
            }
        }
    }
    outcomes.iter().any(|alt| {
        let same = |m: &BTreeMap<String, i64>| {
            let clean = |x: &BTreeMap<String, i64>| -> BTreeMap<String, i64> {
                x.iter().filter(|(_, n)| **n != 0).map(|(k, v)| (k.clone(), *v)).collect()
            };
            clean(m) == clean(alt)
        };
        let give: BTreeMap<String, i64> =
            pre.iter().map(|(z, p)| (z.clone(), (p - alt.get(z).copied().unwrap_or(0)).max(0))).collect();
        let take: BTreeMap<String, i64> =
            alt.iter().map(|(z, a)| (z.clone(), (a - pre.get(z).copied().unwrap_or(0)).max(0))).collect();
        let matches = |moved: &BTreeMap<String, i64>, want: &BTreeMap<String, i64>| {
            want.iter().all(|(z, n)| moved.get(z).copied().unwrap_or(0) == *n)
                && moved.iter().all(|(z, n)| want.get(z).copied().unwrap_or(0) == *n)
        };
        same(&counts) && matches(&out, &give) && matches(&into, &take)
    })
}

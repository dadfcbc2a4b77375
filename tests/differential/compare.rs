//! The comparison of one case: the Rust engine's answer ([`Ours`], built from the engine by
//! `differential.rs`) against the oracle's result line ([`OracleResult`], README "Output").
//!
//! The engine's answer must be one of the oracle's outcomes (docs/behaviour.md#steady-state-and-ties):
//! * path (annotation / trafficDistribution / remove / none) equal;
//! * STEADY (live managed slices as Unchanged): some oracle outcome has, for every family, the same
//!   written slices, the same event, the same per-zone counts and the same hints per endpoint — an
//!   endpoint whose own zone gives may carry any receiving zone when the moves out of and into each
//!   zone agree (ties 2–3 there), on the annotation path only;
//! * every count vector the oracle reached (steady and fresh) is in our enumeration of tie outcomes;
//! * FRESH (every managed hint stripped): the same, except that the oracle writes every slice
//!   (ToCreate) while we rewrite only the slices that need it, so ours must be a subset;
//! * `overloaded` where our basis for it is the oracle's (see [`overload_comparable`]);
//! * kube-proxy: per node (real and synthetic), the endpoint addresses of the Service's first port
//!   (cluster list, or local list with iTP=Local), any of the oracle's cells (duplicates).
//!
//! Exclusions (the oracle cannot know, or models a different moment):
//! * events of a family without managed slices: the engine reports it as unmanaged (upstream would
//!   first create a placeholder slice), the oracle runs `AddHints` on nothing;
//! * events of an oracle family the engine does not report (a legacy headless Service without
//!   families gets both families upstream; we show only families with slices) — its written slices
//!   and counts must be empty;
//! * the `Enabled` event on the second family of a dual-stack Service (per-Service flag: whichever
//!   family goes first emits it; ours always says what a fresh cache emits);
//! * `Topology Aware Hints has been disabled`: needs in-memory state, neither side produces it;
//! * `overloaded` when we compute it on today's hints and the sync rewrites them: upstream's
//!   requeue trigger is the cache filled by the previous sync (today's hints), the oracle can only
//!   show the cache after its own sync.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

#[path = "step_e.rs"]
mod step_e;

/// Per-zone counts.
pub type Counts = BTreeMap<String, i64>;

/// An endpoint's hints as the oracle prints them (`null` lists kept apart from `[]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HintsOut {
    #[serde(rename = "forZones")]
    pub for_zones: Option<Vec<String>>,
    #[serde(rename = "forNodes")]
    pub for_nodes: Option<Vec<String>>,
}

/// An event (type, reason, message).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    #[serde(rename = "type")]
    pub event_type: String,
    pub reason: String,
    pub message: String,
}

/// One sync of one family, as the oracle reports it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SyncResult {
    pub changed: Vec<String>,
    pub events: Vec<Event>,
    pub counts: Counts,
    pub hints: BTreeMap<String, Option<HintsOut>>,
}

/// One family of an oracle outcome.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OracleFamily {
    pub family: String,
    pub steady: Option<SyncResult>,
    pub fresh: Option<SyncResult>,
    /// Upstream's overload recheck on this family's own cache entry after the steady sync;
    /// `None` when the sync left no entry (the family then adds nothing to the Service's flag).
    #[serde(default)]
    pub overloaded: Option<bool>,
}

/// One controller pass.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OracleOutcome {
    pub path: String,
    pub families: Vec<OracleFamily>,
    pub overloaded: bool,
}

/// `CategorizeEndpoints` for one (node, port).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ProxyPort {
    pub cluster: Option<Vec<String>>,
    pub local: Option<Vec<String>>,
}

/// kube-proxy on one node.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ProxyNodeOut {
    pub ports: BTreeMap<String, Vec<ProxyPort>>,
}

/// One result line of the oracle.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OracleResult {
    pub id: String,
    #[serde(rename = "k8sVersion")]
    pub k8s_version: String,
    pub runs: i64,
    #[serde(default)]
    pub error: Option<String>,
    pub outcomes: Vec<OracleOutcome>,
    pub seen: Vec<i64>,
    pub proxy: Option<BTreeMap<String, BTreeMap<String, ProxyNodeOut>>>,
}

/// An endpoint's facts the leniency rules need.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EndpointMeta {
    pub zone: Option<String>,
    pub ready: bool,
}

/// One family of the engine's answer for one sync (steady or fresh).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OurFamily {
    pub family: String,
    /// No managed slices (the engine reports the family as unmanaged; events not compared).
    pub no_managed_slices: bool,
    /// `rewrittenSlices`, sorted.
    pub changed: Vec<String>,
    pub event: Option<Event>,
    /// forZones entries of ready endpoints over the expected slices.
    pub counts: Counts,
    /// The same over the live slices.
    pub live_counts: Counts,
    /// `countOutcomes`.
    pub count_outcomes: Vec<Counts>,
    /// Hints of every endpoint of the expected slices, keyed like the oracle.
    pub hints: BTreeMap<String, Option<HintsOut>>,
    /// Own zone and readiness per endpoint key.
    pub endpoints: BTreeMap<String, EndpointMeta>,
    pub overloaded: Option<bool>,
    /// The engine's `serviceOverloaded` on the counts this sync leaves (what the oracle's cache
    /// holds after its sync); `None` off the annotation path.
    pub overloaded_after_sync: Option<bool>,
}

/// kube-proxy per family as the engine sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OurProxy {
    /// `"<port name>/<protocol>"` of the first port; `None` when kube-proxy skips the Service.
    pub port: Option<String>,
    /// iTP=Local: the local list is what ClusterIP traffic uses.
    pub local: bool,
    /// Node → endpoint addresses (sorted).
    pub nodes: BTreeMap<String, Vec<String>>,
}

/// The engine's whole answer for a case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ours {
    pub path: String,
    pub steady: Vec<OurFamily>,
    /// `None` on path `none` (the controller never reconciles).
    pub fresh: Option<Vec<OurFamily>>,
    /// Per reported family.
    pub proxy: BTreeMap<String, OurProxy>,
}

const ENABLED_REASON: &str = "TopologyAwareHintsEnabled";

/// Everything that differs; empty when the engine's answer is one of the oracle's outcomes.
pub fn compare(ours: &Ours, oracle: &OracleResult) -> Vec<String> {
    if let Some(e) = &oracle.error {
        return vec![format!("oracle error: {e}")];
    }
    if oracle.outcomes.is_empty() {
        return vec!["oracle returned no outcome".into()];
    }
    let mut out = Vec::new();
    let paths: BTreeSet<&str> = oracle.outcomes.iter().map(|o| o.path.as_str()).collect();
    if paths.len() != 1 || !paths.contains(ours.path.as_str()) {
        out.push(format!("path: ours {:?}, oracle {:?}", ours.path, paths));
        return out;
    }
    out.extend(match_phase(ours, &ours.steady, oracle, Phase::Steady, "steady"));
    if let Some(fresh) = &ours.fresh {
        out.extend(match_phase(ours, fresh, oracle, Phase::Fresh, "fresh"));
    }
    out.extend(counts_enumerated(ours, oracle));
    if let Some(proxy) = &oracle.proxy {
        out.extend(compare_proxy(&ours.proxy, proxy));
    }
    out
}

/// Errors of the closest outcome, or nothing when one outcome matches.
fn best(oracle: &OracleResult, matches: impl Fn(&OracleOutcome) -> Vec<String>, what: &str) -> Vec<String> {
    let mut closest: Option<(usize, Vec<String>)> = None;
    for (i, o) in oracle.outcomes.iter().enumerate() {
        let errors = matches(o);
        if errors.is_empty() {
            return vec![];
        }
        if closest.as_ref().is_none_or(|(_, c)| errors.len() < c.len()) {
            closest = Some((i, errors));
        }
    }
    let (i, errors) = closest.expect("at least one outcome");
    let n = oracle.outcomes.len();
    errors.into_iter().map(|e| format!("{what} (closest of {n} oracle outcomes: #{i}): {e}")).collect()
}

/// One Service-wide outcome must match when the Service has one address family. With two, the
/// families are reconciled independently (each has its own ties and map-order choices;
/// `reconcileByAddressType`), so each family must match some outcome on its own, its overload flags included (the
/// oracle reports upstream's recheck per family; the Service's flag is their OR): requiring one
/// sampled run to hit the canonical choice of both families at once rejects valid answers (seen:
/// a dual-stack case with 3,451 distinct upstream outcomes, and seed 47337661 case 3907, where
/// each family's canonical tie outcome is sampled but never both in one run).
fn match_phase(
    ours: &Ours,
    families: &[OurFamily],
    oracle: &OracleResult,
    phase: Phase,
    what: &str,
) -> Vec<String> {
    let names: BTreeSet<&str> = oracle
        .outcomes
        .iter()
        .flat_map(|o| o.families.iter().map(|f| f.family.as_str()))
        .chain(families.iter().map(|f| f.family.as_str()))
        .collect();
    let receivers = step_e::receivers(families, oracle, phase);
    let matches =
        |o: &OracleOutcome, scope: Scope| match_outcome(ours, families, o, phase, scope, &receivers);
    if names.len() <= 1 {
        return best(oracle, |o| matches(o, Scope::All), what);
    }
    names.into_iter().flat_map(|name| best(oracle, |o| matches(o, Scope::Family(name)), what)).collect()
}

/// What [`match_outcome`] compares.
#[derive(Clone, Copy, PartialEq)]
enum Scope<'a> {
    /// Every family and the Service-wide flags.
    All,
    /// One family only.
    Family(&'a str),
}

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Phase {
    Steady,
    Fresh,
}

fn match_outcome(
    ours: &Ours,
    families: &[OurFamily],
    o: &OracleOutcome,
    phase: Phase,
    scope: Scope,
    receivers: &step_e::Receivers,
) -> Vec<String> {
    let mut errors = Vec::new();
    let mut step_e_used = false;
    let dual = o.families.len() > 1;
    let wanted = |family: &str| match scope {
        Scope::All => true,
        Scope::Family(name) => name == family,
    };
    for f in o.families.iter().filter(|f| wanted(&f.family)) {
        let theirs = match phase {
            Phase::Steady => f.steady.as_ref(),
            Phase::Fresh => f.fresh.as_ref(),
        };
        let Some(theirs) = theirs else {
            errors.push(format!("{}: oracle has no result", f.family));
            continue;
        };
        let Some(mine) = families.iter().find(|m| m.family == f.family) else {
            // A family we do not report has no slices: nothing may be written or counted.
            if !theirs.changed.is_empty() || !theirs.counts.is_empty() || !theirs.hints.is_empty() {
                errors.push(format!(
                    "{}: not reported by the engine but the oracle writes {:?}",
                    f.family, theirs
                ));
            }
            continue;
        };
        let (family_errors, step_e) =
            match_family(mine, theirs, phase, dual, &ours.path, receivers.get(&f.family));
        errors.extend(family_errors.into_iter().map(|e| format!("{}: {e}", f.family)));
        // Upstream's flag is on its own counts, which a Step E difference changes.
        step_e_used |= step_e;
        if phase == Phase::Steady && ours.path == "annotation" && f.overloaded.is_some() && !step_e {
            errors.extend(
                family_overload(mine, f.overloaded == Some(true))
                    .into_iter()
                    .map(|e| format!("{}: {e}", f.family)),
            );
        }
    }
    for m in families.iter().filter(|m| wanted(&m.family)) {
        if !o.families.iter().any(|f| f.family == m.family) {
            errors
                .push(format!("{}: reported by the engine, not a family of the Service upstream", m.family));
        }
    }
    if phase == Phase::Steady && ours.path == "annotation" && scope == Scope::All && !step_e_used {
        // The report's value, where its basis is the oracle's; the recheck on the counts after
        // the sync always.
        let mine = families.iter().any(|f| f.overloaded == Some(true));
        if overload_comparable(families) && mine != o.overloaded {
            errors.push(format!("overloaded (report): ours {mine}, oracle {}", o.overloaded));
        }
        let after = families.iter().any(|f| f.overloaded_after_sync == Some(true));
        if after != o.overloaded {
            errors.push(format!("overloaded after the sync: ours {after}, oracle {}", o.overloaded));
        }
    }
    errors
}

/// One family's overload flags against upstream's recheck on that family's cache entry: the
/// recheck on the counts the sync leaves always, the report's value where its basis is the
/// oracle's (today's hints are what the sync keeps, or the slices carry none).
fn family_overload(mine: &OurFamily, theirs: bool) -> Vec<String> {
    let mut errors = Vec::new();
    if let Some(after) = mine.overloaded_after_sync
        && after != theirs
    {
        errors.push(format!("overloaded after the sync: ours {after}, oracle {theirs}"));
    }
    if overload_comparable(std::slice::from_ref(mine))
        && let Some(report) = mine.overloaded
        && report != theirs
    {
        errors.push(format!("overloaded (report): ours {report}, oracle {theirs}"));
    }
    errors
}

/// True when every family's overload basis (today's hints when the slices carry any, else the
/// hints the sync writes) is the oracle's (the counts cached by its sync).
pub fn overload_comparable(families: &[OurFamily]) -> bool {
    families.iter().all(|f| f.live_counts.is_empty() || f.live_counts == f.counts)
}

/// The family's errors, and whether it matched only through the Step E leniency ([`step_e`]).
fn match_family(
    mine: &OurFamily,
    theirs: &SyncResult,
    phase: Phase,
    dual: bool,
    path: &str,
    receivers: Option<&BTreeSet<String>>,
) -> (Vec<String>, bool) {
    let mut errors = Vec::new();
    let step_e = path == "annotation" && step_e::explains(mine, theirs, receivers);
    match phase {
        Phase::Steady => {
            if mine.changed != theirs.changed {
                errors.push(format!("written slices: ours {:?}, oracle {:?}", mine.changed, theirs.changed));
            }
        }
        Phase::Fresh => {
            // The oracle creates every slice; we rewrite only those whose hints must change.
            let extra: Vec<&String> = mine.changed.iter().filter(|s| !theirs.changed.contains(s)).collect();
            if !extra.is_empty() {
                errors.push(format!("written slices not written upstream: {extra:?}"));
            }
        }
    }
    if !mine.no_managed_slices {
        let ours: Vec<&Event> = mine.event.iter().collect();
        let theirs_events: Vec<&Event> = theirs.events.iter().collect();
        let dual_enabled_skipped =
            dual && theirs_events.is_empty() && ours.len() == 1 && ours[0].reason == ENABLED_REASON;
        if ours != theirs_events && !dual_enabled_skipped {
            errors.push(format!("events: ours {ours:?}, oracle {theirs_events:?}"));
        }
    }
    if mine.counts != theirs.counts && !step_e {
        errors.push(format!("counts: ours {:?}, oracle {:?}", mine.counts, theirs.counts));
    }
    errors.extend(match_hints(mine, theirs, path == "annotation", step_e.then_some(receivers).flatten()));
    (errors, step_e)
}

/// Hints per endpoint; on the annotation path an endpoint of a giving zone may carry any receiving
/// zone (or its own) as long as the moves out of and into every zone agree (docs/behaviour.md#steady-state-and-ties (c), (e)),
/// or, with `step_e` (the zones that receive in some oracle outcome), the moves out agree and
/// [`step_e::explains`] the moves in.
fn match_hints(
    mine: &OurFamily,
    theirs: &SyncResult,
    lenient: bool,
    step_e: Option<&BTreeSet<String>>,
) -> Vec<String> {
    let mut errors = Vec::new();
    let keys: BTreeSet<&String> = mine.hints.keys().chain(theirs.hints.keys()).collect();
    let (my_out, my_in) = moves(mine, &mine.hints, &theirs.changed);
    let (their_out, their_in) = moves(mine, &theirs.hints, &theirs.changed);
    let moves_agree = (my_out == their_out && my_in == their_in) || step_e.is_some();
    let receives = |z: &String| step_e.map_or(their_in.contains_key(z), |r| r.contains(z));
    for key in keys {
        let (Some(a), Some(b)) = (mine.hints.get(key), theirs.hints.get(key)) else {
            errors.push(format!(
                "endpoint {key}: only {}",
                if mine.hints.contains_key(key) { "ours" } else { "oracle's" }
            ));
            continue;
        };
        if a == b {
            continue;
        }
        let allowed = lenient && moves_agree && {
            let slice = key.split('/').next().unwrap_or_default();
            let meta = mine.endpoints.get(key);
            let own = meta.and_then(|m| m.zone.clone()).unwrap_or_default();
            let ok = |h: &Option<HintsOut>| match h {
                Some(HintsOut { for_zones: Some(z), for_nodes: None }) if z.len() == 1 => {
                    z[0] == own || receives(&z[0])
                }
                _ => false,
            };
            theirs.changed.iter().any(|s| s == slice)
                && meta.is_some_and(|m| m.ready)
                && their_out.contains_key(&own)
                && ok(a)
                && ok(b)
        };
        if !allowed {
            errors.push(format!("endpoint {key}: ours {a:?}, oracle {b:?}"));
        }
    }
    if lenient && !moves_agree {
        errors.push(format!(
            "moved endpoints: ours out {my_out:?} in {my_in:?}, oracle out {their_out:?} in {their_in:?}"
        ));
    }
    errors
}

/// Foreign single-zone hints of ready endpoints in written slices: per own zone (out) and per
/// hinted zone (in).
pub(crate) fn moves(
    mine: &OurFamily,
    hints: &BTreeMap<String, Option<HintsOut>>,
    changed: &[String],
) -> (Counts, Counts) {
    let (mut out, mut into) = (Counts::new(), Counts::new());
    for (key, h) in hints {
        let slice = key.split('/').next().unwrap_or_default();
        let Some(meta) = mine.endpoints.get(key) else { continue };
        let (true, Some(own)) = (meta.ready && changed.iter().any(|s| s == slice), meta.zone.as_ref()) else {
            continue;
        };
        if let Some(HintsOut { for_zones: Some(z), .. }) = h
            && z.len() == 1
            && z[0] != *own
        {
            *out.entry(own.clone()).or_default() += 1;
            *into.entry(z[0].clone()).or_default() += 1;
        }
    }
    (out, into)
}

/// Every count vector the oracle reached after a successful `AddHints` is one we enumerate.
fn counts_enumerated(ours: &Ours, oracle: &OracleResult) -> Vec<String> {
    if ours.path != "annotation" {
        return vec![];
    }
    let mut errors = BTreeSet::new();
    for o in &oracle.outcomes {
        for f in &o.families {
            for (phase, theirs, mine) in [
                ("steady", f.steady.as_ref(), Some(&ours.steady)),
                ("fresh", f.fresh.as_ref(), ours.fresh.as_ref()),
            ] {
                let (Some(theirs), Some(mine)) = (theirs, mine) else { continue };
                let Some(mine) = mine.iter().find(|m| m.family == f.family) else { continue };
                let failed = theirs.events.iter().any(|e| e.event_type == "Warning");
                if failed || theirs.counts.is_empty() || mine.no_managed_slices {
                    continue;
                }
                // A fully kept family reports no tie outcomes: the counts are today's.
                let known = mine.count_outcomes.contains(&theirs.counts)
                    || (mine.count_outcomes.is_empty() && mine.counts == theirs.counts);
                if !known {
                    errors.insert(format!(
                        "{phase} {}: oracle reached counts {:?}, not in our countOutcomes {:?}",
                        f.family, theirs.counts, mine.count_outcomes
                    ));
                }
            }
        }
    }
    errors.into_iter().collect()
}

/// `ip:port` / `[ip]:port` → `ip`.
pub fn address_of(endpoint: &str) -> String {
    if let Some(rest) = endpoint.strip_prefix('[') {
        return rest.split(']').next().unwrap_or_default().to_string();
    }
    endpoint.rsplit_once(':').map(|(a, _)| a).unwrap_or(endpoint).to_string()
}

fn compare_proxy(
    ours: &BTreeMap<String, OurProxy>,
    theirs: &BTreeMap<String, BTreeMap<String, ProxyNodeOut>>,
) -> Vec<String> {
    let mut errors = Vec::new();
    let families: BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
    for family in families {
        let mine = ours.get(family);
        let nodes = theirs.get(family);
        let node_names: BTreeSet<&String> = nodes
            .into_iter()
            .flat_map(|n| n.keys())
            .chain(mine.into_iter().flat_map(|m| m.nodes.keys()))
            .collect();
        for node in node_names {
            let my_eps: Vec<String> = mine.and_then(|m| m.nodes.get(node)).cloned().unwrap_or_default();
            let cells: Vec<Vec<String>> = match (
                nodes.and_then(|n| n.get(node)),
                mine.and_then(|m| m.port.as_ref()),
            ) {
                (Some(n), Some(port)) => match n.ports.get(port) {
                    Some(cells) => cells
                        .iter()
                        .map(|c| {
                            let list = if mine.is_some_and(|m| m.local) { &c.local } else { &c.cluster };
                            let mut v: Vec<String> = list.iter().flatten().map(|e| address_of(e)).collect();
                            v.sort();
                            v
                        })
                        .collect(),
                    None => vec![vec![]],
                },
                // kube-proxy does not serve this family / port, or we skip the Service: nothing.
                (Some(n), None) => {
                    if n.ports
                        .values()
                        .flatten()
                        .any(|c| c.cluster.iter().chain(c.local.iter()).any(|l| !l.is_empty()))
                    {
                        errors.push(format!("proxy {family} {node}: kube-proxy has endpoints, the engine shows none for this family"));
                    }
                    continue;
                }
                (None, _) => vec![vec![]],
            };
            if !cells.contains(&my_eps) {
                errors.push(format!("proxy {family} {node}: ours {my_eps:?}, oracle one of {cells:?}"));
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pairs: &[(&str, i64)]) -> Counts {
        pairs.iter().map(|(z, n)| (z.to_string(), *n)).collect()
    }

    fn zone(z: &str) -> Option<HintsOut> {
        Some(HintsOut { for_zones: Some(vec![z.into()]), for_nodes: None })
    }

    fn enabled(family: &str) -> Event {
        Event {
            event_type: "Normal".into(),
            reason: ENABLED_REASON.into(),
            message: format!("Topology Aware Hints has been enabled, addressType: {family}"),
        }
    }

    /// Two endpoints in zone a (slice s), one in zone b; the second of a moves to b.
    fn family(hints: [Option<HintsOut>; 3]) -> OurFamily {
        let keys = ["s/0/10.0.0.1", "s/1/10.0.0.2", "s/2/10.0.0.3"];
        let zones = ["a", "a", "b"];
        let mut c = Counts::new();
        for h in hints.iter().flatten() {
            for z in h.for_zones.iter().flatten() {
                *c.entry(z.clone()).or_default() += 1;
            }
        }
        OurFamily {
            family: "IPv4".into(),
            no_managed_slices: false,
            changed: vec!["s".into()],
            event: Some(enabled("IPv4")),
            counts: c.clone(),
            live_counts: Counts::new(),
            count_outcomes: vec![c],
            hints: keys.iter().zip(hints).map(|(k, h)| (k.to_string(), h)).collect(),
            endpoints: keys
                .iter()
                .zip(zones)
                .map(|(k, z)| (k.to_string(), EndpointMeta { zone: Some(z.into()), ready: true }))
                .collect(),
            overloaded: Some(false),
            overloaded_after_sync: Some(false),
        }
    }

    fn result_of(f: &OurFamily) -> SyncResult {
        SyncResult {
            changed: f.changed.clone(),
            events: f.event.iter().cloned().collect(),
            counts: f.counts.clone(),
            hints: f.hints.clone(),
        }
    }

    fn oracle(families: Vec<OracleFamily>) -> OracleResult {
        OracleResult {
            id: "t".into(),
            k8s_version: "1.36".into(),
            runs: 64,
            error: None,
            outcomes: vec![OracleOutcome { path: "annotation".into(), families, overloaded: false }],
            seen: vec![64],
            proxy: None,
        }
    }

    fn ours(f: OurFamily) -> Ours {
        Ours { path: "annotation".into(), steady: vec![f], fresh: None, proxy: BTreeMap::new() }
    }

    #[test]
    fn identical_answers_match() {
        let f = family([zone("a"), zone("b"), zone("b")]);
        let o = oracle(vec![OracleFamily {
            family: "IPv4".into(),
            steady: Some(result_of(&f)),
            fresh: None,
            overloaded: None,
        }]);
        assert_eq!(compare(&ours(f), &o), Vec::<String>::new());
    }

    #[test]
    fn which_endpoint_of_a_giving_zone_moves_is_free() {
        let mine = family([zone("a"), zone("b"), zone("b")]);
        let theirs = family([zone("b"), zone("a"), zone("b")]);
        let o = oracle(vec![OracleFamily {
            family: "IPv4".into(),
            steady: Some(result_of(&theirs)),
            fresh: None,
            overloaded: None,
        }]);
        assert_eq!(compare(&ours(mine), &o), Vec::<String>::new());
    }

    #[test]
    fn a_move_out_of_a_zone_that_does_not_give_is_a_mismatch() {
        // Ours moves zone b's endpoint to a; upstream moves one of a's to b.
        let mine = family([zone("a"), zone("a"), zone("a")]);
        let theirs = family([zone("a"), zone("b"), zone("b")]);
        let o = oracle(vec![OracleFamily {
            family: "IPv4".into(),
            steady: Some(result_of(&theirs)),
            fresh: None,
            overloaded: None,
        }]);
        let errors = compare(&ours(mine), &o);
        assert!(errors.iter().any(|e| e.contains("counts")), "{errors:?}");
        assert!(errors.iter().any(|e| e.contains("moved endpoints")), "{errors:?}");
    }

    #[test]
    fn leniency_is_for_the_annotation_path_only() {
        let mine = family([zone("a"), zone("b"), zone("b")]);
        let theirs = family([zone("b"), zone("a"), zone("b")]);
        let mut o = oracle(vec![OracleFamily {
            family: "IPv4".into(),
            steady: Some(result_of(&theirs)),
            fresh: None,
            overloaded: None,
        }]);
        o.outcomes[0].path = "trafficDistribution".into();
        let mut ours = ours(mine);
        ours.path = "trafficDistribution".into();
        assert_eq!(compare(&ours, &o).len(), 2);
    }

    #[test]
    fn second_family_may_lack_the_enabled_event() {
        let mut v6 = family([zone("a"), zone("b"), zone("b")]);
        v6.family = "IPv6".into();
        v6.event = Some(enabled("IPv6"));
        let v4 = family([zone("a"), zone("b"), zone("b")]);
        let mut quiet = result_of(&v6);
        quiet.events.clear();
        let o = oracle(vec![
            OracleFamily {
                family: "IPv4".into(),
                steady: Some(result_of(&v4)),
                fresh: None,
                overloaded: None,
            },
            OracleFamily {
                family: "IPv6".into(),
                steady: Some(quiet.clone()),
                fresh: None,
                overloaded: None,
            },
        ]);
        let mut both = ours(v4.clone());
        both.steady.push(v6);
        assert_eq!(compare(&both, &o), Vec::<String>::new());
        // Single-stack: a missing event is a mismatch.
        let o = oracle(vec![OracleFamily {
            family: "IPv4".into(),
            steady: Some(SyncResult { events: vec![], ..result_of(&v4) }),
            fresh: None,
            overloaded: None,
        }]);
        assert_eq!(compare(&ours(v4), &o).len(), 1);
    }

    #[test]
    fn dual_stack_families_match_outcomes_independently() {
        // Upstream's random choices of the two families do not interact: runs gave (v4 A, v6 X)
        // and (v4 B, v6 Y); our (v4 A, v6 Y) is valid although no single run produced it.
        let fam = |name: &str, hints: [Option<HintsOut>; 3]| {
            let mut f = family(hints);
            f.family = name.into();
            f.event = Some(enabled(name));
            f.count_outcomes = vec![counts(&[("a", 1), ("b", 2)]), counts(&[("a", 2), ("b", 1)])];
            f
        };
        let (v4_a, v4_b) =
            (fam("IPv4", [zone("a"), zone("b"), zone("b")]), fam("IPv4", [zone("a"), zone("a"), zone("b")]));
        let (v6_x, v6_y) =
            (fam("IPv6", [zone("a"), zone("a"), zone("b")]), fam("IPv6", [zone("a"), zone("b"), zone("b")]));
        let outcome = |v4: &OurFamily, v6: &OurFamily| OracleOutcome {
            path: "annotation".into(),
            families: vec![
                OracleFamily {
                    family: "IPv4".into(),
                    steady: Some(result_of(v4)),
                    fresh: None,
                    overloaded: None,
                },
                OracleFamily {
                    family: "IPv6".into(),
                    steady: Some(result_of(v6)),
                    fresh: None,
                    overloaded: None,
                },
            ],
            overloaded: false,
        };
        let mut o = oracle(vec![]);
        o.outcomes = vec![outcome(&v4_a, &v6_x), outcome(&v4_b, &v6_y)];
        o.seen = vec![32, 32];
        let mut mine = ours(v4_a);
        mine.steady.push(v6_y);
        assert_eq!(compare(&mine, &o), Vec::<String>::new());
        // A family answer no run produced is still a mismatch.
        mine.steady[1] = fam("IPv6", [zone("b"), zone("b"), zone("b")]);
        mine.steady[1].count_outcomes.push(counts(&[("b", 3)]));
        assert!(!compare(&mine, &o).is_empty());
    }

    #[test]
    fn dual_stack_overload_flags_are_judged_per_family() {
        // Seed 47337661 case 3907: each family's canonical outcome (not overloaded) was sampled,
        // but never both in one run, so every run's Service-wide flag was true.
        let fam = |name: &str, after: bool| {
            let mut f = family([zone("a"), zone("b"), zone("b")]);
            f.family = name.into();
            f.event = Some(enabled(name));
            f.overloaded_after_sync = Some(after);
            f
        };
        let outcome = |v4: bool, v6: bool| OracleOutcome {
            path: "annotation".into(),
            families: vec![
                OracleFamily {
                    family: "IPv4".into(),
                    steady: Some(result_of(&fam("IPv4", v4))),
                    fresh: None,
                    overloaded: Some(v4),
                },
                OracleFamily {
                    family: "IPv6".into(),
                    steady: Some(result_of(&fam("IPv6", v6))),
                    fresh: None,
                    overloaded: Some(v6),
                },
            ],
            overloaded: v4 || v6,
        };
        let mut o = oracle(vec![]);
        o.outcomes = vec![outcome(true, false), outcome(false, true)];
        o.seen = vec![32, 32];
        let mut mine = ours(fam("IPv4", false));
        mine.steady.push(fam("IPv6", false));
        assert_eq!(compare(&mine, &o), Vec::<String>::new());
        // A family flag no run of that family produced is a mismatch.
        o.outcomes = vec![outcome(true, false), outcome(true, true)];
        let errors = compare(&mine, &o);
        assert!(
            errors.iter().any(|e| e.contains("IPv4: overloaded after the sync: ours false")),
            "{errors:?}"
        );
    }

    #[test]
    fn any_matching_outcome_is_enough_and_every_oracle_count_must_be_enumerated() {
        let f = family([zone("a"), zone("b"), zone("b")]);
        let other = family([zone("a"), zone("a"), zone("b")]);
        let mut o = oracle(vec![OracleFamily {
            family: "IPv4".into(),
            steady: Some(result_of(&other)),
            fresh: None,
            overloaded: None,
        }]);
        o.outcomes.push(OracleOutcome {
            path: "annotation".into(),
            families: vec![OracleFamily {
                family: "IPv4".into(),
                steady: Some(result_of(&f)),
                fresh: None,
                overloaded: None,
            }],
            overloaded: false,
        });
        let mut mine = ours(f);
        let errors = compare(&mine, &o);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("not in our countOutcomes"), "{errors:?}");
        mine.steady[0].count_outcomes.push(counts(&[("a", 2), ("b", 1)]));
        assert_eq!(compare(&mine, &o), Vec::<String>::new());
    }

    #[test]
    fn fresh_may_write_fewer_slices_than_the_oracle_creates() {
        let mut f = family([zone("a"), zone("b"), zone("b")]);
        let mut theirs = result_of(&f);
        theirs.changed.push("empty".into());
        f.changed.clear();
        let o = oracle(vec![OracleFamily {
            family: "IPv4".into(),
            steady: Some(result_of(&family([zone("a"), zone("b"), zone("b")]))),
            fresh: Some(theirs),
            overloaded: None,
        }]);
        let mut mine = ours(family([zone("a"), zone("b"), zone("b")]));
        mine.fresh = Some(vec![f.clone()]);
        assert_eq!(compare(&mine, &o), Vec::<String>::new());
        f.changed = vec!["other".into()];
        mine.fresh = Some(vec![f]);
        assert_eq!(compare(&mine, &o).len(), 1);
    }

    #[test]
    fn overload_compared_only_on_the_same_basis() {
        let mut f = family([zone("a"), zone("b"), zone("b")]);
        f.overloaded = Some(true);
        let o = oracle(vec![OracleFamily {
            family: "IPv4".into(),
            steady: Some(result_of(&f)),
            fresh: None,
            overloaded: None,
        }]);
        assert_eq!(compare(&ours(f.clone()), &o).len(), 1);
        f.live_counts = counts(&[("a", 3)]);
        assert_eq!(compare(&ours(f), &o), Vec::<String>::new());
    }

    #[test]
    fn proxy_cells_are_sets_and_ports_are_stripped() {
        let cell =
            |c: &[&str]| ProxyPort { cluster: Some(c.iter().map(|s| s.to_string()).collect()), local: None };
        let theirs: BTreeMap<String, BTreeMap<String, ProxyNodeOut>> = [(
            "IPv6".to_string(),
            [(
                "n1".to_string(),
                ProxyNodeOut {
                    ports: [("http/TCP".to_string(), vec![cell(&["[fd00::1]:80"]), cell(&["[fd00::2]:80"])])]
                        .into(),
                },
            )]
            .into(),
        )]
        .into();
        let mine = |eps: &[&str]| -> BTreeMap<String, OurProxy> {
            [(
                "IPv6".to_string(),
                OurProxy {
                    port: Some("http/TCP".into()),
                    local: false,
                    nodes: [("n1".to_string(), eps.iter().map(|s| s.to_string()).collect())].into(),
                },
            )]
            .into()
        };
        assert!(compare_proxy(&mine(&["fd00::2"]), &theirs).is_empty());
        assert_eq!(compare_proxy(&mine(&["fd00::3"]), &theirs).len(), 1);
        assert_eq!(address_of("10.0.0.1:8080"), "10.0.0.1");
    }
}

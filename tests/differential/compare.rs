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

#[path = "step_e.rs"]
mod step_e;

#[path = "answers.rs"]
mod answers;
pub use answers::*;
#[path = "compare_proxy.rs"]
mod proxy;
pub use proxy::address_of;
use proxy::compare_proxy;

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

#[cfg(test)]
#[path = "compare_tests.rs"]
mod tests;

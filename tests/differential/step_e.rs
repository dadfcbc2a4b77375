//! Step E of `AddHints` (`redistributeHints`) when fewer endpoints can move than the receiving
//! zones ask for: each moving endpoint goes to whichever receiving zone with demand left comes
//! first in a `range` over a Go map. Every choice is reachable, but the order is heavily skewed
//! (a small Go map starts its iteration at a random one of 8 slots, so with two receivers one is
//! first 7 times in 8): the engine's canonical choice (lexicographic) can be one that 4,096 runs
//! never sample (seed 424242, case 141337: 7 moves all to `Zone-A` has probability ≈ 8⁻⁷).
//!
//! Such an answer is accepted against an oracle outcome when it differs from it only there:
//! * the same endpoints move out of the same zones (the giving side is deterministic);
//! * every zone we move an endpoint into receives one in some oracle outcome of this phase;
//! * our resulting per-zone counts are one of our enumerated tie outcomes (`countOutcomes`, which
//!   `counts_enumerated` checks contains every count vector the oracle reached);
//! * apart from the moved endpoints, the counts agree.

use std::collections::{BTreeMap, BTreeSet};

use super::{Counts, OracleResult, OurFamily, Phase, moves};

/// Per family: the zones that receive a moved endpoint in some oracle outcome of the phase.
pub type Receivers = BTreeMap<String, BTreeSet<String>>;

/// [`Receivers`] over every oracle outcome, judged with our endpoints' zones and readiness.
pub fn receivers(families: &[OurFamily], oracle: &OracleResult, phase: Phase) -> Receivers {
    let mut out = Receivers::new();
    for o in &oracle.outcomes {
        for f in &o.families {
            let Some(mine) = families.iter().find(|m| m.family == f.family) else { continue };
            let theirs = match phase {
                Phase::Steady => f.steady.as_ref(),
                Phase::Fresh => f.fresh.as_ref(),
            };
            let Some(theirs) = theirs else { continue };
            let (_, into) = moves(mine, &theirs.hints, &theirs.changed);
            out.entry(f.family.clone()).or_default().extend(into.into_keys());
        }
    }
    out
}

/// True when our answer differs from `theirs` only by where Step E sent the moved endpoints, and
/// our choice is a reachable one (module docs).
pub fn explains(mine: &OurFamily, theirs: &super::SyncResult, receivers: Option<&BTreeSet<String>>) -> bool {
    let Some(receivers) = receivers else { return false };
    let (my_out, my_in) = moves(mine, &mine.hints, &theirs.changed);
    let (their_out, their_in) = moves(mine, &theirs.hints, &theirs.changed);
    my_out == their_out
        && my_in != their_in
        && my_in.keys().all(|z| receivers.contains(z))
        && mine.count_outcomes.contains(&mine.counts)
        && unmoved(&mine.counts, &my_in) == unmoved(&theirs.counts, &their_in)
}

/// Counts without the endpoints moved in (zones left at 0 dropped).
fn unmoved(counts: &Counts, moved_in: &Counts) -> Counts {
    let mut out = counts.clone();
    for (zone, n) in moved_in {
        *out.entry(zone.clone()).or_default() -= n;
    }
    out.retain(|_, n| *n != 0);
    out
}

#[cfg(test)]
mod tests {
    use super::super::{EndpointMeta, HintsOut, OracleFamily, OracleOutcome, Ours, SyncResult, compare};
    use super::*;

    /// Zone a has three endpoints and gives two; b and c both receive (each could take two).
    fn family(to: [&str; 2], count_outcomes: &[[i64; 3]]) -> OurFamily {
        let zones = ["a", "a", "a", "b"];
        let hinted = ["a", to[0], to[1], "b"];
        let key = |i: usize| format!("s/{i}/10.0.0.{i}");
        let per_zone = |v: &[i64; 3]| -> Counts {
            ["a", "b", "c"].iter().zip(v).filter(|(_, n)| **n > 0).map(|(z, n)| (z.to_string(), *n)).collect()
        };
        let mut counts = Counts::new();
        for z in hinted {
            *counts.entry(z.to_string()).or_default() += 1;
        }
        OurFamily {
            family: "IPv4".into(),
            no_managed_slices: false,
            changed: vec!["s".into()],
            event: None,
            counts,
            live_counts: Counts::new(),
            count_outcomes: count_outcomes.iter().map(per_zone).collect(),
            hints: (0..4)
                .map(|i| {
                    (key(i), Some(HintsOut { for_zones: Some(vec![hinted[i].into()]), for_nodes: None }))
                })
                .collect(),
            endpoints: (0..4)
                .map(|i| (key(i), EndpointMeta { zone: Some(zones[i].into()), ready: true }))
                .collect(),
            overloaded: None,
            overloaded_after_sync: Some(false),
        }
    }

    fn sampled(f: &OurFamily, overloaded: bool) -> OracleOutcome {
        let steady = SyncResult {
            changed: f.changed.clone(),
            events: vec![],
            counts: f.counts.clone(),
            hints: f.hints.clone(),
        };
        OracleOutcome {
            path: "annotation".into(),
            families: vec![OracleFamily {
                family: "IPv4".into(),
                steady: Some(steady),
                fresh: None,
                overloaded: Some(overloaded),
            }],
            overloaded,
        }
    }

    fn oracle(outcomes: Vec<OracleOutcome>) -> OracleResult {
        OracleResult {
            id: "t".into(),
            k8s_version: "1.36".into(),
            runs: 64,
            error: None,
            seen: vec![32; outcomes.len()],
            outcomes,
            proxy: None,
        }
    }

    fn ours(f: OurFamily) -> Ours {
        Ours { path: "annotation".into(), steady: vec![f], fresh: None, proxy: BTreeMap::new() }
    }

    const REACHABLE: &[[i64; 3]] = &[[1, 3, 0], [1, 2, 1], [1, 1, 2]];

    #[test]
    fn an_unsampled_receiving_choice_is_accepted() {
        // Upstream sent one move to each of b and c (in either order); we send both to c.
        let o = oracle(vec![
            sampled(&family(["b", "c"], REACHABLE), true),
            sampled(&family(["c", "b"], REACHABLE), true),
        ]);
        assert_eq!(compare(&ours(family(["c", "c"], REACHABLE)), &o), Vec::<String>::new());
    }

    #[test]
    fn a_choice_outside_our_enumeration_or_the_receivers_is_not() {
        let o = oracle(vec![sampled(&family(["b", "c"], REACHABLE), false)]);
        // c:2 is not a tie outcome we enumerate.
        let errors = compare(&ours(family(["c", "c"], &REACHABLE[..2])), &o);
        assert!(errors.iter().any(|e| e.contains("counts")), "{errors:?}");
        // Only b ever receives upstream: moving to c is not a choice upstream has.
        let o = oracle(vec![sampled(&family(["b", "b"], REACHABLE), false)]);
        let errors = compare(&ours(family(["c", "c"], REACHABLE)), &o);
        assert!(errors.iter().any(|e| e.contains("moved endpoints")), "{errors:?}");
    }

    #[test]
    fn the_giving_side_must_agree() {
        // Ours moves a's endpoints 1 and 2; upstream keeps endpoint 2 home and moves b's instead.
        let mut theirs = family(["b", "c"], REACHABLE);
        theirs.hints.insert(
            "s/2/10.0.0.2".into(),
            Some(HintsOut { for_zones: Some(vec!["a".into()]), for_nodes: None }),
        );
        theirs.hints.insert(
            "s/3/10.0.0.3".into(),
            Some(HintsOut { for_zones: Some(vec!["c".into()]), for_nodes: None }),
        );
        let o = oracle(vec![sampled(&theirs, false)]);
        assert!(!compare(&ours(family(["c", "c"], REACHABLE)), &o).is_empty());
    }
}

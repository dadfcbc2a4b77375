//! The "why" of a `watch` line: the reason sentence of the new state, or what was cleared, or how
//! the hints moved.

use std::collections::BTreeMap;

use super::whatif::zone_counts;
use crate::core::reason::ReasonCode;
use crate::report::Verdict;
use crate::report::watch::{ChangeKind, FamilyState, ServiceChange};

/// One sentence saying why the line was printed.
pub fn why(change: &ServiceChange) -> String {
    let Some(after) = &change.after else {
        return "The Service (or this address family of it) no longer exists.".into();
    };
    if let Some(first) = after.reasons.first() {
        return first.message.clone();
    }
    if !change.cleared.is_empty() {
        return format!("No longer in effect: {}.", cleared(&change.cleared));
    }
    match (&change.before, change.change) {
        (Some(before), ChangeKind::Changed) if before.hinted != after.hinted => format!(
            "Hinted endpoints per zone moved from {} to {}.",
            zone_counts(&before.hinted),
            zone_counts(&after.hinted)
        ),
        (Some(_), ChangeKind::Changed) if !change.rehinted.is_empty() => rehinted(&change.rehinted),
        _ => steady(after),
    }
}

/// Hints moved between endpoints while every zone kept its count.
fn rehinted(addresses: &[String]) -> String {
    const SHOWN: usize = 3;
    let mut names = addresses.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
    if addresses.len() > SHOWN {
        names.push_str(&format!(" and {} more", addresses.len() - SHOWN));
    }
    let n = addresses.len();
    let s = if n == 1 { "" } else { "s" };
    format!("Hints changed on {n} endpoint{s} ({names}); the hinted endpoints per zone stayed the same.")
}

fn cleared(codes: &[ReasonCode]) -> String {
    let names: Vec<String> = codes
        .iter()
        .map(|c| match super::safeguard(*c) {
            Some(name) => format!("{c:?} ({name})"),
            None => format!("{c:?}"),
        })
        .collect();
    names.join(", ")
}

fn steady(state: &FamilyState) -> String {
    match state.verdict {
        Verdict::Active => {
            format!("Hints are on the slices as the controller keeps them ({}).", counts(&state.hinted))
        }
        _ => "No reason recorded.".into(),
    }
}

fn counts(hinted: &BTreeMap<String, i64>) -> String {
    format!("hinted per zone: {}", zone_counts(hinted))
}

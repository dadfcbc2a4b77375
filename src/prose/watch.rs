//! The "why" of a `watch` line: the reason sentence of the new state, or what was cleared, or how
//! the hints moved.

use std::collections::BTreeMap;

use super::whatif::zone_counts;
use topo_engine::report::Verdict;
use topo_engine::report::reason::ReasonCode;
use topo_engine::report::watch::{ChangeKind, FamilyState, ServiceChange};

/// One sentence saying why the line was printed.
pub(crate) fn why(change: &ServiceChange) -> String {
    let Some(after) = &change.after else {
        return "The Service (or this address family of it) no longer exists.".into();
    };
    if let Some(first) = after.reasons.first() {
        return super::sentence(first);
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
            Some(name) => format!("{c} ({name})"),
            None => c.to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use topo_engine::report::ServiceRef;

    #[test]
    fn hints_moving_between_endpoints_are_named_when_zone_counts_stay() {
        let state = FamilyState {
            address_type: "IPv4".into(),
            verdict: Verdict::Active,
            reasons: vec![],
            hinted: [("a".to_string(), 1), ("b".to_string(), 1)].into(),
            endpoint_hints: BTreeMap::new(),
        };
        let change = ServiceChange {
            time: String::new(),
            service: ServiceRef { namespace: "ns".into(), name: "web".into() },
            address_type: "IPv4".into(),
            change: ChangeKind::Changed,
            before: Some(state.clone()),
            after: Some(state),
            cleared: vec![],
            rehinted: vec!["10.0.0.1".into(), "10.0.0.2".into()],
        };
        let why = why(&change);
        assert!(why.contains("2 endpoints (10.0.0.1, 10.0.0.2)") && why.contains("stayed the same"), "{why}");
    }
}

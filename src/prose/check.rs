//! The words of `check`'s summary (table, markdown) and its notes about ignore annotations.

use topo_engine::report::{CheckSummary, ServiceRef};

use crate::triage::IGNORE_ANNOTATION;

/// `4 Service(s): 2 Active, 1 Blocked, 1 Unmanaged`, then what was left out or set aside:
/// `; 12 hidden (nobody asked for hints and none are present: --show-all lists them)`,
/// `; 3 filtered out`, `; 2 reasons ignored by rules`.
pub(crate) fn summary_line(summary: &CheckSummary) -> String {
    let counts: Vec<String> = summary.verdicts.iter().map(|(v, n)| format!("{n} {v}")).collect();
    let mut line = format!(
        "{} Service(s): {}",
        summary.services,
        if counts.is_empty() { "-".into() } else { counts.join(", ") }
    );
    if summary.hidden > 0 {
        line.push_str(&format!(
            "; {} hidden (nobody asked for hints and none are present: --show-all lists them)",
            summary.hidden
        ));
    }
    if summary.filtered > 0 {
        line.push_str(&format!("; {} filtered out", summary.filtered));
    }
    if summary.ignored > 0 {
        let plural = if summary.ignored == 1 { "reason" } else { "reasons" };
        line.push_str(&format!("; {} {plural} ignored by rules", summary.ignored));
    }
    line
}

/// `-o wide`'s MARGIN cell of an Auto family: the smallest share move to a flip in percentage
/// points (`4.4pt`), `fragile:4.4pt` within the threshold (one word: table cells hold no
/// spaces); `-` when no share move flips it; None off Auto.
pub(crate) fn margin_cell(points: Option<f64>, fragile: Option<bool>) -> Option<String> {
    let fragile = fragile?;
    let points = points.map_or_else(|| "-".to_string(), |p| format!("{p:.1}pt"));
    Some(if fragile { format!("fragile:{points}") } else { points })
}

/// `check -o markdown`'s Replicas line of a Blocked Auto family (what the remedy points to).
pub(crate) fn replicas_needed(nearest: i64) -> String {
    format!(
        "Replicas: hints hold at {nearest} ready endpoints, the nearest count at or above today's \
         (kubectl topo explain lists every count that works)"
    )
}

/// Why a reason is set aside (SARIF suppressions).
pub(crate) const IGNORED_BY_RULE: &str = "set aside by a kubectl-topo ignore rule (the Service's kubectl-topo.io/ignore annotation or the config file)";

/// A note for an ignore annotation naming something that is no reason code.
pub(crate) fn unknown_codes_note(service: &ServiceRef, unknown: &[String]) -> String {
    format!(
        "note: {}/{}: annotation {IGNORE_ANNOTATION} names no reason code: {} (those names have no effect)",
        service.namespace,
        service.name,
        unknown.join(", ")
    )
}

/// The `note:` when `check` finds no Service in its scope (a mistyped `-n`, or `-l` matching none).
pub(crate) fn no_services_note(namespace: Option<&str>, selector: bool) -> String {
    let place = match namespace {
        Some(ns) => format!("in namespace {ns:?}"),
        None => "in any namespace".to_string(),
    };
    let matching = if selector { " matching -l" } else { "" };
    format!("note: no Services found {place}{matching}: check -n (or use -A) and -l")
}

/// The REASON cell of a cluster that could not be checked (its error is under the table).
pub(crate) const CLUSTER_ERROR_CELL: &str = "see the error below";

/// `check` in one namespace whose Services are all hidden or filtered out.
pub(crate) fn none_listed_note(namespace: &str) -> String {
    format!(
        "note: no Services listed in namespace {namespace:?}: -A checks every namespace, -n NAMESPACE another"
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn the_summary_counts_what_was_left_out() {
        let mut summary = CheckSummary {
            services: 2,
            verdicts: BTreeMap::from([("Active".into(), 1), ("Blocked".into(), 1)]),
            ..CheckSummary::default()
        };
        assert_eq!(summary_line(&summary), "2 Service(s): 1 Active, 1 Blocked");
        summary.hidden = 3;
        summary.filtered = 1;
        summary.ignored = 1;
        assert_eq!(
            summary_line(&summary),
            "2 Service(s): 1 Active, 1 Blocked; 3 hidden (nobody asked for hints and none are present: \
             --show-all lists them); 1 filtered out; 1 reason ignored by rules"
        );
        assert_eq!(summary_line(&CheckSummary::default()), "0 Service(s): -");
    }
}

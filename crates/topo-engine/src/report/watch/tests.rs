use super::*;
use crate::report::reason::{Reason, ReasonCode as C};

fn family(verdict: Verdict, codes: &[C], hinted: &[(&str, i64)]) -> FamilyState {
    FamilyState {
        address_type: "IPv4".into(),
        verdict,
        reasons: codes.iter().map(|c| Reason::new(*c)).collect(),
        hinted: hinted.iter().map(|(z, n)| (z.to_string(), *n)).collect(),
        endpoint_hints: hinted
            .iter()
            .map(|(z, _)| (format!("10.0.0.{}", z.len()), vec![z.to_string()]))
            .collect(),
    }
}

fn key(ns: &str, name: &str) -> (ServiceRef, String) {
    (ServiceRef { namespace: ns.into(), name: name.into() }, "IPv4".into())
}

fn state(entries: &[((ServiceRef, String), FamilyState)]) -> WatchState {
    entries.iter().cloned().collect()
}

const ACTIVE3: &[(&str, i64)] = &[("a", 1), ("b", 1), ("c", 1)];

#[test]
fn first_computation_reports_every_family_as_initial() {
    let after = state(&[
        (key("ns", "web"), family(Verdict::Active, &[], ACTIVE3)),
        (key("ns", "api"), family(Verdict::NotEnabled, &[C::NotEnabled], &[])),
    ]);
    let lines = changes(None, &after, 0);
    let names: Vec<(&str, ChangeKind)> = lines.iter().map(|c| (c.service.name.as_str(), c.change)).collect();
    assert_eq!(names, [("api", ChangeKind::Initial), ("web", ChangeKind::Initial)]);
    assert!(lines.iter().all(|c| c.before.is_none() && c.time == "1970-01-01T00:00:00.000Z"));
}

#[test]
fn verdict_change_names_before_after_and_cleared_reasons() {
    let before = state(&[(key("ns", "web"), family(Verdict::Blocked, &[C::OverloadThreshold], &[]))]);
    let after = state(&[(key("ns", "web"), family(Verdict::Active, &[], ACTIVE3))]);
    let lines = changes(Some(&before), &after, 1_000);
    assert_eq!(lines.len(), 1);
    let line = &lines[0];
    assert_eq!(line.change, ChangeKind::Changed);
    assert_eq!(line.before.as_ref().map(|b| b.verdict), Some(Verdict::Blocked));
    assert_eq!(line.after.as_ref().map(|a| a.verdict), Some(Verdict::Active));
    assert_eq!(line.cleared, [C::OverloadThreshold]);
}

#[test]
fn hint_and_reason_changes_are_changes_but_facts_alone_are_not() {
    let before = state(&[(key("ns", "web"), family(Verdict::Active, &[], ACTIVE3))]);
    let moved = state(&[(key("ns", "web"), family(Verdict::Active, &[], &[("a", 2), ("b", 1)]))]);
    assert_eq!(changes(Some(&before), &moved, 0).len(), 1);

    let blocked = |n: i64| {
        let mut f = family(Verdict::Blocked, &[C::InsufficientEndpoints], &[]);
        f.reasons[0].facts.endpoints = Some(n);
        state(&[(key("ns", "web"), f)])
    };
    assert!(changes(Some(&blocked(1)), &blocked(2), 0).is_empty(), "only the numbers moved");
    let other = state(&[(key("ns", "web"), family(Verdict::Blocked, &[C::OverloadThreshold], &[]))]);
    let lines = changes(Some(&blocked(1)), &other, 0);
    assert_eq!(lines[0].cleared, [C::InsufficientEndpoints]);
}

#[test]
fn services_appearing_and_disappearing_are_added_and_deleted() {
    let before = state(&[(key("ns", "old"), family(Verdict::Active, &[], ACTIVE3))]);
    let after = state(&[(key("ns", "new"), family(Verdict::NotEnabled, &[C::NotEnabled], &[]))]);
    let lines = changes(Some(&before), &after, 0);
    let kinds: Vec<(&str, ChangeKind)> = lines.iter().map(|c| (c.service.name.as_str(), c.change)).collect();
    assert_eq!(kinds, [("new", ChangeKind::Added), ("old", ChangeKind::Deleted)]);
    assert!(lines[1].after.is_none());
    assert!(changes(Some(&after), &after, 0).is_empty());
}

#[test]
fn timestamps_are_rfc3339_utc() {
    assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
    // 2000-02-29 (a leap day of a century leap year) 12:34:56.789
    assert_eq!(rfc3339(951_827_696_789), "2000-02-29T12:34:56.789Z");
    assert_eq!(rfc3339(1_795_282_200_000), "2026-11-21T17:30:00.000Z");
    assert_eq!(rfc3339(4_102_444_799_999), "2099-12-31T23:59:59.999Z");
}

/// Two endpoints swap zones: every zone keeps its count, yet the hints changed and `watch` says so.
#[test]
fn hints_moving_between_endpoints_is_a_change_even_when_counts_stay() {
    let with = |hints: &[(&str, &str)]| FamilyState {
        endpoint_hints: hints.iter().map(|(ip, z)| (ip.to_string(), vec![z.to_string()])).collect(),
        ..family(Verdict::Active, &[], &[("a", 1), ("b", 1)])
    };
    let before = state(&[(key("ns", "web"), with(&[("10.0.0.1", "a"), ("10.0.0.2", "b")]))]);
    let swapped = state(&[(key("ns", "web"), with(&[("10.0.0.1", "b"), ("10.0.0.2", "a")]))]);
    let lines = changes(Some(&before), &swapped, 0);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert_eq!(lines[0].change, ChangeKind::Changed);
    assert_eq!(lines[0].rehinted, ["10.0.0.1", "10.0.0.2"]);
    assert!(changes(Some(&before), &before, 0).is_empty(), "no change, no line");
    let json = serde_json::to_value(&lines[0]).unwrap();
    assert_eq!(json["rehinted"], serde_json::json!(["10.0.0.1", "10.0.0.2"]));
    assert!(json["after"].get("endpointHints").is_none(), "per-endpoint hints stay out of the output");
}

//! Fixture scenarios: every worked example (W1–W15, `tests/fixtures/README.md`) driven through the public engine API
//! (`parse_dump` → `analyze::explain`) with its expected outcome asserted on the report, plus bad
//! input that must end up in a report rather than an error or a panic.

mod annotation;
mod bad_input;
mod traffic;

use std::collections::BTreeMap;

use kubectl_topo::source::dump::parse_dump;
use topo_engine::core::analyze;
use topo_engine::model::{Behaviour, Snapshot};
use topo_engine::report::proxy::ProxyMode;
use topo_engine::report::reason::ReasonCode;
use topo_engine::report::{EndpointRow, FamilyReport, ServiceReport, ZoneRow};

use crate::support::{path, read};

/// Text of `tests/fixtures/<name>.yaml`.
fn fixture(name: &str) -> String {
    read(&path(&format!("tests/fixtures/{name}.yaml")))
}

fn snapshot(text: &str) -> Snapshot {
    parse_dump(text, "test").expect("dump parses").snapshot
}

fn behaviour(version: &str) -> Behaviour {
    version.parse().expect("version")
}

/// `explain` of Service `w/<name>` in `text` at the 1.36 default (the fixtures' server version).
fn explain(text: &str, name: &str) -> ServiceReport {
    explain_at(text, name, "1.36")
}

fn explain_at(text: &str, name: &str, version: &str) -> ServiceReport {
    let snapshot = snapshot(text);
    let service = snapshot.services.iter().find(|s| s.name == name).expect("service in dump").clone();
    analyze::explain(&snapshot, &service, behaviour(version))
}

/// The only address family of a single-stack report.
fn family(report: &ServiceReport) -> &FamilyReport {
    assert_eq!(report.families.len(), 1, "one family expected");
    &report.families[0]
}

fn codes(f: &FamilyReport) -> Vec<ReasonCode> {
    f.reasons.iter().map(|r| r.code).collect()
}

fn zone<'a>(f: &'a FamilyReport, name: &str) -> &'a ZoneRow {
    f.zones.iter().find(|z| z.zone == name).unwrap_or_else(|| panic!("no zone row {name}"))
}

/// (min, max, expected hinted, actual hinted) of a zone.
fn bounds(f: &FamilyReport, name: &str) -> (Option<i64>, Option<i64>, i64, i64) {
    let z = zone(f, name);
    (z.minimum, z.maximum, z.expected_hinted, z.actual_hinted)
}

fn endpoint<'a>(f: &'a FamilyReport, address: &str) -> &'a EndpointRow {
    f.endpoints.iter().find(|e| e.addresses[0] == address).unwrap_or_else(|| panic!("no endpoint {address}"))
}

/// Expected `forZones` per endpoint address (`None` = no hints after the next sync).
fn expected_zones(f: &FamilyReport) -> BTreeMap<String, Option<Vec<String>>> {
    f.endpoints.iter().map(|e| (e.addresses[0].clone(), e.expected_zones.clone())).collect()
}

fn zones_of(names: &[&str]) -> Option<Vec<String>> {
    Some(names.iter().map(|n| n.to_string()).collect())
}

/// The controller Event of the family as (type, reason, message).
fn event(f: &FamilyReport) -> (String, String, String) {
    let e = f.event.as_ref().expect("an event");
    (e.event_type.clone(), e.reason.clone(), e.message.clone())
}

fn counts(pairs: &[(&str, i64)]) -> BTreeMap<String, i64> {
    pairs.iter().map(|(z, n)| (z.to_string(), *n)).collect()
}

/// kube-proxy on `node`: (mode, endpoints it routes ClusterIP traffic to, reason code).
fn proxy_on(f: &FamilyReport, node: &str) -> (ProxyMode, Vec<String>, Option<ReasonCode>) {
    let view = f
        .proxy
        .iter()
        .find(|v| v.nodes.iter().any(|n| n == node))
        .unwrap_or_else(|| panic!("no kube-proxy group with node {node}"));
    (view.mode, view.endpoints.to_vec(), view.reason.as_ref().map(|r| r.code))
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

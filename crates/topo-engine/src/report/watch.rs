//! `watch`: per-Service summaries of successive reports and the changes between two of them. Pure:
//! the clock is read by the I/O layer and arrives here as milliseconds since the Unix epoch.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Kind, ServiceRef, ServiceReport, Verdict};
use crate::report::reason::{Reason, ReasonCode};

/// What `watch` follows of one address family: a line is printed when any of it changes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FamilyState<R = Reason> {
    /// `IPv4` / `IPv6`.
    pub address_type: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Reasons, most important first (codes are compared; facts and sentences travel along).
    pub reasons: Vec<R>,
    /// Ready endpoints hinted to each zone on the slices now (zones without any are left out).
    pub hinted: BTreeMap<String, i64>,
    /// The hints on the slices now, per endpoint (first address → `forZones`, then `forNodes`
    /// prefixed `node/`): compared so that hints moving between endpoints count as a change even
    /// when the per-zone counts stay. Not serialised (ServiceChange.rehinted names what moved).
    #[serde(skip)]
    pub endpoint_hints: BTreeMap<String, Vec<String>>,
}

impl FamilyState {
    fn codes(&self) -> Vec<ReasonCode> {
        self.reasons.iter().map(|r| r.code).collect()
    }

    /// Same verdict, reason codes and hints (facts such as endpoint counts may differ).
    pub fn same(&self, other: &FamilyState) -> bool {
        self.verdict == other.verdict
            && self.codes() == other.codes()
            && self.hinted == other.hinted
            && self.endpoint_hints == other.endpoint_hints
    }
}

/// First addresses of the endpoints whose hints differ between two states (added, removed or
/// changed), sorted.
fn rehinted(before: &FamilyState, after: &FamilyState) -> Vec<String> {
    let (b, a) = (&before.endpoint_hints, &after.endpoint_hints);
    let mut out: Vec<String> = b.keys().chain(a.keys()).filter(|k| b.get(*k) != a.get(*k)).cloned().collect();
    out.sort();
    out.dedup();
    out
}

/// An endpoint's hints as `watch` compares them; None when it has none.
fn hints_of(row: &super::EndpointRow) -> Option<(String, Vec<String>)> {
    let zones = row.actual_zones.iter().flatten().cloned();
    let nodes = row.actual_nodes.iter().flatten().map(|n| format!("node/{n}"));
    let hints: Vec<String> = zones.chain(nodes).collect();
    let address = row.addresses.first()?;
    (!hints.is_empty()).then(|| (address.clone(), hints))
}

/// Every followed family of every Service, keyed by (Service, address type).
pub type WatchState = BTreeMap<(ServiceRef, String), FamilyState>;

/// Summarise reports into the state `watch` compares.
pub fn summarize<'a>(reports: impl IntoIterator<Item = &'a ServiceReport>) -> WatchState {
    let mut state = WatchState::new();
    for report in reports {
        for family in &report.families {
            let hinted = family
                .zones
                .iter()
                .filter(|z| z.actual_hinted > 0)
                .map(|z| (z.zone.clone(), z.actual_hinted))
                .collect();
            let summary = FamilyState {
                address_type: family.address_type.clone(),
                verdict: family.verdict,
                reasons: family.reasons.clone(),
                hinted,
                endpoint_hints: family.endpoints.iter().filter_map(hints_of).collect(),
            };
            state.insert((report.service.clone(), family.address_type.clone()), summary);
        }
    }
    state
}

/// Why a line is printed.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(into = "&'static str")]
pub enum ChangeKind {
    /// The state when `watch` started (or the family was first seen).
    Initial,
    /// The Service (family) appeared after the start.
    Added,
    /// Verdict, reasons or hints changed.
    Changed,
    /// The Service (family) is gone.
    Deleted,
}

/// One line of `watch`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceChange<R = Reason> {
    /// RFC 3339 UTC time at which the change was seen.
    pub time: String,
    /// Which Service.
    pub service: ServiceRef,
    /// `IPv4` / `IPv6`.
    pub address_type: String,
    /// Why this line is printed.
    pub change: ChangeKind,
    /// The state before (None for `Initial` and `Added`).
    pub before: Option<FamilyState<R>>,
    /// The state after (None for `Deleted`).
    pub after: Option<FamilyState<R>>,
    /// Reason codes present before and not after.
    pub cleared: Vec<ReasonCode>,
    /// First addresses of the endpoints whose hints changed (`Changed` only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rehinted: Vec<String>,
}

impl<R: Serialize> Kind for ServiceChange<R> {
    const KIND: &'static str = "ServiceChange";
}

/// The changes from `before` to `after`, in (namespace, name, family) order. `before` is None on
/// the first computation: every family is then reported as `Initial`.
pub fn changes(before: Option<&WatchState>, after: &WatchState, unix_millis: u64) -> Vec<ServiceChange> {
    let time = rfc3339(unix_millis);
    let line = |key: &(ServiceRef, String), change, b: Option<&FamilyState>, a: Option<&FamilyState>| {
        let after_codes = a.map(FamilyState::codes).unwrap_or_default();
        let cleared = b.map(FamilyState::codes).unwrap_or_default();
        ServiceChange {
            time: time.clone(),
            service: key.0.clone(),
            address_type: key.1.clone(),
            change,
            before: b.cloned(),
            after: a.cloned(),
            cleared: cleared.into_iter().filter(|c| !after_codes.contains(c)).collect(),
            rehinted: match (b, a, change) {
                (Some(b), Some(a), ChangeKind::Changed) => rehinted(b, a),
                _ => vec![],
            },
        }
    };
    let Some(before) = before else {
        return after.iter().map(|(k, a)| line(k, ChangeKind::Initial, None, Some(a))).collect();
    };
    let mut keys: Vec<&(ServiceRef, String)> = before.keys().chain(after.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter_map(|k| match (before.get(k), after.get(k)) {
            (None, Some(a)) => Some(line(k, ChangeKind::Added, None, Some(a))),
            (Some(b), None) => Some(line(k, ChangeKind::Deleted, Some(b), None)),
            (Some(b), Some(a)) if !b.same(a) => Some(line(k, ChangeKind::Changed, Some(b), Some(a))),
            _ => None,
        })
        .collect()
}

/// `2026-11-21T17:20:01.123Z` from milliseconds since the Unix epoch (proleptic Gregorian, UTC).
pub fn rfc3339(unix_millis: u64) -> String {
    let (secs, millis) = (unix_millis / 1000, unix_millis % 1000);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 → (year, month, day).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests;

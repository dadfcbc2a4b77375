//! `check`: one row per Service.

use std::collections::BTreeMap;

use serde::Serialize;

use super::reason::Reason;
use super::{ServiceRef, Verdict};
use crate::report::mode::Mode;

/// One family of a check row.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CheckFamily<R = Reason> {
    /// `IPv4` / `IPv6`.
    pub address_type: String,
    /// Verdict.
    pub verdict: Verdict,
    /// Reasons, most important first.
    pub reasons: Vec<R>,
    /// Blocked in Auto mode: the nearest ready-endpoint count (≥ today's) for which hints are written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas_needed: Option<i64>,
    /// Share (0–1) of all requests leaving their zone with the hints after the controller's next
    /// sync (the `-o wide` column AFTER-SYNC). Named `crossZone` until issue 35 (see
    /// docs/json-migration.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cross_zone_after_sync: Option<f64>,
    /// Share (0–1) of all requests leaving their zone today, with the hints on the slices now (the
    /// table's CROSS-ZONE column).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cross_zone_now: Option<f64>,
    /// Auto mode: the smallest move of a zone's CPU share, in percentage points, that flips the
    /// verdict (docs/stability.md; the `-o wide` column MARGIN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_points: Option<f64>,
    /// Auto mode: within the fragile threshold (docs/stability.md#fragile; `--fail-on fragile`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fragile: Option<bool>,
    /// Reasons an ignore rule set aside (the Service's `kubectl-topo.io/ignore` annotation or the
    /// config file): still reported, never a failure. The engine leaves this empty; the caller that
    /// applies the rules moves reasons here.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub ignored: Vec<R>,
}

/// One Service.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CheckRow<R = Reason> {
    /// Which Service.
    pub service: ServiceRef,
    /// Mode the controller applies.
    pub mode: Mode,
    /// Per family.
    pub families: Vec<CheckFamily<R>>,
    /// `check --certify`, Auto mode: the stability certificate of each workload behind the Service
    /// over its autoscaler's range (else its replicas) and its zone spread, or why it is unknown
    /// (docs/stability.md#check; as `explain`'s `certificates`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificates: Option<Box<super::stability::WorkloadCertificates>>,
}

/// Totals.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CheckSummary {
    /// Services checked.
    pub services: usize,
    /// Count of Services by their worst verdict.
    pub verdicts: BTreeMap<String, usize>,
    /// Services in scope not listed because nobody asked for hints and none are present (every
    /// family `NotEnabled`, or `Unmanaged` in mode `None`); `check --show-all` lists them.
    #[serde(skip_serializing_if = "is_zero", default)]
    pub hidden: usize,
    /// Services in scope not listed because of `--verdict`, `--reason`, `--mode` or
    /// `--exclude-namespace`.
    #[serde(skip_serializing_if = "is_zero", default)]
    pub filtered: usize,
    /// Reasons set aside by ignore rules over the Services listed (see `CheckFamily.ignored`).
    #[serde(skip_serializing_if = "is_zero", default)]
    pub ignored: usize,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl CheckSummary {
    /// `services` and `verdicts` over `rows`: each Service counted once, by its worst verdict
    /// ([`Verdict::severity`]); the other counts stay zero.
    pub fn of<R>(rows: &[CheckRow<R>]) -> Self {
        let mut summary = CheckSummary { services: rows.len(), ..CheckSummary::default() };
        for row in rows {
            if let Some(worst) = row.families.iter().map(|f| f.verdict).max_by_key(|v| v.severity()) {
                *summary.verdicts.entry(worst.to_string()).or_default() += 1;
            }
        }
        summary
    }
}

/// `check` over a scope.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CheckReport<R = Reason> {
    /// Behaviour modelled.
    pub kubernetes_version: String,
    /// Why that version (set by the caller, which knows where it came from).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kubernetes_version_basis: Option<super::VersionBasis>,
    /// Rows sorted by namespace, name.
    pub services: Vec<CheckRow<R>>,
    /// Totals.
    pub summary: CheckSummary,
    /// Notes about partial data.
    pub partial: Vec<String>,
}

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
    /// Share (0–1) of all requests leaving their zone with the hints after the controller's next sync.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cross_zone: Option<f64>,
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

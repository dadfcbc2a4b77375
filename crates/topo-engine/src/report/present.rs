//! Reports carry reasons as codes and facts ([`Reason`]); a caller that shows them to people turns
//! each one into its presentation (a sentence, the controller's Event text…) with `present`, which
//! rebuilds the same report around the presented reasons. The engine itself never words a reason.

use super::check::{CheckFamily, CheckReport, CheckRow};
use super::reason::Reason;
use super::watch::{FamilyState, ServiceChange};
use super::whatif::SimulationReport;
use super::zones::ZoneReport;
use super::{FamilyReport, ServiceReport};

/// Presents one reason; `address_type` is the family's (`IPv4`/`IPv6`), None for Service-level notes.
pub(crate) type Presenter<'a, S> = &'a dyn Fn(Reason, Option<&str>) -> S;

fn all<S>(reasons: Vec<Reason>, f: Presenter<'_, S>, address_type: Option<&str>) -> Vec<S> {
    reasons.into_iter().map(|r| f(r, address_type)).collect()
}

impl FamilyReport {
    /// The same report with every reason presented by `f`.
    pub fn present<S>(self, f: Presenter<'_, S>) -> FamilyReport<S> {
        FamilyReport {
            reasons: all(self.reasons, f, Some(&self.address_type)),
            ignored: all(self.ignored, f, Some(&self.address_type)),
            address_type: self.address_type,
            verdict: self.verdict,
            action: self.action,
            event: self.event,
            rewritten_slices: self.rewritten_slices,
            count_outcomes: self.count_outcomes,
            overloaded: self.overloaded,
            zones: self.zones,
            endpoints: self.endpoints,
            proxy: self.proxy,
            replicas: self.replicas,
            cross_zone: self.cross_zone,
            stability: self.stability,
            load: self.load,
        }
    }
}

impl ServiceReport {
    /// The same report with every reason presented by `f`.
    pub fn present<S>(self, f: Presenter<'_, S>) -> ServiceReport<S> {
        ServiceReport {
            service: self.service,
            kubernetes_version: self.kubernetes_version,
            kubernetes_version_basis: self.kubernetes_version_basis,
            mode: self.mode,
            mode_source: self.mode_source,
            notes: all(self.notes, f, None),
            families: self.families.into_iter().map(|family| family.present(f)).collect(),
            events: self.events,
            history: self.history,
            partial: self.partial,
            data_plane: self.data_plane,
            workloads: self.workloads,
            certificates: self.certificates,
        }
    }
}

impl CheckReport {
    /// The same report with every reason presented by `f`.
    pub fn present<S>(self, f: Presenter<'_, S>) -> CheckReport<S> {
        let row = |row: CheckRow| CheckRow {
            service: row.service,
            mode: row.mode,
            families: row.families.into_iter().map(|family| family.present(f)).collect(),
            certificates: row.certificates,
        };
        CheckReport {
            kubernetes_version: self.kubernetes_version,
            kubernetes_version_basis: self.kubernetes_version_basis,
            services: self.services.into_iter().map(row).collect(),
            summary: self.summary,
            partial: self.partial,
        }
    }
}

impl CheckFamily {
    /// The same family with every reason presented by `f`.
    pub fn present<S>(self, f: Presenter<'_, S>) -> CheckFamily<S> {
        CheckFamily {
            reasons: all(self.reasons, f, Some(&self.address_type)),
            ignored: all(self.ignored, f, Some(&self.address_type)),
            address_type: self.address_type,
            verdict: self.verdict,
            replicas_needed: self.replicas_needed,
            cross_zone_after_sync: self.cross_zone_after_sync,
            cross_zone_now: self.cross_zone_now,
            margin_points: self.margin_points,
            fragile: self.fragile,
        }
    }
}

impl ZoneReport {
    /// The same report with every reason presented by `f`.
    pub fn present<S>(self, f: Presenter<'_, S>) -> ZoneReport<S> {
        ZoneReport {
            kubernetes_version: self.kubernetes_version,
            kubernetes_version_basis: self.kubernetes_version_basis,
            zones: self.zones,
            total_cpu_millis: self.total_cpu_millis,
            excluded: self.excluded,
            disabling: self.disabling,
            sufficient: self.sufficient,
            reasons: all(self.reasons, f, None),
            partial: self.partial,
        }
    }
}

impl FamilyState {
    /// The same state with every reason presented by `f`.
    pub fn present<S>(self, f: Presenter<'_, S>) -> FamilyState<S> {
        FamilyState {
            reasons: all(self.reasons, f, Some(&self.address_type)),
            address_type: self.address_type,
            verdict: self.verdict,
            hinted: self.hinted,
            endpoint_hints: self.endpoint_hints,
        }
    }
}

impl ServiceChange {
    /// The same change with every reason presented by `f`.
    pub fn present<S>(self, f: Presenter<'_, S>) -> ServiceChange<S> {
        ServiceChange {
            time: self.time,
            service: self.service,
            address_type: self.address_type,
            change: self.change,
            before: self.before.map(|state| state.present(f)),
            after: self.after.map(|state| state.present(f)),
            cleared: self.cleared,
            rehinted: self.rehinted,
        }
    }
}

impl SimulationReport {
    /// The same report with every reason presented by `f`.
    pub fn present<S>(self, f: Presenter<'_, S>) -> SimulationReport<S> {
        SimulationReport {
            service: self.service,
            kubernetes_version: self.kubernetes_version,
            kubernetes_version_basis: self.kubernetes_version_basis,
            changes: self.changes,
            sync: self.sync,
            summary: self.summary,
            before: self.before.present(f),
            after: self.after.present(f),
        }
    }
}

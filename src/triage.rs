//! What `check` lists and what fails it, as one pure function over the engine's [`CheckReport`]:
//! `settings` resolves the flags into a [`View`] and a [`FailOn`], `config` reads the config file
//! into [`IgnoreRules`], `app` calls [`triage`], `render` shows the result.
//!
//! The steps, in order: `--exclude-namespace`; hiding the Services for which nobody asked for
//! hints and that have none ([`quiet`], unless `--show-all`); ignore rules (the Service's
//! `kubectl-topo.io/ignore` annotation and the config file) move reasons from `reasons` to
//! `ignored`; `--verdict`, `--reason`, `--mode`; `--sort-by`; then which rows fail at `--fail-on`
//! ([`fails`]). Every Service left out is counted in the summary, and every reason set aside stays
//! in the report.

use topo_engine::report::check::{CheckFamily, CheckRow};
use topo_engine::report::mode::Mode;
use topo_engine::report::reason::{Reason, ReasonCode};
use topo_engine::report::{CheckReport, CheckSummary, ServiceRef, Verdict};

pub(crate) mod config;
pub(crate) mod explain;
pub(crate) mod pattern;
pub(crate) mod rules;

pub(crate) use pattern::NamePattern;
pub use rules::IgnoreRules;
pub(crate) use rules::{AnnotationRule, IGNORE_ANNOTATION, Level};

/// Which verdicts fail a run (`--fail-on`), from strictest to loosest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOn {
    /// Never fail on findings.
    None,
    /// Fail when live hints differ from what the controller would keep or write.
    Drift,
    /// Also fail when a safeguard or constraint blocks hints that were asked for.
    Blocked,
    /// What `Blocked` fails, and an Auto family within the fragile threshold (docs/stability.md#fragile).
    Fragile,
    /// Also fail on Unmanaged Services.
    Any,
}

/// The row order of `check` (`--sort-by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortBy {
    /// Namespace, then name.
    Namespace,
    /// Name, then namespace.
    Name,
    /// Worst verdict first.
    Verdict,
    /// Largest cross-zone share first.
    CrossZone,
    /// Largest replicas needed first.
    Replicas,
}

/// The resolved listing flags of `check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// `--verdict`: keep Services with some family at one of these (empty = any).
    pub verdicts: Vec<Verdict>,
    /// `--reason`: keep Services with some (not ignored) reason among these (empty = any).
    pub reasons: Vec<ReasonCode>,
    /// `--mode`: keep Services in one of these modes (empty = any).
    pub modes: Vec<Mode>,
    /// `--sort-by`.
    pub sort_by: SortBy,
    /// `--exclude-namespace`: namespaces left out.
    pub exclude_namespaces: Vec<NamePattern>,
    /// `--show-all`: also list the Services nobody asked hints for.
    pub show_all: bool,
}

impl Default for View {
    fn default() -> Self {
        View {
            verdicts: Vec::new(),
            reasons: Vec::new(),
            modes: Vec::new(),
            sort_by: SortBy::Namespace,
            exclude_namespaces: Vec::new(),
            show_all: false,
        }
    }
}

/// The report as listed, and for each row whether it fails `check`.
#[derive(Debug, Clone, PartialEq)]
pub struct Triaged {
    /// Rows listed, in `--sort-by` order; summary counts include what was left out.
    pub report: CheckReport,
    /// Per row of `report.services`: at or above the failure level.
    pub failing: Vec<bool>,
    /// Annotation values naming no reason code: (Service, the unknown names).
    pub unknown_codes: Vec<(ServiceRef, Vec<String>)>,
}

/// Nobody asked for hints and none are present: every family is `NotEnabled` (no annotation, no
/// usable trafficDistribution, no hints; an annotation or field the controller refuses gives
/// `Blocked` instead), or `Unmanaged` while the mode is `None` (no selector, ExternalName or no
/// managed slices, and nothing asks for hints: `default/kubernetes`).
pub fn quiet<R>(row: &CheckRow<R>) -> bool {
    row.families.iter().all(|f| match f.verdict {
        Verdict::NotEnabled => true,
        Verdict::Unmanaged => row.mode == Mode::None,
        Verdict::Active | Verdict::Blocked | Verdict::Drift | Verdict::Unknown => false,
    })
}

/// Apply `view` and `rules` to `report`; `annotations` gives a Service's ignore annotation.
pub fn triage<'a>(
    report: CheckReport,
    annotations: &dyn Fn(&ServiceRef) -> Option<&'a str>,
    view: &View,
    rules: &IgnoreRules,
    fail_on: FailOn,
) -> Triaged {
    let (mut hidden, mut filtered, mut ignored) = (0, 0, 0);
    let mut unknown_codes = Vec::new();
    let mut rows: Vec<(CheckRow, bool)> = Vec::new();
    for mut row in report.services {
        if view.exclude_namespaces.iter().any(|p| p.matches(&row.service.namespace)) {
            filtered += 1;
            continue;
        }
        let is_quiet = quiet(&row);
        if is_quiet && !view.show_all {
            hidden += 1;
            continue;
        }
        let annotation = annotations(&row.service).map(AnnotationRule::parse);
        if let Some(a) = annotation.as_ref().filter(|a| !a.unknown.is_empty()) {
            unknown_codes.push((row.service.clone(), a.unknown.clone()));
        }
        for family in &mut row.families {
            set_aside(family, |code| rules.ignores(&row.service, annotation.as_ref(), code));
            ignored += family.ignored.len();
        }
        if !selected(&row, view) {
            filtered += 1;
            continue;
        }
        rows.push((row, is_quiet));
    }
    sort(&mut rows, view.sort_by);
    let failing = rows.iter().map(|(row, is_quiet)| !is_quiet && fails(row, rules, fail_on)).collect();
    let services: Vec<CheckRow> = rows.into_iter().map(|(row, _)| row).collect();
    let summary = CheckSummary { hidden, filtered, ignored, ..CheckSummary::of(&services) };
    Triaged { report: CheckReport { services, summary, ..report }, failing, unknown_codes }
}

/// Move the reasons `ignore` picks from `reasons` to `ignored`, keeping their order.
fn set_aside(family: &mut CheckFamily, ignore: impl Fn(ReasonCode) -> bool) {
    move_ignored(&mut family.reasons, &mut family.ignored, ignore);
}

/// Move the reasons `ignore` picks from `reasons` to `ignored`, keeping their order.
pub(crate) fn move_ignored(
    reasons: &mut Vec<Reason>,
    ignored: &mut Vec<Reason>,
    ignore: impl Fn(ReasonCode) -> bool,
) {
    let (set_aside, kept): (Vec<Reason>, Vec<Reason>) =
        std::mem::take(reasons).into_iter().partition(|r| ignore(r.code));
    *reasons = kept;
    ignored.extend(set_aside);
}

/// `--verdict`, `--reason` and `--mode` (each: any of the values given; all three must hold).
fn selected(row: &CheckRow, view: &View) -> bool {
    let families = || row.families.iter();
    (view.verdicts.is_empty() || families().any(|f| view.verdicts.contains(&f.verdict)))
        && (view.reasons.is_empty()
            || families().flat_map(|f| &f.reasons).any(|r| view.reasons.contains(&r.code)))
        && (view.modes.is_empty() || view.modes.contains(&row.mode))
}

/// `--sort-by`: namespace/name ascending; verdict worst first; cross-zone (today's, the CROSS-ZONE
/// column) and replicas largest first, Services without a value last. Ties keep namespace, name order (a stable sort).
fn sort<T>(rows: &mut [(CheckRow, T)], by: SortBy) {
    let worst = |row: &CheckRow| row.families.iter().map(|f| f.verdict.severity()).max();
    let most = |values: Vec<Option<f64>>| values.into_iter().flatten().reduce(f64::max);
    let cross_zone = |row: &CheckRow| most(row.families.iter().map(|f| f.cross_zone_now).collect());
    #[allow(clippy::cast_precision_loss)] // replica counts are far below 2^52
    let replicas =
        |row: &CheckRow| most(row.families.iter().map(|f| f.replicas_needed.map(|n| n as f64)).collect());
    let descending = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => b.total_cmp(&a),
        (a, b) => b.is_some().cmp(&a.is_some()),
    };
    match by {
        SortBy::Namespace => rows.sort_by(|(a, _), (b, _)| a.service.cmp(&b.service)),
        SortBy::Name => rows.sort_by(|(a, _), (b, _)| {
            (&a.service.name, &a.service.namespace).cmp(&(&b.service.name, &b.service.namespace))
        }),
        SortBy::Verdict => rows.sort_by_key(|(row, _)| std::cmp::Reverse(worst(row))),
        SortBy::CrossZone => rows.sort_by(|(a, _), (b, _)| descending(cross_zone(a), cross_zone(b))),
        SortBy::Replicas => rows.sort_by(|(a, _), (b, _)| descending(replicas(a), replicas(b))),
    }
}

/// Whether a listed row fails `check` at `fail_on`: some family does. A family whose every
/// finding was set aside never fails; a kept reason at level `error` always fails (except with
/// `--fail-on none`); kept reasons all at level `warning` never fail; otherwise the verdict and
/// `--fail-on` decide (Drift ⊂ Blocked ⊂ Any; Unknown is never a finding). At `fragile`, also a
/// fragile Auto family or (`check --certify`) a certificate with an exception.
pub fn fails(row: &CheckRow, rules: &IgnoreRules, fail_on: FailOn) -> bool {
    let excepted = || row.certificates.as_deref().is_some_and(|c| c.excepted());
    row.families.iter().any(|f| {
        family_fails(f.verdict, &f.reasons, !f.ignored.is_empty(), rules, fail_on)
            || (fail_on == FailOn::Fragile && f.fragile == Some(true))
    }) || (fail_on == FailOn::Fragile && excepted())
}

/// One family of `check` or `explain`: its verdict, the reasons kept, whether any was set aside.
pub(crate) fn family_fails(
    verdict: Verdict,
    reasons: &[Reason],
    any_ignored: bool,
    rules: &IgnoreRules,
    fail_on: FailOn,
) -> bool {
    let levels: Vec<Option<Level>> = reasons.iter().map(|r| rules.level(r.code)).collect();
    if fail_on == FailOn::None || (reasons.is_empty() && any_ignored) {
        false
    } else if levels.contains(&Some(Level::Error)) {
        true
    } else if !levels.is_empty() && levels.iter().all(|l| *l == Some(Level::Warning)) {
        false
    } else {
        verdict_fails(fail_on, verdict)
    }
}

/// The verdict alone at `level` (also `explain --exit-code`).
pub(crate) fn verdict_fails(level: FailOn, verdict: Verdict) -> bool {
    match level {
        FailOn::None => false,
        FailOn::Drift => verdict == Verdict::Drift,
        FailOn::Blocked | FailOn::Fragile => matches!(verdict, Verdict::Drift | Verdict::Blocked),
        FailOn::Any => matches!(verdict, Verdict::Drift | Verdict::Blocked | Verdict::Unmanaged),
    }
}

#[cfg(test)]
mod tests;

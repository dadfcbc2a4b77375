//! The ignore rules over `explain`'s report, as `check` applies them: the Service's
//! `kubectl-topo.io/ignore` annotation and the config file's excludes move reasons to each
//! family's `ignored` (shown as `ignored:CODE`), and a family whose reasons were all set aside
//! does not fail `--exit-code`; the config file's levels weigh the reasons kept.

use topo_engine::report::ServiceReport;

use super::{AnnotationRule, FailOn, IgnoreRules, family_fails, move_ignored};

/// Set aside what `annotation` (the Service's ignore annotation) and `rules` ignore; the names of
/// the annotation that are no reason code.
pub(crate) fn set_aside(
    report: &mut ServiceReport,
    annotation: Option<&str>,
    rules: &IgnoreRules,
) -> Vec<String> {
    let annotation = annotation.map(AnnotationRule::parse);
    let service = report.service.clone();
    for family in &mut report.families {
        move_ignored(&mut family.reasons, &mut family.ignored, |code| {
            rules.ignores(&service, annotation.as_ref(), code)
        });
    }
    annotation.map(|a| a.unknown).unwrap_or_default()
}

/// Whether `report` fails `--exit-code --fail-on fail_on` once its reasons are set aside.
pub(crate) fn fails(report: &ServiceReport, rules: &IgnoreRules, fail_on: FailOn) -> bool {
    report.families.iter().any(|f| {
        family_fails(f.verdict, &f.reasons, !f.ignored.is_empty(), rules, fail_on)
            || (fail_on == FailOn::Fragile && f.stability.as_ref().is_some_and(|m| m.fragile))
    })
}

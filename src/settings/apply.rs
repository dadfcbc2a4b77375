//! `simulate --apply FILE|DIR|- [SERVICE]`: rendered manifests laid over the cluster
//! (docs/apply.md), resolved once: where the manifests are, the node flags beside them, the
//! failure level, and the flags refused with them.

use super::SettingsError;
use super::changes::WhatIfError;
use crate::cli::{GlobalArgs, SimulateArgs};
use crate::render::{Format, FormatKind};
use crate::source::DumpPath;
use crate::triage::FailOn;
use topo_engine::core::whatif::changes::Changes;

/// What `simulate --apply` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyJob {
    /// One Service to report on (the `svc/` prefix removed); None: every Service affected.
    pub name: Option<String>,
    /// The manifests: files, directories, or stdin, in the order given.
    pub manifests: Vec<DumpPath>,
    /// The node flags beside them (`--remove-node`, `--remove-zone`, `--not-ready`, `--add-node`,
    /// `--set-cpu`).
    pub node_changes: Changes,
    /// `--fail-on` (default `blocked`): the level a change must newly bring a Service to.
    pub fail_on: FailOn,
}

/// The job of `simulate`: `--apply`, the certificate (`--replicas MIN..MAX`), or one change.
pub(super) fn simulate_job(a: &SimulateArgs, g: &GlobalArgs) -> Result<super::Job, SettingsError> {
    if !a.apply.is_empty() {
        return Ok(super::Job::Apply(job(a, g)?));
    }
    let spec = super::certify::certify(a)?;
    if a.fail_on.is_some() {
        return Err(needs_apply("--fail-on").into());
    }
    if let Some(format) = report_format(g) {
        return Err(needs_apply(&format!("-o {format}")).into());
    }
    let name = super::parse_service_words(&a.service)?;
    Ok(match spec {
        Some(spec) => super::Job::Certify { name, spec },
        None => super::Job::Simulate { name, changes: super::whatif_settings::changes(a)? },
    })
}

/// Resolve `simulate --apply`.
fn job(a: &SimulateArgs, g: &GlobalArgs) -> Result<ApplyJob, SettingsError> {
    let refused = [
        (a.replicas.is_some(), "--replicas"),
        (a.spread.is_some(), "--spread"),
        (a.mode.is_some(), "--mode"),
        (a.max_skew.is_some(), "--max-skew"),
        (a.min_domains.is_some(), "--min-domains"),
        (a.when_unsatisfiable.is_some(), "--when-unsatisfiable"),
    ];
    if let Some((_, flag)) = refused.into_iter().find(|(given, _)| *given) {
        return Err(WhatIfError::ApplyWithChange { flag }.into());
    }
    let stdin = |p: &std::path::PathBuf| p.as_os_str() == "-";
    let readers =
        a.apply.iter().filter(|p| stdin(p)).count() + g.from_file.iter().filter(|p| stdin(p)).count();
    if readers > 1 {
        return Err(WhatIfError::StdinTwice.into());
    }
    let manifests =
        a.apply.iter().map(|p| if stdin(p) { DumpPath::Stdin } else { DumpPath::File(p.clone()) }).collect();
    let name = match a.service.as_slice() {
        [] => None,
        words => Some(super::parse_service_words(words)?),
    };
    Ok(ApplyJob {
        name,
        manifests,
        node_changes: super::whatif_settings::changes_of(a)?,
        fail_on: a.fail_on.map_or(FailOn::Blocked, FailOn::from),
    })
}

/// `-o markdown|junit|sarif`, when asked for: formats that judge a change.
fn report_format(g: &GlobalArgs) -> Option<&'static str> {
    let format = Format::from(g.output.as_ref()?.format);
    (format.kind() == FormatKind::Report).then(|| format.name())
}

/// `flag` given without `--apply`.
fn needs_apply(flag: &str) -> WhatIfError {
    WhatIfError::NeedsApply { flag: flag.to_string() }
}

#[cfg(test)]
mod tests {
    use crate::settings::changes::WhatIfError;
    use crate::settings::{Ambient, Job, Settings, SettingsError};
    use crate::source::DumpPath;
    use crate::triage::FailOn;

    fn resolve(args: &[&str]) -> Result<Settings, SettingsError> {
        crate::settings::tests::resolve(args, &Ambient::default())
    }

    fn refused(args: &[&str]) -> WhatIfError {
        match resolve(args).unwrap_err() {
            SettingsError::WhatIf(e) => e,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn apply_takes_no_service_files_stdin_and_node_flags() {
        let s = resolve(&["simulate", "--apply", "-", "--apply", "dir", "--remove-zone", "b"]).unwrap();
        let Job::Apply(job) = &s.job else { panic!("{:?}", s.job) };
        assert_eq!(job.name, None);
        assert_eq!(job.manifests, [DumpPath::Stdin, DumpPath::File("dir".into())]);
        assert_eq!(job.node_changes.remove_zones, ["b"]);
        assert_eq!(job.fail_on, FailOn::Blocked);
        let s = resolve(&["simulate", "svc/web", "--apply", "m.yaml", "--fail-on", "fragile"]).unwrap();
        let Job::Apply(job) = &s.job else { panic!("{:?}", s.job) };
        assert_eq!((job.name.as_deref(), job.fail_on), (Some("web"), FailOn::Fragile));
        assert!(resolve(&["simulate", "--apply", "m.yaml", "-o", "sarif"]).is_ok());
    }

    #[test]
    fn what_the_manifests_say_and_what_only_apply_reads_are_refused_in_one_line() {
        let e = refused(&["simulate", "--apply", "m.yaml", "--replicas", "3"]);
        assert_eq!(
            e.to_string(),
            "--apply takes the replicas, spread and mode from the manifests; drop --replicas"
        );
        let e = refused(&["simulate", "svc/web", "--replicas", "3", "--fail-on", "blocked"]);
        assert_eq!(e.to_string(), "--fail-on needs --apply (the manifests whose change it judges)");
        let e = refused(&["simulate", "svc/web", "--replicas", "3", "-o", "junit"]);
        assert!(e.to_string().starts_with("-o junit needs --apply"), "{e}");
        assert_eq!(refused(&["simulate", "--apply", "-", "-f", "-"]), WhatIfError::StdinTwice);
    }
}

//! The errors that stop a run: a bad flag value, what the source could not read
//! ([`SourceError`], which carries its own remedies), a `simulate` change that does not fit the
//! cluster, or output that could not be written. Each is printed as exactly one `error:` line plus
//! an optional `hint:` line, and mapped to an exit code by [`Error::exit_status`].

use crate::exit::ExitStatus;
use crate::settings::SettingsError;
use crate::source::SourceError;
use crate::triage::config::ConfigError;
use topo_engine::core::analyze::TooManyZones;
use topo_engine::core::version::TooOld;
use topo_engine::core::whatif::simulate::{Misfit, SimulateError};

/// Everything that can stop a run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// A flag value is wrong.
    #[error("{0}")]
    Settings(#[from] SettingsError),
    /// The source could not give what the command needs (dump, kubeconfig, API, permission, …).
    #[error("{0}")]
    Source(#[from] SourceError),
    /// `check`'s config file cannot be read or has a mistake.
    #[error("config {0}")]
    Config(#[from] ConfigError),
    /// A `simulate` change does not fit the cluster (unknown node, zone without nodes, …).
    #[error("{0}")]
    Simulate(#[from] SimulateError),
    /// `simulate --apply`'s manifests cannot be read or applied.
    #[error("{0}")]
    Manifest(#[from] crate::source::manifests::ManifestError),
    /// The cluster runs a Kubernetes version older than any line modelled.
    #[error("{}", crate::prose::version::too_old(.0))]
    Version(TooOld),
    /// The snapshot names more zones than are modelled (docs/behaviour.md#limits).
    #[error("{}", crate::prose::limits::too_many_zones(.0.limit))]
    Zones(TooManyZones),
    /// clap refused the command line (its message folded onto one line, and where to read more).
    #[error("{message}")]
    Usage {
        /// What is wrong with the command line.
        message: String,
        /// `see `kubectl topo SUBCOMMAND --help``.
        hint: String,
    },
    /// `explain deploy/NAME` (`statefulset/`, `pod/`): no Service was found in front of it.
    #[error("{}", crate::prose::workloads::nothing_in_front(.0))]
    NothingInFront(Box<crate::prose::workloads::InFrontMiss>),
    /// Writing the output failed: a closed pipe ([`Error::is_closed_pipe`]) or anything else.
    #[error("cannot write output: {0}")]
    Write(std::io::Error),
}

impl From<TooOld> for Error {
    fn from(e: TooOld) -> Self {
        Error::Version(e)
    }
}

impl From<TooManyZones> for Error {
    fn from(limit: TooManyZones) -> Self {
        Error::Zones(limit)
    }
}

impl Error {
    /// The exit status this error maps to.
    pub(crate) fn exit_status(&self) -> ExitStatus {
        match self {
            Error::Settings(_)
            | Error::Config(_)
            | Error::Simulate(_)
            | Error::Manifest(_)
            | Error::Version(_)
            | Error::Zones(_)
            | Error::Usage { .. }
            | Error::NothingInFront(_)
            | Error::Write(_) => ExitStatus::Usage,
            Error::Source(e) => e.exit_status(),
        }
    }

    /// One line of remedy, when there is one; `command` is what was run (`kubectl topo check`), so
    /// a flag's hint points at that subcommand's `--help`.
    pub(crate) fn hint(&self, bin_name: &str, command: &str) -> Option<String> {
        match self {
            // The what-if flags belong to `simulate` (`--traffic` too: explain's help lists it as well).
            Error::Settings(SettingsError::WhatIf(_)) => Some(format!("see `{bin_name} simulate --help`")),
            Error::Settings(_) => Some(format!("see `{command} --help`")),
            // `watch` and `serve` read no dump: the kubeconfig is their only way in.
            Error::Source(
                SourceError::NoKubeconfig(_)
                | SourceError::Kubeconfig { source: kube::config::KubeconfigError::ReadConfig(..), .. },
            ) if [" watch", " serve"].iter().any(|sub| command.ends_with(sub)) => Some(format!(
                "pass --kubeconfig FILE or set KUBECONFIG: `{command}` follows a live cluster and reads no dump"
            )),
            Error::Source(e) => e.hint(bin_name),
            Error::Config(_) => Some(
                "fix the file (format: `man 5 kubectl-topo-config`), or point --config elsewhere".to_string(),
            ),
            Error::Simulate(SimulateError(_, Misfit::Names)) => {
                Some(format!("check the node and zone names; `{bin_name} zones` lists the zones"))
            }
            Error::Simulate(SimulateError(_, Misfit::Manifests)) => {
                Some("simulate fewer replicas: lower the manifests' replicas or maxReplicas".to_string())
            }
            Error::Manifest(e) => Some(e.hint()),
            Error::Simulate(SimulateError(_, Misfit::SpreadTotal)) => Some(
                "make the zone counts of --spread add up to --replicas, or leave --replicas out (it is then their sum)"
                    .to_string(),
            ),
            Error::Version(_) => Some(format!(
                "upgrade the cluster, or model a line anyway with `{command} … --k8s-version 1.NN`"
            )),
            Error::Zones(_) => Some(crate::prose::limits::too_many_zones_hint(bin_name)),
            Error::Usage { hint, .. } => Some(hint.clone()),
            Error::NothingInFront(miss) => Some(crate::prose::workloads::nothing_in_front_hint(miss, bin_name)),
            Error::Write(_) => None,
        }
    }

    /// The output-error policy of every command: a closed pipe (`| head`) ends the run normally,
    /// nothing said, with the exit status already computed (0 when none was; see [`after_output`]);
    /// any other write error is one `error:` line and exit 2.
    pub(crate) fn is_closed_pipe(&self) -> bool {
        matches!(self, Error::Write(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// What a run ends with once its output is written (`written`) and its outcome is computed
/// (`computed`: a status, or an error such as "every verdict is Unknown"). A closed pipe (`| head`
/// quit, `| true`) keeps the outcome: a finding's exit code does not depend on whether, or when,
/// the reader went away. Any other write error is the run's error.
pub(crate) fn after_output(
    written: std::io::Result<()>,
    computed: Result<ExitStatus, Error>,
) -> Result<ExitStatus, Error> {
    match written {
        Ok(()) => computed,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => computed,
        Err(e) => Err(Error::Write(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::dump::DumpError;

    #[test]
    fn source_errors_keep_their_message_hint_and_exit_status() {
        let dump = || SourceError::from(DumpError::Empty { origin: "d".into() });
        let error = Error::from(dump());
        assert_eq!(error.to_string(), dump().to_string());
        assert_eq!(error.hint("kubectl topo", "kubectl topo check"), dump().hint("kubectl topo"));
        assert_eq!(error.exit_status(), ExitStatus::Usage);
        let missing = SourceError::Missing { action: "list nodes at cluster scope", consequence: "x" };
        assert_eq!(Error::from(missing).exit_status(), ExitStatus::Cluster);
    }

    #[test]
    fn flag_and_output_errors_are_usage_errors() {
        let settings = Error::from(SettingsError::DumpWide);
        assert!(settings.to_string().starts_with("dump writes YAML"));
        assert_eq!(
            settings.hint("kubectl topo", "kubectl topo dump").as_deref(),
            Some("see `kubectl topo dump --help`")
        );
        assert_eq!(settings.exit_status(), ExitStatus::Usage);
        let write = Error::Write(std::io::ErrorKind::Other.into());
        assert!(write.to_string().starts_with("cannot write output: "));
        assert_eq!((write.exit_status(), write.hint("k", "k")), (ExitStatus::Usage, None));
        assert!(!write.is_closed_pipe());
        assert!(Error::Write(std::io::ErrorKind::BrokenPipe.into()).is_closed_pipe());
    }

    #[test]
    fn a_closed_pipe_keeps_the_computed_outcome_and_other_write_errors_replace_it() {
        let pipe = || Err(std::io::ErrorKind::BrokenPipe.into());
        let full = || Err(std::io::Error::from_raw_os_error(28));
        assert_eq!(after_output(pipe(), Ok(ExitStatus::Findings)).unwrap(), ExitStatus::Findings);
        assert_eq!(after_output(pipe(), Ok(ExitStatus::Ok)).unwrap(), ExitStatus::Ok);
        assert_eq!(after_output(Ok(()), Ok(ExitStatus::Findings)).unwrap(), ExitStatus::Findings);
        let unknown = || Err(Error::from(SettingsError::DumpWide));
        assert!(matches!(after_output(pipe(), unknown()), Err(Error::Settings(_))));
        let failed = after_output(full(), Ok(ExitStatus::Findings)).unwrap_err();
        assert!(matches!(failed, Error::Write(_)) && !failed.is_closed_pipe());
    }
}

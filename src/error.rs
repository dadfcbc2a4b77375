//! Errors of the I/O side, each printed as exactly one `error:` line plus an optional `hint:` line,
//! and mapped to an exit code.

use std::path::PathBuf;

use crate::exit::ExitStatus;
use crate::settings::SettingsError;
use crate::source::dump::DumpError;

/// Everything that can stop a run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A flag value is wrong.
    #[error("{0}")]
    Settings(#[from] SettingsError),
    /// A dump could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path (`-` for stdin).
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A dump does not parse.
    #[error("{0}")]
    Dump(#[from] DumpError),
    /// The Service is not in the data.
    #[error("service {namespace}/{name} not found in {origin}")]
    ServiceNotFound {
        /// Namespace searched.
        namespace: String,
        /// Service name.
        name: String,
        /// Where we looked (`dump:…` or `cluster:…`).
        origin: String,
        /// Namespaces where a Service of that name exists.
        found_in: Vec<String>,
        /// True for a live cluster (exit 3), false for a dump (exit 2).
        live: bool,
    },
    /// A live cluster is needed but none is configured / supported.
    #[error("{0}")]
    Live(String),
    /// A `simulate` change does not fit the cluster (unknown node, zone without nodes, …).
    #[error("{0}")]
    Simulate(#[from] crate::core::whatif::simulate::SimulateError),
    /// Writing the output failed (other than a broken pipe).
    #[error("cannot write output: {0}")]
    Write(std::io::Error),
}

impl Error {
    /// The exit status this error maps to.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            Error::Settings(_) | Error::Read { .. } | Error::Dump(_) | Error::Write(_) => ExitStatus::Usage,
            Error::Simulate(_) => ExitStatus::Usage,
            Error::ServiceNotFound { live: false, .. } => ExitStatus::Usage,
            Error::ServiceNotFound { live: true, .. } | Error::Live(_) => ExitStatus::Cluster,
        }
    }

    /// One line of remedy, when there is one.
    pub fn hint(&self, bin_name: &str) -> Option<String> {
        match self {
            Error::ServiceNotFound { name, found_in, .. } if !found_in.is_empty() => Some(format!(
                "a Service named {name:?} exists in namespace(s) {}: add -n {}",
                found_in.join(", "),
                found_in[0]
            )),
            Error::ServiceNotFound { .. } => {
                Some(format!("list the Services with `{bin_name} check -A` and check the name and -n"))
            }
            Error::Read { .. } => Some("check the path, or use `--from-file -` to read stdin".to_string()),
            Error::Dump(_) => Some(
                "create a dump with `kubectl get nodes,services,endpointslices,events -A -o yaml > dump.yaml`"
                    .to_string(),
            ),
            Error::Settings(_) => Some(format!("see `{bin_name} --help`")),
            Error::Simulate(_) => Some(format!("check the node and zone names; `{bin_name} zones` lists the zones")),
            Error::Live(_) | Error::Write(_) => None,
        }
    }
}

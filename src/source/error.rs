//! What can go wrong while reading a source: a dump that cannot be read or parsed, a Service that
//! is not in the data, a kubeconfig that cannot be used, an API request that fails or times out, a
//! permission without which nothing useful can be said. Each message is one line; [`SourceError::hint`]
//! is the one line of remedy and [`SourceError::exit_status`] the exit code (2 for input, 3 for the
//! cluster). The classification of API failures (401/403/404/TLS/unreachable/…) is in [`api`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use kube::config::{InClusterError, KubeconfigError};

use super::dump::DumpError;
use crate::exit::ExitStatus;

mod api;
pub(crate) use api::{FORBIDDEN_HINT, Failure, chain, classify};

/// Why a source could not give what a command needs.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
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
    #[error("{0}")]
    ServiceNotFound(Box<ServiceNotFound>),
    /// `serve` cannot listen on its address (in use, not local, not permitted).
    #[error("cannot listen on {address}: {source}")]
    Listen {
        /// `--listen`.
        address: std::net::SocketAddr,
        /// The cause.
        source: std::io::Error,
    },
    /// `serve --tls-cert-file/--tls-private-key-file` that cannot be used.
    #[error("cannot serve HTTPS with {}: {why}", path.display())]
    Tls {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The runtime that drives live reads could not be started.
    #[error("cannot start the I/O runtime: {0}")]
    Runtime(std::io::Error),
    /// `dump` could not turn what it read into YAML.
    #[error("cannot serialise the dump: {0}")]
    Serialise(serde_saphyr::SerializeError),
    /// A kubeconfig that cannot be read or used (`path` when given with `--kubeconfig`).
    #[error("{}", kubeconfig_message(path.as_deref(), source))]
    Kubeconfig {
        /// `--kubeconfig`, when given.
        path: Option<PathBuf>,
        /// The cause.
        source: KubeconfigError,
    },
    /// `--context` names no context of the kubeconfig.
    #[error("kubeconfig has no context {name:?} (its contexts: {})", if contexts.is_empty() { "none".to_string() } else { contexts.join(", ") })]
    NoSuchContext {
        /// As given.
        name: String,
        /// The contexts the kubeconfig has, in file order.
        contexts: Vec<String>,
    },
    /// The kubeconfig user's exec credential plugin gave no credential.
    #[error("{0}")]
    Exec(#[from] super::live::exec::ExecError),
    /// No kubeconfig at all, and no in-cluster service account either.
    #[error("no kubeconfig found (KUBECONFIG unset, ~/.kube/config missing) and not running in a Pod ({0})")]
    NoKubeconfig(InClusterError),
    /// An API request failed; the message names what we were doing (e.g. "list nodes at cluster scope").
    #[error("{}{}", api::message(action, server, source), api::attempts_note(*attempts))]
    Kube {
        /// What we tried, as kubectl's RBAC words: verb, resource and scope.
        action: String,
        /// The API server URL.
        server: String,
        /// The cause.
        source: kube::Error,
        /// How many times the request was sent (transient failures are retried).
        attempts: u32,
    },
    /// A permission is missing and without it nothing useful can be said (e.g. `simulate` without
    /// Nodes). Partial reads that still allow a report are notes instead (`SourceInfo::partial`).
    #[error("forbidden: cannot {action}, so {consequence}")]
    Missing {
        /// The denied request, as kubectl's RBAC words (`list nodes at cluster scope`).
        action: &'static str,
        /// What could therefore not be done.
        consequence: &'static str,
    },
    /// A dump holds none of the objects a command needs (no Node: no zone weights), so nothing
    /// useful can be said: as [`SourceError::Missing`] for a live read, but the input is at fault.
    #[error("{origin} holds no {missing}, so {consequence}")]
    DumpIncomplete {
        /// The dump, as named on the command line (`stdin` for `-f -`).
        origin: String,
        /// The kinds it lacks (`Node`, `Node or EndpointSlice`).
        missing: &'static str,
        /// What could therefore not be done.
        consequence: &'static str,
    },
    /// `/version` answered 404: what the URL points at is not a Kubernetes API server.
    #[error("{server} answered 404 Not Found for /version ({message}): it is not a Kubernetes API server")]
    NotAnApiServer {
        /// The URL asked.
        server: String,
        /// The start of what it answered (its own words, escaped when printed).
        message: String,
    },
    /// A request took longer than `--request-timeout`.
    #[error("timed out after {}s trying to {action} on {server}", after.as_secs_f64())]
    Timeout {
        /// What we tried.
        action: String,
        /// The API server URL.
        server: String,
        /// The limit.
        after: Duration,
    },
}

/// The one-line message of an API failure while trying to `action` (as in [`SourceError::Kube`]).
pub(crate) fn describe(action: &str, server: &str, error: &kube::Error) -> String {
    api::message(action, server, error)
}

/// The Service asked for is not in what was read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("service {namespace}/{name} not found in {origin}")]
pub struct ServiceNotFound {
    /// Namespace searched.
    pub namespace: String,
    /// Service name.
    pub name: String,
    /// Where we looked (`dump:…` or `cluster:…`).
    pub origin: String,
    /// Namespaces where a Service of that name exists.
    pub found_in: Vec<String>,
    /// The closest name in that namespace (a typo: at most two edits away), when one is known.
    pub near: Option<String>,
}

impl SourceError {
    /// The exit status: 2 when the input given is at fault, 3 when the cluster is. A Service that
    /// is not there is 2 from a dump and from a live cluster alike: the name typed is what is wrong,
    /// as kubectl's `NotFound` is an answer, not a failure to get one.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            // A kubeconfig that cannot be read or names no such context is input, as a dump is.
            SourceError::Read { .. }
            | SourceError::Dump(_)
            | SourceError::Listen { .. }
            | SourceError::Tls { .. }
            | SourceError::DumpIncomplete { .. }
            | SourceError::Kubeconfig { .. }
            | SourceError::NoSuchContext { .. }
            | SourceError::ServiceNotFound(_) => ExitStatus::Usage,
            SourceError::Runtime(_)
            | SourceError::Serialise(_)
            | SourceError::Exec(_)
            | SourceError::NoKubeconfig(_)
            | SourceError::Kube { .. }
            | SourceError::Missing { .. }
            | SourceError::NotAnApiServer { .. }
            | SourceError::Timeout { .. } => ExitStatus::Cluster,
        }
    }

    /// One line of remedy, when there is one (`bin_name` as the user invokes us).
    pub fn hint(&self, bin_name: &str) -> Option<String> {
        match self {
            SourceError::ServiceNotFound(missing) => Some(missing.hint(bin_name)),
            SourceError::Read { source, .. } if source.kind() == std::io::ErrorKind::IsADirectory => Some(
                "only `check` reads a directory (every *.yaml, *.yml and *.json in it, each its own cluster); give this command one dump file"
                    .to_string(),
            ),
            SourceError::Read { .. } => Some("check the path, or use `--from-file -` to read stdin".to_string()),
            SourceError::Dump(dump) => dump.hint().map(str::to_string),
            SourceError::Kubeconfig { source: KubeconfigError::ReadConfig(..), .. } => Some(
                "check the path (--kubeconfig, else KUBECONFIG, else ~/.kube/config), or read a saved dump with \
                 --from-file FILE"
                    .to_string(),
            ),
            SourceError::Kubeconfig { .. } => Some(
                "pass --kubeconfig FILE, set KUBECONFIG, or pick a context with --context (kubectl config get-contexts)"
                    .to_string(),
            ),
            SourceError::NoSuchContext { .. } => Some("pick one of them with --context NAME".to_string()),
            SourceError::NoKubeconfig(_) => Some(
                "pass --kubeconfig FILE or set KUBECONFIG for a live cluster, or read a saved dump with --from-file FILE"
                    .to_string(),
            ),
            SourceError::Exec(e) => Some(e.hint()),
            SourceError::Timeout { .. } => Some(api::TIMEOUT_HINT.to_string()),
            SourceError::NotAnApiServer { .. } => Some(
                "check the URL: --server, else the server of the kubeconfig's cluster (kubectl config view --minify)"
                    .to_string(),
            ),
            SourceError::Kube { source, .. } => Some(api::hint(&classify(source)).to_string()),
            SourceError::Missing { .. } => Some(FORBIDDEN_HINT.to_string()),
            SourceError::DumpIncomplete { .. } => Some(format!(
                "dump every kind a verdict reads: `{} > dump.yaml`",
                crate::prose::partial::DUMP_COMMAND
            )),
            SourceError::Listen { .. } => {
                Some("pick a free local address and port with --listen HOST:PORT (e.g. 127.0.0.1:10064)".to_string())
            }
            SourceError::Tls { .. } => Some(
                "give the PEM certificate chain (leaf first) with --tls-cert-file and its PEM private key with --tls-private-key-file".to_string(),
            ),
            SourceError::Runtime(_) | SourceError::Serialise(_) => None,
        }
    }

    /// True for an API answer with this HTTP status code (e.g. 403 Forbidden, 410 Gone).
    pub fn is_api_status(&self, code: u16) -> bool {
        matches!(self, SourceError::Kube { source: kube::Error::Api(status), .. } if status.code == code)
    }
}

impl From<ServiceNotFound> for SourceError {
    fn from(missing: ServiceNotFound) -> Self {
        // Boxed: the Service's names and suggestions would make every SourceError large.
        SourceError::ServiceNotFound(Box::new(missing))
    }
}

impl ServiceNotFound {
    /// Where a Service of that name does exist, else how to list the Services.
    pub fn hint(&self, bin_name: &str) -> String {
        match self.found_in.first() {
            Some(first) => format!(
                "a Service named {:?} exists in namespace(s) {}: add -n {first}",
                self.name,
                self.found_in.join(", ")
            ),
            None => match &self.near {
                Some(near) => {
                    format!("did you mean svc/{near}? (`{bin_name} check -A --show-all` lists the Services)")
                }
                None => format!(
                    "list the Services with `{bin_name} check -A --show-all` and check the name and -n"
                ),
            },
        }
    }
}

/// `kubeconfig PATH: cause` (or `kubeconfig: cause` when no path was given), the cause on one line
/// and never the file's content: a kubeconfig holds tokens and keys, and the YAML parser's message
/// would quote the lines around the fault.
fn kubeconfig_message(path: Option<&Path>, source: &KubeconfigError) -> String {
    let place = path.map(|p| format!(" {}", p.display())).unwrap_or_default();
    match source {
        KubeconfigError::Parse(error) => {
            let at = error.location().map(|l| format!(":{}:{}", l.line(), l.column())).unwrap_or_default();
            format!("kubeconfig{place}{at}: invalid YAML: {}", without_values(&error.to_string()))
        }
        // The path once, as given (kube's message quotes it again, in Rust's debug form).
        KubeconfigError::ReadConfig(io, file) => {
            let place = if place.is_empty() { format!(" {}", file.display()) } else { place };
            format!("kubeconfig{place}: cannot read it: {io}")
        }
        other => format!("kubeconfig{place}: {}", chain(other)),
    }
}

/// The first line of a parser message, its location (we print our own) and every quoted value
/// (`"…"`, `` `…` ``) left out: what is wrong, never what was written.
pub(crate) fn without_values(message: &str) -> String {
    let first = message.lines().next().unwrap_or("").trim();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let first = match first.split_once(": ") {
        Some((place, rest)) if place.starts_with("line ") && place.contains(" column ") => rest,
        _ => first,
    };
    let first = first.split(" at line ").next().unwrap_or(first);
    let mut out = String::new();
    let mut closing: Option<char> = None;
    for c in first.chars() {
        match closing {
            Some(end) if c == end || (end == '`' && c == '\'') => closing = None,
            Some(_) => {}
            None if c == '"' || c == '`' => {
                closing = Some(c);
                out.push_str("(…)");
            }
            None => out.push(c),
        }
    }
    out.trim_end_matches(['.', ' ']).to_string()
}

#[cfg(test)]
mod tests;

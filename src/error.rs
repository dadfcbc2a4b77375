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
    /// No usable kubeconfig (or in-cluster service account).
    #[error("{0}")]
    Kubeconfig(String),
    /// An API request failed; the message names what we were doing (e.g. "list nodes at cluster scope").
    #[error("{}{}", kube_message(action, server, source), attempts_note(*attempts))]
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
        action: String,
        /// What could therefore not be done.
        consequence: String,
    },
    /// A request took longer than `--request-timeout`.
    #[error("timed out after {}s trying to {action} on {server}", after.as_secs_f64())]
    Timeout {
        /// What we tried.
        action: String,
        /// The API server URL.
        server: String,
        /// The limit.
        after: std::time::Duration,
    },
    /// A `simulate` change does not fit the cluster (unknown node, zone without nodes, …).
    #[error("{0}")]
    Simulate(#[from] topo_engine::core::whatif::simulate::SimulateError),
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
            Error::ServiceNotFound { live: true, .. }
            | Error::Live(_)
            | Error::Kubeconfig(_)
            | Error::Kube { .. }
            | Error::Missing { .. }
            | Error::Timeout { .. } => ExitStatus::Cluster,
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
            Error::Kubeconfig(_) => Some(
                "pass --kubeconfig FILE, set KUBECONFIG, or pick a context with --context (kubectl config get-contexts)"
                    .to_string(),
            ),
            Error::Timeout { .. } => Some(
                "the API server did not answer in time: check the server address and network, or raise --request-timeout"
                    .to_string(),
            ),
            Error::Kube { source, .. } => Some(kube_hint(&classify(source))),
            Error::Missing { .. } => Some(FORBIDDEN_HINT.to_string()),
            Error::Simulate(_) => Some(format!("check the node and zone names; `{bin_name} zones` lists the zones")),
            Error::Live(_) | Error::Write(_) => None,
        }
    }
}

/// What kind of failure a `kube::Error` is, as a user would describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// 401.
    Unauthorized(String),
    /// 403.
    Forbidden(String),
    /// 404.
    NotFound(String),
    /// Another API status.
    Status(u16, String),
    /// The answer ended before its end (connection closed mid-body, incomplete JSON).
    Truncated(String),
    /// Certificate or TLS handshake problem.
    Tls(String),
    /// Connection refused, DNS, no route.
    Unreachable(String),
    /// A timeout below us (connect/read timeout).
    Timeout(String),
    /// Credentials could not be obtained (exec plugin, token file, ...).
    Auth(String),
    /// Anything else.
    Other(String),
}

/// The whole cause chain of an error on one line (`a: b: c`), without repeats.
pub fn chain(error: &dyn std::error::Error) -> String {
    let mut parts: Vec<String> = vec![error.to_string()];
    let mut source = error.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    let text = parts.join(": ").replace('\n', " ");
    // kube/hyper wrap the cause in layers that say nothing to a user.
    let mut text = text.as_str();
    for noise in
        ["ServiceError: ", "HyperError: ", "client error (Connect): ", "client error (SendRequest): "]
    {
        while let Some(rest) = text.strip_prefix(noise) {
            text = rest;
        }
    }
    text.to_string()
}

/// Classify a kube error by its status code or its cause chain.
pub fn classify(error: &kube::Error) -> Failure {
    if let kube::Error::Api(status) = error {
        let message = status.message.clone();
        return match status.code {
            401 => Failure::Unauthorized(message),
            403 => Failure::Forbidden(message),
            404 => Failure::NotFound(message),
            code => Failure::Status(code, message),
        };
    }
    let text = chain(error);
    let lower = text.to_lowercase();
    if matches!(error, kube::Error::Auth(_)) {
        Failure::Auth(text)
    } else if is_truncated(&lower) {
        Failure::Truncated(text)
    } else if lower.contains("certificate") || lower.contains("tls") || lower.contains("handshake") {
        Failure::Tls(text)
    } else if lower.contains("timed out") || lower.contains("timeout") || lower.contains("deadline") {
        Failure::Timeout(text)
    } else if [
        "connection refused",
        "dns error",
        "no route",
        "unreachable",
        "connection reset",
        "tcp connect",
        "failed to lookup",
    ]
    .iter()
    .any(|k| lower.contains(k))
    {
        Failure::Unreachable(text)
    } else {
        Failure::Other(text)
    }
}

/// The texts hyper and serde_json give for a response cut off mid-body.
fn is_truncated(lower: &str) -> bool {
    ["end of file before message length reached", "connection closed before message completed"]
        .iter()
        .any(|k| lower.contains(k))
        || (lower.contains("deserializing response") && lower.contains("eof while parsing"))
}

/// ` (after N attempts)` when a transient failure was retried.
fn attempts_note(attempts: u32) -> String {
    if attempts > 1 { format!(" (after {attempts} attempts)") } else { String::new() }
}

/// The remedy for every missing permission: the shipped read-only ClusterRole.
pub const FORBIDDEN_HINT: &str = "bind the read-only ClusterRole kubectl-topo-reader (kubectl apply -f deploy/rbac.yaml, then a ClusterRoleBinding for your user or group): it grants get/list/watch on nodes, services, endpointslices.discovery.k8s.io and events";

/// The one-line message of an API failure.
fn kube_message(action: &str, server: &str, source: &kube::Error) -> String {
    match classify(source) {
        Failure::Forbidden(_) => format!("forbidden: cannot {action}"),
        Failure::Unauthorized(m) => {
            format!("unauthorized: {server} rejected the credentials while trying to {action} ({m})")
        }
        Failure::NotFound(m) => format!("not found: cannot {action}: {m}"),
        Failure::Status(code, m) => format!("cannot {action}: the API server answered {code}: {m}"),
        Failure::Truncated(m) => {
            format!("the API server's answer was cut off while trying to {action} on {server}: {m}")
        }
        Failure::Tls(m) => format!("TLS error talking to {server} (trying to {action}): {m}"),
        Failure::Unreachable(m) => {
            format!("cannot reach the API server at {server} (trying to {action}): {m}")
        }
        Failure::Timeout(m) => format!("timed out trying to {action} on {server}: {m}"),
        Failure::Auth(m) => format!("cannot get credentials for {server} (trying to {action}): {m}"),
        Failure::Other(m) => format!("cannot {action} on {server}: {m}"),
    }
}

/// One line of remedy for an API failure.
fn kube_hint(failure: &Failure) -> String {
    match failure {
        Failure::Forbidden(_) => FORBIDDEN_HINT.to_string(),
        Failure::Unauthorized(_) => {
            "the credentials of the current context are missing or expired: log in again (e.g. aws eks update-kubeconfig, gcloud container clusters get-credentials, az aks get-credentials)".to_string()
        }
        Failure::NotFound(_) => "check the namespace (-n) and the name".to_string(),
        Failure::Tls(_) => {
            "the server certificate does not match the kubeconfig's certificate-authority-data or server name: check the context (--context) and refresh the kubeconfig".to_string()
        }
        Failure::Unreachable(_) => {
            "check that the cluster is running and that the current context points at it (kubectl config current-context)".to_string()
        }
        Failure::Timeout(_) => "check the server address and network, or raise --request-timeout".to_string(),
        Failure::Auth(_) => "check the exec credential plugin or token of the current user (kubectl config view --minify)".to_string(),
        Failure::Status(..) | Failure::Truncated(_) | Failure::Other(_) => "retry; if it persists, check the API server's health (kubectl get --raw /readyz)".to_string(),
    }
}

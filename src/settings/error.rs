//! Why settings could not be resolved: one variant per mistake, each its own sentence (exit 2).

/// A flag value that does not make sense; exit code 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// Bad `--k8s-version`.
    #[error("--k8s-version: {0}")]
    Version(#[from] topo_engine::model::version::VersionError),
    /// Bad `svc/NAME`.
    #[error("{0:?} is not a Service reference: use svc/NAME, service/NAME or NAME")]
    ServiceRef(String),
    /// `deploy/x` and other kinds: only Services get topology hints.
    #[error(
        "{0:?} names another kind: topology hints belong to Services, use svc/NAME (the Service in front of it)"
    )]
    NotAService(String),
    /// More than one Service where one is read (`simulate svc/a svc/b`), or a mix of forms.
    #[error(
        "{0:?}: name the Service as svc/NAME or svc NAME (explain takes several: svc/A svc/B, or svc A B)"
    )]
    OneService(String),
    /// `explain svc/a svc/b -o html|dot|mermaid`.
    #[error(
        "a picture draws one Service: explain several with -o table, wide, json or yaml, or one at a time"
    )]
    SeveralPictures,
    /// Bad `-l`.
    #[error("-l {0}")]
    Selector(String),
    /// Bad `--request-timeout`.
    #[error("--request-timeout {0:?}: use a duration like 30s, 500ms, 1m30s or 0 (none)")]
    Timeout(String),
    /// A template of `-o jsonpath=…` this subset does not read.
    #[error(
        "-o jsonpath: {0} (the subset read: {{.a.b}}, [N], [*], ['key'], {{range …}}…{{end}}, {{\"\\n\"}})"
    )]
    JsonPath(#[from] crate::render::extract::TemplateError),
    /// `dump -o wide`.
    #[error("dump writes YAML (the default, -o yaml) or JSON (-o json), not -o wide")]
    DumpWide,
    /// `watch` on a dump (the parser refuses `watch -f`; `app::watch` guards its Settings).
    #[error("watch follows a live cluster: it cannot be combined with --from-file")]
    WatchFromFile,
    /// `watch svc/NAME -A`.
    #[error("watch svc/NAME follows one Service: use -n NAMESPACE, not -A")]
    WatchOneWithAll,
    /// `--as-group` without `--as`.
    #[error("--as-group needs --as: groups are impersonated together with a user, as kubectl does")]
    AsGroupWithoutAs,
    /// A `--server` that is not a URL.
    #[error("--server {0:?} is not a URL: use https://HOST:PORT (or HOST:PORT)")]
    Server(String),
    /// `serve` on a dump (the parser refuses `serve -f`; `serve::run` guards its Settings).
    #[error("serve follows a live cluster: it cannot be combined with --from-file")]
    ServeFromFile,
    /// `serve --listen` that is not HOST:PORT.
    #[error("--listen {0:?} is not an address and port such as 0.0.0.0:10064 or 127.0.0.1:10064")]
    ServeListen(String),
    /// A `--metric-allowlist`/`--metric-denylist` regex that does not compile.
    #[error(
        "{flag} {regex:?} is not a regex ({why}): give regexes such as kubectl_topo_service_.* separated by commas"
    )]
    MetricRegex {
        /// The flag.
        flag: &'static str,
        /// What was typed.
        regex: String,
        /// The regex crate's reason.
        why: String,
    },
    /// One of the TLS files without the other.
    #[error("--tls-cert-file and --tls-private-key-file go together: give both (PEM files) or neither")]
    TlsPair,
    /// `--auth=tokenreview` over plain HTTP.
    #[error(
        "--auth=tokenreview reads the caller's bearer token: serve HTTPS with --tls-cert-file and --tls-private-key-file, so that the token does not cross the network in clear"
    )]
    AuthWithoutTls,
    /// Both metric lists.
    #[error(
        "--metric-allowlist and --metric-denylist exclude each other, as in kube-state-metrics: give one of them"
    )]
    MetricLists,
    /// A `check` flag value that names no verdict, reason code or mode.
    #[error("{flag} {value:?}: use one of {valid}")]
    UnknownName {
        /// The flag.
        flag: &'static str,
        /// What was typed.
        value: String,
        /// The valid names, comma-separated.
        valid: String,
    },
    /// A bad `--exclude-namespace` glob.
    #[error("--exclude-namespace {pattern:?}: {why}")]
    ExcludePattern {
        /// The pattern.
        pattern: String,
        /// globset's reason.
        why: String,
    },
    /// `-f` or `--context` repeated for a command that reads one cluster.
    #[error("only check reads several clusters: give one -f or one --context")]
    OneSource,
    /// `--all-contexts` with `-f`.
    #[error("--all-contexts reads the kubeconfig's clusters: it cannot be combined with --from-file")]
    AllContextsFromFile,
    /// `-o markdown|junit|sarif` over several clusters.
    #[error("-o {0} reports one cluster: give one -f or one --context, or use -o table, wide, json or yaml")]
    ReportOneSource(&'static str),
    /// A bad `simulate` change or `--traffic` value (the message names the flag).
    #[error("{0}")]
    WhatIf(#[from] super::changes::WhatIfError),
}

//! What the user typed: clap derive only, no policy. `settings` resolves it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

pub(crate) mod examples;
pub mod groups;
mod reasons;
pub(crate) mod shared;
pub(crate) mod usage_error;
mod values;
pub use reasons::ReasonsArgs;
pub use values::{Auth, ColorChoice, FailOn, Output, OutputFormat, PerZoneSeries, SortBy};

use shared::Groups;
pub use shared::{
    AllNamespaces, Connection, FromFile, GlobalArgs, K8sVersion, Namespace, ReadArgs, Selector, TableLook,
};

/// Recompute and explain Kubernetes topology hints (topology-aware routing, trafficDistribution).
#[derive(Debug, Parser)]
#[command(name = "kubectl-topo", version, about, long_about = None, after_help = EXIT_CODES_HELP)]
pub struct Cli {
    /// The subcommand (each takes its own flags, after it).
    #[command(subcommand)]
    pub command: Command,
}

/// Shown at the end of `--help`.
pub(crate) const EXIT_CODES_HELP: &str = "\
Exit codes:
  0  success (and, for check / explain --exit-code, nothing at or above --fail-on)
  1  check / explain --exit-code found a Service at or above --fail-on (simulate --apply: a
     change brings one there)
  2  usage or input error (bad flag, unreadable or invalid dump or kubeconfig, no such --context,
     unknown Service in a dump or cluster)
  3  cluster or API error (unreachable, unauthorised, forbidden, timeout)
A closed stdout (`| head`) ends the run quietly with the code it computed.";

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Zone CPU weights exactly as the EndpointSlice controller counts them, and the nodes left out.
    #[command(after_help = examples::ZONES)]
    Zones(ZonesArgs),
    /// Explain one Service: expected vs actual hints, the safeguard that blocks them, kube-proxy's view.
    #[command(after_help = examples::EXPLAIN)]
    Explain(ExplainArgs),
    /// One row per Service with its verdict; exit code 1 on findings at or above --fail-on.
    #[command(after_help = examples::CHECK)]
    Check(CheckArgs),
    /// Write what the live cluster shows (Nodes, Services, EndpointSlices, Events, server version) as
    /// one YAML List (or JSON with -o json, read back much faster) that --from-file reads back;
    /// attach it to bug reports.
    #[command(after_help = examples::DUMP)]
    Dump(DumpArgs),
    /// What-if: explain one Service in a changed cluster (replicas, nodes, zones, CPU, mode).
    #[command(after_help = examples::SIMULATE)]
    Simulate(SimulateArgs),
    /// Follow Services live and print a line each time a verdict, its reasons or the hints change
    /// (like `kubectl get -w`; `-o json` streams one object per change). Ctrl-C ends it.
    #[command(after_help = examples::WATCH)]
    Watch(WatchArgs),
    /// Run as a Prometheus exporter: watch Nodes, Services and EndpointSlices, recompute what each
    /// change affects and serve /metrics, /healthz and /readyz (docs/monitoring.md). SIGTERM or
    /// Ctrl-C stops it.
    #[command(after_help = examples::SERVE)]
    Serve(ServeArgs),
    /// What each reason code means, the upstream rule behind it and how to fix it, per release.
    #[command(after_help = examples::REASONS)]
    Reasons(ReasonsArgs),
    /// Print shell completion code (bash, zsh, fish, powershell, elvish).
    #[command(after_help = examples::COMPLETION)]
    Completion(CompletionArgs),
    /// Print the plugin version (and the server version when a cluster is reachable).
    #[command(after_help = examples::VERSION)]
    Version(VersionArgs),
}

/// `zones` arguments.
#[derive(Debug, Args)]
pub struct ZonesArgs {
    /// Output format [default: table].
    #[arg(short = 'o', long, ignore_case = true, value_parser = shared::formats(shared::ZONES_FORMATS))]
    pub output: Option<Output>,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// `version` arguments.
#[derive(Debug, Args)]
pub struct VersionArgs {
    /// The plugin's version only: ask no server (as `kubectl version --client`).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", hide_default_value = true, hide_possible_values = true, value_name = "BOOL", value_parser = crate::cli::shared::boolean())]
    pub client: bool,
    /// Output format [default: table].
    #[arg(short = 'o', long, ignore_case = true, value_parser = shared::formats(shared::VERSION_FORMATS))]
    pub output: Option<Output>,
    #[command(flatten)]
    pub connection: Connection,
}

/// `explain` arguments.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The Service(s), as kubectl takes them: `svc/NAME` (or `service/NAME`, `NAME`), `svc NAME`,
    /// several as `svc/A svc/B` or `svc A B` (explained in turn; -o json|yaml: one List).
    #[arg(value_name = "SERVICE", num_args = 1.., required = true)]
    pub service: Vec<String>,
    /// Exit with code 1 when the Service's verdict is at or above --fail-on.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", hide_default_value = true, hide_possible_values = true, value_name = "BOOL", value_parser = crate::cli::shared::boolean())]
    pub exit_code: bool,
    /// Severity that makes --exit-code fail, and implies --exit-code [default: drift].
    #[arg(long, value_enum, ignore_case = true)]
    pub fail_on: Option<FailOn>,
    /// Config file with excludes and failure levels, as for check (default:
    /// $KUBECTL_TOPO_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml when it
    /// exists).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Traffic model of the cross-zone share.
    #[command(flatten)]
    pub traffic: TrafficArgs,
    /// Output format [default: table].
    #[arg(short = 'o', long, ignore_case = true, value_parser = shared::formats(shared::REPORT_FORMATS))]
    pub output: Option<Output>,
    #[command(flatten)]
    pub namespace: Namespace,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// `check` arguments.
#[derive(Debug, Args)]
#[command(mut_arg("from_file", |a| a.help(shared::CHECK_FROM_FILE_HELP)))]
#[command(mut_arg("context", |a| a.help(shared::CHECK_CONTEXT_HELP)))]
pub struct CheckArgs {
    /// Severity that makes `check` exit with code 1.
    #[arg(long, value_enum, ignore_case = true, default_value_t = FailOn::Drift)]
    pub fail_on: FailOn,
    /// Traffic model of the cross-zone share.
    #[command(flatten)]
    pub traffic: TrafficArgs,
    /// List only Services with a family at one of these verdicts (comma-separated or repeated).
    #[arg(long, value_name = "VERDICT", value_delimiter = ',')]
    pub verdict: Vec<String>,
    /// List only Services with one of these reason codes (comma-separated or repeated).
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    pub reason: Vec<String>,
    /// List only Services in one of these modes: Auto, PreferClose, PreferSameZone,
    /// PreferSameNode, None.
    #[arg(long, value_name = "MODE", value_delimiter = ',')]
    pub mode: Vec<String>,
    /// Row order: namespace and name ascending, verdict worst first, cross-zone and replicas
    /// largest first.
    #[arg(long, value_enum, ignore_case = true, default_value_t = SortBy::Namespace)]
    pub sort_by: SortBy,
    /// Leave out namespaces matching this glob (e.g. `kube-*`; repeatable).
    #[arg(long, value_name = "GLOB")]
    pub exclude_namespace: Vec<String>,
    /// Also list the Services for which nobody asked for hints and that have none.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", hide_default_value = true, hide_possible_values = true, value_name = "BOOL", value_parser = crate::cli::shared::boolean())]
    pub show_all: bool,
    /// Check every context of the kubeconfig, one cluster each.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", hide_default_value = true, hide_possible_values = true, value_name = "BOOL", value_parser = crate::cli::shared::boolean())]
    pub all_contexts: bool,
    /// -o json|yaml: one CheckReportList even for one cluster (it always is with several -f, a
    /// directory of dumps or --all-contexts).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", hide_default_value = true, hide_possible_values = true, value_name = "BOOL", value_parser = crate::cli::shared::boolean())]
    pub list: bool,
    /// Also certify every Auto Service: read the workloads behind it (Pods, Deployments,
    /// StatefulSets, ReplicaSets, HPAs) and say whether its hints hold at every replica count its
    /// HPA allows (else its replicas) in every placement its zone spread allows (CERTIFICATE column;
    /// --fail-on fragile fails an exception).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", hide_default_value = true, hide_possible_values = true, value_name = "BOOL", value_parser = crate::cli::shared::boolean())]
    pub certify: bool,
    /// Config file with excludes and failure levels (default:
    /// $KUBECTL_TOPO_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml when it
    /// exists).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Output format [default: table].
    #[arg(short = 'o', long, ignore_case = true, value_parser = shared::formats(shared::CHECK_FORMATS))]
    pub output: Option<Output>,
    #[command(flatten)]
    pub namespace: Namespace,
    #[command(flatten)]
    pub all: AllNamespaces,
    #[command(flatten)]
    pub selector: Selector,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// `simulate` arguments: changes are repeatable and combinable.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The Service: `svc/NAME`, `service/NAME`, `services/NAME`, `NAME`, or `svc NAME` (TYPE NAME, as
    /// kubectl takes it); with --apply, optional (every Service the manifests affect).
    #[arg(value_name = "SERVICE", num_args = 0..=2, required_unless_present = "apply")]
    pub service: Vec<String>,
    /// Rendered manifests to apply over the cluster (Helm or kustomize output: Deployments,
    /// StatefulSets, HorizontalPodAutoscalers, Services, Nodes), a directory of them, or - for
    /// stdin; repeatable. Reports every Service they affect, before → after (docs/apply.md).
    #[arg(long, value_name = "FILE|DIR|-")]
    pub apply: Vec<PathBuf>,
    /// With --apply: the verdict a change must newly bring a Service to for exit code 1 [default:
    /// blocked].
    #[arg(long, value_enum, ignore_case = true)]
    pub fail_on: Option<FailOn>,
    /// Ready endpoints per address family afterwards (spread as the pods are spread today unless
    /// --spread says otherwise); MIN..MAX: the stability certificate, whether hints hold at every
    /// count and every placement the spread allows (docs/stability.md).
    #[arg(long, value_name = "N|MIN..MAX", allow_negative_numbers = true)]
    pub replicas: Option<String>,
    /// With --replicas MIN..MAX: a zone topologySpreadConstraint with this maxSkew.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_skew: Option<String>,
    /// With --max-skew: its minDomains.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub min_domains: Option<String>,
    /// With --max-skew: its whenUnsatisfiable, DoNotSchedule (the default) or ScheduleAnyway.
    #[arg(long, value_name = "DoNotSchedule|ScheduleAnyway")]
    pub when_unsatisfiable: Option<String>,
    /// How --replicas spreads endpoints: `even` over the zones, or `zone=A:N,B:N` exactly.
    #[arg(long, value_name = "even|zone=A:N,…")]
    pub spread: Option<String>,
    /// Delete a node (its pods' endpoints disappear).
    #[arg(long, value_name = "NODE")]
    pub remove_node: Vec<String>,
    /// Delete every node of a zone.
    #[arg(long, value_name = "ZONE")]
    pub remove_zone: Vec<String>,
    /// Turn a node's Ready condition False (its endpoints stay as they are).
    #[arg(long, value_name = "NODE")]
    pub not_ready: Vec<String>,
    /// Add a node.
    #[arg(long, value_name = "zone=Z,cpu=Q[,control-plane][,not-ready][,name=N]")]
    pub add_node: Vec<String>,
    /// Set a node's allocatable CPU.
    #[arg(long, value_name = "NODE=Q")]
    pub set_cpu: Vec<String>,
    /// Switch the Service's mode: Auto, PreferClose, PreferSameZone, PreferSameNode or None.
    #[arg(long, value_name = "MODE")]
    pub mode: Option<String>,
    /// Traffic model of the cross-zone share.
    #[command(flatten)]
    pub traffic: TrafficArgs,
    /// Output format [default: table]; markdown, junit and sarif with --apply.
    #[arg(short = 'o', long, ignore_case = true, value_parser = shared::formats(shared::SIMULATE_FORMATS))]
    pub output: Option<Output>,
    #[command(flatten)]
    pub namespace: Namespace,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// `watch` arguments.
#[derive(Debug, Args)]
#[command(mut_arg("k8s_version", |a| a.help(shared::LIVE_K8S_VERSION_HELP)))]
pub struct WatchArgs {
    /// One Service, as kubectl takes it: `svc/NAME` (or `service/NAME`, `NAME`) or `svc NAME`;
    /// without it, every Service of the namespace (or of all with -A).
    #[arg(value_name = "SERVICE", num_args = 0..=2)]
    pub service: Vec<String>,
    /// Output format [default: table].
    #[arg(short = 'o', long, ignore_case = true, value_parser = shared::formats(shared::WATCH_FORMATS))]
    pub output: Option<Output>,
    #[command(flatten)]
    pub namespace: Namespace,
    #[command(flatten)]
    pub all: AllNamespaces,
    #[command(flatten)]
    pub selector: Selector,
    #[command(flatten)]
    pub version: K8sVersion,
    #[command(flatten)]
    pub look: TableLook,
    #[command(flatten)]
    pub connection: Connection,
}

/// `serve`'s default address: every interface, the port chosen from the Prometheus project's
/// default port allocations (docs/monitoring.md; the deploy files and the chart use it too).
pub(crate) const DEFAULT_LISTEN: &str = "0.0.0.0:10064";

/// `serve` arguments.
#[derive(Debug, Args)]
#[command(mut_arg("k8s_version", |a| a.help(shared::LIVE_K8S_VERSION_HELP)))]
pub struct ServeArgs {
    /// Address to serve /, /metrics, /healthz and /readyz on (the port: docs/monitoring.md).
    #[arg(long, value_name = "HOST:PORT", default_value = DEFAULT_LISTEN)]
    pub listen: String,
    /// Add `cluster="NAME"` to every series (when one Prometheus scrapes several clusters; with one
    /// Prometheus per cluster, prefer its `external_labels`).
    #[arg(long, value_name = "NAME")]
    pub cluster_label: Option<String>,
    /// Which Services get the per-zone series (two per zone each): those that asked for hints or
    /// have some, or all.
    #[arg(long, value_enum, ignore_case = true, value_name = "WHICH", default_value_t = PerZoneSeries::Hinted)]
    pub per_zone_series: PerZoneSeries,
    /// Hold only the Services and EndpointSlices of these namespaces (comma-separated; default: all).
    #[arg(long, value_name = "NS,…", value_delimiter = ',')]
    pub namespaces: Vec<String>,
    /// Never hold the Services and EndpointSlices of these namespaces (comma-separated).
    #[arg(long, value_name = "NS,…", value_delimiter = ',')]
    pub namespaces_denylist: Vec<String>,
    /// Show only the metric families a regex matches anywhere in their name (comma-separated, as
    /// kube-state-metrics takes them).
    #[arg(long, value_name = "REGEX,…", value_delimiter = ',')]
    pub metric_allowlist: Vec<String>,
    /// Show every metric family but those a regex matches anywhere in their name (comma-separated).
    #[arg(long, value_name = "REGEX,…", value_delimiter = ',')]
    pub metric_denylist: Vec<String>,
    /// Config file with excludes and levels, as check reads it (default:
    /// $KUBECTL_TOPO_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml when it
    /// exists): findings set aside are labelled ignored="true".
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Serve HTTPS with this certificate chain (PEM, read at start); with --tls-private-key-file.
    #[arg(long, value_name = "PATH")]
    pub tls_cert_file: Option<PathBuf>,
    /// The private key of --tls-cert-file (PEM).
    #[arg(long, value_name = "PATH")]
    pub tls_private_key_file: Option<PathBuf>,
    /// Who may read /metrics: anyone who reaches the port, or a caller whose bearer token the API
    /// server authenticates and authorizes for `get` on /metrics (needs TLS).
    #[arg(long, value_enum, ignore_case = true, value_name = "HOW", default_value_t = Auth::None)]
    pub auth: Auth,
    #[command(flatten)]
    pub version: K8sVersion,
    #[command(flatten)]
    pub connection: Connection,
}

/// Where requests originate, for the cross-zone share.
#[derive(Debug, Args)]
pub struct TrafficArgs {
    /// Relative requests per zone, e.g. `zone-a=50,zone-b=30` (default: in proportion to zone CPU).
    #[arg(long, value_name = "ZONE=W,…")]
    pub traffic: Option<String>,
}

/// `dump` arguments.
#[derive(Debug, Args)]
#[command(mut_arg("from_file", |a| a.help(shared::DUMP_FROM_FILE_HELP)))]
pub struct DumpArgs {
    /// Keep only what the reports read, names and addresses replaced consistently; with -f, redact that dump offline.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", hide_default_value = true, hide_possible_values = true, value_name = "BOOL", value_parser = crate::cli::shared::boolean())]
    pub redact: bool,
    /// Output format [default: yaml].
    #[arg(short = 'o', long, ignore_case = true, value_parser = shared::dump_formats())]
    pub output: Option<Output>,
    #[command(flatten)]
    pub namespace: Namespace,
    #[command(flatten)]
    pub all: AllNamespaces,
    #[command(flatten)]
    pub file: FromFile,
    #[command(flatten)]
    pub connection: Connection,
}

/// `completion` arguments.
#[derive(Debug, Args)]
pub struct CompletionArgs {
    /// The shell.
    #[arg(value_enum, ignore_case = true)]
    pub shell: clap_complete::Shell,
}

impl Command {
    /// The shared flags as typed after this subcommand, the absent ones at their defaults.
    pub fn shared(&self) -> GlobalArgs {
        let groups: &dyn Groups = match self {
            Command::Zones(a) => a,
            Command::Explain(a) => a,
            Command::Check(a) => a,
            Command::Dump(a) => a,
            Command::Simulate(a) => a,
            Command::Watch(a) => a,
            Command::Serve(a) => a,
            Command::Reasons(a) => a,
            Command::Completion(a) => a,
            Command::Version(a) => a,
        };
        GlobalArgs::of(groups)
    }
}

//! What the user typed: clap derive only, no policy. `settings` resolves it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub mod examples;
pub mod usage_error;

/// Recompute and explain Kubernetes topology hints (topology-aware routing, trafficDistribution).
#[derive(Debug, Parser)]
#[command(name = "kubectl-topo", version, about, long_about = None, after_help = EXIT_CODES_HELP)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
    /// Flags shared by every subcommand.
    #[command(flatten)]
    pub global: GlobalArgs,
}

/// Shown at the end of `--help`.
pub const EXIT_CODES_HELP: &str = "\
Exit codes:
  0  success (and, for check / explain --exit-code, nothing at or above --fail-on)
  1  check / explain --exit-code found a Service at or above --fail-on
  2  usage or input error (bad flag, unreadable or invalid dump, unknown Service in a dump or cluster)
  3  cluster or API error (unreachable, unauthorised, forbidden, timeout)";

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Zone CPU weights exactly as the EndpointSlice controller counts them, and the nodes left out.
    #[command(after_help = examples::ZONES)]
    Zones,
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
    /// change affects and serve /metrics, /healthz and /readyz (README "Monitoring"). SIGTERM or
    /// Ctrl-C stops it.
    #[command(after_help = examples::SERVE)]
    Serve(ServeArgs),
    /// Print shell completion code (bash, zsh, fish, powershell, elvish).
    #[command(after_help = examples::COMPLETION)]
    Completion(CompletionArgs),
    /// Print the plugin version (and the server version when a cluster is reachable).
    #[command(after_help = examples::VERSION)]
    Version,
}

/// `explain` arguments.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The Service: `svc/NAME`, `service/NAME`, `services/NAME` or `NAME`.
    pub service: String,
    /// Exit with code 1 when the Service's verdict is at or above --fail-on.
    #[arg(long)]
    pub exit_code: bool,
    /// Severity that makes --exit-code fail (needs --exit-code).
    #[arg(long, value_enum, default_value_t = FailOn::Drift, requires = "exit_code")]
    pub fail_on: FailOn,
    /// Traffic model of the cross-zone share.
    #[command(flatten)]
    pub traffic: TrafficArgs,
}

/// `check` arguments.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Severity that makes `check` exit with code 1.
    #[arg(long, value_enum, default_value_t = FailOn::Drift)]
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
    #[arg(long, value_enum, default_value_t = SortBy::Namespace)]
    pub sort_by: SortBy,
    /// Leave out namespaces matching this glob (e.g. `kube-*`; repeatable).
    #[arg(long, value_name = "GLOB")]
    pub exclude_namespace: Vec<String>,
    /// Also list the Services for which nobody asked for hints and that have none.
    #[arg(long)]
    pub show_all: bool,
    /// Check every context of the kubeconfig, one cluster each.
    #[arg(long)]
    pub all_contexts: bool,
    /// Config file with excludes and failure levels (default:
    /// $KUBECTL_TOPO_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml when it
    /// exists).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// `check --sort-by` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
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

/// `simulate` arguments: changes are repeatable and combinable.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The Service: `svc/NAME`, `service/NAME`, `services/NAME` or `NAME`.
    pub service: String,
    /// Ready endpoints per address family afterwards (spread as the pods are spread today unless
    /// --spread says otherwise).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub replicas: Option<String>,
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
    /// Switch the Service's mode: Auto, PreferClose, PreferSameZone, PreferSameNode or none.
    #[arg(long, value_name = "MODE")]
    pub mode: Option<String>,
    /// Traffic model of the cross-zone share.
    #[command(flatten)]
    pub traffic: TrafficArgs,
}

/// `watch` arguments.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// One Service (`svc/NAME`); without it, every Service of the namespace (or of all with -A).
    pub service: Option<String>,
}

/// `serve` arguments.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to serve /metrics, /healthz and /readyz on.
    #[arg(long, value_name = "HOST:PORT", default_value = "0.0.0.0:9464")]
    pub listen: String,
    /// Add `cluster="NAME"` to every series (when one Prometheus scrapes several clusters; with one
    /// Prometheus per cluster, prefer its `external_labels`).
    #[arg(long, value_name = "NAME")]
    pub cluster_label: Option<String>,
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
pub struct DumpArgs {
    /// Keep only what the reports read, names and addresses replaced consistently; with -f, redact that dump offline.
    #[arg(long)]
    pub redact: bool,
}

/// `completion` arguments.
#[derive(Debug, Args)]
pub struct CompletionArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Flags shared by every subcommand (kubectl's names and meanings).
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events
    /// -A -o yaml`); `-` reads stdin. `check`: repeatable, and a directory reads every *.yaml,
    /// *.yml and *.json in it, each as its own cluster.
    #[arg(short = 'f', long, global = true, value_name = "PATH", action = clap::ArgAction::Append)]
    pub from_file: Vec<PathBuf>,
    /// Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the
    /// server version recorded in the dump, else 1.36.
    #[arg(long, global = true, value_name = "1.NN")]
    pub k8s_version: Option<String>,
    /// Namespace of the Service(s).
    #[arg(short = 'n', long, global = true)]
    pub namespace: Option<String>,
    /// All namespaces.
    #[arg(short = 'A', long, global = true)]
    pub all_namespaces: bool,
    /// Label selector for Services (`check`, `watch`), e.g. `app=web,tier!=db`.
    #[arg(short = 'l', long, global = true)]
    pub selector: Option<String>,
    /// Output format [default: table; dump: yaml].
    #[arg(short = 'o', long, global = true, value_enum)]
    pub output: Option<OutputFormat>,
    /// Omit table headers.
    #[arg(long, global = true)]
    pub no_headers: bool,
    /// When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`).
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Path to the kubeconfig file.
    #[arg(long, global = true)]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context to use (`check`: repeatable, one cluster each).
    #[arg(long, global = true, action = clap::ArgAction::Append)]
    pub context: Vec<String>,
    /// The kubeconfig cluster to use.
    #[arg(long, global = true)]
    pub cluster: Option<String>,
    /// The kubeconfig user to use.
    #[arg(long, global = true)]
    pub user: Option<String>,
    /// Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s].
    #[arg(long, global = true, value_name = "DURATION")]
    pub request_timeout: Option<String>,
    /// The address and port of the Kubernetes API server (overrides the kubeconfig's).
    #[arg(short = 's', long, global = true, value_name = "URL")]
    pub server: Option<String>,
    /// Bearer token for authentication to the API server.
    #[arg(long, global = true, value_name = "TOKEN")]
    pub token: Option<String>,
    /// Path to a cert file for the certificate authority.
    #[arg(long, global = true, value_name = "PATH")]
    pub certificate_authority: Option<PathBuf>,
    /// Do not check the server's certificate: insecure.
    #[arg(long, global = true)]
    pub insecure_skip_tls_verify: bool,
    /// Server name to validate the server's certificate against.
    #[arg(long, global = true, value_name = "NAME")]
    pub tls_server_name: Option<String>,
    /// User to impersonate for the requests.
    #[arg(long = "as", global = true, value_name = "USER")]
    pub as_user: Option<String>,
    /// Group to impersonate (repeatable; needs --as).
    #[arg(long, global = true, value_name = "GROUP")]
    pub as_group: Vec<String>,
    /// Log level: 6 or more prints each API request (method, URL, status, time) on stderr.
    #[arg(short = 'v', long = "v", global = true, value_name = "LEVEL", default_value_t = 0)]
    pub verbosity: u8,
}

/// `-o` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Human tables and prose.
    Table,
    /// Tables with more columns.
    Wide,
    /// The report model as JSON (versioned envelope).
    Json,
    /// The report model as YAML (versioned envelope).
    Yaml,
    /// One self-contained HTML page: zones, routing bands and reasons (explain, check, simulate).
    Html,
    /// The routing graph for Graphviz (`dot -Tsvg`) (explain, check, simulate).
    Dot,
    /// The routing graph as a Mermaid flowchart, for Markdown (explain, check, simulate).
    Mermaid,
    /// `check`: a pull-request comment (summary, table of findings, details per Service).
    Markdown,
    /// `check`: JUnit XML, one test case per Service.
    Junit,
    /// `check`: SARIF 2.1.0, one rule per reason code.
    Sarif,
}

/// The four families of `-o` formats: who writes them and who renders them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatKind {
    /// `table`, `wide`: every subcommand, for a terminal.
    Table,
    /// `json`, `yaml`: every subcommand, the versioned report model.
    Structured,
    /// `html`, `dot`, `mermaid`: `explain`, `check` and `simulate`, for one cluster.
    Picture,
    /// `markdown`, `junit`, `sarif`: `check` only, for one cluster.
    Report,
}

impl OutputFormat {
    /// The family of this format.
    pub fn kind(self) -> FormatKind {
        match self {
            OutputFormat::Table | OutputFormat::Wide => FormatKind::Table,
            OutputFormat::Json | OutputFormat::Yaml => FormatKind::Structured,
            OutputFormat::Html | OutputFormat::Dot | OutputFormat::Mermaid => FormatKind::Picture,
            OutputFormat::Markdown | OutputFormat::Junit | OutputFormat::Sarif => FormatKind::Report,
        }
    }

    /// The name as typed after `-o`.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Table => "table",
            OutputFormat::Wide => "wide",
            OutputFormat::Json => "json",
            OutputFormat::Yaml => "yaml",
            OutputFormat::Html => "html",
            OutputFormat::Dot => "dot",
            OutputFormat::Mermaid => "mermaid",
            OutputFormat::Markdown => "markdown",
            OutputFormat::Junit => "junit",
            OutputFormat::Sarif => "sarif",
        }
    }
}

/// `--color` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is unset.
    Auto,
    /// Always colour table output.
    Always,
    /// Never colour.
    Never,
}

/// `--fail-on` values, from strictest to loosest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Never fail on findings.
    None,
    /// Fail when live hints differ from what the controller would keep or write.
    Drift,
    /// Also fail when a safeguard or constraint blocks hints that were asked for.
    Blocked,
    /// Also fail on Unmanaged Services.
    Any,
}

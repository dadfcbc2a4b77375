//! The flags several subcommands share, in groups (kubectl's names and meanings). Each subcommand
//! flattens only the groups it uses, so its `--help`, its man page and completion list exactly
//! those (`cli::groups::USED_BY` is the table, and a test holds every `--help` to it);
//! [`super::Command::shared`] gathers what was typed into one [`GlobalArgs`] for `settings`.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};

use super::{ColorChoice, Output, OutputFormat};

/// `-f`: a dump instead of a live cluster.
#[derive(Debug, Args)]
pub struct FromFile {
    /// Read a saved dump instead of a live cluster (`kubectl get nodes,services,endpointslices,events
    /// -A -o yaml`); `-` reads stdin.
    #[arg(short = 'f', long, value_name = "PATH", action = clap::ArgAction::Append)]
    pub from_file: Vec<PathBuf>,
}

/// `-n`.
#[derive(Debug, Args)]
pub struct Namespace {
    /// Namespace of the Service(s).
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,
}

/// `-A`.
#[derive(Debug, Args)]
pub struct AllNamespaces {
    /// All namespaces.
    #[arg(short = 'A', long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", hide_default_value = true, hide_possible_values = true, value_name = "BOOL", value_parser = crate::cli::shared::boolean())]
    pub all_namespaces: bool,
}

/// `-l`.
#[derive(Debug, Args)]
pub struct Selector {
    /// Label selector for Services, e.g. `app=web,tier!=db`.
    #[arg(short = 'l', long)]
    pub selector: Option<String>,
}

/// `--k8s-version`.
#[derive(Debug, Args)]
pub struct K8sVersion {
    /// Model the controller and kube-proxy of this Kubernetes minor version (1.21–1.37). Default: the
    /// server's version (live, or recorded by `dump`), else the newest kubelet's, else 1.37.
    #[arg(long, value_name = "1.NN")]
    pub k8s_version: Option<String>,
}

/// How a run looks: `--no-headers`, `--color`, `--quiet`.
#[derive(Debug, Args)]
pub struct TableLook {
    /// Print no `note:` lines on stderr (errors and their hints still are).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", hide_default_value = true, hide_possible_values = true, value_name = "BOOL", value_parser = crate::cli::shared::boolean())]
    pub quiet: bool,
    /// Omit table headers.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", hide_default_value = true, hide_possible_values = true, value_name = "BOOL", value_parser = crate::cli::shared::boolean())]
    pub no_headers: bool,
    /// When to colour the table output (NO_COLOR and non-TTY stdout disable `auto`).
    #[arg(long, value_enum, ignore_case = true, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// The groups of every subcommand that reads a cluster or a dump into a report (zones, explain,
/// check, simulate): `-f`, `--k8s-version`, the table's look and the connection.
#[derive(Debug, Args)]
pub struct ReadArgs {
    #[command(flatten)]
    pub file: FromFile,
    #[command(flatten)]
    pub version: K8sVersion,
    #[command(flatten)]
    pub look: TableLook,
    #[command(flatten)]
    pub connection: Connection,
}

/// kubectl's kubeconfig and connection flags, for the subcommands that talk to a cluster.
#[derive(Debug, Clone, Default, Args)]
pub struct Connection {
    /// Path to the kubeconfig file.
    #[arg(long)]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context to use.
    #[arg(long, action = clap::ArgAction::Append)]
    pub context: Vec<String>,
    /// The kubeconfig cluster to use.
    #[arg(long)]
    pub cluster: Option<String>,
    /// The kubeconfig user to use.
    #[arg(long)]
    pub user: Option<String>,
    /// Timeout for each API request, e.g. `10s`, `1m` (0 = none) [default: 30s; `version`: 5s].
    #[arg(long, value_name = "DURATION")]
    pub request_timeout: Option<String>,
    /// The address and port of the Kubernetes API server (overrides the kubeconfig's).
    #[arg(short = 's', long, value_name = "URL")]
    pub server: Option<String>,
    /// Bearer token for authentication to the API server.
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
    /// Path to a cert file for the certificate authority.
    #[arg(long, value_name = "PATH")]
    pub certificate_authority: Option<PathBuf>,
    /// Do not check the server's certificate: insecure.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value = "false", hide_default_value = true, hide_possible_values = true, value_name = "BOOL", value_parser = crate::cli::shared::boolean())]
    pub insecure_skip_tls_verify: bool,
    /// Server name to validate the server's certificate against.
    #[arg(long, value_name = "NAME")]
    pub tls_server_name: Option<String>,
    /// User to impersonate for the requests.
    #[arg(long = "as", value_name = "USER")]
    pub as_user: Option<String>,
    /// Group to impersonate (repeatable; needs --as).
    #[arg(long, value_name = "GROUP")]
    pub as_group: Vec<String>,
    /// Log level: 6 or more prints each API request (method, URL, status, time) on stderr.
    #[arg(short = 'v', long = "v", value_name = "LEVEL", default_value_t = 0)]
    pub verbosity: u8,
}

/// A boolean flag's value as pflag reads `--flag=VALUE` (Go's `strconv.ParseBool`): `1`, `t`, `T`,
/// `TRUE`, `true`, `True` and their false twins; `--flag` alone is `true`.
pub(crate) fn boolean() -> impl TypedValueParser<Value = bool> {
    PossibleValuesParser::new([
        "true", "false", "1", "0", "t", "f", "TRUE", "FALSE", "True", "False", "T", "F",
    ])
    .map(|v| matches!(v.as_str(), "true" | "1" | "t" | "T" | "TRUE" | "True"))
}

/// The `-o` values of a subcommand: `names` of [`OutputFormat`], with their help; `jsonpath` is
/// typed `jsonpath=TEMPLATE` (as kubectl takes it, the template also in `{…}` after `jsonpath=`).
pub(crate) fn formats(names: &'static [&'static str]) -> FormatParser {
    FormatParser { names }
}

/// The parser of [`formats`].
#[derive(Debug, Clone)]
pub(crate) struct FormatParser {
    names: &'static [&'static str],
}

impl FormatParser {
    fn values(&self) -> impl Iterator<Item = clap::builder::PossibleValue> + '_ {
        OutputFormat::value_variants()
            .iter()
            .filter_map(ValueEnum::to_possible_value)
            .filter(|v| self.names.contains(&v.get_name()))
    }
}

impl TypedValueParser for FormatParser {
    type Value = Output;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Output, clap::Error> {
        let text = value.to_string_lossy();
        let jsonpath = text.get(..9).filter(|p| p.eq_ignore_ascii_case("jsonpath=")).map(|_| &text[9..]);
        if let (Some(template), true) = (jsonpath, self.names.contains(&"jsonpath")) {
            return Ok(Output { format: OutputFormat::Jsonpath, template: Some(template.to_string()) });
        }
        let name = PossibleValuesParser::new(self.values()).parse_ref(cmd, arg, value)?;
        let format = OutputFormat::from_str(&name, true).unwrap_or(OutputFormat::Table);
        if format == OutputFormat::Jsonpath {
            // `-o jsonpath` without `=TEMPLATE`: kubectl's own refusal, in its words.
            let mut error = clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd);
            error.insert(
                clap::error::ContextKind::InvalidArg,
                clap::error::ContextValue::String("--output".into()),
            );
            error.insert(clap::error::ContextKind::InvalidValue, clap::error::ContextValue::String(name));
            return Err(error);
        }
        Ok(Output { format, template: None })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(self.values()))
    }
}

/// `check`'s `-f`: repeatable, a directory too.
pub(crate) const CHECK_FROM_FILE_HELP: &str = "Read a saved dump instead of a live cluster (`kubectl get \
    nodes,services,endpointslices,events -A -o yaml`); `-` reads stdin. Repeatable, and a directory \
    reads every *.yaml, *.yml and *.json in it, each as its own cluster";
/// `check`'s `--context`: repeatable.
pub(crate) const CHECK_CONTEXT_HELP: &str = "The kubeconfig context to use (repeatable: one cluster each)";
/// `dump`'s `-f`: converted and narrowed, or redacted.
pub(crate) const DUMP_FROM_FILE_HELP: &str = "Write this saved dump again instead of reading a live cluster: as it \
    is, converted (-o json) and narrowed to the namespace (-n, default `default`; -A keeps all), or \
    redacted with --redact; `-` reads stdin";
/// `--k8s-version` of `watch` and `serve`, which read no dump.
pub(crate) const LIVE_K8S_VERSION_HELP: &str = "Model the controller and kube-proxy of this Kubernetes minor \
    version (1.21–1.37). Default: the server's version, else the newest kubelet's, else 1.37";

/// `dump`'s `-o`: the objects as read, not the report model.
pub(crate) fn dump_formats() -> impl TypedValueParser<Value = Output> {
    use clap::builder::PossibleValue;
    PossibleValuesParser::new([
        PossibleValue::new("json")
            .help("The objects as one JSON List, like `kubectl get -o json` (read back faster)"),
        PossibleValue::new("yaml").help("The objects as one YAML List, like `kubectl get -o yaml`"),
    ])
    .map(|name| {
        let format = if name.eq_ignore_ascii_case("json") { OutputFormat::Json } else { OutputFormat::Yaml };
        Output { format, template: None }
    })
}

/// `-o` of `zones`.
pub(crate) const ZONES_FORMATS: &[&str] = &["table", "json", "yaml", "jsonpath"];
/// `-o` of `explain` and `simulate`: tables, the report model, the pictures, kubectl's extracts.
pub(crate) const REPORT_FORMATS: &[&str] =
    &["table", "wide", "json", "yaml", "html", "dot", "mermaid", "name", "jsonpath"];
/// `-o` of `simulate`: every format (`markdown`, `junit`, `sarif` with `--apply`).
pub(crate) const SIMULATE_FORMATS: &[&str] = CHECK_FORMATS;
/// `-o` of `check`: every format.
pub(crate) const CHECK_FORMATS: &[&str] = &[
    "table", "wide", "json", "yaml", "html", "dot", "mermaid", "markdown", "junit", "sarif", "name",
    "jsonpath",
];
/// `-o` of `watch`.
pub(crate) const WATCH_FORMATS: &[&str] = &["table", "wide", "json", "yaml"];
/// `-o` of `version`.
pub(crate) const VERSION_FORMATS: &[&str] = &["table", "json", "yaml"];

/// The shared flags of any subcommand, gathered by [`super::Command::shared`] (absent ones at
/// their defaults): what `settings` resolves.
#[derive(Debug, Default)]
pub struct GlobalArgs {
    /// `-f`.
    pub from_file: Vec<PathBuf>,
    /// `--k8s-version`.
    pub k8s_version: Option<String>,
    /// `-n`.
    pub namespace: Option<String>,
    /// `-A`.
    pub all_namespaces: bool,
    /// `-l`.
    pub selector: Option<String>,
    /// `-o`.
    pub output: Option<Output>,
    /// `--no-headers`.
    pub no_headers: bool,
    /// `--quiet`.
    pub quiet: bool,
    /// `--color`.
    pub color: ColorChoice,
    /// The kubeconfig and connection flags, as the subcommand's group holds them.
    pub connection: Connection,
}

/// The groups a subcommand's arguments hold (None: it does not take them).
pub trait Groups {
    /// `-o`.
    fn output(&self) -> Option<Output> {
        None
    }
    /// `-f`.
    fn file(&self) -> Option<&FromFile> {
        None
    }
    /// `-n`.
    fn namespace(&self) -> Option<&Namespace> {
        None
    }
    /// `-A`.
    fn all(&self) -> Option<&AllNamespaces> {
        None
    }
    /// `-l`.
    fn selector(&self) -> Option<&Selector> {
        None
    }
    /// `--k8s-version`.
    fn version(&self) -> Option<&K8sVersion> {
        None
    }
    /// `--no-headers`, `--color`.
    fn look(&self) -> Option<&TableLook> {
        None
    }
    /// The kubeconfig and connection flags.
    fn connection(&self) -> Option<&Connection> {
        None
    }
}

impl GlobalArgs {
    /// What `groups` holds, the rest at its defaults.
    pub fn of(groups: &dyn Groups) -> GlobalArgs {
        let mut g = GlobalArgs { output: groups.output(), ..GlobalArgs::default() };
        if let Some(a) = groups.file() {
            g.from_file.clone_from(&a.from_file);
        }
        if let Some(a) = groups.namespace() {
            g.namespace.clone_from(&a.namespace);
        }
        g.all_namespaces = groups.all().is_some_and(|a| a.all_namespaces);
        if let Some(a) = groups.selector() {
            g.selector.clone_from(&a.selector);
        }
        if let Some(a) = groups.version() {
            g.k8s_version.clone_from(&a.k8s_version);
        }
        if let Some(a) = groups.look() {
            (g.no_headers, g.color, g.quiet) = (a.no_headers, a.color, a.quiet);
        }
        if let Some(a) = groups.connection() {
            g.connection.clone_from(a);
        }
        g
    }
}

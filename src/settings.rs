//! Raw arguments plus ambient facts (captured once in `main`) → resolved [`Settings`]. Pure: every
//! policy decision about colour, scope, version and the Service reference is made here, and the
//! text of the what-if flags is parsed here ([`changes`]) into the typed changes of `core`.
//! `cli`'s values become the types of the modules that use them, once (`values.rs`: `-o` into
//! `render::Format`, `--fail-on` and `--sort-by` into `triage`'s; `sources.rs`: what `source`
//! reads); nothing below `settings` sees clap.

use std::time::Duration;

use crate::cli::{Cli, ColorChoice, Command, GlobalArgs, OutputFormat};
use crate::render::extract::{Extract, Template};
use crate::render::{Format, FormatKind};
use crate::source::dump_write::DumpFormat;
use crate::source::{Scope, SourceSpec};
use crate::triage::config::ConfigPath;
use crate::triage::{FailOn, View};
use topo_engine::core::analyze::TrafficModel;
use topo_engine::core::whatif::changes::Changes;
use topo_engine::model::Behaviour;
use topo_engine::model::selector::Selector;

pub use ambient::{Ambient, Locale};
pub use serve::{MetricList, MetricRegex, ServeJob, TlsFiles};

/// The resolved subcommand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Job {
    /// `zones`.
    Zones,
    /// `explain` one Service, or several in turn.
    Explain {
        /// Service names (the `svc/` prefix removed), at least one unless `behind` is given.
        names: Vec<String>,
        /// `explain deploy/NAME` (`statefulset/NAME`, `pod/NAME`): explain the Services in front
        /// of it instead.
        behind: Option<Behind>,
        /// `--exit-code` with its `--fail-on`; None without `--exit-code`.
        fail_on: Option<FailOn>,
        /// Where the config file (excludes, failure levels) is, as for `check`.
        config: ConfigPath,
    },
    /// `check`.
    Check(CheckJob),
    /// `dump` (live cluster only).
    Dump {
        /// `--redact`.
        redact: bool,
        /// `-o json` writes JSON; otherwise YAML.
        format: DumpFormat,
    },
    /// `simulate` one Service.
    Simulate {
        /// Service name (the `svc/` prefix removed).
        name: String,
        /// The changes.
        changes: Changes,
    },
    /// `simulate --apply`: rendered manifests over the cluster, every Service they affect.
    Apply(ApplyJob),
    /// `simulate --replicas MIN..MAX`: the stability certificate of one Service.
    Certify {
        /// Service name (the `svc/` prefix removed).
        name: String,
        /// The range and the spread.
        spec: CertifySpec,
    },
    /// `watch` (live cluster only).
    Watch {
        /// One Service (the `svc/` prefix removed), or every Service in scope.
        name: Option<String>,
    },
    /// `serve` (live cluster only, every namespace).
    Serve(ServeJob),
    /// `reasons [CODE]`: the reason reference, of one code or of all.
    Reasons(Option<topo_engine::report::reason::ReasonCode>),
    /// `completion SHELL`.
    Completion(clap_complete::Shell),
    /// `version`.
    Version {
        /// `--client`: the plugin's version only, no server asked.
        client: bool,
    },
}

/// What `check` does beyond reading: what it lists, what fails it, over which clusters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckJob {
    /// `--fail-on`.
    pub fail_on: FailOn,
    /// What to list, in which order.
    pub view: View,
    /// Where the config file (excludes, failure levels) is.
    pub config: ConfigPath,
    /// `--all-contexts`: every context of the kubeconfig.
    pub all_contexts: bool,
    /// `--list`: `-o json|yaml` as a `CheckReportList` even for one cluster.
    pub list: bool,
    /// `--certify`: read the workloads and certify every Auto Service (docs/stability.md#check).
    pub certify: bool,
}

/// Everything a run needs, decided once.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The subcommand.
    pub job: Job,
    /// Where objects come from (the first of `sources`).
    pub source: SourceSpec,
    /// Every source of a `check` over several clusters (`-f` and `--context` repeated); else one.
    pub sources: Vec<SourceSpec>,
    /// Namespace scope.
    pub scope: Scope,
    /// `-l` for Services.
    pub selector: Option<Selector>,
    /// `--k8s-version`, when given.
    pub behaviour: Option<Behaviour>,
    /// Output format (`json` for `-o name` and `-o jsonpath=…`).
    pub output: Format,
    /// `-o name`, `-o jsonpath=…`: what to print of the JSON document instead of it.
    pub extract: Option<Extract>,
    /// `--quiet`: no `note:` lines on stderr.
    pub quiet: bool,
    /// Colour table output.
    pub color: bool,
    /// The terminal takes UTF-8 (block characters in bars); otherwise ASCII.
    pub unicode: bool,
    /// `--no-headers`.
    pub no_headers: bool,
    /// Show a progress indicator on stderr.
    pub progress: bool,
    /// Name to show in messages: `kubectl topo` or `kubectl-topo`.
    pub bin_name: String,
    /// `--traffic`: where requests originate for the cross-zone share.
    pub traffic: TrafficModel,
    /// Threads that analyse Services side by side (`check`): the CPUs available, at most 8.
    pub workers: usize,
    /// Where prose (not tables) wraps on stdout: `COLUMNS`, else the terminal's width; None in a pipe.
    pub width: Option<usize>,
}

impl Settings {
    /// Resolve what was typed against the ambient facts.
    pub fn resolve(cli: Cli, ambient: &Ambient, bin_name: &str) -> Result<Settings, SettingsError> {
        let g = cli.command.shared();
        let output = g.output.as_ref().map_or(Format::Table, |o| Format::from(o.format));
        let extract = match g.output.as_ref().map(|o| (o.format, o.template.as_deref())) {
            Some((OutputFormat::Name, _)) => Some(Extract::Name),
            Some((OutputFormat::Jsonpath, Some(template))) => {
                Some(Extract::JsonPath(Template::parse(template)?))
            }
            _ => None,
        };
        let traffic = resolve_traffic(&cli.command)?;
        // Checked even with --from-file, where it is unused: a typo should not pass silently.
        let request_timeout = match (&g.connection.request_timeout, &cli.command) {
            (Some(typed), _) => parse_timeout(typed)?,
            // `version` answers at once: a server that says nothing in 5 s is reported, not awaited.
            (None, Command::Version(_)) => Some(VERSION_TIMEOUT),
            (None, _) => Some(DEFAULT_TIMEOUT),
        };
        let sources = sources::resolve(&cli.command, &g, request_timeout)?;
        let job = resolve_job(cli.command, &g, ambient)?;
        let source = sources[0].clone();
        let selector =
            g.selector.as_deref().map(Selector::parse).transpose().map_err(SettingsError::Selector)?;
        let behaviour = g.k8s_version.as_deref().map(str::parse).transpose()?;
        let color = resolve_color(output, g.color, ambient);
        Ok(Settings {
            job,
            source,
            sources,
            // -A wins over -n, as in kubectl (`kubectl get svc -A -n x` lists every namespace).
            scope: if g.all_namespaces { Scope::AllNamespaces } else { Scope::Namespace(g.namespace) },
            selector,
            behaviour,
            output,
            extract,
            quiet: g.quiet,
            color,
            unicode: ambient.locale.is_utf8(),
            no_headers: g.no_headers,
            progress: ambient.stderr_is_tty && !ambient.term_dumb,
            bin_name: bin_name.to_string(),
            traffic,
            workers: ambient.cpus.clamp(1, 8),
            width: ambient.stdout_width(),
        })
    }
}

/// The job a subcommand asks for, with the flag combinations it refuses.
fn resolve_job(command: Command, g: &GlobalArgs, ambient: &Ambient) -> Result<Job, SettingsError> {
    Ok(match command {
        Command::Zones(_) => Job::Zones,
        Command::Explain(a) => Job::Explain {
            behind: behind::parse(&a.service)?,
            names: match behind::parse(&a.service)? {
                Some(_) => Vec::new(),
                None => explain_names(&a.service, g)?,
            },
            config: check_settings::config_path(a.config.clone(), ambient),
            // `--fail-on` says what should fail: it asks for the exit code by itself.
            fail_on: (a.exit_code || a.fail_on.is_some())
                .then(|| a.fail_on.unwrap_or(crate::cli::FailOn::Drift).into()),
        },
        Command::Check(a) => Job::Check(CheckJob {
            fail_on: a.fail_on.into(),
            view: check_settings::view(&a)?,
            config: check_settings::config_path(a.config, ambient),
            all_contexts: a.all_contexts,
            list: a.list,
            certify: a.certify,
        }),
        Command::Dump(a) => {
            // The parser takes only -o yaml and -o json for dump (`cli::shared::dump_formats`).
            let format = match g.output.as_ref().map_or(OutputFormat::Yaml, |o| o.format) {
                OutputFormat::Json => DumpFormat::Json,
                OutputFormat::Yaml => DumpFormat::Yaml,
                _ => return Err(SettingsError::DumpWide),
            };
            Job::Dump { redact: a.redact, format }
        }
        Command::Simulate(a) => apply::simulate_job(&a, g)?,
        Command::Watch(a) => {
            if !a.service.is_empty() && g.all_namespaces {
                return Err(SettingsError::WatchOneWithAll);
            }
            Job::Watch { name: (!a.service.is_empty()).then(|| parse_service_words(&a.service)).transpose()? }
        }
        Command::Serve(a) => serve::job(a, ambient)?,
        Command::Reasons(a) => Job::Reasons(a.code),
        Command::Completion(a) => Job::Completion(a.shell),
        Command::Version(a) => Job::Version { client: a.client },
    })
}

/// Colour is one decision: the flag, then NO_COLOR, TERM=dumb and a TTY; only for tables, never
/// inside a structured, picture or report format.
fn resolve_color(output: Format, choice: ColorChoice, ambient: &Ambient) -> bool {
    let structured = output.kind() != FormatKind::Table;
    !structured
        && match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => ambient.stdout_is_tty && !ambient.no_color && !ambient.term_dumb,
        }
}

/// `svc/NAME`, `service/NAME`, `services/NAME` or a bare `NAME` → `NAME`.
pub fn parse_service_ref(text: &str) -> Result<String, SettingsError> {
    let bad = || SettingsError::ServiceRef(text.to_string());
    // kubectl matches resource names in any case (`Service/x`, `SVC/x`).
    let name = match text.split_once('/') {
        Some((kind, name)) if is_service_kind(kind) => name,
        Some(_) => return Err(SettingsError::NotAService(text.to_string())),
        None => text,
    };
    let valid = !name.is_empty()
        && name.len() <= 253
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    if valid { Ok(name.to_string()) } else { Err(bad()) }
}

/// The Service as kubectl takes a resource: `TYPE/NAME` or `NAME` in one word, or `TYPE NAME` in
/// two (`explain svc demo`) → `NAME`.
pub(crate) fn parse_service_words(words: &[String]) -> Result<String, SettingsError> {
    match words {
        [one] => parse_service_ref(one),
        [kind, name] if is_service_kind(kind) && !name.contains('/') => parse_service_ref(name),
        [kind, _] if !kind.contains('/') => Err(SettingsError::NotAService(kind.clone())),
        _ => Err(SettingsError::OneService(words.join(" "))),
    }
}

/// The Services of `explain`: one as [`parse_service_words`] takes it, or several as kubectl's
/// `get` takes them (`svc/A svc/B`, or `svc A B`); several are drawn one picture at a time only.
fn explain_names(words: &[String], g: &GlobalArgs) -> Result<Vec<String>, SettingsError> {
    let names = match words {
        [_] | [_, _] if parse_service_words(words).is_ok() => return Ok(vec![parse_service_words(words)?]),
        [kind, names @ ..] if is_service_kind(kind) => names
            .iter()
            .map(|n| {
                if n.contains('/') {
                    Err(SettingsError::OneService(words.join(" ")))
                } else {
                    parse_service_ref(n)
                }
            })
            .collect::<Result<Vec<_>, _>>()?,
        _ if words.iter().all(|w| w.contains('/')) => {
            words.iter().map(|w| parse_service_ref(w)).collect::<Result<Vec<_>, _>>()?
        }
        _ => return parse_service_words(words).map(|name| vec![name]),
    };
    let picture =
        g.output.as_ref().map(|o| Format::from(o.format)).is_some_and(|f| f.kind() == FormatKind::Picture);
    if names.len() > 1 && picture {
        return Err(SettingsError::SeveralPictures);
    }
    Ok(names)
}

/// A resource type that means Services, as kubectl resolves it: the short name, the singular, the
/// plural, each with the version and the (empty) core group (`service.v1.`), in any case.
pub(crate) fn is_service_kind(kind: &str) -> bool {
    let kind = kind.to_ascii_lowercase();
    let resource = kind.strip_suffix(".v1.").or_else(|| kind.strip_suffix(".v1")).unwrap_or(&kind);
    matches!(resource, "svc" | "service" | "services")
}

/// `--request-timeout` as kubectl reads it: an integer is seconds, else a Go duration (`500ms`,
/// `1.5s`, `1m30s`); `0` is no timeout.
pub(crate) fn parse_timeout(text: &str) -> Result<Option<Duration>, SettingsError> {
    let t = text.trim();
    let parsed = match t.parse::<u64>() {
        Ok(secs) => Some(Duration::from_secs(secs)),
        Err(_) => duration::parse_go_duration(t),
    };
    match parsed {
        Some(d) => Ok((!d.is_zero()).then_some(d)),
        None => Err(SettingsError::Timeout(text.to_string())),
    }
}

mod ambient;
mod apply;
pub use apply::ApplyJob;
mod behind;
pub(crate) use behind::kind_of as behind_kind;
pub use behind::{Behind, BehindKind};
mod certify;
pub use certify::CertifySpec;
pub mod changes;
mod check_settings;
mod duration;
pub(crate) use duration::{DEFAULT_TIMEOUT, VERSION_TIMEOUT};
mod error;
pub use error::SettingsError;
mod serve;
mod sources;
mod values;
mod whatif_settings;
use whatif_settings::resolve_traffic;

#[cfg(test)]
mod tests;

//! Which subcommand uses which shared flag. The shared flags are declared once (kubectl's names,
//! accepted before or after the subcommand), so clap accepts them everywhere; a flag a subcommand
//! would silently ignore is refused here, with exit 2 and a hint at that subcommand's help.
//!
//! | flag | used by |
//! |---|---|
//! | `-n` | explain, check, dump, simulate, watch |
//! | `-A` | check, dump, watch |
//! | `-l` | check, watch |
//! | `-f` | zones, explain, check, simulate, dump with `--redact` (watch, and dump without `--redact`, refuse it in `resolve_job`) |
//! | `--k8s-version` | zones, explain, check, simulate, watch |
//! | `-o wide` | explain, check, simulate, watch |
//! | `-o table` | not dump (it writes YAML or JSON) |
//! | `--no-headers` | zones, explain, check, simulate, watch |
//! | any of these | not completion |
//! | `-n`, `-A`, `-l`, `-o`, `--no-headers` | not serve (it watches every namespace and serves metrics) |

use super::SettingsError;
use crate::cli::{Command, GlobalArgs, OutputFormat};

/// The first shared flag `command` does not use, as an error.
pub fn check(command: &Command, g: &GlobalArgs) -> Result<(), SettingsError> {
    let name = command_name(command);
    let refuse = |flag: &'static str, why: &'static str| {
        Err(SettingsError::NotForCommand { command: name, flag, why })
    };
    let (one_service, zones, dump, version, completion) = (
        matches!(command, Command::Explain(_) | Command::Simulate(_)),
        matches!(command, Command::Zones),
        matches!(command, Command::Dump(_)),
        matches!(command, Command::Version),
        matches!(command, Command::Completion(_)),
    );
    if matches!(command, Command::Serve(_)) {
        return serve(g);
    }
    let no_namespace = zones || version || completion;
    if g.namespace.is_some() && no_namespace {
        return refuse("-n", "it reads no namespaced object (Nodes, the server, nothing)");
    }
    if g.all_namespaces && (one_service || no_namespace) {
        return refuse("-A", "it reads one Service or no Services at all; name the namespace with -n");
    }
    if g.selector.is_some() && !matches!(command, Command::Check(_) | Command::Watch(_)) {
        return refuse("-l", "the label selector picks Services for check and watch only");
    }
    if !g.from_file.is_empty() && (version || completion) {
        return refuse("-f", "it reads no dump; `check -f` and `explain -f` do");
    }
    if g.k8s_version.is_some() && (dump || version || completion) {
        return refuse("--k8s-version", "it models no behaviour; the reports (explain, check…) do");
    }
    if g.no_headers && (dump || version || completion) {
        return refuse("--no-headers", "it writes no table");
    }
    match g.output {
        Some(OutputFormat::Wide) if zones || version => {
            refuse("-o wide", "it has no wide columns: use -o table, json or yaml")
        }
        Some(OutputFormat::Table | OutputFormat::Wide) if dump => {
            refuse("-o table", "dump writes YAML (the default, -o yaml) or JSON (-o json)")
        }
        Some(_) if completion => refuse("-o", "it writes a shell script"),
        _ => Ok(()),
    }
}

/// `serve` watches every namespace and writes metrics, not reports.
fn serve(g: &GlobalArgs) -> Result<(), SettingsError> {
    let refuse = |flag: &'static str, why: &'static str| {
        Err(SettingsError::NotForCommand { command: "serve", flag, why })
    };
    let why_scope = "serve watches every namespace and exports every Service; filter in PromQL";
    if g.namespace.is_some() {
        return refuse("-n", why_scope);
    }
    if g.all_namespaces {
        return refuse("-A", "serve always watches every namespace");
    }
    if g.selector.is_some() {
        return refuse("-l", why_scope);
    }
    if g.output.is_some() || g.no_headers {
        return refuse(
            if g.no_headers { "--no-headers" } else { "-o" },
            "serve writes metrics at /metrics, not a report",
        );
    }
    Ok(())
}

/// The subcommand as typed.
pub fn command_name(command: &Command) -> &'static str {
    match command {
        Command::Zones => "zones",
        Command::Explain(_) => "explain",
        Command::Check(_) => "check",
        Command::Dump(_) => "dump",
        Command::Simulate(_) => "simulate",
        Command::Watch(_) => "watch",
        Command::Completion(_) => "completion",
        Command::Version => "version",
        Command::Serve(_) => "serve",
    }
}

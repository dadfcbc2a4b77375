//! Entry point: parse, capture ambient facts once, resolve settings, run, print an error at most
//! once, map to an exit code.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
use kubectl_topo::cli::Cli;
use kubectl_topo::cli::usage_error::{ParseOutcome, usage_error};
use kubectl_topo::exit::ExitStatus;
use kubectl_topo::settings::{Ambient, Settings};

fn main() -> ExitCode {
    let argv0 = std::env::args_os().next().map(|a| a.to_string_lossy().into_owned()).unwrap_or_default();
    let bin_name = kubectl_topo::app::display_name(&argv0);
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if let Some(status) = kubectl_topo::internal::run(&args, &mut std::io::stdout().lock()) {
        return status.into();
    }
    let parsed = Cli::command()
        .bin_name(bin_name.clone())
        .try_get_matches_from(std::iter::once(argv0.clone().into()).chain(args.iter().cloned()))
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => match usage_error(&e, &bin_name, &args) {
            ParseOutcome::ClapText => e.exit(),
            ParseOutcome::Usage { error, hint } => {
                eprintln!("error: {error}\nhint: {hint}");
                return ExitStatus::Usage.into();
            }
        },
    };
    let ambient = Ambient {
        cpus: std::thread::available_parallelism().map_or(0, usize::from),
        stdout_is_tty: std::io::stdout().is_terminal(),
        stderr_is_tty: std::io::stderr().is_terminal(),
        no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        term_dumb: std::env::var("TERM").is_ok_and(|t| t == "dumb"),
        config_env: std::env::var_os("KUBECTL_TOPO_CONFIG").filter(|v| !v.is_empty()).map(Into::into),
        config_home: std::env::var_os("XDG_CONFIG_HOME")
            .filter(|v| !v.is_empty())
            .map(std::path::PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| Path::new(&h).join(".config"))
            }),
    };
    // Not locked for the whole run: the progress indicator writes to stderr from its own thread.
    let mut stderr = std::io::stderr();
    let status = match Settings::resolve(cli, &ambient, &bin_name) {
        Ok(settings) => kubectl_topo::app::run(&settings, &mut std::io::stdout().lock(), &mut stderr),
        Err(e) => Err(e.into()),
    };
    match status {
        Ok(status) => status.into(),
        Err(error) => {
            let _ = writeln!(stderr, "error: {error}");
            if let Some(hint) = error.hint(&bin_name) {
                let _ = writeln!(stderr, "hint: {hint}");
            }
            error.exit_status().into()
        }
    }
}

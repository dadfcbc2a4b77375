//! Entry point: capture the ambient facts once and run the command line ([`kubectl_topo::entry`])
//! on the process's own stdout and stderr.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use kubectl_topo::settings::{Ambient, Locale};

/// mimalloc rather than the system allocator: a dump is millions of small objects, and glibc's
/// malloc (musl's, in the static release builds, even more) spends a third of `check`'s CPU on
/// them (BENCHMARKS.md, "The allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let argv0 = std::env::args_os().next().map(|a| a.to_string_lossy().into_owned()).unwrap_or_default();
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let (stdout, stderr) = (std::io::stdout(), std::io::stderr());
    let columns = |terminal: bool, size: Option<(terminal_size::Width, terminal_size::Height)>| {
        size.filter(|_| terminal).map(|(w, _)| usize::from(w.0))
    };
    let ambient = Ambient {
        columns: std::env::var("COLUMNS").ok(),
        stdout_columns: columns(stdout.is_terminal(), terminal_size::terminal_size_of(&stdout)),
        stderr_columns: columns(stderr.is_terminal(), terminal_size::terminal_size_of(&stderr)),
        cpus: std::thread::available_parallelism().map_or(0, usize::from),
        stdout_is_tty: std::io::stdout().is_terminal(),
        stderr_is_tty: std::io::stderr().is_terminal(),
        no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        term_dumb: std::env::var("TERM").is_ok_and(|t| t == "dumb"),
        locale: Locale {
            lc_all: std::env::var("LC_ALL").ok(),
            lc_ctype: std::env::var("LC_CTYPE").ok(),
            lang: std::env::var("LANG").ok(),
        },
        config_env: std::env::var_os("KUBECTL_TOPO_CONFIG").filter(|v| !v.is_empty()).map(Into::into),
        config_home: std::env::var_os("XDG_CONFIG_HOME")
            .filter(|v| !v.is_empty())
            .map(std::path::PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| Path::new(&h).join(".config"))
            }),
    };
    // stderr is not locked for the whole run: the progress indicator writes from its own thread.
    let status = kubectl_topo::entry::run(
        &argv0,
        &args,
        &ambient,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr(),
    );
    status.into()
}

//! Entry points for tools rather than people, answered before the parser runs so that `--help`,
//! the generated completion scripts and the man page never show them:
//!
//! - `kubectl-topo __complete WORD… CURRENT`: kubectl's plugin completion (see `completion`),
//!   run by `completions/kubectl_complete-topo`; the words are taken as they are, flags included.
//! - `kubectl-topo __man`: the man page (roff), generated from the parser by clap_mangen.

use std::ffi::OsString;
use std::io::Write;

use clap::CommandFactory;

use crate::cli::Cli;
use crate::completion::{self, SourceLookup};
use crate::exit::ExitStatus;

/// Run an internal entry point when `args` (without argv\[0\]) names one; `None` otherwise.
pub fn run(args: &[OsString], out: &mut dyn Write) -> Option<ExitStatus> {
    let (first, rest) = args.split_first()?;
    let written = match first.to_str()? {
        "__complete" => {
            let words: Vec<String> = rest.iter().map(|w| w.to_string_lossy().into_owned()).collect();
            completion::complete(&Cli::command(), &words, &mut SourceLookup).write(out)
        }
        "__man" => clap_mangen::Man::new(Cli::command()).render(out),
        _ => return None,
    };
    // A closed pipe is not an error (as everywhere else); any other write error is exit 2.
    Some(match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => ExitStatus::Usage,
        _ => ExitStatus::Ok,
    })
}

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

/// Run an internal entry point when `args` (without argv\[0\]) names one; `None` otherwise. A
/// write error is returned: `main` applies the output-error policy of every command.
pub fn run(args: &[OsString], out: &mut dyn Write) -> Option<std::io::Result<()>> {
    let (first, rest) = args.split_first()?;
    Some(match first.to_str()? {
        "__complete" => {
            let words: Vec<String> = rest.iter().map(|w| w.to_string_lossy().into_owned()).collect();
            completion::complete(&Cli::command(), &words, &mut SourceLookup).write(out)
        }
        "__man" => clap_mangen::Man::new(Cli::command()).render(out),
        _ => return None,
    })
}

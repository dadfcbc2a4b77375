//! Entry points for tools rather than people, answered before the parser runs so that `--help`,
//! the generated completion scripts and the man page never show them:
//!
//! - `kubectl-topo __complete WORD… CURRENT`: kubectl's plugin completion (see `completion`),
//!   run by `completions/kubectl_complete-topo`; the words are taken as they are, flags included.
//! - `kubectl-topo __man [PAGE]`: a man page (roff; `man.rs`): `kubectl-topo.1` by default, else
//!   PAGE (`kubectl-topo-check.1`: one per subcommand; `kubectl-topo-config.5`: the config file);
//!   `__man --list` names them all. `scripts/dist.sh` writes each into the release archives.

mod man;

use std::ffi::OsString;
use std::io::Write;

use clap::CommandFactory;

use crate::cli::Cli;
use crate::completion::{self, SourceLookup};

/// Run an internal entry point when `args` (without argv\[0\]) names one; `None` otherwise. A
/// write error is returned: `main` applies the output-error policy of every command.
pub(crate) fn run(args: &[OsString], out: &mut dyn Write) -> Option<std::io::Result<()>> {
    let (first, rest) = args.split_first()?;
    Some(match first.to_str()? {
        "__complete" => {
            let words: Vec<String> = rest.iter().map(|w| w.to_string_lossy().into_owned()).collect();
            completion::complete(&Cli::command(), &words, &mut SourceLookup).write(out)
        }
        "__man" => {
            let page = match rest.first() {
                Some(page) => Some(page.to_str()?),
                None => None,
            };
            man(page, out)?
        }
        _ => return None,
    })
}

/// `__man`: the first page, `__man --list`: every page's file name, `__man PAGE`: that page.
/// `None` for a PAGE that is not one (the parser then refuses the command line, as for any typo).
fn man(page: Option<&str>, out: &mut dyn Write) -> Option<std::io::Result<()>> {
    let pages = man::pages();
    Some(match page {
        None => out.write_all(&pages[0].text),
        Some("--list") => pages.iter().try_for_each(|p| writeln!(out, "{}", p.file)),
        Some(name) => out.write_all(&pages.iter().find(|p| p.file == name)?.text),
    })
}

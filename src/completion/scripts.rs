//! The scripts `kubectl-topo completion SHELL` prints. For bash, zsh and fish they are small
//! scripts that hand the words to `kubectl-topo __complete` (the protocol kubectl's plugin
//! completion already uses), so one walker over the parser completes both routes — and Service,
//! node and zone names, which a static script cannot. clap_complete's static bash script does not
//! work for a hyphenated binary name (nothing completes after a subcommand), hence our own.
//! PowerShell and elvish keep clap_complete's static scripts.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;

const BASH: &str = include_str!("shells/kubectl-topo.bash");
const ZSH: &str = include_str!("shells/_kubectl-topo");
const FISH: &str = include_str!("shells/kubectl-topo.fish");

/// Write the completion script for `shell` to `out`.
pub(crate) fn write(shell: Shell, out: &mut dyn Write) -> std::io::Result<()> {
    let dynamic = match shell {
        Shell::Bash => BASH,
        Shell::Zsh => ZSH,
        Shell::Fish => FISH,
        // Generated into memory first: clap_complete panics when its writer fails.
        other => {
            let mut script = Vec::new();
            clap_complete::generate(other, &mut Cli::command(), "kubectl-topo", &mut script);
            return out.write_all(&script);
        }
    };
    out.write_all(dynamic.as_bytes())
}

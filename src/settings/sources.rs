//! Where objects come from: `-f` (repeatable for `check`; `-` = stdin) or the live clusters of
//! `--context` (repeatable for `check`), with the kubeconfig flags. A directory given to `-f` is
//! expanded by `source` (that is I/O), as is `--all-contexts`.

use std::time::Duration;

use super::{DumpPath, LiveSpec, SettingsError, SourceSpec};
use crate::cli::{Command, GlobalArgs};

/// The sources in the order given (at least one).
pub fn resolve(
    command: &Command,
    g: &GlobalArgs,
    request_timeout: Option<Duration>,
) -> Result<Vec<SourceSpec>, SettingsError> {
    let check = matches!(command, Command::Check(_));
    if !check && (g.from_file.len() > 1 || g.context.len() > 1) {
        return Err(SettingsError::OneSource);
    }
    if let Command::Check(a) = command
        && a.all_contexts
        && !g.from_file.is_empty()
    {
        return Err(SettingsError::AllContextsFromFile);
    }
    if !g.from_file.is_empty() {
        return Ok(g
            .from_file
            .iter()
            .map(|p| {
                SourceSpec::Dump(if p.as_os_str() == "-" {
                    DumpPath::Stdin
                } else {
                    DumpPath::File(p.clone())
                })
            })
            .collect());
    }
    let live = |context: Option<String>| {
        SourceSpec::Live(LiveSpec {
            kubeconfig: g.kubeconfig.clone(),
            context,
            cluster: g.cluster.clone(),
            user: g.user.clone(),
            request_timeout,
        })
    };
    Ok(if g.context.is_empty() {
        vec![live(None)]
    } else {
        g.context.iter().cloned().map(Some).map(live).collect()
    })
}

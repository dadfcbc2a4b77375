//! Where objects come from: `-f` (repeatable for `check`; `-` = stdin) or the live clusters of
//! `--context` (repeatable for `check`), with the kubeconfig flags. A directory given to `-f` is
//! expanded by `source` (that is I/O), as is `--all-contexts`. The types are `source`'s own
//! ([`crate::source::SourceSpec`]): what it reads, decided here.

use std::time::Duration;

use super::SettingsError;
use crate::cli::{Command, Connection, GlobalArgs};
use crate::source::{DumpPath, LiveSpec, Overrides, Secret, SourceSpec};

/// The connection flags, checked as kubectl checks them: `--as-group` needs `--as`, and a
/// `--server` must be a URL (`host:port` gets `https://`).
pub(crate) fn overrides(c: &Connection) -> Result<Overrides, SettingsError> {
    if !c.as_group.is_empty() && c.as_user.is_none() {
        return Err(SettingsError::AsGroupWithoutAs);
    }
    let server = c.server.as_deref().map(server_url).transpose()?;
    Ok(Overrides {
        server,
        certificate_authority: c.certificate_authority.clone(),
        insecure_skip_tls_verify: c.insecure_skip_tls_verify,
        tls_server_name: c.tls_server_name.clone(),
        token: c.token.clone().map(Secret),
        impersonate: c.as_user.clone(),
        impersonate_groups: c.as_group.clone(),
    })
}

/// `--server` as a URL: kubectl adds `https://` to a bare `host:port`.
fn server_url(text: &str) -> Result<String, SettingsError> {
    let url = if text.contains("://") { text.to_string() } else { format!("https://{text}") };
    match url.parse::<http::Uri>() {
        Ok(uri)
            if uri.host().is_some_and(|h| !h.is_empty())
                && matches!(uri.scheme_str(), Some("http" | "https")) =>
        {
            Ok(url)
        }
        _ => Err(SettingsError::Server(text.to_string())),
    }
}

/// The sources in the order given (at least one).
pub(crate) fn resolve(
    command: &Command,
    g: &GlobalArgs,
    request_timeout: Option<Duration>,
) -> Result<Vec<SourceSpec>, SettingsError> {
    let overrides = overrides(&g.connection)?;
    let check = matches!(command, Command::Check(_));
    if !check && (g.from_file.len() > 1 || g.connection.context.len() > 1) {
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
            kubeconfig: g.connection.kubeconfig.clone(),
            context,
            cluster: g.connection.cluster.clone(),
            user: g.connection.user.clone(),
            request_timeout,
            overrides: Box::new(overrides.clone()),
            verbosity: g.connection.verbosity,
        })
    };
    Ok(if g.connection.context.is_empty() {
        vec![live(None)]
    } else {
        g.connection.context.iter().cloned().map(Some).map(live).collect()
    })
}

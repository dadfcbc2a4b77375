//! Connecting as kubectl does: the kubeconfig (`--kubeconfig`, else `KUBECONFIG` merged, else
//! `~/.kube/config`, else the in-cluster service account), the context, cluster and user chosen,
//! kubectl's connection flags laid over them ([`super::overrides`]), the exec credential plugin
//! run bounded, `--request-timeout`, and `-v` ([`super::request_log`]).

use std::path::PathBuf;
use std::time::Duration;

use kube::client::ClientBuilder;
use kube::config::{Kubeconfig, KubeconfigError};
use kube::{Client, Config};

use super::{exec, overrides, request_log};
use crate::source::LiveSpec;
use crate::source::error::SourceError;

/// A connected client plus the facts shown in messages.
pub struct Connection {
    /// The client.
    pub client: Client,
    /// `https://host:port` of the API server.
    pub server: String,
    /// Context name (`in-cluster` inside a Pod).
    pub context: String,
    /// The context's namespace (`default` when unset).
    pub default_namespace: String,
    /// `--request-timeout` (None = no limit).
    pub timeout: Option<Duration>,
}

/// Load the kubeconfig as kubectl does: `--kubeconfig` alone when given, else every file of
/// `KUBECONFIG` merged (first value wins), else `~/.kube/config`, else the in-cluster service
/// account. `--context`, `--cluster` and `--user` override the current context's parts, and the
/// connection flags (`--server`, `--token`, `--as`…) their fields.
pub async fn connect(spec: &LiveSpec) -> Result<Connection, SourceError> {
    let (mut config, context) = load_config(spec).await?;
    // The exec credential plugin, bounded, before kube sees the config (kube would run it unbounded).
    exec::resolve(&mut config, spec.request_timeout.unwrap_or(exec::DEFAULT_TIMEOUT))?;
    apply_timeout(&mut config, spec.request_timeout);
    // Our own bounded retry (`request::timed`) replaces kube's, which waits up to 1000 s.
    config.default_retry = false;
    let server = config.cluster_url.to_string().trim_end_matches('/').to_string();
    let default_namespace = config.default_namespace.clone();
    let client = build_client(config, &server, spec.verbosity).map_err(|source| SourceError::Kube {
        action: "connect to the API server".into(),
        server: server.clone(),
        source,
        attempts: 1,
    })?;
    Ok(Connection { client, server, context, default_namespace, timeout: spec.request_timeout })
}

/// The client, with the request log of `-v 6` when asked for.
fn build_client(config: Config, server: &str, verbosity: u8) -> Result<Client, kube::Error> {
    let builder = ClientBuilder::try_from(config)?;
    Ok(if verbosity >= request_log::REQUESTS {
        builder.with_layer(&request_log::RequestLog::new(server)).build()
    } else {
        builder.build()
    })
}

/// The kube `Config` and the context name shown in messages.
async fn load_config(spec: &LiveSpec) -> Result<(Config, String), SourceError> {
    let kubeconfig = match &spec.kubeconfig {
        Some(path) => Some(
            Kubeconfig::read_from(path)
                .map_err(|source| SourceError::Kubeconfig { path: Some(path.clone()), source })?,
        ),
        None => match read_kubeconfig_env() {
            Ok(k) => Some(k),
            // No kubeconfig but --server: the flags alone (kubectl too).
            Err(_) if spec.overrides.server.is_some() => Some(Kubeconfig::default()),
            // No KUBECONFIG and no ~/.kube/config: in a Pod, use the service account (kubectl does too).
            Err((_, KubeconfigError::FindPath | KubeconfigError::ReadConfig(..)))
                if std::env::var_os("KUBECONFIG").is_none() =>
            {
                None
            }
            Err((path, source)) => return Err(SourceError::Kubeconfig { path, source }),
        },
    };
    Ok(match kubeconfig {
        Some(mut kc) => {
            has_context(&kc, spec.context.as_deref())?;
            let (options, context) = overrides::apply(&mut kc, spec);
            let config = Config::from_custom_kubeconfig(kc, &options)
                .await
                .map_err(|source| SourceError::Kubeconfig { path: None, source })?;
            (config, context)
        }
        None => {
            let config = Config::incluster().map_err(SourceError::NoKubeconfig)?;
            (config, "in-cluster".to_string())
        }
    })
}

/// `--request-timeout` bounds connecting and reading too (each request is also wrapped in a timer).
fn apply_timeout(config: &mut Config, timeout: Option<Duration>) {
    if let Some(t) = timeout {
        config.connect_timeout = Some(config.connect_timeout.map_or(t, |c| c.min(t)));
        config.read_timeout = Some(t);
        config.write_timeout = Some(t);
    }
}

/// The context names of the kubeconfig (`--kubeconfig`, else `KUBECONFIG` merged, else
/// `~/.kube/config`), in file order: `check --all-contexts`.
pub(crate) fn context_names(path: Option<&std::path::Path>) -> Result<Vec<String>, SourceError> {
    Ok(read_kubeconfig(path)?.contexts.into_iter().map(|c| c.name).collect())
}

/// The kubeconfig at `path`, else `KUBECONFIG` merged, else `~/.kube/config`.
pub(crate) fn read_kubeconfig(path: Option<&std::path::Path>) -> Result<Kubeconfig, SourceError> {
    match path {
        Some(path) => Kubeconfig::read_from(path)
            .map_err(|source| SourceError::Kubeconfig { path: Some(path.to_path_buf()), source }),
        None => read_kubeconfig_env().map_err(|(path, source)| SourceError::Kubeconfig { path, source }),
    }
}

/// `--context NAME` must be a context of the kubeconfig: say which ones it has when it is not.
fn has_context(kubeconfig: &Kubeconfig, name: Option<&str>) -> Result<(), SourceError> {
    match name {
        Some(name) if !kubeconfig.contexts.iter().any(|c| c.name == name) => {
            Err(SourceError::NoSuchContext {
                name: name.to_string(),
                contexts: kubeconfig.contexts.iter().map(|c| c.name.clone()).collect(),
            })
        }
        _ => Ok(()),
    }
}

/// `KUBECONFIG` as kubectl reads it: every listed file merged (first value wins), files that do
/// not exist skipped; unset or all missing → `~/.kube/config`.
fn read_kubeconfig_env() -> Result<Kubeconfig, (Option<PathBuf>, KubeconfigError)> {
    let Some(value) = std::env::var_os("KUBECONFIG") else {
        return Kubeconfig::read().map_err(|e| (None, e));
    };
    let paths: Vec<PathBuf> =
        std::env::split_paths(&value).filter(|p| !p.as_os_str().is_empty() && p.exists()).collect();
    if paths.is_empty() {
        return Err((None, KubeconfigError::FindPath));
    }
    paths.iter().try_fold(Kubeconfig::default(), |merged, p| {
        let read = Kubeconfig::read_from(p).map_err(|e| (Some(p.clone()), e))?;
        merged.merge(read).map_err(|e| (Some(p.clone()), e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_timeout_bounds_connect_read_and_write() {
        let mut config = Config::new("https://127.0.0.1:6443".parse().unwrap());
        apply_timeout(&mut config, Some(Duration::from_secs(5)));
        assert_eq!(config.connect_timeout, Some(Duration::from_secs(5)));
        assert_eq!(config.read_timeout, Some(Duration::from_secs(5)));
        let mut config = Config::new("https://127.0.0.1:6443".parse().unwrap());
        let before = config.clone();
        apply_timeout(&mut config, None);
        assert_eq!(config.read_timeout, before.read_timeout);
    }
}

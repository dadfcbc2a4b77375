//! `serve`: a live cluster, an address to listen on, and what to export (kube-state-metrics'
//! filters, the per-zone series, the ignore rules of `check`).

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::PathBuf;

use super::{Ambient, Job, SettingsError, check_settings};
use crate::cli::{Auth, PerZoneSeries, ServeArgs};
use crate::triage::config::ConfigPath;

/// A regex of `--metric-allowlist`/`--metric-denylist`, compared by its text.
#[derive(Debug, Clone)]
pub struct MetricRegex(pub regex::Regex);

impl PartialEq for MetricRegex {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_str() == other.0.as_str()
    }
}

impl Eq for MetricRegex {}

/// Which metric families a scrape shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum MetricList {
    /// Every family.
    #[default]
    All,
    /// `--metric-allowlist`.
    Allow(Vec<MetricRegex>),
    /// `--metric-denylist`.
    Deny(Vec<MetricRegex>),
}

/// What `serve` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeJob {
    /// `--listen`.
    pub listen: SocketAddr,
    /// `--cluster-label`.
    pub cluster: Option<String>,
    /// `--per-zone-series=all`: every Service gets the per-zone series (else only those that
    /// asked for hints or have some).
    pub per_zone_all: bool,
    /// `--namespaces` (empty: all).
    pub namespaces: BTreeSet<String>,
    /// `--namespaces-denylist`.
    pub namespaces_denylist: BTreeSet<String>,
    /// `--metric-allowlist` or `--metric-denylist`.
    pub metrics: MetricList,
    /// Where the config file (excludes, levels) is, as for `check`.
    pub config: ConfigPath,
    /// `--tls-cert-file` and `--tls-private-key-file`: serve HTTPS.
    pub tls: Option<TlsFiles>,
    /// `--auth=tokenreview`: /metrics only for a caller the API server admits.
    pub token_review: bool,
}

/// The certificate chain and key `serve` answers HTTPS with (PEM files).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    /// `--tls-cert-file`.
    pub cert: PathBuf,
    /// `--tls-private-key-file`.
    pub key: PathBuf,
}

/// `serve`'s flags, checked.
pub(super) fn job(a: ServeArgs, ambient: &Ambient) -> Result<Job, SettingsError> {
    let listen = a.listen.parse().map_err(|_| SettingsError::ServeListen(a.listen.clone()))?;
    let tls = match (a.tls_cert_file, a.tls_private_key_file) {
        (Some(cert), Some(key)) => Some(TlsFiles { cert, key }),
        (None, None) => None,
        _ => return Err(SettingsError::TlsPair),
    };
    // A bearer token sent over plain HTTP can be read on the way and replayed against the API.
    let token_review = a.auth == Auth::Tokenreview;
    if token_review && tls.is_none() {
        return Err(SettingsError::AuthWithoutTls);
    }
    Ok(Job::Serve(ServeJob {
        listen,
        cluster: a.cluster_label,
        per_zone_all: a.per_zone_series == PerZoneSeries::All,
        namespaces: names(a.namespaces),
        namespaces_denylist: names(a.namespaces_denylist),
        metrics: metric_list(&a.metric_allowlist, &a.metric_denylist)?,
        config: check_settings::config_path(a.config, ambient),
        tls,
        token_review,
    }))
}

/// The names given, without empty ones (`a,,b`) and surrounding spaces.
fn names(values: Vec<String>) -> BTreeSet<String> {
    values.into_iter().map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect()
}

/// The two lists exclude each other, as in kube-state-metrics; every regex must compile.
fn metric_list(allow: &[String], deny: &[String]) -> Result<MetricList, SettingsError> {
    let compile = |flag: &'static str, list: &[String]| -> Result<Vec<MetricRegex>, SettingsError> {
        list.iter()
            .map(|r| r.trim())
            .filter(|r| !r.is_empty())
            .map(|r| {
                regex::Regex::new(r).map(MetricRegex).map_err(|e| SettingsError::MetricRegex {
                    flag,
                    regex: r.to_string(),
                    why: e.to_string().lines().last().unwrap_or_default().trim().to_string(),
                })
            })
            .collect()
    };
    let (allow, deny) = (compile("--metric-allowlist", allow)?, compile("--metric-denylist", deny)?);
    match (allow.is_empty(), deny.is_empty()) {
        (true, true) => Ok(MetricList::All),
        (false, true) => Ok(MetricList::Allow(allow)),
        (true, false) => Ok(MetricList::Deny(deny)),
        (false, false) => Err(SettingsError::MetricLists),
    }
}

#[cfg(test)]
mod tests;

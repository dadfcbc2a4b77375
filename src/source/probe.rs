//! Short, best-effort questions for shell completion and `version`: Service names, namespaces and
//! the server version. A dump is read as usual; a live cluster is asked with the short timeout the
//! caller put in its `LiveSpec`.
//!
//! Live-source hooks: until the live source is merged these answer "nothing" for a live cluster
//! (no candidates, no server line), which is also what they must answer when no cluster is
//! reachable. The live source fills them in with a metadata-only Service list and `/version`,
//! bounded by `LiveSpec::request_timeout`; namespaces are those holding Services, so completion
//! needs no permission beyond `deploy/rbac.yaml` (no `list namespaces`).

use crate::error::Error;
use crate::settings::{LiveSpec, SourceSpec};

/// Names of the Services in `namespace` (`None`: the default namespace of the source), sorted.
pub fn service_names(spec: &SourceSpec, namespace: Option<&str>) -> Result<Vec<String>, Error> {
    match spec {
        SourceSpec::Dump(_) => {
            let snapshot = super::load(spec, &mut std::io::sink())?;
            let namespace = namespace.unwrap_or("default");
            let mut names: Vec<String> =
                snapshot.services.into_iter().filter(|s| s.namespace == namespace).map(|s| s.name).collect();
            names.sort();
            names.dedup();
            Ok(names)
        }
        SourceSpec::Live(live) => live_service_names(live, namespace),
    }
}

/// Namespaces that hold Services, sorted.
pub fn namespaces(spec: &SourceSpec) -> Result<Vec<String>, Error> {
    match spec {
        SourceSpec::Dump(_) => {
            let snapshot = super::load(spec, &mut std::io::sink())?;
            let mut names: Vec<String> = snapshot.services.into_iter().map(|s| s.namespace).collect();
            names.sort();
            names.dedup();
            Ok(names)
        }
        SourceSpec::Live(live) => live_namespaces(live),
    }
}

/// The server's `gitVersion` (e.g. `v1.36.3`), or `None` when no cluster is configured or
/// reachable within the request timeout.
pub fn server_version(live: &LiveSpec) -> Option<String> {
    let _ = live;
    None // live-source hook: GET /version
}

/// Live-source hook: list Service metadata in `namespace` (kubeconfig's namespace when `None`).
fn live_service_names(live: &LiveSpec, namespace: Option<&str>) -> Result<Vec<String>, Error> {
    let _ = (live, namespace);
    Ok(Vec::new())
}

/// Live-source hook: the namespaces of a cluster-wide metadata-only Service list.
fn live_namespaces(live: &LiveSpec) -> Result<Vec<String>, Error> {
    let _ = live;
    Ok(Vec::new())
}

//! Live cluster access: kubeconfig loading as kubectl does it, paged reads of Nodes, Services,
//! EndpointSlices and Events, and the server version. Read-only: only `get` and `list` are sent.
//!
//! This module only *lists*; turning k8s-openapi objects into the model is the pure functions of
//! `source::convert` (style practice 2). The raw objects are kept for `kubectl topo dump`.

use std::path::PathBuf;
use std::time::Duration;

use k8s_openapi::api::core::v1::{Event as CoreEvent, Node, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::api::{Api, ListParams};
use kube::config::{KubeConfigOptions, Kubeconfig, KubeconfigError};
use kube::{Client, Config};

use crate::prose;
use crate::settings::{LiveSpec, Scope};
use crate::source::convert;
pub use crate::source::convert::Raw;
use crate::source::error::{ServiceNotFound, SourceError};
use topo_engine::model::{LABEL_SERVICE_NAME, Snapshot};

pub mod exec;
mod request;
pub use request::{LIST_RESTARTS, PAGE_SIZE, RETRY, RetryPolicy, list_all, list_paged, retryable, timed};

/// What a command needs from the cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Want {
    /// Namespace scope.
    pub namespace: Namespace,
    /// `explain NAME`: one Service and its slices (by the `kubernetes.io/service-name` label).
    pub service: Option<String>,
    /// `zones`: Nodes only.
    pub nodes_only: bool,
}

/// The namespace scope of a read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Namespace {
    /// `-A`.
    All,
    /// `-n NS`.
    Named(String),
    /// Neither: the kubeconfig context's namespace (`default` when it names none).
    FromContext,
}

impl From<&Scope> for Namespace {
    fn from(scope: &Scope) -> Self {
        match scope {
            Scope::AllNamespaces => Namespace::All,
            Scope::Namespace(Some(ns)) => Namespace::Named(ns.clone()),
            Scope::Namespace(None) => Namespace::FromContext,
        }
    }
}

impl Namespace {
    /// The namespace read, given the one of the context (`None` for `-A`).
    pub fn resolve(&self, context: &str) -> Option<String> {
        match self {
            Namespace::All => None,
            Namespace::Named(ns) => Some(ns.clone()),
            Namespace::FromContext => Some(context.to_string()),
        }
    }
}

/// A live read: the Snapshot the engine uses and the raw objects behind it.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// Same shape as a dump produces.
    pub snapshot: Snapshot,
    /// What was read, for `dump`.
    pub raw: Raw,
    /// The namespace the read resolved to (`None` for `-A`).
    pub namespace: Option<String>,
}

/// Read what `want` asks for. Builds a current-thread runtime: `source` is the only place with I/O,
/// and the rest of the program stays synchronous.
pub fn load(spec: &LiveSpec, want: &Want) -> Result<Loaded, SourceError> {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(SourceError::Runtime)?;
    runtime.block_on(load_async(spec, want))
}

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
/// account. `--context`, `--cluster` and `--user` override the current context's parts.
pub async fn connect(spec: &LiveSpec) -> Result<Connection, SourceError> {
    let options = KubeConfigOptions {
        context: spec.context.clone(),
        cluster: spec.cluster.clone(),
        user: spec.user.clone(),
    };
    let kubeconfig = match &spec.kubeconfig {
        Some(path) => Some(
            Kubeconfig::read_from(path)
                .map_err(|source| SourceError::Kubeconfig { path: Some(path.clone()), source })?,
        ),
        None => match read_kubeconfig_env() {
            Ok(k) => Some(k),
            // No KUBECONFIG and no ~/.kube/config: in a Pod, use the service account (kubectl does too).
            Err((_, KubeconfigError::FindPath | KubeconfigError::ReadConfig(..)))
                if std::env::var_os("KUBECONFIG").is_none() =>
            {
                None
            }
            Err((path, source)) => return Err(SourceError::Kubeconfig { path, source }),
        },
    };
    let (mut config, context) = match kubeconfig {
        Some(kc) => {
            has_context(&kc, spec.context.as_deref())?;
            let context = spec.context.clone().or_else(|| kc.current_context.clone()).unwrap_or_default();
            let config = Config::from_custom_kubeconfig(kc, &options)
                .await
                .map_err(|source| SourceError::Kubeconfig { path: None, source })?;
            (config, context)
        }
        None => {
            let config = Config::incluster().map_err(SourceError::NoKubeconfig)?;
            (config, "in-cluster".to_string())
        }
    };
    // The exec credential plugin, bounded, before kube sees the config (kube would run it unbounded).
    exec::resolve(&mut config, spec.request_timeout.unwrap_or(exec::DEFAULT_TIMEOUT))?;
    apply_timeout(&mut config, spec.request_timeout);
    // Our own bounded retry (`request::timed`) replaces kube's, which waits up to 1000 s.
    config.default_retry = false;
    let server = config.cluster_url.to_string().trim_end_matches('/').to_string();
    let default_namespace = config.default_namespace.clone();
    let client = Client::try_from(config).map_err(|source| SourceError::Kube {
        action: "connect to the API server".into(),
        server: server.clone(),
        source,
        attempts: 1,
    })?;
    Ok(Connection { client, server, context, default_namespace, timeout: spec.request_timeout })
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
pub fn context_names(path: Option<&std::path::Path>) -> Result<Vec<String>, SourceError> {
    Ok(read_kubeconfig(path)?.contexts.into_iter().map(|c| c.name).collect())
}

/// The kubeconfig at `path`, else `KUBECONFIG` merged, else `~/.kube/config`.
pub fn read_kubeconfig(path: Option<&std::path::Path>) -> Result<Kubeconfig, SourceError> {
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

async fn load_async(spec: &LiveSpec, want: &Want) -> Result<Loaded, SourceError> {
    let conn = connect(spec).await?;
    let (raw, namespace) = read(&conn, want).await?;
    let mut snapshot = convert::snapshot_from_raw(&raw);
    snapshot.info.origin = format!("cluster:{}", conn.context);
    Ok(Loaded { snapshot, raw, namespace })
}

/// `list nodes at cluster scope`: the permission every report but `zones` can do without.
pub const LIST_NODES: &str = "list nodes at cluster scope";

/// Everything `want` asks for, as raw objects. `/version`, Services and EndpointSlices are
/// required (without them there is no subject); Nodes are required only by `zones` (elsewhere a
/// 403 leaves zone weights unknown, noted in `Raw::notes`); Events are best effort (a 403 becomes
/// a note: the verdicts do not depend on them).
pub async fn read(conn: &Connection, want: &Want) -> Result<(Raw, Option<String>), SourceError> {
    let namespace = want.namespace.resolve(&conn.default_namespace);
    let mut raw = Raw { server_version: Some(server_version(conn).await?), ..Raw::default() };
    let nodes_api = Api::<Node>::all(conn.client.clone());
    if want.nodes_only {
        raw.nodes = list_all(conn, &nodes_api, ListParams::default(), LIST_NODES).await?;
        return Ok((raw, namespace));
    }
    let subject = async {
        match &want.service {
            Some(name) => {
                let ns = namespace.clone().unwrap_or_else(|| conn.default_namespace.clone());
                read_service(conn, &ns, name).await
            }
            None => read_scope(conn, namespace.as_deref()).await,
        }
    };
    // Independent reads go side by side (the API server works on one while we decode another);
    // failures are reported in the order of a one-by-one read: Nodes, then the subject.
    let (nodes, cilium, subject) = tokio::join!(
        list_all(conn, &nodes_api, ListParams::default(), LIST_NODES),
        cilium::cilium_config(conn),
        subject
    );
    match tolerate_forbidden(nodes)? {
        Some(nodes) => raw.nodes = nodes,
        None => {
            raw.nodes_unavailable = true;
            raw.notes.push(prose::nodes_forbidden_note(LIST_NODES));
        }
    }
    raw.config_maps = cilium.into_iter().collect();
    let subject = subject?;
    (raw.services, raw.slices, raw.events) = (subject.services, subject.slices, subject.events);
    raw.notes.extend(subject.notes);
    Ok((raw, namespace))
}

/// `explain`/`simulate`: one Service, its slices (by the `kubernetes.io/service-name` label) and
/// its Events.
async fn read_service(conn: &Connection, ns: &str, name: &str) -> Result<Raw, SourceError> {
    let services: Api<Service> = Api::namespaced(conn.client.clone(), ns);
    let action = format!("get services {name:?} in namespace {ns:?}");
    let Some(service) = timed(conn, &action, || services.get_opt(name)).await? else {
        return Err(service_not_found(conn, ns, name).await);
    };
    let slices: Api<EndpointSlice> = Api::namespaced(conn.client.clone(), ns);
    let lp = ListParams::default().labels(&format!("{LABEL_SERVICE_NAME}={name}"));
    let action = format!("list endpointslices.discovery.k8s.io in namespace {ns:?}");
    let fields = format!("involvedObject.kind=Service,involvedObject.name={name}");
    let scope = format!("in namespace {ns:?}");
    let (slices, events) = tokio::join!(
        list_all(conn, &slices, lp, &action),
        read_events(conn, Api::namespaced(conn.client.clone(), ns), &fields, &scope)
    );
    let (events, notes) = events?;
    Ok(Raw { services: vec![service], slices: slices?, events, notes, ..Raw::default() })
}

/// `check`/`dump`: every Service and EndpointSlice of the scope, and the Events on Services, read
/// side by side.
async fn read_scope(conn: &Connection, namespace: Option<&str>) -> Result<Raw, SourceError> {
    let scope = match namespace {
        Some(ns) => format!("in namespace {ns:?}"),
        None => "at cluster scope".to_string(),
    };
    let services: Api<Service> = scoped(conn, namespace);
    let slices: Api<EndpointSlice> = scoped(conn, namespace);
    let (list_services, list_slices) =
        (format!("list services {scope}"), format!("list endpointslices.discovery.k8s.io {scope}"));
    let (services, slices, events) = tokio::join!(
        list_all(conn, &services, ListParams::default(), &list_services),
        list_all(conn, &slices, ListParams::default(), &list_slices),
        read_events(conn, scoped(conn, namespace), "involvedObject.kind=Service", &scope)
    );
    let (services, slices) = (services?, slices?);
    let (events, notes) = events?;
    Ok(Raw { services, slices, events, notes, ..Raw::default() })
}

fn scoped<K>(conn: &Connection, namespace: Option<&str>) -> Api<K>
where
    K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope>,
    <K as kube::Resource>::DynamicType: Default,
{
    match namespace {
        Some(ns) => Api::namespaced(conn.client.clone(), ns),
        None => Api::all(conn.client.clone()),
    }
}

/// Events only add context to a report: a missing `list events` permission becomes a note.
async fn read_events(
    conn: &Connection,
    api: Api<CoreEvent>,
    fields: &str,
    scope: &str,
) -> Result<(Vec<CoreEvent>, Vec<String>), SourceError> {
    let action = format!("list events {scope}");
    let lp = ListParams::default().fields(fields);
    Ok(match tolerate_forbidden(list_all(conn, &api, lp, &action).await)? {
        Some(events) => (events, vec![]),
        None => (vec![], vec![prose::events_forbidden_note(&action)]),
    })
}

/// A read the report can do without: `None` when it was forbidden (403); other failures stay errors.
fn tolerate_forbidden<T>(result: Result<Vec<T>, SourceError>) -> Result<Option<Vec<T>>, SourceError> {
    match result {
        Ok(items) => Ok(Some(items)),
        Err(e) if e.is_api_status(403) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `/version` gitVersion, e.g. `v1.36.3`.
pub async fn server_version(conn: &Connection) -> Result<String, SourceError> {
    let info = timed(conn, "get the server version (/version)", || conn.client.apiserver_version()).await?;
    Ok(info.git_version)
}

/// 404 on the Service: say where a Service of that name exists (when we may list Services).
async fn service_not_found(conn: &Connection, namespace: &str, name: &str) -> SourceError {
    let all: Api<Service> = Api::all(conn.client.clone());
    let lp = ListParams::default().fields(&format!("metadata.name={name}"));
    let mut found_in: Vec<String> = list_all(conn, &all, lp, "list services at cluster scope")
        .await
        .map(|v| v.into_iter().filter_map(|s| s.metadata.namespace).collect())
        .unwrap_or_default();
    found_in.sort();
    found_in.dedup();
    SourceError::from(ServiceNotFound {
        namespace: namespace.to_string(),
        name: name.to_string(),
        origin: format!("cluster:{}", conn.context),
        found_in,
        live: true,
        near: None,
    })
}

mod cilium;

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

    #[test]
    fn scope_resolves_to_the_named_the_context_or_every_namespace() {
        let resolve = |scope: Scope| Namespace::from(&scope).resolve("ctx");
        assert_eq!(resolve(Scope::AllNamespaces), None);
        assert_eq!(resolve(Scope::Namespace(Some("demo".into()))).as_deref(), Some("demo"));
        assert_eq!(resolve(Scope::Namespace(None)).as_deref(), Some("ctx"));
    }
}

//! Live cluster access: kubeconfig loading as kubectl does it, paged reads of Nodes, Services,
//! EndpointSlices and Events, and the server version. Read-only: only `get` and `list` are sent.
//!
//! This module only *lists*; turning what it lists into the model is the pure functions of
//! `source::convert` (style practice 2). Lists are decoded into the lean types of
//! `convert::lean` (only the fields the model takes), or, for `kubectl topo dump`, which writes
//! them back, into k8s-openapi's whole objects.

use k8s_openapi::api::core::v1::{Event as CoreEvent, Node, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::api::{Api, ListParams};

use crate::prose;
pub use crate::source::convert::Raw;
pub use crate::source::convert::Whole;
use crate::source::convert::{self, Lean, Listed, Shape};
use crate::source::error::{ServiceNotFound, SourceError};
use crate::source::{LiveSpec, Scope};
use topo_engine::model::{LABEL_SERVICE_NAME, Snapshot};

mod connect;
pub mod exec;
mod overrides;
mod request;
mod request_log;
pub(crate) mod workload;
pub use connect::{Connection, connect};
pub(crate) use connect::{context_names, read_kubeconfig};
pub(crate) use request::null_as_default;
pub use request::{LIST_RESTARTS, RETRY, RetryPolicy, get_opt, list_all, list_paged, timed};

/// What a command needs from the cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Want {
    /// Namespace scope.
    pub namespace: Namespace,
    /// `explain NAME`: one Service and its slices (by the `kubernetes.io/service-name` label).
    pub service: Option<String>,
    /// `zones`: Nodes only.
    pub nodes_only: bool,
    /// `dump`: keep the objects whole, as listed (every other command decodes only what the model
    /// takes).
    pub whole: bool,
    /// `explain`, `dump`: read the workloads behind the Services too (`live/workload.rs`).
    pub workloads: bool,
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

/// A live read: the Snapshot the engine uses and, when asked for ([`Want::whole`]), the objects
/// behind it.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// Same shape as a dump produces.
    pub snapshot: Snapshot,
    /// What was read, for `dump`.
    pub raw: Option<Raw>,
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

async fn load_async(spec: &LiveSpec, want: &Want) -> Result<Loaded, SourceError> {
    let conn = connect(spec).await?;
    read_loaded(&conn, want).await
}

/// What `want` asks for, as the engine takes it: decoded lean, or whole ([`Want::whole`]) and kept.
pub async fn read_loaded(conn: &Connection, want: &Want) -> Result<Loaded, SourceError> {
    let (mut snapshot, raw, namespace) = if want.whole {
        let (raw, namespace) = read::<Whole>(conn, want).await?;
        (convert::snapshot_from_raw(&raw), Some(raw), namespace)
    } else {
        let (listed, namespace) = read::<Lean>(conn, want).await?;
        (convert::snapshot_from_lean(listed), None, namespace)
    };
    snapshot.info.origin = format!("cluster:{}", conn.context);
    Ok(Loaded { snapshot, raw, namespace })
}

/// `list nodes at cluster scope`: the permission every report but `zones` can do without.
pub(crate) const LIST_NODES: &str = "list nodes at cluster scope";

/// Everything `want` asks for, decoded into the types of `S`. `/version`, Services and EndpointSlices are
/// required (without them there is no subject); Nodes are required only by `zones` (elsewhere a
/// 403 leaves zone weights unknown, noted in `Listed::notes`); Events are best effort (a 403 becomes
/// a note: the verdicts do not depend on them).
pub async fn read<S: Shape>(
    conn: &Connection,
    want: &Want,
) -> Result<(Listed<S>, Option<String>), SourceError> {
    let namespace = want.namespace.resolve(&conn.default_namespace);
    let mut raw = Listed::<S> { server_version: Some(server_version(conn).await?), ..Listed::default() };
    let nodes_api = Api::<Node>::all(conn.client.clone());
    if want.nodes_only {
        raw.nodes = list_all(conn, &nodes_api, ListParams::default(), LIST_NODES).await?;
        return Ok((raw, namespace));
    }
    let subject = async {
        match &want.service {
            Some(name) => {
                let ns = namespace.clone().unwrap_or_else(|| conn.default_namespace.clone());
                read_service::<S>(conn, &ns, name).await
            }
            None => read_scope(conn, namespace.as_deref()).await,
        }
    };
    // Independent reads go side by side (the API server works on one while we decode another);
    // failures are reported in the order of a one-by-one read: Nodes, then the subject.
    let (nodes, optional, subject) = tokio::join!(
        list_all(conn, &nodes_api, ListParams::default(), LIST_NODES),
        optional::read_all(conn, OPTIONAL_READS_AT_ONCE),
        subject
    );
    match tolerate_forbidden(nodes)? {
        Some(nodes) => raw.nodes = nodes,
        None => {
            raw.nodes_unavailable = true;
            raw.notes.push(prose::nodes_forbidden_note(LIST_NODES));
        }
    }
    (raw.config_maps, raw.daemon_sets, raw.front_doors, raw.reads) =
        (optional.config_maps, optional.daemon_sets, optional.front_doors, optional.reads);
    let subject = subject?;
    (raw.services, raw.slices, raw.events) = (subject.services, subject.slices, subject.events);
    raw.notes.extend(subject.notes);
    if want.workloads {
        // After the subject: one Service's Pods are those its selector names.
        let (scope, pods) = match &want.service {
            Some(_) => (
                Some(namespace.clone().unwrap_or_else(|| conn.default_namespace.clone())),
                workload::Pods::Selected(raw.services.first().and_then(S::selector)),
            ),
            None => (namespace.clone(), workload::Pods::All),
        };
        raw.workloads = workload::read_all(conn, scope.as_deref(), &pods).await;
    }
    Ok((raw, namespace))
}

/// `explain`/`simulate`: one Service, its slices (by the `kubernetes.io/service-name` label) and
/// its Events.
async fn read_service<S: Shape>(conn: &Connection, ns: &str, name: &str) -> Result<Listed<S>, SourceError> {
    let services: Api<Service> = Api::namespaced(conn.client.clone(), ns);
    let action = format!("get services {name:?} in namespace {ns:?}");
    let Some(service) = get_opt(conn, &services, name, &action).await? else {
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
    Ok(Listed { services: vec![service], slices: slices?, events, notes, ..Listed::default() })
}

/// `check`/`dump`: every Service and EndpointSlice of the scope, and the Events on Services, read
/// side by side.
async fn read_scope<S: Shape>(conn: &Connection, namespace: Option<&str>) -> Result<Listed<S>, SourceError> {
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
    Ok(Listed { services, slices, events, notes, ..Listed::default() })
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
/// Every optional read side by side (eleven requests) in a one-shot read.
const OPTIONAL_READS_AT_ONCE: usize = 16;

/// The optional reads alone, one request at a time (`serve`'s periodic re-read: one more
/// connection at most): the data plane and its front doors.
pub(crate) async fn read_data_plane(conn: &Connection) -> topo_engine::model::DataPlane {
    let found = optional::read_all(conn, 1).await;
    convert::optional::data_plane_from(
        &found.config_maps,
        &found.daemon_sets,
        &found.front_doors,
        &found.reads,
    )
}

pub async fn server_version(conn: &Connection) -> Result<String, SourceError> {
    match timed(conn, "get the server version (/version)", || conn.client.apiserver_version()).await {
        Ok(info) => Ok(info.git_version),
        // Every API server serves /version: a 404 there is another kind of server at that URL.
        Err(SourceError::Kube { source: kube::Error::Api(status), .. }) if status.code == 404 => {
            let message: String = status.message.trim().chars().take(100).collect();
            Err(SourceError::NotAnApiServer { server: conn.server.clone(), message })
        }
        Err(e) => Err(e),
    }
}

/// 404 on the Service: say where a Service of that name exists (when we may list Services).
async fn service_not_found(conn: &Connection, namespace: &str, name: &str) -> SourceError {
    let all: Api<Service> = Api::all(conn.client.clone());
    let lp = ListParams::default().fields(&format!("metadata.name={name}"));
    let mut found_in: Vec<String> = list_all(conn, &all, lp, "list services at cluster scope")
        .await
        .map(|v: Vec<Service>| v.into_iter().filter_map(|s| s.metadata.namespace).collect())
        .unwrap_or_default();
    found_in.sort();
    found_in.dedup();
    SourceError::from(ServiceNotFound {
        namespace: namespace.to_string(),
        name: name.to_string(),
        origin: format!("cluster:{}", conn.context),
        found_in,
        near: None,
    })
}

mod frontdoor;
mod optional;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_resolves_to_the_named_the_context_or_every_namespace() {
        let resolve = |scope: Scope| Namespace::from(&scope).resolve("ctx");
        assert_eq!(resolve(Scope::AllNamespaces), None);
        assert_eq!(resolve(Scope::Namespace(Some("demo".into()))).as_deref(), Some("demo"));
        assert_eq!(resolve(Scope::Namespace(None)).as_deref(), Some("ctx"));
    }
}

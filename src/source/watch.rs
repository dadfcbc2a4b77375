//! `watch`: follow Nodes, Services and EndpointSlices with kube-runtime watchers (each feeding a
//! reflector store), and hand a fresh Snapshot to the caller whenever they settle. I/O only: the
//! caller recomputes through the same engine. Expired watches (410 Gone) are relisted by the
//! watcher; failed connections are retried with kube-runtime's default backoff. The clock is read
//! here and passed on. Ends on Ctrl-C.

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures::stream::{BoxStream, StreamExt};
use k8s_openapi::api::core::v1::{Node, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::Api;
use kube::runtime::WatchStreamExt;
use kube::runtime::reflector::{self, Store};
use kube::runtime::watcher::{self, Event};

use super::convert;
use super::error::{SourceError, chain};
use super::live::{self, Connection, Raw, Want};
use crate::source::LiveSpec;
use topo_engine::model::{LABEL_SERVICE_NAME, Snapshot};

/// Quiet time after the last watch event before recomputing: bursts (a rollout, a relist after
/// 410 Gone) give one recomputation, not one per object.
pub(crate) const DEBOUNCE: Duration = Duration::from_millis(200);

/// What the watch hands to its caller.
#[derive(Debug)]
pub(crate) enum Update {
    /// The objects settled: the Snapshot of every store, the namespace the scope resolved to
    /// (`None` for `-A`) and the wall-clock time, in milliseconds since the Unix epoch.
    Snapshot {
        /// The engine's input.
        snapshot: Box<Snapshot>,
        /// Resolved namespace.
        namespace: Option<String>,
        /// When the change was seen.
        unix_millis: u64,
    },
    /// A retried failure or an expired watch, for stderr.
    Note(String),
}

/// The watched resource an event or error came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Resource {
    Nodes,
    Services,
    Slices,
}

impl Resource {
    fn plural(self) -> &'static str {
        match self {
            Resource::Nodes => "nodes",
            Resource::Services => "services",
            Resource::Slices => "endpointslices.discovery.k8s.io",
        }
    }
}

/// One item of the merged watch stream: an object event (`true` when it ends a (re)list) or an error.
type Item = (Resource, Result<bool, watcher::Error>);

/// Follow the cluster until Ctrl-C (Ok), until the watch fails (a [`SourceError`], turned into the
/// caller's error type) or until `on_update` fails (its error is returned).
pub(crate) fn follow<E: From<SourceError>>(
    spec: &LiveSpec,
    want: &Want,
    on_update: &mut dyn FnMut(Update) -> Result<(), E>,
) -> Result<(), E> {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(SourceError::Runtime)?;
    runtime.block_on(follow_async(spec, want, on_update))
}

/// The three stores behind a watch.
struct Stores {
    nodes: Store<Node>,
    services: Store<Service>,
    slices: Store<EndpointSlice>,
    server_version: String,
    /// `cluster:<context>`, as a one-shot live read records it.
    origin: String,
}

impl Stores {
    fn snapshot(&self) -> Snapshot {
        let mut raw = Raw {
            nodes: self.nodes.state().iter().map(|o| (**o).clone()).collect(),
            services: self.services.state().iter().map(|o| (**o).clone()).collect(),
            slices: self.slices.state().iter().map(|o| (**o).clone()).collect(),
            server_version: Some(self.server_version.clone()),
            ..Raw::default()
        };
        // Store order is a hash order; the engine's output must not depend on it.
        raw.nodes.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
        raw.services.sort_by(|a, b| key(&a.metadata).cmp(&key(&b.metadata)));
        raw.slices.sort_by(|a, b| key(&a.metadata).cmp(&key(&b.metadata)));
        let mut snapshot = convert::snapshot_from_raw(&raw);
        snapshot.info.origin = self.origin.clone();
        snapshot
    }
}

fn key(meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> (Option<&str>, Option<&str>) {
    (meta.namespace.as_deref(), meta.name.as_deref())
}

async fn follow_async<E: From<SourceError>>(
    spec: &LiveSpec,
    want: &Want,
    on_update: &mut dyn FnMut(Update) -> Result<(), E>,
) -> Result<(), E> {
    // A watch is idle for minutes: --request-timeout must not become the client's read timeout
    // (it would cut every quiet watch). It still bounds the one-shot requests (`timed`).
    let mut conn = live::connect(&LiveSpec { request_timeout: None, ..spec.clone() }).await?;
    conn.timeout = spec.request_timeout;
    let server_version = live::server_version(&conn).await?;
    let namespace = want.namespace.resolve(&conn.default_namespace);
    let (stores, mut events) = start(&conn, namespace.as_deref(), want.service.as_deref());
    let stores = Stores { server_version, origin: format!("cluster:{}", conn.context), ..stores };
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    let mut listed: BTreeSet<Resource> = BTreeSet::new();
    let mut dirty = false;
    let deadline = tokio::time::sleep(DEBOUNCE);
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            _ = &mut ctrl_c => return Ok(()),
            item = events.next() => {
                let Some((resource, result)) = item else { return Ok(()) };
                match result {
                    Ok(list_done) => {
                        if list_done {
                            listed.insert(resource);
                        }
                        dirty = true;
                        deadline.as_mut().reset(tokio::time::Instant::now() + DEBOUNCE);
                    }
                    Err(e) => on_update(failure(&conn.server, resource, e, listed.len() == 3)?)?,
                }
            }
            _ = &mut deadline, if dirty && listed.len() == 3 => {
                dirty = false;
                let snapshot = Box::new(stores.snapshot());
                on_update(Update::Snapshot { snapshot, namespace: namespace.clone(), unix_millis: now_millis() })?;
            }
        }
    }
}

/// Milliseconds since the Unix epoch (the one clock read of `watch`).
fn now_millis() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

/// Start the three watchers; their events, reduced to "something changed", are merged.
fn start(
    conn: &Connection,
    namespace: Option<&str>,
    service: Option<&str>,
) -> (Stores, BoxStream<'static, Item>) {
    let client = conn.client.clone();
    let (mut services_config, mut slices_config) = (watcher::Config::default(), watcher::Config::default());
    if let Some(name) = service {
        services_config = services_config.fields(&format!("metadata.name={name}"));
        slices_config = slices_config.labels(&format!("{LABEL_SERVICE_NAME}={name}"));
    }
    let (services_api, slices_api): (Api<Service>, Api<EndpointSlice>) = match namespace {
        Some(ns) => (Api::namespaced(client.clone(), ns), Api::namespaced(client.clone(), ns)),
        None => (Api::all(client.clone()), Api::all(client.clone())),
    };
    let (nodes, nodes_writer) = reflector::store();
    let (services, services_writer) = reflector::store();
    let (slices, slices_writer) = reflector::store();
    let nodes_stream = reflector::reflector(
        nodes_writer,
        watcher::watcher(Api::<Node>::all(client), watcher::Config::default()),
    );
    let services_stream =
        reflector::reflector(services_writer, watcher::watcher(services_api, services_config));
    let slices_stream = reflector::reflector(slices_writer, watcher::watcher(slices_api, slices_config));
    let merged = futures::stream::select_all([
        tagged(Resource::Nodes, nodes_stream),
        tagged(Resource::Services, services_stream),
        tagged(Resource::Slices, slices_stream),
    ]);
    let stores = Stores { nodes, services, slices, server_version: String::new(), origin: String::new() };
    (stores, merged.boxed())
}

fn tagged<K: Send + 'static>(
    resource: Resource,
    stream: impl futures::Stream<Item = Result<Event<K>, watcher::Error>> + Send + 'static,
) -> BoxStream<'static, Item> {
    stream
        .default_backoff()
        .map(move |item| (resource, item.map(|event| matches!(event, Event::InitDone))))
        .boxed()
}

/// A watcher error: fatal when the first list is refused (401/403/404: retrying will not help and
/// the user needs the message and its hint), otherwise a note while the backoff retries.
pub(crate) fn failure(
    server: &str,
    resource: Resource,
    error: watcher::Error,
    ready: bool,
) -> Result<Update, SourceError> {
    let scope = resource.plural();
    match error {
        watcher::Error::InitialListFailed(kube::Error::Api(status))
            if !ready && matches!(status.code, 401 | 403 | 404) =>
        {
            Err(SourceError::Kube {
                action: format!("list {scope}"),
                server: server.to_string(),
                source: kube::Error::Api(status),
                attempts: 1,
            })
        }
        watcher::Error::WatchError(status) if status.code == 410 => {
            Ok(Update::Note(format!("watch of {scope} expired (410 Gone): listing again")))
        }
        watcher::Error::InitialListFailed(e) => Ok(retrying(&format!("list {scope}"), server, &e)),
        watcher::Error::WatchStartFailed(e) | watcher::Error::WatchFailed(e) => {
            Ok(retrying(&format!("watch {scope}"), server, &e))
        }
        watcher::Error::WatchError(status) => {
            Ok(retrying(&format!("watch {scope}"), server, &kube::Error::Api(status)))
        }
        other => Ok(Update::Note(format!("watch of {scope}: {}; retrying", chain(&other)))),
    }
}

/// A failure the backoff retries, said as an API failure is (never kube's debug text).
fn retrying(action: &str, server: &str, error: &kube::Error) -> Update {
    Update::Note(format!("{}; retrying", super::error::describe(action, server, error)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::ExitStatus;

    fn status(code: u16) -> Box<kube::core::Status> {
        let reason = if code == 410 { "Expired" } else { "Forbidden" };
        Box::new(
            serde_json::from_value(serde_json::json!({"code": code, "reason": reason, "message": "m"}))
                .unwrap(),
        )
    }

    #[test]
    fn an_expired_watch_is_a_note_and_the_watcher_relists() {
        let update =
            failure("https://x", Resource::Slices, watcher::Error::WatchError(status(410)), true).unwrap();
        let Update::Note(note) = update else { panic!("a note") };
        assert!(note.contains("endpointslices.discovery.k8s.io") && note.contains("410 Gone"), "{note}");
    }

    #[test]
    fn a_refused_first_list_is_a_cluster_error_later_refusals_are_retried() {
        let refused = || watcher::Error::InitialListFailed(kube::Error::Api(status(403)));
        let error = failure("https://x", Resource::Nodes, refused(), false).unwrap_err();
        assert_eq!(error.exit_status(), ExitStatus::Cluster);
        assert!(error.to_string().contains("list nodes"), "{error}");
        assert!(matches!(failure("https://x", Resource::Nodes, refused(), true), Ok(Update::Note(_))));
    }

    #[test]
    fn retried_failures_are_said_as_api_failures_not_as_debug_text() {
        let server_error = || {
            let mut status = status(500);
            status.message = "boom".into();
            status
        };
        let cases = [
            (watcher::Error::InitialListFailed(kube::Error::Api(server_error())), "cannot list services"),
            (watcher::Error::WatchFailed(kube::Error::Api(server_error())), "cannot watch services"),
            (watcher::Error::WatchError(server_error()), "cannot watch services"),
        ];
        for (error, start) in cases {
            let Ok(Update::Note(note)) = failure("https://x", Resource::Services, error, true) else {
                panic!("a note")
            };
            assert_eq!(note, format!("{start}: the API server answered 500: boom; retrying"));
        }
    }
}

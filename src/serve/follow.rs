//! `serve`'s watches: kube-runtime watchers on Nodes, Services and EndpointSlices (every
//! namespace), each object decoded lean straight into the model ([`lean`]) and each event turned
//! into a [`Change`] for the exporter's state. A (re)list is handed over whole, when it ends ([`Change::Listed`]), so that objects
//! deleted while a watch was down disappear. Expired watches (410 Gone) and lost connections are
//! relisted by the watcher, retried with the delays of [`Recovering`]; each restart and each error
//! is reported, never fatal once the first list succeeded.

use futures::stream::{BoxStream, StreamExt};
use k8s_openapi::api::core::v1::{Node, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, Event};
use kube::{Api, Client};

use std::sync::Arc;

use super::exporter::{Change, Object, Resource};
use super::observe::{Observer, Recovering, WATCH_TIMEOUT};
use crate::source::error::SourceError;
use crate::source::watch::{self as follow_watch, Update};

mod lean;

use lean::Lean;

/// One item of the merged watch stream.
// Moved once per event, like `Change`: boxing would only add an allocation per event.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub(crate) enum Watched {
    /// A change for the state.
    Change(Change),
    /// A retried failure, as one line for the log.
    Retrying(String),
}

/// Start the three watchers on `client` (the observed one); their items are merged. Each asks
/// for bookmarks (kube's default) and ends its watch after [`WATCH_TIMEOUT`] seconds, and
/// retries with [`Recovering`] delays.
pub(crate) fn start(
    client: &Client,
    observer: &Arc<Observer>,
) -> BoxStream<'static, (Resource, Result<Watched, watcher::Error>)> {
    let config = || watcher::Config::default().timeout(WATCH_TIMEOUT);
    let nodes = watcher::watcher(Api::<Lean<Node>>::all(client.clone()), config());
    let services = watcher::watcher(Api::<Lean<Service>>::all(client.clone()), config());
    let slices = watcher::watcher(Api::<Lean<EndpointSlice>>::all(client.clone()), config());
    futures::stream::select_all([
        changes(Resource::Nodes, nodes.backoff(Recovering::new(observer, Resource::Nodes))),
        changes(Resource::Services, services.backoff(Recovering::new(observer, Resource::Services))),
        changes(
            Resource::EndpointSlices,
            slices.backoff(Recovering::new(observer, Resource::EndpointSlices)),
        ),
    ])
    .boxed()
}

/// A watcher's events as changes: applies and deletes one by one, a (re)list at its end.
fn changes<A: 'static>(
    resource: Resource,
    stream: impl futures::Stream<Item = Result<Event<Lean<A>>, watcher::Error>> + Send + 'static,
) -> BoxStream<'static, (Resource, Result<Watched, watcher::Error>)> {
    stream
        .scan(Vec::new(), move |listed: &mut Vec<Object>, item| {
            let out = match item {
                Err(e) => Some(Err(e)),
                Ok(Event::Init) => {
                    listed.clear();
                    None
                }
                Ok(Event::InitApply(lean)) => {
                    listed.extend(lean.object);
                    None
                }
                Ok(Event::InitDone) => {
                    Some(Ok(Watched::Change(Change::Listed(resource, std::mem::take(listed)))))
                }
                // A Node whose CPU does not parse is left out, as a one-shot read leaves it out.
                Ok(Event::Apply(lean)) => Some(Ok(Watched::Change(match lean.object {
                    Some(o) => Change::Applied(o),
                    None => Change::Deleted(resource, lean.key()),
                }))),
                Ok(Event::Delete(lean)) => Some(Ok(Watched::Change(Change::Deleted(resource, lean.key())))),
            };
            futures::future::ready(Some(out.map(|o| (resource, o))))
        })
        .filter_map(futures::future::ready)
        .boxed()
}

/// A watcher error: fatal when the first list is refused (401/403/404: retrying will not help),
/// otherwise one line while the backoff retries.
pub(crate) fn failure(
    server: &str,
    resource: Resource,
    error: watcher::Error,
    ready: bool,
) -> Result<Watched, SourceError> {
    let which = match resource {
        Resource::Nodes => follow_watch::Resource::Nodes,
        Resource::Services => follow_watch::Resource::Services,
        Resource::EndpointSlices => follow_watch::Resource::Slices,
    };
    match follow_watch::failure(server, which, error, ready)? {
        Update::Note(note) => Ok(Watched::Retrying(note)),
        Update::Snapshot { .. } => Ok(Watched::Retrying(String::new())),
    }
}

//! `serve`'s I/O: the watches of [`super::follow`], an HTTP/1 listener (hyper) that hands each
//! request to the caller's pure `respond`, the clock, and SIGTERM / Ctrl-C. The caller keeps the
//! state; this loop only delivers events to it, debounced, and ends on a signal.

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures::StreamExt;
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use strum::VariantArray;
use tokio::net::TcpListener;

use super::exporter::routes::{Reply, Request};
use super::exporter::{Change, Resource};
use super::follow::{self, Watched};
use crate::settings::LiveSpec;
use crate::source::error::SourceError;
use crate::source::live;

/// Quiet time after the last change before recomputing: a burst (a rollout, a relist) gives one
/// recompute, and a single change waits at most this long.
pub const DEBOUNCE: Duration = Duration::from_millis(20);

/// How often a healthy exporter says so (`Event::Healthy`).
pub const HEARTBEAT: Duration = Duration::from_secs(15);

/// What the loop hands to its caller.
// Moved once per event, like `Change`: boxing would only add an allocation per event.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Event {
    /// The server version, once, before anything else.
    Connected {
        /// `gitVersion`.
        server_version: String,
        /// Where the listener is bound.
        local: SocketAddr,
    },
    /// A change for the state.
    Change(Change),
    /// Every watch has listed at least once since the start (first time) or listed again.
    Synced {
        /// Unix seconds.
        unix: f64,
    },
    /// Changes settled: recompute.
    Settled {
        /// Unix seconds.
        unix: f64,
    },
    /// A watch started over (after the first list).
    Restarted(Resource),
    /// A retried failure of one watch.
    Failed(Resource, String),
    /// No watch failed since the last heartbeat and every watch has listed.
    Healthy {
        /// Unix seconds.
        unix: f64,
    },
}

/// The caller's answer to a request (pure, called on the server's task).
pub type Respond = Arc<dyn Fn(&Request) -> Reply + Send + Sync>;

/// Serve until SIGTERM or Ctrl-C (Ok), until the first list is refused or the address cannot be
/// bound (Err), or until `on_event` fails.
pub fn run<E: From<SourceError>>(
    spec: &LiveSpec,
    listen: SocketAddr,
    respond: Respond,
    on_event: &mut dyn FnMut(Event) -> Result<(), E>,
) -> Result<(), E> {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(SourceError::Runtime)?;
    runtime.block_on(run_async(spec, listen, respond, on_event))
}

/// Which watches have listed and which failed since, for readiness and the heartbeat.
#[derive(Default)]
struct Progress {
    listing: BTreeSet<Resource>,
    listed: BTreeSet<Resource>,
    failing: BTreeSet<Resource>,
}

async fn run_async<E: From<SourceError>>(
    spec: &LiveSpec,
    listen: SocketAddr,
    respond: Respond,
    on_event: &mut dyn FnMut(Event) -> Result<(), E>,
) -> Result<(), E> {
    // The address first: a port in use is the user's to fix, before any cluster is involved.
    let listener =
        TcpListener::bind(listen).await.map_err(|e| SourceError::Listen { address: listen, source: e })?;
    let local = listener.local_addr().map_err(|e| SourceError::Listen { address: listen, source: e })?;
    let conn = live::connect(&LiveSpec { request_timeout: None, ..spec.clone() }).await?;
    let server_version = live::server_version(&conn).await?;
    on_event(Event::Connected { server_version, local })?;
    let server = tokio::spawn(accept(listener, respond));
    let result = follow_loop(&conn, on_event).await;
    server.abort();
    result
}

async fn follow_loop<E: From<SourceError>>(
    conn: &live::Connection,
    on_event: &mut dyn FnMut(Event) -> Result<(), E>,
) -> Result<(), E> {
    let mut events = follow::start(&conn.client);
    let stop = shutdown();
    tokio::pin!(stop);
    let mut progress = Progress::default();
    let (mut dirty, deadline) = (false, tokio::time::sleep(DEBOUNCE));
    tokio::pin!(deadline);
    let mut heartbeat = tokio::time::interval(HEARTBEAT);
    loop {
        tokio::select! {
            () = &mut stop => return Ok(()),
            item = events.next() => {
                let Some((resource, item)) = item else { return Ok(()) };
                let ready = progress.listed.len() == Resource::VARIANTS.len();
                let watched = match item {
                    Ok(w) => w,
                    Err(e) => follow::failure(&conn.server, resource, e, ready)?,
                };
                if handle(&mut progress, resource, watched, on_event)? {
                    dirty = true;
                    deadline.as_mut().reset(tokio::time::Instant::now() + DEBOUNCE);
                }
            }
            () = &mut deadline, if dirty && progress.listed.len() == Resource::VARIANTS.len() => {
                dirty = false;
                on_event(Event::Settled { unix: now() })?;
            }
            _ = heartbeat.tick() => {
                if progress.listed.len() == Resource::VARIANTS.len() && progress.failing.is_empty() {
                    on_event(Event::Healthy { unix: now() })?;
                }
                progress.failing.clear();
            }
        }
    }
}

/// One watch item: true when it changed the state.
fn handle<E>(
    progress: &mut Progress,
    resource: Resource,
    watched: Watched,
    on_event: &mut dyn FnMut(Event) -> Result<(), E>,
) -> Result<bool, E> {
    match watched {
        Watched::Listing(_) => {
            if !progress.listing.insert(resource) {
                on_event(Event::Restarted(resource))?;
            }
            Ok(false)
        }
        Watched::Retrying(_, note) => {
            progress.failing.insert(resource);
            on_event(Event::Failed(resource, note))?;
            Ok(false)
        }
        Watched::Change(change) => {
            let listed = matches!(change, Change::Listed(..));
            on_event(Event::Change(change))?;
            if listed {
                progress.listed.insert(resource);
                if progress.listed.len() == Resource::VARIANTS.len() {
                    on_event(Event::Synced { unix: now() })?;
                }
            }
            Ok(true)
        }
    }
}

/// Unix seconds (the one clock read of `serve`).
fn now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

/// SIGTERM (what Kubernetes sends a Pod) or Ctrl-C.
async fn shutdown() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).ok();
        let terminated = async {
            match term.as_mut() {
                Some(t) => drop(t.recv().await),
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            () = terminated => {}
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
}

/// Accept connections until aborted; each is served on its own task.
async fn accept(listener: TcpListener, respond: Respond) {
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let respond = respond.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request: hyper::Request<Incoming>| {
                let respond = respond.clone();
                async move { Ok::<_, Infallible>(answer(&respond, &request)) }
            });
            // A client that goes away mid-request is not an error of ours.
            let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
        });
    }
}

fn answer(respond: &Respond, request: &hyper::Request<Incoming>) -> hyper::Response<Full<Bytes>> {
    let accept = request.headers().get(hyper::header::ACCEPT).and_then(|v| v.to_str().ok());
    let ours = Request {
        method: request.method().as_str().to_string(),
        path: request.uri().path().to_string(),
        accept: accept.map(str::to_string),
    };
    let reply = respond(&ours);
    let body = if ours.method == "HEAD" { Bytes::new() } else { Bytes::from(reply.body) };
    let mut response = hyper::Response::new(Full::new(body));
    *response.status_mut() = hyper::StatusCode::from_u16(reply.status).unwrap_or(hyper::StatusCode::OK);
    let content_type = hyper::header::HeaderValue::from_static(reply.content_type);
    response.headers_mut().insert(hyper::header::CONTENT_TYPE, content_type);
    response
}

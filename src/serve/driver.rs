//! `serve`'s I/O: the HTTP listener of [`super::http`], the watches of [`super::follow`], the
//! clock, and SIGTERM / Ctrl-C. The caller keeps the state; this loop only delivers events to it,
//! debounced, and ends on a signal. The port is bound and served first (`/healthz` answers while
//! the API server is still being reached), and the signals are caught from the start, so SIGTERM
//! exits 0 whenever it comes.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures::StreamExt;
use strum::VariantArray;
use tokio::net::TcpListener;

use super::auth::Gate;
use super::exporter::debounce::Debounce;
use super::exporter::{Change, Resource};
use super::follow::{self, Watched};
use super::http::{self, Respond};
use super::observe::Observer;
use crate::source::LiveSpec;
use crate::source::error::SourceError;
use crate::source::live;

/// What the loop hands to its caller.
// Moved once per event, like `Change`: boxing would only add an allocation per event.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub(crate) enum Event {
    /// The listener is bound and answers and the kubeconfig is loaded, once, before anything
    /// else (the API server may not have answered yet).
    Listening {
        /// Where.
        local: SocketAddr,
    },
    /// The server version, once, before any change.
    Connected {
        /// `gitVersion`.
        server_version: String,
    },
    /// A change for the state; the caller answers whether it touched anything the engine reads
    /// (only such changes wait for a recompute).
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
    /// A watch listed again (after a 410 Gone or a reconnect), not the first time.
    Restarted(Resource),
    /// A retried failure of one watch.
    Failed(Resource, String),
    /// The optional reads, read again ([`DATA_PLANE_PERIOD`]); the caller answers whether the
    /// data plane changed (then every Service waits for a recompute).
    DataPlane(topo_engine::model::DataPlane),
}

/// How often `serve` reads the optional objects again (Cilium's and kube-proxy's ConfigMaps and
/// DaemonSets, the front doors' lists): a periodic re-read rather than eleven more watches, since
/// they change at upgrades and configuration changes only; bounded to one round of eleven
/// requests (lists decoded lean) per period, the first at the start.
pub(crate) const DATA_PLANE_PERIOD: Duration = Duration::from_secs(300);

/// The time limit of each of those requests (retries included).
const DATA_PLANE_TIMEOUT: Duration = Duration::from_secs(30);

/// The caller's handling of an event: `Ok(true)` when a [`Event::Change`] touched something the
/// engine reads (for other events the answer is not looked at).
pub(crate) type OnEvent<'a, E> = dyn FnMut(Event) -> Result<bool, E> + 'a;

/// What the two sides are handed: the pure answer to a request, and the observer of what the API
/// server answers the watches.
pub(crate) struct Sides {
    /// The HTTP side.
    pub respond: Respond,
    /// HTTPS, when given.
    pub tls: Option<tokio_rustls::TlsAcceptor>,
    /// The token check of `/metrics`, when asked for: handed the API client once connected.
    pub gate: Option<Arc<Gate>>,
    /// The watch side.
    pub observer: Arc<Observer>,
}

/// Serve until SIGTERM or Ctrl-C (Ok), until the first list is refused or the address cannot be
/// bound (Err), or until `on_event` fails.
pub(crate) fn run<E: From<SourceError>>(
    spec: &LiveSpec,
    listen: SocketAddr,
    sides: Sides,
    on_event: &mut OnEvent<'_, E>,
) -> Result<(), E> {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(SourceError::Runtime)?;
    runtime.block_on(run_async(spec, listen, sides, on_event))
}

/// Which watches have listed, for readiness and restarts.
#[derive(Default)]
struct Progress {
    listed: BTreeSet<Resource>,
}

async fn run_async<E: From<SourceError>>(
    spec: &LiveSpec,
    listen: SocketAddr,
    sides: Sides,
    on_event: &mut OnEvent<'_, E>,
) -> Result<(), E> {
    let mut stop = Stop::catch();
    // The address first: a port in use is the user's to fix, before any cluster is involved.
    let listener =
        TcpListener::bind(listen).await.map_err(|e| SourceError::Listen { address: listen, source: e })?;
    let local = listener.local_addr().map_err(|e| SourceError::Listen { address: listen, source: e })?;
    let front =
        http::Front { respond: sides.respond.clone(), tls: sides.tls.clone(), gate: sides.gate.clone() };
    let server = tokio::spawn(http::accept(listener, front, http::LIMITS.within(http::nofile())));
    let result = tokio::select! {
        () = stop.wait() => Ok(()),
        result = follow(spec, local, &sides, on_event) => result,
    };
    server.abort();
    result
}

/// Load the kubeconfig (no network: a missing or bad one is an error before anything is said),
/// say where the listener (already answering) is, then reach the API server and follow it.
async fn follow<E: From<SourceError>>(
    spec: &LiveSpec,
    local: SocketAddr,
    sides: &Sides,
    on_event: &mut OnEvent<'_, E>,
) -> Result<(), E> {
    let conn = live::connect(&LiveSpec { request_timeout: None, ..spec.clone() }).await?;
    on_event(Event::Listening { local })?;
    if let Some(gate) = &sides.gate {
        gate.connect(conn.client.clone());
    }
    let server_version = live::server_version(&conn).await?;
    on_event(Event::Connected { server_version })?;
    follow_loop(&conn, &sides.observer, on_event).await
}

async fn follow_loop<E: From<SourceError>>(
    conn: &live::Connection,
    observer: &Arc<Observer>,
    on_event: &mut OnEvent<'_, E>,
) -> Result<(), E> {
    let mut events = follow::start(&observer.client(&conn.client), observer);
    let mut progress = Progress::default();
    let mut debounce = Debounce::default();
    let deadline = tokio::time::sleep(Duration::from_secs(3600));
    tokio::pin!(deadline);
    // Bounded in time, unlike the watches' connection (the reads are best effort).
    let reads_conn = live::Connection {
        client: conn.client.clone(),
        server: conn.server.clone(),
        context: conn.context.clone(),
        default_namespace: conn.default_namespace.clone(),
        timeout: Some(DATA_PLANE_TIMEOUT),
    };
    let mut reads = data_plane_reads(reads_conn);
    loop {
        tokio::select! {
            // In this order: the debounce first, so that at the timer's wake-up (one of the two
            // of each change) the watches' stack of streams is not polled for nothing, as it was
            // at every other one when the order was random.
            biased;
            () = &mut deadline, if debounce.due().is_some() && progress.listed.len() == Resource::VARIANTS.len() => {
                debounce.done();
                on_event(Event::Settled { unix: now() })?;
            }
            Some(data_plane) = reads.next() => {
                if on_event(Event::DataPlane(data_plane))? {
                    debounce.touched(std::time::Instant::now());
                    if let Some(due) = debounce.due() {
                        deadline.as_mut().reset(due.into());
                    }
                }
            }
            item = events.next() => {
                let Some((resource, item)) = item else { return Ok(()) };
                let ready = progress.listed.len() == Resource::VARIANTS.len();
                let watched = match item {
                    Ok(w) => w,
                    Err(e) => follow::failure(&conn.server, resource, e, ready)?,
                };
                if handle(&mut progress, resource, watched, on_event)? {
                    debounce.touched(std::time::Instant::now());
                    if let Some(due) = debounce.due() {
                        deadline.as_mut().reset(due.into());
                    }
                }
            }
        }
    }
}

/// The optional reads, at the start and every [`DATA_PLANE_PERIOD`] after the previous round
/// ended (a slow API server delays the next round rather than piling rounds up).
fn data_plane_reads(
    conn: live::Connection,
) -> futures::stream::BoxStream<'static, topo_engine::model::DataPlane> {
    futures::stream::unfold((conn, true), |(conn, first)| async move {
        if !first {
            tokio::time::sleep(DATA_PLANE_PERIOD).await;
        }
        let data_plane = live::read_data_plane(&conn).await;
        Some((data_plane, (conn, false)))
    })
    .boxed()
}

/// One watch item: true when it touched something the engine reads.
fn handle<E>(
    progress: &mut Progress,
    resource: Resource,
    watched: Watched,
    on_event: &mut OnEvent<'_, E>,
) -> Result<bool, E> {
    match watched {
        Watched::Retrying(note) => {
            on_event(Event::Failed(resource, note))?;
            Ok(false)
        }
        Watched::Change(change) => {
            let listed = matches!(change, Change::Listed(..));
            let touched = on_event(Event::Change(change))?;
            if listed && !progress.listed.insert(resource) {
                on_event(Event::Restarted(resource))?;
            }
            if listed && progress.listed.len() == Resource::VARIANTS.len() {
                on_event(Event::Synced { unix: now() })?;
            }
            Ok(touched)
        }
    }
}

/// Unix seconds (the one clock read of `serve`).
fn now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

/// SIGTERM (what Kubernetes sends a Pod) and Ctrl-C, caught from the moment [`Stop::catch`]
/// runs (until then the default action would end the process with 143).
struct Stop {
    #[cfg(unix)]
    signals: Vec<tokio::signal::unix::Signal>,
}

impl Stop {
    fn catch() -> Stop {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let kinds = [SignalKind::terminate(), SignalKind::interrupt()];
            Stop { signals: kinds.into_iter().filter_map(|kind| signal(kind).ok()).collect() }
        }
        #[cfg(not(unix))]
        Stop {}
    }

    /// The first of those signals.
    async fn wait(&mut self) {
        #[cfg(unix)]
        {
            if self.signals.is_empty() {
                std::future::pending::<()>().await;
            }
            let received = self.signals.iter_mut().map(|s| Box::pin(s.recv()));
            let _ = futures::future::select_all(received).await;
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
    }
}

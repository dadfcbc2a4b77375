//! `serve`'s HTTP/1 listener (hyper), bounded as an operator's cluster treats it: scraped every few
//! seconds, probed by the kubelet, and open to anything that can reach the Pod. Each connection
//! holds a descriptor and buffers, and each `/metrics` answer holds its whole text until the
//! client has read it, so everything a client can hold is bounded ([`Limits`]):
//!
//! - connections: at most [`Limits::connections`] at once (fewer under a low descriptor limit);
//!   the next ones wait in the kernel's accept queue, holding no descriptor of ours. While they
//!   wait (or a `/metrics` request waits for an answer's place, below), the server is under
//!   pressure: every connection that has moved no byte for [`Limits::pressed_idle`] is closed,
//!   so idle and non-reading clients make way for the ones that scrape;
//! - time: a connection that moves no byte either way for [`Limits::idle`] (idle keep-alive, a
//!   client that never sends its request or never reads its answer) is closed, as is one older
//!   than [`Limits::lifetime`] (a client that reads a byte now and then); a request's headers
//!   must arrive within [`Limits::header`];
//! - memory: at most [`Limits::bodies`] `/metrics` answers are being sent at once; the next
//!   request waits up to [`Limits::body_wait`] for one to finish, then gets `503`. Request
//!   headers are read into at most [`MAX_BUF`] bytes (`431` beyond);
//! - a failed accept (out of descriptors: `EMFILE`) waits before the next, doubling up to a
//!   second, instead of spinning.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::{Body, Bytes, Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;

use super::auth::{Admission, Gate};
use super::exporter::routes::{self, Reply, Request};

mod moved;
use moved::{Moved, Tracked};

/// The caller's answer to a request (pure, called on the server's task).
pub(crate) type Respond = Arc<dyn Fn(&Request) -> Reply + Send + Sync>;

/// What the server answers with: the caller's answers, over TLS when given, `/metrics` only to
/// the callers the gate admits when given.
#[derive(Clone)]
pub(crate) struct Front {
    /// The answers.
    pub respond: Respond,
    /// `--tls-cert-file`: HTTPS.
    pub tls: Option<TlsAcceptor>,
    /// `--auth=tokenreview`.
    pub gate: Option<Arc<Gate>>,
}

/// Bytes of request head hyper buffers per connection (its minimum; headers beyond: `431`).
pub(crate) const MAX_BUF: usize = 8192;

/// Bytes of an answer handed to hyper at a time: it asks for the next piece only once the
/// previous one is written, so a slow reader holds one answer while it is being sent, and one
/// piece of it (a copy) once the rest is handed over.
const CHUNK: usize = 64 * 1024;

/// What a client can hold (the README's "Limits" says them).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Connections served at once.
    pub connections: usize,
    /// `/metrics` answers being sent at once.
    pub bodies: usize,
    /// How long a `/metrics` request waits for one of those before `503`.
    pub body_wait: Duration,
    /// No byte either way for this long closes a connection.
    pub idle: Duration,
    /// A request's headers must arrive within this.
    pub header: Duration,
    /// No connection lives longer.
    pub lifetime: Duration,
    /// Under pressure, no byte either way for this long closes a connection.
    pub pressed_idle: Duration,
}

/// The limits `serve` runs with.
pub(crate) const LIMITS: Limits = Limits {
    connections: 64,
    bodies: 4,
    body_wait: Duration::from_secs(5),
    idle: Duration::from_secs(30),
    header: Duration::from_secs(10),
    lifetime: Duration::from_secs(120),
    pressed_idle: Duration::from_millis(500),
};

/// How often a waiting accept or answer says again that the server is under pressure.
const PRESSURE_EVERY: Duration = Duration::from_millis(100);

impl Limits {
    /// These limits with at most half the descriptors left under `nofile` (the soft
    /// `RLIMIT_NOFILE`) for connections: the watches, the runtime and a reconnect need the rest.
    pub(crate) fn within(self, nofile: Option<u64>) -> Limits {
        let Some(nofile) = nofile else { return self };
        let half = usize::try_from(nofile.saturating_sub(32) / 2).unwrap_or(usize::MAX);
        Limits { connections: self.connections.min(half).max(1), ..self }
    }
}

/// The soft descriptor limit of this process, from `/proc/self/limits` (`None` elsewhere or when
/// unlimited).
pub(crate) fn nofile() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line.trim_start_matches("Max open files").split_whitespace().next()?.parse().ok()
}

/// Accept connections until aborted; each is served on its own task, within `limits`.
pub(crate) async fn accept(listener: TcpListener, front: Front, limits: Limits) {
    let connections = Arc::new(Semaphore::new(limits.connections));
    let served = Served {
        front,
        bodies: Arc::new(Semaphore::new(limits.bodies)),
        pressure: Arc::new(Notify::new()),
        limits,
    };
    let mut pause = Duration::from_millis(10);
    loop {
        let slot = served.pressed(&connections, None).await;
        let Some(slot) = slot else { return };
        match listener.accept().await {
            Ok((stream, _)) => {
                pause = Duration::from_millis(10);
                tokio::spawn(served.clone().connection(stream, slot));
            }
            // Out of descriptors (or memory): what frees them is other tasks, so give them time.
            Err(_) => {
                drop(slot);
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(1));
            }
        }
    }
}

/// What every connection shares.
#[derive(Clone)]
struct Served {
    front: Front,
    bodies: Arc<Semaphore>,
    /// Woken while an accept or an answer waits for a place.
    pressure: Arc<Notify>,
    limits: Limits,
}

impl Served {
    /// A place of `semaphore`, saying that the server is under pressure while there is none,
    /// until `within` (if given) has passed; `None` then (or if the semaphore was closed).
    async fn pressed(
        &self,
        semaphore: &Arc<Semaphore>,
        within: Option<Duration>,
    ) -> Option<OwnedSemaphorePermit> {
        if let Ok(permit) = semaphore.clone().try_acquire_owned() {
            return Some(permit);
        }
        let end = within.map(|w| Instant::now() + w);
        loop {
            self.pressure.notify_waiters();
            match tokio::time::timeout(PRESSURE_EVERY, semaphore.clone().acquire_owned()).await {
                Ok(permit) => return permit.ok(),
                Err(_) if end.is_some_and(|end| Instant::now() >= end) => return None,
                Err(_) => {}
            }
        }
    }

    /// Serve one connection until it ends, goes idle or outlives its limit; `_slot` is its place
    /// among the connections. With TLS, the handshake must end within the time a request's
    /// headers have.
    async fn connection(self, stream: TcpStream, _slot: OwnedSemaphorePermit) {
        let moved = Moved::new();
        let tracked = Tracked { inner: stream, moved: moved.clone() };
        match self.front.tls.clone() {
            None => self.serve(tracked, moved).await,
            Some(acceptor) => {
                let handshake = tokio::time::timeout(self.limits.header, acceptor.accept(tracked)).await;
                if let Ok(Ok(tls)) = handshake {
                    self.serve(tls, moved).await;
                }
            }
        }
    }

    /// Serve HTTP/1 on `stream` (plain or TLS) within the limits.
    async fn serve<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(self, stream: S, moved: Moved) {
        let (limits, pressure) = (self.limits, self.pressure.clone());
        let io = TokioIo::new(stream);
        let waiting = moved.clone();
        let service = service_fn(move |request: hyper::Request<Incoming>| {
            let (served, waiting) = (self.clone(), waiting.clone());
            async move { Ok::<_, Infallible>(served.answer(&request, &waiting).await) }
        });
        let mut builder = http1::Builder::new();
        builder.timer(TokioTimer::new()).header_read_timeout(limits.header).max_buf_size(MAX_BUF);
        let conn = builder.serve_connection(io, service);
        tokio::pin!(conn);
        let end = Instant::now() + limits.lifetime;
        loop {
            let idle_until = (moved.last() + limits.idle).min(end);
            tokio::select! {
                // A client that goes away mid-request is not an error of ours.
                _ = &mut conn => return,
                () = tokio::time::sleep_until(idle_until) => {
                    if Instant::now() >= end || moved.last() + limits.idle <= Instant::now() {
                        return;
                    }
                }
                () = pressure.notified() => {
                    if !moved.waiting() && moved.last() + limits.pressed_idle <= Instant::now() {
                        return;
                    }
                }
            }
        }
    }

    /// The answer to one request; `moved` says the connection is waiting (not idle) meanwhile.
    async fn answer(&self, request: &hyper::Request<Incoming>, moved: &Moved) -> hyper::Response<Held> {
        let ours = request_of(request);
        if let (true, Some(gate)) = (routes::is_large(&ours), &self.front.gate) {
            let authorization = request.headers().get(hyper::header::AUTHORIZATION);
            moved.wait(true);
            let admission = gate.admit(authorization.and_then(|v| v.to_str().ok())).await;
            moved.wait(false);
            let refused = match admission {
                Admission::Admitted => None,
                Admission::Unauthenticated => Some(routes::unauthenticated()),
                Admission::Forbidden => Some(routes::forbidden()),
                Admission::Unavailable => Some(routes::cannot_authorize()),
            };
            if let Some(reply) = refused {
                return response(&ours, reply, None);
            }
        }
        let permit = if routes::is_large(&ours) {
            moved.wait(true);
            let permit = self.pressed(&self.bodies, Some(self.limits.body_wait)).await;
            moved.wait(false);
            match permit {
                Some(permit) => Some(permit),
                None => return response(&ours, routes::busy(), None),
            }
        } else {
            None
        };
        response(&ours, (self.front.respond)(&ours), permit)
    }
}

fn request_of(request: &hyper::Request<Incoming>) -> Request {
    let header = |name| request.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
    Request {
        method: request.method().as_str().to_string(),
        path: request.uri().path().to_string(),
        accept: header(hyper::header::ACCEPT),
        accept_encoding: header(hyper::header::ACCEPT_ENCODING),
    }
}

fn response(request: &Request, reply: Reply, permit: Option<OwnedSemaphorePermit>) -> hyper::Response<Held> {
    let body = if request.method == "HEAD" { Bytes::new() } else { Bytes::from(reply.body) };
    let mut response = hyper::Response::new(Held { body, permit });
    *response.status_mut() = hyper::StatusCode::from_u16(reply.status).unwrap_or(hyper::StatusCode::OK);
    let headers = response.headers_mut();
    headers.insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static(reply.content_type));
    if let Some(encoding) = reply.content_encoding {
        headers.insert(hyper::header::CONTENT_ENCODING, hyper::header::HeaderValue::from_static(encoding));
    }
    if routes::is_large(request) {
        headers.insert(hyper::header::VARY, hyper::header::HeaderValue::from_static("Accept-Encoding"));
    }
    response
}

/// An answer handed to hyper a [`CHUNK`] at a time, holding its place among the answers being
/// sent (`permit`) until its last byte is handed over.
struct Held {
    body: Bytes,
    permit: Option<OwnedSemaphorePermit>,
}

impl Body for Held {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if self.body.is_empty() {
            self.permit = None;
            return Poll::Ready(None);
        }
        // A copy, not a view of the answer: a view would keep the whole answer allocated for as
        // long as hyper holds its last piece for a client that does not read, after the place
        // among the answers being sent (`permit`) is given back.
        let n = self.body.len().min(CHUNK);
        let piece = Bytes::copy_from_slice(&self.body[..n]);
        if n == self.body.len() {
            self.body = Bytes::new();
        } else {
            self.body = self.body.slice(n..);
        }
        Poll::Ready(Some(Ok(Frame::data(piece))))
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.body.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_low_descriptor_limit_leaves_half_for_the_watches() {
        assert_eq!(LIMITS.within(None).connections, 64);
        assert_eq!(LIMITS.within(Some(1_048_576)).connections, 64);
        assert_eq!(LIMITS.within(Some(256)).connections, 64);
        assert_eq!(LIMITS.within(Some(100)).connections, 34);
        assert_eq!(LIMITS.within(Some(16)).connections, 1);
    }
}

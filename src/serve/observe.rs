//! What the API server answers `serve`'s watches, seen below kube-runtime (which keeps bookmarks
//! and re-watches to itself): a layer around the connection's client notes, per watched
//! resource, every successful answer (a list page, a new watch) and every piece of a watch
//! stream (an event or a bookmark). That is the watches' health: a watch that hangs, sleeps in a
//! backoff or is refused hears nothing, so its time ages ([`Observer::heard`] feeds the
//! `watch_progress` gauges). The watches ask for bookmarks and end each watch after
//! [`WATCH_TIMEOUT`] seconds, so a healthy watch of a quiet resource still hears from the server
//! about once a minute. The same notes reset the retry backoff ([`Recovering`]): once the server
//! answers a resource again, its next retry (the relist after a 410 Gone) is not delayed by the
//! backoff built up during the outage.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures::future::BoxFuture;
use hyper::body::{Body, Bytes, Frame, SizeHint};
use kube::Client;
use strum::VariantArray;

use super::exporter::Resource;
use super::exporter::metrics::{FloatGauge, Health, ResourceLabels};

/// Seconds after which the API server ends each watch (the watcher then watches again from where
/// it was, without listing).
pub(crate) const WATCH_TIMEOUT: u32 = 60;

/// The first retry delay after a failure, and the longest: once the API server is back, every
/// watch tries again within this.
const RETRY: (Duration, Duration) = (Duration::from_millis(250), Duration::from_secs(4));

/// Per resource: successful answers so far, and the gauge of when the last one was heard.
pub(crate) struct Observer {
    answered: [AtomicU64; 3],
    progress: [FloatGauge; 3],
}

fn index(resource: Resource) -> usize {
    Resource::VARIANTS.iter().position(|r| *r == resource).unwrap_or(0)
}

/// The resource a request path lists or watches (every namespace: `serve` watches no other).
fn resource_of(path: &str) -> Option<Resource> {
    match path {
        "/api/v1/nodes" => Some(Resource::Nodes),
        "/api/v1/services" => Some(Resource::Services),
        "/apis/discovery.k8s.io/v1/endpointslices" => Some(Resource::EndpointSlices),
        _ => None,
    }
}

impl Observer {
    /// An observer writing to `health`'s progress gauges.
    pub(crate) fn new(health: &Health) -> Arc<Observer> {
        let gauge = |r: &Resource| health.watch_progress.get_or_create(&ResourceLabels::of(*r)).clone();
        let progress = [0, 1, 2].map(|i| gauge(&Resource::VARIANTS[i]));
        Arc::new(Observer { answered: Default::default(), progress })
    }

    /// The server answered `resource` (or sent a piece of its watch) now.
    fn heard(&self, resource: Resource) {
        let unix = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0);
        self.progress[index(resource)].set(unix);
    }

    fn answered(&self, resource: Resource) -> u64 {
        self.answered[index(resource)].load(Ordering::Relaxed)
    }

    /// `client` with this observer in front of it.
    pub(crate) fn client(self: &Arc<Self>, client: &Client) -> Client {
        let observed = Observed { client: client.clone(), observer: self.clone() };
        Client::new(observed, client.default_namespace())
    }
}

/// The client's service, noting what the server answers.
#[derive(Clone)]
struct Observed {
    client: Client,
    observer: Arc<Observer>,
}

type Response = http::Response<Noticed>;

impl tower::Service<http::Request<kube::client::Body>> for Observed {
    type Response = Response;
    type Error = kube::Error;
    type Future = BoxFuture<'static, Result<Response, kube::Error>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), kube::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<kube::client::Body>) -> Self::Future {
        let resource = resource_of(request.uri().path());
        let (client, observer) = (self.client.clone(), self.observer.clone());
        Box::pin(async move {
            let response = client.send(request).await?;
            let noted = resource.filter(|_| response.status().is_success());
            if let Some(resource) = noted {
                observer.answered[index(resource)].fetch_add(1, Ordering::Relaxed);
                observer.heard(resource);
            }
            Ok(response.map(|body| Noticed { body, noted: noted.map(|r| (r, observer)) }))
        })
    }
}

/// A successful answer's body, noting each piece as it arrives.
struct Noticed {
    body: kube::client::Body,
    noted: Option<(Resource, Arc<Observer>)>,
}

impl Body for Noticed {
    type Data = Bytes;
    type Error = kube::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, kube::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        if let (Poll::Ready(Some(Ok(_))), Some((resource, observer))) = (&polled, &self.noted) {
            observer.heard(*resource);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A watch's retry delays: doubling from 250 ms to at most 4 s (kube's default grows to 30 s, so
/// a watch could sleep half a minute after the server came back), and back to 250 ms once the
/// server has answered that resource since the last retry.
pub(crate) struct Recovering {
    observer: Arc<Observer>,
    resource: Resource,
    seen: u64,
    delay: Duration,
}

impl Recovering {
    /// The delays of `resource`'s watch.
    pub(crate) fn new(observer: &Arc<Observer>, resource: Resource) -> Self {
        Recovering { observer: observer.clone(), resource, seen: observer.answered(resource), delay: RETRY.0 }
    }
}

impl Iterator for Recovering {
    type Item = Duration;

    fn next(&mut self) -> Option<Duration> {
        let answered = self.observer.answered(self.resource);
        if answered != self.seen {
            (self.seen, self.delay) = (answered, RETRY.0);
        }
        let delay = self.delay;
        self.delay = (self.delay * 2).min(RETRY.1);
        Some(delay)
    }
}

impl kube::runtime::utils::Backoff for Recovering {
    fn reset(&mut self) {
        self.delay = RETRY.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_double_to_four_seconds_and_start_over_once_the_server_answers() {
        let health = Health::default();
        let observer = Observer::new(&health);
        let mut backoff = Recovering::new(&observer, Resource::Services);
        let ms = |b: &mut Recovering| b.next().unwrap().as_millis();
        let delays: Vec<u128> = (0..7).map(|_| ms(&mut backoff)).collect();
        assert_eq!(delays, [250, 500, 1000, 2000, 4000, 4000, 4000]);
        // Another resource's answer does not count; this one's does.
        observer.answered[index(Resource::Nodes)].fetch_add(1, Ordering::Relaxed);
        assert_eq!(ms(&mut backoff), 4000);
        observer.answered[index(Resource::Services)].fetch_add(1, Ordering::Relaxed);
        assert_eq!(ms(&mut backoff), 250);
        assert_eq!(ms(&mut backoff), 500);
    }

    /// The longest a healthy watch goes without hearing from the API server, in seconds, with or
    /// without bookmarks (an API server without its watch cache sends none): the server ends the
    /// watch after [`WATCH_TIMEOUT`] and answers the next one at once; if its end never arrives,
    /// kube-runtime gives up on the stream 5 s later (`WATCH_IDLE_TIMEOUT_MARGIN`). A watch that is
    /// open but hears nothing is not counted as fresh: a frozen API server keeps its watches open.
    /// docs/monitoring.md ("Staleness") says what the alert's threshold must keep above this.
    const QUIET_BOUND: u32 = WATCH_TIMEOUT + 5;

    #[test]
    fn the_shipped_stale_alert_waits_well_beyond_a_quiet_healthy_watch() {
        // The alert compares time() - last_sync with a threshold: a healthy watch of a quiet
        // resource without bookmarks ages up to QUIET_BOUND, so the threshold keeps a margin of
        // at least four such periods (a WATCH_TIMEOUT raised too far fails here).
        let rules = include_str!("../../deploy/prometheus/rules.yaml");
        let expr = "time() - kubectl_topo_last_sync_timestamp_seconds > ";
        let threshold: u32 = rules
            .lines()
            .find_map(|l| l.split_once(expr).map(|(_, n)| n.trim()))
            .and_then(|n| n.parse().ok())
            .expect("KubectlTopoExporterStale's threshold in deploy/prometheus/rules.yaml");
        assert!(threshold >= 4 * QUIET_BOUND, "threshold {threshold}s, quiet bound {QUIET_BOUND}s");
    }

    #[test]
    fn only_the_list_and_watch_paths_of_the_three_resources_count() {
        assert_eq!(resource_of("/api/v1/nodes"), Some(Resource::Nodes));
        assert_eq!(resource_of("/apis/discovery.k8s.io/v1/endpointslices"), Some(Resource::EndpointSlices));
        assert_eq!(resource_of("/version"), None);
        assert_eq!(resource_of("/api/v1/namespaces/x/services"), None);
    }
}

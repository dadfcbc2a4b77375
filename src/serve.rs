//! `serve`: the exporter, in one place. Its pure half is [`exporter`] (the objects held, the
//! incremental recompute, the metrics and their text, what each path answers: no network, no
//! clock); its I/O is [`follow`] (the watches, turned into [`exporter::Change`]s) and [`driver`]
//! (the HTTP listener, the clock, the debounce, SIGTERM). This file wires the two: it applies
//! changes, recomputes, encodes, and logs retried failures on stderr. Runs until SIGTERM or
//! Ctrl-C, then exits 0. The generic reflector of `watch` stays in `source::watch`.

pub(crate) mod auth;
pub(crate) mod driver;
pub mod exporter;
pub(crate) mod follow;
pub(crate) mod http;
pub(crate) mod memory;
pub(crate) mod observe;
pub(crate) mod tls;

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use crate::error::Error;
use crate::exit::ExitStatus;
use crate::settings::{MetricList, ServeJob, Settings, SettingsError};
use crate::source::SourceSpec;
use driver::Event;
use exporter::Exporter;
use exporter::exposition::Exposition;
use exporter::format::Format;
use exporter::metrics::{Health, ResourceLabels};
use exporter::policy::{MetricFilter, Namespaces, PerZone, Policy};
use exporter::routes::{self, Reply, Request};
use topo_engine::core::analyze;
use topo_engine::model::{Behaviour, Snapshot};

/// What the HTTP side reads and the watch side writes.
struct Shared {
    state: Mutex<Exporter>,
    /// What the state holds and how it sums Services up (kept for the state made on connect).
    policy: Policy,
    health: Health,
    ready: AtomicBool,
    /// Served over TLS (for the note saying where).
    https: bool,
    /// The per-Service text of the scrapes, refreshed after each recompute (lock after `state`).
    exposition: Mutex<Exposition>,
}

impl Shared {
    fn respond(&self, request: &Request) -> Reply {
        routes::respond(request, self.ready.load(Ordering::Relaxed), |format| self.scrape(format))
    }

    /// The kept per-Service text, the Services changed since the last scrape encoded first, and
    /// the node and health part encoded now.
    fn scrape(&self, format: Format) -> String {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let mut exposition = self.exposition.lock().unwrap_or_else(PoisonError::into_inner);
        let encoded = exposition.refresh(&mut state);
        let text = exposition.scrape(&state, &self.health, format);
        drop((exposition, state));
        if encoded >= memory::COLLECT_AFTER {
            memory::release();
        }
        text
    }
}

/// Serve metrics until a signal; exit 0 then. The config file is read once, at start.
pub(crate) fn run(settings: &Settings, job: &ServeJob, err: &mut dyn Write) -> Result<ExitStatus, Error> {
    let SourceSpec::Live(live) = &settings.source else {
        return Err(SettingsError::ServeFromFile.into());
    };
    let policy = policy(job)?;
    let tls = job.tls.as_ref().map(tls::acceptor).transpose()?;
    let shared = Arc::new(Shared {
        // Replaced once the server version is known (Event::Connected).
        state: Mutex::new(Exporter::with_policy(Behaviour::default(), policy.clone())),
        policy,
        health: Health::default(),
        ready: AtomicBool::new(false),
        https: tls.is_some(),
        exposition: Mutex::new(Exposition::new(job.cluster.as_deref()).filtered(metric_filter(&job.metrics))),
    });
    let listen = job.listen;
    let responder = shared.clone();
    let respond: http::Respond = Arc::new(move |request: &Request| responder.respond(request));
    let gate = job.token_review.then(|| Arc::new(auth::Gate::new()));
    let sides = driver::Sides { respond, tls, gate, observer: observe::Observer::new(&shared.health) };
    driver::run::<Error>(live, listen, sides, &mut |event| on_event(settings, &shared, event, err))?;
    let _ = writeln!(err, "note: stopped");
    Ok(ExitStatus::Ok)
}

/// One event of the driver; true when a change touched something the engine reads.
fn on_event(settings: &Settings, shared: &Shared, event: Event, err: &mut dyn Write) -> Result<bool, Error> {
    let health = &shared.health;
    match event {
        Event::Listening { local } => {
            let scheme = if shared.https { "https" } else { "http" };
            let _ = writeln!(err, "note: serving /metrics, /healthz and /readyz on {scheme}://{local}");
        }
        Event::Connected { server_version } => {
            let mut snapshot = Snapshot::default();
            snapshot.info.server_version = Some(server_version);
            let chosen = topo_engine::core::version::choose(settings.behaviour, &snapshot)?;
            for note in crate::prose::version::notes(&chosen, &snapshot) {
                let _ = writeln!(err, "note: {note}");
            }
            let behaviour = chosen.behaviour;
            *shared.state.lock().unwrap_or_else(PoisonError::into_inner) =
                Exporter::with_policy(behaviour, shared.policy.clone());
        }
        Event::Change(change) => {
            return Ok(shared.state.lock().unwrap_or_else(PoisonError::into_inner).apply(change));
        }
        Event::DataPlane(data_plane) => {
            return Ok(shared
                .state
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .set_data_plane(data_plane));
        }
        Event::Synced { unix } => {
            within_zone_limit(shared)?;
            recompute(shared, unix, Encode::Now);
            if !shared.ready.swap(true, Ordering::Relaxed) {
                health.ready.set(1);
                let _ = writeln!(err, "note: ready: every watch has listed");
            }
        }
        Event::Settled { unix } => {
            within_zone_limit(shared)?;
            recompute(shared, unix, Encode::AtScrape);
        }
        Event::Restarted(resource) => {
            health.watch_restarts.get_or_create(&ResourceLabels::of(resource)).inc();
        }
        Event::Failed(resource, note) => {
            health.watch_errors.get_or_create(&ResourceLabels::of(resource)).inc();
            let _ = writeln!(err, "note: {note}");
        }
    }
    Ok(false)
}

/// The state's policy: settings' choices and the rules of the config file.
fn policy(job: &ServeJob) -> Result<Policy, Error> {
    Ok(Policy {
        per_zone: if job.per_zone_all { PerZone::All } else { PerZone::Hinted },
        namespaces: Namespaces { only: job.namespaces.clone(), except: job.namespaces_denylist.clone() },
        rules: crate::triage::config::load(&job.config)?,
    })
}

/// The families a scrape shows.
fn metric_filter(list: &MetricList) -> MetricFilter {
    let regexes = |list: &[crate::settings::MetricRegex]| list.iter().map(|r| r.0.clone()).collect();
    match list {
        MetricList::All => MetricFilter::All,
        MetricList::Allow(allow) => MetricFilter::Allow(regexes(allow)),
        MetricList::Deny(deny) => MetricFilter::Deny(regexes(deny)),
    }
}

/// No more zones than modelled, as `check` and `explain` refuse them (issue 32): the one line
/// and its exit code instead of minutes of routing per recompute.
fn within_zone_limit(shared: &Shared) -> Result<(), Error> {
    zone_limit(&mut shared.state.lock().unwrap_or_else(PoisonError::into_inner))
}

fn zone_limit(state: &mut Exporter) -> Result<(), Error> {
    Ok(state.within_zone_limit(analyze::MAX_ZONES)?)
}

/// When the metric text of the Services a recompute changed is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encode {
    /// At once: after a (re)list, so that `/readyz` answers 200 with every Service's text ready
    /// and the first scrape does not encode the whole cluster.
    Now,
    /// At the next scrape ([`Shared::scrape`]) when the recompute analysed a few Services (a
    /// change's): a Service that changes several times between two scrapes is encoded once, and
    /// a change costs no text nobody has asked for yet. A recompute of many (a Node change)
    /// encodes at once, and gives back the memory it freed.
    AtScrape,
}

/// Recompute what changed (timed), then encode the Services whose metrics changed, now or at
/// the next scrape.
fn recompute(shared: &Shared, unix: f64, encode: Encode) {
    let mut state = shared.state.lock().unwrap_or_else(PoisonError::into_inner);
    if !state.is_dirty() {
        return;
    }
    let started = Instant::now();
    let services = state.recompute(unix);
    shared.health.recompute_seconds.observe(started.elapsed().as_secs_f64());
    shared.health.services_recomputed.inc_by(services as u64);
    if encode == Encode::Now || services >= memory::COLLECT_AFTER {
        shared.exposition.lock().unwrap_or_else(PoisonError::into_inner).refresh(&mut state);
    }
    drop(state);
    if services >= memory::COLLECT_AFTER {
        memory::release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::node_in_own_zone;
    use exporter::{Change, Object};

    #[test]
    fn more_zones_than_modelled_are_refused_as_check_refuses_them() {
        let mut state = Exporter::new(Behaviour::default());
        let add = |state: &mut Exporter, i: usize| {
            state.apply(Change::Applied(Object::Node(node_in_own_zone(i))));
        };
        (0..analyze::MAX_ZONES).for_each(|i| add(&mut state, i));
        assert!(zone_limit(&mut state).is_ok());
        add(&mut state, analyze::MAX_ZONES);
        let refused = zone_limit(&mut state).expect_err("one zone too many");
        assert!(matches!(refused, Error::Zones(analyze::TooManyZones { limit: analyze::MAX_ZONES })));
        assert_eq!(refused.to_string(), crate::prose::limits::too_many_zones(analyze::MAX_ZONES));
    }

    /// A change's text is left to the next scrape, which shows exactly what an encoding of the
    /// whole state from scratch shows; a relist's is encoded at once.
    #[test]
    fn a_change_recomputed_is_encoded_by_the_next_scrape() {
        use crate::fixtures::{node, service, slice};
        let shared = Shared {
            state: Mutex::new(Exporter::new(Behaviour::default())),
            policy: Policy::default(),
            health: Health::default(),
            ready: AtomicBool::new(true),
            https: false,
            exposition: Mutex::new(Exposition::new(None)),
        };
        let apply = |change| shared.state.lock().unwrap().apply(change);
        let scratch = || {
            let state = shared.state.lock().unwrap();
            exporter::metrics::openmetrics(&state, &shared.health, None)
        };
        for z in 0..3 {
            apply(Change::Applied(Object::Node(node(z, Some(z), Some(4), true))));
        }
        apply(Change::Applied(Object::Service(service(0, 1))));
        let hinted: Vec<_> = (0..3).map(|z| (Some(z), true, Some(z))).collect();
        apply(Change::Applied(Object::Slice(slice(0, 0, &hinted))));
        recompute(&shared, 0.0, Encode::Now);
        assert_eq!(shared.exposition.lock().unwrap().refresh(&mut shared.state.lock().unwrap()), 0);
        let before = shared.scrape(Format::OpenMetrics);
        assert_eq!(before, scratch());

        apply(Change::Applied(Object::Slice(slice(0, 0, &[(Some(0), true, None)]))));
        recompute(&shared, 1.0, Encode::AtScrape);
        let after = shared.scrape(Format::OpenMetrics);
        assert_ne!(after, before, "the change shows");
        assert_eq!(after, scratch());
        // Encoded by that scrape: nothing is left for the next one.
        assert_eq!(shared.exposition.lock().unwrap().refresh(&mut shared.state.lock().unwrap()), 0);
    }

    /// The count is skipped after changes of known zones only: a slice that names a new zone
    /// (its endpoints' or its hints', owned by a Service or not) still counts everything again.
    #[test]
    fn a_slice_naming_new_zones_is_counted_after_a_count() {
        use topo_engine::model::Hints;
        let slice = |i: usize, zone: &str, hint: &str| {
            let mut slice = crate::fixtures::slice(i, 0, &[(Some(0), true, Some(0))]);
            slice.service_name = None;
            slice.endpoints[0].zone = Some(zone.into());
            slice.endpoints[0].hints = Some(Hints::zone(hint));
            Change::Applied(Object::Slice(slice))
        };
        let mut state = Exporter::new(Behaviour::default());
        let limit = analyze::MAX_ZONES;
        for i in 0..limit - 2 {
            state.apply(Change::Applied(Object::Node(node_in_own_zone(i))));
        }
        assert!(zone_limit(&mut state).is_ok());
        state.apply(slice(1, "zone-0", "zone-1"));
        assert!(zone_limit(&mut state).is_ok());
        state.apply(slice(2, "zone-new", "zone-0"));
        assert!(zone_limit(&mut state).is_ok(), "{} zones: at the limit", limit - 1);
        state.apply(slice(3, "zone-0", "zone-newer"));
        assert!(zone_limit(&mut state).is_ok(), "at the limit");
        state.apply(slice(4, "zone-newest", "zone-0"));
        assert!(matches!(zone_limit(&mut state), Err(Error::Zones(_))));
    }
}

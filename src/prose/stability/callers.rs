//! Whose requests the load line weighs (docs/stability.md#callers-from-the-front-door): zone CPU,
//! `--traffic`, or the Pods of the front door before the Service, and why those Pods could not be
//! used when they could not.

use topo_engine::report::TrafficSource;
use topo_engine::report::stability::load::{CallersFallback, FrontDoorCallers, LoadCheck};

use crate::escape::escape;

/// `callers weighted by zone CPU`, `callers: the Pods of Ingress shop/web, 2 in zone a`.
pub(super) fn callers(l: &LoadCheck) -> String {
    match (l.traffic_source, &l.front_door) {
        (TrafficSource::ZoneCpu, _) => "callers weighted by zone CPU".to_string(),
        (TrafficSource::Given, _) => "callers weighted by --traffic".to_string(),
        (TrafficSource::FrontDoor, Some(f)) => {
            let zones: Vec<String> = f
                .pods_by_zone
                .iter()
                .map(|(zone, pods)| format!("{pods} in zone {}", escape(zone)))
                .collect();
            format!("callers: the Pods of {}, {}", routes(f), zones.join(", "))
        }
        (TrafficSource::FrontDoor, None) => "callers: the front door's Pods".to_string(),
    }
}

/// Why the front door's Pods did not weigh the callers, as a sentence (`None`: they did, or the
/// Service has no front door).
pub(super) fn fallback_note(l: &LoadCheck) -> Option<String> {
    let f = l.front_door.as_ref()?;
    let why = match f.fallback? {
        CallersFallback::PodsNotRead => {
            format!("its Pods were {}", crate::prose::partial::read_status(f.pods_read))
        }
        CallersFallback::NoPods => "none of its Pods was found".to_string(),
        CallersFallback::UnknownZone => {
            let pods: Vec<String> = f.unknown_zone.iter().take(3).map(|p| escape(p).into_owned()).collect();
            let more = f.unknown_zone.len().saturating_sub(3);
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            format!(
                "the zone of Pod(s) {}{more} is unknown (not scheduled, or on a Node without a zone)",
                pods.join(", ")
            )
        }
    };
    Some(format!(
        "note: requests come through {}, but {why}: callers weighted by zone CPU instead.",
        routes(f)
    ))
}

/// `Ingress shop/web and HTTPRoute shop/api`.
fn routes(f: &FrontDoorCallers) -> String {
    let shown: Vec<String> = f.routes.iter().take(3).map(|r| escape(r).into_owned()).collect();
    match f.routes.len().saturating_sub(3) {
        0 => shown.join(" and "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

//! English for the picture formats (`-o html|dot|mermaid`) and the terminal zone bar: labels,
//! captions and notes. The sentences about reasons come from [`super::sentence`].

use std::borrow::Cow;

use topo_engine::report::whatif::Outcomes;
use topo_engine::report::{FamilyReport, ServiceRef};

/// A zone as pictures name it: `(no zone)` for the empty zone label.
pub(crate) fn zone(zone: &str) -> Cow<'_, str> {
    if zone.is_empty() { Cow::Borrowed("(no zone)") } else { Cow::Borrowed(zone) }
}

/// A fraction as a percentage with one decimal.
pub(crate) fn percent(fraction: f64) -> String {
    format!("{:.1}%", fraction * 100.0)
}

/// A fraction as a whole percentage (band labels).
pub(crate) fn percent_short(fraction: f64) -> String {
    format!("{:.0}%", fraction * 100.0)
}

/// What a destination zone's endpoints receive, under its bar.
pub(crate) fn received(fraction_of_all: f64) -> String {
    format!("receives {}", percent(fraction_of_all))
}

/// The caption of a panel: `ns/name · IPv4 · Blocked`; `after` names the side of a simulation.
pub(crate) fn panel_title(s: &ServiceRef, f: &FamilyReport, after: Option<bool>) -> String {
    let side = match after {
        None => "",
        Some(false) => "before · ",
        Some(true) => "after · ",
    };
    format!("{side}{}/{} · {} · {}", s.namespace, s.name, f.address_type, f.verdict)
}

/// The origin node of a zone, as lines: whose requests.
pub(crate) fn clients(zone_name: &str, share_of_all: f64) -> Vec<String> {
    vec![format!("clients in {}", zone(zone_name)), format!("{} of requests", percent(share_of_all))]
}

/// The destination node of a zone, as lines: whose endpoints.
pub(crate) fn endpoints(zone_name: &str, ready: Option<i64>) -> Vec<String> {
    let mut lines = vec![format!("endpoints in {}", zone(zone_name))];
    lines.extend(ready.map(|n| format!("{n} ready")));
    lines
}

/// The label of a routed zone pair.
pub(crate) fn route(share: &Outcomes<f64>) -> String {
    format!("now {} · after sync {}", percent(share.now), percent(share.expected))
}

/// A family kube-proxy does not route (no cross-zone facts).
pub(crate) const NO_ROUTING: &str =
    "kube-proxy does not route this Service's ClusterIP traffic: nothing to draw";

/// The note of a capped `check` picture.
pub(crate) fn capped(shown: usize, total: usize) -> String {
    format!(
        "Routing pictures for {shown} of {total} Services only (a size cap), the worst verdicts \
         first: narrow the scope with -n or -l, or run explain -o html on one Service."
    )
}

/// A family routes more zone pairs than one picture draws.
pub(crate) fn routes_capped(shown: usize, total: usize) -> String {
    format!("The {shown} widest of {total} routed zone pairs are drawn (a size cap); -o json lists them all.")
}

/// Captions of the two routing states drawn.
pub(crate) const NOW: &str = "Now: where each zone's requests go with today's hints";
/// See [`NOW`].
pub(crate) const AFTER_SYNC: &str = "After the controller's next sync";
/// Band legend.
pub(crate) const BANDS: &str = "Each band runs from the zone the requests come from (top bar) to the zone of the endpoints they \
     reach (bottom bar); its width is its share of all requests, its number the share of its origin \
     zone's requests. Under each bottom bar: the share of all requests that zone's endpoints receive.";

/// Labels of a zone card.
pub(crate) mod card {
    /// CPU share label.
    pub(crate) const CPU_SHARE: &str = "CPU share";
    /// Nodes label.
    pub(crate) const NODES: &str = "nodes";
    /// Ready endpoints label.
    pub(crate) const READY: &str = "ready endpoints";
    /// Hinted endpoints label.
    pub(crate) const HINTED: &str = "hinted now → after sync";
    /// Unknown value.
    pub(crate) const UNKNOWN: &str = "–";
}

/// A zone's overload against the controller's threshold, in words.
pub(crate) fn overload(percent: Option<f64>, threshold_percent: f64) -> String {
    match percent {
        Some(p) if p > threshold_percent => {
            format!("overload {p:+.0}% — over the {threshold_percent:.0}% threshold")
        }
        Some(p) => format!("overload {p:+.0}% — within the {threshold_percent:.0}% threshold"),
        None => "overload not computed".to_string(),
    }
}

/// The share of requests leaving their zone (and dropped) in one state.
pub(crate) fn leaving(cross: f64, dropped: f64) -> String {
    let mut text = format!("{} of requests leave their zone", percent(cross));
    if dropped > 0.0 {
        text.push_str(&format!(", {} are dropped", percent(dropped)));
    }
    text
}

/// A band's tooltip.
pub(crate) fn band(from: &str, to: &str, fraction_of_origin: f64, state: &str) -> String {
    format!(
        "{} → {}: {} of {}'s requests ({state})",
        zone(from),
        zone(to),
        percent(fraction_of_origin),
        zone(from)
    )
}

/// Short names of the states, for tooltips.
pub(crate) const STATE_NOW: &str = "now";
/// See [`STATE_NOW`].
pub(crate) const STATE_AFTER: &str = "after the next sync";

/// Headings of the HTML page.
pub(crate) mod page {
    /// `explain` page title.
    pub(crate) fn explain(namespace: &str, name: &str) -> String {
        format!("kubectl topo explain {namespace}/{name}")
    }
    /// `check` page title.
    pub(crate) const CHECK: &str = "kubectl topo check";
    /// `simulate` page title.
    pub(crate) fn simulate(namespace: &str, name: &str) -> String {
        format!("kubectl topo simulate {namespace}/{name}")
    }
    /// Behaviour line.
    pub(crate) fn behaviour(version: &str) -> String {
        format!("Kubernetes {version} behaviour")
    }
    /// Service heading.
    pub(crate) fn service(namespace: &str, name: &str) -> String {
        format!("Service {namespace}/{name}")
    }
    /// The controller's action.
    pub(crate) fn action(action: &str) -> String {
        format!("controller: {action}")
    }
    /// Summary: services checked.
    pub(crate) fn services(n: usize) -> String {
        format!("{n} Services checked")
    }
    /// Summary: the cross-zone share over the cluster, today and after the next sync (means over
    /// the Services kube-proxy routes).
    pub(crate) fn cluster_cross_zone(now: Option<f64>, after_sync: Option<f64>) -> String {
        match (now, after_sync) {
            (Some(now), Some(after)) => format!(
                "Cross-zone share, averaged over the Services kube-proxy routes (each Service weighted \
                 equally): {} today, {} after the next sync",
                super::percent(now),
                super::percent(after)
            ),
            _ => "No Service with routed ClusterIP traffic".to_string(),
        }
    }
    /// Table headers of `check`: the same two shares as the terminal table's CROSS-ZONE and
    /// AFTER-SYNC.
    pub(crate) const CHECK_HEADERS: [&str; 7] =
        ["Service", "Mode", "Verdict", "First reason", "Replicas needed", "Cross-zone today", "After sync"];
    /// Simulation: the changes.
    pub(crate) fn changes(changes: &str) -> String {
        format!("Changes: {changes}")
    }
    /// Simulation: whether the controller reaches the after state.
    pub(crate) fn synced(synced: bool) -> &'static str {
        if synced {
            "Controller: syncs the Service — the after state is reached"
        } else {
            "Controller: does not sync the Service — the after state is NOT reached on its own"
        }
    }
    /// Side headings of a simulation.
    pub(crate) const BEFORE: &str = "Before — today's cluster";
    /// See [`BEFORE`].
    pub(crate) const AFTER: &str = "After — the changed cluster, after the sync";
    /// Data-plane or mode notes heading.
    pub(crate) const NOTE: &str = "note";
}

/// Words of the terminal zone bar.
pub(crate) mod bar {
    /// Heading when hints are written.
    pub(crate) const HINTED: &str = "Zones: CPU share | share of the endpoints hinted after the next sync";
    /// Heading without hints.
    pub(crate) const READY: &str =
        "Zones: CPU share | share of the ready endpoints (no hints after the next sync)";
    /// `3 of 6`.
    pub(crate) fn count(n: i64, total: i64) -> String {
        format!("{n} of {total}")
    }
}

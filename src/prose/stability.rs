//! The words of the Stability section (`explain`) and of `simulate --replicas MIN..MAX`'s
//! certificate: the margin to the next flip, the flips the Events recorded, the certificate's
//! ranges (docs/stability.md).

use std::collections::BTreeMap;

use topo_engine::report::CountRange;
use topo_engine::report::stability::{
    Certificate, CountException, EndpointFlip, FRAGILE_SHARE_POINTS, History, Margin, NodeChange, NodeFlip,
    ShareMargin,
};

use crate::escape::escape;

mod callers;
mod certificates;
mod check;
pub(crate) use certificates::{load_line, unknown_line, workload_basis, workload_line};
pub(crate) use check::{certificate_cell, certificate_lines, not_read_note, truncated_note};

/// `on` / `off` as the verdict's state.
fn state(holds: bool) -> &'static str {
    if holds { "on" } else { "off" }
}

/// The opening line: today's state, the nearest share move, whether it is fragile.
pub(crate) fn margin_summary(m: &Margin) -> String {
    let mut line =
        format!("Hints are {} at the next sync with {} ready endpoint(s)", state(m.holds), m.ready_endpoints);
    match m.nearest_share_points {
        Some(points) => {
            line.push_str(&format!("; the nearest flip is a zone share move of {points:.1} points"))
        }
        None => line.push_str("; no move of one zone's CPU share flips that"),
    }
    if m.fragile {
        line.push_str(&format!(
            ". Fragile: under {FRAGILE_SHARE_POINTS} points, or one endpoint more or fewer flips it"
        ));
    }
    line.push('.');
    line
}

fn pct(share: f64) -> String {
    format!("{:.1} %", share * 100.0)
}

/// The caption of `-o html`'s margin picture.
pub(crate) fn margin_caption(holds: bool) -> String {
    format!(
        "Margin: each zone's CPU share (other zones' CPU unchanged); inside the shaded band hints stay {}, \
         the mark is today",
        state(holds)
    )
}

/// One zone's share band: `zone b may fall from 52.0 % to 40.1 % and grow to 60.0 % before hints go`.
pub(crate) fn share_line(s: &ShareMargin, holds: bool) -> String {
    let verb = if holds { "hints go" } else { "hints come" };
    let down = s.down.map_or_else(
        || "may fall to any share".to_string(),
        |f| format!("may fall from {} to {}", pct(s.share), pct(f.holds_to_share)),
    );
    let up = s
        .up
        .map_or_else(|| "grow to any share".to_string(), |f| format!("grow to {}", pct(f.holds_to_share)));
    format!("zone {} {down} and {up} before {verb} (other zones' CPU unchanged)", escape(&s.zone))
}

/// `a`, `a or b`, `a, b or c`.
fn zones_or(zones: &[&str]) -> String {
    let zones: Vec<String> = zones.iter().map(|z| escape(z).into_owned()).collect();
    match zones.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// The single-Node changes that flip the verdict, one line per change and size with its zones,
/// or that none does.
pub(crate) fn node_lines(flips: &[NodeFlip], examined: usize, holds: bool) -> Vec<String> {
    if flips.is_empty() {
        return vec![format!(
            "No single Node added or removed (of the {examined} change(s) of a size present) switches hints {}.",
            state(!holds)
        )];
    }
    let mut groups: BTreeMap<(bool, &str, bool), Vec<&str>> = BTreeMap::new();
    for f in flips {
        let added = f.change == NodeChange::Added;
        groups.entry((!added, f.cpu.as_str(), f.zone_leaves)).or_default().push(&f.zone);
    }
    groups
        .into_iter()
        .map(|((removed, cpu, leaves), zones)| {
            let what = match removed {
                false => format!("Adding a {cpu}-CPU Node in zone {}", zones_or(&zones)),
                true => format!("Removing a {cpu}-CPU Node from zone {}", zones_or(&zones)),
            };
            let leaves = if leaves { " (its last: the zone leaves the ratios)" } else { "" };
            format!("{what}{leaves} switches hints {}.", state(!holds))
        })
        .collect()
}

/// The ±1 endpoint answers, one line per answer with its zones.
pub(crate) fn endpoint_lines(endpoints: &[EndpointFlip], holds: bool) -> Vec<String> {
    let mut groups: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for e in endpoints.iter().filter(|e| e.add_flips || e.remove_flips == Some(true)) {
        let moves = match (e.add_flips, e.remove_flips == Some(true)) {
            (true, true) => "One more or one fewer",
            (true, false) => "One more",
            _ => "One fewer",
        };
        groups.entry(moves).or_default().push(if e.zone.is_empty() { "(none)" } else { &e.zone });
    }
    if groups.is_empty() {
        return vec!["No single ready endpoint more or fewer in any zone flips it.".to_string()];
    }
    groups
        .into_iter()
        .map(|(moves, zones)| {
            format!("{moves} ready endpoint in zone {} switches hints {}.", zones_or(&zones), state(!holds))
        })
        .collect()
}

/// The flips the Events recorded.
pub(crate) fn history_line(h: &History) -> String {
    let mut line = format!(
        "Events: hints switched on {} time(s), {} flip(s) in all, {} Disabled Event(s)",
        h.enabled, h.flips, h.disabled_events
    );
    if let (Some(first), Some(last)) = (&h.first_seen, &h.last_seen) {
        line.push_str(&format!(", seen {} to {}", escape(first), escape(last)));
    }
    match &h.streak {
        Some(s) if s.hints => {
            line.push_str(&format!("; on since {}", escape(s.since.as_deref().unwrap_or("an unknown time"))))
        }
        Some(s) => match &s.after {
            Some(after) => line.push_str(&format!("; off since after {}", escape(after))),
            None => line.push_str("; off, no switch on left in the Events"),
        },
        None => {}
    }
    line.push_str(" (Events live one hour by default: --event-ttl).");
    line
}

fn range_text(r: &CountRange) -> String {
    if r.from == r.to { r.from.to_string() } else { format!("{}–{}", r.from, r.to) }
}

fn exception_text(e: &CountException) -> String {
    if e.any_placement {
        return format!("{} (any placement)", e.count);
    }
    let shown: Vec<String> =
        e.examples.iter().map(|p| p.values().map(i64::to_string).collect::<Vec<_>>().join("/")).collect();
    format!("{} ({} of {} placements, e.g. {})", e.count, e.failing, e.allowed, shown.join(", "))
}

/// `hold at every count 3–12 in every allowed placement, except 4 (any placement) and 11 (4/4/3)`.
pub(crate) fn certificate_summary(c: &Certificate) -> String {
    let holds: Vec<String> = c.holds.iter().map(range_text).collect();
    let mut line = match (holds.is_empty(), c.spread.is_some_and(|s| s.hard)) {
        (true, _) => format!("Hints hold at no count {}–{}", c.min, c.max),
        (false, true) => {
            format!("Hints hold at every count {} in every placement the spread allows", holds.join(", "))
        }
        (false, false) => format!("Hints hold at every count {} in any placement", holds.join(", ")),
    };
    if !c.exceptions.is_empty() {
        let except: Vec<String> = c.exceptions.iter().map(exception_text).collect();
        line.push_str(&format!("; they do not at {}", except.join(", ")));
    }
    if !c.unschedulable.is_empty() {
        let counts: Vec<String> = c.unschedulable.iter().map(range_text).collect();
        line.push_str(&format!(
            "; the spread schedules no placement of {} (pods stay Pending)",
            counts.join(", ")
        ));
    }
    line.push('.');
    line
}

/// What the certificate assumed about placements.
pub(crate) fn certificate_basis(c: &Certificate) -> String {
    let zones: Vec<String> = c.zones.iter().map(|z| escape(z).into_owned()).collect();
    let spread = match c.spread {
        Some(s) if s.hard => format!(
            "a zone spread with maxSkew {}{}, DoNotSchedule (pods added one at a time)",
            s.max_skew,
            s.min_domains.map_or(String::new(), |d| format!(", minDomains {d}"))
        ),
        Some(s) => format!(
            "a zone spread with maxSkew {}, ScheduleAnyway: the scheduler may place pods anywhere",
            s.max_skew
        ),
        None => "no spread constraint: the scheduler may place pods anywhere".to_string(),
    };
    format!("Placements over zones {} with {spread}; {} examined.", zones.join(", "), c.placements_examined)
}

/// The certificate is about the Auto allocation: said when the Service is in another mode.
pub(crate) fn not_auto(mode: topo_engine::report::mode::Mode) -> Option<String> {
    (mode != topo_engine::report::mode::Mode::Auto).then(|| {
        format!(
            "The Service is in mode {mode}, not Auto: below is what the Auto allocation would do \
             (trafficDistribution hints do not depend on the count)."
        )
    })
}

/// The `note:` when the enumeration stopped at its limit.
pub(crate) fn certificate_truncated(c: &Certificate) -> Option<String> {
    c.truncated.then(|| {
        format!(
            "the certificate stopped after {} placements (limit {}): counts above {} are not certified",
            c.placements_examined,
            topo_engine::report::stability::PLACEMENT_LIMIT,
            c.examined_to
        )
    })
}

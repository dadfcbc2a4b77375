//! The history: flips of the Auto verdict the controller recorded on the Service
//! (`TopologyAwareHintsEnabled` / `TopologyAwareHintsDisabled`, `topologycache/event.go`,
//! docs/stability.md#history). The trafficDistribution path records no Events.
//!
//! `AddHints` emits Enabled only on the first success after hints were off (the Service's
//! "populated" flag), so each Enabled occurrence is a flip on; Disabled repeats on every failing
//! sync, so only the Disabled occurrences that follow an Enabled one are flips off. Events are
//! aggregated by (reason, message): a count and the last time, no order between two objects
//! beyond their last times. They live for the API server's `--event-ttl` (one hour by default).

use crate::core::topologycache::events::{
    EVENT_REASON_DISABLED as DISABLED, EVENT_REASON_ENABLED as ENABLED,
};
use crate::model::Event;
use crate::report::stability::{History, Streak};

/// The history of one Service from its Events (any order); None without a topology Event.
pub fn history(events: &[Event]) -> Option<History> {
    let mut topology: Vec<&Event> = events
        .iter()
        .filter(|e| e.object_kind == "Service" && (e.reason == ENABLED || e.reason == DISABLED))
        .collect();
    if topology.is_empty() {
        return None;
    }
    topology.sort_by(|a, b| a.last_seen.cmp(&b.last_seen));
    let occurrences = |reason: &str| -> i64 {
        topology.iter().filter(|e| e.reason == reason).map(|e| i64::from(e.count.max(1))).sum()
    };
    let enabled = occurrences(ENABLED);
    let disabled_events = occurrences(DISABLED);
    let newest = topology.last().expect("non-empty");
    let on = newest.reason == ENABLED;
    let last_enabled = topology.iter().rev().find(|e| e.reason == ENABLED).and_then(|e| e.last_seen.clone());
    // Every switch on but the current one (if on) was followed by a switch off; a Disabled Event
    // older than every Enabled one is not a flip.
    let off_flips = if on { enabled - 1 } else { enabled }.max(0);
    let streak = match on {
        true => Streak { hints: true, since: newest.last_seen.clone(), after: None },
        false => Streak { hints: false, since: None, after: last_enabled },
    };
    Some(History {
        enabled,
        disabled_events,
        flips: enabled + off_flips,
        first_seen: topology.iter().find_map(|e| e.last_seen.clone()),
        last_seen: newest.last_seen.clone(),
        streak: Some(streak),
    })
}

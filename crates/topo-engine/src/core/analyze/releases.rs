//! Release bugs that change what a sync does (docs/behaviour.md#release-fixes): the modelled
//! release (`Behaviour`, at patch level) and the Service's Events decide whether a family's
//! remedy is a sync of the Service or something else.

use crate::core::topologycache::events::{
    EVENT_REASON_DISABLED as DISABLED, EVENT_REASON_ENABLED as ENABLED, INSUFFICIENT_NODE_INFO,
};
use crate::model::{Behaviour, Event};
use crate::report::reason::{Facts, Reason, ReasonCode as C};
use crate::report::{FamilyReport, Verdict};

/// kubernetes/kubernetes#117245 on the releases that carry it: when the engine finds every counted
/// Node zoned (it expects hints, the slices have none: `HintsMissing`) but the Service's newest
/// topology Event is the controller's "Insufficient Node information", the controller's node cache
/// still holds a Node from before its zone label was added. `NodeZoneNotSeen` goes first, so the
/// remedy is a controller restart or a Node change, not a sync. On those releases a
/// `HintsMissing` without that evidence (1.24–1.25 record no Event) carries the release, so its
/// remedy can say what to do when a sync does not help.
pub(super) fn node_zone_not_seen(behaviour: Behaviour, events: &[Event], families: &mut [FamilyReport]) {
    if !behaviour.ignores_node_zone_updates() {
        return;
    }
    let stale = newest_topology_event_says_insufficient(events);
    for family in families.iter_mut().filter(|f| f.verdict == Verdict::Drift) {
        let Some(missing) = family.reasons.iter_mut().find(|r| r.code == C::HintsMissing) else {
            continue;
        };
        missing.facts.release = Some(behaviour);
        if stale {
            let facts = Facts { release: Some(behaviour), ..Facts::default() };
            family.reasons.insert(0, Reason::with(C::NodeZoneNotSeen, facts));
        }
    }
}

/// The newest `TopologyAwareHints*` Event on the Service (events come sorted, newest last) is a
/// `Disabled` one about Node information. Clock-free: "recent" is "nothing newer has happened".
fn newest_topology_event_says_insufficient(events: &[Event]) -> bool {
    events
        .iter()
        .rev()
        .find(|e| e.reason == DISABLED || e.reason == ENABLED)
        .is_some_and(|e| e.reason == DISABLED && e.message.starts_with(INSUFFICIENT_NODE_INFO))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(reason: &str, message: &str, last_seen: &str) -> Event {
        Event {
            namespace: "ns".into(),
            object_kind: "Service".into(),
            object_name: "svc".into(),
            event_type: "Normal".into(),
            reason: reason.into(),
            message: message.into(),
            count: 1,
            last_seen: Some(last_seen.into()),
            source: None,
        }
    }

    const INSUFFICIENT: &str = "Insufficient Node information: allocatable CPU or zone not specified on one or \
                                more nodes, addressType: IPv4";

    #[test]
    fn only_the_newest_topology_event_counts() {
        let disabled = event(DISABLED, INSUFFICIENT, "2023-05-01T10:00:00Z");
        let enabled = event(ENABLED, "Topology Aware Hints has been enabled", "2023-05-01T11:00:00Z");
        let other = event("Other", "unrelated", "2023-05-01T12:00:00Z");
        assert!(newest_topology_event_says_insufficient(&[disabled.clone(), other.clone()]));
        assert!(!newest_topology_event_says_insufficient(&[disabled.clone(), enabled.clone()]));
        assert!(newest_topology_event_says_insufficient(&[enabled, disabled]));
        let endpoints = event(DISABLED, "Insufficient number of endpoints", "2023-05-01T13:00:00Z");
        assert!(!newest_topology_event_says_insufficient(&[endpoints, other]));
        assert!(!newest_topology_event_says_insufficient(&[]));
    }

    #[test]
    fn the_bug_is_modelled_up_to_each_backport() {
        let bug = |m, p| Behaviour::patch(m, p).ignores_node_zone_updates();
        assert!(bug(24, 17) && bug(25, 12) && !bug(25, 13) && bug(26, 7) && !bug(26, 8));
        assert!(bug(27, 4) && !bug(27, 5) && !bug(28, 0) && !bug(23, 17));
        assert!(!Behaviour::new(27).ignores_node_zone_updates(), "a bare minor is its newest patch");
        assert!(Behaviour::new(24).ignores_node_zone_updates(), "1.24 never got the backport");
        assert_eq!(Behaviour::patch(26, 3).node_zone_update_fix(), Behaviour::patch(26, 8));
        assert_eq!(Behaviour::patch(24, 3).node_zone_update_fix(), Behaviour::patch(28, 0));
    }
}

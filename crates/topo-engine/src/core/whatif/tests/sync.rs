use crate::core::topologycache::ZoneCounts;
use crate::core::whatif::sync::{Triggers, decide};
use crate::core::zones::Ratios;
use crate::report::whatif::SyncNote as N;

fn counts(pairs: &[(&str, i64)]) -> ZoneCounts {
    pairs.iter().map(|(z, n)| (z.to_string(), *n)).collect()
}

fn thirds() -> Ratios {
    Ratios::Map(["a", "b", "c"].iter().map(|z| (z.to_string(), 1.0 / 3.0)).collect())
}

#[test]
fn node_event_requeues_only_overloaded_cached_hints() {
    let node = Triggers { node_event: true, ..Triggers::default() };
    // W3: {a,b,c,d:1} for three zones → required 2 each → overloaded.
    let (synced, requeued, notes) =
        decide(node, &[counts(&[("a", 1), ("b", 1), ("c", 1), ("d", 1)])], &thirds());
    assert_eq!((synced, requeued), (true, Some(true)));
    assert_eq!(notes, vec![N::NodesRecomputed, N::Requeued]);
    let (synced, requeued, notes) = decide(node, &[counts(&[("a", 1), ("b", 1), ("c", 1)])], &thirds());
    assert_eq!((synced, requeued), (false, Some(false)));
    assert_eq!(notes, vec![N::NodesRecomputed, N::NotRequeuedBalanced, N::NotReached]);
    let (synced, requeued, notes) = decide(node, &[ZoneCounts::new()], &thirds());
    assert_eq!((synced, requeued), (false, None));
    assert_eq!(notes, vec![N::NodesRecomputed, N::NotRequeuedNoCache, N::NotReached]);
}

#[test]
fn cpu_changes_alone_recompute_nothing() {
    let cpu = Triggers { cpu_changed: true, ..Triggers::default() };
    assert_eq!(decide(cpu, &[], &thirds()), (false, None, vec![N::CpuChangeIgnored, N::NotReached]));
    let both = Triggers { endpoints_changed: true, ..cpu };
    let notes = vec![N::CpuChangeIgnored, N::EndpointsChanged, N::StaleWeights];
    assert_eq!(decide(both, &[], &thirds()), (true, None, notes));
    let service = Triggers { service_changed: true, ..Triggers::default() };
    assert_eq!(decide(service, &[], &thirds()), (true, None, vec![N::ServiceChanged]));
}

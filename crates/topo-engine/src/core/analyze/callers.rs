//! The load check's callers (`core::stability::load`): zone CPU or `--traffic` as for the
//! cross-zone share, or, for a Service behind a front door, the zones of that door's Pods
//! (docs/stability.md#callers-from-the-front-door). `--traffic` wins.

use super::Cluster;
use super::crosszone::{CrossZoneInput, Origins, TrafficModel, cross_zone};
use crate::core::stability::load::{front_door_callers, load_check};
use crate::model::{EndpointSlice, OptionalObject};
use crate::report::CrossZone;
use crate::report::stability::load::LoadCheck;

/// The load check of one family: `input` routed its `cross` share (from the cluster's origins);
/// behind a front door whose Pods' zones are all known, requests are routed again from those zones.
pub(super) fn load(
    cluster: &Cluster<'_>,
    input: &CrossZoneInput<'_>,
    cross: Option<&CrossZone>,
    managed: &[EndpointSlice],
) -> Option<LoadCheck> {
    let front = match &cluster.traffic {
        TrafficModel::Given(_) => None,
        TrafficModel::ZoneCpu => {
            let data_plane = &cluster.snapshot.data_plane;
            let doors = &data_plane.front_doors;
            let by =
                doors.fronted_by(&cluster.ingresses_of(input.service), &cluster.routes_of(input.service));
            front_door_callers(
                doors,
                data_plane.status(OptionalObject::FrontDoorPods),
                &by,
                &cluster.snapshot.nodes,
            )
        }
    };
    match front {
        Some((facts, Some(weights))) => {
            let model = TrafficModel::Given(weights);
            let origins =
                Origins::new(&cluster.snapshot.nodes, &cluster.topology, &model, &cluster.proxy_nodes);
            let routed = cross_zone(&CrossZoneInput { origins: &origins, model: &model, ..*input })?;
            Some(load_check(&routed, managed, Some(facts)))
        }
        other => cross.map(|c| load_check(c, managed, other.map(|(facts, _)| facts))),
    }
}

//! What a Service asks for, as the data-plane readers of its hints look at it: shared by the
//! data-plane rules (`dataplane.rs`) and the front doors that read the hints (`hint_readers.rs`),
//! which both import it and not each other.

use crate::model::{ANNOTATION_TOPOLOGY_AWARE_HINTS, ANNOTATION_TOPOLOGY_MODE, Service};

/// The annotation or field that asks for topology on `service`, as Cilium looks at it: the
/// deprecated key by presence, else `topology-mode`, else `spec.trafficDistribution`.
pub(super) fn asked(service: &Service) -> Option<(String, String)> {
    let annotation = |key: &str| service.annotations.get(key).map(|v| (key.to_string(), v.clone()));
    annotation(ANNOTATION_TOPOLOGY_AWARE_HINTS)
        .or_else(|| annotation(ANNOTATION_TOPOLOGY_MODE))
        .filter(|(_, v)| !v.trim().is_empty() && !v.trim().eq_ignore_ascii_case("disabled"))
        .or_else(|| {
            let td = service.traffic_distribution.clone()?;
            Some(("spec.trafficDistribution".to_string(), td))
        })
}

//! The change every `serve` benchmark makes: one hinted EndpointSlice of a Service, patched with
//! and without its hints, and what an exporter's process spends on it (ours, kube-state-metrics).

use std::io;
use std::time::Duration;

use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::api::{Api, Patch, PatchParams};
use serde_json::{Value, json};

use crate::serve_proc::cpu_secs;

/// The first slice of a Service that carries hints, and the same slice without them.
pub(crate) async fn hinted_slice(
    api: &Api<EndpointSlice>,
    service: &str,
) -> io::Result<(String, Value, Value)> {
    let list = api
        .list(&kube::api::ListParams::default().labels(&format!("kubernetes.io/service-name={service}")))
        .await
        .map_err(io::Error::other)?;
    for slice in list.items {
        let endpoints = serde_json::to_value(&slice.endpoints).map_err(io::Error::other)?;
        if endpoints.as_array().is_some_and(|e| e.iter().any(|e| e.get("hints").is_some())) {
            let mut stripped = endpoints.clone();
            stripped
                .as_array_mut()
                .into_iter()
                .flatten()
                .for_each(|e| drop(e.as_object_mut().map(|o| o.remove("hints"))));
            return Ok((slice.metadata.name.unwrap_or_default(), endpoints, stripped));
        }
    }
    Err(io::Error::other(format!("no hinted slice for {service}")))
}

/// CPU seconds `pid` spends per change while `updates` changes of `slice` (alternately each of
/// `endpoints`) are made 100 ms apart, with no scrapes meanwhile.
pub(crate) async fn cpu_per_change(
    pid: u32,
    api: &Api<EndpointSlice>,
    slice: &str,
    endpoints: [&Value; 2],
    updates: usize,
) -> io::Result<f64> {
    let cpu_before = cpu_secs(pid);
    for i in 0..updates {
        let patch = json!({"endpoints": endpoints[i % 2]});
        api.patch(slice, &PatchParams::default(), &Patch::Merge(patch)).await.map_err(io::Error::other)?;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    Ok((cpu_secs(pid) - cpu_before) / updates.max(1) as f64)
}

/// `(namespace, service)` of the first Service with hinted endpoints in a scrape.
pub(crate) fn first_hinted(metrics: &str) -> Option<(String, String)> {
    let line =
        metrics.lines().find(|l| l.starts_with("kubectl_topo_hinted_endpoints{") && !l.ends_with(" 0"))?;
    let label = |key: &str| {
        let start = line.find(&format!("{key}=\""))? + key.len() + 2;
        Some(line[start..].split('"').next()?.to_string())
    };
    Some((label("namespace")?, label("service")?))
}

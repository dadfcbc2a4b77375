//! A real local kube-apiserver (the e2e tier's harness, without the controller manager so the
//! generated EndpointSlices stay as generated) loaded with a dump: bulk create, bounded concurrency.

use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use k8s_openapi::api::core::v1::{Namespace, Node, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::api::{Api, PostParams};
use kube::{Client, Resource};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

#[path = "../../tests/e2e/harness.rs"]
#[allow(dead_code)]
mod harness;

pub use harness::ControlPlane;

/// Requests in flight while loading.
const CONCURRENCY: usize = 24;

/// The e2e tier's control-plane binaries (built once, cached outside the repo).
pub fn binaries(repo: &Path) -> io::Result<harness::Binaries> {
    let out = Command::new("bash").arg(repo.join("tests/e2e/build-control-plane.sh")).output()?;
    if !out.status.success() {
        return Err(io::Error::other("tests/e2e/build-control-plane.sh failed"));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let get = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(PathBuf::from)
            .ok_or_else(|| io::Error::other(format!("{key} missing")))
    };
    Ok(harness::Binaries {
        kube_apiserver: get("KUBE_APISERVER=")?,
        kube_controller_manager: get("KUBE_CONTROLLER_MANAGER=")?,
        kube_proxy: get("KUBE_PROXY=")?,
        etcd: get("ETCD=")?,
    })
}

/// An admin client of a started control plane.
pub async fn client(plane: &ControlPlane) -> Client {
    harness::client_for(&plane.admin_kubeconfig).await
}

/// Start etcd + kube-apiserver and load `dump` into it.
pub async fn start_loaded(repo: &Path, dump: &Path) -> io::Result<ControlPlane> {
    let bins = binaries(repo)?;
    let plane = ControlPlane::start_apiserver_only(&bins).await;
    let client = harness::client_for(&plane.admin_kubeconfig).await;
    load(&client, dump).await?;
    Ok(plane)
}

#[derive(serde::Deserialize)]
struct List {
    items: Vec<Value>,
}

/// Server-set fields and owner references (no garbage collector runs) go; the rest is created as is.
fn for_create(mut item: Value) -> Value {
    if let Some(meta) = item.get_mut("metadata").and_then(Value::as_object_mut) {
        for key in ["resourceVersion", "uid", "creationTimestamp", "ownerReferences", "generation"] {
            meta.remove(key);
        }
    }
    item
}

async fn load(client: &Client, dump: &Path) -> io::Result<()> {
    let started = Instant::now();
    let text = std::fs::read(dump)?;
    let list: List = serde_json::from_slice(&text).map_err(io::Error::other)?;
    drop(text);
    let kind = |v: &Value| v["kind"].as_str().unwrap_or("").to_string();
    let mut by_kind: [Vec<Value>; 3] = Default::default();
    for item in list.items {
        let slot = match kind(&item).as_str() {
            "Node" => 0,
            "Service" => 1,
            "EndpointSlice" => 2,
            _ => continue,
        };
        by_kind[slot].push(for_create(item));
    }
    let [nodes, services, slices] = by_kind;
    let namespaces: BTreeSet<String> =
        services.iter().filter_map(|s| s["metadata"]["namespace"].as_str().map(str::to_string)).collect();
    let namespaces: Vec<Value> = namespaces.into_iter().map(|n| json!({"metadata": {"name": n}})).collect();
    let ns = |ns: Option<&str>| ns.unwrap_or("default").to_string();
    create_all::<Namespace>(namespaces, |_| Api::all(client.clone())).await?;
    let counts = (nodes.len(), services.len(), slices.len());
    create_all::<Node>(nodes, |_| Api::all(client.clone())).await?;
    create_all::<Service>(services, |n| Api::namespaced(client.clone(), &ns(n))).await?;
    create_all::<EndpointSlice>(slices, |n| Api::namespaced(client.clone(), &ns(n))).await?;
    eprintln!(
        "xtask: loaded {} nodes, {} services, {} endpointslices in {:.0}s",
        counts.0,
        counts.1,
        counts.2,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Create every object, `CONCURRENCY` at a time.
async fn create_all<K>(items: Vec<Value>, api_for: impl Fn(Option<&str>) -> Api<K>) -> io::Result<()>
where
    K: Resource<DynamicType = ()>
        + Clone
        + DeserializeOwned
        + serde::Serialize
        + std::fmt::Debug
        + Send
        + Sync
        + 'static,
{
    let mut pending = items.into_iter();
    let mut running = tokio::task::JoinSet::new();
    loop {
        while running.len() < CONCURRENCY {
            let Some(item) = pending.next() else { break };
            let object: K = serde_json::from_value(item).map_err(io::Error::other)?;
            let api = api_for(object.meta().namespace.as_deref());
            running.spawn(async move { api.create(&PostParams::default(), &object).await.map(drop) });
        }
        match running.join_next().await {
            None => return Ok(()),
            Some(Ok(Ok(()))) => {}
            Some(Ok(Err(e))) => return Err(io::Error::other(format!("create: {e}"))),
            Some(Err(e)) => return Err(io::Error::other(e)),
        }
    }
}

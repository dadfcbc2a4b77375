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

use crate::generate;
use crate::hints;
use crate::plan::ClusterPlan;

#[path = "../../tests/e2e/harness.rs"]
#[allow(dead_code)]
mod harness;

pub use harness::{ControlPlane, die_with_parent};

/// etcd's v3 JSON gateway (the e2e fault tier's helpers): `bench-serve` deletes a Service behind
/// the apiserver's back while it is down.
#[path = "../../tests/e2e/etcd.rs"]
#[allow(dead_code)]
pub mod etcd;

/// `e`, with the component of `plane` that exited and the end of its log, if one did: a load
/// that fails because etcd or the apiserver died says so instead of only "connection refused".
pub fn with_dead(plane: &mut ControlPlane, e: io::Error) -> io::Error {
    match plane.dead() {
        Some(why) => io::Error::other(format!("{e}\n{why}")),
        None => e,
    }
}

/// Requests in flight while loading Nodes (and namespaces).
const CONCURRENCY: usize = 32;

/// Requests in flight for Services, and for EndpointSlices beside them: a Service create mostly
/// waits (on the ClusterIP allocator and the watch cache), so more of them in flight load faster.
const SERVICE_CONCURRENCY: usize = 128;

/// The e2e tier's control-plane binaries (built once, cached outside the repo).
pub fn binaries(repo: &Path) -> io::Result<harness::Binaries> {
    let out = Command::new("bash").arg(repo.join("tests/e2e/build-control-plane.sh")).output()?;
    if !out.status.success() {
        let tail = crate::measure::stderr_tail(&String::from_utf8_lossy(&out.stderr), 10);
        return Err(io::Error::other(format!(
            "tests/e2e/build-control-plane.sh failed ({}); its stderr ends:\n{tail}",
            out.status
        )));
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
    let mut plane = ControlPlane::start_apiserver_only(&bins).await;
    let client = harness::client_for(&plane.admin_kubeconfig).await;
    let text = std::fs::read(dump)?;
    let list: List = serde_json::from_slice(&text).map_err(io::Error::other)?;
    drop(text);
    load(&client, list.items).await.map_err(|e| with_dead(&mut plane, e))?;
    Ok(plane)
}

/// Start etcd + kube-apiserver and load the generated cluster straight into it, object by object
/// as they are generated: no dump file, and never the whole cluster in memory.
pub async fn start_generated(repo: &Path, plan: &ClusterPlan) -> io::Result<ControlPlane> {
    let bins = binaries(repo)?;
    let mut plane = ControlPlane::start_apiserver_only(&bins).await;
    let client = harness::client_for(&plane.admin_kubeconfig).await;
    let (table, _) = hints::compute(plan);
    load(&client, generate::Objects::new(plan, &table)).await.map_err(|e| with_dead(&mut plane, e))?;
    Ok(plane)
}

/// Create the EndpointSlices of the first `services` Services of `plan` in the apiserver of
/// `kubeconfig` (already loaded with its Nodes and namespaces), `SLICE_CONCURRENCY` in flight;
/// slices that exist already are skipped. On a busy machine a Service create waits for the
/// apiserver's ClusterIP allocator and watch cache (≈ 7 a second here), so the slices of the
/// Services created so far are loaded beside that, not after it.
pub async fn load_slices(kubeconfig: &Path, plan: &ClusterPlan, services: usize) -> io::Result<usize> {
    let client = harness::client_for(kubeconfig).await;
    let (table, _) = hints::compute(plan);
    let wanted: BTreeSet<&str> = plan.services.iter().take(services).map(|s| s.name.as_str()).collect();
    let slices = generate::Objects::new(plan, &table).filter(|o| {
        o["kind"] == "EndpointSlice"
            && o["metadata"]["labels"]["kubernetes.io/service-name"]
                .as_str()
                .is_some_and(|n| wanted.contains(n))
    });
    let started = Instant::now();
    let counts = create_many(&client, slices, SLICE_CONCURRENCY).await?;
    eprintln!("xtask: {} endpointslices in {:.0}s", counts[2], started.elapsed().as_secs_f64());
    Ok(counts[2])
}

/// Requests in flight while loading EndpointSlices beside a running load.
const SLICE_CONCURRENCY: usize = 64;

/// An admin client of the kubeconfig at `path`.
pub async fn client_at(path: &Path) -> Client {
    harness::client_for(path).await
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

/// Create the objects of a dump: their namespaces, then the Nodes (`CONCURRENCY` requests in
/// flight), then the Services and EndpointSlices side by side (`SERVICE_CONCURRENCY` and
/// `SLICE_CONCURRENCY`).
async fn load(client: &Client, items: impl IntoIterator<Item = Value>) -> io::Result<()> {
    let started = Instant::now();
    let mut items = items.into_iter().peekable();
    // Namespaces come from the Services, which follow the Nodes: hold the Nodes back until then.
    let mut nodes = Vec::new();
    while let Some(item) = items.next_if(|i| i["kind"] == "Node") {
        nodes.push(item);
    }
    let mut services = Vec::new();
    while let Some(item) = items.next_if(|i| i["kind"] == "Service") {
        services.push(item);
    }
    let namespaces: BTreeSet<String> =
        services.iter().filter_map(|s| s["metadata"]["namespace"].as_str().map(str::to_string)).collect();
    let namespaces = namespaces.into_iter().map(|n| json!({"kind": "Namespace", "metadata": {"name": n}}));
    create_many(client, namespaces, CONCURRENCY).await?;
    let [nodes, ..] = create_many(client, nodes, CONCURRENCY).await?;
    // No controller manager runs: a slice does not need its Service, so both load side by side.
    let (services, slices) = tokio::try_join!(
        create_many(client, services, SERVICE_CONCURRENCY),
        create_many(client, items, SLICE_CONCURRENCY)
    )?;
    let counts = [nodes, services[1], slices[2]];
    eprintln!(
        "xtask: loaded {} nodes, {} services, {} endpointslices in {:.0}s",
        counts[0],
        counts[1],
        counts[2],
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

type Created = tokio::task::JoinSet<Result<(), kube::Error>>;

/// Create every object, `in_flight` at a time; counts of Nodes, Services, EndpointSlices. An object
/// that exists already counts as created (see [`spawn`]).
async fn create_many(
    client: &Client,
    items: impl IntoIterator<Item = Value>,
    in_flight: usize,
) -> io::Result<[usize; 3]> {
    let mut pending = items.into_iter();
    let mut running = Created::new();
    let mut counts = [0; 3];
    loop {
        while running.len() < in_flight {
            let Some(item) = pending.next() else { break };
            let kind = item["kind"].as_str().unwrap_or("").to_string();
            let item = for_create(item);
            let ns = item["metadata"]["namespace"].as_str().unwrap_or("default").to_string();
            let c = client.clone();
            match kind.as_str() {
                "Namespace" => spawn(&mut running, Api::<Namespace>::all(c), item)?,
                "Node" => spawn(&mut running, Api::<Node>::all(c), item)?,
                "Service" => spawn(&mut running, Api::<Service>::namespaced(c, &ns), item)?,
                "EndpointSlice" => spawn(&mut running, Api::<EndpointSlice>::namespaced(c, &ns), item)?,
                _ => continue,
            }
            if let Some(slot) = ["Node", "Service", "EndpointSlice"].iter().position(|k| *k == kind) {
                counts[slot] += 1;
            }
        }
        match running.join_next().await {
            None => return Ok(counts),
            Some(Ok(Ok(()))) => {}
            Some(Ok(Err(e))) => return Err(io::Error::other(format!("create: {e}"))),
            Some(Err(e)) => return Err(io::Error::other(e)),
        }
    }
}

/// One create request of `item` as a `K` through `api`.
fn spawn<K>(running: &mut Created, api: Api<K>, item: Value) -> io::Result<()>
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
    let object: K = serde_json::from_value(item).map_err(io::Error::other)?;
    running.spawn(async move {
        match api.create(&PostParams::default(), &object).await {
            Ok(_) => Ok(()),
            // kube's retry layer may send a create again after the first one was applied but its
            // answer was lost under load: the second is refused (409 AlreadyExists, or for a
            // Service 422 "provided IP is already allocated" — by its own first attempt). The
            // object being there is what counts. So any object of that name already there counts
            // as created, as it is: the loader writes into the fresh apiserver it started (or a
            // `live-up` of the same size).
            Err(kube::Error::Api(status)) if matches!(status.code, 409 | 422) => {
                let name = object.meta().name.clone().unwrap_or_default();
                match api.get_opt(&name).await? {
                    Some(_) => Ok(()),
                    None => Err(kube::Error::Api(status)),
                }
            }
            Err(e) => Err(e),
        }
    });
    Ok(())
}

//! One control plane per test process, shared by the scenario groups (one `#[test]` each).
//!
//! The first group to run starts it, with the binaries found or built exactly as
//! [`harness::binaries`] always did (a failure is remembered: later groups fail at once with the
//! same message instead of running the build again). Groups run one at a time: each holds
//! [`PLANE`]'s lock for its whole run, because Nodes, Pods and ClusterRoles are cluster-wide.
//! Before each group the cluster is reset ([`reset`]: no Pods, no `kube-system/cilium-config`);
//! the group then creates the Nodes, namespaces and Services it needs, so no group depends on
//! another having run, or on the order. A plane whose component died is replaced.
//!
//! Stopping: statics are never dropped, so an `atexit` handler stops the plane ([`Proc`]'s Drop:
//! SIGTERM, then SIGKILL, group-wide, and the processes reaped) before the test binary exits, pass
//! or fail. If the binary is killed instead, the kernel SIGKILLs every server (PR_SET_PDEATHSIG,
//! set by [`Proc::spawn`]) and the watchdogs kill their process groups. The servers are spawned
//! from a thread that never returns ("e2e-control-plane"): PR_SET_PDEATHSIG fires when the
//! spawning *thread* ends, and a test's thread ends with the test.
//!
//! [`Proc`]: crate::harness::Proc
//! [`Proc::spawn`]: crate::harness::Proc::spawn

use std::sync::{Mutex, Once, OnceLock, PoisonError, TryLockError};
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::Api;
use kube::api::DeleteParams;

use crate::cluster::Cluster;
use crate::harness::{self, Binaries, ControlPlane};
use crate::topo::{self, Topo};

struct Plane {
    cp: ControlPlane,
    bins: Binaries,
}

/// The shared control plane; its lock is held by the group running on it.
static PLANE: Mutex<Option<Plane>> = Mutex::new(None);

/// What one group works with: the shared plane, an admin client, the built `kubectl-topo`.
pub struct Env<'p> {
    pub cp: &'p ControlPlane,
    pub bins: &'p Binaries,
    pub cl: Cluster,
    pub topo: Option<Topo>,
    notes: Mutex<Vec<String>>,
}

impl Env<'_> {
    /// A note about controller or kube-proxy behaviour, printed as `e2e: note: …` once the group
    /// has passed.
    pub fn note(&self, note: impl Into<String>) {
        self.notes.lock().unwrap().push(note.into());
    }
}

/// Run one scenario group on the shared control plane (started on first use), after [`reset`].
pub fn group(body: impl AsyncFnOnce(&Env<'_>)) {
    let mut slot = PLANE.lock().unwrap_or_else(PoisonError::into_inner);
    let plane = running(&mut slot);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let notes = runtime.block_on(async {
        let env = Env {
            cl: Cluster::new(harness::client_for(&plane.cp.admin_kubeconfig).await),
            topo: topo::binary().map(|b| Topo::new(b, &plane.cp.admin_kubeconfig)),
            cp: &plane.cp,
            bins: &plane.bins,
            notes: Mutex::new(Vec::new()),
        };
        if env.topo.is_none() {
            eprintln!("e2e: kubectl-topo binary not part of this build: checking the controller side only");
        }
        reset(&env.cl).await;
        body(&env).await;
        env.notes.into_inner().unwrap()
    });
    plane.cp.check_alive();
    for n in notes {
        println!("e2e: note: {n}");
    }
}

/// The plane in `slot`, started (or replaced, when a component died) if need be.
fn running(slot: &mut Option<Plane>) -> &mut Plane {
    if slot.as_mut().is_some_and(|p| p.cp.exited()) {
        eprintln!("e2e: a control-plane component died in an earlier group: starting a new control plane");
        *slot = None;
    }
    if slot.is_none() {
        let bins = binaries();
        let cp = start_on_keeper_thread(bins.clone());
        println!("e2e: kube-apiserver version {}", cp.version);
        static AT_EXIT: Once = Once::new();
        AT_EXIT.call_once(register_stop_at_exit);
        *slot = Some(Plane { cp, bins });
    }
    slot.as_mut().unwrap()
}

/// [`harness::binaries`] once per process; its panic message is kept for the groups after it.
fn binaries() -> Binaries {
    static BINARIES: OnceLock<Result<Binaries, String>> = OnceLock::new();
    let found = BINARIES.get_or_init(|| {
        std::panic::catch_unwind(harness::binaries).map_err(|panic| {
            let text = panic.downcast_ref::<String>().cloned();
            text.or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
        })
    });
    match found {
        Ok(bins) => bins.clone(),
        Err(message) => panic!("control-plane binaries unavailable: {message}"),
    }
}

/// Start the plane from a thread that then parks for good, so that PR_SET_PDEATHSIG (which fires
/// when the spawning thread ends) only fires when the test process ends.
fn start_on_keeper_thread(bins: Binaries) -> ControlPlane {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("e2e-control-plane".into())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            let cp = runtime.block_on(ControlPlane::start(&bins));
            drop(runtime);
            let _ = tx.send(cp);
            loop {
                std::thread::park();
            }
        })
        .expect("spawn the control-plane thread");
    rx.recv().expect("the control plane did not start (its panic is printed above)")
}

fn register_stop_at_exit() {
    unsafe extern "C" {
        fn atexit(callback: extern "C" fn()) -> std::ffi::c_int;
    }
    // SAFETY: registers a plain function; it runs once, in `exit`, after every test has finished.
    let failed = unsafe { atexit(stop_at_exit) } != 0;
    assert!(!failed, "atexit failed: the control plane could outlive the tests");
}

/// Stop the shared plane when the test binary exits. A group still holding the lock (it cannot
/// be: libtest waits for every test) would leave it to PR_SET_PDEATHSIG and the watchdogs.
extern "C" fn stop_at_exit() {
    let plane = match PLANE.try_lock() {
        Ok(mut slot) => slot.take(),
        Err(TryLockError::Poisoned(p)) => p.into_inner().take(),
        Err(TryLockError::WouldBlock) => None,
    };
    // A panic must not cross the C boundary (it would abort before the processes are stopped).
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || drop(plane)));
}

/// Cluster-wide state no group may inherit: every Pod is deleted (and the controller has emptied
/// its slices) before a group replaces the Nodes, and the Cilium ConfigMap (`cilium.rs`) would
/// add a note to every report.
async fn reset(cl: &Cluster) {
    let config_maps: Api<ConfigMap> = Api::namespaced(cl.client.clone(), "kube-system");
    match config_maps.delete("cilium-config", &DeleteParams::default()).await {
        Ok(_) => {}
        Err(kube::Error::Api(s)) if s.code == 404 => {}
        Err(e) => panic!("delete kube-system/cilium-config: {e}"),
    }
    cl.clear_pods(Duration::from_secs(60)).await;
}

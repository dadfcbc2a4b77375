//! Real kube-proxies (v1.36.3, built with the control plane), one per chosen Node, each in a
//! network namespace the test creates. Nothing listens outside a loopback: the apiserver (root
//! namespace, 127.0.0.1) is reached through a Unix-socket bridge made of two socat processes —
//! `127.0.0.1:<api port>` inside each namespace → `<dir>/api.sock` → `127.0.0.1:<api port>`.
//! Rules live in the namespace and disappear with it; namespaces, relays and kube-proxies are
//! removed on Drop (and by a watchdog if the test process dies without unwinding).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::harness::{self, ControlPlane, Proc, tail};
use crate::proxy_nft;
use crate::proxy_rules::{self, Routing};

/// The pod CIDR the e2e Pods get their IPs from (`cluster.rs`: 10.244.x.y).
pub const CLUSTER_CIDR: &str = "10.244.0.0/16";

/// A network namespace, deleted on Drop.
pub struct NetNs {
    pub name: String,
    watchdog: Option<Child>,
}

fn run(cmd: &mut Command) -> std::process::Output {
    let out = cmd.stdin(Stdio::null()).output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

impl NetNs {
    pub fn create(name: &str) -> NetNs {
        // A namespace of that name left by a killed run of the same pid would make `add` fail.
        let _ = Command::new("ip").args(["netns", "del", name]).stderr(Stdio::null()).status();
        run(Command::new("ip").args(["netns", "add", name]));
        let watchdog = harness::watchdog(&format!("ip netns del {name} 2>/dev/null"));
        let ns = NetNs { name: name.to_string(), watchdog };
        run(Command::new("ip").args(["-n", name, "link", "set", "lo", "up"]));
        ns
    }

    /// A command run inside the namespace.
    pub fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new("ip");
        cmd.args(["netns", "exec", &self.name, program]);
        cmd
    }
}

impl Drop for NetNs {
    fn drop(&mut self) {
        let _ = Command::new("ip").args(["netns", "del", &self.name]).stderr(Stdio::null()).status();
        if let Some(mut w) = self.watchdog.take() {
            let _ = w.kill();
            let _ = w.wait();
        }
    }
}

/// A kube-proxy backend (`--proxy-mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Iptables,
    Nftables,
}

impl Mode {
    pub fn flag(self) -> &'static str {
        match self {
            Mode::Iptables => "iptables",
            Mode::Nftables => "nftables",
        }
    }

    /// The modes whose tools are installed (`iptables-save`, `nft`).
    fn available() -> Vec<Mode> {
        let has = |tool: &str| {
            let probe = format!("command -v {tool} >/dev/null");
            Command::new("sh").args(["-c", &probe]).status().is_ok_and(|s| s.success())
        };
        let modes: Vec<Mode> = [(Mode::Iptables, "iptables-save"), (Mode::Nftables, "nft")]
            .into_iter()
            .filter(|(_, t)| has(t))
            .map(|(m, _)| m)
            .collect();
        assert!(
            !modes.is_empty(),
            "neither iptables-save nor nft on PATH (build-control-plane.sh installs them)"
        );
        modes
    }

    /// Where ClusterIP `ip:port` traffic goes according to a dump of this mode's rules.
    pub fn routing(self, dump: &str, ip: &str, port: u16, protocol: &str) -> Routing {
        match self {
            Mode::Iptables => proxy_rules::routing(&proxy_rules::parse_save(dump), ip, port, protocol),
            Mode::Nftables => proxy_nft::routing(dump, ip, port, protocol),
        }
    }
}

/// One kube-proxy as `--hostname-override=<node>` in its own namespace. Fields drop in order:
/// kube-proxy, its relay end, then the namespace (its rules go with it).
pub struct ZoneProxy {
    pub node: String,
    pub mode: Mode,
    proxy: Proc,
    relay: Proc,
    ns: NetNs,
}

impl ZoneProxy {
    /// The rules in the namespace: `iptables-save` (every table) or `nft list table ip
    /// kube-proxy` (the IPv4 table; empty before kube-proxy created it).
    pub fn save_text(&self) -> String {
        let out = match self.mode {
            Mode::Iptables => run(&mut self.ns.command("iptables-save")),
            Mode::Nftables => {
                let mut cmd = self.ns.command("nft");
                let out = cmd.args(["list", "table", "ip", "kube-proxy"]).stdin(Stdio::null()).output();
                out.unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
            }
        };
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.proxy.log).unwrap_or_default()
    }

    pub fn check_alive(&mut self) {
        self.relay.check_alive();
        self.proxy.check_alive();
    }

    pub fn log_tail(&self) -> String {
        tail(&self.proxy.log, 40)
    }
}

/// The bridge's root end and every kube-proxy started.
pub struct Fleet {
    pub proxies: Vec<ZoneProxy>,
    root_relay: Proc,
    kube_proxy: PathBuf,
    dir: PathBuf,
    socket: PathBuf,
    api_port: String,
    kubeconfig: PathBuf,
    pub modes: Vec<Mode>,
    started: usize,
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

impl Fleet {
    /// The root end of the bridge and a kube-proxy identity (CN `system:kube-proxy`, bound to
    /// `system:node-proxier` by the apiserver's bootstrap policy).
    pub fn new(cp: &ControlPlane, kube_proxy: &Path) -> Fleet {
        let dir = cp.dir.path().join("kube-proxy");
        std::fs::create_dir_all(&dir).unwrap();
        let api_port = cp.server.rsplit(':').next().expect("port in server URL").to_string();
        let socket = dir.join("api.sock");
        let root_relay = Proc::spawn(
            "relay-root",
            Command::new("socat").args([
                format!("UNIX-LISTEN:{},fork,unlink-early", socket.display()),
                format!("TCP:127.0.0.1:{api_port}"),
            ]),
            &dir,
        );
        let kubeconfig = cp.user_kubeconfig("system:kube-proxy", &[]);
        Fleet {
            proxies: Vec::new(),
            root_relay,
            kube_proxy: kube_proxy.to_path_buf(),
            dir,
            socket,
            api_port,
            kubeconfig,
            modes: Mode::available(),
            started: 0,
        }
    }

    /// Start a kube-proxy for `node` (in `zone`) in a new namespace, once its proxier knows the
    /// zone. kube-proxy v1.36.3 can miss it for good: `NewNodeTopologyConfig` adds its handler to
    /// the already-running node informer before the proxier is registered with it
    /// (`cmd/kube-proxy/app/server.go`), so when the informer's initial Add is delivered in
    /// between, the labels are recorded but never passed on, and later events carry the same
    /// labels. Such a kube-proxy is restarted (its log kept) and a note returned.
    pub async fn start(&mut self, node: &str, zone: Option<&str>) -> Vec<String> {
        let mut notes = Vec::new();
        for mode in self.modes.clone() {
            notes.extend(self.start_mode(node, zone, mode).await);
        }
        notes
    }

    async fn start_mode(&mut self, node: &str, zone: Option<&str>, mode: Mode) -> Option<String> {
        for attempt in 1..=3 {
            self.spawn(node, mode);
            if self.await_labels(zone).await {
                return (attempt > 1).then(|| {
                    format!(
                        "kube-proxy ({}) for {node} never passed its zone to the proxier ({} start(s)): restarted",
                        mode.flag(),
                        attempt - 1
                    )
                });
            }
            let missed = self.proxies.pop().expect("just started");
            let log = missed.proxy.log.clone();
            drop(missed);
            let _ = std::fs::rename(&log, log.with_extension(format!("missed-labels-{attempt}.log")));
        }
        panic!("kube-proxy for {node} never applied its zone label in 3 starts");
    }

    /// Wait until the last kube-proxy logged that its proxier got `zone` (true), or completed a
    /// sync and then 3 s passed without it (false). Without a zone there is nothing to pass on
    /// (the handler only reports changes from "no labels"): true after the first sync.
    async fn await_labels(&mut self, zone: Option<&str>) -> bool {
        let line = zone.map(|zone| {
            format!(
                "\"Updated proxier node topology labels\" ipFamily=\"IPv4\" labels={{\"topology.kubernetes.io/zone\":\"{zone}\"}}"
            )
        });
        let p = self.proxies.last_mut().expect("a kube-proxy");
        let start = Instant::now();
        let mut synced: Option<Instant> = None;
        loop {
            p.check_alive();
            let log = p.log();
            let synced_now =
                proxy_rules::first_sync_block(&log).map(|_| *synced.get_or_insert_with(Instant::now));
            match &line {
                None if synced_now.is_some() => return true,
                Some(line) if log.lines().any(|l| proxy_rules::klog_message(l) == line) => return true,
                Some(_) if synced_now.is_some_and(|t| t.elapsed() > Duration::from_secs(3)) => return false,
                _ => {}
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "kube-proxy for {} did not start:\n{}",
                p.node,
                p.log_tail()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    fn spawn(&mut self, node: &str, mode: Mode) {
        self.root_relay.check_alive();
        self.started += 1;
        let ns = NetNs::create(&format!("ktp{}-{}", std::process::id(), self.started));
        let relay = Proc::spawn(
            leak(format!("relay-{node}-{}", mode.flag())),
            ns.command("socat").args([
                format!("TCP-LISTEN:{},bind=127.0.0.1,fork,reuseaddr", self.api_port),
                format!("UNIX-CONNECT:{}", self.socket.display()),
            ]),
            &self.dir,
        );
        let proxy = Proc::spawn(
            leak(format!("kube-proxy-{node}-{}", mode.flag())),
            ns.command(self.kube_proxy.to_str().unwrap()).args([
                format!("--kubeconfig={}", self.kubeconfig.display()),
                format!("--hostname-override={node}"),
                format!("--proxy-mode={}", mode.flag()),
                format!("--cluster-cidr={CLUSTER_CIDR}"),
                // Loopback of the namespace only; the default healthz address is 0.0.0.0.
                "--healthz-bind-address=127.0.0.1:10256".into(),
                "--metrics-bind-address=127.0.0.1:10249".into(),
                // Leave conntrack alone: its table size is global to the host.
                "--conntrack-max-per-core=0".into(),
                "--conntrack-tcp-timeout-established=0".into(),
                "--conntrack-tcp-timeout-close-wait=0".into(),
                "--iptables-min-sync-period=0s".into(),
                // V(2) and V(7) topology lines (pkg/proxy/topology.go) and the sync boundaries.
                "--v=7".into(),
            ]),
            &self.dir,
        );
        self.proxies.push(ZoneProxy { node: node.to_string(), mode, proxy, relay, ns });
    }

    /// Stop every kube-proxy (their namespaces and rules go with them).
    pub fn stop_all(&mut self) {
        self.proxies.clear();
    }

    /// Wait until every kube-proxy has programmed `marker` (a ClusterIP with no endpoints, created
    /// after the state under test settled) and finished a sync that started after `offsets`
    /// (log lengths taken before the marker was created). Returns, per proxy, the rules and that
    /// sync's log block. The rules are also written to `<dir>/<mode>-<round>-<node>.txt`.
    pub async fn synced_after(
        &mut self,
        round: usize,
        marker: &str,
        offsets: &[usize],
        limit: Duration,
    ) -> Vec<(String, Vec<String>)> {
        let start = Instant::now();
        let mut out = Vec::new();
        for (i, p) in self.proxies.iter_mut().enumerate() {
            loop {
                p.check_alive();
                let block = p.log().get(offsets[i]..).and_then(proxy_rules::first_sync_block);
                let text = p.save_text();
                let marked = p.mode.routing(&text, marker, 80, "tcp") != Routing::Absent;
                if let (true, Some(block)) = (marked, block) {
                    let file = format!("{}-{round}-{}.txt", p.mode.flag(), p.node);
                    std::fs::write(self.dir.join(file), &text).unwrap();
                    out.push((text, block));
                    break;
                }
                if start.elapsed() > limit {
                    panic!(
                        "kube-proxy for {} did not sync marker {marker} within {limit:?} (mode {:?})\nrules:\n{}\nlog:\n{}",
                        p.node,
                        p.mode,
                        p.save_text(),
                        p.log_tail()
                    );
                }
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        }
        out
    }

    pub fn log_offsets(&self) -> Vec<usize> {
        self.proxies.iter().map(|p| p.log().len()).collect()
    }
}

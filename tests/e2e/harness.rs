//! A real control plane on 127.0.0.1: etcd + kube-apiserver + kube-controller-manager (only the
//! EndpointSlice controller), with a throwaway PKI made by openssl. Every process runs in its own
//! process group; [`Proc`]'s Drop kills the group. If this test process dies without unwinding
//! (SIGKILL, Ctrl-C), the kernel kills each process at once (PR_SET_PDEATHSIG) and a watchdog kills
//! its whole group within a second or so.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};

/// Paths of the upstream binaries (built by `tests/e2e/build-control-plane.sh`).
#[derive(Debug, Clone)]
pub struct Binaries {
    pub kube_apiserver: PathBuf,
    pub kube_controller_manager: PathBuf,
    pub kube_proxy: PathBuf,
    pub etcd: PathBuf,
}

/// Build (cold: ~10 min on 2 cores) or reuse (warm: instant) the control-plane binaries.
pub fn binaries() -> Binaries {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/build-control-plane.sh");
    let started = Instant::now();
    let out = Command::new("bash")
        .arg(&script)
        .stderr(Stdio::inherit())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
    assert!(out.status.success(), "{} failed ({})", script.display(), out.status);
    let vars: BTreeMap<String, String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
        .collect();
    let get = |k: &str| {
        PathBuf::from(vars.get(k).unwrap_or_else(|| panic!("{k} missing from the build script output")))
    };
    eprintln!("e2e: control-plane binaries ready in {:.1}s", started.elapsed().as_secs_f64());
    Binaries {
        kube_apiserver: get("KUBE_APISERVER"),
        kube_controller_manager: get("KUBE_CONTROLLER_MANAGER"),
        kube_proxy: get("KUBE_PROXY"),
        etcd: get("ETCD"),
    }
}

/// A child process in its own process group, killed (group-wide) on Drop.
///
/// It also gets SIGKILL from the kernel when the *thread* that spawned it ends (PR_SET_PDEATHSIG
/// fires on the death of the spawning thread, not of the process): spawn from a thread that
/// outlives the `Proc` (the test's own thread, or one that never returns).
pub struct Proc {
    pub name: &'static str,
    pub log: PathBuf,
    child: Child,
    watchdog: Option<Child>,
}

impl Proc {
    pub fn spawn(name: &'static str, cmd: &mut Command, dir: &Path) -> Proc {
        let log = dir.join(format!("{name}.log"));
        let file = std::fs::File::create(&log).expect("log file");
        cmd.stdin(Stdio::null()).stdout(file.try_clone().expect("log file")).stderr(file).process_group(0);
        let parent = std::process::id();
        // SAFETY: the hook only makes two async-signal-safe system calls (prctl, getppid).
        unsafe { cmd.pre_exec(move || die_with_parent(parent)) };
        let child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        let pgid = child.id();
        // Parent-death safeguard: if this test process disappears without running Drop (SIGKILL,
        // Ctrl-C, abort), the watchdog kills the whole process group within a second.
        let watchdog =
            watchdog(&format!("kill -TERM -{pgid} 2>/dev/null; sleep 2; kill -9 -{pgid} 2>/dev/null"));
        Proc { name, log, child, watchdog }
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Has it exited (without waiting)?
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Exited already? Then say so with the end of its log.
    pub fn check_alive(&mut self) {
        if let Ok(Some(status)) = self.child.try_wait() {
            panic!("{} exited ({status}); last log lines:\n{}", self.name, tail(&self.log, 30));
        }
    }
}

/// In the child, between fork and exec: ask for SIGKILL when the spawning thread ends, and fail the
/// spawn if the parent is already gone (it died before the request was in place). Also xtask's
/// `bench-serve`, for its `serve` child.
pub fn die_with_parent(parent: u32) -> std::io::Result<()> {
    use std::ffi::{c_int, c_ulong};
    unsafe extern "C" {
        fn prctl(option: c_int, ...) -> c_int;
        fn getppid() -> c_int;
    }
    const PR_SET_PDEATHSIG: c_int = 1;
    const SIGKILL: c_ulong = 9;
    // SAFETY: plain system calls without pointers.
    if unsafe { prctl(PR_SET_PDEATHSIG, SIGKILL) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { getppid() } as u32 != parent {
        return Err(std::io::Error::other("the test process exited while spawning"));
    }
    Ok(())
}

impl Drop for Proc {
    fn drop(&mut self) {
        let pgid = self.child.id();
        let _ =
            Command::new("kill").args(["-TERM", "--", &format!("-{pgid}")]).stderr(Stdio::null()).status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ =
            Command::new("kill").args(["-KILL", "--", &format!("-{pgid}")]).stderr(Stdio::null()).status();
        let _ = self.child.wait();
        if let Some(mut w) = self.watchdog.take() {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", w.id())])
                .stderr(Stdio::null())
                .status();
            let _ = w.wait();
        }
    }
}

/// Last `n` lines of a file.
pub fn tail(path: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// A free TCP port on 127.0.0.1 (bound and released; the window for a clash is tiny).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0").local_addr().unwrap().port()
}

/// A user with a client certificate signed by the cluster CA.
#[derive(Debug, Clone)]
pub struct User {
    pub name: String,
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// The running control plane. Fields drop in order: controller manager, apiserver, etcd.
pub struct ControlPlane {
    kcm: Option<Proc>,
    /// Behind a lock: a fault test kills and restarts it through a shared `&ControlPlane`.
    apiserver: Mutex<Option<Proc>>,
    /// How it was started (program, arguments), to start it again the same way.
    apiserver_command: (PathBuf, Vec<String>),
    etcd: Option<Proc>,
    /// etcd's client URL (`http://127.0.0.1:PORT`: its v3 JSON gateway answers there too).
    pub etcd_url: String,
    pub dir: tempfile::TempDir,
    pub server: String,
    pub ca: PathBuf,
    ca_key: PathBuf,
    pub admin_kubeconfig: PathBuf,
    pub version: String,
}

impl Drop for ControlPlane {
    fn drop(&mut self) {
        drop(self.kcm.take());
        drop(self.apiserver.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner).take());
        drop(self.etcd.take());
        if std::env::var_os("E2E_KEEP_DIR").is_some() {
            let kept = self.dir.path().to_path_buf();
            std::mem::forget(std::mem::replace(&mut self.dir, tempfile::tempdir().unwrap()));
            eprintln!("e2e: kept {}", kept.display());
        }
    }
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl").args(args).current_dir(dir).output().expect("openssl on PATH");
    assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn ec_key(dir: &Path, name: &str) -> PathBuf {
    let key = format!("{name}.key");
    openssl(dir, &["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", &key]);
    dir.join(key)
}

fn ca(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let key = ec_key(dir, name);
    let crt = format!("{name}.crt");
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-new",
            "-key",
            &format!("{name}.key"),
            "-subj",
            &format!("/CN={name}"),
            "-days",
            "3",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
            "-out",
            &crt,
        ],
    );
    (dir.join(crt), key)
}

/// A leaf certificate signed by `ca`. `server` adds serverAuth and the loopback SANs.
fn leaf(dir: &Path, ca: (&Path, &Path), name: &str, subject: &str, server: bool) -> (PathBuf, PathBuf) {
    let key = ec_key(dir, name);
    let csr = format!("{name}.csr");
    openssl(dir, &["req", "-new", "-key", &format!("{name}.key"), "-subj", subject, "-out", &csr]);
    let ext = format!("{name}.ext");
    let usage = if server {
        "extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n"
    } else {
        "extendedKeyUsage=clientAuth\n"
    };
    std::fs::write(
        dir.join(&ext),
        format!("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n{usage}"),
    )
    .unwrap();
    let serial = format!(
        "0x{:x}",
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
    );
    let crt = format!("{name}.crt");
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            ca.0.to_str().unwrap(),
            "-CAkey",
            ca.1.to_str().unwrap(),
            "-set_serial",
            &serial,
            "-days",
            "3",
            "-extfile",
            &ext,
            "-out",
            &crt,
        ],
    );
    (dir.join(crt), key)
}

pub fn b64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                s.push(T[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// A kubeconfig with the certificates embedded.
pub fn write_kubeconfig(path: &Path, server: &str, ca: &Path, user: &User) {
    let read = |p: &Path| b64(&std::fs::read(p).unwrap());
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: e2e\n  cluster:\n    server: {server}\n    certificate-authority-data: {}\n\
         users:\n- name: {u}\n  user:\n    client-certificate-data: {}\n    client-key-data: {}\n\
         contexts:\n- name: {u}@e2e\n  context:\n    cluster: e2e\n    user: {u}\ncurrent-context: {u}@e2e\n",
        read(ca),
        read(&user.cert),
        read(&user.key),
        u = user.name,
    );
    std::fs::write(path, text).unwrap();
}

/// A kube client for a kubeconfig file.
pub async fn client_for(kubeconfig: &Path) -> Client {
    let kc = Kubeconfig::read_from(kubeconfig).expect("kubeconfig");
    let config = Config::from_custom_kubeconfig(kc, &KubeConfigOptions::default()).await.expect("config");
    Client::try_from(config).expect("client")
}

fn http_get_plain(port: u16, path: &str) -> Option<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut body = String::new();
    s.read_to_string(&mut body).ok()?;
    Some(body)
}

async fn get_text(client: &Client, path: &str) -> Result<String, kube::Error> {
    let req = http::Request::get(path).body(Vec::new()).expect("request");
    client.request_text(req).await
}

async fn wait_until<F, Fut>(what: &str, limit: Duration, procs: &mut [&mut Proc], mut probe: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    loop {
        for p in procs.iter_mut() {
            p.check_alive();
        }
        if probe().await {
            eprintln!("e2e: {what} ready after {:.1}s", start.elapsed().as_secs_f64());
            return;
        }
        if start.elapsed() > limit {
            let logs: Vec<String> =
                procs.iter().map(|p| format!("--- {} ---\n{}", p.name, tail(&p.log, 40))).collect();
            panic!("{what} not ready after {limit:?}\n{}", logs.join("\n"));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

impl ControlPlane {
    /// The kube-apiserver's process id (to freeze it with SIGSTOP).
    pub fn apiserver_pid(&self) -> Option<u32> {
        self.apiserver.lock().unwrap_or_else(std::sync::PoisonError::into_inner).as_ref().map(Proc::pid)
    }

    /// Kill the kube-apiserver with SIGKILL (a crash, not a shutdown) and reap it.
    pub fn kill_apiserver(&self) {
        let killed = self.apiserver.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        if let Some(p) = killed {
            let group = format!("-{}", p.pid());
            let _ = Command::new("kill").args(["-KILL", "--", &group]).stderr(Stdio::null()).status();
            drop(p);
        }
    }

    /// Start the kube-apiserver again as it was started, with `extra` flags after the others
    /// (a later flag wins), once [`Self::kill_apiserver`] stopped it; returns when `/readyz` says
    /// ok. It is spawned from a thread that never returns, as the shared plane's processes are
    /// (PR_SET_PDEATHSIG fires when the spawning thread ends).
    pub async fn restart_apiserver(&self, extra: &[&str]) {
        static STARTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(2);
        let n = STARTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name: &'static str = Box::leak(format!("kube-apiserver-{n}").into_boxed_str());
        let (program, mut args) = self.apiserver_command.clone();
        args.extend(extra.iter().map(|a| a.to_string()));
        let dir = self.dir.path().to_path_buf();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(Proc::spawn(name, Command::new(program).args(args), &dir));
            loop {
                std::thread::park();
            }
        });
        let proc = rx.recv().expect("the apiserver was spawned");
        let log = proc.log.clone();
        *self.apiserver.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(proc);
        let client = client_for(&self.admin_kubeconfig).await;
        let start = Instant::now();
        while !get_text(&client, "/readyz").await.is_ok_and(|t| t.trim() == "ok") {
            let exited = self.apiserver.lock().unwrap().as_mut().is_none_or(Proc::exited);
            assert!(!exited, "{name} exited:\n{}", tail(&log, 30));
            assert!(start.elapsed() < Duration::from_secs(120), "{name} not ready:\n{}", tail(&log, 30));
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        eprintln!("e2e: {name} ready after {:.1}s", start.elapsed().as_secs_f64());
    }

    /// Start everything and wait until the apiserver is ready and the controller answers /healthz.
    pub async fn start(bins: &Binaries) -> ControlPlane {
        Self::start_with(bins, true).await
    }

    /// etcd and kube-apiserver only: no controller rewrites the EndpointSlices written to it (the
    /// bench loader's synthetic slices stay exactly as generated).
    #[allow(dead_code)]
    pub async fn start_apiserver_only(bins: &Binaries) -> ControlPlane {
        Self::start_with(bins, false).await
    }

    async fn start_with(bins: &Binaries, with_controller: bool) -> ControlPlane {
        let dir = tempfile::Builder::new().prefix("kubectl-topo-e2e-").tempdir().expect("tempdir");
        let d = dir.path();
        let pki = d.join("pki");
        std::fs::create_dir_all(&pki).unwrap();
        let (ca_crt, ca_key) = ca(&pki, "ca");
        let (srv_crt, srv_key) = leaf(&pki, (&ca_crt, &ca_key), "apiserver", "/CN=kube-apiserver", true);
        let (fp_ca, fp_ca_key) = ca(&pki, "front-proxy-ca");
        let (fp_crt, fp_key) =
            leaf(&pki, (&fp_ca, &fp_ca_key), "front-proxy-client", "/CN=front-proxy-client", false);
        openssl(
            &pki,
            &["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "sa.key"],
        );
        openssl(&pki, &["pkey", "-in", "sa.key", "-pubout", "-out", "sa.pub"]);

        let etcd_port = free_port();
        let peer_port = free_port();
        let api_port = free_port();
        let server = format!("https://127.0.0.1:{api_port}");

        let mut etcd = Proc::spawn(
            "etcd",
            Command::new(&bins.etcd).args([
                "--name=e2e".to_string(),
                format!("--data-dir={}", d.join("etcd").display()),
                format!("--listen-client-urls=http://127.0.0.1:{etcd_port}"),
                format!("--advertise-client-urls=http://127.0.0.1:{etcd_port}"),
                format!("--listen-peer-urls=http://127.0.0.1:{peer_port}"),
                format!("--initial-advertise-peer-urls=http://127.0.0.1:{peer_port}"),
                format!("--initial-cluster=e2e=http://127.0.0.1:{peer_port}"),
                "--initial-cluster-state=new".to_string(),
                // `cargo xtask bench --live-only` loads clusters past etcd's default 2 GiB quota.
                "--quota-backend-bytes=8589934592".to_string(),
            ]),
            d,
        );
        wait_until("etcd", Duration::from_secs(30), &mut [&mut etcd], || async move {
            http_get_plain(etcd_port, "/health").is_some_and(|b| b.contains("\"health\":\"true\""))
        })
        .await;

        let p = |f: &Path| f.display().to_string();
        let apiserver_args: Vec<String> = vec![
            format!("--etcd-servers=http://127.0.0.1:{etcd_port}"),
            "--bind-address=127.0.0.1".into(),
            "--advertise-address=127.0.0.1".into(),
            format!("--secure-port={api_port}"),
            format!("--cert-dir={}", p(&d.join("apiserver-certs"))),
            format!("--tls-cert-file={}", p(&srv_crt)),
            format!("--tls-private-key-file={}", p(&srv_key)),
            format!("--client-ca-file={}", p(&ca_crt)),
            format!("--service-account-key-file={}", p(&pki.join("sa.pub"))),
            format!("--service-account-signing-key-file={}", p(&pki.join("sa.key"))),
            "--service-account-issuer=https://kubernetes.default.svc".into(),
            "--service-cluster-ip-range=10.96.0.0/16".into(),
            format!("--requestheader-client-ca-file={}", p(&fp_ca)),
            "--requestheader-allowed-names=front-proxy-client".into(),
            "--requestheader-username-headers=X-Remote-User".into(),
            "--requestheader-group-headers=X-Remote-Group".into(),
            "--requestheader-extra-headers-prefix=X-Remote-Extra-".into(),
            format!("--proxy-client-cert-file={}", p(&fp_crt)),
            format!("--proxy-client-key-file={}", p(&fp_key)),
            "--authorization-mode=RBAC".into(),
            "--disable-admission-plugins=ServiceAccount".into(),
            "--endpoint-reconciler-type=none".into(),
        ];
        let mut apiserver =
            Proc::spawn("kube-apiserver", Command::new(&bins.kube_apiserver).args(&apiserver_args), d);

        let admin = leaf_user(&pki, &ca_crt, &ca_key, "admin", "/O=system:masters/CN=e2e-admin");
        let admin_kubeconfig = d.join("admin.kubeconfig");
        write_kubeconfig(&admin_kubeconfig, &server, &ca_crt, &admin);
        let admin_client = client_for(&admin_kubeconfig).await;
        {
            let c = admin_client.clone();
            wait_until(
                "kube-apiserver /readyz",
                Duration::from_secs(120),
                &mut [&mut etcd, &mut apiserver],
                move || {
                    let c = c.clone();
                    async move { get_text(&c, "/readyz").await.is_ok_and(|t| t.trim() == "ok") }
                },
            )
            .await;
        }
        let version = admin_client.apiserver_version().await.expect("/version").git_version;
        eprintln!("e2e: kube-apiserver {version} on {server}");

        // With --use-service-account-credentials=false every controller runs as the KCM's own user,
        // whose bootstrap role cannot write EndpointSlices: grant it the controller's bootstrap role.
        let binding: k8s_openapi::api::rbac::v1::ClusterRoleBinding = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "e2e:kcm-endpointslice-controller"},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                        "name": "system:controller:endpointslice-controller"},
            "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "system:kube-controller-manager"}]
        }))
        .unwrap();
        kube::Api::<k8s_openapi::api::rbac::v1::ClusterRoleBinding>::all(admin_client.clone())
            .create(&Default::default(), &binding)
            .await
            .expect("bind the endpointslice controller role");
        let kcm = if with_controller {
            Some(start_kcm(bins, d, &server, &ca_crt, &ca_key, &mut etcd, &mut apiserver).await)
        } else {
            None
        };
        ControlPlane {
            kcm,
            apiserver: Mutex::new(Some(apiserver)),
            apiserver_command: (bins.kube_apiserver.clone(), apiserver_args),
            etcd: Some(etcd),
            etcd_url: format!("http://127.0.0.1:{etcd_port}"),
            server,
            ca: ca_crt,
            ca_key,
            admin_kubeconfig,
            version,
            dir,
        }
    }

    /// A new client-certificate user (CN = `name`, optional groups) and its kubeconfig.
    pub fn user_kubeconfig(&self, name: &str, groups: &[&str]) -> PathBuf {
        let pki = self.dir.path().join("pki");
        let subject: String =
            groups.iter().map(|g| format!("/O={g}")).collect::<String>() + &format!("/CN={name}");
        let user = leaf_user(&pki, &self.ca, &self.ca_key, name, &subject);
        let path = self.dir.path().join(format!("{name}.kubeconfig"));
        write_kubeconfig(&path, &self.server, &self.ca, &user);
        path
    }

    /// Has a component exited? (No panic: see [`ControlPlane::check_alive`] for that.)
    pub fn exited(&mut self) -> bool {
        let apiserver = self.apiserver.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner);
        [&mut self.etcd, apiserver, &mut self.kcm].into_iter().flatten().any(|p| p.exited())
    }

    /// The first component that exited, and how, with the end of its log (None: all run): the
    /// benches (xtask) say it when a load or a measurement fails.
    #[allow(dead_code)]
    pub fn dead(&mut self) -> Option<String> {
        let apiserver = self.apiserver.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut procs = [&mut self.etcd, apiserver, &mut self.kcm].into_iter().flatten();
        procs.find_map(|p| {
            let status = p.child.try_wait().ok()??;
            Some(format!("{} exited ({status}); last log lines:\n{}", p.name, tail(&p.log, 20)))
        })
    }

    /// Fail fast (with logs) when a component died.
    pub fn check_alive(&mut self) {
        let apiserver = self.apiserver.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner);
        for p in [&mut self.etcd, apiserver, &mut self.kcm].into_iter().flatten() {
            p.check_alive();
        }
    }
}

/// kube-controller-manager running only the EndpointSlice controller, once it answers /healthz.
async fn start_kcm(
    bins: &Binaries,
    d: &Path,
    server: &str,
    ca_crt: &Path,
    ca_key: &Path,
    etcd: &mut Proc,
    apiserver: &mut Proc,
) -> Proc {
    let pki = d.join("pki");
    let p = |f: &Path| f.display().to_string();
    let kcm_port = free_port();
    let kcm_user = leaf_user(&pki, ca_crt, ca_key, "kcm", "/CN=system:kube-controller-manager");
    let kcm_kubeconfig = d.join("kcm.kubeconfig");
    write_kubeconfig(&kcm_kubeconfig, server, ca_crt, &kcm_user);
    let mut kcm = Proc::spawn(
        "kube-controller-manager",
        Command::new(&bins.kube_controller_manager).args([
            format!("--kubeconfig={}", p(&kcm_kubeconfig)),
            format!("--authentication-kubeconfig={}", p(&kcm_kubeconfig)),
            format!("--authorization-kubeconfig={}", p(&kcm_kubeconfig)),
            "--controllers=endpointslice-controller".into(),
            "--leader-elect=false".into(),
            "--bind-address=127.0.0.1".into(),
            format!("--secure-port={kcm_port}"),
            format!("--cert-dir={}", p(&d.join("kcm-certs"))),
            "--use-service-account-credentials=false".into(),
        ]),
        d,
    );
    let mut insecure = Config::new(format!("https://127.0.0.1:{kcm_port}").parse().unwrap());
    insecure.accept_invalid_certs = true;
    let kcm_client = Client::try_from(insecure).expect("kcm client");
    wait_until(
        "kube-controller-manager /healthz",
        Duration::from_secs(120),
        &mut [etcd, apiserver, &mut kcm],
        move || {
            let c = kcm_client.clone();
            async move { get_text(&c, "/healthz").await.is_ok_and(|t| t.trim() == "ok") }
        },
    )
    .await;

    kcm
}

fn leaf_user(pki: &Path, ca: &Path, ca_key: &Path, name: &str, subject: &str) -> User {
    let (cert, key) = leaf(pki, (ca, ca_key), &format!("user-{name}"), subject, false);
    User { name: name.to_string(), cert, key }
}

/// A shell in its own process group that runs `cleanup` once this test process is gone (killed
/// without unwinding: SIGKILL, Ctrl-C, abort), polling every second.
pub fn watchdog(cleanup: &str) -> Option<Child> {
    let script = format!(
        "while kill -0 {parent} 2>/dev/null; do sleep 1; done; {cleanup}",
        parent = std::process::id()
    );
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_rfc4648() {
        assert_eq!(super::b64(b""), "");
        assert_eq!(super::b64(b"f"), "Zg==");
        assert_eq!(super::b64(b"fo"), "Zm8=");
        assert_eq!(super::b64(b"foo"), "Zm9v");
        assert_eq!(super::b64(b"foobar"), "Zm9vYmFy");
    }
}

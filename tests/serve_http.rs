//! `serve`'s HTTP side as an operator's cluster treats it, on loopback (issue 37, items 2 and 6):
//! it answers `/healthz` while the API server hangs and exits 0 on SIGTERM then; under a lowered
//! descriptor limit (`ulimit -n 256`, in a `sh -c` wrapper), hundreds of idle, non-reading and
//! slow clients leave its descriptors (`/proc/PID/fd`) and memory (`/proc/PID/status` VmHWM)
//! bounded, other scrapes keep being answered and the watches keep going to the API server.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::apiserver::{Recorder, kubeconfig_at};

/// A bound on every wait (a failure bound, not a measure of speed).
pub const WAIT: Duration = Duration::from_secs(90);

/// `serve --listen 127.0.0.1:0` under `ulimit -n nofile`, its stderr collected.
pub struct Serve {
    child: Child,
    stderr: Arc<Mutex<String>>,
    pub port: u16,
}

impl Serve {
    pub fn start(kubeconfig: &std::path::Path, nofile: u32) -> Serve {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -n {nofile} && exec \"$0\" \"$@\""))
            .arg(assert_cmd::cargo::cargo_bin("kubectl-topo"))
            .args(["serve", "--listen", "127.0.0.1:0", "--kubeconfig"])
            .arg(kubeconfig)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = command.spawn().expect("sh runs serve");
        let stderr = Arc::new(Mutex::new(String::new()));
        let (pipe, collected) = (child.stderr.take().expect("stderr"), stderr.clone());
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                collected.lock().unwrap().push_str(&format!("{line}\n"));
            }
        });
        let start = Instant::now();
        let prefix = "note: serving /metrics, /healthz and /readyz on http://127.0.0.1:";
        let port = loop {
            let text = stderr.lock().unwrap().clone();
            if let Some(port) = text.lines().find_map(|l| l.strip_prefix(prefix)).and_then(|p| p.parse().ok())
            {
                break port;
            }
            assert!(start.elapsed() < WAIT, "serve did not start: {text}");
            std::thread::sleep(Duration::from_millis(50));
        };
        Serve { child, stderr, port }
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// `GET path` on a new connection: the status and the body.
    pub fn get(&self, path: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect to serve");
        stream.set_read_timeout(Some(WAIT)).unwrap();
        let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).expect("send the request");
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).expect("read the answer");
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
        (status, body)
    }

    /// The number of open descriptors and the resident and peak memory (kB) of the process.
    pub fn usage(&self) -> (usize, u64, u64) {
        let pid = self.child.id();
        let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).expect("/proc/PID/fd").count();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/PID/status");
        let kb = |key: &str| {
            let line = status.lines().find(|l| l.starts_with(key)).expect(key);
            line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("kB")
        };
        (fds, kb("VmRSS:"), kb("VmHWM:"))
    }

    /// SIGTERM, then the exit code.
    pub fn terminate(mut self) -> (Option<i32>, String) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().expect("kill").success());
        let status = self.child.wait().expect("serve ends");
        std::thread::sleep(Duration::from_millis(100));
        (status.code(), self.stderr())
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An API server that accepts connections and never answers (frozen, as under SIGSTOP).
#[test]
fn serve_answers_health_while_the_api_server_hangs_and_sigterm_exits_0() {
    let hung = TcpListener::bind("127.0.0.1:0").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = kubeconfig_at(dir.path(), &format!("http://{}", hung.local_addr().unwrap()));
    let serve = Serve::start(&kubeconfig, 1024);
    assert_eq!(serve.get("/healthz"), (200, "ok\n".to_string()), "{}", serve.stderr());
    assert_eq!(serve.get("/readyz").0, 503);
    let (status, metrics) = serve.get("/metrics");
    assert_eq!(status, 200);
    assert!(metrics.contains("kubectl_topo_ready 0"), "{metrics}");
    let (code, stderr) = serve.terminate();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.ends_with("note: stopped\n"), "{stderr}");
    drop(hung);
}

const SERVICES: usize = 3000;

/// An API server with three Nodes and [`SERVICES`] Auto Services, one slice each: a `/metrics`
/// of several megabytes. Every other request (the watches) gets an answer kube cannot use, so
/// the watches keep coming back.
fn big(method: &str, path: &str) -> (&'static str, String) {
    let list = |kind: &str, api: &str, items: Vec<String>| {
        format!(
            r#"{{"apiVersion":"{api}","kind":"{kind}","metadata":{{"resourceVersion":"1"}},"items":[{}]}}"#,
            items.join(",")
        )
    };
    let node = |i: usize| {
        format!(
            r#"{{"metadata":{{"name":"n{i}","labels":{{"topology.kubernetes.io/zone":"z{i}"}}}},"status":{{"allocatable":{{"cpu":"4"}},"conditions":[{{"type":"Ready","status":"True"}}]}}}}"#
        )
    };
    let service = |i: usize| {
        format!(
            r#"{{"metadata":{{"name":"s{i}","namespace":"load","annotations":{{"service.kubernetes.io/topology-mode":"Auto"}}}},"spec":{{"clusterIP":"10.96.{}.{}","selector":{{"app":"s{i}"}},"ports":[{{"port":80}}]}}}}"#,
            i / 250,
            i % 250
        )
    };
    let slice = |i: usize| {
        let endpoints: Vec<String> = (0..3)
            .map(|z| format!(r#"{{"addresses":["10.1.{z}.{}"],"conditions":{{"ready":true}},"nodeName":"n{z}","zone":"z{z}"}}"#, i % 250))
            .collect();
        format!(
            r#"{{"metadata":{{"name":"s{i}-1","namespace":"load","labels":{{"kubernetes.io/service-name":"s{i}","endpointslice.kubernetes.io/managed-by":"endpointslice-controller.k8s.io"}}}},"addressType":"IPv4","ports":[{{"port":80}}],"endpoints":[{}]}}"#,
            endpoints.join(",")
        )
    };
    match (method, path) {
        ("GET", "/version") => ("200 OK", r#"{"major":"1","minor":"36","gitVersion":"v1.36.3"}"#.into()),
        ("GET", "/api/v1/nodes") => ("200 OK", list("NodeList", "v1", (0..3).map(node).collect())),
        ("GET", "/api/v1/services") => {
            ("200 OK", list("ServiceList", "v1", (0..SERVICES).map(service).collect()))
        }
        ("GET", "/apis/discovery.k8s.io/v1/endpointslices") => {
            ("200 OK", list("EndpointSliceList", "discovery.k8s.io/v1", (0..SERVICES).map(slice).collect()))
        }
        _ => ("404 Not Found", r#"{"kind":"Status","apiVersion":"v1","status":"Failure","code":404}"#.into()),
    }
}

/// Clients that connect and send nothing, that send `GET /metrics` and never read, and that read a
/// little at a time; all held until dropped.
fn hostile_clients(port: u16) -> (Vec<TcpStream>, Vec<std::thread::JoinHandle<()>>, Arc<Mutex<bool>>) {
    let mut held = Vec::new();
    for _ in 0..300 {
        held.push(TcpStream::connect(("127.0.0.1", port)).expect("an idle client connects"));
    }
    // Several requests at once: the kernel's socket buffers (megabytes on loopback) take the first
    // answers, the next one stays with serve.
    let pipelined = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".repeat(6);
    for _ in 0..100 {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("a non-reader connects");
        let _ = stream.write_all(pipelined.as_bytes());
        held.push(stream);
    }
    let stop = Arc::new(Mutex::new(false));
    let slow = (0..20)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else { return };
                let _ = stream.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
                let mut buf = [0u8; 4096];
                while !*stop.lock().unwrap() && stream.read(&mut buf).is_ok_and(|n| n > 0) {
                    std::thread::sleep(Duration::from_millis(100));
                }
            })
        })
        .collect();
    (held, slow, stop)
}

#[test]
fn hundreds_of_idle_non_reading_and_slow_clients_leave_serve_bounded_and_answering() {
    let api = Recorder::start_with(big);
    let dir = tempfile::tempdir().unwrap();
    let serve = Serve::start(&api.kubeconfig(dir.path()), 256);
    let start = Instant::now();
    while serve.get("/readyz").0 != 200 {
        assert!(start.elapsed() < WAIT, "not ready: {}", serve.stderr());
        std::thread::sleep(Duration::from_millis(200));
    }
    let (status, metrics) = serve.get("/metrics");
    assert_eq!(status, 200);
    let body = metrics.len() as u64 / 1024;
    assert!(body > 2048, "a /metrics of several MB: {body} kB");
    let (_, rss_before, _) = serve.usage();
    let requests_before = api.requests().len();

    let (held, slow, stop) = hostile_clients(serve.port);
    let (mut answered, mut fds_max, mut hwm) = (Vec::new(), 0, 0);
    let start = Instant::now();
    while answered.len() < 10 || api.requests().len() == requests_before {
        assert!(start.elapsed() < WAIT, "scrapes {answered:?}, watches stopped: {}", serve.stderr());
        let (status, body) = serve.get("/metrics");
        // The last line of a scrape: the answer came whole.
        answered.push((status, body.contains("\nkubectl_topo_recomputed_services_total ")));
        let (fds, _, peak) = serve.usage();
        (fds_max, hwm) = (fds_max.max(fds), hwm.max(peak));
    }
    *stop.lock().unwrap() = true;
    drop(held);
    slow.into_iter().for_each(|t| t.join().unwrap());

    let grown = hwm.saturating_sub(rss_before);
    println!(
        "serve under 420 clients: {fds_max} descriptors at most, peak {hwm} kB ({grown} kB over {rss_before} kB), answer {body} kB, scrapes {answered:?}"
    );
    // 64 connections at most, and the listener, the runtime, the watches and stdio: far below the
    // 256 allowed (without a bound the 420 clients take every descriptor).
    assert!(fds_max <= 64 + 24, "{fds_max} descriptors open");
    // At most 4 answers of `body` kB held at once; without a bound 64 connections would hold 64.
    let grown = hwm.saturating_sub(rss_before);
    assert!(
        grown < 12 * body + 32 * 1024,
        "peak grew by {grown} kB over {rss_before} kB (answer: {body} kB)"
    );
    // Scrapes were answered throughout: whole, or `503` (busy); most with the metrics.
    assert!(answered.iter().all(|a| *a == (200, true) || a.0 == 503), "{answered:?}");
    assert!(answered.iter().filter(|a| a.0 == 200).count() * 2 >= answered.len(), "{answered:?}");
    assert!(serve.stderr().lines().all(|l| !l.contains("Too many open files")), "{}", serve.stderr());
    let (code, stderr) = serve.terminate();
    assert_eq!(code, Some(0), "{stderr}");
}

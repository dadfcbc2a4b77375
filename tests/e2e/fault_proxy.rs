//! A fault-injecting HTTP proxy on 127.0.0.1 in front of the real kube-apiserver, for the API-fault
//! scenarios (`faults.rs`). The CLI talks plain HTTP to the proxy (a kubeconfig with
//! `server: http://127.0.0.1:PORT`); the proxy forwards each request to the apiserver over TLS
//! with its own kube client (the admin kubeconfig) unless a [`Rule`] matches the request's path
//! (and sequence), in which case it injects the fault. Every request is logged with what it got.
//!
//! One thread per connection, one response per connection (`Connection: close`). Stopped (and
//! joined) on Drop; a hanging connection notices the stop flag within 50 ms.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};

/// What to do instead of forwarding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Answer this status with a `v1 Status` body.
    Status(u16),
    /// Accept and never answer (until the proxy stops).
    Hang,
    /// Forward, then send the headers and only half of the body before closing.
    Truncate,
}

/// Inject `fault` into requests whose path starts with `path` (and, with `continue_only`, that
/// carry a `continue` token), the first `times` of them (`None`: all).
#[derive(Debug, Clone)]
pub struct Rule {
    pub path: String,
    pub continue_only: bool,
    pub fault: Fault,
    pub times: Option<u32>,
}

impl Rule {
    pub fn always(path: &str, fault: Fault) -> Rule {
        Rule { path: path.to_string(), continue_only: false, fault, times: None }
    }
}

/// One logged request: `GET /api/v1/nodes?limit=500` and the status sent (0: none, hung).
#[derive(Debug, Clone)]
pub struct Entry {
    pub target: String,
    pub status: u16,
}

struct Shared {
    rules: Mutex<Vec<Rule>>,
    log: Mutex<Vec<Entry>>,
    stop: AtomicBool,
    upstream: Config,
    /// Rewrite every `limit=N` to this page size (forces paging through a few objects).
    page_limit: Option<u32>,
}

pub struct FaultProxy {
    pub url: String,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
    port: u16,
}

impl FaultProxy {
    /// Start on a free 127.0.0.1 port, forwarding with the credentials of `upstream_kubeconfig`.
    pub async fn start(upstream_kubeconfig: &Path, rules: Vec<Rule>, page_limit: Option<u32>) -> FaultProxy {
        let kc = Kubeconfig::read_from(upstream_kubeconfig).expect("kubeconfig");
        let mut upstream =
            Config::from_custom_kubeconfig(kc, &KubeConfigOptions::default()).await.expect("config");
        upstream.default_retry = false;
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Shared {
            rules: Mutex::new(rules),
            log: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
            upstream,
            page_limit,
        });
        let s = shared.clone();
        let accept = std::thread::spawn(move || accept_loop(listener, s));
        FaultProxy { url: format!("http://127.0.0.1:{port}"), shared, accept: Some(accept), port }
    }

    /// A kubeconfig pointing at the proxy (no credentials: the proxy adds its own upstream).
    pub fn kubeconfig(&self, path: &Path) -> std::path::PathBuf {
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: proxy\n  cluster:\n    server: {}\n\
             users:\n- name: anon\n  user: {{}}\ncontexts:\n- name: proxy\n  context:\n    cluster: proxy\n    user: anon\n\
             current-context: proxy\n",
            self.url
        );
        std::fs::write(path, text).unwrap();
        path.to_path_buf()
    }

    pub fn log(&self) -> Vec<Entry> {
        self.shared.log.lock().unwrap().clone()
    }

    /// Requests whose path (before `?`) is `path`.
    pub fn count(&self, path: &str) -> usize {
        let path_of =
            |t: &str| t.split_whitespace().nth(1).and_then(|t| t.split('?').next()).map(String::from);
        self.log().iter().filter(|e| path_of(&e.target).as_deref() == Some(path)).count()
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port)); // wake accept()
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    let mut workers = Vec::new();
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        let s = shared.clone();
        workers.push(std::thread::spawn(move || serve(stream, &s)));
    }
    for w in workers {
        let _ = w.join();
    }
}

/// Read the request head (GETs only: no body).
fn read_head(stream: &mut TcpStream) -> Option<String> {
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).ok()? == 0 {
            return None;
        }
        head.push(byte[0]);
    }
    String::from_utf8(head).ok()
}

fn serve(mut stream: TcpStream, shared: &Shared) {
    let Some(head) = read_head(&mut stream) else { return };
    let mut parts = head.split_whitespace();
    let (method, target) = (parts.next().unwrap_or("").to_string(), parts.next().unwrap_or("/").to_string());
    let target = match shared.page_limit {
        Some(n) => rewrite_limit(&target, n),
        None => target,
    };
    let fault = take_fault(shared, &target);
    let (status, body, truncate) = match fault {
        Some(Fault::Hang) => {
            record(shared, &method, &target, 0);
            while !shared.stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(50));
            }
            return;
        }
        Some(Fault::Status(code)) => (code, status_body(code), false),
        Some(Fault::Truncate) => {
            let (code, body) = forward(shared, &target);
            (code, body, true)
        }
        None => {
            let (code, body) = forward(shared, &target);
            (code, body, false)
        }
    };
    record(shared, &method, &target, status);
    let head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        reason(status),
        body.len()
    );
    let sent = if truncate { &body[..body.len() / 2] } else { &body[..] };
    let _ = stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(sent.as_bytes()));
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

fn record(shared: &Shared, method: &str, target: &str, status: u16) {
    shared.log.lock().unwrap().push(Entry { target: format!("{method} {target}"), status });
}

/// The first matching rule with uses left; uses one.
fn take_fault(shared: &Shared, target: &str) -> Option<Fault> {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut rules = shared.rules.lock().unwrap();
    let rule = rules.iter_mut().find(|r| {
        path.starts_with(&r.path)
            && (!r.continue_only || query.split('&').any(|kv| kv.starts_with("continue=")))
            && r.times != Some(0)
    })?;
    if let Some(n) = &mut rule.times {
        *n -= 1;
    }
    Some(rule.fault)
}

fn rewrite_limit(target: &str, n: u32) -> String {
    let Some((path, query)) = target.split_once('?') else { return target.to_string() };
    let query: Vec<String> = query
        .split('&')
        .map(|kv| if kv.starts_with("limit=") { format!("limit={n}") } else { kv.to_string() })
        .collect();
    format!("{path}?{}", query.join("&"))
}

/// Send the GET upstream with the proxy's client; an API error comes back as its Status.
fn forward(shared: &Shared, target: &str) -> (u16, String) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = Client::try_from(shared.upstream.clone()).expect("upstream client");
        let req = http::Request::get(target).body(Vec::new()).expect("request");
        match client.request_text(req).await {
            Ok(text) => (200, text),
            Err(kube::Error::Api(status)) => (status.code, serde_json::to_string(&status).unwrap()),
            Err(e) => (502, status_json(502, &format!("proxy: upstream failed: {e}"))),
        }
    })
}

fn status_body(code: u16) -> String {
    status_json(code, &format!("injected by the e2e fault proxy ({code} {})", reason(code)))
}

fn status_json(code: u16, message: &str) -> String {
    let reason = match code {
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "NotFound",
        410 => "Expired",
        _ => "InternalError",
    };
    serde_json::json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                       "message": message, "reason": reason, "code": code})
    .to_string()
}

fn reason(code: u16) -> &'static str {
    match code {
        200 => "OK",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        410 => "Gone",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

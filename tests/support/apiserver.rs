//! A loopback HTTP/1.1 server on 127.0.0.1 that answers like a tiny API server (one Node, one
//! Auto Service `default/web` with its EndpointSlice, `/version` v1.36.3) and records every request
//! with the headers a client authenticates and impersonates with. Stopped when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// One request as received.
#[derive(Debug, Clone)]
pub struct Seen {
    /// `METHOD /path?query`.
    pub line: String,
    /// The headers, names lowercased, in order.
    pub headers: Vec<(String, String)>,
}

impl Seen {
    /// Every value of header `name` (lowercase).
    pub fn header(&self, name: &str) -> Vec<&str> {
        self.headers.iter().filter(|(n, _)| n == name).map(|(_, v)| v.as_str()).collect()
    }
}

/// The recording server.
pub struct Recorder {
    port: u16,
    log: Arc<Mutex<Vec<Seen>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Recorder {
    /// Start on a free port of 127.0.0.1.
    pub fn start() -> Recorder {
        Recorder::start_with(answer)
    }

    /// A web server that is no API server: 404 with a plain-text page for every path.
    pub fn not_found() -> Recorder {
        Recorder::start_with(|_, _| ("404 Not Found", "404 page not found".to_string()))
    }

    /// Start, answering each `(method, path)` with `answer`.
    pub fn start_with(answer: Answer) -> Recorder {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (log2, stop2) = (log.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                let log = log2.clone();
                if let Ok(stream) = stream {
                    std::thread::spawn(move || serve(stream, &log, answer));
                }
            }
        });
        Recorder { port, log, stop, thread: Some(thread) }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// A kubeconfig in `dir` whose one context (`rec`, namespace `default`, token `t`) points here.
    pub fn kubeconfig(&self, dir: &Path) -> PathBuf {
        kubeconfig_at(dir, &self.url())
    }

    /// `METHOD /path?query` of every request so far.
    pub fn requests(&self) -> Vec<String> {
        self.seen().into_iter().map(|s| s.line).collect()
    }

    /// Every request so far, with its headers.
    pub fn seen(&self) -> Vec<Seen> {
        self.log.lock().unwrap().clone()
    }
}

/// `dir/config`: one context (`rec`, namespace `default`, token `t`) for the server at `url`.
pub fn kubeconfig_at(dir: &Path, url: &str) -> PathBuf {
    let path = dir.join("config");
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: rec\nclusters:\n- name: rec\n  cluster:\n    \
             server: {url}\ncontexts:\n- name: rec\n  context:\n    cluster: rec\n    \
             user: rec\n    namespace: default\nusers:\n- name: rec\n  user:\n    token: t\n"
        ),
    )
    .expect("write kubeconfig");
    path
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port)); // wakes accept()
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The status line and body for a method and path.
pub type Answer = fn(&str, &str) -> (&'static str, String);

fn serve(stream: TcpStream, log: &Mutex<Vec<Seen>>, answer: Answer) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            if header.trim().is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
            }
        }
        let length = headers
            .iter()
            .find(|(n, _)| n == "content-length")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0usize);
        let mut body = vec![0; length];
        let _ = reader.read_exact(&mut body);
        let mut parts = request_line.split_whitespace();
        let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        log.lock().unwrap().push(Seen { line: format!("{method} {target}"), headers });
        let (status, body) = answer(method, target.split('?').next().unwrap_or(""));
        let reply = format!(
            "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        if writer.write_all(reply.as_bytes()).is_err() {
            return;
        }
    }
}

const NODE: &str = r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","labels":{"topology.kubernetes.io/zone":"a"}},"status":{"allocatable":{"cpu":"4"},"conditions":[{"type":"Ready","status":"True"}]}}"#;
const SERVICE: &str = r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"default","annotations":{"service.kubernetes.io/topology-mode":"Auto"}},"spec":{"clusterIP":"10.96.0.10","selector":{"app":"web"},"ports":[{"port":80}]}}"#;
const SLICE: &str = r#"{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"web-1","namespace":"default","labels":{"kubernetes.io/service-name":"web","endpointslice.kubernetes.io/managed-by":"endpointslice-controller.k8s.io"}},"addressType":"IPv4","ports":[{"port":80}],"endpoints":[{"addresses":["10.0.0.1"],"conditions":{"ready":true},"nodeName":"n1","zone":"a"}]}"#;

fn list(kind: &str, api_version: &str, items: &[&str]) -> String {
    format!(
        r#"{{"apiVersion":"{api_version}","kind":"{kind}","metadata":{{"resourceVersion":"1"}},"items":[{}]}}"#,
        items.join(",")
    )
}

/// The default answers (every other path 404).
pub fn answer(method: &str, path: &str) -> (&'static str, String) {
    if method != "GET" {
        return (
            "405 Method Not Allowed",
            r#"{"kind":"Status","apiVersion":"v1","status":"Failure","code":405}"#.into(),
        );
    }
    let ok = "200 OK";
    match path {
        "/version" => (ok, r#"{"major":"1","minor":"36","gitVersion":"v1.36.3"}"#.into()),
        "/api/v1/nodes" => (ok, list("NodeList", "v1", &[NODE])),
        "/api/v1/namespaces/default/services/web" => (ok, SERVICE.into()),
        p if p.ends_with("/services") => (ok, list("ServiceList", "v1", &[SERVICE])),
        p if p.ends_with("/endpointslices") => {
            (ok, list("EndpointSliceList", "discovery.k8s.io/v1", &[SLICE]))
        }
        p if p.ends_with("/events") => (ok, list("EventList", "v1", &[])),
        _ => (
            "404 Not Found",
            r#"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}"#.into(),
        ),
    }
}

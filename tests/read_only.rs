//! Read-only by construction: (1) no write call anywhere in `src/` (kube write params, HTTP write
//! methods, raw write requests); (2) every command of the built binary, run against a recording
//! HTTP server on 127.0.0.1 that serves minimal valid responses, sends only GET requests.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::support::{path, topo};

/// What a write to the API server needs in kube-rs (params of every write verb, the Patch body,
/// write builders) or in a raw `http` request. `String::replace` is why `.replace(` is not listed:
/// kube's `Api::replace` needs `PostParams`, which is.
const WRITE_MARKERS: &[&str] = &[
    "PostParams",
    "PatchParams",
    "DeleteParams",
    "EvictParams",
    "Patch::",
    ".create(",
    ".patch(",
    ".delete(",
    ".delete_collection(",
    ".replace_status(",
    ".patch_status(",
    ".create_subresource(",
    ".replace_subresource(",
    ".patch_subresource(",
    "Method::POST",
    "Method::PUT",
    "Method::PATCH",
    "Method::DELETE",
    "Request::post(",
    "Request::put(",
    "Request::patch(",
    "Request::delete(",
    "\"POST\"",
    "\"PUT\"",
    "\"PATCH\"",
    "\"DELETE\"",
];

/// `file:line: marker` for every write marker in code (comments are not code).
fn write_calls(file: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for marker in WRITE_MARKERS.iter().filter(|m| is_call(code, m)) {
            found.push(format!("{file}:{}: {marker}", number + 1));
        }
    }
    found
}

/// `marker` in `code`; a method marker (`.create(`) not as struct-update syntax (`..create(`).
fn is_call(code: &str, marker: &str) -> bool {
    code.match_indices(marker).any(|(at, _)| !marker.starts_with('.') || !code[..at].ends_with('.'))
}

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable dir") {
        let p = entry.expect("entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn the_scanner_finds_write_calls() {
    let sample = "let _ = api.create(&PostParams::default(), &svc).await;\n\
                  // api.delete(name) in a comment is fine\n\
                  let r = http::Request::builder().method(http::Method::PATCH);\n\
                  let info = SliceInfo { ..create(vec![]) };";
    let found = write_calls("x.rs", sample);
    assert_eq!(found, ["x.rs:1: PostParams", "x.rs:1: .create(", "x.rs:3: Method::PATCH"]);
}

#[test]
fn no_write_call_in_the_source() {
    let mut files = Vec::new();
    rust_files(&path("src"), &mut files);
    assert!(files.len() > 20, "scanned only {} files", files.len());
    let found: Vec<String> = files
        .iter()
        .flat_map(|f| write_calls(&f.display().to_string(), &std::fs::read_to_string(f).unwrap()))
        .collect();
    assert!(found.is_empty(), "write calls in src/:\n{}", found.join("\n"));
}

/// A loopback HTTP/1.1 server that records `METHOD PATH?QUERY` and answers like a tiny API server.
struct Recorder {
    port: u16,
    log: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Recorder {
    fn start() -> Recorder {
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
                    std::thread::spawn(move || serve(stream, &log));
                }
            }
        });
        Recorder { port, log, stop, thread: Some(thread) }
    }
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

fn serve(stream: TcpStream, log: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let mut length = 0usize;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            if header.trim().is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        let _ = reader.read_exact(&mut body);
        let mut parts = request_line.split_whitespace();
        let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        log.lock().unwrap().push(format!("{method} {target}"));
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

fn answer(method: &str, path: &str) -> (&'static str, String) {
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

#[test]
fn every_command_sends_only_get_requests() {
    let server = Recorder::start();
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("config");
    std::fs::write(
        &kubeconfig,
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: rec\nclusters:\n- name: rec\n  cluster:\n    \
             server: http://127.0.0.1:{}\ncontexts:\n- name: rec\n  context:\n    cluster: rec\n    \
             user: rec\n    namespace: default\nusers:\n- name: rec\n  user:\n    token: t\n",
            server.port
        ),
    )
    .unwrap();
    let commands: &[&[&str]] = &[
        &["zones"],
        &["check", "-A"],
        &["check", "-n", "default", "-l", "app=web"],
        &["explain", "svc/web"],
        &["explain", "svc/missing"],
        &["simulate", "svc/web", "--replicas", "3"],
        &["dump", "-A"],
        &["dump", "-n", "default", "--redact"],
        &["dump", "-A", "-o", "json"],
        &["version"],
    ];
    let mut codes = Vec::new();
    for args in commands {
        let out = topo().args(*args).arg("--kubeconfig").arg(&kubeconfig).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        codes.push((args.join(" "), out.status.code(), stderr.lines().next().unwrap_or("").to_string()));
    }
    let log = server.log.lock().unwrap().clone();
    drop(server);
    // The exchange worked: the commands that need the Service found it through the server.
    for (command, code, first) in &codes {
        let expected = if command == "explain svc/missing" { Some(3) } else { Some(0) };
        assert_eq!(*code, expected, "{command}: {first}");
    }
    assert!(log.iter().any(|r| r.starts_with("GET /api/v1/nodes")), "{log:#?}");
    assert!(log.iter().any(|r| r.contains("/endpointslices")), "{log:#?}");
    let writes: Vec<&String> = log.iter().filter(|r| !r.starts_with("GET ")).collect();
    assert!(writes.is_empty(), "non-GET requests: {writes:#?}");
}

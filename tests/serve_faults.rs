//! `serve` against a scripted API server on loopback (issue 37, items 1 and 3): lists, watches
//! that send a bookmark every half second, and faults. Frozen (it accepts and answers nothing, as
//! under SIGSTOP), `time() - kubectl_topo_last_sync_timestamp_seconds` grows with the freeze;
//! down (connections closed) and back after a restart (every older resourceVersion is 410 Gone)
//! with a Service deleted meanwhile, the watches list again and the Service is no longer exported.
//! The time from "back" to "deleted Service gone" is printed: BENCHMARKS.md records it.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::serve_http::{Serve, WAIT};
use crate::support::apiserver::kubeconfig_at;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Up,
    Frozen,
    Down,
}

/// The scripted server's state: a restart is a new `epoch` (resourceVersions `epoch * 1000 + 1`).
struct Fake {
    mode: Mode,
    epoch: u64,
    services: BTreeSet<usize>,
}

type Shared = Arc<Mutex<Fake>>;

fn start(services: &[usize]) -> (u16, Shared) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let shared =
        Arc::new(Mutex::new(Fake { mode: Mode::Up, epoch: 1, services: services.iter().copied().collect() }));
    let state = shared.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            let state = state.clone();
            std::thread::spawn(move || serve_connection(stream, &state));
        }
    });
    (port, shared)
}

fn mode(state: &Shared) -> Mode {
    state.lock().unwrap().mode
}

/// Requests of one connection until it closes, each after any freeze.
fn serve_connection(stream: TcpStream, state: &Shared) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut header = String::new();
        while reader.read_line(&mut header).unwrap_or(0) > 2 {
            header.clear();
        }
        while mode(state) == Mode::Frozen {
            std::thread::sleep(Duration::from_millis(50));
        }
        if mode(state) == Mode::Down {
            return;
        }
        let target = line.split_whitespace().nth(1).unwrap_or("").to_string();
        let (path, query) = target.split_once('?').unwrap_or((&target, ""));
        if query.split('&').any(|p| p == "watch=true") {
            return watch(writer, state, path, query);
        }
        let body = answer(state, path);
        let status = if body.is_some() { "200 OK" } else { "404 Not Found" };
        let body = body.unwrap_or_else(|| r#"{"kind":"Status","apiVersion":"v1","code":404}"#.into());
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        if writer.write_all(head.as_bytes()).and_then(|()| writer.write_all(body.as_bytes())).is_err() {
            return;
        }
    }
}

fn kind_of(path: &str) -> (&'static str, &'static str) {
    match path {
        "/api/v1/nodes" => ("Node", "v1"),
        "/api/v1/services" => ("Service", "v1"),
        _ => ("EndpointSlice", "discovery.k8s.io/v1"),
    }
}

/// A watch: 410 Gone for a resourceVersion of an earlier epoch, else a bookmark every half second
/// while up, nothing while frozen, closed when down.
fn watch(mut writer: TcpStream, state: &Shared, path: &str, query: &str) {
    let rv: u64 = query
        .split('&')
        .find_map(|p| p.strip_prefix("resourceVersion="))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let epoch = state.lock().unwrap().epoch;
    let _ =
        writer.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n");
    if rv / 1000 != epoch {
        let gone = r#"{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version","reason":"Expired","code":410}}"#;
        let _ = writer.write_all(format!("{gone}\n").as_bytes());
        return;
    }
    let (kind, api) = kind_of(path);
    loop {
        std::thread::sleep(Duration::from_millis(500));
        let (now, current) = {
            let fake = state.lock().unwrap();
            (fake.mode, fake.epoch)
        };
        if now == Mode::Down || current != epoch {
            return;
        }
        let bookmark = format!(
            r#"{{"type":"BOOKMARK","object":{{"kind":"{kind}","apiVersion":"{api}","metadata":{{"resourceVersion":"{rv}"}}}}}}"#
        );
        if now == Mode::Up && writer.write_all(format!("{bookmark}\n").as_bytes()).is_err() {
            return;
        }
    }
}

fn answer(state: &Shared, path: &str) -> Option<String> {
    let fake = state.lock().unwrap();
    let rv = fake.epoch * 1000 + 1;
    let list = |items: Vec<String>| {
        let (kind, api) = kind_of(path);
        format!(
            r#"{{"apiVersion":"{api}","kind":"{kind}List","metadata":{{"resourceVersion":"{rv}"}},"items":[{}]}}"#,
            items.join(",")
        )
    };
    let node = |z: usize| {
        format!(
            r#"{{"metadata":{{"name":"n{z}","labels":{{"topology.kubernetes.io/zone":"z{z}"}}}},"status":{{"allocatable":{{"cpu":"4"}},"conditions":[{{"type":"Ready","status":"True"}}]}}}}"#
        )
    };
    let service = |i: &usize| {
        format!(
            r#"{{"metadata":{{"name":"s{i}","namespace":"f","annotations":{{"service.kubernetes.io/topology-mode":"Auto"}}}},"spec":{{"clusterIP":"10.96.0.{i}","selector":{{"app":"s{i}"}},"ports":[{{"port":80}}]}}}}"#
        )
    };
    let slice = |i: &usize| {
        let endpoints: Vec<String> = (0..3).map(|z| format!(r#"{{"addresses":["10.1.{z}.{i}"],"conditions":{{"ready":true}},"nodeName":"n{z}","zone":"z{z}"}}"#)).collect();
        format!(
            r#"{{"metadata":{{"name":"s{i}-1","namespace":"f","labels":{{"kubernetes.io/service-name":"s{i}"}}}},"addressType":"IPv4","ports":[{{"port":80}}],"endpoints":[{}]}}"#,
            endpoints.join(",")
        )
    };
    match path {
        "/version" => Some(r#"{"major":"1","minor":"36","gitVersion":"v1.36.3"}"#.into()),
        "/api/v1/nodes" => Some(list((0..3).map(node).collect())),
        "/api/v1/services" => Some(list(fake.services.iter().map(service).collect())),
        "/apis/discovery.k8s.io/v1/endpointslices" => Some(list(fake.services.iter().map(slice).collect())),
        _ => None,
    }
}

/// Seconds since `kubectl_topo_last_sync_timestamp_seconds`, and the scrape.
fn staleness(serve: &Serve) -> (f64, String) {
    let (status, text) = serve.get("/metrics");
    assert_eq!(status, 200);
    let last = text
        .lines()
        .find_map(|l| l.strip_prefix("kubectl_topo_last_sync_timestamp_seconds "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .expect("last_sync in the scrape");
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs_f64();
    (now - last, text)
}

fn until(serve: &Serve, what: &str, done: impl Fn(f64, &str) -> bool) -> Duration {
    let start = Instant::now();
    loop {
        let (stale, text) = staleness(serve);
        if done(stale, &text) {
            return start.elapsed();
        }
        assert!(start.elapsed() < WAIT, "{what}: staleness {stale:.1}s\n{}", serve.stderr());
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn staleness_grows_under_a_frozen_or_down_api_server_and_a_restart_is_caught_up() {
    let (port, fake) = start(&[0, 1, 2]);
    let dir = tempfile::tempdir().unwrap();
    let serve = Serve::start(&kubeconfig_at(dir.path(), &format!("http://127.0.0.1:{port}")), 1024);
    until(&serve, "ready", |_, text| text.contains("kubectl_topo_ready 1"));
    until(&serve, "fresh", |stale, _| stale < 3.0);

    // Frozen for 20 s: the watches hear nothing and fail nothing (the old heartbeat, stamped every
    // 15 s while nothing failed, never let this pass 15 s).
    fake.lock().unwrap().mode = Mode::Frozen;
    std::thread::sleep(Duration::from_secs(20));
    let (stale, _) = staleness(&serve);
    assert!(stale >= 18.0, "after a 20 s freeze the metrics are {stale:.1}s old\n{}", serve.stderr());
    fake.lock().unwrap().mode = Mode::Up;
    until(&serve, "fresh after the freeze", |stale, _| stale < 3.0);

    // Down for 12 s, then back after a restart, with s1 deleted meanwhile.
    {
        let mut state = fake.lock().unwrap();
        state.mode = Mode::Down;
        state.epoch += 1;
        state.services.remove(&1);
    }
    std::thread::sleep(Duration::from_secs(12));
    let (stale, text) = staleness(&serve);
    assert!(stale >= 10.0, "down for 12 s, the metrics are {stale:.1}s old");
    assert!(text.contains("service=\"s1\""), "s1 is still the last known state while down");
    fake.lock().unwrap().mode = Mode::Up;
    let caught_up = until(&serve, "s1 gone after the restart", |stale, text| {
        stale < 3.0 && !text.contains("service=\"s1\"") && text.contains("service=\"s2\"")
    });
    println!("serve caught up {:.2}s after the API server was back", caught_up.as_secs_f64());
    let (_, text) = staleness(&serve);
    assert!(!text.contains("kubectl_topo_watch_restarts_total{resource=\"services\"} 0"), "{text}");
    let (code, stderr) = serve.terminate();
    assert_eq!(code, Some(0), "{stderr}");
}

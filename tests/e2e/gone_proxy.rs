//! A loopback HTTP proxy in front of the test's apiserver (forwarding with the admin client) that
//! answers the first watch of one resource with a `410 Gone` ERROR event, the way an apiserver
//! reports an expired resourceVersion. Lets the e2e tier exercise a watcher's relist without
//! waiting for a real compaction. Binds 127.0.0.1 only; stops accepting when dropped.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use futures::AsyncBufReadExt;

/// The ERROR event of an expired watch (what the apiserver sends for a too old resourceVersion).
const GONE: &str = r#"{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (2)","reason":"Expired","code":410}}"#;

#[derive(Default)]
struct State {
    injected: AtomicBool,
    lists: AtomicUsize,
    stopped: AtomicBool,
}

pub struct GoneProxy {
    port: u16,
    state: Arc<State>,
}

impl GoneProxy {
    /// Forward to the cluster of `kubeconfig`; the first watch whose path contains `resource` gets 410.
    pub fn start(kubeconfig: &Path, resource: &'static str) -> GoneProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind proxy");
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(State::default());
        let (shared, kubeconfig) = (state.clone(), kubeconfig.to_path_buf());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if shared.stopped.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(stream) = stream else { continue };
                let (state, kubeconfig) = (shared.clone(), kubeconfig.clone());
                std::thread::spawn(move || {
                    let _ = serve(stream, &kubeconfig, resource, &state);
                });
            }
        });
        GoneProxy { port, state }
    }

    /// The 410 was sent.
    pub fn injected(&self) -> bool {
        self.state.injected.load(Ordering::SeqCst)
    }

    /// Lists (non-watch GETs) of the resource so far.
    pub fn lists(&self) -> usize {
        self.state.lists.load(Ordering::SeqCst)
    }

    /// A kubeconfig for `http://127.0.0.1:PORT` without credentials (the proxy adds them).
    pub fn write_kubeconfig(&self, path: &PathBuf) {
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: proxy\n  cluster:\n    server: http://127.0.0.1:{}\n\
             users:\n- name: anonymous\n  user: {{}}\ncontexts:\n- name: proxy\n  context:\n    cluster: proxy\n    \
             user: anonymous\ncurrent-context: proxy\n",
            self.port
        );
        std::fs::write(path, text).unwrap();
    }
}

impl Drop for GoneProxy {
    fn drop(&mut self) {
        self.state.stopped.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// One request per connection (every response says `Connection: close`).
fn serve(mut stream: TcpStream, kubeconfig: &Path, resource: &str, state: &State) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" {
            break;
        }
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or("/").to_string();
    let ours = path.contains(&format!("/{resource}"));
    let watch = path.contains("watch=true") || path.contains("watch=1");
    if ours && watch && !state.injected.swap(true, Ordering::SeqCst) {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n";
        stream.write_all(format!("{head}{GONE}\n").as_bytes())?;
        return stream.flush();
    }
    if ours && !watch {
        state.lists.fetch_add(1, Ordering::SeqCst);
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(forward(stream, kubeconfig, &path, watch))
}

async fn forward(mut stream: TcpStream, kubeconfig: &Path, path: &str, watch: bool) -> std::io::Result<()> {
    let client = crate::harness::client_for(kubeconfig).await;
    let request = || http::Request::get(path).body(Vec::new()).unwrap();
    if watch {
        let body = client.request_stream(request()).await.map_err(std::io::Error::other)?;
        futures::pin_mut!(body);
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n";
        stream.write_all(head.as_bytes())?;
        let mut line = String::new();
        while body.read_line(&mut line).await? > 0 {
            stream.write_all(line.as_bytes())?;
            stream.flush()?;
            line.clear();
        }
        return Ok(());
    }
    let response =
        client.send(request().map(kube::client::Body::from)).await.map_err(std::io::Error::other)?;
    let status = response.status();
    let content_type = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("application/json")
        .to_string();
    let bytes = response.into_body().collect_bytes().await.map_err(std::io::Error::other)?;
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        bytes.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(&bytes)?;
    stream.flush()
}

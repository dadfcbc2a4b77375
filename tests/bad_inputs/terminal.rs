//! What the catalogue needs for terminal, secret and output cases (`cases-terminal.yaml`): files
//! written per case (kubeconfigs, exec credential plugins, dumps with hostile strings), a loopback
//! API server that answers every request with one status, stdout into a closed pipe or a full disk,
//! and the check that no raw control character reaches stdout or stderr.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde::Deserialize;

use crate::support::{CLEARED_ENV, root};

/// Where a case's stdout goes instead of a pipe the test reads.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sink {
    /// A pipe whose reading end is already closed (`| head` after it quit).
    Closed,
    /// `/dev/full`: every write fails with ENOSPC.
    Full,
}

/// One canned API answer: every request gets this status and JSON body.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    status: u16,
    body: String,
}

/// The case's own directory, its `files` written into it (`{scratch}` replaced; `*.sh` made
/// executable).
pub fn prepare(name: &str, files: &BTreeMap<String, String>, scratch: &Path) -> PathBuf {
    let dir = scratch.join(name);
    std::fs::create_dir_all(&dir).expect("case dir");
    for (file, text) in files {
        let path = dir.join(file);
        std::fs::write(&path, text.replace("{scratch}", &dir.display().to_string()))
            .expect("write case file");
        if file.ends_with(".sh") {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        }
    }
    dir
}

/// Run the binary with stdout into `sink`; stderr is captured.
pub fn run_into(sink: Sink, args: &[String], env: &[(String, String)]) -> std::io::Result<Output> {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("kubectl-topo"));
    for var in CLEARED_ENV {
        cmd.env_remove(var);
    }
    cmd.current_dir(root()).args(args).envs(env.iter().cloned()).stdin(Stdio::null());
    match sink {
        Sink::Closed => {
            let (reader, writer) = std::io::pipe()?;
            drop(reader);
            cmd.stdout(writer);
        }
        Sink::Full => {
            cmd.stdout(std::fs::OpenOptions::new().write(true).open("/dev/full")?);
        }
    }
    cmd.output()
}

/// The first raw control character (C0 but `\n` and `\t`, DEL, C1) in `text`, if any.
pub fn control_character(text: &str) -> Option<char> {
    text.chars().find(|&c| c.is_control() && c != '\n' && c != '\t')
}

/// A loopback HTTP/1.1 server answering every request with `answer`, for as long as it lives.
pub struct Server {
    port: u16,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Server {
    /// Start on 127.0.0.1, a free port.
    pub fn start(answer: &Answer) -> Server {
        use std::sync::atomic::Ordering;
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().expect("address").port();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (stopped, answer) = (stop.clone(), answer.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = stream {
                    let answer = answer.clone();
                    std::thread::spawn(move || serve(stream, &answer));
                }
            }
        });
        Server { port, stop }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port)); // wakes accept()
    }
}

fn serve(stream: TcpStream, answer: &Answer) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut writer = stream;
    loop {
        // Requests are GETs without a body: read up to the blank line.
        let mut line = String::new();
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if line.trim().is_empty() {
                break;
            }
        }
        let reply = format!(
            "HTTP/1.1 {} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
            answer.status,
            answer.body.len(),
            answer.body
        );
        if writer.write_all(reply.as_bytes()).is_err() {
            return;
        }
    }
}

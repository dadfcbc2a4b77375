//! `serve --tls-cert-file/--tls-private-key-file` read by a real client: curl completes the TLS
//! handshake trusting only the certificate openssl made (`--cacert`), and gets the landing page
//! and `/healthz` (the listener answers before the API server is reached: here it never is);
//! without that trust curl refuses the certificate, and plain HTTP on the port gets no answer.
//! A key that is no PEM key stops `serve` with one error line naming the file, exit code 2.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::apiserver::kubeconfig_at;

const WAIT: Duration = Duration::from_secs(60);

/// A self-signed certificate for 127.0.0.1, by openssl.
fn certificate(dir: &Path) -> (PathBuf, PathBuf) {
    let (cert, key) = (dir.join("tls.crt"), dir.join("tls.key"));
    let made = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"])
        .args(["-addext", "subjectAltName=IP:127.0.0.1"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .expect("openssl runs (Debian's openssl package)");
    assert!(made.status.success(), "openssl: {}", String::from_utf8_lossy(&made.stderr));
    (cert, key)
}

fn serve(kubeconfig: &Path, cert: &Path, key: &Path) -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("kubectl-topo"));
    command
        .args(["serve", "--listen", "127.0.0.1:0", "--kubeconfig"])
        .arg(kubeconfig)
        .arg("--tls-cert-file")
        .arg(cert)
        .arg("--tls-private-key-file")
        .arg(key)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    command
}

/// Killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// curl's exit code, status and body (`extra`: more arguments, e.g. `--cacert FILE`).
fn curl(url: &str, extra: &[&str]) -> (i32, u16, String) {
    let out = Command::new("curl")
        .args(["--silent", "--max-time", "10", "--write-out", "\n%{http_code}"])
        .args(extra)
        .arg(url)
        .output()
        .expect("curl runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let (body, status) = text.rsplit_once('\n').unwrap_or(("", "0"));
    (out.status.code().unwrap_or(-1), status.trim().parse().unwrap_or(0), body.to_string())
}

#[test]
fn curl_completes_the_handshake_trusting_only_the_given_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = certificate(dir.path());
    // An API server that accepts connections and never answers: the listener answers meanwhile.
    let hanging = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("https://{}", hanging.local_addr().unwrap());
    let kubeconfig = kubeconfig_at(dir.path(), &url);
    let mut command = serve(&kubeconfig, &cert, &key);
    let log = std::fs::File::create(dir.path().join("stderr")).unwrap();
    let _serve = Killed(command.stderr(log).spawn().expect("serve starts"));
    let prefix = "note: serving /metrics, /healthz and /readyz on https://127.0.0.1:";
    let start = Instant::now();
    let port: u16 = loop {
        let text = std::fs::read_to_string(dir.path().join("stderr")).unwrap_or_default();
        if let Some(port) = text.lines().find_map(|l| l.strip_prefix(prefix)).and_then(|p| p.parse().ok()) {
            break port;
        }
        assert!(start.elapsed() < WAIT, "serve did not say where it listens over HTTPS: {text}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let ca = ["--cacert", cert.to_str().unwrap()];
    let (code, status, body) = curl(&format!("https://127.0.0.1:{port}/healthz"), &ca);
    assert_eq!((code, status, body.as_str()), (0, 200, "ok\n"));
    let (code, status, body) = curl(&format!("https://127.0.0.1:{port}/"), &ca);
    assert_eq!((code, status), (0, 200));
    assert!(body.contains("href=\"/metrics\""), "{body}");
    // Without trusting it: curl's "peer certificate cannot be authenticated" (60).
    let (code, _, _) = curl(&format!("https://127.0.0.1:{port}/healthz"), &[]);
    assert_eq!(code, 60, "curl accepted a certificate it was not told to trust");
    // Plain HTTP on the TLS port: no HTTP answer.
    let (code, status, _) = curl(&format!("http://127.0.0.1:{port}/healthz"), &[]);
    assert!(code != 0 && status == 0, "plain HTTP answered: curl {code}, status {status}");
}

#[test]
fn a_key_that_is_no_pem_key_is_one_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, _) = certificate(dir.path());
    let bad = dir.path().join("not-a-key.pem");
    std::fs::write(&bad, "hello\n").unwrap();
    let kubeconfig = kubeconfig_at(dir.path(), "https://127.0.0.1:9");
    let out = serve(&kubeconfig, &cert, &bad).stderr(Stdio::piped()).output().expect("serve runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains("not-a-key.pem") && errors[0].contains("private key"), "{stderr}");
}

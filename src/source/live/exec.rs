//! Exec credential plugins (`users[].user.exec` in a kubeconfig), run here rather than by kube so
//! that they are bounded: the plugin must answer within the request timeout (or
//! [`DEFAULT_TIMEOUT`] when there is none) and write at most [`MAX_OUTPUT`] bytes; otherwise it
//! is killed and the error names it. Its credential is then handed to kube as a plain token or
//! client certificate, so kube never runs the plugin itself.
//!
//! Nothing the plugin writes is ever printed: not its stdout (the credential), not its stderr
//! (which may echo one; it goes to the terminal only in interactive mode, as kubectl lets it),
//! not `KUBERNETES_EXEC_INFO`. Errors say which plugin, what went wrong and where in its answer.
//! Mirrors client-go `plugin/pkg/client/auth/exec/exec.go` (`refreshCredsLocked`), which reads the
//! same ExecCredential (JSON) and passes the same environment.

use std::io::{IsTerminal, Read};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use base64::Engine;
use kube::config::{ExecConfig, ExecInteractiveMode};
use serde::Deserialize;

/// How long a plugin may take when no request timeout applies (`--request-timeout 0`, `watch`).
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// The most a plugin may write to stdout (an ExecCredential is a few KiB, with certificates).
pub(crate) const MAX_OUTPUT: u64 = 1024 * 1024;

/// Why an exec credential plugin gave no credential. `command` is the plugin as the kubeconfig
/// names it.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// `exec` without `command`.
    #[error("the kubeconfig user's exec credential plugin has no command")]
    NoCommand,
    /// The command could not be started (not installed, not executable).
    #[error("cannot run exec credential plugin {command}: {source}")]
    Start {
        /// The plugin.
        command: String,
        /// The cause.
        source: std::io::Error,
        /// The kubeconfig's `installHint`.
        install_hint: Option<String>,
    },
    /// No answer in time.
    #[error("exec credential plugin {command} did not answer within {}s; it was stopped", after.as_secs())]
    Timeout {
        /// The plugin.
        command: String,
        /// The limit.
        after: Duration,
    },
    /// It wrote more than [`MAX_OUTPUT`].
    #[error("exec credential plugin {command} wrote more than {} MiB; it was stopped", MAX_OUTPUT >> 20)]
    TooLarge {
        /// The plugin.
        command: String,
    },
    /// It exited with a failure.
    #[error(
        "exec credential plugin {command} failed ({status}); its output is not shown, as it may hold credentials"
    )]
    Failed {
        /// The plugin.
        command: String,
        /// How it ended.
        status: std::process::ExitStatus,
    },
    /// Its answer is not an ExecCredential (never quoted: it may hold a credential).
    #[error(
        "exec credential plugin {command} did not write an ExecCredential: {what} at line {line} column {column}"
    )]
    Invalid {
        /// The plugin.
        command: String,
        /// What is wrong (never a value from the answer).
        what: &'static str,
        /// 1-based line of the answer.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// A valid answer without a token or a client certificate and key.
    #[error("exec credential plugin {command} answered without a token or a client certificate and key")]
    NoCredential {
        /// The plugin.
        command: String,
    },
}

impl ExecError {
    /// One line of remedy.
    pub fn hint(&self) -> String {
        match self {
            ExecError::Start { install_hint: Some(hint), .. } => hint.lines().next().unwrap_or("").to_string(),
            ExecError::Timeout { .. } => "run the plugin yourself to see what it waits for (a login?), or raise --request-timeout".to_string(),
            _ => "run the plugin yourself to see its answer, and check the user's exec section (kubectl config view --minify)".to_string(),
        }
    }
}

/// The parts of an ExecCredential we use (client.authentication.k8s.io/v1 and v1beta1).
#[derive(Debug, Default, Deserialize)]
struct ExecCredential {
    #[serde(default)]
    status: Option<Status>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Status {
    token: Option<String>,
    client_certificate_data: Option<String>,
    client_key_data: Option<String>,
}

/// Run the exec plugin of `config` (if it has one) within `timeout`, and put its credential in
/// place of the `exec` section, so that kube uses it as it is.
pub fn resolve(config: &mut kube::Config, timeout: Duration) -> Result<(), ExecError> {
    let Some(exec) = config.auth_info.exec.take() else { return Ok(()) };
    let status = run(&exec, timeout)?;
    let auth = &mut config.auth_info;
    match status {
        Status { client_certificate_data: Some(cert), client_key_data: Some(key), .. } => {
            // kubeconfig fields hold base64 of the PEM the plugin gives.
            let b64 = base64::engine::general_purpose::STANDARD;
            auth.client_certificate_data = Some(b64.encode(cert));
            auth.client_key_data = Some(b64.encode(key).into());
        }
        Status { token: Some(token), .. } => auth.token = Some(token.into()),
        Status { .. } => return Err(ExecError::NoCredential { command: command_name(&exec) }),
    }
    Ok(())
}

fn command_name(exec: &ExecConfig) -> String {
    exec.command.clone().unwrap_or_default()
}

/// Start the plugin as client-go does: its args and env, `KUBERNETES_EXEC_INFO`, stdin and stderr
/// from the terminal only when interactive.
fn start(exec: &ExecConfig, command: &str) -> Result<Child, ExecError> {
    let interactive = match exec.interactive_mode {
        Some(ExecInteractiveMode::Never) => false,
        Some(ExecInteractiveMode::Always) => true,
        Some(ExecInteractiveMode::IfAvailable) | None => std::io::stdin().is_terminal(),
    };
    let mut spec = serde_json::json!({ "interactive": interactive });
    if let (true, Some(cluster)) = (exec.provide_cluster_info, &exec.cluster) {
        spec["cluster"] = serde_json::to_value(cluster).unwrap_or_default();
    }
    let info = serde_json::json!({
        "apiVersion": exec.api_version.as_deref().unwrap_or("client.authentication.k8s.io/v1"),
        "kind": "ExecCredential",
        "spec": spec,
    });
    let mut cmd = Command::new(command);
    cmd.args(exec.args.iter().flatten());
    for var in exec.env.iter().flatten() {
        if let (Some(name), Some(value)) = (var.get("name"), var.get("value")) {
            cmd.env(name, value);
        }
    }
    cmd.env("KUBERNETES_EXEC_INFO", info.to_string()).stdout(Stdio::piped());
    let (stdin, stderr) =
        if interactive { (Stdio::inherit(), Stdio::inherit()) } else { (Stdio::null(), Stdio::null()) };
    cmd.stdin(stdin).stderr(stderr);
    cmd.spawn().map_err(|source| ExecError::Start {
        command: command.to_string(),
        source,
        install_hint: exec.install_hint.clone(),
    })
}

/// Run the plugin within `timeout` and at most [`MAX_OUTPUT`] bytes; kill it past either.
fn run(exec: &ExecConfig, timeout: Duration) -> Result<Status, ExecError> {
    let command = exec.command.clone().ok_or(ExecError::NoCommand)?;
    let deadline = Instant::now() + timeout;
    let mut child = start(exec, &command)?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let (sender, answer) = mpsc::channel();
    // A thread reads, so that the wait below can give up on a plugin that never closes stdout.
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let read = stdout.take(MAX_OUTPUT + 1).read_to_end(&mut bytes);
        let _ = sender.send(read.map(|_| bytes));
    });
    let stop = |mut child: Child, error: ExecError| {
        let _ = child.kill();
        let _ = child.wait();
        Err(error)
    };
    let timed_out = || ExecError::Timeout { command: command.clone(), after: timeout };
    let bytes = match answer.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(Ok(bytes)) if bytes.len() as u64 > MAX_OUTPUT => {
            return stop(child, ExecError::TooLarge { command: command.clone() });
        }
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            let what = "unreadable output";
            return stop(child, ExecError::Invalid { command: command.clone(), what, line: 0, column: 0 });
        }
        Err(_) => return stop(child, timed_out()),
    };
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            _ => return stop(child, timed_out()),
        }
    };
    if !status.success() {
        return Err(ExecError::Failed { command, status });
    }
    parse(&bytes, &command)
}

/// The ExecCredential's status; errors name the place and the kind of fault, never the text.
fn parse(bytes: &[u8], command: &str) -> Result<Status, ExecError> {
    let credential: ExecCredential = serde_json::from_slice(bytes).map_err(|e| ExecError::Invalid {
        command: command.to_string(),
        what: match e.classify() {
            serde_json::error::Category::Eof => "the JSON ends early",
            serde_json::error::Category::Syntax => "invalid JSON",
            serde_json::error::Category::Data => "a field of the wrong type",
            serde_json::error::Category::Io => "unreadable output",
        },
        line: e.line(),
        column: e.column(),
    })?;
    Ok(credential.status.unwrap_or_default())
}

#[cfg(test)]
mod tests;

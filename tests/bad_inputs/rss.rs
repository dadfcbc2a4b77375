//! Runs the binary as a catalogue case does and measures its peak resident memory: `VmHWM` of
//! `/proc/PID/status`, sampled every millisecond once the child runs our binary (before its exec,
//! the child is a copy of this test process, whose memory must not count), until it exits.
//! `wait4`'s `ru_maxrss` would count that copy too.

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// The child's output and its peak RSS in MiB.
pub fn run(mut cmd: Command, stdin: Option<Vec<u8>>) -> std::io::Result<(Output, u64)> {
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
    let pipe = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let (Some(mut pipe), Some(bytes)) = (pipe, stdin) {
            // The child may stop reading early (an error at the first bytes): not a failure.
            let _ = pipe.write_all(&bytes);
        }
    });
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0;
    let status = loop {
        if let Some(kib) = high_water_mark(&status_file) {
            peak_kib = peak_kib.max(kib);
        }
        if let Some(status) = child.try_wait()? {
            break status;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let _ = writer.join();
    let output = Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    };
    Ok((output, peak_kib / 1024))
}

fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// `VmHWM` in KiB, once the process runs `kubectl-topo`.
fn high_water_mark(status_file: &str) -> Option<u64> {
    let status = std::fs::read_to_string(status_file).ok()?;
    let name = status.lines().find_map(|l| l.strip_prefix("Name:"))?.trim();
    if name != "kubectl-topo" {
        return None;
    }
    let hwm = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    hwm.trim().trim_end_matches("kB").trim().parse().ok()
}

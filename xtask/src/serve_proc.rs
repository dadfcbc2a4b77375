//! `serve` as `cargo xtask bench-serve` runs it, and what the bench reads of a process: its
//! answers over plain HTTP/1.0, its RSS and its CPU time from `/proc`.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::live;
use crate::measure::stderr_tail;

/// `kubectl-topo serve` running, its stderr kept in a file: every wait on it ends as soon as it
/// exits, saying how and with the end of what it printed. Killed when dropped.
pub(crate) struct Serve {
    child: Child,
    log: PathBuf,
    pub port: u16,
}

impl Serve {
    /// Started from the thread that waits on it (the main one): if xtask is killed, the kernel
    /// kills `serve` with it (PR_SET_PDEATHSIG, as the control plane's processes), so no `serve`
    /// keeps running against a plane that is gone.
    pub(crate) fn start(topo: &Path, kubeconfig: &str, log: PathBuf) -> io::Result<Serve> {
        use std::os::unix::process::CommandExt;
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let parent = std::process::id();
        // Its flags after the subcommand (serve's own).
        let mut command = Command::new(topo);
        command
            .args(["serve", "--kubeconfig", kubeconfig, "--listen", &format!("127.0.0.1:{port}")])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log)?);
        // SAFETY: the hook only makes two async-signal-safe system calls (prctl, getppid).
        unsafe { command.pre_exec(move || live::die_with_parent(parent)) };
        let child = command.spawn()?;
        Ok(Serve { child, log, port })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `what` went wrong: the error to return, with serve's exit status and the end of its
    /// stderr when it has exited (the usual reason).
    pub fn why(&mut self, what: &str) -> io::Error {
        let stderr = std::fs::read_to_string(&self.log).unwrap_or_default();
        match self.child.try_wait() {
            Ok(Some(status)) => io::Error::other(format!(
                "{what}: serve exited ({status}); its stderr ends:\n{}",
                stderr_tail(&stderr, 20)
            )),
            _ => io::Error::other(format!(
                "{what} (serve still runs; its stderr ends:\n{})",
                stderr_tail(&stderr, 5)
            )),
        }
    }

    /// `GET path`, or why not.
    pub fn get(&mut self, path: &str) -> io::Result<(u16, String)> {
        get(self.port, path).ok_or_else(|| self.why(&format!("GET {path} failed")))
    }

    /// Until `/readyz` answers 200, at most `limit`; failing at once if serve exits.
    pub(crate) fn until_ready(&mut self, limit: Duration) -> io::Result<()> {
        let started = Instant::now();
        while get(self.port, "/readyz").map(|r| r.0) != Some(200) {
            if self.child.try_wait()?.is_some() {
                return Err(self.why("not ready"));
            }
            if started.elapsed() > limit {
                return Err(self.why(&format!("not ready after {limit:?}")));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn get(port: u16, path: &str) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    write!(stream, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let (head, body) = answer.split_once("\r\n\r\n")?;
    Some((head.split_whitespace().nth(1)?.parse().ok()?, body.to_string()))
}

/// `GET /metrics` asking for gzip: the bytes of the body received (compressed).
pub(crate) fn get_gzip(port: u16) -> Option<usize> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    write!(stream, "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n\r\n").ok()?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).ok()?;
    let head_end = answer.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&answer[..head_end]).to_ascii_lowercase();
    head.contains("content-encoding: gzip").then_some(answer.len() - head_end - 4)
}

/// `(VmRSS, VmHWM)` in kB of a process.
pub(crate) fn rss(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    (status_field(&status, "VmRSS:"), status_field(&status, "VmHWM:"))
}

/// The number a `/proc/…/status` text gives after `name` (0 when it is not there).
fn status_field(status: &str, name: &str) -> u64 {
    let value = status.lines().find_map(|l| l.strip_prefix(name));
    value.and_then(|v| v.split_whitespace().next()?.parse().ok()).unwrap_or(0)
}

/// utime and stime of a process, in clock ticks (1/100 s; 0 when it cannot be read).
fn ticks(pid: u32) -> (u64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let tick = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    (tick(11), tick(12))
}

/// utime + stime of a process, in seconds.
pub(crate) fn cpu_secs(pid: u32) -> f64 {
    let (user, system) = ticks(pid);
    (user + system) as f64 / 100.0
}

/// What a process has spent so far, read from `/proc` for a finer figure per change than
/// [`cpu_secs`] (whose clock ticks are 10 ms): the scheduler's run time, the user/system split
/// (ticks), and how often its threads went to sleep and were woken again.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Usage {
    /// Run time of the live threads (`/proc/PID/task/*/schedstat`), in nanoseconds.
    pub run_ns: u64,
    /// utime and stime, in clock ticks (1/100 s).
    pub user_ticks: u64,
    pub system_ticks: u64,
    /// Voluntary context switches of the live threads: each one a sleep, then a wake-up.
    pub wakeups: u64,
}

impl Usage {
    /// The usage of `pid` now (zeros for what cannot be read).
    pub(crate) fn of(pid: u32) -> Usage {
        let (user_ticks, system_ticks) = ticks(pid);
        let mut usage = Usage { user_ticks, system_ticks, ..Usage::default() };
        let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).into_iter().flatten().flatten();
        for task in tasks.map(|t| t.path()) {
            let schedstat = std::fs::read_to_string(task.join("schedstat")).unwrap_or_default();
            usage.run_ns += schedstat.split_whitespace().next().and_then(|f| f.parse().ok()).unwrap_or(0);
            let status = std::fs::read_to_string(task.join("status")).unwrap_or_default();
            usage.wakeups += status_field(&status, "voluntary_ctxt_switches:");
        }
        usage
    }

    /// One line: what was spent between `self` and `later`, per each of `changes`.
    pub(crate) fn per_change(&self, later: &Usage, changes: usize) -> String {
        let n = changes.max(1) as f64;
        let user = later.user_ticks.saturating_sub(self.user_ticks);
        let system = later.system_ticks.saturating_sub(self.system_ticks);
        let share = |ticks: u64| 100.0 * ticks as f64 / (user + system).max(1) as f64;
        // The run time and wake-ups are sums over the live threads: one that ended between the
        // readings takes its share with it.
        format!(
            "{:.3} ms run time per change (user {:.0} % / system {:.0} % of the ticks), {:.2} wake-ups",
            later.run_ns.saturating_sub(self.run_ns) as f64 / 1e6 / n,
            share(user),
            share(system),
            later.wakeups.saturating_sub(self.wakeups) as f64 / n
        )
    }
}

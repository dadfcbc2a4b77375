//! Timing two commands side by side: alternating runs after one warm-up each, wall time around the
//! process, peak RSS from GNU time (`/usr/bin/time -f %M`, the child's own maxrss).

use std::io;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

/// One command line, stdout discarded (`> /dev/null`).
#[derive(Debug, Clone)]
pub struct Cmd {
    pub program: PathBuf,
    pub args: Vec<String>,
}

impl Cmd {
    pub fn new(program: impl Into<PathBuf>, args: &[&str]) -> Cmd {
        Cmd { program: program.into(), args: args.iter().map(|s| s.to_string()).collect() }
    }
    /// As a shell would show it, with the program's file name only.
    pub fn display(&self) -> String {
        let name = self.program.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        format!("{name} {} > /dev/null", self.args.join(" "))
    }
}

/// Median wall time and peak RSS over the runs.
#[derive(Debug, Clone, Copy)]
pub struct Stats {
    pub median_secs: f64,
    pub median_rss_kb: u64,
}

fn run_once(cmd: &Cmd) -> io::Result<(f64, u64)> {
    let rss_file = tempfile::NamedTempFile::new()?;
    let started = Instant::now();
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o"])
        .arg(rss_file.path())
        .arg(&cmd.program)
        .args(&cmd.args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()?;
    let secs = started.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(io::Error::other(format!(
            "{} failed ({}): {}",
            cmd.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")
        )));
    }
    let rss = std::fs::read_to_string(rss_file.path())?;
    let rss_kb = rss.lines().last().and_then(|l| l.trim().parse().ok()).unwrap_or(0);
    Ok((secs, rss_kb))
}

fn stats(mut samples: Vec<(f64, u64)>) -> Stats {
    samples.sort_by(|a, b| a.0.total_cmp(&b.0));
    let median_secs = samples[samples.len() / 2].0;
    let mut rss: Vec<u64> = samples.iter().map(|s| s.1).collect();
    rss.sort_unstable();
    Stats { median_secs, median_rss_kb: rss[rss.len() / 2] }
}

/// `a` and `b` alternately, `runs` times each, after one unmeasured warm-up of each.
pub fn side_by_side(a: &Cmd, b: &Cmd, runs: usize) -> io::Result<(Stats, Stats)> {
    run_once(a)?;
    run_once(b)?;
    let (mut sa, mut sb) = (Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        sa.push(run_once(a)?);
        sb.push(run_once(b)?);
    }
    Ok((stats(sa), stats(sb)))
}

/// Several commands in rounds (each once per round, after one unmeasured warm-up round).
pub fn rounds(cmds: &[Cmd], runs: usize) -> io::Result<Vec<Stats>> {
    for cmd in cmds {
        run_once(cmd)?;
    }
    let mut samples = vec![Vec::new(); cmds.len()];
    for _ in 0..runs.max(1) {
        for (cmd, s) in cmds.iter().zip(&mut samples) {
            s.push(run_once(cmd)?);
        }
    }
    Ok(samples.into_iter().map(stats).collect())
}

/// One command alone (the scaling curve).
pub fn alone(a: &Cmd, runs: usize) -> io::Result<Stats> {
    run_once(a)?;
    let samples = (0..runs.max(1)).map(|_| run_once(a)).collect::<io::Result<Vec<_>>>()?;
    Ok(stats(samples))
}

pub fn mb(kb: u64) -> f64 {
    kb as f64 / 1024.0
}

//! Timing two commands side by side: alternating runs after one warm-up each, wall time around the
//! process, peak RSS and CPU time from GNU time (`/usr/bin/time -f '%M %U %S'`: the child's own
//! maxrss, user and system seconds; CPU time is what a loaded machine inflates least).

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

/// Median wall time, peak RSS and CPU time (user + system) over the runs.
#[derive(Debug, Clone, Copy)]
pub struct Stats {
    pub median_secs: f64,
    pub median_rss_kb: u64,
    pub median_cpu_secs: f64,
}

/// One run: wall seconds, peak RSS in KB, CPU seconds.
type Sample = (f64, u64, f64);

fn run_once(cmd: &Cmd) -> io::Result<Sample> {
    let rss_file = tempfile::NamedTempFile::new()?;
    let started = Instant::now();
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M %U %S", "-o"])
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
            "{} failed ({}); its stderr ends:\n{}",
            cmd.display(),
            out.status,
            stderr_tail(&String::from_utf8_lossy(&out.stderr), 10)
        )));
    }
    let (rss_kb, cpu) = time_line(&std::fs::read_to_string(rss_file.path())?);
    Ok((secs, rss_kb, cpu))
}

/// The last `n` lines of a child's stderr (what it said before it stopped).
pub fn stderr_tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// GNU time's `%M %U %S` line (the last one): peak RSS in KB and user + system seconds.
fn time_line(text: &str) -> (u64, f64) {
    let fields: Vec<&str> = text.lines().last().unwrap_or("").split_whitespace().collect();
    let secs = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (fields.first().and_then(|f| f.parse().ok()).unwrap_or(0), secs(1) + secs(2))
}

fn median<T: Copy>(mut values: Vec<T>, order: impl Fn(&T, &T) -> std::cmp::Ordering) -> T {
    values.sort_by(order);
    values[values.len() / 2]
}

fn stats(samples: Vec<Sample>) -> Stats {
    Stats {
        median_secs: median(samples.iter().map(|s| s.0).collect(), f64::total_cmp),
        median_rss_kb: median(samples.iter().map(|s| s.1).collect(), Ord::cmp),
        median_cpu_secs: median(samples.iter().map(|s| s.2).collect(), f64::total_cmp),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnu_time_line_gives_rss_and_user_plus_system_seconds() {
        assert_eq!(time_line("97512 1.25 0.50\n"), (97_512, 1.75));
        // A child killed by a signal makes GNU time print a note first: the figures are last.
        assert_eq!(time_line("Command exited with non-zero status 1\n2048 0.25 0.5"), (2048, 0.75));
        assert_eq!(time_line(""), (0, 0.0));
    }

    #[test]
    fn medians_are_taken_per_column() {
        let s = stats(vec![(3.0, 30, 0.3), (1.0, 50, 0.1), (2.0, 10, 0.9)]);
        assert_eq!((s.median_secs, s.median_rss_kb, s.median_cpu_secs), (2.0, 30, 0.3));
    }
}

//! What every benchmark shares: where the repo and the release build are, the repo's helper
//! scripts, the machine's description and the Markdown rows the tables are made of.

use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::measure::{Cmd, Stats, mb};

pub(crate) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask/ sits in the repo").to_path_buf()
}

/// `kubectl-topo` built in xtask's own profile, next to this xtask binary (same target dir):
/// release under `cargo xtask` (the alias builds xtask with `--release`), the dev profile when
/// xtask itself is a dev build (`cargo run -p xtask`: scripts/bench-smoke.sh, which only checks
/// that each benchmark still runs; its figures mean nothing).
pub(crate) fn product() -> io::Result<PathBuf> {
    let profile = if cfg!(debug_assertions) { "dev" } else { "release" };
    if profile == "dev" {
        eprintln!("xtask: a dev build: the figures below are not benchmarks");
    }
    let status = Command::new(env!("CARGO"))
        // With xtask's own package too: the same features as the build of `cargo xtask` itself,
        // so the dependencies it already built are reused instead of built again.
        .args([
            "build",
            "--profile",
            profile,
            "--locked",
            "-p",
            "xtask",
            "-p",
            "kubectl-topo",
            "--bin",
            "kubectl-topo",
        ])
        .current_dir(repo())
        .status()?;
    if !status.success() {
        return Err(io::Error::other(format!("cargo build --profile {profile} failed")));
    }
    let exe = std::env::current_exe()?;
    Ok(exe.with_file_name("kubectl-topo"))
}

pub(crate) fn bench_dir() -> io::Result<PathBuf> {
    let dir = std::env::current_exe()?.with_file_name("bench");
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Prints the path a repo script prints (oracle, kubectl build dir).
pub(crate) fn script_path(script: &str) -> io::Result<PathBuf> {
    let out = Command::new("bash").arg(repo().join(script)).output()?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail = crate::measure::stderr_tail(&stderr, 10);
        return Err(io::Error::other(format!("{script} failed ({}); its stderr ends:\n{tail}", out.status)));
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

pub(crate) fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpu
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|l| l.trim_start_matches([' ', '\t', ':']));
    let mem = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let total =
        mem.lines().next().unwrap_or("").split_whitespace().nth(1).and_then(|k| k.parse::<u64>().ok());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "{cores} CPUs ({}), {:.0} GiB RAM",
        model.unwrap_or("unknown CPU"),
        total.unwrap_or(0) as f64 / 1024.0 / 1024.0
    )
}

pub(crate) fn row(what: &str, target: &str, a: &Cmd, b: &Cmd, sa: Stats, sb: Stats) -> String {
    format!(
        "| {what} | `{}` | `{}` | {:.2} s ({:.0} MB) | {:.2} s ({:.0} MB) | **{:.2}×** | {target} |",
        a.display(),
        b.display(),
        sa.median_secs,
        mb(sa.median_rss_kb),
        sb.median_secs,
        mb(sb.median_rss_kb),
        sa.median_secs / sb.median_secs
    )
}

pub(crate) const HEADER: &str = "| benchmark | kubectl-topo | baseline | kubectl-topo median (peak RSS) | baseline median (peak RSS) | ratio | target |\n|---|---|---|---|---|---|---|";

//! `cargo xtask scale`: the scaling curve. `check -A --from-file` on the small cluster and on 2×,
//! 5×, 10×, 50×, 100×, 500× its nodes, Services and endpoints (same mix, same seed), each dump
//! generated, measured and deleted before the next (500× is ≈ 1.7 GB). The figure is µs per
//! endpoint; the goal is a flat line (every size within ±25 % of the median).

use std::io;
use std::path::Path;
use std::process::Command;

use crate::bench::{bench_dir, machine, product, script_path};
use crate::generate;
use crate::measure::{Cmd, Stats, alone, mb, side_by_side};
use crate::plan::Size;

const MULTIPLES: [usize; 7] = [1, 2, 5, 10, 50, 100, 500];

/// Bytes of the small cluster's JSON dump, to tell whether the next one fits on the disk.
const SMALL_BYTES: u64 = 3_500_000;

/// Disk left free for everyone else while a dump is on it.
const DISK_MARGIN: u64 = 4 << 30;

pub fn run(runs: usize, max: usize, oracle_max: usize) -> io::Result<()> {
    let topo = product()?;
    let oracle = script_path("tests/upstream/run-oracle.sh")?;
    let dir = bench_dir()?;
    println!("Machine: {}; {runs} runs up to 10×, 3 beyond; median.\n", machine());
    println!(
        "| size | nodes | Services | endpoints | dump MB | kubectl-topo | peak RSS | µs per endpoint | Go oracle | ratio |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut per_endpoint = Vec::new();
    for k in MULTIPLES.into_iter().filter(|&k| k <= max) {
        let free = free_bytes(&dir)?;
        if free < SMALL_BYTES * k as u64 + DISK_MARGIN {
            println!("\n(stopped before {k}×: {:.1} GB free on the disk)", free as f64 / 1e9);
            break;
        }
        let size = Size::preset(&format!("small*{k}")).expect("small*K is a preset");
        let dump = dir.join(format!("small-x{k}.json"));
        let summary = generate::write(size, &dump)?;
        let measured = measure(&topo, &oracle, &dump, if k <= 10 { runs } else { 3 }, k <= oracle_max);
        std::fs::remove_file(&dump)?;
        let (sa, sb) = measured?;
        let us = sa.median_secs * 1e6 / summary.endpoints as f64;
        per_endpoint.push(us);
        let (oracle_secs, ratio) = match sb {
            Some(sb) => {
                (format!("{:.2} s", sb.median_secs), format!("{:.2}×", sa.median_secs / sb.median_secs))
            }
            None => ("—".to_string(), "—".to_string()),
        };
        println!(
            "| {k}× | {} | {} | {} | {:.0} | {:.2} s | {:.0} MB | {us:.1} | {oracle_secs} | {ratio} |",
            summary.nodes,
            summary.services,
            summary.endpoints,
            summary.bytes as f64 / 1e6,
            sa.median_secs,
            mb(sa.median_rss_kb),
        );
    }
    println!("\n{}", flatness(&per_endpoint));
    Ok(())
}

/// `check -A` on `dump`, and the oracle side by side with it when `with_oracle`.
fn measure(
    topo: &Path,
    oracle: &Path,
    dump: &Path,
    runs: usize,
    with_oracle: bool,
) -> io::Result<(Stats, Option<Stats>)> {
    let d = dump.to_string_lossy().to_string();
    let check = Cmd::new(topo, &["check", "-A", "--from-file", &d, "--fail-on", "none"]);
    if !with_oracle {
        return Ok((alone(&check, runs)?, None));
    }
    let (sa, sb) = side_by_side(&check, &Cmd::new(oracle, &["all", "--dump", &d]), runs)?;
    Ok((sa, Some(sb)))
}

/// How far the µs per endpoint stray from their median, in percent.
fn flatness(per_endpoint: &[f64]) -> String {
    let mut sorted = per_endpoint.to_vec();
    sorted.sort_by(f64::total_cmp);
    let Some(&median) = sorted.get(sorted.len() / 2) else { return "no size measured".to_string() };
    let spread = |v: f64| (v / median - 1.0) * 100.0;
    let (low, high) = (spread(sorted[0]), spread(sorted[sorted.len() - 1]));
    let flat = low >= -25.0 && high <= 25.0;
    format!(
        "µs per endpoint: median {median:.1}, from {low:+.0} % to {high:+.0} % of it ({} the ±25 % goal)",
        if flat { "within" } else { "outside" }
    )
}

/// Bytes available on the file system holding `dir` (`df`, as the machine reports it).
fn free_bytes(dir: &Path) -> io::Result<u64> {
    let out = Command::new("df").args(["-B1", "--output=avail"]).arg(dir).output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().nth(1).and_then(|l| l.trim().parse().ok()).ok_or_else(|| io::Error::other("df: no figure"))
}

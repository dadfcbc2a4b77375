//! `cargo xtask scale`: the scaling curve. `check -A --from-file` on the small cluster and on 2×,
//! 5×, 10×, 50×, 100×, 500× its nodes, Services and endpoints (same mix, same seed), each dump
//! generated, measured and deleted before the next (500× is ≈ 1.7 GB). `--mix xlarge` keeps
//! xlarge's mix instead (6 zones, 0.65 nodes per Service: `xmix*K`, and 500× is xlarge itself).
//! The figure is µs of CPU per endpoint (user + system: what a loaded machine inflates least; wall
//! time is shown too); the goal is a flat line (every size within ±25 % of the median).

use std::io;
use std::path::Path;
use std::process::Command;

use crate::common::{bench_dir, machine, product, script_path};
use crate::generate;
use crate::measure::{Cmd, Stats, alone, mb, side_by_side};
use crate::plan::Size;

const MULTIPLES: [usize; 7] = [1, 2, 5, 10, 50, 100, 500];

/// Bytes of the small cluster's JSON dump, to tell whether the next one fits on the disk.
const SMALL_BYTES: u64 = 3_500_000;

/// Disk left free for everyone else while a dump is on it.
const DISK_MARGIN: u64 = 15 << 30;

/// One size of the curve: the multiple, its preset name, how many runs, with the oracle or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub k: usize,
    pub preset: String,
    pub runs: usize,
    pub oracle: bool,
}

/// The sizes measured: every multiple up to `max`, `runs` runs up to 10× and 3 beyond (never more
/// than asked), the oracle up to `oracle_max`. `mix` is `small` or `xlarge`.
pub fn plan(mix: &str, runs: usize, max: usize, oracle_max: usize) -> Option<Vec<Step>> {
    let prefix = match mix {
        "small" => "small",
        "xlarge" => "xmix",
        _ => return None,
    };
    let steps = MULTIPLES.into_iter().filter(|&k| k <= max).map(|k| Step {
        k,
        preset: format!("{prefix}*{k}"),
        runs: if k <= 10 { runs.max(1) } else { runs.clamp(1, 3) },
        oracle: k <= oracle_max,
    });
    Some(steps.collect())
}

/// Whether a dump of `k`× the small cluster leaves the margin free on a disk with `free` bytes.
pub fn fits(free: u64, k: usize) -> bool {
    free >= SMALL_BYTES * k as u64 + DISK_MARGIN
}

pub fn run(mix: &str, runs: usize, max: usize, oracle_max: usize) -> io::Result<()> {
    let steps = plan(mix, runs, max, oracle_max)
        .ok_or_else(|| io::Error::other(format!("unknown mix {mix:?} (small, xlarge)")))?;
    let topo = product()?;
    let oracle = script_path("tests/upstream/run-oracle.sh")?;
    let dir = bench_dir()?;
    println!("Machine: {}; {mix} mix; {runs} runs up to 10×, at most 3 beyond; median.\n", machine());
    println!(
        "| size | nodes | zones | Services | endpoints | dump MB | wall | CPU | peak RSS | µs CPU per endpoint | Go oracle (wall) | ratio (wall) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut per_endpoint = Vec::new();
    for step in steps {
        let free = free_bytes(&dir)?;
        if !fits(free, step.k) {
            println!("\n(stopped before {}×: {:.1} GB free on the disk)", step.k, free as f64 / 1e9);
            break;
        }
        let size = Size::preset(&step.preset).expect("the plan names presets");
        let dump = dir.join(format!("{}.json", step.preset.replace('*', "-x")));
        let summary = generate::write(size, &dump)?;
        let measured = measure(&topo, &oracle, &dump, step.runs, step.oracle);
        std::fs::remove_file(&dump)?;
        let (sa, sb) = measured?;
        let us = sa.median_cpu_secs * 1e6 / summary.endpoints as f64;
        per_endpoint.push(us);
        println!(
            "| {}× | {} | {} | {} | {} | {:.0} | {:.2} s | {:.2} s | {:.0} MB | {us:.1} | {} |",
            step.k,
            summary.nodes,
            size.zones,
            summary.services,
            summary.endpoints,
            summary.bytes as f64 / 1e6,
            sa.median_secs,
            sa.median_cpu_secs,
            mb(sa.median_rss_kb),
            oracle_cells(&sa, sb.as_ref()),
        );
    }
    println!("\n{}", flatness(&per_endpoint));
    Ok(())
}

fn oracle_cells(sa: &Stats, sb: Option<&Stats>) -> String {
    match sb {
        Some(sb) => format!("{:.2} s | {:.2}×", sb.median_secs, sa.median_secs / sb.median_secs),
        None => "— | —".to_string(),
    }
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
pub fn flatness(per_endpoint: &[f64]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_stops_at_max_and_runs_fewer_times_on_the_large_sizes() {
        let steps = plan("small", 5, 100, 10).unwrap();
        let ks: Vec<usize> = steps.iter().map(|s| s.k).collect();
        assert_eq!(ks, [1, 2, 5, 10, 50, 100]);
        let runs: Vec<usize> = steps.iter().map(|s| s.runs).collect();
        assert_eq!(runs, [5, 5, 5, 5, 3, 3]);
        let oracle: Vec<bool> = steps.iter().map(|s| s.oracle).collect();
        assert_eq!(oracle, [true, true, true, true, false, false]);
        assert_eq!(plan("small", 1, 500, 0).unwrap().iter().map(|s| s.runs).max(), Some(1));
        assert_eq!(plan("small", 0, 1, 0).unwrap()[0].runs, 1, "at least one run");
        assert!(plan("medium", 5, 500, 100).is_none());
    }

    #[test]
    fn every_step_is_a_preset_of_k_times_the_small_cluster() {
        for mix in ["small", "xlarge"] {
            for step in plan(mix, 5, 500, 100).unwrap() {
                let size = Size::preset(&step.preset).unwrap();
                assert_eq!((size.services, size.endpoints), (200 * step.k, 2_000 * step.k), "{step:?}");
            }
        }
        let last = plan("xlarge", 5, 500, 100).unwrap().pop().unwrap();
        assert_eq!(Size::preset(&last.preset), Size::preset("xlarge"), "500× the xlarge mix is xlarge");
        assert_eq!(Size::preset("xmix*1").map(|s| (s.nodes, s.zones)), Some((130, 6)));
    }

    #[test]
    fn a_dump_fits_only_with_the_margin_left_free() {
        let need = SMALL_BYTES * 500 + DISK_MARGIN;
        assert!(fits(need, 500));
        assert!(!fits(need - 1, 500));
        assert!(fits(need, 100));
    }

    #[test]
    fn flatness_is_measured_against_the_median() {
        assert_eq!(
            flatness(&[10.0, 12.0, 9.0]),
            "µs per endpoint: median 10.0, from -10 % to +20 % of it (within the ±25 % goal)"
        );
        assert!(flatness(&[10.0, 13.0, 10.0]).ends_with("(outside the ±25 % goal)"));
        assert_eq!(flatness(&[]), "no size measured");
    }
}

//! `cargo xtask bench-certify`: issue 34's benchmark — the certificate of every Service of the
//! cluster (`check -A --certify`) within 2× `check -A`'s time, both on the same dump with workloads
//! (`gen --workloads`), side by side (alternating runs after a warm-up, medians, peak RSS).

use std::io;

use crate::common::{bench_dir, machine, product};
use crate::generate;
use crate::measure::{Cmd, mb, side_by_side};
use crate::plan::Size;

/// The goal of issue 34: `check -A --certify` ≤ 2 × `check -A`.
const GOAL: f64 = 2.0;

/// Generate `name` with workloads, time both commands, print the row; the dump is deleted after
/// unless `keep`.
pub fn run(name: &str, size: Size, runs: usize, keep: bool) -> io::Result<()> {
    let topo = product()?;
    let dump = bench_dir()?.join(format!("{name}-workloads.json"));
    let summary = generate::write_with(size, &dump, true)?;
    println!(
        "{}: {} Services, {} endpoints (one Pod each), {} bytes; {}",
        dump.display(),
        summary.services,
        summary.endpoints,
        summary.bytes,
        machine()
    );
    let file = dump.display().to_string();
    // `--fail-on none`: a finding would make the run look failed to the harness.
    let plain = ["check", "-A", "-f", &file, "--fail-on", "none"];
    let a = Cmd::new(&topo, &plain);
    let b = Cmd::new(&topo, &[&plain[..], &["--certify"]].concat());
    let measured = side_by_side(&a, &b, runs);
    if !keep {
        std::fs::remove_file(&dump)?;
    }
    let (sa, sb) = measured?;
    let ratio = sb.median_secs / sa.median_secs;
    // CPU time is what a loaded machine inflates least: both ratios are printed.
    let cpu_ratio = sb.median_cpu_secs / sa.median_cpu_secs;
    println!(
        "| benchmark | command | median (peak RSS) | CPU | ratio (CPU) | goal |\n|---|---|---|---|---|---|"
    );
    println!(
        "| {name}: check -A | `{}` | {:.2} s ({:.0} MB) | {:.2} s | | |",
        a.display(),
        sa.median_secs,
        mb(sa.median_rss_kb),
        sa.median_cpu_secs
    );
    println!(
        "| {name}: check -A --certify | `{}` | {:.2} s ({:.0} MB) | {:.2} s | **{ratio:.2}×** ({cpu_ratio:.2}×) | ≤ {GOAL}× {} |",
        b.display(),
        sb.median_secs,
        mb(sb.median_rss_kb),
        sb.median_cpu_secs,
        if ratio.max(cpu_ratio) <= GOAL { "met" } else { "NOT met" }
    );
    Ok(())
}

//! kubectl-topo's bench tooling (`cargo xtask …`), never part of the product binary:
//!
//!   cargo xtask gen --size large --out large.json   synthetic cluster as a `v1 List`
//!   cargo xtask bench [--size large] [--runs 5]       the four ratios of BENCHMARKS.md
//!   cargo xtask scale [--runs 5]                      time and RSS at 1×…20× the small cluster
//!
//! See BENCHMARKS.md for what each measures.

// Test scenarios and tables are long by design; product code keeps the function limit.
#![allow(clippy::too_many_lines)]

mod bench;
mod generate;
mod hints;
mod live;
mod measure;
mod objects;
mod plan;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "xtask", about = "kubectl-topo bench tooling")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write a synthetic cluster (small, large, small*K) as a JSON `v1 List`.
    Gen {
        #[arg(long, default_value = "small")]
        size: String,
        #[arg(long)]
        out: PathBuf,
        /// Override the preset's seed.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// The four ratios: dump vs the Go oracle, live check/explain/zones vs kubectl.
    Bench {
        #[arg(long, default_value = "large")]
        size: String,
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Only the dump benchmark (no apiserver).
        #[arg(long)]
        dump_only: bool,
    },
    /// `check -A --from-file` at 1×, 2×, 5×, 10×, 20× the small cluster.
    Scale {
        #[arg(long, default_value_t = 5)]
        runs: usize,
    },
}

fn size(name: &str, seed: Option<u64>) -> plan::Size {
    let mut size = plan::Size::preset(name).unwrap_or_else(|| {
        eprintln!("xtask: unknown size {name:?} (small, large, small*K)");
        std::process::exit(2)
    });
    if let Some(seed) = seed {
        size.seed = seed;
    }
    size
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Gen { size: name, out, seed } => generate::write(size(&name, seed), &out).map(|s| {
            println!(
                "{}: {} nodes, {} Services, {} EndpointSlices, {} endpoints ({} hinted); drift: {} Services without hints, {} with a wrong zone; {} bytes",
                out.display(),
                s.nodes,
                s.services,
                s.slices,
                s.endpoints,
                s.hinted_endpoints,
                s.drift.stripped,
                s.drift.wrong_zone,
                s.bytes
            );
        }),
        Command::Bench { size: name, runs, dump_only } => {
            bench::run(&name, size(&name, None), runs, dump_only)
        }
        Command::Scale { runs } => bench::scale(runs),
    };
    if let Err(e) = result {
        eprintln!("xtask: {e}");
        std::process::exit(1);
    }
}

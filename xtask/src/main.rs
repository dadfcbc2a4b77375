//! kubectl-topo's bench tooling (`cargo xtask …`), never part of the product binary:
//!
//!   cargo xtask gen --size large --out large.json   synthetic cluster as a `v1 List` (`.yaml`: YAML)
//!   cargo xtask bench [--size large] [--runs 5]       the four ratios of BENCHMARKS.md
//!   cargo xtask bench --size xlarge --json-only       JSON dump rows only (xlarge: several GB, deleted after)
//!   cargo xtask bench --size 'small*200' --live-only  live only: generated into the apiserver, each way of listing
//!   cargo xtask live-up --size 'small*200'            load it and keep it up (bench --live-only --kubeconfig KC)
//!   cargo xtask list-probe --kubeconfig KC --strategy S   one way of listing what `check -A` reads
//!   cargo xtask scale [--runs 5] [--max 500] [--mix xlarge]   µs per endpoint at 1×…500× the small cluster
//!   cargo xtask clusters [--runs 5]                   50 small dumps in one `check` vs one 50× dump
//!   cargo xtask bench-serve [--size large|xlarge|ai]  `serve`: time to ready, RSS, scrapes, update → metric latency, recovery,
//!                                                     vs the JSON watched, `kubectl get` and kube-state-metrics
//!   cargo xtask serve-cpu --kubeconfig KC --pid P --port N   idle CPU and CPU per change of a running `serve`
//!   cargo xtask bench-certify [--size large]          check -A --certify vs check -A on a dump with workloads (≤ 2×)
//!   cargo xtask schema                                rewrite docs/schema/ from the report types
//!   cargo xtask parse-only FILE                       the parse-only floor `bench` compares with
//!
//! See BENCHMARKS.md for what each benchmark measures, README.md for the schema.

// Test scenarios and tables are long by design; product code keeps the function limit.
#![allow(clippy::too_many_lines)]

mod bench;
mod bench_certify;
mod bench_live;
mod common;
mod floor;
mod generate;
mod hints;
mod lists;
mod live;
mod measure;
mod objects;
mod plan;
mod scale;
mod serve_bench;
mod serve_change;
mod serve_cpu;
mod serve_json;
mod serve_peer;
mod serve_proc;
mod serve_recovery;
mod workloads;

use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "xtask", about = "kubectl-topo bench tooling")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write a synthetic cluster (small, large, xlarge, ai, small*K, xmix*K) as a `v1 List`: JSON, or YAML
    /// when OUT ends in `.yaml`.
    Gen {
        #[arg(long, default_value = "small")]
        size: String,
        #[arg(long)]
        out: PathBuf,
        /// Override the preset's seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Also write the workloads behind each Service: a Deployment, its ReplicaSet and Pods,
        /// some with an HPA, some with a zone spread (what `check --certify` reads).
        #[arg(long)]
        workloads: bool,
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
        /// Only the JSON dump rows (no YAML: `xlarge` as YAML is over the YAML size limit).
        /// The dumps are deleted after measuring.
        #[arg(long)]
        json_only: bool,
        /// Only the live rows: the cluster generated straight into a local apiserver (no dump),
        /// each way of listing timed, then `check -A`, `explain`, `zones` vs `kubectl get`.
        #[arg(long, conflicts_with_all = ["dump_only", "json_only"])]
        live_only: bool,
        /// With --live-only: measure the apiserver `cargo xtask live-up --size S` keeps up (loaded
        /// with the same size) instead of starting and loading one.
        #[arg(long, requires = "live_only")]
        kubeconfig: Option<PathBuf>,
    },
    /// Load a generated cluster into a local apiserver and keep it up until the file it names is
    /// deleted (for `bench --live-only --kubeconfig`).
    LiveUp {
        #[arg(long, default_value = "large")]
        size: String,
    },
    /// Create the EndpointSlices of the first N Services of SIZE in the apiserver of KUBECONFIG
    /// (beside a `live-up` of the same size still creating Services).
    LoadSlices {
        #[arg(long)]
        kubeconfig: PathBuf,
        #[arg(long)]
        size: String,
        #[arg(long)]
        services: usize,
    },
    /// Read what `check -A` reads from the apiserver of KUBECONFIG one way; print the counts.
    ListProbe {
        #[arg(long)]
        kubeconfig: PathBuf,
        #[arg(long, value_enum)]
        strategy: lists::Strategy,
    },
    /// `check -A --from-file` at 1×, 2×, 5×, 10×, 50×, 100×, 500× the small cluster (as far as
    /// the disk holds): µs per endpoint. Each dump is deleted after measuring.
    Scale {
        /// Runs of the sizes up to 10× (3 for the larger ones).
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Largest multiple measured.
        #[arg(long, default_value_t = 500)]
        max: usize,
        /// Largest multiple the Go oracle is also run on (it needs ≈ 3.5× the dump in memory).
        #[arg(long, default_value_t = 100)]
        oracle_max: usize,
        /// Whose mix of nodes and zones: `small` (3 zones, 0.5 nodes per Service) or `xlarge`
        /// (6 zones, 0.65 nodes per Service; 500× is xlarge).
        #[arg(long, default_value = "small")]
        mix: String,
    },
    /// `check -A` over 50 small dumps (one directory) vs the same sizes as one dump (`small*50`).
    Clusters {
        #[arg(long, default_value_t = 5)]
        runs: usize,
    },
    /// `serve` on the loaded cluster: time to ready, steady RSS vs `check -A`, update → metric latency.
    BenchServe {
        #[arg(long, default_value = "large")]
        size: String,
        /// EndpointSlice updates measured.
        #[arg(long, default_value_t = 200)]
        updates: usize,
        /// Seconds the apiserver stays down for the recovery figure.
        #[arg(long, default_value_t = 10)]
        outage: u64,
    },
    /// The CPU figures of bench-serve against a `serve` already running (PID, listening on PORT)
    /// on the apiserver of KUBECONFIG (`live-up`): its idle CPU, then its CPU per change.
    ServeCpu {
        #[arg(long)]
        kubeconfig: PathBuf,
        #[arg(long)]
        pid: u32,
        #[arg(long)]
        port: u16,
        /// EndpointSlice updates per round.
        #[arg(long, default_value_t = 200)]
        updates: usize,
        /// Seconds of the idle figure (0: none).
        #[arg(long, default_value_t = 30)]
        idle: u64,
        #[arg(long, default_value_t = 1)]
        rounds: usize,
    },
    /// `check -A --certify` vs `check -A` on one dump with workloads (`gen --workloads`): issue
    /// 34's goal, the certificate of every Service within 2× check's time.
    BenchCertify {
        #[arg(long, default_value = "large")]
        size: String,
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Keep the generated dump (in the bench directory) instead of deleting it.
        #[arg(long)]
        keep: bool,
    },
    /// Rewrite the JSON Schema of `-o json|yaml` (docs/schema/) from the report types.
    Schema,
    /// The parse-only floor: parse FILE (JSON or YAML by its name) into nothing (`bench` runs it).
    ParseOnly { file: PathBuf },
}

fn size(name: &str, seed: Option<u64>) -> plan::Size {
    let mut size = plan::Size::preset(name).unwrap_or_else(|| {
        eprintln!("xtask: unknown size {name:?} (small, large, xlarge, ai, small*K, xmix*K)");
        std::process::exit(2)
    });
    if let Some(seed) = seed {
        size.seed = seed;
    }
    size
}

/// Write `kubectl_topo::schema::text()` to its committed path; tests/schema.rs fails until it is.
fn write_schema() -> std::io::Result<()> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(kubectl_topo::schema::PATH);
    let text = kubectl_topo::schema::text();
    let unchanged = std::fs::read_to_string(&path).is_ok_and(|old| old == text);
    let in_path = |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    std::fs::create_dir_all(path.parent().expect("a file under the repository")).map_err(in_path)?;
    std::fs::write(&path, &text).map_err(in_path)?;
    let state = if unchanged { "unchanged" } else { "written" };
    println!("{}: {state} ({} bytes)", kubectl_topo::schema::PATH, text.len());
    Ok(())
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Gen { size: name, out, seed, workloads } => generate::write_with(size(&name, seed), &out, workloads).map(|s| {
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
        Command::Bench { size: name, runs, dump_only, json_only, live_only, kubeconfig } => {
            let part = match (live_only, json_only, dump_only) {
                (true, _, _) => bench::Part::Live,
                (_, true, _) => bench::Part::Json,
                (_, _, true) => bench::Part::Dumps,
                _ => bench::Part::All,
            };
            bench::run(&name, size(&name, None), runs, part, kubeconfig.as_deref())
        }
        Command::LoadSlices { kubeconfig, size: name, services } => {
            let plan = plan::plan(size(&name, None));
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .and_then(|rt| rt.block_on(live::load_slices(&kubeconfig, &plan, services)))
                .map(|n| println!("{n} endpointslices created"))
        }
        Command::LiveUp { size: name } => bench_live::keep_up(size(&name, None)),
        Command::ListProbe { kubeconfig, strategy } => {
            lists::probe(&kubeconfig, strategy).map(|counts| println!("{counts}"))
        }
        Command::Scale { runs, max, oracle_max, mix } => crate::scale::run(&mix, runs, max, oracle_max),
        Command::BenchServe { size: name, updates, outage } => {
            bench::serve(&name, size(&name, None), updates, outage)
        }
        Command::ServeCpu { kubeconfig, pid, port, updates, idle, rounds } => {
            serve_cpu::run(&serve_cpu::Args { kubeconfig: &kubeconfig, pid, port, updates, idle, rounds })
        }
        Command::Clusters { runs } => bench::clusters(runs),
        Command::BenchCertify { size: name, runs, keep } => {
            bench_certify::run(&name, size(&name, None), runs, keep)
        }
        Command::Schema => write_schema(),
        Command::ParseOnly { file } => floor::parse_only(&file).map(|documents| {
            println!("{}: {documents} documents parsed", file.display());
        }),
    };
    if let Err(e) = result {
        eprintln!("xtask: {e}");
        std::process::exit(1);
    }
}

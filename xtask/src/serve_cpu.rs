//! `cargo xtask serve-cpu`: the CPU figures of `bench-serve` against a `serve` already running on
//! a kept-up cluster (`cargo xtask live-up`), so that a profiler can be attached to it and two
//! builds can be measured alternately on one load: the idle CPU of a ready `serve` over a quiet
//! time, then the CPU per EndpointSlice change measured as the bench measures it
//! ([`crate::serve_change::cpu_per_change`]: changes 100 ms apart, then 1 s, idle included),
//! with the scheduler's run time, the user/system split and the wake-ups per change beside it
//! ([`Usage`]).

use std::io;
use std::path::Path;
use std::time::Duration;

use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::api::Api;

use crate::serve_change::{cpu_per_change, first_hinted, hinted_slice};
use crate::serve_proc::{Usage, cpu_secs, get};

/// What [`run`] is told.
pub struct Args<'a> {
    pub kubeconfig: &'a Path,
    /// The `serve` measured and where it listens.
    pub pid: u32,
    pub port: u16,
    pub updates: usize,
    /// Seconds of the idle figure (0: none).
    pub idle: u64,
    /// Rounds of `updates` changes, each printed.
    pub rounds: usize,
}

/// Print the idle CPU and the CPU per change of each round.
pub fn run(args: &Args<'_>) -> io::Result<()> {
    let (_, metrics) = get(args.port, "/metrics")
        .ok_or_else(|| io::Error::other(format!("no /metrics on 127.0.0.1:{}", args.port)))?;
    let (ns, service) = first_hinted(&metrics).ok_or_else(|| io::Error::other("no Service with hints"))?;
    if args.idle > 0 {
        let before = cpu_secs(args.pid);
        std::thread::sleep(Duration::from_secs(args.idle));
        let idle = cpu_secs(args.pid) - before;
        println!(
            "idle: {:.0} ms CPU over {} s ({:.2} ms/s)",
            idle * 1e3,
            args.idle,
            idle * 1e3 / args.idle as f64
        );
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let client = crate::live::client_at(args.kubeconfig).await;
        let api: Api<EndpointSlice> = Api::namespaced(client, &ns);
        let (slice, original, stripped) = hinted_slice(&api, &service).await?;
        for round in 1..=args.rounds {
            let before = Usage::of(args.pid);
            let cpu = cpu_per_change(args.pid, &api, &slice, [&stripped, &original], args.updates).await?;
            let spent = before.per_change(&Usage::of(args.pid), args.updates);
            println!(
                "round {round}: {:.3} ms CPU per change ({} changes of {ns}/{slice}); {spent}",
                cpu * 1e3,
                args.updates
            );
        }
        Ok(())
    })
}

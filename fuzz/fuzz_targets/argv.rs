//! Arbitrary command lines over every subcommand, run in-process into memory (see
//! `fuzz/argv_harness.rs` for the pools and the invariants).
#![no_main]

#[path = "../argv_harness.rs"]
mod argv_harness;

libfuzzer_sys::fuzz_target!(
    init: {
        // No network, ever: no kubeconfig and no in-cluster API for a command line without one.
        // SAFETY: set before the first input runs, while the process has one thread.
        unsafe {
            std::env::set_var("KUBECONFIG", "/nonexistent/kubectl-topo-fuzz-kubeconfig");
            std::env::remove_var("KUBERNETES_SERVICE_HOST");
        }
    },
    |data: &[u8]| argv_harness::argv(data)
);

//! The consumers tier (`cargo test --features consumers --test consumers`): what kubectl-topo
//! writes, read back by the real programs that read it, and the release archives as users get
//! them. Pictures by Graphviz, Mermaid and headless Chromium (`pictures`), the CI report formats
//! by a SARIF schema, junitparser and markdown-it-py (`report_formats`), the monitoring artefacts
//! by promtool and buildah (`monitoring`), completion in bash, zsh and fish (`shell_completion`),
//! the archives of `scripts/dist.sh` under qemu and wine (`dist`), krew and kubectl
//! (`plugin`), the Helm chart and kustomizations by helm, kustomize and promtool (`chart`), a chart rendered
//! by `helm template` and judged by `simulate --apply -` (`apply_chart`), `serve`'s
//! HTTPS by curl (`serve_tls`), the man pages by groff and man (`man_pages`).
//! What is missing is installed on first use (apt, npm, PyPI, the Go module proxy: root and
//! network), which is why plain `cargo test` does not build this target.

// Test scenarios and tables are long by design; product code keeps the function limit.
#![allow(clippy::too_many_lines)]

#[allow(dead_code, reason = "the helpers are shared by every test target; this one uses some")]
mod support;

mod apply_chart;
mod chart;
mod dist;
mod man_pages;
mod monitoring;
mod pictures;
mod plugin;
mod report_formats;
mod serve_tls;
mod shell_completion;

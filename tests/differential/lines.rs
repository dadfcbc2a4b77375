//! The oracle lines: one Go build per behaviour era, each linking that era's upstream code
//! (`tests/upstream/README.md`, "Lines"), which versions each one models, and how many of the
//! random cases each runs.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use topo_engine::model::Behaviour;

use crate::support;

/// One oracle build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Line {
    /// k/k v1.21.14: 1.21, TopologyAwareHints off; kube-proxy reads v1beta1 slices (`legacy/`).
    V121,
    /// k/k v1.23.17: models 1.22–1.23, TopologyAwareHints off by default; kube-proxy's
    /// `FilterEndpoints` and the iptables proxier's lists (`legacy/`).
    V123,
    /// k/k v1.25.16: models 1.24–1.25, the gate on, no controller Events (`legacy/`).
    V125,
    /// k/k v1.26.15: controller in `pkg/controller/endpointslice`, kube-proxy 1.26 (`legacy/`).
    V126,
    /// k/k v1.29.15 + ES v0.29.15: models 1.27–1.29 (`legacy/`).
    V129,
    /// k/k v1.30.14 + ES v0.30.14: 1.30 (`legacy/`).
    V130,
    /// k/k v1.32.13 + ES v0.32.2: models 1.31–1.32 (`legacy/`).
    V132,
    /// k/k v1.33.13 + ES v0.33.13: 1.33's own kube-proxy.
    V133,
    /// k/k v1.36.3 + ES v0.36.3, the default: models 1.33–1.37 (1.33–1.35 by emulated gates).
    V136,
    /// k/k v1.37.2 + ES v0.37.2.
    V137,
}

/// Every line, in the order a run compares them.
pub const ALL: [Line; 10] = [
    Line::V136,
    Line::V130,
    Line::V126,
    Line::V129,
    Line::V132,
    Line::V133,
    Line::V137,
    Line::V121,
    Line::V123,
    Line::V125,
];

impl Line {
    /// `run-oracle.sh --line` argument, and the line's name in summaries.
    pub fn arg(self) -> &'static str {
        match self {
            Line::V121 => "1.21",
            Line::V123 => "1.23",
            Line::V125 => "1.25",
            Line::V126 => "1.26",
            Line::V129 => "1.29",
            Line::V130 => "1.30",
            Line::V132 => "1.32",
            Line::V133 => "1.33",
            Line::V136 => "1.36",
            Line::V137 => "1.37",
        }
    }

    /// `gen --versions` for the line's generated cases (run by the 1.36 build's generator); `None`
    /// for the 1.36 line, whose own generator spreads 30 % of its cases over 1.33–1.37.
    pub fn versions(self) -> Option<&'static str> {
        match self {
            Line::V121 => Some("21"),
            Line::V123 => Some("22-23"),
            Line::V125 => Some("24-25"),
            Line::V126 => Some("26"),
            Line::V129 => Some("27-29"),
            Line::V130 => Some("30"),
            Line::V132 => Some("31-32"),
            Line::V133 => Some("33"),
            Line::V137 => Some("37"),
            Line::V136 => None,
        }
    }

    /// Generated cases per run when the 1.36 line runs `count`: the 1.36 line all of them, every
    /// other line a twentieth (at least one), so each era is exercised on every run while the nine
    /// together add about as much time as the 1.36 line (their cases cost ~3x: every node hosting
    /// an endpoint is its own kube-proxy computation before 1.36, and the Go side runs per node).
    pub fn share(self, count: u64) -> u64 {
        match self {
            Line::V136 => count,
            _ if count == 0 => 0,
            _ => (count / 20).max(1),
        }
    }

    /// The build that models a case's `k8sVersion` with the real code of its own era.
    pub fn for_version(version: &str) -> Line {
        match version.parse::<Behaviour>().map(|b| b.minor) {
            Ok(..=21) => Line::V121,
            Ok(22..=23) => Line::V123,
            Ok(24..=25) => Line::V125,
            Ok(26) => Line::V126,
            Ok(27..=29) => Line::V129,
            Ok(30) => Line::V130,
            Ok(31..=32) => Line::V132,
            Ok(33) => Line::V133,
            Ok(37) => Line::V137,
            _ => Line::V136,
        }
    }

    /// Path of the line's oracle binary (built on first use, cached outside the repository).
    pub fn bin(self) -> PathBuf {
        static BINS: [OnceLock<PathBuf>; ALL.len()] = [const { OnceLock::new() }; ALL.len()];
        BINS[self as usize].get_or_init(|| build(self)).clone()
    }
}

fn build(line: Line) -> PathBuf {
    let out = Command::new("bash")
        .arg(support::path("tests/upstream/run-oracle.sh"))
        .args(["--line", line.arg()])
        .stderr(Stdio::inherit())
        .output()
        .expect("bash runs tests/upstream/run-oracle.sh");
    assert!(
        out.status.success(),
        "building the {} oracle failed (see stderr; needs Go, see tests/upstream/README.md)",
        line.arg()
    );
    PathBuf::from(String::from_utf8(out.stdout).expect("UTF-8 path").trim())
}

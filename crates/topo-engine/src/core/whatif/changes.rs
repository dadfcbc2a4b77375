//! The changes `simulate` applies, as typed values (their flag text is parsed by
//! `settings::changes`).

use std::collections::BTreeMap;

use crate::model::{CpuAmount, Node};

/// Largest `--replicas` accepted.
pub const MAX_REPLICAS: i64 = 10_000;

/// How `--replicas` spreads endpoints over zones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpreadSpec {
    /// Evenly over the zones the controller counts (largest remainder, ties by zone name).
    Even,
    /// Exactly these ready endpoints per zone.
    Zones(BTreeMap<String, i64>),
}

/// A node `--add-node` adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewNode {
    /// `name=`; default `sim-node-<k>`.
    pub name: Option<String>,
    /// `zone=` (required).
    pub zone: String,
    /// `cpu=` (required), allocatable CPU.
    pub cpu: CpuAmount,
    /// `control-plane`: labelled `node-role.kubernetes.io/control-plane` (not counted).
    pub control_plane: bool,
    /// `not-ready`: Ready condition False (not counted).
    pub not_ready: bool,
}

/// `--mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeChoice {
    /// Annotation `service.kubernetes.io/topology-mode: Auto`.
    Auto,
    /// `spec.trafficDistribution: PreferClose` (the only value on 1.30–1.32; from 1.34 an alias of
    /// PreferSameZone).
    PreferClose,
    /// `spec.trafficDistribution: PreferSameZone`.
    PreferSameZone,
    /// `spec.trafficDistribution: PreferSameNode`.
    PreferSameNode,
    /// Neither annotation nor trafficDistribution.
    None,
}

/// Everything `simulate` changes, applied in this order: nodes removed (by name, then by zone),
/// nodes made NotReady, nodes added, the Nodes of `--apply` put, CPU set, mode, then endpoints
/// (`replicas`/`spread`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// `--replicas N`: ready endpoints per address family afterwards.
    pub replicas: Option<i64>,
    /// `--spread`.
    pub spread: Option<SpreadSpec>,
    /// `--remove-node`.
    pub remove_nodes: Vec<String>,
    /// `--remove-zone`.
    pub remove_zones: Vec<String>,
    /// `--not-ready`.
    pub not_ready: Vec<String>,
    /// `--add-node`.
    pub add_nodes: Vec<NewNode>,
    /// `--set-cpu NODE=Q`.
    pub set_cpu: Vec<(String, CpuAmount)>,
    /// `--mode`.
    pub mode: Option<ModeChoice>,
    /// The Nodes of `simulate --apply`'s manifests: each replaces the Node of its name, or is added.
    pub put_nodes: Vec<Node>,
}

impl Changes {
    /// True when nothing would change.
    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }

    /// The changes as flags, normalised, in the order they are applied.
    pub fn describe(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        out.extend(self.remove_nodes.iter().map(|n| format!("--remove-node {n}")));
        out.extend(self.remove_zones.iter().map(|z| format!("--remove-zone {z}")));
        out.extend(self.not_ready.iter().map(|n| format!("--not-ready {n}")));
        for n in &self.add_nodes {
            let mut spec = format!("zone={},cpu={}m", n.zone, n.cpu.milli_value());
            if n.control_plane {
                spec.push_str(",control-plane");
            }
            if n.not_ready {
                spec.push_str(",not-ready");
            }
            if let Some(name) = &n.name {
                spec.push_str(&format!(",name={name}"));
            }
            out.push(format!("--add-node {spec}"));
        }
        out.extend(self.put_nodes.iter().map(|n| format!("--apply node/{}", n.name)));
        out.extend(self.set_cpu.iter().map(|(n, c)| format!("--set-cpu {n}={}m", c.milli_value())));
        if let Some(mode) = self.mode {
            out.push(format!("--mode {}", mode_name(mode)));
        }
        if let Some(n) = self.replicas {
            out.push(format!("--replicas {n}"));
        }
        match &self.spread {
            Some(SpreadSpec::Even) => out.push("--spread even".into()),
            Some(SpreadSpec::Zones(z)) => {
                let parts: Vec<String> = z.iter().map(|(z, n)| format!("{z}:{n}")).collect();
                out.push(format!("--spread zone={}", parts.join(",")));
            }
            None => {}
        }
        out
    }
}

fn mode_name(mode: ModeChoice) -> &'static str {
    match mode {
        ModeChoice::Auto => "Auto",
        ModeChoice::PreferClose => "PreferClose",
        ModeChoice::PreferSameZone => "PreferSameZone",
        ModeChoice::PreferSameNode => "PreferSameNode",
        ModeChoice::None => "None",
    }
}

//! The changes `simulate` applies, and the parsing of their flag values (pure, used by
//! `settings`; every error is one line naming the flag and the value).

use std::collections::BTreeMap;

use crate::model::CpuAmount;

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
    /// `spec.trafficDistribution: PreferSameZone`.
    PreferSameZone,
    /// `spec.trafficDistribution: PreferSameNode`.
    PreferSameNode,
    /// Neither annotation nor trafficDistribution.
    None,
}

/// Everything `simulate` changes, applied in this order: nodes removed (by name, then by zone),
/// nodes made NotReady, nodes added, CPU set, mode, then endpoints (`replicas`/`spread`).
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
        ModeChoice::PreferSameZone => "PreferSameZone",
        ModeChoice::PreferSameNode => "PreferSameNode",
        ModeChoice::None => "none",
    }
}

/// `--replicas N`: 0 to [`MAX_REPLICAS`].
pub fn parse_replicas(text: &str) -> Result<i64, String> {
    match text.parse::<i64>() {
        Ok(n) if (0..=MAX_REPLICAS).contains(&n) => Ok(n),
        _ => Err(format!("--replicas {text:?}: use a whole number from 0 to {MAX_REPLICAS}")),
    }
}

/// `--spread even` or `--spread zone=a:3,b:1` (the `zone=` prefix is optional).
pub fn parse_spread(text: &str) -> Result<SpreadSpec, String> {
    let bad = || format!("--spread {text:?}: use `even` or `zone=ZONE:N,ZONE:N`");
    if text == "even" {
        return Ok(SpreadSpec::Even);
    }
    let too_many = || format!("--spread {text:?}: at most {MAX_REPLICAS} endpoints in total");
    let list = text.strip_prefix("zone=").unwrap_or(text);
    let mut zones = BTreeMap::new();
    let mut total: i64 = 0;
    for part in list.split(',') {
        let (zone, n) = part.rsplit_once(':').ok_or_else(bad)?;
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let n = n.parse::<i64>().ok().filter(|n| *n <= MAX_REPLICAS).ok_or_else(too_many)?;
        total += n;
        if total > MAX_REPLICAS {
            return Err(too_many());
        }
        if zone.is_empty() || zones.insert(zone.to_string(), n).is_some() {
            return Err(bad());
        }
    }
    Ok(SpreadSpec::Zones(zones))
}

/// `--add-node zone=Z,cpu=Q[,control-plane][,not-ready][,name=N]`.
pub fn parse_add_node(text: &str) -> Result<NewNode, String> {
    let bad = |why: &str| format!("--add-node {text:?}: {why}");
    let (mut zone, mut cpu, mut name) = (None, None, None);
    let (mut control_plane, mut not_ready) = (false, false);
    for part in text.split(',') {
        match part.split_once('=') {
            Some(("zone", z)) if !z.is_empty() => zone = Some(z.to_string()),
            Some(("cpu", q)) => {
                let amount = CpuAmount::parse_input(q).map_err(|e| bad(&e.to_string()))?;
                if amount.nanos() < 0 {
                    return Err(bad("cpu must not be negative"));
                }
                cpu = Some(amount);
            }
            Some(("name", n)) if !n.is_empty() => name = Some(n.to_string()),
            None if part == "control-plane" => control_plane = true,
            None if part == "not-ready" => not_ready = true,
            _ => {
                return Err(bad(&format!(
                    "unknown part {part:?} (use zone=Z,cpu=Q[,control-plane][,not-ready][,name=N])"
                )));
            }
        }
    }
    let zone = zone.ok_or_else(|| bad("zone=Z is required"))?;
    let cpu = cpu.ok_or_else(|| bad("cpu=Q is required"))?;
    Ok(NewNode { name, zone, cpu, control_plane, not_ready })
}

/// `--set-cpu NODE=Q`.
pub fn parse_set_cpu(text: &str) -> Result<(String, CpuAmount), String> {
    let bad = |why: String| format!("--set-cpu {text:?}: {why}");
    let (node, q) =
        text.split_once('=').filter(|(n, _)| !n.is_empty()).ok_or_else(|| bad("use NODE=QUANTITY".into()))?;
    let cpu = CpuAmount::parse_input(q).map_err(|e| bad(e.to_string()))?;
    if cpu.nanos() < 0 {
        return Err(bad("CPU must not be negative".into()));
    }
    Ok((node.to_string(), cpu))
}

/// `--mode Auto|PreferSameZone|PreferSameNode|none`.
pub fn parse_mode(text: &str) -> Result<ModeChoice, String> {
    match text {
        "Auto" => Ok(ModeChoice::Auto),
        "PreferSameZone" => Ok(ModeChoice::PreferSameZone),
        "PreferSameNode" => Ok(ModeChoice::PreferSameNode),
        "none" | "None" => Ok(ModeChoice::None),
        _ => Err(format!("--mode {text:?}: use Auto, PreferSameZone, PreferSameNode or none")),
    }
}

/// `--traffic zone-a=50,zone-b=30`: relative request weights per zone (positive numbers).
pub fn parse_traffic(text: &str) -> Result<BTreeMap<String, f64>, String> {
    let bad = || format!("--traffic {text:?}: use ZONE=WEIGHT,ZONE=WEIGHT with positive weights");
    let mut out = BTreeMap::new();
    for part in text.split(',') {
        let (zone, weight) = part.split_once('=').ok_or_else(bad)?;
        let weight = weight.parse::<f64>().ok().filter(|w| w.is_finite() && *w >= 0.0).ok_or_else(bad)?;
        if zone.is_empty() || out.insert(zone.to_string(), weight).is_some() {
            return Err(bad());
        }
    }
    if out.values().sum::<f64>() <= 0.0 {
        return Err(bad());
    }
    Ok(out)
}

//! The text of the what-if flags (`--replicas`, `--spread`, `--add-node`, `--set-cpu`, `--mode`,
//! `--traffic`) parsed into the typed changes of `core::whatif::changes`. Pure; every bad value is
//! a [`WhatIfError`] whose message is one line naming the flag and the value.

use std::collections::BTreeMap;

use topo_engine::core::whatif::changes::{MAX_REPLICAS, ModeChoice, NewNode, SpreadSpec};
use topo_engine::model::CpuAmount;
use topo_engine::model::cpu::QuantityError;

/// A what-if flag value that does not make sense (exit code 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WhatIfError {
    /// `--replicas` is not a whole number from 0 to [`MAX_REPLICAS`].
    #[error("--replicas {text:?}: use a whole number from 0 to {max}", max = MAX_REPLICAS)]
    Replicas {
        /// The value as given.
        text: String,
    },
    /// `--spread` is neither `even` nor a list of `ZONE:N`.
    #[error("--spread {text:?}: use `even` or `zone=ZONE:N,ZONE:N`")]
    Spread {
        /// The value as given.
        text: String,
    },
    /// `--spread` asks for more than [`MAX_REPLICAS`] endpoints.
    #[error("--spread {text:?}: at most {max} endpoints in total", max = MAX_REPLICAS)]
    SpreadTooMany {
        /// The value as given.
        text: String,
    },
    /// A bad `--add-node`.
    #[error("--add-node {text:?}: {problem}")]
    AddNode {
        /// The value as given.
        text: String,
        /// What is wrong with it.
        problem: NodeProblem,
    },
    /// A bad `--set-cpu`.
    #[error("--set-cpu {text:?}: {problem}")]
    SetCpu {
        /// The value as given.
        text: String,
        /// What is wrong with it.
        problem: CpuProblem,
    },
    /// `--mode` names no mode.
    #[error("--mode {text:?}: use Auto, PreferClose, PreferSameZone, PreferSameNode or None")]
    Mode {
        /// The value as given.
        text: String,
    },
    /// `--traffic` is not a list of `ZONE=WEIGHT` with weights ≥ 0, one of them positive.
    #[error(
        "--traffic {text:?}: use ZONE=WEIGHT,ZONE=WEIGHT with weights of 0 or more (0: no requests from that \
         zone), at least one above 0"
    )]
    Traffic {
        /// The value as given.
        text: String,
    },
    /// `--traffic` names a zone no node of the cluster is in.
    #[error("--traffic: no node is in zone {zone:?}")]
    TrafficZone {
        /// The zone without nodes.
        zone: String,
    },
    /// `--replicas MIN..MAX` is not two counts from 0 to [`MAX_REPLICAS`], MIN ≤ MAX.
    #[error("--replicas {text:?}: use MIN..MAX, whole numbers from 0 to {max}, MIN at most MAX", max = MAX_REPLICAS)]
    ReplicaRange {
        /// The value as given.
        text: String,
    },
    /// A spread flag is not a whole number ≥ 1 (`--max-skew`, `--min-domains`) or not a
    /// `whenUnsatisfiable` value.
    #[error("{flag} {text:?}: {expected}")]
    SpreadFlag {
        /// The flag.
        flag: &'static str,
        /// The value as given.
        text: String,
        /// What it takes.
        expected: &'static str,
    },
    /// A spread flag without `--replicas MIN..MAX`, or `--min-domains` / `--when-unsatisfiable`
    /// without `--max-skew`.
    #[error("{flag} needs {needs}")]
    SpreadAlone {
        /// The flag given alone.
        flag: &'static str,
        /// What it needs.
        needs: &'static str,
    },
    /// `--replicas MIN..MAX` with other changes: the certificate is of today's cluster.
    #[error("--replicas MIN..MAX takes no other change (the certificate is of today's cluster); drop {flag}")]
    RangeWithChange {
        /// The other change.
        flag: &'static str,
    },
    /// `--apply` with a change the manifests make instead (`--replicas`, `--spread`, `--mode`,
    /// the spread flags).
    #[error("--apply takes the replicas, spread and mode from the manifests; drop {flag}")]
    ApplyWithChange {
        /// The other change.
        flag: &'static str,
    },
    /// A flag or format that only `--apply` reads (`--fail-on`, `-o markdown|junit|sarif`).
    #[error("{flag} needs --apply (the manifests whose change it judges)")]
    NeedsApply {
        /// The flag, as typed.
        flag: String,
    },
    /// `simulate --apply -o html|dot|mermaid` when not exactly one Service is affected.
    #[error(
        "-o {format} draws one Service, and the manifests affect {affected}: name one, simulate svc/NAME --apply …"
    )]
    ApplyPicture {
        /// Services affected.
        affected: usize,
        /// The picture format.
        format: &'static str,
    },
    /// `-f -` and `--apply -`, or `--apply -` twice.
    #[error("stdin can be read once: give -f or --apply a file instead of -")]
    StdinTwice,
    /// `simulate` was given nothing to change.
    #[error(
        "simulate needs a change: --replicas, --spread, --remove-node, --remove-zone, --not-ready, \
         --add-node, --set-cpu or --mode"
    )]
    NoChange,
}

/// What is wrong with an `--add-node` value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NodeProblem {
    /// `cpu=` is not a quantity.
    #[error("{0}")]
    Cpu(QuantityError),
    /// `cpu=` is below zero.
    #[error("cpu must not be negative")]
    NegativeCpu,
    /// A part that is none of the known ones.
    #[error("unknown part {0:?} (use zone=Z,cpu=Q[,control-plane][,not-ready][,name=N])")]
    UnknownPart(String),
    /// No `zone=`.
    #[error("zone=Z is required")]
    NoZone,
    /// No `cpu=`.
    #[error("cpu=Q is required")]
    NoCpu,
}

/// What is wrong with a `--set-cpu` value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CpuProblem {
    /// Not `NODE=QUANTITY`.
    #[error("use NODE=QUANTITY")]
    Shape,
    /// The quantity does not parse.
    #[error("{0}")]
    Quantity(QuantityError),
    /// The quantity is below zero.
    #[error("CPU must not be negative")]
    Negative,
}

/// `--replicas N`: 0 to [`MAX_REPLICAS`].
pub(crate) fn parse_replicas(text: &str) -> Result<i64, WhatIfError> {
    match text.parse::<i64>() {
        Ok(n) if (0..=MAX_REPLICAS).contains(&n) => Ok(n),
        _ => Err(WhatIfError::Replicas { text: text.to_string() }),
    }
}

/// `--replicas MIN..MAX`: 0 ≤ MIN ≤ MAX ≤ [`MAX_REPLICAS`]; None when the text has no `..`.
pub(crate) fn parse_replica_range(text: &str) -> Option<Result<(i64, i64), WhatIfError>> {
    let (min, max) = text.split_once("..")?;
    let bad = || WhatIfError::ReplicaRange { text: text.to_string() };
    let count = |t: &str| t.trim().parse::<i64>().ok().filter(|n| (0..=MAX_REPLICAS).contains(n));
    Some(match (count(min), count(max)) {
        (Some(min), Some(max)) if min <= max => Ok((min, max)),
        _ => Err(bad()),
    })
}

/// `--max-skew N` / `--min-domains N`: a whole number from 1 to [`MAX_REPLICAS`].
pub(crate) fn parse_positive(flag: &'static str, text: &str) -> Result<i64, WhatIfError> {
    match text.parse::<i64>() {
        Ok(n) if (1..=MAX_REPLICAS).contains(&n) => Ok(n),
        _ => Err(WhatIfError::SpreadFlag {
            flag,
            text: text.to_string(),
            expected: "use a whole number from 1 to 10000",
        }),
    }
}

/// `--when-unsatisfiable`: true for `DoNotSchedule` (hard), false for `ScheduleAnyway`.
pub(crate) fn parse_when_unsatisfiable(text: &str) -> Result<bool, WhatIfError> {
    match text.to_ascii_lowercase().as_str() {
        "donotschedule" => Ok(true),
        "scheduleanyway" => Ok(false),
        _ => Err(WhatIfError::SpreadFlag {
            flag: "--when-unsatisfiable",
            text: text.to_string(),
            expected: "use DoNotSchedule or ScheduleAnyway",
        }),
    }
}

/// `--spread even` or `--spread zone=a:3,b:1` (the `zone=` prefix is optional).
pub(crate) fn parse_spread(text: &str) -> Result<SpreadSpec, WhatIfError> {
    let bad = || WhatIfError::Spread { text: text.to_string() };
    if text == "even" {
        return Ok(SpreadSpec::Even);
    }
    let too_many = || WhatIfError::SpreadTooMany { text: text.to_string() };
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
pub fn parse_add_node(text: &str) -> Result<NewNode, WhatIfError> {
    let bad = |problem| WhatIfError::AddNode { text: text.to_string(), problem };
    let (mut zone, mut cpu, mut name) = (None, None, None);
    let (mut control_plane, mut not_ready) = (false, false);
    for part in text.split(',') {
        match part.split_once('=') {
            Some(("zone", z)) if !z.is_empty() => zone = Some(z.to_string()),
            Some(("cpu", q)) => {
                let amount = CpuAmount::parse_input(q).map_err(|e| bad(NodeProblem::Cpu(e)))?;
                if amount.nanos() < 0 {
                    return Err(bad(NodeProblem::NegativeCpu));
                }
                cpu = Some(amount);
            }
            Some(("name", n)) if !n.is_empty() => name = Some(n.to_string()),
            None if part == "control-plane" => control_plane = true,
            None if part == "not-ready" => not_ready = true,
            _ => return Err(bad(NodeProblem::UnknownPart(part.to_string()))),
        }
    }
    let zone = zone.ok_or_else(|| bad(NodeProblem::NoZone))?;
    let cpu = cpu.ok_or_else(|| bad(NodeProblem::NoCpu))?;
    Ok(NewNode { name, zone, cpu, control_plane, not_ready })
}

/// `--set-cpu NODE=Q`.
pub fn parse_set_cpu(text: &str) -> Result<(String, CpuAmount), WhatIfError> {
    let bad = |problem| WhatIfError::SetCpu { text: text.to_string(), problem };
    let (node, q) =
        text.split_once('=').filter(|(n, _)| !n.is_empty()).ok_or_else(|| bad(CpuProblem::Shape))?;
    let cpu = CpuAmount::parse_input(q).map_err(|e| bad(CpuProblem::Quantity(e)))?;
    if cpu.nanos() < 0 {
        return Err(bad(CpuProblem::Negative));
    }
    Ok((node.to_string(), cpu))
}

/// `--mode Auto|PreferClose|PreferSameZone|PreferSameNode|none`.
pub(crate) fn parse_mode(text: &str) -> Result<ModeChoice, WhatIfError> {
    // In any case, as `check --mode` and kubectl's resource names.
    match text.to_ascii_lowercase().as_str() {
        "auto" => Ok(ModeChoice::Auto),
        "preferclose" => Ok(ModeChoice::PreferClose),
        "prefersamezone" => Ok(ModeChoice::PreferSameZone),
        "prefersamenode" => Ok(ModeChoice::PreferSameNode),
        "none" => Ok(ModeChoice::None),
        _ => Err(WhatIfError::Mode { text: text.to_string() }),
    }
}

/// `--traffic zone-a=50,zone-b=30`: relative request weights per zone (0 or more, one above 0).
pub(crate) fn parse_traffic(text: &str) -> Result<BTreeMap<String, f64>, WhatIfError> {
    let bad = || WhatIfError::Traffic { text: text.to_string() };
    let mut out = BTreeMap::new();
    for part in text.split(',') {
        let (zone, weight) = part.split_once('=').ok_or_else(bad)?;
        let weight = weight.parse::<f64>().ok().filter(|w| w.is_finite() && *w >= 0.0).ok_or_else(bad)?;
        if zone.is_empty() || out.insert(zone.to_string(), weight).is_some() {
            return Err(bad());
        }
    }
    // Only the ratios matter: scaled so the largest is 1, weights near f64::MAX cannot overflow
    // their sum (to infinity, which made every share 0 %).
    let largest = out.values().copied().fold(0.0, f64::max);
    if largest <= 0.0 {
        return Err(bad());
    }
    Ok(out.into_iter().map(|(zone, weight)| (zone, weight / largest)).collect())
}

#[cfg(test)]
mod tests;

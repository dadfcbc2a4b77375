//! `simulate --replicas MIN..MAX [--max-skew N] [--min-domains N] [--when-unsatisfiable W]`: the
//! stability certificate's input, resolved once (docs/stability.md#certificate).

use super::changes::{WhatIfError, parse_positive, parse_replica_range, parse_when_unsatisfiable};
use crate::cli::SimulateArgs;
use topo_engine::report::stability::SpreadRule;

/// What the certificate is asked about: a replica range and an optional zone spread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertifySpec {
    /// Fewest replicas.
    pub min: i64,
    /// Most replicas.
    pub max: i64,
    /// The zone spread, if given.
    pub spread: Option<SpreadRule>,
}

/// The certificate asked for, None for the single-count `simulate`, or the flag that is wrong.
pub(super) fn certify(a: &SimulateArgs) -> Result<Option<CertifySpec>, WhatIfError> {
    let range = a.replicas.as_deref().and_then(parse_replica_range).transpose()?;
    let Some((min, max)) = range else {
        if let Some(flag) = spread_flag(a) {
            return Err(WhatIfError::SpreadAlone { flag, needs: "--replicas MIN..MAX" });
        }
        return Ok(None);
    };
    if let Some(flag) = other_change(a) {
        return Err(WhatIfError::RangeWithChange { flag });
    }
    let spread = match a.max_skew.as_deref() {
        None if a.min_domains.is_some() => {
            return Err(WhatIfError::SpreadAlone { flag: "--min-domains", needs: "--max-skew" });
        }
        None if a.when_unsatisfiable.is_some() => {
            return Err(WhatIfError::SpreadAlone { flag: "--when-unsatisfiable", needs: "--max-skew" });
        }
        None => None,
        Some(skew) => Some(SpreadRule {
            max_skew: parse_positive("--max-skew", skew)?,
            min_domains: a.min_domains.as_deref().map(|t| parse_positive("--min-domains", t)).transpose()?,
            hard: a.when_unsatisfiable.as_deref().map(parse_when_unsatisfiable).transpose()?.unwrap_or(true),
        }),
    };
    Ok(Some(CertifySpec { min, max, spread }))
}

fn spread_flag(a: &SimulateArgs) -> Option<&'static str> {
    [
        (a.max_skew.is_some(), "--max-skew"),
        (a.min_domains.is_some(), "--min-domains"),
        (a.when_unsatisfiable.is_some(), "--when-unsatisfiable"),
    ]
    .into_iter()
    .find_map(|(given, flag)| given.then_some(flag))
}

fn other_change(a: &SimulateArgs) -> Option<&'static str> {
    [
        (a.spread.is_some(), "--spread"),
        (!a.remove_node.is_empty(), "--remove-node"),
        (!a.remove_zone.is_empty(), "--remove-zone"),
        (!a.not_ready.is_empty(), "--not-ready"),
        (!a.add_node.is_empty(), "--add-node"),
        (!a.set_cpu.is_empty(), "--set-cpu"),
        (a.mode.is_some(), "--mode"),
    ]
    .into_iter()
    .find_map(|(given, flag)| given.then_some(flag))
}

#[cfg(test)]
mod tests {
    use crate::settings::changes::WhatIfError;
    use crate::settings::{Ambient, Job, Settings, SettingsError};
    use topo_engine::report::stability::SpreadRule;

    fn resolve(args: &[&str]) -> Result<Settings, SettingsError> {
        crate::settings::tests::resolve(args, &Ambient::default())
    }

    #[test]
    fn a_range_asks_for_the_certificate_and_a_count_for_the_simulation() {
        let s = resolve(&["simulate", "svc/web", "--replicas", "3..12", "--max-skew", "1"]).unwrap();
        let Job::Certify { name, spec } = &s.job else { panic!("{:?}", s.job) };
        let spread = SpreadRule { max_skew: 1, min_domains: None, hard: true };
        assert_eq!((name.as_str(), spec.min, spec.max, spec.spread), ("web", 3, 12, Some(spread)));
        let s = resolve(&[
            "simulate",
            "web",
            "--replicas",
            "0..4",
            "--max-skew",
            "2",
            "--min-domains",
            "3",
            "--when-unsatisfiable",
            "ScheduleAnyway",
        ])
        .unwrap();
        let Job::Certify { spec, .. } = &s.job else { panic!("{:?}", s.job) };
        assert_eq!(spec.spread, Some(SpreadRule { max_skew: 2, min_domains: Some(3), hard: false }));
        assert!(matches!(
            resolve(&["simulate", "web", "--replicas", "6"]).unwrap().job,
            Job::Simulate { .. }
        ));
    }

    #[test]
    fn bad_ranges_and_lone_spread_flags_are_one_line_errors() {
        let err = |args: &[&str]| match resolve(args).unwrap_err() {
            SettingsError::WhatIf(e) => e,
            other => panic!("{other:?}"),
        };
        assert!(matches!(err(&["simulate", "web", "--replicas", "5..3"]), WhatIfError::ReplicaRange { .. }));
        assert!(matches!(err(&["simulate", "web", "--replicas", "1..x"]), WhatIfError::ReplicaRange { .. }));
        let lone = err(&["simulate", "web", "--replicas", "4", "--max-skew", "1"]);
        assert_eq!(lone.to_string(), "--max-skew needs --replicas MIN..MAX");
        let lone = err(&["simulate", "web", "--replicas", "1..4", "--min-domains", "2"]);
        assert_eq!(lone.to_string(), "--min-domains needs --max-skew");
        let mixed = err(&["simulate", "web", "--replicas", "1..4", "--remove-zone", "b"]);
        assert!(mixed.to_string().ends_with("drop --remove-zone"), "{mixed}");
        assert!(matches!(
            err(&["simulate", "web", "--replicas", "1..4", "--max-skew", "0"]),
            WhatIfError::SpreadFlag { .. }
        ));
    }
}

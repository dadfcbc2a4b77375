//! Resolution of the what-if flags (`simulate` changes, `--traffic`) into core types, with the
//! parsers of [`super::changes`]; every bad value is a one-line [`SettingsError::WhatIf`] naming
//! the flag.

use super::SettingsError;
use super::changes::{
    WhatIfError, parse_add_node, parse_mode, parse_replicas, parse_set_cpu, parse_spread, parse_traffic,
};
use crate::cli::{Command, SimulateArgs};
use topo_engine::core::analyze::TrafficModel;
use topo_engine::core::whatif::changes::Changes;

/// `--traffic` of the command, or the CPU model.
pub(super) fn resolve_traffic(command: &Command) -> Result<TrafficModel, SettingsError> {
    let text = match command {
        Command::Explain(a) => a.traffic.traffic.as_deref(),
        Command::Check(a) => a.traffic.traffic.as_deref(),
        Command::Simulate(a) => a.traffic.traffic.as_deref(),
        _ => None,
    };
    match text {
        Some(text) => Ok(TrafficModel::Given(parse_traffic(text)?)),
        None => Ok(TrafficModel::ZoneCpu),
    }
}

/// The changes of `simulate`; at least one is required.
pub(super) fn changes(a: &SimulateArgs) -> Result<Changes, SettingsError> {
    let changes = changes_of(a)?;
    if changes.is_empty() {
        return Err(WhatIfError::NoChange.into());
    }
    Ok(changes)
}

pub(super) fn changes_of(a: &SimulateArgs) -> Result<Changes, WhatIfError> {
    Ok(Changes {
        replicas: a.replicas.as_deref().map(parse_replicas).transpose()?,
        spread: a.spread.as_deref().map(parse_spread).transpose()?,
        remove_nodes: a.remove_node.clone(),
        remove_zones: a.remove_zone.clone(),
        not_ready: a.not_ready.clone(),
        add_nodes: a.add_node.iter().map(|t| parse_add_node(t)).collect::<Result<_, _>>()?,
        set_cpu: a.set_cpu.iter().map(|t| parse_set_cpu(t)).collect::<Result<_, _>>()?,
        mode: a.mode.as_deref().map(parse_mode).transpose()?,
        put_nodes: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use crate::settings::changes::WhatIfError;
    use crate::settings::{Ambient, Job, Settings, SettingsError};
    use topo_engine::core::analyze::TrafficModel;

    fn resolve(args: &[&str]) -> Result<Settings, SettingsError> {
        crate::settings::tests::resolve(args, &Ambient::default())
    }

    #[test]
    fn simulate_resolves_its_changes_and_the_traffic_model() {
        let s = resolve(&["simulate", "svc/web", "--remove-zone", "b", "--traffic", "a=3,b=1"]).unwrap();
        let Job::Simulate { name, changes } = &s.job else { panic!("{:?}", s.job) };
        assert_eq!((name.as_str(), changes.remove_zones.clone()), ("web", vec!["b".to_string()]));
        assert!(matches!(&s.traffic, TrafficModel::Given(w) if w.len() == 2));
        let s = resolve(&["explain", "web"]).unwrap();
        assert_eq!(s.traffic, TrafficModel::ZoneCpu);
    }

    #[test]
    fn simulate_without_a_change_is_refused() {
        let err = resolve(&["simulate", "web"]).unwrap_err();
        assert_eq!(err, SettingsError::WhatIf(WhatIfError::NoChange));
        assert!(err.to_string().starts_with("simulate needs a change"), "{err}");
    }
}

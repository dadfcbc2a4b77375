//! `watch`: the live loop of `source::watch` feeding the same engine as `explain`, with the pure
//! change detection of `report::watch` deciding what to print.

use std::io::Write;

use super::{find_service, options, request, services_in_scope};
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::render;
use crate::settings::Settings;
use crate::source::SourceSpec;
use crate::source::watch::{self as follow, Update};
use topo_engine::core::analyze;
use topo_engine::model::Snapshot;
use topo_engine::report::watch::{self as changes, WatchState};

/// Follow the Service(s) until Ctrl-C; exit 0 then.
pub(crate) fn run(
    settings: &Settings,
    name: Option<&str>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let SourceSpec::Live(live) = &settings.source else {
        return Err(crate::settings::SettingsError::WatchFromFile.into());
    };
    let want = request(settings, name, false).want();
    let mut previous: Option<WatchState> = None;
    let mut partial: Vec<String> = Vec::new();
    follow::follow::<Error>(live, &want, &mut |update| match update {
        Update::Note(note) => {
            let _ = writeln!(err, "note: {note}");
            Ok(())
        }
        Update::Snapshot { snapshot, namespace, unix_millis } => {
            if snapshot.info.partial != partial {
                partial = snapshot.info.partial.clone();
                partial.iter().for_each(|note| drop(writeln!(err, "note: {note}")));
            }
            let state = state(settings, &snapshot, namespace.as_deref(), name, previous.is_none())?;
            for change in changes::changes(previous.as_ref(), &state, unix_millis) {
                render::watch::change(&change, &options(settings), out).map_err(Error::Write)?;
            }
            previous = Some(state);
            Ok(())
        }
    })?;
    Ok(ExitStatus::Ok)
}

/// The followed state of the Services in scope. A named Service must exist when the watch starts.
fn state(
    settings: &Settings,
    snapshot: &Snapshot,
    namespace: Option<&str>,
    name: Option<&str>,
    first: bool,
) -> Result<WatchState, Error> {
    if let (Some(name), true) = (name, first) {
        find_service(snapshot, namespace, name)?;
    }
    analyze::zone_limit(snapshot, analyze::MAX_ZONES)?;
    let services = services_in_scope(settings, snapshot, namespace, name);
    let behaviour = topo_engine::core::version::choose(settings.behaviour, snapshot)?.behaviour;
    let reports = analyze::service_reports(snapshot, &services, behaviour);
    Ok(changes::summarize(&reports))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::Cli;
    use crate::fixtures::node_in_own_zone;
    use crate::settings::Ambient;

    #[test]
    fn more_zones_than_modelled_are_refused_as_check_refuses_them() {
        let cli = Cli::try_parse_from(["kubectl-topo", "watch", "-A"]).expect("clap accepts");
        let settings = Settings::resolve(cli, &Ambient::default(), "kubectl topo").expect("settings");
        let zones =
            |n: usize| Snapshot { nodes: (0..n).map(node_in_own_zone).collect(), ..Snapshot::default() };
        assert!(state(&settings, &zones(analyze::MAX_ZONES), None, None, true).is_ok());
        let refused = state(&settings, &zones(analyze::MAX_ZONES + 1), None, None, true).err();
        assert!(matches!(refused, Some(Error::Zones(analyze::TooManyZones { limit: analyze::MAX_ZONES }))));
    }
}

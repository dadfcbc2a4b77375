//! `check`'s listing flags → the typed [`View`] of `triage`, and where its config file is. Flag
//! values are the engine's own names (strum), so the error for a bad one lists them all.

use std::path::PathBuf;

use strum::VariantArray;
use topo_engine::report::Verdict;
use topo_engine::report::mode::Mode;
use topo_engine::report::reason::ReasonCode;

use super::{Ambient, SettingsError};
use crate::cli::CheckArgs;
use crate::triage::config::{ConfigPath, default_location};
use crate::triage::{NamePattern, View};

/// The config file: `--config`, else `KUBECTL_TOPO_CONFIG` (non-empty), else the default location
/// under the config home (none when neither `XDG_CONFIG_HOME` nor `HOME` is set).
pub(crate) fn config_path(flag: Option<PathBuf>, ambient: &Ambient) -> ConfigPath {
    match (flag, &ambient.config_env, &ambient.config_home) {
        (Some(path), _, _) => ConfigPath::Given(path),
        (None, Some(env), _) => ConfigPath::Given(env.clone()),
        (None, None, Some(home)) => ConfigPath::Default(default_location(home)),
        (None, None, None) => ConfigPath::None,
    }
}

/// `--verdict`, `--reason`, `--mode`, `--sort-by`, `--exclude-namespace`, `--show-all`.
pub(crate) fn view(args: &CheckArgs) -> Result<View, SettingsError> {
    let exclude_namespaces = args
        .exclude_namespace
        .iter()
        .map(|p| NamePattern::new(p).map_err(|why| SettingsError::ExcludePattern { pattern: p.clone(), why }))
        .collect::<Result<_, _>>()?;
    Ok(View {
        verdicts: names("--verdict", &args.verdict, Verdict::VARIANTS)?,
        reasons: names("--reason", &args.reason, ReasonCode::VARIANTS)?,
        modes: names("--mode", &args.mode, Mode::VARIANTS)?,
        sort_by: args.sort_by.into(),
        exclude_namespaces,
        show_all: args.show_all,
    })
}

/// Each value as one of `valid` by its name in any case, as kubectl matches resource names (empty
/// values, as in `a,,b`, are skipped).
fn names<T>(flag: &'static str, values: &[String], valid: &[T]) -> Result<Vec<T>, SettingsError>
where
    T: Copy + Into<&'static str>,
{
    let mut out = Vec::new();
    for value in values.iter().map(|v| v.trim()).filter(|v| !v.is_empty()) {
        let name = |t: T| -> &'static str { t.into() };
        match valid.iter().copied().find(|t| name(*t).eq_ignore_ascii_case(value)) {
            Some(t) => out.push(t),
            None => {
                let valid: Vec<&str> = valid.iter().map(|t| name(*t)).collect();
                return Err(SettingsError::UnknownName {
                    flag,
                    value: value.to_string(),
                    valid: valid.join(", "),
                });
            }
        }
    }
    Ok(out)
}

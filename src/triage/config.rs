//! `check`'s config file (`--config`, `KUBECTL_TOPO_CONFIG`, or
//! `${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml`): excludes by namespace/name glob and
//! reason code, and a failure level per code, in the spirit of popeye's excludes. Reading the file
//! is the only I/O of `triage`; [`parse`] is pure and turns the text into [`IgnoreRules`], or into one
//! [`ConfigError`] that names the file, the line and column, and what is wrong.
//!
//! ```yaml
//! excludes:
//!   - namespace: "kube-*"          # glob; default "*"
//!   - name: "batch-*"              # glob; default "*"
//!     reasons: [InsufficientEndpoints, OverloadThreshold]   # default: every reason
//! levels:
//!   RewrittenEverySync: warning    # error | warning | ignore
//! ```

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_saphyr::Spanned;
use strum::VariantArray;
use topo_engine::report::reason::ReasonCode;

use crate::triage::rules::{Exclude, parse_code};
use crate::triage::{IgnoreRules, Level, NamePattern};

/// Where `check` reads its config file from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigPath {
    /// No file.
    None,
    /// `--config` or `KUBECTL_TOPO_CONFIG`: it must exist.
    Given(PathBuf),
    /// `${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml`: read when it exists.
    Default(PathBuf),
}

/// `HOME/kubectl-topo/config.yaml` of a config home (`$XDG_CONFIG_HOME` or `~/.config`).
pub(crate) fn default_location(config_home: &Path) -> PathBuf {
    config_home.join("kubectl-topo").join("config.yaml")
}

/// A config file that cannot be used (exit code 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {what}", path.display(), position(*line, *column))]
pub(crate) struct ConfigError {
    /// The file.
    pub(crate) path: PathBuf,
    /// 1-based line (0 when unknown).
    pub(crate) line: u64,
    /// 1-based column (0 when unknown).
    pub(crate) column: u64,
    /// What is wrong, and what is expected.
    pub(crate) what: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    excludes: Vec<ExcludeEntry>,
    #[serde(default)]
    levels: HashMap<Spanned<String>, Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExcludeEntry {
    namespace: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    reasons: Option<Vec<Spanned<String>>>,
}

/// The rules of the config file `path` names; no rules when there is none (or the default file
/// does not exist).
pub(crate) fn load(path: &ConfigPath) -> Result<IgnoreRules, ConfigError> {
    let (file, optional) = match path {
        ConfigPath::None => return Ok(IgnoreRules::default()),
        ConfigPath::Given(file) => (file, false),
        ConfigPath::Default(file) => (file, true),
    };
    match std::fs::read_to_string(file) {
        Ok(text) => parse(&text, file),
        Err(e) if optional && e.kind() == std::io::ErrorKind::NotFound => Ok(IgnoreRules::default()),
        Err(e) => {
            Err(ConfigError { path: file.clone(), line: 0, column: 0, what: format!("cannot read: {e}") })
        }
    }
}

/// Parse and validate the text of a config file (`path` only names it in errors).
pub(crate) fn parse(text: &str, path: &Path) -> Result<IgnoreRules, ConfigError> {
    let error =
        |line: u64, column: u64, what: String| ConfigError { path: path.to_path_buf(), line, column, what };
    let at = |s: &Spanned<String>, what: String| error(s.referenced.line(), s.referenced.column(), what);
    if text.trim().is_empty() {
        return Ok(IgnoreRules::default());
    }
    let file: File = serde_saphyr::from_str(text).map_err(|e| {
        let location = e.location();
        let (line, column) = location.as_ref().map_or((0, 0), |l| (l.line(), l.column()));
        error(line, column, format!("invalid config: {}", parser_message(&e.to_string())))
    })?;
    let pattern = |p: Option<&Spanned<String>>| match p {
        None => Ok(NamePattern::any()),
        Some(p) => {
            NamePattern::new(&p.value).map_err(|why| at(p, format!("bad pattern {:?}: {why}", p.value)))
        }
    };
    let code = |c: &Spanned<String>| {
        parse_code(&c.value)
            .ok_or_else(|| at(c, format!("unknown reason code {:?}; valid: {}", c.value, valid_codes())))
    };
    let mut rules = IgnoreRules::default();
    for entry in &file.excludes {
        let reasons = match &entry.reasons {
            None => None,
            Some(codes) => Some(codes.iter().map(code).collect::<Result<BTreeSet<_>, _>>()?),
        };
        rules.excludes.push(Exclude {
            namespace: pattern(entry.namespace.as_ref())?,
            name: pattern(entry.name.as_ref())?,
            reasons,
        });
    }
    let mut levels: Vec<_> = file.levels.iter().collect();
    levels.sort_by_key(|(k, _)| (k.referenced.line(), k.referenced.column()));
    for (key, value) in levels {
        let level = Level::parse(&value.value).ok_or_else(|| {
            at(value, format!("unknown level {:?}; valid: error, warning, ignore", value.value))
        })?;
        rules.levels.insert(code(key)?, level);
    }
    Ok(rules)
}

/// The parser's first line without its own `error: line L column C:` prefix (we print ours).
fn parser_message(message: &str) -> String {
    let first = message.lines().next().unwrap_or("").trim();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let first = match first.strip_prefix("line ") {
        Some(rest) => rest.split_once(": ").map_or(first, |(_, what)| what),
        None => first,
    };
    first.split(" at line ").next().unwrap_or(first).trim().to_string()
}

/// `:LINE:COLUMN`, or nothing when the position is unknown.
fn position(line: u64, column: u64) -> String {
    if line == 0 { String::new() } else { format!(":{line}:{column}") }
}

fn valid_codes() -> String {
    ReasonCode::VARIANTS.iter().map(|c| <&str>::from(*c)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests;

//! The facts about the environment that settings decide with, captured once by `main` (the only
//! place that reads the process's environment and terminals).

use std::path::PathBuf;

/// Facts about the environment, captured once by `main`.
#[derive(Debug, Clone, Default)]
pub struct Ambient {
    /// stdout is a terminal.
    pub stdout_is_tty: bool,
    /// stderr is a terminal (progress indicators).
    pub stderr_is_tty: bool,
    /// `NO_COLOR` is set and non-empty.
    pub no_color: bool,
    /// `TERM=dumb`.
    pub term_dumb: bool,
    /// CPUs this process may use (`std::thread::available_parallelism`; 0 when unknown).
    pub cpus: usize,
    /// `KUBECTL_TOPO_CONFIG`, when set and non-empty.
    pub config_env: Option<PathBuf>,
    /// `XDG_CONFIG_HOME`, else `$HOME/.config`; None when neither is set.
    pub config_home: Option<PathBuf>,
    /// The locale variables, as set (see [`Locale`]).
    pub locale: Locale,
}

/// The locale variables that name the character encoding, as found in the environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Locale {
    /// `LC_ALL`.
    pub lc_all: Option<String>,
    /// `LC_CTYPE`.
    pub lc_ctype: Option<String>,
    /// `LANG`.
    pub lang: Option<String>,
}

impl Locale {
    /// True when the effective character encoding is UTF-8: the first of `LC_ALL`, `LC_CTYPE`,
    /// `LANG` that is set and non-empty (POSIX precedence) names `UTF-8` or `utf8`.
    pub fn is_utf8(&self) -> bool {
        [&self.lc_all, &self.lc_ctype, &self.lang].into_iter().flatten().find(|v| !v.is_empty()).is_some_and(
            |v| {
                let v = v.to_ascii_lowercase();
                v.contains("utf-8") || v.contains("utf8")
            },
        )
    }
}

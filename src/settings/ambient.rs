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
    /// `COLUMNS`, as set.
    pub columns: Option<String>,
    /// Columns of the terminal stdout is, when it is one.
    pub stdout_columns: Option<usize>,
    /// Columns of the terminal stderr is, when it is one.
    pub stderr_columns: Option<usize>,
}

impl Ambient {
    /// The width prose on stdout wraps at (`wrap_width`).
    pub fn stdout_width(&self) -> Option<usize> {
        wrap_width(self.columns.as_deref(), self.stdout_columns)
    }

    /// The width `note:` and `hint:` lines on stderr wrap at (`wrap_width`).
    pub fn stderr_width(&self) -> Option<usize> {
        wrap_width(self.columns.as_deref(), self.stderr_columns)
    }
}

/// Narrowest width we wrap at: below it, a line per word helps nobody.
pub(crate) const MIN_WRAP_WIDTH: usize = 20;

/// Where prose wraps, as kubectl and most CLIs decide: `COLUMNS` when set to a number (even when
/// piped: the user asked), else the terminal's width, else (a pipe, a file) nowhere, so scripts
/// and byte-exact examples see one line per sentence.
pub(crate) fn wrap_width(columns: Option<&str>, terminal: Option<usize>) -> Option<usize> {
    let typed = columns.and_then(|c| c.trim().parse::<usize>().ok()).filter(|&c| c > 0);
    typed.or(terminal).filter(|&w| w > 0).map(|w| w.max(MIN_WRAP_WIDTH))
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

//! Typed, documented exit codes (see `cli::EXIT_CODES_HELP` and the README). Depends on nothing
//! else in the crate: each error maps itself to a status (`error::Error::exit_status`).

/// The process exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: success, nothing at or above `--fail-on`.
    Ok = 0,
    /// 1: `check` / `explain --exit-code` found a Service at or above `--fail-on`.
    Findings = 1,
    /// 2: usage or input error.
    Usage = 2,
    /// 3: cluster or API error.
    Cluster = 3,
}

impl ExitStatus {
    /// The numeric code.
    pub fn code(self) -> u8 {
        self as u8
    }
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(status: ExitStatus) -> Self {
        std::process::ExitCode::from(status.code())
    }
}

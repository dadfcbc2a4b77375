//! `reasons [CODE]`: the reason reference. The code is read here, in any case, so an unknown one
//! is clap's one-line usage error (exit 2) like any other bad value.

use clap::Args;
use topo_engine::report::reason::ReasonCode;

/// `reasons` arguments.
#[derive(Debug, Args)]
pub struct ReasonsArgs {
    /// A reason code, in any case (e.g. OverloadThreshold); without it, every code with its meaning.
    #[arg(value_name = "CODE", value_parser = reason_code)]
    pub code: Option<ReasonCode>,
}

fn reason_code(typed: &str) -> Result<ReasonCode, String> {
    crate::prose::reference::parse_code(typed)
        .ok_or_else(|| "no such reason code; `kubectl topo reasons` lists every code".to_string())
}

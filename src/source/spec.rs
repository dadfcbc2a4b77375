//! What `source` reads, as `settings` decides it: a dump or a live cluster (with kubectl's
//! kubeconfig and connection flags), and which namespaces. Types only: `settings` fills them in,
//! `source` reads what they say.

use std::path::PathBuf;
use std::time::Duration;

/// Where objects come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceSpec {
    /// A dump file, or stdin for `-`.
    Dump(DumpPath),
    /// The live cluster of a kubeconfig.
    Live(LiveSpec),
}

/// A dump location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DumpPath {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
}

/// Which namespaces a command looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// `-A`.
    AllNamespaces,
    /// `-n NS`, or `None` = the kubeconfig's namespace (live) / `default` (dump).
    Namespace(Option<String>),
}

/// Kubeconfig selection for a live cluster (kubectl's flags).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LiveSpec {
    /// `--kubeconfig`.
    pub kubeconfig: Option<PathBuf>,
    /// `--context`.
    pub context: Option<String>,
    /// `--cluster`.
    pub cluster: Option<String>,
    /// `--user`.
    pub user: Option<String>,
    /// `--request-timeout` (None = no timeout).
    pub request_timeout: Option<Duration>,
    /// kubectl's connection flags, laid over the kubeconfig's cluster and user (boxed: they are
    /// rarely given, and a `SourceSpec` stays small).
    pub overrides: Box<Overrides>,
    /// `-v`/`--v`: 6 or more prints each API request on stderr.
    pub verbosity: u8,
}

/// kubectl's connection flags (client-go's `clientcmd.ConfigOverrides`): `-s/--server`,
/// `--certificate-authority`, `--insecure-skip-tls-verify`, `--tls-server-name` for the cluster,
/// `--token`, `--as`, `--as-group` for the user.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    /// `-s/--server`, with `https://` added when no scheme was typed (as kubectl does).
    pub server: Option<String>,
    /// `--certificate-authority`.
    pub certificate_authority: Option<PathBuf>,
    /// `--insecure-skip-tls-verify`.
    pub insecure_skip_tls_verify: bool,
    /// `--tls-server-name`.
    pub tls_server_name: Option<String>,
    /// `--token`.
    pub token: Option<Secret>,
    /// `--as`.
    pub impersonate: Option<String>,
    /// `--as-group` (only with `--as`).
    pub impersonate_groups: Vec<String>,
}

impl Overrides {
    /// True when no connection flag was given.
    pub fn is_empty(&self) -> bool {
        *self == Overrides::default()
    }
}

/// A credential typed on the command line: never shown by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

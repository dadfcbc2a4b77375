//! Read a cluster: a dump or a live cluster into a `model::Snapshot`, as `settings` described it
//! (`spec.rs`: [`SourceSpec`], [`Scope`]). Every failure is a [`SourceError`] (module `error`),
//! which carries its remedy and exit code.

pub(crate) mod convert;
pub mod dump;
pub(crate) mod dump_write;
pub(crate) mod error;
pub(crate) mod incomplete;
pub mod live;
pub(crate) mod manifests;
pub(crate) mod probe;
mod spec;
pub(crate) mod targets;
pub(crate) mod watch;

use std::io::Write;
use std::path::Path;

pub use error::{ServiceNotFound, SourceError};
pub use spec::{DumpPath, LiveSpec, Overrides, Scope, Secret, SourceSpec};
use topo_engine::model::Snapshot;

/// What a command needs; a live read fetches only that (a dump is read whole).
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// `-n` / `-A`.
    pub scope: &'a Scope,
    /// `explain NAME`.
    pub service: Option<&'a str>,
    /// `zones`: Nodes are enough.
    pub nodes_only: bool,
    /// `dump`: the objects whole, as listed (see [`live::Want::whole`]).
    pub whole: bool,
    /// `explain`, `dump`: the workloads behind the Services too (see [`live::Want::workloads`]).
    pub workloads: bool,
}

/// A loaded source.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The engine's input.
    pub snapshot: Snapshot,
    /// The namespace a scope without `-n` resolved to (the kubeconfig context's, or `default` for a
    /// dump); `None` for `-A`.
    pub namespace: Option<String>,
    /// The objects of a live read as listed, when asked for (`Request::whole`, for `dump`).
    pub raw: Option<live::Raw>,
}

impl Request<'_> {
    /// What a live read (or watch) of this request asks the cluster for.
    pub fn want(&self) -> live::Want {
        live::Want {
            namespace: live::Namespace::from(self.scope),
            service: self.service.map(str::to_string),
            nodes_only: self.nodes_only,
            whole: self.whole,
            workloads: self.workloads,
        }
    }
}

/// Load the Snapshot; notes about skipped objects go to `err`.
pub fn load(spec: &SourceSpec, request: Request<'_>, err: &mut dyn Write) -> Result<Loaded, SourceError> {
    match spec {
        SourceSpec::Dump(path) => {
            // A dump has no kubeconfig context: without `-n` the scope is `default`.
            let namespace = live::Namespace::from(request.scope).resolve("default");
            Ok(Loaded { snapshot: load_dump(path, err)?, namespace, raw: None })
        }
        SourceSpec::Live(live_spec) => {
            let loaded = live::load(live_spec, &request.want())?;
            for note in &loaded.snapshot.info.partial {
                let _ = writeln!(err, "note: {note}");
            }
            Ok(Loaded { snapshot: loaded.snapshot, namespace: loaded.namespace, raw: loaded.raw })
        }
    }
}

fn load_dump(path: &DumpPath, err: &mut dyn Write) -> Result<Snapshot, SourceError> {
    let (parsed, origin) = match path {
        DumpPath::Stdin => (dump::read_dump(std::io::stdin().lock(), "stdin", None)?, "stdin".to_string()),
        DumpPath::File(p) => {
            let origin = p.display().to_string();
            (read_dump_file(p, &origin)?, origin)
        }
    };
    if !parsed.skipped.is_empty() {
        let total: usize = parsed.skipped.values().sum();
        let kinds: Vec<String> = parsed.skipped.iter().map(|(k, n)| format!("{k}: {n}")).collect();
        let _ = writeln!(err, "note: skipped {total} object(s) of other kinds ({})", kinds.join(", "));
    }
    let mut snapshot = parsed.snapshot;
    for note in incomplete::mark_dump(&mut snapshot) {
        let _ = writeln!(err, "note: {note}");
    }
    snapshot.info.origin = format!("dump:{origin}");
    Ok(snapshot)
}

/// Reads a dump file: JSON streamed (its text is never held whole), YAML streamed through the fast
/// path when it is within its subset and else whole, both within the limits of `dump::error`.
pub(crate) fn read_dump_file(path: &Path, origin: &str) -> Result<dump::ParsedDump, SourceError> {
    let file = std::fs::File::open(path).map_err(|source| SourceError::Read { path: path.into(), source })?;
    let metadata = file.metadata().ok();
    if metadata.as_ref().is_some_and(std::fs::Metadata::is_dir) {
        // Opening a directory works on Unix; reading it is the error, said once for every command.
        let source = std::io::Error::from(std::io::ErrorKind::IsADirectory);
        return Err(SourceError::Read { path: path.into(), source });
    }
    match metadata.filter(std::fs::Metadata::is_file).map(|m| m.len()) {
        // A regular file can be read again from its start.
        Some(len) => Ok(dump::read_dump_file(file, origin, len)?),
        None => Ok(dump::read_dump(file, origin, None)?),
    }
}

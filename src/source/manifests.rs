//! `simulate --apply FILE|DIR|-` (docs/apply.md): rendered manifests — `helm template` or
//! `kustomize build` output, multi-document YAML, JSON, Lists — read by the dump reader into the
//! engine's [`Manifests`]: Nodes, Services, Deployments, StatefulSets, ReplicaSets and
//! HorizontalPodAutoscalers. Other kinds are skipped with a note, as in dumps. A directory is read
//! as `kubectl apply -f DIR` reads one: its `*.yaml`, `*.yml` and `*.json` files in name order, not
//! its subdirectories. A namespaced object without a namespace is in the namespace read, as
//! `kubectl apply -n` puts it; one in another namespace is refused, as kubectl refuses it.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::dump::{DumpError, ParsedDump};
use super::{DumpPath, SourceError};
use topo_engine::core::whatif::apply::Manifests;

/// Why the manifests cannot be applied; exit code 2.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ManifestError {
    /// A file or directory that cannot be read.
    #[error("--apply {path}: {message}")]
    Read {
        /// As given.
        path: String,
        /// The system's reason.
        message: String,
    },
    /// A directory with no manifest file in it.
    #[error(
        "--apply {path}: no *.yaml, *.yml or *.json file in this directory (subdirectories are not read)"
    )]
    EmptyDirectory {
        /// As given.
        path: String,
    },
    /// Not valid YAML or JSON.
    #[error("--apply {origin}:{line}:{column}: invalid {format}: {message}")]
    Syntax {
        /// The file (`stdin`).
        origin: String,
        /// `YAML` or `JSON`.
        format: &'static str,
        /// 1-based line.
        line: u64,
        /// 1-based column.
        column: u64,
        /// The parser's message.
        message: String,
    },
    /// No object of a kind `--apply` applies.
    #[error(
        "--apply {origin}: no Node, Service, Deployment, StatefulSet, ReplicaSet or HorizontalPodAutoscaler in it{found}"
    )]
    Nothing {
        /// The file (`stdin`).
        origin: String,
        /// ` (found …)`, or empty.
        found: String,
    },
    /// A namespaced object in another namespace than the one read.
    #[error("--apply {origin}: {kind} {namespace}/{name} is not in namespace {read}, the one read")]
    Namespace {
        /// The file (`stdin`).
        origin: String,
        /// `Service`, `Deployment`, …
        kind: String,
        /// Its namespace.
        namespace: String,
        /// Its name.
        name: String,
        /// The namespace read.
        read: String,
    },
    /// Any other reason the dump reader gives (an object that does not decode, a duplicate, a
    /// size limit, an encoding).
    #[error("--apply {0}")]
    Reader(DumpError),
}

impl ManifestError {
    /// The remedy line.
    pub(crate) fn hint(&self) -> String {
        match self {
            ManifestError::Read { .. } => "check the path, or use `--apply -` to read stdin".to_string(),
            ManifestError::EmptyDirectory { .. } | ManifestError::Nothing { .. } | ManifestError::Syntax { .. } => {
                "pass rendered manifests: `helm template RELEASE CHART | kubectl topo simulate --apply - …`, or `kustomize build DIR`".to_string()
            }
            ManifestError::Namespace { namespace, .. } => {
                format!("read that namespace with -n {namespace}, or leave metadata.namespace out of the manifest")
            }
            ManifestError::Reader(e) => e.hint().unwrap_or("fix or remove that object").to_string(),
        }
    }
}

/// One file read: its objects, or the kinds it holds when none is read at all.
type File = (String, Result<ParsedDump, BTreeMap<String, usize>>);

/// Read every manifest of `paths` in order (a later object of the same kind, namespace and name
/// replaces an earlier one when applied), namespaced objects in `namespace`. A file with nothing
/// applied is a note (a chart renders ConfigMaps and Secrets too); all of them, an error.
pub(crate) fn read(
    paths: &[DumpPath],
    namespace: &str,
    err: &mut dyn Write,
) -> Result<Manifests, ManifestError> {
    let mut out = Manifests::default();
    let mut found: BTreeMap<String, usize> = BTreeMap::new();
    let mut origins = Vec::new();
    for path in paths {
        for (origin, parsed) in parse(path)? {
            match parsed {
                Ok(parsed) => {
                    skipped_note(&parsed, &origin, err);
                    take(parsed, &origin, namespace, &mut out)?;
                }
                Err(kinds_found) => {
                    let _ = writeln!(err, "note: --apply {origin}: nothing to apply{}", listed(&kinds_found));
                    kinds_found.into_iter().for_each(|(k, n)| *found.entry(k).or_default() += n);
                }
            }
            origins.push(origin);
        }
    }
    if out == Manifests::default() {
        return Err(ManifestError::Nothing { origin: origins.join(", "), found: listed(&found) });
    }
    Ok(out)
}

/// ` (found …)`, or nothing.
fn listed(kinds_found: &BTreeMap<String, usize>) -> String {
    if kinds_found.is_empty() { String::new() } else { format!(" (found {})", kinds(kinds_found)) }
}

/// Each file of `path` parsed, with its name.
fn parse(path: &DumpPath) -> Result<Vec<File>, ManifestError> {
    let files = match path {
        DumpPath::Stdin => {
            let parsed = super::dump::read_dump(std::io::stdin().lock(), "stdin", None);
            return Ok(vec![("stdin".to_string(), usable("stdin", parsed)?)]);
        }
        DumpPath::File(p) if p.is_dir() => directory(p)?,
        DumpPath::File(p) => vec![p.clone()],
    };
    let mut out = Vec::new();
    for file in files {
        let origin = file.display().to_string();
        let parsed = match super::read_dump_file(&file, &origin) {
            Ok(parsed) => Ok(parsed),
            Err(SourceError::Dump(e)) => Err(e),
            Err(other) => return Err(ManifestError::Read { path: origin, message: read_message(&other) }),
        };
        let parsed = usable(&origin, parsed)?;
        out.push((origin, parsed));
    }
    Ok(out)
}

/// A file's objects, or the kinds it holds when it holds none the reader reads; the reader's other
/// errors in the words of manifests where they differ (a dump's remedies name `kubectl topo dump`).
fn usable(
    origin: &str,
    parsed: Result<ParsedDump, DumpError>,
) -> Result<Result<ParsedDump, BTreeMap<String, usize>>, ManifestError> {
    match parsed {
        Ok(parsed) => Ok(Ok(parsed)),
        Err(DumpError::Empty { .. }) => Ok(Err(BTreeMap::new())),
        Err(DumpError::NoUsableObjects { skipped, .. }) => Ok(Err(skipped)),
        Err(DumpError::Syntax { format, line, column, message, .. }) => {
            Err(ManifestError::Syntax { origin: origin.to_string(), format, line, column, message })
        }
        Err(other) => Err(ManifestError::Reader(other)),
    }
}

/// The system's reason, without the path the caller prints already.
fn read_message(e: &SourceError) -> String {
    match e {
        SourceError::Read { source, .. } => source.to_string(),
        other => other.to_string(),
    }
}

/// The manifest files of a directory, in name order.
fn directory(dir: &Path) -> Result<Vec<PathBuf>, ManifestError> {
    let shown = dir.display().to_string();
    let entries = std::fs::read_dir(dir)
        .map_err(|e| ManifestError::Read { path: shown.clone(), message: e.to_string() })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter(|p| {
            p.extension().and_then(|x| x.to_str()).is_some_and(|x| matches!(x, "yaml" | "yml" | "json"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(ManifestError::EmptyDirectory { path: shown });
    }
    Ok(files)
}

fn kinds(counts: &BTreeMap<String, usize>) -> String {
    counts.iter().map(|(k, n)| format!("{k}: {n}")).collect::<Vec<_>>().join(", ")
}

/// A note for the objects of kinds `--apply` does not apply.
fn skipped_note(parsed: &ParsedDump, origin: &str, err: &mut dyn Write) {
    let mut counts = parsed.skipped.clone();
    let s = &parsed.snapshot;
    for (kind, n) in [
        ("discovery.k8s.io/v1 EndpointSlice", s.slices.len()),
        ("Event", s.events.len()),
        ("v1 Pod", s.workloads.pods.len()),
    ] {
        if n > 0 {
            *counts.entry(kind.to_string()).or_default() += n;
        }
    }
    if !counts.is_empty() {
        let total: usize = counts.values().sum();
        let _ = writeln!(
            err,
            "note: --apply {origin}: skipped {total} object(s) of kinds not applied ({})",
            kinds(&counts)
        );
    }
}

/// The applied kinds of one parsed file, into `out`.
fn take(parsed: ParsedDump, origin: &str, namespace: &str, out: &mut Manifests) -> Result<(), ManifestError> {
    let snapshot = parsed.snapshot;
    let place = |kind: String, ns: &mut String, name: &str| {
        if ns.is_empty() {
            *ns = namespace.to_string();
        }
        if ns.as_str() != namespace {
            return Err(ManifestError::Namespace {
                origin: origin.to_string(),
                kind,
                namespace: ns.clone(),
                name: name.to_string(),
                read: namespace.to_string(),
            });
        }
        Ok(())
    };
    for mut s in snapshot.services {
        let name = s.name.clone();
        place("Service".to_string(), &mut s.namespace, &name)?;
        out.services.push(s);
    }
    for mut w in snapshot.workloads.workloads {
        let name = w.name.clone();
        place(w.kind.to_string(), &mut w.namespace, &name)?;
        out.workloads.push(w);
    }
    for mut h in snapshot.workloads.autoscalers {
        let name = h.range.name.clone();
        place("HorizontalPodAutoscaler".to_string(), &mut h.namespace, &name)?;
        out.autoscalers.push(h);
    }
    out.nodes.extend(snapshot.nodes);
    Ok(())
}

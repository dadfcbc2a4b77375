//! `check` over several clusters: the sources given, with each directory of `-f` expanded into
//! its dumps (`*.yaml`, `*.yml`, `*.json`, in name order, not recursive) and `--all-contexts` into
//! every context of the kubeconfig. A source that cannot even be listed becomes a target whose
//! spec is the error, so that it is reported in its row while the others are read.

use std::path::Path;

use crate::source::{DumpPath, LiveSpec, SourceSpec};

use super::SourceError;

/// One cluster to read: how it is named in the CLUSTER column, and where it comes from.
#[derive(Debug)]
pub(crate) struct Target {
    /// The dump file as given, or the context name.
    pub(crate) label: String,
    /// The source, or why it cannot be read.
    pub(crate) spec: Result<SourceSpec, SourceError>,
}

/// The targets of `specs` (and of the kubeconfig's contexts with `all_contexts`).
pub(crate) fn targets(specs: &[SourceSpec], all_contexts: bool) -> Vec<Target> {
    if all_contexts {
        let base = match specs.first() {
            Some(SourceSpec::Live(live)) => live.clone(),
            _ => LiveSpec::default(),
        };
        return match super::live::context_names(base.kubeconfig.as_deref()) {
            Ok(names) => names
                .into_iter()
                .map(|name| Target {
                    label: name.clone(),
                    spec: Ok(SourceSpec::Live(LiveSpec { context: Some(name), ..base.clone() })),
                })
                .collect(),
            Err(error) => vec![Target { label: "kubeconfig".into(), spec: Err(error) }],
        };
    }
    specs.iter().flat_map(expand).collect()
}

fn expand(spec: &SourceSpec) -> Vec<Target> {
    match spec {
        SourceSpec::Dump(DumpPath::File(path)) if path.is_dir() => directory(path),
        SourceSpec::Dump(DumpPath::File(path)) => vec![target(path.display().to_string(), spec)],
        SourceSpec::Dump(DumpPath::Stdin) => vec![target("-".into(), spec)],
        SourceSpec::Live(live) => {
            vec![target(live.context.clone().unwrap_or_else(|| "(current context)".into()), spec)]
        }
    }
}

fn target(label: String, spec: &SourceSpec) -> Target {
    Target { label, spec: Ok(spec.clone()) }
}

/// The dumps of a directory, in name order; the directory itself as a failed target when it
/// cannot be read or holds none.
fn directory(dir: &Path) -> Vec<Target> {
    let failed = |source: std::io::Error| {
        vec![Target {
            label: dir.display().to_string(),
            spec: Err(SourceError::Read { path: dir.into(), source }),
        }]
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return failed(e),
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "yaml" || e == "yml" || e == "json"))
        .collect();
    files.sort();
    if files.is_empty() {
        return failed(std::io::Error::other("the directory holds no *.yaml, *.yml or *.json dump"));
    }
    files
        .into_iter()
        .map(|p| Target { label: p.display().to_string(), spec: Ok(SourceSpec::Dump(DumpPath::File(p))) })
        .collect()
}

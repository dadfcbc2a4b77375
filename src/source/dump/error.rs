//! Why a dump could not be read: one line each, saying what, where, and what to do.

use std::collections::BTreeMap;

/// Largest input read as a stream (a JSON dump): far above any cluster Kubernetes supports (a
/// dump of 5,000 Nodes and 10,000 Services is about 170 MB), low enough that an endless input
/// stops.
pub const MAX_JSON_BYTES: u64 = 4 << 30;
/// Largest YAML input (outside the subset the rewrite into JSON takes, its text is held and parsed
/// whole).
pub const MAX_YAML_BYTES: u64 = 512 << 20;
/// Largest single object (or top-level value that is not a List). The API server refuses request
/// bodies over 3 MiB and etcd stores values up to 1.5 MiB, so no real object comes near this.
pub const MAX_OBJECT_BYTES: usize = 64 << 20;

/// Why a dump could not be read. Each message is one line: what, where, what to do. `origin`
/// names the input (a path, `stdin`); `line` and `column` are 1-based (0 when unknown), `index`
/// an object's 0-based position among all objects of the dump (list items flattened).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DumpError {
    /// The input holds no objects at all.
    #[error(
        "{origin}: the dump is empty; pass the output of `kubectl topo dump` or `kubectl get nodes,services,endpointslices,events -A -o yaml`"
    )]
    Empty { origin: String },
    /// Not valid YAML/JSON.
    #[error(
        "{origin}:{line}:{column}: invalid {format}: {message}; fix the file or re-create it with `kubectl topo dump`"
    )]
    Syntax {
        origin: String,
        /// `YAML` or `JSON`.
        format: &'static str,
        line: u64,
        column: u64,
        /// The parser's message.
        message: String,
    },
    /// One object of a kind we read could not be decoded.
    #[error("{origin}: item {index}: {kind} {name:?}: {message}; fix or remove that object")]
    Item {
        origin: String,
        index: usize,
        /// Lower-case kind, e.g. `node`.
        kind: String,
        /// `metadata.name` (empty when absent).
        name: String,
        /// The field and what is wrong with it.
        message: String,
    },
    /// The same object listed twice: it would be counted twice.
    #[error(
        "{origin}: item {index}: {kind} {:?} is listed again (first as item {first}); a dump lists each object once (two dumps concatenated?): keep one of them",
        qualified(.namespace, .name)
    )]
    Duplicate {
        origin: String,
        /// 0-based position of the second listing.
        index: usize,
        /// 0-based position of the first.
        first: usize,
        /// Lower-case kind, e.g. `node`.
        kind: String,
        /// `metadata.namespace` (empty for cluster-scoped objects).
        namespace: String,
        /// `metadata.name`.
        name: String,
    },
    /// Objects were found, but none of the kinds we read.
    #[error("{origin}: no Nodes, Services, EndpointSlices or Events (found {}); dump them with `kubectl get nodes,services,endpointslices,events -A -o yaml`", describe(.skipped))]
    NoUsableObjects {
        origin: String,
        /// What was found instead.
        skipped: BTreeMap<String, usize>,
    },
    /// One object (or top-level value) larger than [`MAX_OBJECT_BYTES`].
    #[error(
        "{origin}:{line}:{column}: this value is larger than {}, and no Kubernetes object is larger than 3 MiB; this is not a dump of a cluster: re-create it with `kubectl topo dump`",
        size(*.limit as u64)
    )]
    ObjectTooLarge { limit: usize, origin: String, line: u64, column: u64 },
    /// More input than a dump can hold: an endless stream, or the wrong file.
    #[error("{origin}: more than {} of {format}, the most a dump is read up to{}", size(*.limit), advice(.format))]
    InputTooLarge {
        origin: String,
        /// `YAML` or `JSON`.
        format: &'static str,
        limit: u64,
    },
    /// Text in an encoding other than UTF-8.
    #[error(
        "{origin}: the dump is {encoding} text (what Windows PowerShell's `>` writes), not UTF-8; save it as UTF-8, e.g. `kubectl topo dump -o json | Out-File -Encoding utf8 dump.json`, or convert it with `iconv -f {encoding} -t UTF-8`"
    )]
    Encoding {
        /// `UTF-16LE`, `UTF-16BE`, `UTF-32LE` or `UTF-32BE`.
        encoding: &'static str,
        origin: String,
    },
    /// The input could not be read (or is not UTF-8).
    #[error("cannot read {origin}: {message}")]
    Read { origin: String, message: String },
    /// A NUL byte: binary data, not text.
    #[error(
        "{origin}: byte {offset} is NUL, so this is binary data, not a YAML or JSON dump; pass the output of `kubectl topo dump` or `kubectl get -o yaml|json`"
    )]
    Binary {
        origin: String,
        /// 0-based offset of the first NUL byte.
        offset: u64,
    },
}

impl DumpError {
    /// One line of remedy, for the errors whose message does not already say what to do.
    pub fn hint(&self) -> Option<&'static str> {
        // A PowerShell `>` would write UTF-16 again; the others name their remedy.
        let generic = matches!(
            self,
            DumpError::Empty { .. }
                | DumpError::Syntax { .. }
                | DumpError::Item { .. }
                | DumpError::NoUsableObjects { .. }
        );
        generic.then_some(
            "create a dump with `kubectl get nodes,services,endpointslices,events -A -o yaml > dump.yaml`",
        )
    }
}

fn describe(skipped: &BTreeMap<String, usize>) -> String {
    let parts: Vec<String> = skipped.iter().map(|(kind, count)| format!("{count} {kind}")).collect();
    parts.join(", ")
}

fn qualified(namespace: &str, name: &str) -> String {
    if namespace.is_empty() { name.to_string() } else { format!("{namespace}/{name}") }
}

fn size(bytes: u64) -> String {
    match bytes {
        1_073_741_824.. => format!("{} GiB", bytes >> 30),
        1_048_576.. => format!("{} MiB", bytes >> 20),
        _ => format!("{bytes} bytes"),
    }
}

fn advice(format: &str) -> String {
    if format == "YAML" {
        format!(
            " (a YAML file outside kubectl's plain layout is held whole while it is parsed); write the dump as JSON (`kubectl topo dump -o json`), which is read as a stream up to {}",
            size(MAX_JSON_BYTES)
        )
    } else {
        " (a dump of 5,000 Nodes and 10,000 Services is about 170 MB); pass a dump file, not an endless stream"
            .to_string()
    }
}

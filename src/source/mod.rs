//! The only I/O: read a cluster dump (or, later, a live cluster) into a `model::Snapshot`.

pub mod convert;
pub mod dump;
pub mod probe;

use std::io::{Read, Write};

use crate::error::Error;
use crate::model::Snapshot;
use crate::settings::{DumpPath, SourceSpec};

/// Load the Snapshot; notes about skipped objects go to `err`.
pub fn load(spec: &SourceSpec, err: &mut dyn Write) -> Result<Snapshot, Error> {
    match spec {
        SourceSpec::Dump(path) => load_dump(path, err),
        SourceSpec::Live(_) => Err(Error::Live(
            "no live cluster access in this build yet: pass --from-file with a dump \
             (kubectl get nodes,services,endpointslices,events -A -o yaml)"
                .to_string(),
        )),
    }
}

fn load_dump(path: &DumpPath, err: &mut dyn Write) -> Result<Snapshot, Error> {
    let (text, origin) = match path {
        DumpPath::Stdin => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|source| Error::Read { path: "-".into(), source })?;
            (text, "stdin".to_string())
        }
        DumpPath::File(p) => {
            let text =
                std::fs::read_to_string(p).map_err(|source| Error::Read { path: p.clone(), source })?;
            (text, p.display().to_string())
        }
    };
    let parsed = dump::parse_dump(&text, &origin)?;
    if !parsed.skipped.is_empty() {
        let total: usize = parsed.skipped.values().sum();
        let kinds: Vec<String> = parsed.skipped.iter().map(|(k, n)| format!("{k}: {n}")).collect();
        let _ = writeln!(err, "note: skipped {total} object(s) of other kinds ({})", kinds.join(", "));
    }
    let mut snapshot = parsed.snapshot;
    snapshot.info.origin = format!("dump:{origin}");
    if snapshot.info.server_version.is_none() {
        snapshot.info.server_version = parsed.server_version;
    }
    Ok(snapshot)
}

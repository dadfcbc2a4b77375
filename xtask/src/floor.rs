//! The parse-only floor (`cargo xtask parse-only FILE`): the dump read from disk and parsed into
//! `IgnoredAny`, building nothing, by the parsers `check` uses (serde_json; serde-saphyr with the
//! limits `--from-file` sets). `check -A` on the same file is compared with it in `cargo xtask
//! bench`: how close the whole analysis is to merely reading the bytes.

use std::io;
use std::path::Path;

use serde::de::IgnoredAny;

use crate::generate::Format;

/// Parses the dump at `path` and drops what it read; the number of documents.
pub fn parse_only(path: &Path) -> io::Result<usize> {
    let bytes = std::fs::read(path)?;
    match Format::of(path) {
        Format::Json => {
            let documents = serde_json::Deserializer::from_slice(&bytes).into_iter::<IgnoredAny>();
            documents.map(|d| d.map_err(io::Error::other)).collect::<io::Result<Vec<_>>>().map(|d| d.len())
        }
        Format::Yaml => {
            let text = std::str::from_utf8(&bytes).map_err(io::Error::other)?;
            serde_saphyr::from_multiple_with_options::<IgnoredAny>(
                text,
                kubectl_topo::source::dump::yaml_options(text),
            )
            .map(|d| d.len())
            .map_err(io::Error::other)
        }
    }
}

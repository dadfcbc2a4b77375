//! The YAML reader: the rewrite into JSON ([`subset`]) where it takes the text, else serde-saphyr,
//! whole, into `Value` documents, each read as the JSON reader reads a top-level value. The
//! parser's limits and refusals (aliases, deep nesting, duplicate keys, tags, nulls where text is
//! needed) and its messages are the reader's.

use serde_json::Value;

use super::{DumpError, ParsedDump, Reader};

/// Deepest nesting a YAML dump is parsed to (Kubernetes objects need about 15 levels).
const MAX_DEPTH: usize = 64;

mod subset;
pub(super) use subset::read as read_fast;

/// Reads a YAML dump with the full parser: every document as a `Value`, then read.
pub(super) fn read_parsed(text: &str, origin: &str) -> Result<ParsedDump, DumpError> {
    let mut reader = Reader::new(origin);
    for document in documents(text, origin)? {
        reader.read(document, Default::default())?;
    }
    reader.finish()
}

/// The whole text as `Value` documents.
pub(crate) fn documents(text: &str, origin: &str) -> Result<Vec<Value>, DumpError> {
    serde_saphyr::from_multiple_with_options::<Value>(text, options(text)).map_err(|err| syntax(&err, origin))
}

/// Limits sized for dumps: generous for real clusters (a 20 MB dump needs a few million events),
/// tight on aliases, which `kubectl` never writes, so alias bombs fail fast.
pub fn options(text: &str) -> serde_saphyr::Options {
    let scale = text.len().max(1 << 20);
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_events: scale,
            max_nodes: scale,
            max_documents: scale,
            max_total_scalar_bytes: scale,
            max_aliases: 1_000,
            max_anchors: 1_000,
            max_recorded_anchor_events: 100_000,
            max_depth: MAX_DEPTH,
        },
        // Booleans of the YAML 1.2 core schema, as Kubernetes JSON semantics expect: `n`/`no`/`on`
        // stay strings. Numbers with a leading zero as kubectl reads them (sigs.k8s.io/yaml, go-yaml
        // v2, YAML 1.1): `017` and `0o17` are 15, `-017` is -15, `08` is 8 (a float).
        strict_booleans: true,
        leading_zero_numbers_as_strings: false,
        legacy_octal_numbers: true,
        with_snippet: false,
        // Comments are never needed; emitting them makes the parser buffer comment events while
        // it looks ahead, and a block of 33+ comment lines before a sequence then fails.
        emit_comments: false,
    }
}

fn syntax(err: &serde_saphyr::Error, origin: &str) -> DumpError {
    let location = err.location();
    DumpError::Syntax {
        origin: origin.to_string(),
        format: "YAML",
        line: location.as_ref().map_or(0, |l| l.line()),
        column: location.as_ref().map_or(0, |l| l.column()),
        message: one_line(&err.to_string()),
    }
}

/// First line of a parser message, without its location (we print our own) or advice meant for
/// programmers; budget breaches become a sentence.
fn one_line(message: &str) -> String {
    let first = message.lines().next().unwrap_or("").trim();
    let first = first.split(" at line ").next().unwrap_or(first);
    let first = first.split(", set DuplicateKeyPolicy").next().unwrap_or(first);
    // Advice for programmers using the parser (which Rust type to use, which option to set) means
    // nothing to someone fixing a dump: say what the dump holds instead.
    if first.contains("; use Option<") {
        return "a null (`~`, `null` or nothing) where text is needed".to_string();
    }
    if first.starts_with("!!binary scalar is not valid UTF-8") {
        return "a !!binary value that is not UTF-8 text where text is needed".to_string();
    }
    match first.strip_prefix("budget breached: ") {
        Some(what) if what.starts_with("Depth") => format!("nested deeper than {MAX_DEPTH} levels"),
        Some(what) if what.contains("Alias") || what.contains("Anchor") => {
            "too many YAML anchors/aliases (an alias bomb?); kubectl never writes them".to_string()
        }
        Some(what) => {
            let limit = what.split([' ', '{']).next().unwrap_or(what);
            format!("exceeds the reader's limits ({limit})")
        }
        None => first.trim_end_matches('.').to_string(),
    }
}

#[cfg(test)]
mod tests;

//! The YAML reader. Each document is parsed once, from the parser's events (serde-saphyr), and
//! the `items` of a List are decided one by one as they are parsed ([`super::outcome`]): an item's
//! `Value` lives only while it is decided, so no tree of the whole List is built. It reads what the
//! reference reader ([`read_tree`]: every document as one `Value`, then read) reads, with the same
//! results and the same errors, and the same refusals (aliases, deep nesting, duplicate keys, tags,
//! nulls where text is needed): both parse with the same options and build each object's `Value`
//! with serde_json's own visitor.
//!
//! Like the streaming JSON reader, it learns whether a document is a List only once it has its
//! `apiVersion` and `kind`, which kubectl writes after `items`: until then the items that name
//! their own type are decided, and from the first that does not (it would take the List's type)
//! on they are kept; when the document ends as anything but a List, the decided items are
//! forgotten and the document is read without its `items`, as a whole read would read it.

use serde_json::Value;

use super::{DumpError, MAX_DEPTH, ParsedDump, Reader};

mod document;
mod subset;

use document::Documents;

/// Reads a YAML dump (one or more documents): through the fast path ([`subset`]) when it can, or
/// else with the full parser.
pub(super) fn read_yaml(text: &str, origin: &str) -> Result<ParsedDump, DumpError> {
    match subset::read(text.as_bytes(), origin) {
        Some(parsed) => Ok(parsed),
        None => read_parsed(text, origin),
    }
}

/// Reads a YAML dump from `input` through the fast path alone: `None` when the full parser must
/// read it.
pub(super) fn read_fast(input: impl std::io::BufRead, origin: &str) -> Option<ParsedDump> {
    subset::read(input, origin)
}

/// Reads a YAML dump with the full parser (serde-saphyr's events).
pub(super) fn read_parsed(text: &str, origin: &str) -> Result<ParsedDump, DumpError> {
    let Documents(outcomes) =
        serde_saphyr::from_str_multiple_with_options::<_, Documents>(text, options(text))
            .map_err(|err| syntax(&err, origin))?;
    let mut reader = Reader::new(origin);
    outcomes.into_iter().try_for_each(|outcome| reader.record(outcome))?;
    reader.finish()
}

/// The reference reader: every document as one `Value`, then read (the streaming reader is tested
/// against it).
pub(super) fn read_tree(text: &str, origin: &str) -> Result<ParsedDump, DumpError> {
    let mut reader = Reader::new(origin);
    for document in documents(text, origin)? {
        reader.read(document, None, 0)?;
    }
    reader.finish()
}

/// The whole text as `Value` documents.
pub(super) fn documents(text: &str, origin: &str) -> Result<Vec<Value>, DumpError> {
    serde_saphyr::from_multiple_with_options::<Value>(text, options(text)).map_err(|err| syntax(&err, origin))
}

/// Limits sized for dumps: generous for real clusters (a 20 MB dump needs a few million events),
/// tight on aliases, which `kubectl` never writes, so alias bombs fail fast.
pub(super) fn options(text: &str) -> serde_saphyr::Options {
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

use std::path::Path;

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

/// The JSON the fast path writes for `text`; `None` when it leaves it to the parser.
fn written(text: &str) -> Option<String> {
    let (mut input, mut transcoder) = (text.as_bytes(), Transcoder::default());
    let chunks = std::iter::from_fn(|| transcoder.next_chunk(&mut input, Vec::new()))
        .collect::<io::Result<Vec<_>>>()
        .ok()?;
    Some(String::from_utf8(chunks.concat()).expect("UTF-8"))
}

/// The JSON documents the fast path writes for `text`; `None` when it leaves it to the parser.
fn transcode(text: &str) -> Option<Vec<Value>> {
    let json = written(text)?;
    let documents = serde_json::Deserializer::from_str(&json).into_iter::<Value>();
    Some(documents.map(|d| d.unwrap_or_else(|e| panic!("{text:?} wrote {json:?}: {e}"))).collect())
}

/// The rewrite held to the parser on `text` (the tests and the differential fuzz target): `Ok(true)`
/// when it took the text and wrote the documents serde-saphyr reads (an empty document is nothing
/// to either), `Ok(false)` when it left the text to the parser, `Err` saying how they differ.
/// Allowed: refusing anything (the parser then reads it), and writing JSON for a text the parser
/// refuses when the JSON reader refuses that JSON too (a duplicate key), so the parser's error is
/// the one given.
fn agrees_with_parser(text: &str) -> Result<bool, String> {
    let Some(json) = written(text) else { return Ok(false) };
    let written = serde_json::Deserializer::from_str(&json).into_iter::<serde_json::Value>();
    let written = written.collect::<Result<Vec<_>, _>>().map_err(|e| format!("wrote {json:?}: {e}"))?;
    match super::super::documents(text, "t") {
        Ok(parsed) => {
            let parsed: Vec<_> = parsed.into_iter().filter(|d| !d.is_null()).collect();
            if written == parsed { Ok(true) } else { Err(format!("wrote {written:?}, parsed {parsed:?}")) }
        }
        Err(_) if read(text.as_bytes(), "t").is_none() => Ok(false),
        Err(err) => Err(format!("refused by the parser ({err}), read by the rewrite")),
    }
}

/// Whether the fast path takes `text`; when it does, it holds what the parser reads.
fn same(text: &str) -> bool {
    agrees_with_parser(text).unwrap_or_else(|diff| panic!("{text:?}: {diff}"))
}

#[test]
fn every_fixture_is_within_the_subset_and_read_as_the_parser_reads_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (mut taken, mut all) = (0, 0);
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yaml") {
            all += 1;
            taken += usize::from(same(&std::fs::read_to_string(&path).unwrap()));
        }
    }
    assert!(all > 10 && taken == all, "{taken} of {all} fixtures taken");
}

#[test]
fn the_layouts_of_kubectl_and_of_saphyr_are_taken() {
    let texts = [
        // kubectl: sequences at their key's indentation.
        "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    labels:\n      a: b\n  spec: {}\nkind: List\nmetadata:\n  resourceVersion: \"\"\n",
        // Indented sequences, empty values, nested sequences of mappings.
        "a:\n  - x: 1\n    y:\n      - p\n      - q\n  -\n  - z: \nb: []\nc:\n",
        // Documents, comments, blank lines.
        "# head\n---\na: 1 \n\n  # indented comment\nb: 'x'\n---\n---\n- 1\n- - 2\n",
        // Block scalars and their chomping.
        "a: |\n  line 1\n\n   indented\n\nb: |-\n  x\nc: |+\n  y\n\n\nd: |\n\ne: x\nf:\n- |\n  in a sequence\n- last\n",
        "a: >-\n  folded\n  long text\nb:\n- >\n  one\n  two\n\n- >+\n  x\n\nc: >\n",
        "\"quoted key\": v\n'single': w\n\"k A\": 1\n",
        "é: ≤ Σ\nb: 'ü'\n",
    ];
    assert!(
        same(texts[0])
            && same(texts[1])
            && same(texts[3])
            && same(texts[4])
            && same(texts[5])
            && same(texts[6])
    );
    // `- - 2` is a nested sequence on one line: left to the parser.
    assert!(!same(texts[2]));
    assert!(same(&texts[2].replace("- - 2", "- 2")));
}

#[test]
fn block_scalars_are_read_by_the_parser_alone_whatever_their_rules() {
    for text in [
        "a: >\n  folded\n\n  paragraph\n",
        "a: >\n  x\n    more\n",
        "a: >\n\n  x\n",
        "a: |\n  x\n  \n",
        "a: |+\n\n\nb: 1\n",
        "- |-\n  # not a comment\n   x\n- b\n",
        "a: |\n  no line break at the end",
    ] {
        assert!(same(text), "{text:?}");
    }
    // An indentation indicator, and text less indented than the first line, stay the parser's.
    assert!(!same("a: |2\n   x\n"));
    assert!(!same("a:\n    b: |\n        x\n      y\n"));
}

#[test]
fn block_scalars_at_one_indentation_are_read_without_the_parser_as_it_reads_them() {
    // kubectl writes a long image name of a Node as `- >-` and one line.
    for text in [
        "a:\n- >-\n  registry.example/x@sha256:0123\n- b\n",
        "a: >\n  one\n  two\nb: 1\n",
        "a: >-\n  one \n  two\n",
        "a: |-\n  {\"x\": 1} \n  y\n",
    ] {
        assert!(same(text), "{text:?}");
    }
    assert_eq!(block::literal(">-\n  one\n  two\n").as_deref(), Some("one two"));
    assert_eq!(block::literal(">\n  one\n").as_deref(), Some("one\n"));
    assert_eq!(block::literal("|\n  one \n  two\n").as_deref(), Some("one \ntwo\n"));
    // Folding with a trailing space, a blank line or a deeper line: the parser's rules.
    for text in [">-\n  one \n  two\n", ">-\n  one\n\n  two\n", ">\n  one\n   two\n"] {
        assert_eq!(block::literal(text), None, "{text:?}");
    }
}

#[test]
fn anything_outside_the_subset_is_left_to_the_parser() {
    let outside = [
        "a: &x 1\nb: *x\n",
        // A key with an escape (another spelling of it could be the same key).
        "\"k\\x41\": 1\nkA: 2\n",
        "a: !!str 1\n",
        "a: {b: 1}\n",
        "a: [1, 2]\n",
        "a: |2\n   x\n",
        "a: plain\n  continued\n",
        "a: \"open\n  close\"\n",
        "a:\tb\n",
        "a: \u{85}\n",
        "\u{feff}a: 1\n",
        "a: 1.5\n",
        "? a\n: b\n",
        "%YAML 1.2\n---\na: 1\n",
        "a: 1\n...\n",
        "scalar\n",
        "a: b # comment\n",
        "a: 1\r\n",
        "<<: {a: 1}\n",
        "a:\n  b\n",
        "- a\n  b\n",
    ];
    for text in outside {
        assert!(transcode(text).is_none() || !same(text), "taken: {text:?}");
    }
    // No document: the rewrite writes no value, which the JSON reader refuses.
    for text in ["", "# only a comment\n", "\n\n"] {
        assert!(written(text).is_some_and(|json| json.trim().is_empty()), "{text:?}");
        assert!(read(text.as_bytes(), "t").is_none(), "{text:?}");
    }
}

#[test]
fn what_the_parser_refuses_is_never_read_by_the_fast_path() {
    for text in
        ["a: 1\na: 2\n", "- a: 1\n  b: 2\n  a: 3\n", "a:\n  b: 1\n  b: 1\n", "a: 1\n b: 2\n", "- a\nb: 1\n"]
    {
        assert!(!same(text), "{text:?}");
        assert!(read(text.as_bytes(), "t").is_none(), "{text:?}");
    }
}

#[test]
fn nesting_is_bounded_and_lines_are_bounded() {
    let deep: String = (0..MAX_NESTING + 1).map(|i| format!("{}k:\n", "  ".repeat(i))).collect();
    assert!(transcode(&deep).is_none());
    let long = format!("a: {}\n", "x".repeat(MAX_LINE));
    assert!(transcode(&long).is_none());
    let fits = format!("a: {}\n", "x".repeat(MAX_LINE - 4));
    assert_eq!(transcode(&fits).unwrap()[0]["a"].as_str().map(str::len), Some(MAX_LINE - 4));
}

/// JSON values made of what dumps hold (text, integers, booleans, null, nesting).
fn values() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        "[ -~]{0,12}".prop_map(Value::String),
        "\n?[a-z ]{0,6}(\n[a-z ]{0,6}){0,3}\n{0,2}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z./][a-zA-Z0-9./-]{0,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    /// Whatever serde-saphyr writes, the fast path reads as serde-saphyr reads it, or leaves it.
    #[test]
    fn what_saphyr_writes_reads_back_the_same(value in values()) {
        let text = serde_saphyr::to_string(&json!({ "root": value })).unwrap();
        same(&text);
    }
}

proptest! {
    /// Mappings whose keys repeat often, nested at random in a field of a Node that nothing reads
    /// (which the JSON reader skips unchecked): the fast path never reads a text the parser refuses
    /// (a key given twice in one mapping), and reads the others as it does.
    #[test]
    fn keys_given_twice_are_left_to_the_parser(
        lines in prop::collection::vec(("[ab]|'a'|\"b\"", 0..3usize, "[a-c1]{0,2}"), 1..8),
    ) {
        let x: String =
            lines.iter().map(|(key, depth, value)| format!("{}{key}: {value}\n", "  ".repeat(2 + depth))).collect();
        let node = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n    z: a\n";
        same(&format!("{node}x:\n{x}"));
    }
}

use proptest::prelude::*;
use serde_json::Value;

use super::*;

/// What serde-saphyr makes of `yaml` as the value of a key, with the reader's options.
fn saphyr(yaml: &str) -> Option<Value> {
    let text = format!("k: {yaml}\n");
    let options = crate::source::dump::yaml::options(&text);
    serde_saphyr::from_str_with_options::<Value>(&text, options).ok().map(|v| v["k"].clone())
}

/// What the fast path writes for `yaml`, read back as JSON; `None` when it leaves it to the parser.
fn fast(yaml: &str) -> Option<Value> {
    let mut out = Vec::new();
    let rest = match yaml.as_bytes().first() {
        Some(b'"' | b'\'') => quoted(yaml, &mut out).ok()?,
        _ => plain(yaml, &mut out).map(|()| "").ok()?,
    };
    if !rest.trim_start_matches(' ').is_empty() {
        // Text after a closing quote: the line is not a scalar of the subset.
        return None;
    }
    Some(serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{yaml:?} wrote {out:?}: {e}")))
}

/// Whenever the fast path takes a scalar, it reads it as the parser does.
fn same(yaml: &str) -> bool {
    match fast(yaml) {
        Some(got) => {
            assert_eq!(Some(got), saphyr(yaml), "{yaml:?}");
            true
        }
        None => false,
    }
}

#[test]
fn what_kubectl_writes_is_taken_and_read_as_the_parser_reads_it() {
    let taken = [
        "v1",
        "Node",
        "10.0.0.1",
        "4Gi",
        "100m",
        "0",
        "42",
        "-7",
        "65535",
        "true",
        "True",
        "FALSE",
        "null",
        "~",
        "NULL",
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "aws:///us-east-1a/i-0abc",
        "registry.k8s.io/pause:3.9",
        "/var/lib/kubelet",
        "a b c",
        "x#y",
        "k=v,w",
        "\"2026-11-24T10:00:00Z\"",
        "\"\"",
        "''",
        "'it''s'",
        "\"a\\\"b\\\\c\\n\\t\\/\"",
        "\"\\x41\\u00e9\\0\"",
        "\"\\e\\a\\v\"",
        "'\\n'",
        "\"with 'single'\"",
        "'with \"double\"'",
        "123456789012345678",
    ];
    for yaml in taken {
        assert!(same(yaml), "{yaml:?} left to the parser");
    }
}

#[test]
fn uncertain_scalars_are_left_to_the_parser() {
    let left = [
        "1.5",
        "1e3",
        "0x1F",
        "0o17",
        "0755",
        "007",
        "-0127",
        "08",
        "0b101",
        "1_000",
        "12:30",
        ".5",
        ".inf",
        "-.inf",
        ".nan",
        "inf",
        "NaN",
        "Infinity",
        "-0",
        "+1",
        "1234567890123456789",
        "-foo",
        "\"\\ud800\"",
        "\"open",
        "'open",
        "\"\\q\"",
    ];
    for yaml in left {
        assert!(fast(yaml).is_none(), "{yaml:?} taken as {:?}", fast(yaml));
    }
}

#[test]
fn escapes_json_lacks_are_read_by_the_parser_alone() {
    for yaml in ["\"\\N\"", "\"\\U0001F600\"", "\"a\\x41\\e\\0\\_b\"", "\"\\L\\P\""] {
        assert!(same(yaml), "{yaml:?}");
    }
}

#[test]
fn keys_are_taken_only_when_they_are_text_whatever_the_schema() {
    for key in ["apiVersion", "topology.kubernetes.io/zone", "a b", "10.0.0.1"] {
        let mut out = Vec::new();
        plain_key(key, &mut out).unwrap();
        assert_eq!(serde_json::from_slice::<String>(&out).unwrap(), key);
    }
    for key in ["null", "~", "true", "42", "1.5", "inf"] {
        assert!(plain_key(key, &mut Vec::new()).is_err(), "{key}");
    }
}

proptest! {
    /// Plain scalars made of what dumps hold: taken only when read as the parser reads them.
    #[test]
    fn plain_scalars_agree_with_the_parser(yaml in "[a-zA-Z0-9/~][-a-zA-Z0-9._/:~+=,@ ]{0,10}[a-zA-Z0-9._/~]?") {
        prop_assume!(!yaml.contains(" #") && !yaml.contains(": ") && !yaml.ends_with([':', ' ']));
        same(&yaml);
    }

    /// Quoted scalars with escapes: taken only when read as the parser reads them.
    #[test]
    fn quoted_scalars_agree_with_the_parser(inner in r##"([a-z '"#]|\\[\\"/bfnrt0aevxuNq ]|\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}){0,8}"##) {
        same(&format!("\"{inner}\""));
        same(&format!("'{}'", inner.replace('\'', "''")));
    }
}

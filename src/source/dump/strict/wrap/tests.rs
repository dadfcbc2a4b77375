use std::collections::BTreeMap;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use super::*;
use crate::source::dump::strict::{Check, MAX_DEPTH, Strict};

/// `text` decoded as `T` with the grammar applied at depth 0.
fn strict<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    T::deserialize(StrictDe::at(&mut de, 0)).map_err(|e| e.to_string())
}

/// `text` checked by the checking visitor at depth 0.
fn checked(text: &str) -> bool {
    Strict::<Check>::at(0).deserialize(&mut serde_json::Deserializer::from_str(text)).is_ok()
}

#[derive(Deserialize, Debug, PartialEq)]
struct Typed {
    name: Option<String>,
    labels: Option<BTreeMap<String, String>>,
    ports: Option<Vec<i32>>,
}

#[test]
fn decodes_as_without_it() {
    let text =
        r#"{"name": "n", "skipped": {"a": [1, 2.5, null, "\u00e9"]}, "labels": {"a": "b"}, "ports": [1, 2]}"#;
    assert_eq!(strict::<Typed>(text).unwrap(), serde_json::from_str::<Typed>(text).unwrap());
    assert_eq!(strict::<Value>(text).unwrap(), serde_json::from_str::<Value>(text).unwrap());
}

#[test]
fn refuses_what_the_checking_visitor_refuses_wherever_it_is() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    for text in [
        r#"{"name": "n", "name": "m"}"#.to_string(),
        r#"{"labels": {"a": "b", "a": "c"}}"#.to_string(),
        r#"{"skipped": {"x": {"a": 1, "a": 1}}}"#.to_string(),
        r#"{"skipped": [1e400]}"#.to_string(),
        r#"{"skipped": "\udfff"}"#.to_string(),
        format!(r#"{{"skipped": {}}}"#, deep(MAX_DEPTH)),
        format!(r#"{{"ports": {}}}"#, deep(MAX_DEPTH)),
    ] {
        assert!(!checked(&text), "{text}");
        assert!(strict::<Typed>(&text).is_err(), "{text}");
        assert!(strict::<IgnoredAny>(&text).is_err(), "{text}");
    }
    // The deepest nesting accepted is accepted here too.
    let deepest = format!(r#"{{"skipped": {}}}"#, deep(MAX_DEPTH - 1));
    assert!(checked(&deepest));
    assert!(strict::<Typed>(&deepest).is_ok());
}

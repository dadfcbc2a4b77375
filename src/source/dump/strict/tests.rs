use super::*;

fn tree(text: &str) -> Result<Value, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    Strict::<Tree>::at(0).deserialize(&mut de).and_then(|v| de.end().map(|()| v)).map_err(|e| e.to_string())
}

fn check(text: &str) -> Result<(), String> {
    let mut de = serde_json::Deserializer::from_str(text);
    Strict::<Check>::at(0).deserialize(&mut de).and_then(|()| de.end()).map_err(|e| e.to_string())
}

#[test]
fn both_builders_accept_and_refuse_the_same_text_at_the_same_place() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let cases = [
        (r#"{"a": [1, -2, 3.5, true, null, "x\u00e9"], "b": {}}"#.to_string(), None),
        (
            r#"{"a": 1, "b": 2, "a": 3}"#.to_string(),
            Some(r#"duplicate key "a" (an object names each key once) at line 1 column 20"#),
        ),
        (r#"{"a\u0062": 1, "ab": 2}"#.to_string(), Some(r#"duplicate key "ab""#)),
        (r#"{"n": 1e400}"#.to_string(), Some("number out of range at line 1 column 11")),
        (r#"{"s": "\ud800"}"#.to_string(), Some("unexpected end of hex escape at line 1 column 14")),
        (r#"{"s": "\ud800x"}"#.to_string(), Some("unexpected end of hex escape at line 1 column 14")),
        (deep(MAX_DEPTH), None),
        (deep(MAX_DEPTH + 1), Some("nested deeper than 64 levels at line 1 column 66")),
    ];
    for (text, error) in cases {
        let (tree, check) = (tree(&text), check(&text));
        assert_eq!(tree.as_ref().map(drop), check.as_ref().map(drop), "{text}");
        match error {
            None => assert_eq!(tree.unwrap(), serde_json::from_str::<Value>(&text).unwrap(), "{text}"),
            Some(error) => {
                let message = check.unwrap_err();
                assert!(message.starts_with(error), "{text}: {message}");
            }
        }
    }
}

#[test]
fn many_keys_are_checked_by_set() {
    let keys: Vec<String> = (0..100).map(|i| format!("\"k{i}\": {i}")).collect();
    let object = format!("{{{}}}", keys.join(", "));
    assert!(check(&object).is_ok());
    let again = format!("{{{}, \"k50\": 0}}", keys.join(", "));
    assert!(check(&again).unwrap_err().starts_with(r#"duplicate key "k50""#));
}

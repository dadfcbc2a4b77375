//! etcd's v3 API through its JSON gateway on the client URL (`POST /v3/kv/…`, keys base64): what
//! the fault tier does behind the apiserver's back — delete an object while the apiserver is down,
//! compact the history past every watch's resourceVersion. No `etcdctl` needed.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};

// `super`: the e2e crate's root here, xtask's `live` module (which includes both files) there.
use super::harness::b64;

/// `POST path` with a JSON body to the etcd at `url` (`http://127.0.0.1:PORT`): the JSON answer.
fn post(url: &str, path: &str, body: &Value) -> Value {
    let addr = url.strip_prefix("http://").expect("a plain http:// client URL");
    let mut stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("etcd at {url}: {e}"));
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let body = body.to_string();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap_or_else(|e| panic!("etcd {path}: {e}"));
    let (head, rest) = answer.split_once("\r\n\r\n").unwrap_or_else(|| panic!("etcd {path}: {answer}"));
    assert!(head.starts_with("HTTP/1.1 200"), "etcd {path} {body}: {answer}");
    // A chunked answer: the JSON object is between the first `{` and the last `}`.
    let json = rest.find('{').and_then(|a| rest.rfind('}').map(|b| &rest[a..=b])).unwrap_or(rest);
    serde_json::from_str(json).unwrap_or_else(|e| panic!("etcd {path}: {e}: {answer}"))
}

/// The end of the key range of every key that starts with `prefix` (its last byte plus one).
fn prefix_end(prefix: &str) -> Vec<u8> {
    let mut end = prefix.as_bytes().to_vec();
    *end.last_mut().expect("a non-empty prefix") += 1;
    end
}

/// Delete one key; whether it was there.
pub fn delete_key(url: &str, key: &str) -> bool {
    let answer = post(url, "/v3/kv/deleterange", &json!({"key": b64(key.as_bytes())}));
    answer["deleted"].as_str() == Some("1")
}

/// Delete every key under `prefix` (the apiserver's storage layout: `/registry/services/specs/NS/NAME`,
/// `/registry/endpointslices/NS/`, `/registry/minions/NAME`); how many went.
pub fn delete_prefix(url: &str, prefix: &str) -> u64 {
    let body = json!({"key": b64(prefix.as_bytes()), "range_end": b64(&prefix_end(prefix))});
    let answer = post(url, "/v3/kv/deleterange", &body);
    answer["deleted"].as_str().and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// Write `value` at `key` (a new revision of the store).
pub fn put(url: &str, key: &str, value: &str) {
    post(url, "/v3/kv/put", &json!({"key": b64(key.as_bytes()), "value": b64(value.as_bytes())}));
}

/// The store's current revision.
fn revision(url: &str) -> u64 {
    let answer = post(url, "/v3/kv/range", &json!({"key": b64(b"/registry/"), "count_only": true}));
    answer["header"]["revision"].as_str().and_then(|r| r.parse().ok()).expect("a revision")
}

/// Compact the history up to the current revision: a watch from any older resourceVersion is
/// answered "required revision has been compacted" (the apiserver's 410 Gone).
pub fn compact(url: &str) -> u64 {
    let now = revision(url);
    compact_at(url, now);
    now
}

/// Compact the history up to `revision` (at most the current one): a watch may start at
/// `revision` or later, not before.
pub fn compact_at(url: &str, revision: u64) {
    post(url, "/v3/kv/compaction", &json!({"revision": revision.to_string(), "physical": true}));
}

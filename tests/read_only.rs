//! Read-only by construction: (1) no write call anywhere in `src/` (kube write params, HTTP write
//! methods, raw write requests); (2) every command of the built binary, run against a recording
//! HTTP server on 127.0.0.1 that serves minimal valid responses, sends only GET requests.

use crate::support::apiserver::Recorder;
use crate::support::{path, topo};

/// What a write to the API server needs in kube-rs (params of every write verb, the Patch body,
/// write builders) or in a raw `http` request. `String::replace` is why `.replace(` is not listed:
/// kube's `Api::replace` needs `PostParams`, which is.
const WRITE_MARKERS: &[&str] = &[
    "PostParams",
    "PatchParams",
    "DeleteParams",
    "EvictParams",
    "Patch::",
    ".create(",
    ".patch(",
    ".delete(",
    ".delete_collection(",
    ".replace_status(",
    ".patch_status(",
    ".create_subresource(",
    ".replace_subresource(",
    ".patch_subresource(",
    "Method::POST",
    "Method::PUT",
    "Method::PATCH",
    "Method::DELETE",
    "Request::post(",
    "Request::put(",
    "Request::patch(",
    "Request::delete(",
    "\"POST\"",
    "\"PUT\"",
    "\"PATCH\"",
    "\"DELETE\"",
];

/// `file:line: marker` for every write marker in code (comments are not code).
fn write_calls(file: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for marker in WRITE_MARKERS.iter().filter(|m| is_call(code, m)) {
            found.push(format!("{file}:{}: {marker}", number + 1));
        }
    }
    found
}

/// `marker` in `code`; a method marker (`.create(`) not as struct-update syntax (`..create(`).
fn is_call(code: &str, marker: &str) -> bool {
    code.match_indices(marker).any(|(at, _)| !marker.starts_with('.') || !code[..at].ends_with('.'))
}

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable dir") {
        let p = entry.expect("entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn the_scanner_finds_write_calls() {
    let sample = "let _ = api.create(&PostParams::default(), &svc).await;\n\
                  // api.delete(name) in a comment is fine\n\
                  let r = http::Request::builder().method(http::Method::PATCH);\n\
                  let info = SliceInfo { ..create(vec![]) };";
    let found = write_calls("x.rs", sample);
    assert_eq!(found, ["x.rs:1: PostParams", "x.rs:1: .create(", "x.rs:3: Method::PATCH"]);
}

#[test]
fn no_write_call_in_the_source() {
    let mut files = Vec::new();
    rust_files(&path("src"), &mut files);
    assert!(files.len() > 20, "scanned only {} files", files.len());
    let found: Vec<String> = files
        .iter()
        .flat_map(|f| write_calls(&f.display().to_string(), &std::fs::read_to_string(f).unwrap()))
        .filter(|call| !is_review(call))
        .collect();
    assert!(found.is_empty(), "write calls in src/:\n{}", found.join("\n"));
}

/// `serve --auth=tokenreview` creates TokenReviews and SubjectAccessReviews: questions to the
/// apiserver that store nothing. They are allowed in src/serve/auth.rs only, and only on those two
/// types (every `Api::` of that file is one of them).
fn is_review(call: &str) -> bool {
    let auth = path("src/serve/auth.rs");
    let text = std::fs::read_to_string(&auth).unwrap();
    let reviews_only = text.match_indices("Api::<").all(|(at, _)| {
        let rest = &text[at + "Api::<".len()..];
        rest.starts_with("TokenReview>") || rest.starts_with("SubjectAccessReview>")
    });
    call.starts_with(&format!("{}:", auth.display())) && reviews_only
}

#[test]
fn every_command_sends_only_get_requests() {
    let server = Recorder::start();
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = server.kubeconfig(dir.path());
    let commands: &[&[&str]] = &[
        &["zones"],
        &["check", "-A"],
        &["check", "-n", "default", "-l", "app=web"],
        &["explain", "svc/web"],
        &["explain", "svc/missing"],
        &["simulate", "svc/web", "--replicas", "3"],
        &["dump", "-A"],
        &["dump", "-n", "default", "--redact"],
        &["dump", "-A", "-o", "json"],
        &["version"],
    ];
    let mut codes = Vec::new();
    for args in commands {
        let out = topo().args(*args).arg("--kubeconfig").arg(&kubeconfig).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        codes.push((args.join(" "), out.status.code(), stderr.lines().next().unwrap_or("").to_string()));
    }
    let log = server.requests();
    drop(server);
    // The exchange worked: the commands that need the Service found it through the server.
    for (command, code, first) in &codes {
        let expected = if command == "explain svc/missing" { Some(2) } else { Some(0) };
        assert_eq!(*code, expected, "{command}: {first}");
    }
    assert!(log.iter().any(|r| r.starts_with("GET /api/v1/nodes")), "{log:#?}");
    assert!(log.iter().any(|r| r.contains("/endpointslices")), "{log:#?}");
    let writes: Vec<&String> = log.iter().filter(|r| !r.starts_with("GET ")).collect();
    assert!(writes.is_empty(), "non-GET requests: {writes:#?}");
}

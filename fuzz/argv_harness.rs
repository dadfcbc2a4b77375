//! The argv fuzz target's harness, shared with the normal test suite (`tests/fuzz_corpus.rs`
//! replays `fuzz/corpus/argv/*` and `fuzz/regressions/argv/*` through [`argv`]).
//!
//! Fuzzer bytes pick a command line word by word from pools: every subcommand (the hidden
//! `__complete` and `__man` too), every flag, normal and hostile values (escapes, C1 controls,
//! bidi and zero-width characters, newlines, empty strings, huge numbers), and a few files: a small
//! dump, a missing path, `/dev/null`, a kubeconfig with a syntax error next to a token. The whole
//! CLI then runs in-process (`kubectl_topo::entry::run`, what `main` runs) into memory. It never
//! touches the network: a command line without a source gets `--kubeconfig MISSING`, no file
//! offered names a cluster, and the fuzz target also points `KUBECONFIG` at nothing. `-f -`
//! (stdin) is not offered.
//!
//! Asserted: no panic; the exit code is one of the documented 0–3; at most one `error:` line, and
//! one exactly when the exit code is 2 or 3 (except clap's own usage text for a bare command);
//! no raw control character (C0 but `\n`/`\t`, DEL, C1) on stderr, nor on stdout unless colour
//! was forced with `--color always`; with `-o json|yaml|sarif`, no raw hidden character at all on
//! stdout (bidi and format characters too); the planted token never printed.

use std::ffi::OsString;
use std::sync::Once;

use kubectl_topo::settings::Ambient;

const SUBCOMMANDS: &[&str] = &[
    "zones",
    "explain",
    "check",
    "simulate",
    "watch",
    "dump",
    "completion",
    "version",
    "__complete",
    "__man",
];
const FLAGS: &[&str] = &[
    "-n",
    "-A",
    "-l",
    "-o",
    "-f",
    "--from-file",
    "--kubeconfig",
    "--context",
    "--request-timeout",
    "--color",
    "--no-headers",
    "--k8s-version",
    "--fail-on",
    "--exit-code",
    "--traffic",
    "--replicas",
    "--spread",
    "--remove-node",
    "--remove-zone",
    "--not-ready",
    "--add-node",
    "--set-cpu",
    "--mode",
    "--redact",
    "-h",
    "--help",
    "--version",
    "--bogus",
    "--",
];
const VALUES: &[&str] = &[
    "web",
    "svc/web",
    "demo",
    "default",
    "a",
    "b",
    "zone-a",
    "node-a",
    "node-a=2",
    "zone=a,cpu=2",
    "json",
    "yaml",
    "sarif",
    "wide",
    "table",
    "never",
    "auto",
    "always",
    "drift",
    "any",
    "even",
    "a:2,b:1",
    "a=1,b=1e308",
    "1",
    "0",
    "-1",
    "99999999999999999999",
    "1e400",
    "1.36",
    "1.99",
    "Auto",
    "PreferSameZone",
    "none",
    "5s",
    "0",
    "app=web",
    "app!=web,tier in (a,b)",
    "bash",
    "zsh",
    "fish",
    "",
    " ",
    "x\u{1b}[2J",
    "x\u{9b}31m",
    "x\u{85}",
    "x\u{202e}y",
    "x\u{200b}",
    "x\ny",
    "x\r",
    "\u{7}",
    "\u{feff}",
    "ü",
    "\u{e0041}",
    "=",
    ",",
    "svc/",
    "a=",
    "=1",
];
const FILES: &[&str] =
    &["{dir}/dump.yaml", "{dir}/dump.json", "{dir}/kubeconfig", "{dir}/missing.yaml", "/dev/null", "{dir}"];
/// Planted in the kubeconfig offered: must never be printed.
pub const TOKEN: &str = "argv-fuzz-planted-token";

const DUMP: &str = r#"apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: node-a, labels: {topology.kubernetes.io/zone: a}}, status: {allocatable: {cpu: "4"}, conditions: [{type: Ready, status: "True"}]}}
- {apiVersion: v1, kind: Node, metadata: {name: node-b, labels: {topology.kubernetes.io/zone: b}}, status: {allocatable: {cpu: "2"}, conditions: [{type: Ready, status: "True"}]}}
- {apiVersion: v1, kind: Service, metadata: {name: web, namespace: default, annotations: {service.kubernetes.io/topology-mode: Auto}}, spec: {clusterIP: 10.96.0.10, selector: {app: web}, ports: [{port: 80}]}}
- {apiVersion: discovery.k8s.io/v1, kind: EndpointSlice, metadata: {name: web-1, namespace: default, labels: {kubernetes.io/service-name: web, endpointslice.kubernetes.io/managed-by: endpointslice-controller.k8s.io}}, addressType: IPv4, ports: [{port: 80}], endpoints: [{addresses: [10.0.0.1], conditions: {ready: true}, nodeName: node-a, zone: a}, {addresses: [10.0.0.2], conditions: {ready: true}, nodeName: node-b, zone: "b\e[2J\u202e\u2066\u200d\x9b"}]}
- {apiVersion: "x\e]0;t\a", kind: "Other\u202e", metadata: {name: o}}
"#;

/// The directory holding the files offered (created once per process).
fn files_dir() -> std::path::PathBuf {
    static SETUP: Once = Once::new();
    let dir = std::env::temp_dir().join(format!("kubectl-topo-argv-fuzz-{}", std::process::id()));
    SETUP.call_once(|| {
        std::fs::create_dir_all(&dir).expect("fuzz dir");
        std::fs::write(dir.join("dump.yaml"), DUMP).expect("dump");
        let json = r#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"n\u001b[2J","labels":{"topology.kubernetes.io/zone":"a\u0085"}},"status":{"allocatable":{"cpu":"1"}}}]}"#;
        std::fs::write(dir.join("dump.json"), json).expect("dump.json");
        let kubeconfig = format!("apiVersion: v1\nusers:\n- name: u\n  user:\n    token: {TOKEN}\n    bad: [\n");
        std::fs::write(dir.join("kubeconfig"), kubeconfig).expect("kubeconfig");
    });
    dir
}

/// Bytes → a command line (one word per byte pair: the pool, then the word). Unless it names a
/// source, `--kubeconfig MISSING` is added before any `--`: never the developer's cluster.
pub fn command_line(data: &[u8]) -> Vec<String> {
    let dir = files_dir().display().to_string();
    let mut words: Vec<String> = data
        .chunks(2)
        .take(12)
        .map(|pair| {
            let (kind, word) = (pair[0], usize::from(*pair.get(1).unwrap_or(&0)));
            let pool = match kind % 8 {
                0 | 1 => SUBCOMMANDS,
                2..=4 => FLAGS,
                5 | 6 => VALUES,
                _ => FILES,
            };
            pool[word % pool.len()].replace("{dir}", &dir)
        })
        .collect();
    if !words.iter().any(|w| ["-f", "--from-file", "--kubeconfig"].contains(&w.as_str())) {
        let at = words.iter().position(|w| w == "--").unwrap_or(words.len());
        words.splice(at..at, ["--kubeconfig".to_string(), format!("{dir}/missing-kubeconfig")]);
    }
    words
}

/// Run the command line of `data` in-process and check the invariants.
pub fn argv(data: &[u8]) {
    let words = command_line(data);
    let args: Vec<OsString> = words.iter().map(OsString::from).collect();
    let ambient = Ambient {
        stdout_is_tty: false,
        stderr_is_tty: false,
        no_color: false,
        term_dumb: false,
        cpus: 1,
        ..Ambient::default()
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = kubectl_topo::entry::run("kubectl-topo", &args, &ambient, &mut out, &mut err);
    let (stdout, stderr) = (String::from_utf8_lossy(&out), String::from_utf8_lossy(&err));
    let context = || format!("argv {words:?}\n--- stdout\n{stdout}\n--- stderr\n{stderr}");
    let code = status.code();
    assert!(code <= 3, "exit {code}: {}", context());
    let errors = stderr.lines().filter(|l| l.starts_with("error:")).count();
    assert!(errors <= 1, "{errors} error lines: {}", context());
    let bare_usage = stderr.starts_with("Usage:") || stderr.contains("\nUsage:");
    assert!(errors == 1 || code < 2 || bare_usage, "exit {code} without an error line: {}", context());
    assert!(errors == 0 || code >= 2, "an error line with exit {code}: {}", context());
    let raw = |text: &str| text.chars().find(|&c| c.is_control() && c != '\n' && c != '\t');
    assert_eq!(raw(&stderr), None, "raw control character on stderr: {}", context());
    if !words.iter().any(|w| w == "always") {
        assert_eq!(raw(&stdout), None, "raw control character on stdout: {}", context());
    }
    // `__complete` and `__man` speak their own protocols (tab-separated candidates, roff).
    let internal = words.iter().any(|w| w == "__complete" || w == "__man");
    let machine = !internal
        && words.windows(2).any(|w| w[0] == "-o" && matches!(w[1].as_str(), "json" | "yaml" | "sarif"));
    if machine {
        let hidden = stdout.chars().find(|&c| c != '\n' && kubectl_topo::is_hidden(c));
        assert_eq!(hidden, None, "raw hidden character in a machine format: {}", context());
    }
    assert!(!stdout.contains(TOKEN) && !stderr.contains(TOKEN), "token printed: {}", context());
}

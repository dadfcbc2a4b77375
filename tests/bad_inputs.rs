//! The bad-input catalogue: every case of `tests/bad-inputs/cases.yaml` runs the binary and checks
//! its exit code and message (see the header of that file for the format and the rules checked on
//! every case). Large inputs are generated into a temp dir here, never committed.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::support::{path, topo, topo_std};

mod rss;

mod terminal;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    #[serde(default)]
    input: Option<String>,
    #[serde(default)]
    args: Option<Vec<String>>,
    #[serde(default)]
    stdin: Option<String>,
    exit: i32,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    stdout: Vec<String>,
    #[serde(default)]
    stderr: Vec<String>,
    /// Peak resident memory of the child, in MiB, measured by the harness (`rss::run`).
    #[serde(default)]
    max_rss_mb: Option<u64>,
    // Terminal, secret and output cases (see `terminal`): files written into the case's own
    // directory (`{scratch}`), environment, a loopback API server (`{server}`), where stdout goes,
    // and substrings that must appear on neither stream (a planted token).
    #[serde(default)]
    files: BTreeMap<String, String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    server: Option<terminal::Answer>,
    #[serde(default)]
    output: Option<terminal::Sink>,
    #[serde(default)]
    absent: Vec<String>,
    /// Substrings that must NOT appear on stdout (an unescaped `<script>`, a raw control character).
    #[serde(default)]
    not_stdout: Vec<String>,
}

/// Every `cases*.yaml` of the catalogue directory, in file-name order (one file per class of bad
/// input, so that each class's cases stay together).
fn case_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(path("tests/bad-inputs"))
        .expect("tests/bad-inputs")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| is_case_file(&p.file_name().unwrap_or_default().to_string_lossy()))
        .collect();
    files.sort();
    files
}

fn is_case_file(name: &str) -> bool {
    name.starts_with("cases") && name.ends_with(".yaml")
}

fn cases() -> Vec<Case> {
    let mut all = Vec::new();
    for file in case_files() {
        let text = std::fs::read_to_string(&file).expect("case file");
        let cases: Vec<Case> =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{} parses: {e}", file.display()));
        all.extend(cases);
    }
    all
}

#[test]
fn catalogue_has_at_least_fifty_distinct_cases_and_every_file_is_used() {
    let cases = cases();
    assert!(cases.len() >= 50, "{} cases", cases.len());
    let mut names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(names.len(), before, "duplicate case names");
    let used: Vec<&str> =
        cases.iter().flat_map(|c| [c.input.as_deref(), c.stdin.as_deref()]).flatten().collect();
    for entry in std::fs::read_dir(path("tests/bad-inputs")).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        assert!(is_case_file(&file) || used.contains(&file.as_str()), "{file} is in no case");
    }
}

#[test]
fn every_bad_input_gives_its_documented_exit_code_and_one_clear_line() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let mut failures = String::new();
    let cases = cases();
    for case in &cases {
        if let Err(why) = run(case, scratch.path()) {
            let _ = writeln!(failures, "case {}: {why}\n", case.name);
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

fn run(case: &Case, scratch: &Path) -> Result<(), String> {
    let input = case.input.as_deref().map(|i| input_path(i, scratch));
    let input_text = input.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    let dir = terminal::prepare(&case.name, &case.files, scratch);
    let server = case.server.as_ref().map(terminal::Server::start);
    let fill = |text: &str| {
        let text = text.replace("{input}", &input_text).replace("{scratch}", &dir.display().to_string());
        text.replace("{server}", &server.as_ref().map(terminal::Server::url).unwrap_or_default())
    };
    if let Some(server) = &server {
        for file in case.files.keys() {
            let path = dir.join(file);
            let text = std::fs::read_to_string(&path).expect("case file");
            std::fs::write(&path, text.replace("{server}", &server.url())).expect("case file");
        }
    }
    let default_args = ["check", "-A", "-f", "{input}"].map(String::from).to_vec();
    let args: Vec<String> = case.args.clone().unwrap_or(default_args).iter().map(|a| fill(a)).collect();
    let env: Vec<(String, String)> = case.env.iter().map(|(k, v)| (k.clone(), fill(v))).collect();
    let stdin =
        case.stdin.as_ref().map(|f| std::fs::read(path("tests/bad-inputs").join(f)).expect("stdin file"));
    let cannot = |e: std::io::Error| format!("cannot run: {e}");
    let (out, peak_mb) = match (case.output, case.max_rss_mb) {
        (Some(sink), _) => (terminal::run_into(sink, &args, &env).map_err(cannot)?, 0),
        (None, Some(_)) => {
            let mut cmd = topo_std();
            cmd.args(&args).envs(env.iter().cloned());
            rss::run(cmd, stdin).map_err(cannot)?
        }
        (None, None) => {
            let mut cmd = topo();
            cmd.args(&args).envs(env.iter().cloned()).timeout(std::time::Duration::from_secs(120));
            if let Some(bytes) = stdin {
                cmd.write_stdin(bytes);
            }
            (cmd.output().map_err(cannot)?, 0)
        }
    };
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let shown = || format!("args {args:?}\n--- stdout\n{stdout}--- stderr\n{stderr}");
    let check = |ok: bool, what: &str| if ok { Ok(()) } else { Err(format!("{what}\n{}", shown())) };
    check(!stderr.contains("panicked"), "panicked")?;
    if let Some(bound) = case.max_rss_mb {
        check(peak_mb <= bound, &format!("peak RSS {peak_mb} MiB, above the bound of {bound} MiB"))?;
    }
    for (stream, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        if let Some(c) = terminal::control_character(text) {
            check(false, &format!("a raw control character {c:?} was printed on {stream}"))?;
        }
    }
    for secret in &case.absent {
        check(
            !stdout.contains(secret.as_str()) && !stderr.contains(secret.as_str()),
            &format!("{secret:?} shown"),
        )?;
    }
    check(
        out.status.code() == Some(case.exit),
        &format!("exit {:?}, expected {}", out.status.code(), case.exit),
    )?;
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    match (&case.error, case.exit) {
        (Some(expected), 2 | 3) => {
            let expected = fill(expected);
            check(errors.len() == 1, "expected exactly one `error:` line")?;
            check(errors[0].contains(&expected), &format!("the error line lacks {expected:?}"))?;
        }
        (None, 2 | 3) => return Err("a failing case must say which error it expects".to_string()),
        (Some(_), _) => return Err("`error` is for exit 2 and 3 only".to_string()),
        (None, _) => check(errors.is_empty(), "unexpected `error:` line")?,
    }
    for want in &case.stdout {
        check(stdout.contains(&fill(want)), &format!("stdout lacks {want:?}"))?;
    }
    for want in &case.stderr {
        check(stderr.contains(&fill(want)), &format!("stderr lacks {want:?}"))?;
    }
    for unwanted in &case.not_stdout {
        check(!stdout.contains(unwanted.as_str()), &format!("stdout contains {unwanted:?}"))?;
    }
    Ok(())
}

fn input_path(input: &str, scratch: &Path) -> PathBuf {
    match input.strip_prefix("generated:") {
        Some(kind) => {
            let file = scratch.join(format!("{kind}.yaml"));
            if !file.exists() && !generate_sparse(kind, &file) {
                std::fs::write(&file, generate(kind)).expect("write generated input");
            }
            file
        }
        // Relative, as a user would type it: the messages then show the file name as given.
        None => PathBuf::from("tests/bad-inputs").join(input),
    }
}

const LIST_HEADER: &str = "apiVersion: v1\nkind: List\nitems:\n";

fn node(name: &str, zone: &str) -> String {
    format!(
        "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: {name}\n    labels:\n      \
         topology.kubernetes.io/zone: {zone}\n  status:\n    allocatable:\n      cpu: \"4\"\n    \
         conditions:\n    - type: Ready\n      status: \"True\"\n"
    )
}

/// Inputs too big (or too repetitive) to commit.
fn generate(kind: &str) -> String {
    match kind {
        // 100 MB of comment lines, then a syntax error on the last line: read fast, located exactly.
        "big-100mb" => {
            let line = "# padding padding padding padding padding padding padding padding padding padding\n";
            let mut text = String::from(LIST_HEADER);
            text.push_str(&line.repeat(100 * 1024 * 1024 / line.len()));
            text.push_str("- kind: [unclosed\n");
            text
        }
        // A 40-line comment block before the items (the YAML reader once gave up after 32).
        "long-comment-block" => {
            let comments: String = (0..40).map(|i| format!("# comment {i}\n")).collect();
            format!("{LIST_HEADER}{comments}{}{}", node("node-a", "a"), node("node-b", "b"))
        }
        // Block sequences nested 100,000 deep on one line: `- - - … x`.
        "deep-yaml" => format!("{}x\n", "- ".repeat(100_000)),
        "deep-yaml-maps" => {
            let mut text = String::from("apiVersion: v1\nkind: Node\nmetadata:\n  name: deep\n  x:\n");
            for depth in 2..80 {
                let _ = writeln!(text, "{}x:", "  ".repeat(depth));
            }
            text
        }
        "deep-json" => format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
        // An interrupted `kubectl get -o json > dump.json`: 30 MB of Nodes, cut inside one.
        "truncated-json-30mb" => {
            let mut text = json_nodes(30 << 20);
            text.truncate(text.len() - 1000);
            text
        }
        // One string of 70 MB: larger than any Kubernetes object.
        "json-value-70mb" => {
            format!(r#"{{"apiVersion": "v1", "kind": "List", "items": ["{}"]}}"#, "x".repeat(70 << 20))
        }
        "slice-1001-endpoints" => slice_with_endpoints(1001),
        "zones-10000" => zones(10_000, 1, false),
        "zones-1000" => zones(1_000, 1, false),
        "zones-1001" => zones(1_001, 1, false),
        "services-40-zones-500" => zones(500, 40, true),
        other => panic!("unknown generator {other}"),
    }
}

/// A JSON List of about `bytes` of Nodes, as `kubectl get -o json` writes it.
fn json_nodes(bytes: usize) -> String {
    let mut text = String::from("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n");
    let mut i = 0;
    while text.len() < bytes {
        let _ = write!(
            text,
            "{}        {{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {{\"name\": \"node-{i}\", \
             \"labels\": {{\"topology.kubernetes.io/zone\": \"zone-{}\"}}}}, \"status\": {{\"allocatable\": \
             {{\"cpu\": \"4\"}}, \"conditions\": [{{\"type\": \"Ready\", \"status\": \"True\"}}]}}}}",
            if i == 0 { "" } else { ",\n" },
            i % 3
        );
        i += 1;
    }
    text.push_str("\n    ],\n    \"kind\": \"List\"\n}\n");
    text
}

/// One EndpointSlice with `n` endpoints (the API allows 1000), its Service and a Node.
fn slice_with_endpoints(n: usize) -> String {
    let mut text = format!("{LIST_HEADER}{}", node("node-a", "a"));
    text.push_str(
        "- apiVersion: v1\n  kind: Service\n  metadata: {name: web, namespace: default}\n  spec:\n    \
         selector: {app: web}\n    ports: [{port: 80}]\n- apiVersion: discovery.k8s.io/v1\n  kind: EndpointSlice\n  \
         metadata:\n    name: web-1\n    namespace: default\n    labels: {kubernetes.io/service-name: web}\n  \
         addressType: IPv4\n  endpoints:\n",
    );
    for i in 0..n {
        let _ = writeln!(
            text,
            "  - {{addresses: [\"10.1.{}.{}\"], zone: a, nodeName: node-a}}",
            i / 256,
            i % 256
        );
    }
    text
}

/// Inputs larger than a limit, as sparse files (instant, no disk used): a text start, then holes.
fn generate_sparse(kind: &str, file: &Path) -> bool {
    let (start, len) = match kind {
        "yaml-600mb" => ("# a comment line of a large YAML dump\n".repeat(2000), 600 << 20),
        "json-5gb" => (format!("{{\"apiVersion\": \"v1\", \"items\": [{}", " ".repeat(70_000)), 5 << 30),
        _ => return false,
    };
    std::fs::write(file, start).expect("write generated input");
    std::fs::OpenOptions::new().write(true).open(file).and_then(|f| f.set_len(len)).expect("extend");
    true
}

/// One Ready node per zone, and `services` Auto Services with one endpoint in each zone, each
/// hinted for its own zone (what the controller writes) when `hinted`, else none yet.
fn zones(n: usize, services: usize, hinted: bool) -> String {
    let mut text = String::from(LIST_HEADER);
    for i in 0..n {
        text.push_str(&node(&format!("node-{i}"), &format!("zone-{i:05}")));
    }
    for k in 0..services {
        let name = if k == 0 { "web".to_string() } else { format!("web-{k}") };
        auto_service(&mut text, &name, k, n, hinted);
    }
    text
}

/// Service `name` (the `k`th) and its slices: one ready endpoint on each of the `n` nodes, in the
/// block style `kubectl get -o yaml` writes (the memory bounds are about the zones, not about YAML
/// outside kubectl's style, which is parsed whole). The port is named as the controller names it,
/// so kube-proxy routes to the endpoints (a slice port without a name is one it skips).
fn auto_service(text: &mut String, name: &str, k: usize, n: usize, hinted: bool) {
    let _ = write!(
        text,
        "- apiVersion: v1\n  kind: Service\n  metadata:\n    name: {name}\n    namespace: default\n    \
         annotations:\n      service.kubernetes.io/topology-mode: Auto\n  spec:\n    clusterIP: \
         10.96.{}.{}\n    selector:\n      app: {name}\n    ports:\n    - name: http\n      port: 80\n",
        k / 250,
        k % 250 + 1
    );
    for (s, chunk) in (0..n).collect::<Vec<_>>().chunks(1000).enumerate() {
        let _ = write!(
            text,
            "- apiVersion: discovery.k8s.io/v1\n  kind: EndpointSlice\n  metadata:\n    name: {name}-{s}\n    \
             namespace: default\n    labels:\n      kubernetes.io/service-name: {name}\n      \
             endpointslice.kubernetes.io/managed-by: endpointslice-controller.k8s.io\n  addressType: IPv4\n  \
             ports:\n  - name: http\n    port: 80\n  endpoints:\n"
        );
        for i in chunk {
            let _ = write!(
                text,
                "  - addresses:\n    - 10.{k}.{}.{}\n    conditions:\n      ready: true\n    nodeName: node-{i}\n    \
                 zone: zone-{i:05}\n",
                i / 256,
                i % 256
            );
            if hinted {
                let _ = writeln!(text, "    hints:\n      forZones:\n      - name: zone-{i:05}");
            }
        }
    }
}

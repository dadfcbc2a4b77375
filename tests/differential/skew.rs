//! Skewed clusters (docs/behaviour.md#skewed-clusters): the controller runs at the control plane's
//! version and kube-proxy at each node's, its kubelet's (`status.nodeInfo.kubeletVersion`). A case
//! whose Nodes report kubelets older than its `k8sVersion` is proved against several oracle lines:
//! the controller and the other nodes' kube-proxy by the control plane's line, each older node's
//! kube-proxy by the line of its own minor, run on the same dump with `k8sVersion` set to that
//! minor (an older kube-proxy decodes the newer objects and drops the fields its API lacks, as
//! that line's decoder does).
//!
//! The generated skewed cases are the 1.33 line's (`gen --versions 33`) with every third Node's
//! kubelet at v1.30.14, every third at v1.32.13 and the rest at the control plane's v1.33.13:
//! a control plane three minors ahead of some nodes, as the version skew policy allows.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;
use topo_engine::model::version::{kube_proxy_on_node, release_of};

use super::compare::OracleResult;
use super::lines::Line;

/// Kubelet versions given to the Nodes of a generated case, in turn.
const KUBELETS: [&str; 3] = ["v1.30.14", "v1.32.13", "v1.33.13"];

/// The skewed nodes of a case: node name → the minor (`1.NN`) its kube-proxy runs. Empty when the
/// case names no version or no Node runs older than it.
pub fn skewed_nodes(case: &Value) -> BTreeMap<String, String> {
    let Ok(control_plane) = super::behaviour_of(case) else {
        return BTreeMap::new();
    };
    let items = case["dump"]["items"].as_array().into_iter().flatten();
    items
        .filter(|item| item["kind"] == "Node")
        .filter_map(|node| {
            let kubelet = node["status"]["nodeInfo"]["kubeletVersion"].as_str().and_then(release_of);
            let at = kube_proxy_on_node(control_plane, kubelet)?;
            Some((node["metadata"]["name"].as_str()?.to_string(), format!("1.{}", at.minor)))
        })
        .collect()
}

/// The case as the line of `version` runs it.
fn retargeted(case: &Value, version: &str) -> Value {
    let mut c = case.clone();
    c["k8sVersion"] = Value::String(version.to_string());
    c
}

/// Gives the Nodes of `case` kubelet versions from [`KUBELETS`], in turn.
fn with_kubelets(case: &Value) -> Value {
    let mut c = case.clone();
    let items = c["dump"]["items"].as_array_mut().into_iter().flatten();
    for (i, node) in items.filter(|item| item["kind"] == "Node").enumerate() {
        node["status"]["nodeInfo"]["kubeletVersion"] = Value::String(KUBELETS[i % KUBELETS.len()].into());
    }
    c["id"] = Value::String(format!("{}-skewed", c["id"].as_str().unwrap_or("case")));
    c
}

/// The oracle's answer for a skewed case: the control plane line's `primary`, with each skewed
/// node's kube-proxy cells from the result of that node's minor in `by_version`. When a node's line
/// could not answer for kube-proxy (`proxy: null`, README "Output"), nothing of kube-proxy is compared.
pub fn merged(
    primary: &OracleResult,
    skewed: &BTreeMap<String, String>,
    by_version: &BTreeMap<String, OracleResult>,
) -> OracleResult {
    let mut out = primary.clone();
    let Some(proxy) = out.proxy.as_mut() else {
        return out;
    };
    for (family, nodes) in proxy.iter_mut() {
        for (node, version) in skewed {
            let theirs = by_version.get(version).and_then(|r| r.proxy.as_ref());
            let Some(theirs) = theirs else {
                out.proxy = None;
                return out;
            };
            match theirs.get(family).and_then(|f| f.get(node)) {
                Some(cell) => nodes.insert(node.clone(), cell.clone()),
                None => nodes.remove(node),
            };
        }
    }
    out
}

/// Runs `cases` (JSON Lines) through `line`'s batch mode; one result per case, in order.
fn batch(line: Line, cases: &[Value], runs: Option<&str>) -> Vec<OracleResult> {
    let mut input = tempfile::NamedTempFile::new().expect("temp file");
    for case in cases {
        writeln!(input, "{case}").expect("write cases");
    }
    let mut cmd = Command::new(line.bin());
    cmd.args(["--jobs", "2", "--adaptive-runs"]);
    if let Some(runs) = runs {
        cmd.args(["--runs", runs]);
    }
    let file = std::fs::File::open(input.path()).expect("reopen cases");
    let out = cmd.stdin(file).stderr(Stdio::inherit()).output().expect("oracle batch runs");
    assert!(out.status.success(), "the {} oracle failed on a skewed case: {}", line.arg(), out.status);
    let text = String::from_utf8(out.stdout).expect("UTF-8 results");
    text.lines().map(|l| serde_json::from_str(l).expect("result JSON")).collect()
}

/// The comparison of skewed `cases` with every line they need; one error list per case.
pub fn check_all(cases: &[Value], runs: Option<&str>) -> Vec<Vec<String>> {
    let primary_line = |case: &Value| Line::for_version(case["k8sVersion"].as_str().unwrap_or(""));
    let skewed: Vec<BTreeMap<String, String>> = cases.iter().map(skewed_nodes).collect();
    let versions: BTreeSet<&String> = skewed.iter().flat_map(|s| s.values()).collect();
    // One batch per line: the control plane's lines, then each minor some node runs.
    let mut answers: BTreeMap<(usize, String), OracleResult> = BTreeMap::new();
    let mut jobs: Vec<(Line, String, Vec<usize>)> = Vec::new();
    for line in cases.iter().map(primary_line).collect::<BTreeSet<_>>() {
        let picked = (0..cases.len()).filter(|&i| primary_line(&cases[i]) == line).collect();
        jobs.push((line, String::new(), picked));
    }
    for version in versions {
        let picked = (0..cases.len()).filter(|&i| skewed[i].values().any(|v| v == version)).collect();
        jobs.push((Line::for_version(version), version.clone(), picked));
    }
    for (line, version, picked) in jobs {
        let input: Vec<Value> = picked
            .iter()
            .map(|&i| if version.is_empty() { cases[i].clone() } else { retargeted(&cases[i], &version) })
            .collect();
        for (&i, result) in picked.iter().zip(batch(line, &input, runs)) {
            answers.insert((i, version.clone()), result);
        }
    }
    (0..cases.len())
        .map(|i| {
            let by_version: BTreeMap<String, OracleResult> =
                skewed[i].values().map(|v| (v.clone(), answers[&(i, v.clone())].clone())).collect();
            let oracle = merged(&answers[&(i, String::new())], &skewed[i], &by_version);
            super::check(&cases[i], &oracle)
        })
        .collect()
}

/// `count` generated 1.33 cases from `start`, their Nodes' kubelets skewed ([`KUBELETS`]).
pub fn generated(seed: u64, start: u64, count: u64) -> Vec<Value> {
    let out = Command::new(Line::V136.bin())
        .args(["gen", "--seed", &seed.to_string(), "--start", &start.to_string()])
        .args(["--count", &count.to_string(), "--versions", "33"])
        .stderr(Stdio::null())
        .output()
        .expect("oracle gen");
    let text = String::from_utf8(out.stdout).expect("UTF-8 cases");
    text.lines().map(|l| with_kubelets(&serde_json::from_str(l).expect("case JSON"))).collect()
}

/// Mismatches of generated skewed cases, each confirmed with `confirm_runs` and written under
/// `dir` with its replay command (not shrunk: shrinking runs one line).
pub fn mismatches(cases: &[Value], confirm_runs: &str, dir: &Path) -> Vec<String> {
    let first = check_all(cases, None);
    let suspects: Vec<Value> =
        cases.iter().zip(&first).filter(|(_, e)| !e.is_empty()).map(|(c, _)| c.clone()).collect();
    if suspects.is_empty() {
        return vec![];
    }
    std::fs::create_dir_all(dir).expect("mismatch dir");
    let confirmed = check_all(&suspects, Some(confirm_runs));
    suspects
        .iter()
        .zip(confirmed)
        .filter(|(_, errors)| !errors.is_empty())
        .map(|(case, errors)| {
            let file = dir.join(format!("{}.json", case["id"].as_str().unwrap_or("case").replace('/', "_")));
            super::write_case(&file, case);
            format!(
                "MISMATCH (skewed) {}\n  {}\n  replay: ORACLE_REPLAY={} cargo test --features differential --test differential -- --nocapture",
                file.display(),
                errors.join("\n  "),
                file.display()
            )
        })
        .collect()
}

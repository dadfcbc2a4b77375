//! Hermetic command builder and fixture helpers shared by the integration tests.

pub mod apiserver;
pub mod dump;
pub mod model;

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A path under the repository root.
pub fn path(relative: &str) -> PathBuf {
    root().join(relative)
}

/// `${XDG_CACHE_HOME:-~/.cache}/NAME`: where tools the tests install are kept.
#[allow(dead_code, reason = "used by the consumers tier, not the hermetic one")]
pub fn cache_dir(name: &str) -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME is set")).join(".cache"));
    base.join(name)
}

/// The bundled example dump.
pub fn demo() -> PathBuf {
    path("examples/demo-cluster.yaml")
}

/// What [`topo`] removes from the environment: the developer's cluster and terminal settings.
pub const CLEARED_ENV: [&str; 14] = [
    "KUBECONFIG",
    "NO_COLOR",
    "TERM",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "HOME",
    "COLORTERM",
    "KUBERNETES_SERVICE_HOST",
    // The locale decides block characters vs ASCII in the zone bar.
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    // The config file of `check` (the flag, then these).
    "XDG_CONFIG_HOME",
    "KUBECTL_TOPO_CONFIG",
    // Prose wraps at COLUMNS: the README's examples are unwrapped.
    "COLUMNS",
];

/// `kubectl-topo` with an environment that cannot leak the developer's cluster or terminal settings.
pub fn topo() -> Command {
    Command::from(topo_std())
}

/// [`topo`] as a `std::process::Command` (for tests that spawn and wait for it themselves).
pub fn topo_std() -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("kubectl-topo"));
    for var in CLEARED_ENV {
        cmd.env_remove(var);
    }
    cmd.current_dir(root());
    cmd
}

/// Run and parse stdout as JSON, asserting the exit code.
pub fn json(args: &[&str], code: i32) -> serde_json::Value {
    let out = topo().args(args).args(["-o", "json"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(code), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

/// Set by scripts/test-all.sh: every tier runs in full there (as under `CI=true`), so a test that
/// cannot run fails instead of skipping.
#[allow(dead_code, reason = "used by the gated tests of other tiers, not the hermetic one")]
pub const TEST_ALL: &str = "KUBECTL_TOPO_TEST_ALL";

/// Says loudly that `test` did not run: `SKIPPED: <test>: <why>` on stderr, written past the test
/// harness's capture so that a passing run shows it.
#[allow(dead_code, reason = "used by the gated tests of other tiers, not the hermetic one")]
pub fn say_skipped(test: &str, why: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {test}: {why}");
}

/// `test` cannot run on this machine (what it needs is missing): [`say_skipped`], or a failure
/// where every test must run (`CI=true`, or [`TEST_ALL`] set to anything but empty or `0`).
#[allow(dead_code, reason = "used by the gated tests of other tiers, not the hermetic one")]
pub fn cannot_run(test: &str, why: &str) {
    let set = |name: &str| std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
    assert!(
        !(set("CI") || set(TEST_ALL)),
        "{test} cannot run: {why} (CI or {TEST_ALL} is set: nothing may be skipped)"
    );
    say_skipped(test, why);
}

/// Text of a fixture file.
pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `check -A -f DUMP -o FORMAT ARGS…` → (exit code, stdout); no `error:` on stderr.
pub fn report(dump: &Path, format: &str, args: &[&str]) -> (i32, String) {
    let out = topo()
        .args(["check", "-A", "-f", &dump.display().to_string(), "-o", format])
        .args(args)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("error:"), "{stderr}");
    (out.status.code().unwrap(), String::from_utf8(out.stdout).expect("UTF-8"))
}

/// `text` in a temporary file (deleted when dropped).
pub fn temp_file(text: &str) -> tempfile::NamedTempFile {
    use std::io::Write as _;
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    file
}

/// What `kubectl topo dump EXTRA -A -o json -f PATH` writes (it must succeed).
pub fn dump_json(path: &Path, extra: &[&str]) -> String {
    let out = topo().arg("dump").args(extra).args(["-A", "-o", "json", "-f"]).arg(path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

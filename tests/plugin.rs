//! The plugin as users get it, proved with the real tools: krew's own validator accepts
//! `krew/topo.yaml`; real krew installs the linux/amd64 archive `scripts/dist.sh` builds (static
//! musl, tests/dist.rs builds it once per run) into a throwaway `KREW_ROOT`; a real kubectl (1.36) lists, runs
//! and completes the plugin through `completions/kubectl_complete-topo`; the committed completion
//! scripts are what the parser generates.
//!
//! kubectl, krew and validate-krew-manifest are built from the Go module proxy by
//! `tests/plugin/build-tools.sh` (once, cached outside the repository). Every command runs with a
//! cleared environment: its own HOME and KREW_ROOT, and a PATH of the temp krew bin, the tools and
//! the system directories only.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use tempfile::TempDir;

use crate::support::{demo, path, root};

/// The directory holding kubectl, krew and validate-krew-manifest (built on first use).
pub(crate) fn tools() -> &'static Path {
    static TOOLS: OnceLock<PathBuf> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let out = Command::new("bash")
            .arg(path("tests/plugin/build-tools.sh"))
            .stderr(Stdio::inherit())
            .output()
            .expect("bash runs tests/plugin/build-tools.sh (needs Go >= 1.26)");
        assert!(out.status.success(), "tests/plugin/build-tools.sh failed (see stderr above)");
        PathBuf::from(String::from_utf8(out.stdout).expect("UTF-8 path").trim())
    })
}

fn topo_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_kubectl-topo"))
}

/// A throwaway home for kubectl and krew.
struct Sandbox {
    dir: TempDir,
}

impl Sandbox {
    /// `bin/` holds `kubectl` and `kubectl-krew` (krew runs as a kubectl plugin) plus `extra`
    /// links (name → target).
    fn new(extra: &[(&str, &Path)]) -> Sandbox {
        let dir = tempfile::Builder::new().prefix("kubectl-topo-plugin-").tempdir().expect("temp dir");
        for sub in ["home", "krew", "bin"] {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
        }
        let sandbox = Sandbox { dir };
        let links = [("kubectl", tools().join("kubectl")), ("kubectl-krew", tools().join("krew"))];
        for (name, target) in links.iter().map(|(n, t)| (*n, t.as_path())).chain(extra.iter().copied()) {
            std::os::unix::fs::symlink(target, sandbox.bin().join(name)).unwrap();
        }
        sandbox
    }

    fn bin(&self) -> PathBuf {
        self.dir.path().join("bin")
    }

    fn krew_root(&self) -> PathBuf {
        self.dir.path().join("krew")
    }

    /// `program` with only HOME, KREW_ROOT and PATH set, run from the repository root.
    fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let path =
            format!("{}:{}:/usr/bin:/bin", self.krew_root().join("bin").display(), self.bin().display());
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .env("HOME", self.dir.path().join("home"))
            .env("KREW_ROOT", self.krew_root())
            .env("KREW_NO_UPGRADE_CHECK", "1")
            .env("PATH", path)
            .current_dir(root())
            .stdin(Stdio::null());
        cmd
    }

    fn kubectl(&self, args: &[&str]) -> Output {
        self.command(self.bin().join("kubectl")).args(args).output().expect("kubectl runs")
    }
}

/// `out`'s stdout, after asserting the command succeeded (its streams shown when not).
pub(crate) fn ok(what: &str, out: Output) -> String {
    assert!(
        out.status.success(),
        "{what}: {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 stdout")
}

fn validate(sandbox: &Sandbox, manifest: &Path) {
    let validator = tools().join("validate-krew-manifest");
    let out =
        sandbox.command(validator).arg("-manifest").arg(manifest).arg("-skip-install").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    ok(&format!("validate-krew-manifest {}", manifest.display()), out);
    for step in ["structural validation OK", "all spec.platform[] items are used", "no overlapping"] {
        assert!(stderr.contains(step), "validator did not report {step:?}:\n{stderr}");
    }
}

#[test]
fn krew_manifest_is_accepted_by_krews_validator() {
    let sandbox = Sandbox::new(&[]);
    validate(&sandbox, &path("krew/topo.yaml"));
    let manifest = std::fs::read_to_string(path("krew/topo.yaml")).unwrap();
    let version = format!("v{}", env!("CARGO_PKG_VERSION"));
    assert!(manifest.contains(&format!("\n  version: {version}\n")), "spec.version is not {version}");
    assert!(manifest.contains(&format!("store/topo/{version}/completions")), "caveats name another version");
    for (os, arch) in [
        ("linux", "amd64"),
        ("linux", "arm64"),
        ("darwin", "amd64"),
        ("darwin", "arm64"),
        ("windows", "amd64"),
    ] {
        let archive = format!("/kubectl-topo_{version}_{os}_{arch}.tar.gz\n");
        assert!(manifest.contains(&archive), "no platform entry for {os}/{arch}");
    }
    assert_eq!(manifest.matches("      - from: LICENSE\n").count(), 5, "every platform installs LICENSE");
}

#[test]
fn krew_installs_the_local_archive_and_kubectl_runs_the_plugin() {
    let sandbox = Sandbox::new(&[]);
    // The linux/amd64 release archive (static musl) and the manifest scripts/dist.sh filled in
    // (file:// uri and sha256), as tests/dist.rs builds them once per run.
    let dist = crate::dist::archives();
    let archive = dist.join(format!("kubectl-topo_v{}_linux_amd64.tar.gz", env!("CARGO_PKG_VERSION")));
    let manifest = dist.join("topo.yaml");
    validate(&sandbox, &manifest);

    let install = format!("--manifest={}", manifest.display());
    let archive_flag = format!("--archive={}", archive.display());
    let out = sandbox.kubectl(&["krew", "install", &install, &archive_flag]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    ok("kubectl krew install", out);
    assert!(said.contains("Installed plugin: topo") && said.contains("kubectl_complete-topo"), "{said}");

    let store = sandbox.krew_root().join(format!("store/topo/v{}", env!("CARGO_PKG_VERSION")));
    for file in [
        "kubectl-topo",
        "LICENSE",
        "man/kubectl-topo.1",
        "man/kubectl-topo-check.1",
        "completions/kubectl_complete-topo",
        "completions/kubectl-topo.bash",
    ] {
        assert!(store.join(file).is_file(), "{file} not installed into {}", store.display());
    }
    let linked = sandbox.krew_root().join("bin/kubectl-topo");
    assert_eq!(std::fs::read_link(&linked).unwrap(), store.join("kubectl-topo"), "krew links the binary");

    let listed = ok("kubectl plugin list", sandbox.kubectl(&["plugin", "list"]));
    assert!(
        listed.contains(&linked.display().to_string()),
        "kubectl plugin list misses the plugin:\n{listed}"
    );

    let help = ok("kubectl topo --help", sandbox.kubectl(&["topo", "--help"]));
    assert!(help.contains("Usage: kubectl topo"), "{help}");

    // The product, through kubectl: the same bytes as the binary run directly, no colour in a pipe.
    let demo = demo().display().to_string();
    let zones = ok("kubectl topo zones", sandbox.kubectl(&["topo", "zones", "--from-file", &demo]));
    let direct = ok(
        "kubectl-topo zones",
        sandbox.command(topo_binary()).args(["zones", "-f", &demo]).output().unwrap(),
    );
    assert_eq!(zones, direct);
    assert!(zones.starts_with("ZONE ") && zones.contains("us-east-1a"), "{zones}");
    assert!(!zones.contains('\u{1b}'), "ANSI codes in piped output");
    // kubectl passes the plugin's exit code through (1 = findings at or above --fail-on).
    let check = sandbox.kubectl(&["topo", "check", "-A", "-f", &demo, "--fail-on", "blocked"]);
    assert_eq!(check.status.code(), Some(1), "{}", String::from_utf8_lossy(&check.stderr));

    // The caveats' completion step: link the helper from the store into krew's bin.
    std::os::unix::fs::symlink(
        store.join("completions/kubectl_complete-topo"),
        sandbox.krew_root().join("bin/kubectl_complete-topo"),
    )
    .unwrap();
    let reply = ok("kubectl __complete topo", sandbox.kubectl(&["__complete", "topo", ""]));
    assert!(reply.lines().any(|l| l.starts_with("zones\t")) && reply.ends_with(":4\n"), "{reply}");
}

/// A sandbox where kubectl finds the freshly built plugin and the repository's completion helper.
fn completion_sandbox() -> Sandbox {
    let helper = path("completions/kubectl_complete-topo");
    Sandbox::new(&[("kubectl-topo", &topo_binary()), ("kubectl_complete-topo", &helper)])
}

/// `kubectl __complete topo WORDS…` → (candidates, directive line).
fn kubectl_complete(sandbox: &Sandbox, words: &[&str]) -> (Vec<String>, String) {
    let out = ok("kubectl __complete", sandbox.kubectl(&[&["__complete", "topo"], words].concat()));
    let mut lines: Vec<String> = out.lines().map(String::from).collect();
    let directive = lines.pop().expect("a directive line");
    (lines, directive)
}

fn names(candidates: &[String]) -> Vec<&str> {
    candidates.iter().map(|c| c.split('\t').next().unwrap()).collect()
}

#[test]
fn kubectl_completes_the_plugin_in_cobras_format() {
    let sandbox = completion_sandbox();
    let version = ok("kubectl version", sandbox.kubectl(&["version", "--client"]));
    assert!(version.contains("Client Version: v1.36."), "not the kubectl built for the tests: {version}");

    let (subcommands, directive) = kubectl_complete(&sandbox, &[""]);
    assert_eq!(
        names(&subcommands),
        [
            "zones",
            "explain",
            "check",
            "dump",
            "simulate",
            "watch",
            "serve",
            "reasons",
            "completion",
            "version",
            "help"
        ]
    );
    assert_eq!(directive, ":4", "ShellCompDirectiveNoFileComp");
    assert!(
        subcommands[0].starts_with("zones\tZone CPU weights"),
        "descriptions after a tab: {subcommands:?}"
    );

    let (flags, _) = kubectl_complete(&sandbox, &["check", "--fail"]);
    assert_eq!(names(&flags), ["--fail-on"]);
    let (values, _) = kubectl_complete(&sandbox, &["check", "-o", ""]);
    assert_eq!(
        names(&values),
        [
            "table",
            "wide",
            "json",
            "yaml",
            "html",
            "dot",
            "mermaid",
            "markdown",
            "junit",
            "sarif",
            "name",
            "jsonpath="
        ]
    );

    let demo = demo().display().to_string();
    let (services, directive) = kubectl_complete(&sandbox, &["explain", "-f", &demo, "-n", "demo", "svc/"]);
    assert_eq!(names(&services), ["svc/demo-same-node", "svc/demo-service", "svc/demo-service-4"]);
    assert_eq!(directive, ":4");
    let (namespaces, _) = kubectl_complete(&sandbox, &["check", "--from-file", &demo, "-n", ""]);
    assert_eq!(names(&namespaces), ["default", "demo"]);

    // No cluster reachable (no kubeconfig): nothing, quickly, and no file names either.
    let started = std::time::Instant::now();
    assert_eq!(kubectl_complete(&sandbox, &["explain", ""]), (vec![], ":4".to_string()));
    assert!(started.elapsed().as_secs() < 10, "completion waited {:?}", started.elapsed());
    // A path: the shell completes file names (ShellCompDirectiveDefault).
    assert_eq!(kubectl_complete(&sandbox, &["zones", "--from-file", ""]), (vec![], ":0".to_string()));

    // __completeNoDesc: Cobra strips the descriptions kubectl relayed.
    let plain = ok("__completeNoDesc", sandbox.kubectl(&["__completeNoDesc", "topo", "c"]));
    assert_eq!(plain, "check\ncompletion\n:4\n");
}

#[test]
fn the_helper_answers_as_kubectl_calls_it() {
    // kubectl runs the helper with the words after `topo`, the current one last (possibly empty).
    let sandbox = completion_sandbox();
    let out = ok(
        "kubectl_complete-topo",
        sandbox
            .command(sandbox.bin().join("kubectl_complete-topo"))
            .args(["zones", "--color", ""])
            .output()
            .unwrap(),
    );
    assert_eq!(
        out,
        "auto\tColour when stdout is a terminal and NO_COLOR is unset\nalways\tAlways colour table output\nnever\tNever colour\n:4\n"
    );
}

#[test]
fn completion_files_are_up_to_date() {
    let fresh = TempDir::new().unwrap();
    let out = Command::new("bash")
        .arg(path("scripts/gen-completions.sh"))
        .arg(fresh.path())
        .env("KUBECTL_TOPO", topo_binary())
        .output()
        .unwrap();
    ok("scripts/gen-completions.sh", out);
    let listing = |dir: &Path| -> Vec<String> {
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.retain(|f| f != "kubectl_complete-topo"); // hand-written shim, not generated
        files.sort();
        files
    };
    let committed = path("completions");
    assert_eq!(listing(&committed), listing(fresh.path()), "completions/ has missing or stale files");
    for file in listing(fresh.path()) {
        let want = std::fs::read_to_string(fresh.path().join(&file)).unwrap();
        let have = std::fs::read_to_string(committed.join(&file)).unwrap();
        assert!(have == want, "completions/{file} is out of date: run scripts/gen-completions.sh");
    }
}

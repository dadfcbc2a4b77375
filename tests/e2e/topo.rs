//! Runs the built `kubectl-topo` binary hermetically against the test's cluster.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The binary Cargo built for this test run. Always present when this file is compiled as the
/// package's `e2e` test target; `None` only in a stand-alone harness build without the product.
pub fn binary() -> Option<PathBuf> {
    option_env!("CARGO_BIN_EXE_kubectl-topo").map(PathBuf::from)
}

/// A hermetic runner: empty environment except PATH, HOME (a temp dir) and KUBECONFIG.
pub struct Topo {
    pub bin: PathBuf,
    home: tempfile::TempDir,
    pub kubeconfig: PathBuf,
}

/// Exit code, stdout, stderr.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Topo {
    pub fn new(bin: PathBuf, kubeconfig: &Path) -> Topo {
        Topo { bin, home: tempfile::tempdir().unwrap(), kubeconfig: kubeconfig.to_path_buf() }
    }

    pub fn run_as(&self, kubeconfig: &Path, args: &[&str]) -> Run {
        let out: Output = Command::new(&self.bin)
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("KUBECONFIG", kubeconfig)
            .output()
            .expect("run kubectl-topo");
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Start a long-running command (`watch`) with stdout and stderr piped.
    pub fn spawn_as(&self, kubeconfig: &Path, args: &[&str]) -> std::process::Child {
        Command::new(&self.bin)
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("KUBECONFIG", kubeconfig)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start kubectl-topo")
    }

    pub fn run(&self, args: &[&str]) -> Run {
        self.run_as(&self.kubeconfig, args)
    }

    /// Run with `-o json` and parse; exit codes 0 and 1 (findings) are both fine.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["-o", "json"]);
        let r = self.run(&all);
        assert!(
            r.code == 0 || r.code == 1,
            "kubectl-topo {all:?} exited {}:\n{}\n{}",
            r.code,
            r.stderr,
            r.stdout
        );
        serde_json::from_str(&r.stdout)
            .unwrap_or_else(|e| panic!("kubectl-topo {all:?}: not JSON ({e}):\n{}", r.stdout))
    }

    /// `dump` of the scope, parsed; `dump -o json` must carry the same objects.
    pub fn dump(&self, scope: &[&str]) -> Value {
        let mut all = vec!["dump"];
        all.extend(scope);
        let r = self.run(&all);
        assert_eq!(r.code, 0, "kubectl-topo {all:?}: {}", r.stderr);
        let yaml = serde_saphyr::from_str::<Value>(&r.stdout)
            .unwrap_or_else(|e| panic!("dump is not YAML ({e}):\n{}", r.stdout));
        all.extend(["-o", "json"]);
        let r = self.run(&all);
        assert_eq!(r.code, 0, "kubectl-topo {all:?}: {}", r.stderr);
        let json = serde_json::from_str::<Value>(&r.stdout)
            .unwrap_or_else(|e| panic!("dump -o json is not JSON ({e}):\n{}", r.stdout));
        assert_eq!(comparable(json), comparable(yaml.clone()), "dump -o json vs dump (YAML)");
        yaml
    }
}

/// A dump without its Events and resourceVersions, which two reads a moment apart may not share.
fn comparable(mut dump: Value) -> Value {
    if let Some(items) = dump["items"].as_array_mut() {
        items.retain(|i| i["kind"] != "Event");
        for item in items {
            if let Some(meta) = item.get_mut("metadata").and_then(Value::as_object_mut) {
                meta.remove("resourceVersion");
            }
        }
    }
    dump
}

/// Remove every `hints` field (what a fresh computation must then reproduce).
pub fn strip_hints(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("hints");
            for x in map.values_mut() {
                strip_hints(x);
            }
        }
        Value::Array(list) => list.iter_mut().for_each(strip_hints),
        _ => {}
    }
}

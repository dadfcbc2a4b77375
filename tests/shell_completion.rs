//! Completion as users get it: real bash (with Debian's bash-completion), zsh and fish on a
//! pseudo-terminal, typing TAB, for both routes — `kubectl-topo …` through the committed scripts
//! of `completions/`, and `kubectl topo …` through kubectl's own completion script, which runs
//! `kubectl_complete-topo` (kubectl 1.36, built by tests/plugin/build-tools.sh). The pty is driven
//! by tests/completion/pty_drive.py (Python's standard library); each case records what the shell
//! listed and the line as completion left it.

use std::path::PathBuf;
use std::process::Command;

use tempfile::TempDir;

use crate::support::{path, root};

#[derive(Clone, Copy, Debug)]
enum Shell {
    Bash,
    Zsh,
    Fish,
}

#[derive(Clone, Copy, Debug)]
enum Route {
    /// `kubectl-topo …`: completions/ scripts.
    Direct,
    /// `kubectl topo …`: kubectl's completion and kubectl_complete-topo.
    Kubectl,
}

/// One line typed, then TAB(s).
struct Case {
    /// Keys after the command (`kubectl-topo ` or `kubectl topo `).
    keys: &'static str,
    /// The line after completion (without the command), when it is one candidate.
    line: Option<&'static str>,
    /// Words the shell must have listed.
    listed: &'static [&'static str],
    /// Words it must not have listed (file names where none belong, other flags).
    unlisted: &'static [&'static str],
}

fn cases() -> Vec<Case> {
    vec![
        // The bug of #18: nothing completed after a subcommand.
        Case { keys: "check --fa\t", line: Some("check --fail-on"), listed: &[], unlisted: &[] },
        Case {
            keys: "check -o \t\t",
            line: None,
            listed: &["table", "wide", "json", "yaml", "sarif"],
            unlisted: &["Cargo.toml", "README.md"],
        },
        Case {
            keys: "explain -f examples/demo-cluster.yaml -n demo svc/demo-s\t\t",
            line: None,
            listed: &["svc/demo-same-node", "svc/demo-service", "svc/demo-service-4"],
            unlisted: &["Cargo.toml"],
        },
        Case {
            keys: "zones --context st\t",
            line: Some("zones --context staging"),
            listed: &[],
            unlisted: &[],
        },
        Case {
            keys: "zones --user \t\t",
            line: None,
            listed: &["admin", "viewer"],
            unlisted: &["staging", "Cargo.toml"],
        },
        Case {
            keys: "simulate svc/demo-service -f examples/demo-cluster.yaml --remove-zone us-east-1\t\t",
            line: None,
            listed: &["us-east-1a", "us-east-1b", "us-east-1c"],
            unlisted: &["Cargo.toml"],
        },
        Case {
            keys: "simulate svc/demo-service -f examples/demo-cluster.yaml --remove-node ip-10-0-\t\t",
            line: None,
            listed: &["ip-10-0-1-23.ec2.internal", "ip-10-0-2-41.ec2.internal", "ip-10-0-3-17.ec2.internal"],
            unlisted: &["Cargo.toml"],
        },
        Case {
            keys: "simulate svc/demo-service --mode PreferSame\t\t",
            line: None,
            listed: &["PreferSameZone", "PreferSameNode"],
            unlisted: &["PreferClose"],
        },
        // Issue 35: `reasons <TAB>` offers the reason codes, one code completes whole.
        Case {
            keys: "reasons Overload\t\t",
            line: None,
            listed: &["OverloadThreshold", "Overloaded"],
            unlisted: &["Cargo.toml", "SingleZone"],
        },
        Case { keys: "reasons SingleZ\t", line: Some("reasons SingleZone"), listed: &[], unlisted: &[] },
        Case {
            keys: "simulate svc/demo-service --spread ev\t",
            line: Some("simulate svc/demo-service --spread even"),
            listed: &[],
            unlisted: &[],
        },
        // Issue 35: an unfinished word gets no space (NoSpace), a list completes each element, and
        // --verdict, --reason and --exclude-namespace have candidates.
        Case {
            keys: "check -f examples/demo-cluster.yaml --traffic us-east-1a\t50",
            line: Some("check -f examples/demo-cluster.yaml --traffic us-east-1a=50"),
            listed: &[],
            unlisted: &[],
        },
        Case {
            keys: "check -f examples/demo-cluster.yaml --traffic us-east-1a=50,us-east-1b\t50",
            line: Some("check -f examples/demo-cluster.yaml --traffic us-east-1a=50,us-east-1b=50"),
            listed: &[],
            unlisted: &[],
        },
        Case {
            keys: "check --verdict Blocked,Dr\t",
            line: Some("check --verdict Blocked,Drift"),
            listed: &[],
            unlisted: &[],
        },
        Case {
            keys: "check --reason OverloadT\t",
            line: Some("check --reason OverloadThreshold"),
            listed: &[],
            unlisted: &[],
        },
        Case {
            keys: "check -f examples/demo-cluster.yaml --exclude-namespace defa\t",
            line: Some("check -f examples/demo-cluster.yaml --exclude-namespace default"),
            listed: &[],
            unlisted: &[],
        },
        // A path: the shell's own file-name completion.
        Case {
            keys: "zones --from-file examples/demo-clu\t",
            line: Some("zones --from-file examples/demo-cluster.yaml"),
            listed: &[],
            unlisted: &[],
        },
    ]
}

const KUBECONFIG: &str = "apiVersion: v1
kind: Config
clusters:
- name: prod-cluster
  cluster: {server: 'https://127.0.0.1:1'}
contexts:
- name: prod
  context: {cluster: prod-cluster, user: admin}
- name: staging
  context: {cluster: prod-cluster, user: viewer}
current-context: prod
users:
- name: admin
  user: {token: not-a-secret}
- name: viewer
  user: {token: not-a-secret}
";

/// A home with a kubeconfig, a bin/ with the plugin, its helper and kubectl, and rc files.
struct Home {
    dir: TempDir,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::Builder::new().prefix("kubectl-topo-complete-").tempdir().unwrap();
        for sub in ["home/.kube", "bin", "zdot"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        std::fs::write(dir.path().join("home/.kube/config"), KUBECONFIG).unwrap();
        let links = [
            ("kubectl-topo", PathBuf::from(env!("CARGO_BIN_EXE_kubectl-topo"))),
            ("kubectl_complete-topo", path("completions/kubectl_complete-topo")),
            ("kubectl", crate::plugin::tools().join("kubectl")),
        ];
        for (name, target) in links {
            std::os::unix::fs::symlink(target, dir.path().join("bin").join(name)).unwrap();
        }
        Home { dir }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// The shell's command line, with an rc file loading the route's completion.
    fn shell(&self, shell: Shell, route: Route) -> Vec<String> {
        let completions = path("completions");
        let completions = completions.display();
        match shell {
            Shell::Bash => {
                let load = match route {
                    Route::Direct => format!("source {completions}/kubectl-topo.bash"),
                    Route::Kubectl => "source <(kubectl completion bash)".to_string(),
                };
                let rc = format!(
                    "source /usr/share/bash-completion/bash_completion\n{load}\n\
                     bind 'set page-completions off'\nbind 'set completion-query-items 1000'\n\
                     bind 'set bell-style none'\nPS1='PROMPT> '\n"
                );
                std::fs::write(self.path("bashrc"), rc).unwrap();
                words(&["bash", "--noprofile", "--rcfile", &self.path("bashrc").display().to_string(), "-i"])
            }
            Shell::Zsh => {
                let (fpath, load) = match route {
                    Route::Direct => (format!("fpath=({completions} $fpath)"), String::new()),
                    Route::Kubectl => (String::new(), "source <(kubectl completion zsh)".to_string()),
                };
                let rc = format!(
                    "{fpath}\nautoload -Uz compinit && compinit -u -D\n{load}\nbindkey -e\n\
                     unsetopt beep\nLISTMAX=1000\nPROMPT='PROMPT> '\n"
                );
                std::fs::write(self.path("zdot/.zshrc"), rc).unwrap();
                words(&["zsh", "-d", "-i"])
            }
            Shell::Fish => {
                let load = match route {
                    Route::Direct => format!("source {completions}/kubectl-topo.fish"),
                    Route::Kubectl => "kubectl completion fish | source".to_string(),
                };
                let init =
                    format!("set -g fish_greeting ''; {load}; function fish_prompt; printf 'PROMPT> '; end");
                words(&["fish", "--no-config", "-i", "-C", &init])
            }
        }
    }
}

fn words(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// Remove terminal control sequences (CSI, OSC, two-byte escapes) and carriage returns.
fn plain(raw: &str) -> String {
    let mut out = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                // Colours vanish; cursor moves and erases separate what they separate on screen.
                Some('[') => {
                    if let Some(end) = chars.by_ref().find(|c| ('@'..='~').contains(c))
                        && end != 'm'
                    {
                        out.push(' ');
                    }
                }
                // Character set designations (`ESC ( B`).
                Some('(' | ')') => {
                    chars.next();
                }
                Some(']') => {
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' || (c == '\u{1b}' && chars.next_if_eq(&'\\').is_some()) {
                            break;
                        }
                    }
                }
                _ => {}
            },
            '\r' => out.push('\n'),
            '\u{7}' => {}
            c if c.is_control() && c != '\n' => {}
            c => out.push(c),
        }
    }
    out
}

/// Type every case into one session of `shell`; returns each case's transcript.
fn session(home: &Home, shell: Shell, route: Route, cases: &[Case]) -> Vec<String> {
    let command = match route {
        Route::Direct => "kubectl-topo ",
        Route::Kubectl => "kubectl topo ",
    };
    let mut driver = Command::new("python3");
    driver.arg(path("tests/completion/pty_drive.py"));
    for case in cases {
        driver.arg(format!("{command}{}", case.keys.replace('\t', "\\t")));
    }
    driver.arg("--").args(home.shell(shell, route));
    let out = driver
        .env_clear()
        .env("HOME", home.path("home"))
        .env("ZDOTDIR", home.path("zdot"))
        .env("PATH", format!("{}:/usr/bin:/bin", home.path("bin").display()))
        .env("TERM", "xterm")
        .env("LANG", "C.UTF-8")
        .env("XDG_CONFIG_HOME", home.path("home/.config"))
        .env("XDG_DATA_HOME", home.path("home/.local/share"))
        .current_dir(root())
        .output()
        .expect("python3 runs tests/completion/pty_drive.py");
    let transcript = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{shell:?}/{route:?}: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        plain(&transcript)
    );
    transcript.split(CASE_END).map(plain).take(cases.len()).collect()
}

/// The cases that complete a list's later element, and the line they leave through kubectl: Cobra's
/// scripts (kubectl's completion) would insert such a candidate wrong, so none is offered there
/// (completions/kubectl_complete-topo) and the line stays as typed.
const LIST_ELEMENTS: [(&str, &str); 2] = [
    (
        "check -f examples/demo-cluster.yaml --traffic us-east-1a=50,us-east-1b\t50",
        "check -f examples/demo-cluster.yaml --traffic us-east-1a=50,us-east-1b50",
    ),
    ("check --verdict Blocked,Dr\t", "check --verdict Blocked,Dr"),
];

/// What pty_drive.py writes after each case.
const CASE_END: &str = "\n=====CASE-END=====\n";

fn check(shell: Shell, route: Route) {
    let home = Home::new();
    let cases = cases();
    let transcripts = session(&home, shell, route, &cases);
    assert_eq!(transcripts.len(), cases.len(), "{shell:?}/{route:?}: transcripts {transcripts:#?}");
    let command = match route {
        Route::Direct => "kubectl-topo",
        Route::Kubectl => "kubectl topo",
    };
    let mut failures = Vec::new();
    for (case, transcript) in cases.iter().zip(&transcripts) {
        let Some((before, _)) = transcript.rsplit_once(" __DONE__") else {
            failures.push(format!("{:?}: no echo of the line in\n{transcript}", case.keys));
            continue;
        };
        let listing = &before[..before.rfind('\n').unwrap_or(0)];
        let listed: Vec<&str> = listing.split_whitespace().collect();
        let line = before.rsplit('\n').next().unwrap_or_default().trim_end();
        if let Some(want) = case.line {
            let want = match (route, LIST_ELEMENTS.iter().find(|(keys, _)| *keys == case.keys)) {
                (Route::Kubectl, Some((_, typed))) => format!("{command} {typed}"),
                _ => format!("{command} {want}"),
            };
            if line != want {
                failures.push(format!("{:?}: the line became {line:?}, not {want:?}", case.keys));
            }
        }
        // fish's pager abbreviates the prefix all candidates share: `…vc/demo-service`.
        let shown = |word: &str| {
            listed.iter().any(|t| {
                *t == word || t.strip_prefix('…').is_some_and(|t| !t.is_empty() && word.ends_with(t))
            })
        };
        for word in case.listed {
            if !shown(word) {
                failures.push(format!("{:?}: {word} not listed in\n{listing}", case.keys));
            }
        }
        for word in case.unlisted {
            if shown(word) {
                failures.push(format!("{:?}: {word} listed in\n{listing}", case.keys));
            }
        }
    }
    assert!(failures.is_empty(), "{shell:?}/{route:?}:\n{}", failures.join("\n\n"));
}

#[test]
fn bash_completes_kubectl_topo() {
    check(Shell::Bash, Route::Direct);
}

#[test]
fn bash_completes_kubectl_topo_through_kubectl() {
    check(Shell::Bash, Route::Kubectl);
}

#[test]
fn zsh_completes_kubectl_topo() {
    check(Shell::Zsh, Route::Direct);
}

#[test]
fn zsh_completes_kubectl_topo_through_kubectl() {
    check(Shell::Zsh, Route::Kubectl);
}

#[test]
fn fish_completes_kubectl_topo() {
    check(Shell::Fish, Route::Direct);
}

#[test]
fn fish_completes_kubectl_topo_through_kubectl() {
    check(Shell::Fish, Route::Kubectl);
}

#[test]
fn control_sequences_are_removed_from_transcripts() {
    assert_eq!(
        plain("a\u{1b}[1;31mb\u{1b}[0m\r\n\u{1b}]0;title\u{7}c\u{1b}=d\u{1b}(Be\u{1b}[Kf"),
        "ab\n\ncde f"
    );
}

//! The man pages as `man` shows them: every page `__man --list` names renders under groff with
//! every warning on (`groff -ww -man -Tutf8`) without one, and `man -l` shows its NAME line; each
//! command's page has the sections of a man page (EXIT STATUS, EXAMPLES, ENVIRONMENT, FILES, SEE
//! ALSO) and none called EXTRA, and kubectl-topo-config(5) is there. `tests/consumers/install-man.sh`
//! installs groff and man-db when missing.

use std::process::Command;

use tempfile::TempDir;

use crate::support::{path, topo};

fn install() {
    let out = Command::new("bash").arg(path("tests/consumers/install-man.sh")).output().expect("bash runs");
    assert!(out.status.success(), "install-man.sh: {}", String::from_utf8_lossy(&out.stderr));
}

fn stdout(args: &[&str]) -> String {
    let out = topo().args(args).output().expect("runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn every_page_renders_under_groff_without_a_warning_and_has_its_sections() {
    install();
    let pages: Vec<String> = stdout(&["__man", "--list"]).lines().map(String::from).collect();
    assert!(pages.contains(&"kubectl-topo-config.5".to_string()), "{pages:?}");
    assert!(pages.contains(&"kubectl-topo-reasons.1".to_string()), "{pages:?}");
    let dir = TempDir::new().expect("a temp dir");
    for page in &pages {
        let roff = stdout(&["__man", page]);
        let file = dir.path().join(page);
        std::fs::write(&file, &roff).expect("writes");
        let out = Command::new("groff")
            .args(["-ww", "-man", "-Tutf8", "-z", "-k"])
            .arg(&file)
            .output()
            .expect("groff");
        let warnings = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && warnings.is_empty(), "groff on {page}:\n{warnings}");
        let shown = Command::new("man")
            .args(["-l", "-P", "cat"])
            .arg(&file)
            .env("MANWIDTH", "100")
            .env("LANG", "C.UTF-8")
            .output()
            .expect("man");
        let shown = String::from_utf8_lossy(&shown.stdout);
        let (stem, _) = page.rsplit_once('.').expect("NAME.SECTION");
        let words: Vec<&str> = shown.split_whitespace().collect();
        assert!(words.windows(2).any(|w| w == ["NAME", stem]), "{page}:\n{shown}");
        let mut wanted = vec!["SYNOPSIS", "DESCRIPTION", "EXAMPLES", "FILES", "SEE ALSO"];
        if page.ends_with(".1") {
            wanted.extend(["EXIT STATUS", "ENVIRONMENT"]);
        }
        for section in wanted {
            assert!(shown.lines().any(|l| l.trim_end() == section), "{page}: no {section}:\n{shown}");
        }
        assert!(!shown.lines().any(|l| l.trim_end() == "EXTRA"), "{page} has an EXTRA section");
    }
}

#[test]
fn check_page_shows_its_examples_and_columns() {
    install();
    let roff = stdout(&["__man", "kubectl-topo-check.1"]);
    assert!(roff.contains(".SH EXAMPLES") && roff.contains(".SH COLUMNS"), "{roff}");
    assert!(roff.contains("kubectl topo check"), "{roff}");
}

//! Prose wraps to the terminal: at `COLUMNS` when set, at a real terminal's width (driven through
//! a pty), and not at all in a pipe without `COLUMNS` (the README's byte-exact examples). Tables
//! and zone bars are never wrapped.

use std::process::Command;

use crate::support::{CLEARED_ENV, demo, path, read, root, topo};

const EXPLAIN: [&str; 4] = ["explain", "svc/demo-service-4", "-n", "demo"];
const SIMULATE: [&str; 6] = ["simulate", "svc/demo-service-4", "-n", "demo", "--replicas", "6"];

/// A UTF-8 locale, so the typography is measured as it is (ASCII is a unit test of `render::wrap`).
const UTF8: (&str, &str) = ("LANG", "C.UTF-8");

/// stderr then stdout of `args` on the demo, with `COLUMNS` when given.
fn run(args: &[&str], columns: Option<&str>) -> String {
    let mut cmd = topo();
    cmd.args(args).arg("-f").arg(demo()).env(UTF8.0, UTF8.1);
    if let Some(c) = columns {
        cmd.env("COLUMNS", c);
    }
    let out = cmd.output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stderr).unwrap() + &String::from_utf8(out.stdout).unwrap()
}

fn width(line: &str) -> usize {
    line.chars().count()
}

/// Every line of `wrapped` fits in `columns`, or is one word, or is a line of `unwrapped` as it
/// was (table rows and zone bars are not wrapped); no word is lost or added.
fn assert_wrapped(wrapped: &str, unwrapped: &str, columns: usize) {
    let kept: std::collections::BTreeSet<&str> = unwrapped.lines().collect();
    for line in wrapped.lines() {
        let one_word = line.split_whitespace().count() == 1;
        assert!(
            width(line) <= columns || one_word || kept.contains(line),
            "a {}-column line was not wrapped at {columns}: {line:?}\n{wrapped}",
            width(line)
        );
    }
    let words = |text: &str| text.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(words(wrapped), words(unwrapped), "wrapping changed the words");
    assert!(wrapped.lines().count() > unwrapped.lines().count(), "nothing was wrapped:\n{wrapped}");
}

#[test]
fn columns_wraps_explain_and_simulate_prose_and_notes() {
    for args in [&EXPLAIN[..], &SIMULATE[..]] {
        let unwrapped = run(args, None);
        // Unwrapped in a pipe: some prose is longer than 60 columns, so the test below can fail.
        assert!(unwrapped.lines().any(|l| l.starts_with("note: ") && width(l) > 60), "{unwrapped}");
        let wrapped = run(args, Some("60"));
        assert_wrapped(&wrapped, &unwrapped, 60);
        // A continuation of a note is indented under its text, not a new `note:`.
        let notes = |t: &str| t.lines().filter(|l| l.starts_with("note: ")).count();
        assert_eq!(notes(&wrapped), notes(&unwrapped));
        assert!(wrapped.lines().any(|l| l.starts_with("      ") && !l.starts_with("       ")), "{wrapped}");
    }
}

#[test]
fn a_columns_that_is_no_number_or_zero_wraps_nothing() {
    let unwrapped = run(&EXPLAIN, None);
    assert_eq!(run(&EXPLAIN, Some("wide")), unwrapped);
    assert_eq!(run(&EXPLAIN, Some("0")), unwrapped);
}

#[test]
fn structured_output_and_errors_never_wrap() {
    let json = |columns: Option<&str>| {
        let mut cmd = topo();
        cmd.args(["explain", "svc/demo-service-4", "-n", "demo", "-o", "json", "-f"]).arg(demo());
        columns.map(|c| cmd.env("COLUMNS", c));
        cmd.output().expect("runs").stdout
    };
    assert!(json(Some("40")) == json(None), "-o json changed with COLUMNS");
    let out = topo()
        .args(["explain", "svc/no-such-service-with-a-long-name", "-n", "demo", "-f"])
        .arg(demo())
        .env("COLUMNS", "30")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().filter(|l| l.starts_with("error: ")).count(), 1, "{stderr}");
    // The error stays one line however long; the hint wraps under its text.
    assert!(stderr.lines().next().is_some_and(|l| l.starts_with("error: ") && width(l) > 30), "{stderr}");
    assert!(stderr.lines().skip(1).all(|l| l.starts_with("hint: ") || l.starts_with("      ")), "{stderr}");
    assert!(stderr.lines().skip(1).all(|l| width(l) <= 30 || l.split_whitespace().count() == 1), "{stderr}");
}

/// What a terminal `columns` wide shows for `args` on the demo (no `COLUMNS`: the width comes from
/// the terminal itself), colours removed, `\r\n` as `\n`.
fn on_a_terminal(args: &[&str], columns: usize) -> String {
    let mut cmd = Command::new("python3");
    cmd.arg(path("tests/wrapping/pty_run.py")).arg(columns.to_string());
    cmd.arg(assert_cmd::cargo::cargo_bin("kubectl-topo")).args(args).arg("-f").arg(demo());
    for var in CLEARED_ENV {
        cmd.env_remove(var);
    }
    let out =
        cmd.env(UTF8.0, UTF8.1).current_dir(root()).output().expect("python3 runs tests/wrapping/pty_run.py");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let text = String::from_utf8(out.stdout).unwrap().replace("\r\n", "\n");
    strip_ansi(&text)
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters… final byte in @–~.
            if chars.next() == Some('[') {
                for d in chars.by_ref() {
                    if ('@'..='~').contains(&d) {
                        break;
                    }
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn a_50_column_terminal_gets_wrapped_prose() {
    let unwrapped = run(&EXPLAIN, None);
    let shown = on_a_terminal(&EXPLAIN, 50);
    assert_wrapped(&shown, &unwrapped, 50);
    let remedy = shown.lines().position(|l| l.starts_with("  → ")).expect("the remedy line");
    assert!(shown.lines().nth(remedy + 1).is_some_and(|l| l.starts_with("    ")), "{shown}");
}

/// A cluster string with terminal controls in it is escaped (`\u{1b}`) before it is wrapped, and
/// wrapping never cuts an escape in two: the zone's escaped name, longer than the width, stays
/// one word on one line, and no raw control reaches stdout or stderr.
#[test]
fn wrapping_never_splits_an_escaped_control_character() {
    let zone = "us-east-1a\\e]0;pwned\\a";
    let evil = read(&demo()).replace(
        "topology.kubernetes.io/zone: us-east-1a",
        &format!("topology.kubernetes.io/zone: \"{zone}\""),
    );
    for args in [&EXPLAIN[..], &SIMULATE[..]] {
        let out = topo()
            .args(args)
            .args(["-f", "-"])
            .env("COLUMNS", "20")
            .env(UTF8.0, UTF8.1)
            .write_stdin(evil.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stderr).unwrap() + &String::from_utf8(out.stdout).unwrap();
        let escaped = "us-east-1a\\u{1b}]0;pwned\\u{7}";
        assert!(width(escaped) > 20, "the name must be longer than the width");
        assert!(text.lines().any(|l| l.contains(escaped)), "escape split or missing:\n{text}");
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "raw control reached the terminal: {text:?}"
        );
        assert!(text.lines().filter(|l| l.contains("pwned")).all(|l| l.contains(escaped)), "{text}");
    }
}

//! The README and docs/ are a contract: every example in them that runs on a bundled dump shows
//! what the binary prints. A ```text block whose first line is `$ kubectl topo …` with
//! `-f`/`--from-file` is run here and its remaining lines compared with what the terminal shows (the
//! notes on stderr, written before the data, then stdout), byte for byte. A line `…` marks an
//! excerpt: the runs of lines between the `…` lines must then appear in the output, in order, each
//! run as consecutive lines. Examples that need a live cluster or a shell (`<TAB>`, `>`) are not run.
//! The README also keeps to a budget a newcomer reads in ten minutes (`budget`).

mod budget;

use crate::support::{path, read, topo};

struct Example {
    line: usize,
    args: Vec<String>,
    shown: Vec<String>,
}

/// The runnable examples of a Markdown text, with the 1-based line of their command.
fn examples(markdown: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut lines = markdown.lines().enumerate();
    while let Some((_, line)) = lines.next() {
        if line != "```text" {
            continue;
        }
        let block: Vec<(usize, &str)> = lines.by_ref().take_while(|(_, l)| *l != "```").collect();
        let Some(&(at, first)) = block.first() else { continue };
        let Some(command) = first.strip_prefix("$ kubectl topo ") else { continue };
        let runnable = !command.contains(['<', '>', '|', '#']) && has_dump_flag(command);
        if runnable && !block[1..].iter().any(|(_, l)| l.starts_with("$ ")) {
            found.push(Example {
                line: at + 1,
                args: command.split_whitespace().map(String::from).collect(),
                shown: block[1..].iter().map(|(_, l)| (*l).to_string()).collect(),
            });
        }
    }
    found
}

fn has_dump_flag(command: &str) -> bool {
    command.split_whitespace().any(|w| w == "-f" || w == "--from-file" || w.starts_with("--from-file="))
}

/// Whether `shown` (with `…` excerpt markers) matches `actual`; `Err` says where it does not.
fn matches(shown: &[String], actual: &str) -> Result<(), String> {
    let actual: Vec<&str> = actual.lines().collect();
    if !shown.iter().any(|l| l == "…") {
        let shown: Vec<&str> = shown.iter().map(String::as_str).collect();
        return if shown == actual { Ok(()) } else { Err(diff(&shown, &actual)) };
    }
    let mut from = 0;
    for run in shown.split(|l| l == "…").filter(|run| !run.is_empty()) {
        let found = (from..actual.len().saturating_sub(run.len() - 1))
            .find(|&i| run.iter().zip(&actual[i..]).all(|(want, got)| want == got));
        match found {
            Some(i) => from = i + run.len(),
            None => return Err(format!("this excerpt is not in the output:\n{}", run.join("\n"))),
        }
    }
    Ok(())
}

fn diff(shown: &[&str], actual: &[&str]) -> String {
    let at = shown.iter().zip(actual).position(|(a, b)| a != b).unwrap_or(shown.len().min(actual.len()));
    format!(
        "first difference at output line {}:\n  shown:  {:?}\n  actual: {:?}\n--- actual output\n{}",
        at + 1,
        shown.get(at),
        actual.get(at),
        actual.join("\n")
    )
}

/// README.md and every Markdown file under docs/, as (path relative to the root, text), in name order.
fn documents() -> Vec<(String, String)> {
    let mut found = vec![("README.md".to_string(), read(&path("README.md")))];
    for file in budget::markdown_under(&path("docs")) {
        let relative = file.strip_prefix(crate::support::root()).expect("under the root");
        found.push((relative.to_string_lossy().replace('\\', "/"), read(&file)));
    }
    found
}

#[test]
fn every_runnable_example_of_the_readme_and_docs_shows_the_real_output() {
    let documents = documents();
    let in_readme = examples(&documents[0].1).len();
    assert!(in_readme >= 3, "only {in_readme} runnable examples found in README.md");
    let all: Vec<(&str, Example)> = documents
        .iter()
        .flat_map(|(name, text)| examples(text).into_iter().map(move |e| (name.as_str(), e)))
        .collect();
    assert!(all.len() >= 8, "only {} runnable examples found in README.md and docs/", all.len());
    let mut failures = Vec::new();
    for (file, example) in &all {
        // A reader's terminal: UTF-8, as on every current desktop and bastion host.
        let out = topo().args(&example.args).env("LANG", "C.UTF-8").output().expect("runs");
        // The README shows the whole terminal: notes (stderr, written before the data) then stdout.
        let terminal =
            format!("{}{}", String::from_utf8_lossy(&out.stderr), String::from_utf8_lossy(&out.stdout));
        if let Err(why) = matches(&example.shown, &terminal) {
            failures.push(format!("{file}:{} `{}`: {why}", example.line, example.args.join(" ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn excerpts_match_runs_in_order_and_whole_blocks_match_exactly() {
    let shown = |s: &str| s.lines().map(String::from).collect::<Vec<_>>();
    assert!(matches(&shown("a\nb"), "a\nb\n").is_ok());
    assert!(matches(&shown("a\nb"), "a\nb\nc\n").is_err());
    assert!(matches(&shown("…\nb\nc\n…"), "a\nb\nc\nd\n").is_ok());
    assert!(matches(&shown("…\nc\n…\nb"), "a\nb\nc\n").is_err(), "order matters");
    assert!(matches(&shown("…\nb\nd\n…"), "a\nb\nc\nd\n").is_err(), "a run is consecutive");
    let md =
        "x\n```text\n$ kubectl topo zones -f d.yaml\nZONE\n```\n```text\n$ kubectl topo version\nv\n```\n";
    let found = examples(md);
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].line, found[0].args.len(), found[0].shown.len()), (3, 3, 1));
}

//! The README's budget: what a newcomer reads in ten minutes. At most ~400 lines, a table of
//! contents near the top whose links each land on a heading and that names every section, and
//! every link into the repository (docs/ first of all) landing on a file that exists — and, with a
//! `#fragment`, on a heading of that file. The same holds for the links of docs/*.md, so the
//! material moved out of the README stays reachable from it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::support::{path, read, root};

/// Lines of README.md: about 8 of 60-line screens, with the examples' output.
const MAX_LINES: usize = 400;
/// The table of contents is found within this many lines of the top.
const TOC_WITHIN: usize = 40;

#[test]
fn the_readme_fits_its_budget_of_lines() {
    let readme = read(&path("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines <= MAX_LINES,
        "README.md has {lines} lines, the budget is {MAX_LINES}: move detail into docs/"
    );
}

#[test]
fn the_readme_has_a_table_of_contents_naming_every_section() {
    let readme = read(&path("README.md"));
    let toc: Vec<&str> =
        readme.lines().take(TOC_WITHIN).skip_while(|l| !l.starts_with("**Contents:**")).collect();
    assert!(!toc.is_empty(), "README.md has no `**Contents:**` line within its first {TOC_WITHIN} lines");
    let toc = toc.split(|l| l.is_empty()).next().unwrap_or_default().join(" ");
    let linked: Vec<String> =
        links(&toc).into_iter().filter_map(|l| l.strip_prefix('#').map(String::from)).collect();
    let headings = anchors(&readme);
    for anchor in &linked {
        assert!(headings.contains(anchor), "README.md's contents link #{anchor}, which is no heading");
    }
    for section in second_level_headings(&readme) {
        assert!(
            linked.contains(&slug(&section)),
            "README.md's contents do not link the section `## {section}`"
        );
    }
}

#[test]
fn every_link_of_the_readme_and_docs_lands_on_a_file_and_heading() {
    let mut broken = Vec::new();
    let mut files = vec![path("README.md")];
    files.extend(markdown_under(&path("docs")));
    let mut docs_linked = 0;
    for file in &files {
        let text = read(file);
        for link in links(&strip_code(&text)) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (target, fragment) = link.split_once('#').unwrap_or((link.as_str(), ""));
            let target_path =
                if target.is_empty() { file.clone() } else { file.parent().expect("a parent").join(target) };
            let shown = file.strip_prefix(root()).unwrap_or(file).display().to_string();
            if target.starts_with("docs/") {
                docs_linked += 1;
            }
            if !target_path.exists() {
                broken.push(format!("{shown}: `{link}`: no such file"));
            } else if !fragment.is_empty()
                && target_path.extension().is_some_and(|e| e == "md")
                && !anchors(&read(&target_path)).contains(fragment)
            {
                broken.push(format!("{shown}: `{link}`: no heading #{fragment} there"));
            }
        }
    }
    assert!(docs_linked >= 10, "README.md links only {docs_linked} documents under docs/");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_and_anchor_readers_follow_github() {
    assert_eq!(slug("Quick start (the two commands)"), "quick-start-the-two-commands");
    assert_eq!(slug("Sharing a dump: `--redact`"), "sharing-a-dump---redact");
    assert_eq!(slug("What `check` lists, and what fails it"), "what-check-lists-and-what-fails-it");
    assert_eq!(links("[a](b.md) `[x](y)` [c](#d)"), ["b.md", "y", "#d"]);
    assert_eq!(strip_code("a\n```\n[x](y)\n```\nb"), "a\nb\n");
    let twice = anchors("## A\n## A\n```\n## B\n```\n");
    assert!(twice.contains("a") && twice.contains("a-1") && !twice.contains("b"));
}

/// The `##` headings outside code blocks.
fn second_level_headings(markdown: &str) -> Vec<String> {
    strip_code(markdown).lines().filter_map(|l| l.strip_prefix("## ")).map(String::from).collect()
}

/// GitHub's anchor of a heading: lower case, punctuation dropped but `-` and `_`, spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every heading's anchor, a repeated one numbered as GitHub numbers it (`-1`, `-2`, …).
fn anchors(markdown: &str) -> HashSet<String> {
    let mut found = HashSet::new();
    for line in strip_code(markdown).lines() {
        let Some(text) = line.trim_start_matches('#').strip_prefix(' ').filter(|_| line.starts_with('#'))
        else {
            continue;
        };
        let base = slug(text);
        let mut anchor = base.clone();
        let mut n = 0;
        while found.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        found.insert(anchor);
    }
    found
}

/// The text outside fenced code blocks.
fn strip_code(markdown: &str) -> String {
    let mut fenced = false;
    let mut out = String::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of a text.
fn links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')'))
        .map(|(target, _)| target.to_string())
        .filter(|t| !t.is_empty() && !t.contains(char::is_whitespace))
        .collect()
}

/// Every `*.md` file under `dir`, in name order.
pub(super) fn markdown_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable") {
            let p = entry.expect("an entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "md") {
                found.push(p);
            }
        }
    }
    found.sort();
    found
}

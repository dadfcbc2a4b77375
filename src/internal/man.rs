//! The man pages (`__man`): one per command, generated from the parser by clap_mangen, followed by
//! the sections clap knows nothing of — EXAMPLES (each subcommand's `--help` examples), EXIT
//! STATUS (`cli::EXIT_CODES_HELP`), ENVIRONMENT, FILES and SEE ALSO — and `kubectl-topo-config(5)`,
//! the page of `check`'s config file. A `--help` section other than "Examples:" (`check`'s
//! "Columns:") keeps its own heading; nothing is left to clap's catch-all EXTRA section.

mod config;

use clap::{Command, CommandFactory};
use clap_mangen::roff::{Roff, bold, italic, roman};

use crate::cli::{Cli, EXIT_CODES_HELP};

/// One page: its file name and its roff text.
pub(super) struct Page {
    pub(super) file: String,
    pub(super) text: Vec<u8>,
}

/// Every page: the command's, one per visible subcommand, then the config file's.
pub(super) fn pages() -> Vec<Page> {
    let mut root = Cli::command().disable_help_subcommand(true);
    root.build();
    let subcommands: Vec<Command> = root.get_subcommands().filter(|s| !s.is_hide_set()).cloned().collect();
    let names: Vec<String> = subcommands.iter().map(|s| format!("kubectl-topo-{}", s.get_name())).collect();
    let mut pages: Vec<Page> =
        std::iter::once(root).chain(subcommands).map(|command| command_page(command, &names)).collect();
    pages.push(Page { file: "kubectl-topo-config.5".into(), text: config::page().into_bytes() });
    pages
}

/// clap_mangen's page of `command` without its after-help, then our sections.
fn command_page(command: Command, subcommand_pages: &[String]) -> Page {
    let after = command.get_after_help().map(|s| s.to_string()).unwrap_or_default();
    let man = clap_mangen::Man::new(command.after_help(None::<&str>));
    let mut text = Vec::new();
    // Rendering into memory cannot fail.
    let _ = man.render(&mut text);
    let title = man.get_filename().trim_end_matches(".1").to_string();
    let mut roff = Roff::new();
    after_help_sections(&mut roff, &after);
    exit_status(&mut roff);
    environment(&mut roff);
    files(&mut roff);
    see_also(&mut roff, &title, subcommand_pages);
    text.extend_from_slice(roff.to_roff().as_bytes());
    Page { file: man.get_filename(), text }
}

/// The `--help` after-text as sections: "Examples:" as EXAMPLES (a `#` line is the text, the next
/// lines the command), any other "Heading:" under its own name. The exit codes have their own.
fn after_help_sections(roff: &mut Roff, after: &str) {
    let blocks = blocks(after);
    if !blocks.iter().any(|(heading, _)| *heading == "Examples") {
        examples(roff, &FIRST_ANSWER);
    }
    for (heading, body) in blocks {
        match heading {
            "Exit codes" => {}
            "Examples" => examples(roff, &body),
            other => {
                roff.control("SH", [other.to_uppercase().as_str()]);
                preformatted(roff, &body);
            }
        }
    }
}

/// The examples of the command's own page (the subcommands have theirs in `--help`).
const FIRST_ANSWER: [&str; 6] = [
    "# The zones' CPU weights as the EndpointSlice controller counts them",
    "kubectl topo zones",
    "# One row per Service that asked for hints: Active, Blocked, Drift?",
    "kubectl topo check -A",
    "# One Service in full: why, with the numbers, and what to change",
    "kubectl topo explain svc/web -n shop",
];

/// `Heading:` lines (at the margin) and the indented lines under each.
fn blocks(text: &str) -> Vec<(&str, Vec<&str>)> {
    let mut found: Vec<(&str, Vec<&str>)> = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_suffix(':').filter(|_| !line.starts_with(' ')) {
            found.push((heading, Vec::new()));
        } else if let Some((_, body)) = found.last_mut().filter(|_| !line.trim().is_empty()) {
            body.push(line.strip_prefix("  ").unwrap_or(line));
        }
    }
    found
}

fn examples(roff: &mut Roff, body: &[&str]) {
    roff.control("SH", ["EXAMPLES"]);
    for line in body {
        match line.strip_prefix("# ") {
            Some(comment) => {
                roff.control("PP", []).text([roman(comment)]);
            }
            None => {
                roff.control("RS", ["4"])
                    .control("nf", [])
                    .text([bold(*line)])
                    .control("fi", [])
                    .control("RE", []);
            }
        }
    }
}

fn preformatted(roff: &mut Roff, body: &[&str]) {
    roff.control("nf", []);
    for line in body {
        roff.text([roman(*line)]);
    }
    roff.control("fi", []);
}

/// `cli::EXIT_CODES_HELP`, one tagged paragraph per code.
fn exit_status(roff: &mut Roff) {
    roff.control("SH", ["EXIT STATUS"]);
    let mut codes: Vec<(String, String)> = Vec::new();
    for line in EXIT_CODES_HELP.lines().skip(1) {
        let line = line.trim();
        let numbered = line.split_once("  ").filter(|(code, _)| code.chars().all(|c| c.is_ascii_digit()));
        if let Some((code, what)) = numbered {
            codes.push((code.to_string(), what.trim().to_string()));
        } else if let Some((_, what)) = codes.last_mut() {
            what.push(' ');
            what.push_str(line);
        }
    }
    for (code, what) in codes {
        roff.control("TP", []).text([bold(code)]).text([roman(what)]);
    }
}

/// The environment variables the plugin reads (`main`'s ambient facts, the kubeconfig loader).
const ENVIRONMENT: [(&str, &str); 7] = [
    (
        "KUBECONFIG",
        "Kubeconfig files to merge, separated by : (; on Windows), as kubectl reads them; first value wins. Without it, ~/.kube/config, else the Pod's service account.",
    ),
    (
        "KUBECTL_TOPO_CONFIG",
        "The config file of check, when --config is not given; see kubectl-topo-config(5).",
    ),
    (
        "XDG_CONFIG_HOME",
        "Where the default config file is looked for: $XDG_CONFIG_HOME/kubectl-topo/config.yaml (default ~/.config).",
    ),
    ("NO_COLOR", "Set and not empty: no colour with --color auto (the default)."),
    ("TERM", "dumb: no colour with --color auto, and no progress indicator."),
    ("COLUMNS", "The width prose (not tables) wraps at; without it, the terminal's width; in a pipe, none."),
    (
        "LC_ALL, LC_CTYPE, LANG",
        "The first that is set decides whether the terminal takes UTF-8; otherwise tables, bars and messages are plain ASCII.",
    ),
];

fn environment(roff: &mut Roff) {
    roff.control("SH", ["ENVIRONMENT"]);
    for (name, what) in ENVIRONMENT {
        roff.control("TP", []).text([bold(name)]).text([roman(what)]);
    }
}

fn files(roff: &mut Roff) {
    roff.control("SH", ["FILES"]);
    for (file, what) in [
        ("~/.kube/config", "The kubeconfig, when neither --kubeconfig nor KUBECONFIG names one."),
        (
            "${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml",
            "The config file of check, read when it exists; see kubectl-topo-config(5).",
        ),
        (
            "/var/run/secrets/kubernetes.io/serviceaccount/",
            "The service account token and CA, used in a Pod without a kubeconfig.",
        ),
    ] {
        roff.control("TP", []).text([italic(file)]).text([roman(what)]);
    }
}

fn see_also(roff: &mut Roff, this: &str, subcommand_pages: &[String]) {
    roff.control("SH", ["SEE ALSO"]);
    let mut refs: Vec<String> = vec!["kubectl(1)".into(), "kubectl-topo(1)".into()];
    refs.extend(subcommand_pages.iter().map(|p| format!("{p}(1)")));
    refs.push("kubectl-topo-config(5)".into());
    refs.retain(|r| r.strip_suffix("(1)") != Some(this));
    roff.text([roman(format!("{}.", refs.join(", ")))]);
    let home = crate::prose::reference::REPOSITORY;
    roff.control("PP", []).text([roman(format!(
        "The documentation, with every reason code explained: {home}/tree/main/docs; kubectl topo reasons CODE."
    ))]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_help_splits_into_headed_blocks() {
        let found = blocks("Columns:\n  A  x\n\nExamples:\n  # one\n  kubectl topo zones\n");
        assert_eq!(found, [("Columns", vec!["A  x"]), ("Examples", vec!["# one", "kubectl topo zones"])]);
    }

    #[test]
    fn every_page_has_the_sections_of_a_man_page_and_no_extra() {
        for page in pages() {
            let text = String::from_utf8(page.text).expect("UTF-8");
            let command = ["EXIT STATUS", "ENVIRONMENT"];
            let sections = ["NAME", "SYNOPSIS", "DESCRIPTION", "EXAMPLES", "FILES", "SEE ALSO"];
            let own = if page.file.ends_with(".1") { &command[..] } else { &[] };
            for section in sections.iter().chain(own) {
                assert!(
                    text.contains(&format!(".SH {section}\n"))
                        || text.contains(&format!(".SH \"{section}\"\n")),
                    "{}: no {section}",
                    page.file
                );
            }
            assert!(!text.contains(".SH EXTRA"), "{}", page.file);
        }
    }
}

//! `help` and the Examples of every subcommand's `--help`: each example is a command line the
//! parser and the settings accept, as shown (up to a shell redirection).

use clap::{CommandFactory, Parser};
use kubectl_topo::cli::Cli;
use kubectl_topo::settings::{Ambient, Settings};

use crate::support::topo;

fn stdout(args: &[&str]) -> String {
    let out = topo().args(args).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands a user can ask help for (clap's own `help` aside).
fn subcommands() -> Vec<String> {
    Cli::command().get_subcommands().map(|c| c.get_name().to_string()).filter(|n| n != "help").collect()
}

/// The argv of each `kubectl topo …` example line of a help text, up to a redirection or pipe,
/// single quotes removed as the shell would.
fn examples(help: &str) -> Vec<Vec<String>> {
    let section = help.split_once("\nExamples:\n").map_or("", |(_, rest)| rest);
    section
        .lines()
        .filter_map(|l| l.trim().strip_prefix("kubectl topo "))
        .map(|l| {
            l.split_whitespace()
                .take_while(|w| !matches!(*w, ">" | "|"))
                .map(|w| w.replace('\'', ""))
                .collect()
        })
        .collect()
}

#[test]
fn help_subcommand_prints_the_subcommands_help() {
    for sub in subcommands() {
        assert_eq!(stdout(&["help", &sub]), stdout(&[&sub, "--help"]), "{sub}");
    }
    assert_eq!(stdout(&["help"]), stdout(&["--help"]));
}

#[test]
fn every_subcommand_help_has_examples_that_parse_and_resolve() {
    let subs = subcommands();
    assert!(subs.len() >= 8, "{subs:?}");
    for sub in subs {
        let help = stdout(&[&sub, "--help"]);
        let found = examples(&help);
        assert!(!found.is_empty(), "`{sub} --help` has no Examples section:\n{help}");
        for argv in found {
            assert_eq!(argv[0], sub, "an example of `{sub}` runs another subcommand: {argv:?}");
            let cli = Cli::try_parse_from(std::iter::once("kubectl-topo".to_string()).chain(argv.clone()))
                .unwrap_or_else(|e| panic!("{argv:?} does not parse: {e}"));
            if let Err(e) = Settings::resolve(cli, &Ambient::default(), "kubectl topo") {
                panic!("{argv:?} is refused: {e}");
            }
        }
    }
}

/// Each subcommand's `--help` lists exactly the shared flags `cli::groups::USED_BY` says it takes
/// (and the connection flags, but for `completion` and `reasons`): no flag is declared where it would be ignored.
#[test]
fn every_help_lists_exactly_the_shared_flags_its_subcommand_takes() {
    use kubectl_topo::cli::groups::{CONNECTION, USED_BY};
    let shared: std::collections::BTreeSet<&str> =
        USED_BY.iter().flat_map(|(_, flags)| flags.iter().copied()).chain(CONNECTION).collect();
    for (command, flags) in USED_BY {
        let out = topo().args([command, "--help"]).output().expect("runs");
        assert_eq!(out.status.code(), Some(0), "{command}");
        let help = String::from_utf8(out.stdout).unwrap();
        let listed: std::collections::BTreeSet<&str> = help
            .lines()
            .filter_map(|l| l.trim_start().split([' ', ',', '=', '[']).find(|w| w.starts_with("--")))
            .filter(|flag| shared.contains(flag))
            .collect();
        let mut expected: std::collections::BTreeSet<&str> = flags.iter().copied().collect();
        if !matches!(command, "completion" | "reasons") {
            expected.extend(CONNECTION);
        }
        assert_eq!(listed, expected, "{command} --help");
    }
}

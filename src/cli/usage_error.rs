//! A command line clap refuses, told like every other error: one `error:` line and one `hint:`
//! line, instead of clap's usage block.

use std::ffi::OsString;

use clap::CommandFactory;
use clap::error::{ContextKind, ContextValue, ErrorKind};

use crate::cli::Cli;

/// What `main` prints for a refused command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ParseOutcome {
    /// `--help`, `--version` or a bare `kubectl topo`: clap's own text, exit as clap does.
    ClapText,
    /// A usage error: `error: {error}` then `hint: {hint}`, exit 2.
    Usage {
        /// Clap's message folded onto one line.
        error: String,
        /// Where to read more, naming the subcommand when there is one.
        hint: String,
    },
}

/// Fold a clap error into one line; `args` (without argv0) name the subcommand for the hint.
pub(crate) fn usage_error(err: &clap::Error, bin_name: &str, args: &[OsString]) -> ParseOutcome {
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        return ParseOutcome::ClapText;
    }
    let sub = typed_subcommand(args);
    let command = command_name(bin_name, args);
    let hint = format!("see `{command} --help`");
    // A shared flag this subcommand does not take: say why, not only that clap did not expect it.
    if let (ErrorKind::UnknownArgument, Some(sub), Some(ContextValue::String(typed))) =
        (err.kind(), &sub, err.get(ContextKind::InvalidArg))
    {
        let flag = typed.split_once('=').map_or(typed.as_str(), |(flag, _)| flag);
        let position = |word: &str| args.iter().position(|a| a.to_str() == Some(word));
        if position(typed).zip(position(sub)).is_some_and(|(at, sub_at)| at < sub_at) {
            let error =
                format!("{flag} comes after the subcommand, as for kubectl plugins: `{command} {flag} …`");
            return ParseOutcome::Usage { error, hint };
        }
        if let Some(why) = crate::cli::groups::why_not(sub, flag) {
            return ParseOutcome::Usage { error: format!("{sub} does not take {flag}: {why}"), hint };
        }
    }
    if let Some(error) = sub.as_deref().and_then(|sub| unwritten_format(err, sub)) {
        return ParseOutcome::Usage { error, hint };
    }
    ParseOutcome::Usage { error: fold(&err.to_string()), hint }
}

/// `-o FORMAT` that this subcommand does not write: which ones it does.
fn unwritten_format(err: &clap::Error, sub: &str) -> Option<String> {
    let (
        Some(ContextValue::String(arg)),
        Some(ContextValue::String(value)),
        Some(ContextValue::Strings(valid)),
    ) = (
        err.get(ContextKind::InvalidArg),
        err.get(ContextKind::InvalidValue),
        err.get(ContextKind::ValidValue),
    )
    else {
        return None;
    };
    // A format of another subcommand; an unknown word gets clap's message with every value.
    let known = <crate::cli::OutputFormat as clap::ValueEnum>::from_str(value, false).is_ok();
    if err.kind() != ErrorKind::InvalidValue || !arg.starts_with("--output") || !known {
        return None;
    }
    // `jsonpath` is typed with its template.
    let valid: Vec<String> =
        valid.iter().map(|v| if v == "jsonpath" { "jsonpath=TEMPLATE".into() } else { v.clone() }).collect();
    let list = match valid.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => return None,
    };
    Some(format!("{sub} does not write -o {value}: use -o {list}"))
}

/// The command line as clap should read it: `help --help` (or `-h`) is `--help`, as kubectl's
/// `help` takes it; everything else unchanged.
pub(crate) fn kubectl_args(args: &[OsString]) -> Vec<OsString> {
    let help = |a: &OsString| a == "--help" || a == "-h";
    match args.split_first() {
        Some((first, rest)) if first == "help" && rest.iter().any(help) => {
            rest.iter().filter(|a| !help(a)).cloned().chain(std::iter::once("--help".into())).collect()
        }
        _ => args.to_vec(),
    }
}

/// What was run, for a hint: `kubectl topo check`, or `kubectl topo` without a subcommand.
pub(crate) fn command_name(bin_name: &str, args: &[OsString]) -> String {
    match typed_subcommand(args) {
        Some(sub) => format!("{bin_name} {sub}"),
        None => bin_name.to_string(),
    }
}

/// The first argument that names a subcommand (flags and their values come before it).
fn typed_subcommand(args: &[OsString]) -> Option<String> {
    let cli = Cli::command();
    args.iter().filter_map(|a| a.to_str()).find(|a| cli.find_subcommand(a).is_some()).map(str::to_string)
}

/// Clap's rendered message without its usage block, on one line: `error: ` dropped, a line ending
/// in `:` continued by the next, `[possible values: …]` in parentheses, tips after `; `.
fn fold(rendered: &str) -> String {
    let mut out = String::new();
    for line in rendered.lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        let piece = match line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            Some(inner) => format!("({inner})"),
            None => line.to_string(),
        };
        if !out.is_empty() {
            out.push_str(if out.ends_with(':') || piece.starts_with('(') { " " } else { "; " });
        }
        out.push_str(&piece);
    }
    out
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    fn refused(args: &[&str]) -> ParseOutcome {
        let argv = std::iter::once("kubectl-topo").chain(args.iter().copied());
        let err = Cli::try_parse_from(argv).expect_err("clap refuses");
        usage_error(&err, "kubectl topo", &args.iter().map(OsString::from).collect::<Vec<_>>())
    }

    fn line(args: &[&str]) -> (String, String) {
        match refused(args) {
            ParseOutcome::Usage { error, hint } => (error, hint),
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn each_refusal_is_one_line_naming_the_culprit_and_the_fix() {
        let cases: &[(&[&str], &[&str])] = &[
            (&["zones", "--bogus"], &["unexpected argument '--bogus'"]),
            (&["explian"], &["unrecognized subcommand 'explian'", "'explain'"]),
            (
                &["check", "-o", "xml"],
                &[
                    "invalid value 'xml'",
                    "(possible values: table, wide, json, yaml, html, dot, mermaid, markdown, junit, sarif, name, jsonpath)",
                    "'html'",
                ],
            ),
            (&["explain"], &["required arguments were not provided: <SERVICE>"]),
            (&["check", "--fail-on", "bad"], &["invalid value 'bad'", "--fail-on"]),
            (&["simulate", "-n", "demo", "svc", "a", "b"], &["unexpected value 'b'"]),
            (
                &["-n", "demo", "explain", "a"],
                &["-n comes after the subcommand", "`kubectl topo explain -n …`"],
            ),
            (&["explain", "a", "-A"], &["explain does not take -A: it reads one Service"]),
            (
                &["zones", "--namespace=x"],
                &["zones does not take --namespace: it reads no namespaced object"],
            ),
            (&["serve", "-o", "json"], &["serve does not take -o: serve writes metrics"]),
            (
                &["zones", "-o", "wide"],
                &["zones does not write -o wide: use -o table, json, yaml or jsonpath=TEMPLATE"],
            ),
        ];
        for (args, parts) in cases {
            let (error, hint) = line(args);
            assert!(!error.contains('\n') && !error.starts_with("error"), "{args:?}: {error:?}");
            assert!(!error.contains("Usage") && !error.contains("For more information"), "{error:?}");
            for part in *parts {
                assert!(error.contains(part), "{args:?}: {part:?} not in {error:?}");
            }
            let sub = args.iter().find(|a| ["zones", "explain", "check", "serve", "simulate"].contains(a));
            let expected = sub.map_or("kubectl topo".to_string(), |s| format!("kubectl topo {s}"));
            assert_eq!(hint, format!("see `{expected} --help`"), "{args:?}");
        }
    }

    #[test]
    fn help_version_and_a_bare_command_keep_clap_text() {
        assert_eq!(refused(&["--help"]), ParseOutcome::ClapText);
        assert_eq!(refused(&["zones", "--help"]), ParseOutcome::ClapText);
        assert_eq!(refused(&["--version"]), ParseOutcome::ClapText);
        assert_eq!(refused(&[]), ParseOutcome::ClapText);
    }
}

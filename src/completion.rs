//! kubectl's plugin completion: `kubectl topo <TAB>` makes kubectl (≥ 1.26) run
//! `kubectl_complete-topo WORD… CURRENT` (k8s.io/kubectl `pkg/cmd/plugin/plugin_completion.go`:
//! `pluginCompletion`), and that shim runs `kubectl-topo __complete WORD… CURRENT`. The reply is
//! Cobra's `__complete` format: one candidate per line (`value<TAB>description`), then
//! `:<directive>`.
//!
//! [`complete`] walks the clap parser (subcommands, flags, value enums), so it never drifts from the
//! CLI. Service names and namespaces come through a [`Lookup`]: a dump named by `--from-file`, or the
//! live cluster with a short timeout; anything that fails yields no candidates.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Arg, ArgAction, Command};

use crate::source;
pub(crate) use crate::source::probe::KubeconfigPart;
use crate::source::{DumpPath, LiveSpec, SourceSpec};
use values::values;

/// How long completion may wait for a live cluster before it answers with nothing.
pub(crate) const LIVE_TIMEOUT: Duration = Duration::from_secs(1);

/// Cobra's `ShellCompDirective` bits (spf13/cobra `completions.go`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Directive {
    /// `ShellCompDirectiveDefault` (0): the shell may fall back to file names.
    Default = 0,
    /// `ShellCompDirectiveNoFileComp` (4): no file-name fallback.
    NoFileComp = 4,
    /// `ShellCompDirectiveNoSpace | ShellCompDirectiveNoFileComp` (2 | 4): the word goes on after
    /// the candidate (`NODE=`, `zone=A:`).
    NoSpaceNoFileComp = 6,
}

/// One completion candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// The word the shell inserts.
    pub(crate) value: String,
    /// Shown next to it by shells that support descriptions (Cobra strips it for `__completeNoDesc`).
    pub(crate) help: Option<String>,
}

/// The whole answer: candidates, then the directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reply {
    /// Candidates, in the order to show them.
    pub(crate) candidates: Vec<Candidate>,
    /// What the shell does besides.
    pub(crate) directive: Directive,
}

impl Reply {
    fn none() -> Reply {
        Reply { candidates: Vec::new(), directive: Directive::NoFileComp }
    }

    fn files() -> Reply {
        Reply { candidates: Vec::new(), directive: Directive::Default }
    }

    /// Write in Cobra's format. Candidates that would break the line protocol (whitespace or control
    /// characters, possible in names read from a dump) are dropped.
    pub(crate) fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for candidate in &self.candidates {
            if candidate.value.is_empty()
                || candidate.value.chars().any(|c| c.is_whitespace() || crate::escape::is_hidden(c))
            {
                continue;
            }
            match &candidate.help {
                Some(help) => {
                    // Tabs separate the protocol's fields: hidden characters become spaces.
                    let help: String =
                        help.chars().map(|c| if crate::escape::is_hidden(c) { ' ' } else { c }).collect();
                    writeln!(out, "{}\t{}", candidate.value, help.lines().next().unwrap_or_default())?
                }
                None => writeln!(out, "{}", candidate.value)?,
            }
        }
        writeln!(out, ":{}", self.directive as u8)
    }
}

/// The flags typed so far that say where objects come from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Typed {
    /// `--from-file`.
    pub(crate) from_file: Option<String>,
    /// `-n`.
    pub(crate) namespace: Option<String>,
    /// `--kubeconfig`.
    pub(crate) kubeconfig: Option<String>,
    /// `--context`.
    pub(crate) context: Option<String>,
    /// `--cluster`.
    pub(crate) cluster: Option<String>,
    /// `--user`.
    pub(crate) user: Option<String>,
}

impl Typed {
    fn record(&mut self, id: &str, value: &str) {
        let slot = match id {
            "from_file" => &mut self.from_file,
            "namespace" => &mut self.namespace,
            "kubeconfig" => &mut self.kubeconfig,
            "context" => &mut self.context,
            "cluster" => &mut self.cluster,
            "user" => &mut self.user,
            _ => return,
        };
        *slot = Some(value.to_string());
    }

    /// Where to look names up: the dump, or the live cluster with [`LIVE_TIMEOUT`]. None for stdin,
    /// which completion must not read.
    pub(crate) fn source(&self) -> Option<SourceSpec> {
        match self.from_file.as_deref() {
            Some("-") => None,
            Some(path) => Some(SourceSpec::Dump(DumpPath::File(PathBuf::from(path)))),
            None => Some(SourceSpec::Live(LiveSpec {
                kubeconfig: self.kubeconfig.as_ref().map(PathBuf::from),
                context: self.context.clone(),
                cluster: self.cluster.clone(),
                user: self.user.clone(),
                request_timeout: Some(LIVE_TIMEOUT),
                ..LiveSpec::default()
            })),
        }
    }
}

/// Names from a cluster or dump, or from the kubeconfig.
pub(crate) trait Lookup {
    /// Service names in `typed.namespace` (or the default namespace), sorted.
    fn services(&mut self, typed: &Typed) -> Vec<String>;
    /// Namespaces, sorted.
    fn namespaces(&mut self, typed: &Typed) -> Vec<String>;
    /// Node names, sorted.
    fn nodes(&mut self, typed: &Typed) -> Vec<String>;
    /// Zone names of the nodes, sorted.
    fn zones(&mut self, typed: &Typed) -> Vec<String>;
    /// Names of the Deployments, StatefulSets or Pods (`explain deploy/NAME`) in `typed.namespace`
    /// (or the default namespace), sorted.
    fn workloads(&mut self, typed: &Typed, kind: topo_engine::model::WorkloadObject) -> Vec<String>;
    /// Context, cluster or user names of the kubeconfig (`typed.kubeconfig`, else `KUBECONFIG`,
    /// else `~/.kube/config`), in file order.
    fn kubeconfig(&mut self, typed: &Typed, part: KubeconfigPart) -> Vec<String>;
}

/// The real lookup, through `source` (a dump, or the live cluster with a short timeout).
#[derive(Debug, Default)]
pub(crate) struct SourceLookup;

impl Lookup for SourceLookup {
    fn services(&mut self, typed: &Typed) -> Vec<String> {
        let Some(spec) = typed.source() else { return Vec::new() };
        source::probe::service_names(&spec, typed.namespace.as_deref()).unwrap_or_default()
    }

    fn namespaces(&mut self, typed: &Typed) -> Vec<String> {
        let Some(spec) = typed.source() else { return Vec::new() };
        source::probe::namespaces(&spec).unwrap_or_default()
    }

    fn nodes(&mut self, typed: &Typed) -> Vec<String> {
        let Some(spec) = typed.source() else { return Vec::new() };
        source::probe::nodes(&spec).map(|nodes| nodes.names).unwrap_or_default()
    }

    fn zones(&mut self, typed: &Typed) -> Vec<String> {
        let Some(spec) = typed.source() else { return Vec::new() };
        source::probe::nodes(&spec).map(|nodes| nodes.zones).unwrap_or_default()
    }

    fn workloads(&mut self, typed: &Typed, kind: topo_engine::model::WorkloadObject) -> Vec<String> {
        let Some(spec) = typed.source() else { return Vec::new() };
        source::probe::workload_names(&spec, typed.namespace.as_deref(), kind).unwrap_or_default()
    }

    fn kubeconfig(&mut self, typed: &Typed, part: KubeconfigPart) -> Vec<String> {
        let path = typed.kubeconfig.as_deref().map(std::path::Path::new);
        source::probe::kubeconfig_names(path, part).unwrap_or_default()
    }
}

/// Answer `__complete WORDS…` for the parser `root` (the last word is the one being completed).
pub(crate) fn complete(root: &Command, words: &[String], lookup: &mut dyn Lookup) -> Reply {
    let mut root = root.clone();
    root.build();
    let (current, typed_words) = match words.split_last() {
        Some((current, rest)) => (current.as_str(), rest),
        None => ("", &[][..]),
    };
    let walk = Walk::over(&root, typed_words);
    if let Some(arg) = walk.pending {
        return values(arg, walk.command.get_name(), current, "", &walk.typed, lookup);
    }
    if !walk.after_dashdash
        && current.starts_with("--")
        && let Some((name, value)) = current.split_once('=')
    {
        return match find_long(walk.command, &name[2..]) {
            Some(arg) if takes_value(arg) => {
                values(arg, walk.command.get_name(), value, &format!("{name}="), &walk.typed, lookup)
            }
            _ => Reply::none(),
        };
    }
    if !walk.after_dashdash && current.starts_with('-') {
        return flags(walk.command, current, &walk.seen);
    }
    positional(&walk, current, lookup)
}

/// The state after the words before the current one.
struct Walk<'a> {
    command: &'a Command,
    positionals: usize,
    after_dashdash: bool,
    /// A flag whose value is the current word.
    pending: Option<&'a Arg>,
    typed: Typed,
    seen: Vec<String>,
    /// The first positional word (`svc` of `explain svc <TAB>`).
    first_positional: Option<String>,
}

impl<'a> Walk<'a> {
    fn over(root: &'a Command, words: &[String]) -> Walk<'a> {
        let mut walk = Walk {
            command: root,
            positionals: 0,
            after_dashdash: false,
            pending: None,
            typed: Typed::default(),
            seen: Vec::new(),
            first_positional: None,
        };
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let (arg, attached) = match walk.flag(word) {
                Some(found) => found,
                None => {
                    walk.word(word);
                    continue;
                }
            };
            let Some(arg) = arg else { continue };
            if !takes_value(arg) {
                continue;
            }
            match attached.or_else(|| words.next().map(String::as_str)) {
                Some(value) => walk.typed.record(arg.get_id().as_str(), value),
                None => walk.pending = Some(arg),
            }
        }
        walk
    }

    /// A flag word → (the flag that takes or ends the word, its attached value). `None` for a word
    /// that is not a flag; `Some((None, _))` for an unknown flag. Every known flag in the word is
    /// marked as seen.
    fn flag<'w>(&mut self, word: &'w str) -> Option<(Option<&'a Arg>, Option<&'w str>)> {
        if self.after_dashdash || word == "-" || !word.starts_with('-') || word == "--" {
            return None;
        }
        if let Some(long) = word.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (long, None),
            };
            let arg = find_long(self.command, name);
            self.seen.extend(arg.map(|a| a.get_id().to_string()));
            return Some((arg, value));
        }
        // A cluster of shorts (`-An`, `-ndemo`, `-n=demo`): the first one that takes a value ends it.
        let shorts = &word[1..];
        for (at, c) in shorts.char_indices() {
            let arg = self.command.get_arguments().find(|a| a.get_short() == Some(c));
            self.seen.extend(arg.map(|a| a.get_id().to_string()));
            match arg {
                Some(arg) if takes_value(arg) => {
                    let rest = &shorts[at + c.len_utf8()..];
                    let rest = rest.strip_prefix('=').unwrap_or(rest);
                    return Some((Some(arg), (!rest.is_empty()).then_some(rest)));
                }
                Some(_) if at + c.len_utf8() == shorts.len() => return Some((arg, None)),
                Some(_) => {}
                None => return Some((None, None)),
            }
        }
        Some((None, None))
    }

    fn word(&mut self, word: &str) {
        if word == "--" && !self.after_dashdash {
            self.after_dashdash = true;
            return;
        }
        if self.positionals == 0
            && let Some(sub) = self.command.find_subcommand(word)
        {
            self.command = sub;
            return;
        }
        self.positionals += 1;
        self.first_positional.get_or_insert_with(|| word.to_string());
    }
}

fn takes_value(arg: &Arg) -> bool {
    // A boolean flag takes `--flag=false` only in `=` form: the next word is never its value.
    matches!(arg.get_action(), ArgAction::Set | ArgAction::Append) && !arg.is_require_equals_set()
}

fn find_long<'a>(command: &'a Command, name: &str) -> Option<&'a Arg> {
    command
        .get_arguments()
        .find(|a| a.get_long() == Some(name) || a.get_all_aliases().is_some_and(|v| v.contains(&name)))
}

/// Flags of `command` starting with `current`; short forms only for a bare `-`. Flags already given
/// once are left out unless they can repeat.
fn flags(command: &Command, current: &str, seen: &[String]) -> Reply {
    let mut candidates = Vec::new();
    for arg in command.get_arguments().filter(|a| !a.is_hide_set() && !a.is_positional()) {
        let repeats = matches!(arg.get_action(), ArgAction::Append | ArgAction::Count);
        if !repeats && seen.iter().any(|id| id == arg.get_id().as_str()) {
            continue;
        }
        let help = arg.get_help().map(|h| h.to_string());
        if let Some(long) = arg.get_long() {
            candidates.push(Candidate { value: format!("--{long}"), help: help.clone() });
        }
        if let (Some(short), "-") = (arg.get_short(), current) {
            candidates.push(Candidate { value: format!("-{short}"), help });
        }
    }
    candidates.retain(|c| c.value.starts_with(current));
    Reply { candidates, directive: Directive::NoFileComp }
}

/// Subcommands (before the first positional), else the positional argument's values.
fn positional(walk: &Walk<'_>, current: &str, lookup: &mut dyn Lookup) -> Reply {
    let command = walk.command;
    if walk.positionals == 0 && command.has_subcommands() {
        let candidates = command
            .get_subcommands()
            .filter(|s| !s.is_hide_set() && s.get_name().starts_with(current))
            .map(|s| Candidate {
                value: s.get_name().to_string(),
                help: s.get_about().map(|a| a.to_string()),
            })
            .collect();
        return Reply { candidates, directive: Directive::NoFileComp };
    }
    match command.get_positionals().nth(walk.positionals) {
        Some(arg) => values(arg, command.get_name(), current, "", &walk.typed, lookup),
        // The Service positional takes more words (`svc NAME`, `explain svc/A svc/B`): after a
        // type, bare names (TYPE NAME…, as kubectl takes them); after `svc/A`, `svc/NAME` again.
        None => match command.get_positionals().next() {
            Some(arg)
                if arg.get_id() == "service"
                    && arg.get_num_args().is_some_and(|n| n.max_values() > walk.positionals) =>
            {
                match walk.first_positional.as_deref() {
                    Some(kind) if crate::settings::is_service_kind(kind) => {
                        values::service_names(current, &walk.typed, lookup)
                    }
                    // `explain deploy NAME` (one name: explain takes one workload).
                    Some(kind)
                        if command.get_name() == "explain"
                            && walk.positionals == 1
                            && !kind.contains('/') =>
                    {
                        values::workload_names(kind, "", current, &walk.typed, lookup)
                    }
                    Some(first) if first.contains('/') && command.get_name() == "explain" => {
                        values(arg, command.get_name(), current, "", &walk.typed, lookup)
                    }
                    _ => Reply::none(),
                }
            }
            _ => Reply::none(),
        },
    }
}

pub(crate) mod scripts;
mod values;

#[cfg(test)]
mod tests;

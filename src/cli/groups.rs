//! Which groups of shared flags each subcommand takes: `Groups` for every subcommand's arguments,
//! and [`USED_BY`], the same facts as a table of flags, which a test holds every `--help` to.

use super::shared::{
    AllNamespaces, Connection, FromFile, Groups, K8sVersion, Namespace, Selector, TableLook,
};
use super::{
    CheckArgs, CompletionArgs, DumpArgs, ExplainArgs, Output, ReasonsArgs, ServeArgs, SimulateArgs,
    VersionArgs, WatchArgs, ZonesArgs,
};

macro_rules! groups {
    ($args:ty: $($group:ident),*) => {
        impl Groups for $args {
            $(groups!(@ $group);)*
        }
    };
    (@ output) => { fn output(&self) -> Option<Output> { self.output.clone() } };
    (@ file) => { fn file(&self) -> Option<&FromFile> { Some(&self.file) } };
    (@ namespace) => { fn namespace(&self) -> Option<&Namespace> { Some(&self.namespace) } };
    (@ all) => { fn all(&self) -> Option<&AllNamespaces> { Some(&self.all) } };
    (@ selector) => { fn selector(&self) -> Option<&Selector> { Some(&self.selector) } };
    (@ version) => { fn version(&self) -> Option<&K8sVersion> { Some(&self.version) } };
    (@ look) => { fn look(&self) -> Option<&TableLook> { Some(&self.look) } };
    (@ connection) => { fn connection(&self) -> Option<&Connection> { Some(&self.connection) } };
    (@ read) => {
        fn file(&self) -> Option<&FromFile> { Some(&self.read.file) }
        fn version(&self) -> Option<&K8sVersion> { Some(&self.read.version) }
        fn look(&self) -> Option<&TableLook> { Some(&self.read.look) }
        fn connection(&self) -> Option<&Connection> { Some(&self.read.connection) }
    };
}

groups!(ZonesArgs: output, read);
groups!(ExplainArgs: output, namespace, read);
groups!(CheckArgs: output, namespace, all, selector, read);
groups!(DumpArgs: output, namespace, all, file, connection);
groups!(SimulateArgs: output, namespace, read);
groups!(WatchArgs: output, namespace, all, selector, version, look, connection);
groups!(ServeArgs: version, connection);
groups!(VersionArgs: output, connection);
groups!(CompletionArgs:);
groups!(ReasonsArgs:);

/// The kubeconfig and connection flags ([`Connection`]).
pub const CONNECTION: [&str; 13] = [
    "--kubeconfig",
    "--context",
    "--cluster",
    "--user",
    "--request-timeout",
    "--server",
    "--token",
    "--certificate-authority",
    "--insecure-skip-tls-verify",
    "--tls-server-name",
    "--as",
    "--as-group",
    "--v",
];

/// The other shared flags, by subcommand (every subcommand but `reasons` and `completion` also takes
/// [`CONNECTION`]).
pub const USED_BY: [(&str, &[&str]); 10] = [
    ("zones", &["--output", "--from-file", "--k8s-version", "--no-headers", "--color", "--quiet"]),
    (
        "explain",
        &["--output", "--namespace", "--from-file", "--k8s-version", "--no-headers", "--color", "--quiet"],
    ),
    (
        "check",
        &[
            "--output",
            "--namespace",
            "--all-namespaces",
            "--selector",
            "--from-file",
            "--k8s-version",
            "--no-headers",
            "--color",
            "--quiet",
        ],
    ),
    ("dump", &["--output", "--namespace", "--all-namespaces", "--from-file"]),
    (
        "simulate",
        &["--output", "--namespace", "--from-file", "--k8s-version", "--no-headers", "--color", "--quiet"],
    ),
    (
        "watch",
        &[
            "--output",
            "--namespace",
            "--all-namespaces",
            "--selector",
            "--k8s-version",
            "--no-headers",
            "--color",
            "--quiet",
        ],
    ),
    ("serve", &["--k8s-version"]),
    ("reasons", &[]),
    ("version", &["--output"]),
    ("completion", &[]),
];

/// Every shared flag, long and short, as typed.
const SHORT: [(&str, &str); 7] = [
    ("-f", "--from-file"),
    ("-n", "--namespace"),
    ("-A", "--all-namespaces"),
    ("-l", "--selector"),
    ("-o", "--output"),
    ("-s", "--server"),
    ("-v", "--v"),
];

/// Why `command` does not take the shared flag `typed` (`-A`, `--all-namespaces`); None when
/// `typed` is no shared flag.
pub(crate) fn why_not(command: &str, typed: &str) -> Option<&'static str> {
    let flag = SHORT.iter().find(|(short, _)| *short == typed).map_or(typed, |(_, long)| long);
    let shared = CONNECTION.contains(&flag) || USED_BY.iter().any(|(_, flags)| flags.contains(&flag));
    if !shared {
        return None;
    }
    Some(match (command, flag) {
        ("serve", "--namespace" | "--selector") => {
            "serve watches every namespace and exports every Service; filter in PromQL"
        }
        ("serve", "--all-namespaces") => "serve always watches every namespace",
        ("serve", "--output" | "--no-headers" | "--color" | "--quiet") => {
            "serve writes metrics at /metrics, not a report"
        }
        ("serve" | "watch", "--from-file") => {
            "it follows a live cluster; `check -f` and `explain -f` read dumps"
        }
        ("completion", "--output") => "it writes a shell script",
        ("completion", _) => "it writes a shell script and reads no cluster",
        ("reasons", _) => "it prints the reason reference and reads no cluster",
        (_, "--namespace") => "it reads no namespaced object (Nodes, the server, nothing)",
        ("zones" | "version", "--all-namespaces") => {
            "it reads no namespaced object (Nodes, the server, nothing)"
        }
        (_, "--all-namespaces") => "it reads one Service or no Services at all; name the namespace with -n",
        (_, "--selector") => "the label selector picks Services for check and watch only",
        (_, "--from-file") => "it reads no dump; `check -f` and `explain -f` do",
        (_, "--k8s-version") => "it models no behaviour; the reports (explain, check…) do",
        (_, "--no-headers" | "--color") => "it writes no table",
        (_, "--quiet") => "it prints no note: lines to silence",
        _ => "it does not use it",
    })
}

//! The values a flag or positional argument takes: its value enum, or names from the kubeconfig
//! (`--context`, `--cluster`, `--user`), the dump or cluster (Services, namespaces, nodes, zones),
//! the modelled versions, and the fixed words of `simulate`'s `--mode` and `--spread`.

use clap::Arg;
use strum::VariantArray;
use topo_engine::model::version::{NEWEST_MINOR, OLDEST_MINOR};
use topo_engine::report::Verdict;
use topo_engine::report::mode::Mode;
use topo_engine::report::reason::ReasonCode;

use super::{Candidate, Directive, KubeconfigPart, Lookup, Reply, Typed};

/// `simulate --mode`: what `settings::changes::parse_mode` accepts (a unit test holds them equal).
pub(super) const SIMULATE_MODES: [&str; 5] =
    ["Auto", "PreferClose", "PreferSameZone", "PreferSameNode", "none"];

/// The flags whose value is a comma-separated list: each element completes on its own
/// (`--traffic a=50,<TAB>`, `--verdict Blocked,<TAB>`).
const LISTS: [&str; 4] = ["traffic", "verdict", "reason", "mode"];

/// Values of `arg` of subcommand `command` starting with `current`, each written after `prefix`
/// (`--flag=`); in a list value, of the element after the last comma.
pub(super) fn values(
    arg: &Arg,
    command: &str,
    current: &str,
    prefix: &str,
    typed: &Typed,
    lookup: &mut dyn Lookup,
) -> Reply {
    let id = arg.get_id().as_str();
    let list = LISTS.contains(&id) && !(id == "mode" && command == "simulate") && !through_kubectl();
    match current.rfind(',') {
        Some(comma) if list => {
            let (done, element) = current.split_at(comma + 1);
            element_values(arg, command, element, &format!("{prefix}{done}"), typed, lookup)
        }
        _ => element_values(arg, command, current, prefix, typed, lookup),
    }
}

/// Asked through kubectl (completions/kubectl_complete-topo sets the variable): Cobra's bash, zsh
/// and fish scripts read a word with `=` as `--flag=value` and quote commas, so a candidate for a
/// list's later element would be inserted wrong; there a list completes as one value.
fn through_kubectl() -> bool {
    std::env::var_os("KUBECTL_TOPO_COMPLETION_ROUTE").is_some_and(|v| v == "kubectl")
}

/// [`values`] of one value (or one element of a list).
fn element_values(
    arg: &Arg,
    command: &str,
    current: &str,
    prefix: &str,
    typed: &Typed,
    lookup: &mut dyn Lookup,
) -> Reply {
    let possible = arg.get_possible_values();
    let candidates: Vec<Candidate> = if !possible.is_empty() {
        possible
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| {
                // `-o jsonpath` is typed `jsonpath=TEMPLATE`.
                let value = if v.get_name() == "jsonpath" {
                    "jsonpath=".to_string()
                } else {
                    v.get_name().to_string()
                };
                Candidate { value, help: v.get_help().map(|h| h.to_string()) }
            })
            .collect()
    } else {
        match named(arg.get_id().as_str(), command, current, typed, lookup) {
            Named::Candidates(candidates) => candidates,
            Named::Reply(reply) => return reply,
        }
    };
    let candidates: Vec<Candidate> = candidates
        .into_iter()
        .filter(|c| c.value.starts_with(current))
        .map(|c| Candidate { value: format!("{prefix}{}", c.value), ..c })
        .collect();
    // `NODE=`, `zone=A:`: the word is not finished, the shell adds no space.
    let unfinished = |c: &Candidate| c.value.ends_with(['=', ':']);
    let directive = if !candidates.is_empty() && candidates.iter().all(unfinished) {
        Directive::NoSpaceNoFileComp
    } else {
        Directive::NoFileComp
    };
    Reply { candidates, directive }
}

enum Named {
    Candidates(Vec<Candidate>),
    Reply(Reply),
}

/// Values of an argument without a value enum, by its id.
fn named(id: &str, command: &str, current: &str, typed: &Typed, lookup: &mut dyn Lookup) -> Named {
    let candidates = match id {
        "from_file" | "kubeconfig" | "config" | "apply" => return Named::Reply(Reply::files()),
        "service" => return Named::Reply(services(current, typed, lookup)),
        "namespace" => plain(lookup.namespaces(typed)),
        "context" => plain(lookup.kubeconfig(typed, KubeconfigPart::Contexts)),
        "cluster" => plain(lookup.kubeconfig(typed, KubeconfigPart::Clusters)),
        "user" => plain(lookup.kubeconfig(typed, KubeconfigPart::Users)),
        "remove_node" | "not_ready" => plain(lookup.nodes(typed)),
        "set_cpu" => plain(lookup.nodes(typed).into_iter().map(|n| format!("{n}=")).collect()),
        "remove_zone" => plain(lookup.zones(typed)),
        "exclude_namespace" => plain(lookup.namespaces(typed)),
        "verdict" => plain(Verdict::VARIANTS.iter().map(|v| v.to_string()).collect()),
        "reason" => plain(ReasonCode::VARIANTS.iter().map(|c| c.to_string()).collect()),
        // `reasons CODE`: every code with its one-line meaning (what `kubectl topo reasons` lists).
        "code" if command == "reasons" => ReasonCode::VARIANTS
            .iter()
            .map(|c| Candidate {
                value: c.to_string(),
                help: Some(crate::prose::reference::entry(*c).summary.to_string()),
            })
            .collect(),
        "traffic" => plain(lookup.zones(typed).into_iter().map(|z| format!("{z}=")).collect()),
        "spread" => {
            let zones = lookup.zones(typed).into_iter().map(|z| format!("zone={z}:"));
            plain(std::iter::once("even".to_string()).chain(zones).collect())
        }
        "mode" if command == "simulate" => plain(SIMULATE_MODES.map(String::from).to_vec()),
        "mode" => plain(Mode::VARIANTS.iter().map(|m| m.to_string()).collect()),
        "k8s_version" => plain((OLDEST_MINOR..=NEWEST_MINOR).rev().map(|m| format!("1.{m}")).collect()),
        _ => Vec::new(),
    };
    Named::Candidates(candidates)
}

fn plain(values: Vec<String>) -> Vec<Candidate> {
    values.into_iter().map(plain_one).collect()
}

/// `explain`'s Service: `svc/NAME` while nothing or part of `svc/` is typed, `KIND/NAME` after a
/// kind (a Service's, or `deploy/`, `statefulset/`, `pod/` and their other names: the workload's
/// names), and bare names matching what is typed (both forms are accepted, see
/// `settings::parse_service_ref`).
fn services(current: &str, typed: &Typed, lookup: &mut dyn Lookup) -> Reply {
    let names = lookup.services(typed);
    let with_kind = |kind: &str, partial: &str| -> Vec<Candidate> {
        names.iter().filter(|n| n.starts_with(partial)).map(|n| plain_one(format!("{kind}/{n}"))).collect()
    };
    let candidates = match current.split_once('/') {
        Some((kind @ ("svc" | "service" | "services" | "service.v1"), partial)) => with_kind(kind, partial),
        Some((kind, partial)) => return workload_names(kind, &format!("{kind}/"), partial, typed, lookup),
        None if current.is_empty() => with_kind("svc", ""),
        None => {
            let mut candidates = if "svc/".starts_with(current) { with_kind("svc", "") } else { Vec::new() };
            candidates.extend(names.iter().filter(|n| n.starts_with(current)).map(|n| plain_one(n.clone())));
            candidates
        }
    };
    Reply { candidates, directive: Directive::NoFileComp }
}

/// Names of the workload kind `kind` names (`deploy`, `sts`, `pod`… as kubectl takes them; none for
/// any other word) matching `partial`, each written after `prefix` (`deploy/`, or nothing after a
/// separate type word).
pub(super) fn workload_names(
    kind: &str,
    prefix: &str,
    partial: &str,
    typed: &Typed,
    lookup: &mut dyn Lookup,
) -> Reply {
    use crate::settings::BehindKind as K;
    use topo_engine::model::WorkloadObject as W;
    let names = match crate::settings::behind_kind(kind) {
        Some(K::Deployment) => lookup.workloads(typed, W::Deployments),
        Some(K::StatefulSet) => lookup.workloads(typed, W::StatefulSets),
        Some(K::Pod) => lookup.workloads(typed, W::Pods),
        None => Vec::new(),
    };
    let candidates =
        names.iter().filter(|n| n.starts_with(partial)).map(|n| plain_one(format!("{prefix}{n}"))).collect();
    Reply { candidates, directive: Directive::NoFileComp }
}

/// The NAME of `explain svc NAME`: bare names matching what is typed.
pub(super) fn service_names(current: &str, typed: &Typed, lookup: &mut dyn Lookup) -> Reply {
    let names = lookup.services(typed);
    let candidates = names.iter().filter(|n| n.starts_with(current)).map(|n| plain_one(n.clone())).collect();
    Reply { candidates, directive: Directive::NoFileComp }
}

fn plain_one(value: String) -> Candidate {
    Candidate { value, help: None }
}

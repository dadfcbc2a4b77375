//! `__complete` over the real parser, with a fake [`Lookup`].

use clap::CommandFactory;

use strum::VariantArray;
use topo_engine::report::reason::ReasonCode;

use super::*;
use crate::cli::Cli;

/// Names as a cluster with Services in `default` and `demo` would return them.
#[derive(Default)]
struct Fake {
    asked: Vec<Typed>,
}

impl Lookup for Fake {
    fn services(&mut self, typed: &Typed) -> Vec<String> {
        self.asked.push(typed.clone());
        match typed.namespace.as_deref().unwrap_or("default") {
            "demo" => vec!["demo-service".into(), "demo-service-4".into(), "other".into()],
            "default" => vec!["kubernetes".into()],
            _ => vec![],
        }
    }
    fn namespaces(&mut self, typed: &Typed) -> Vec<String> {
        self.asked.push(typed.clone());
        vec!["default".into(), "demo".into()]
    }
    fn nodes(&mut self, _: &Typed) -> Vec<String> {
        vec!["node-a1".into(), "node-a2".into(), "node-b1".into()]
    }
    fn zones(&mut self, _: &Typed) -> Vec<String> {
        vec!["zone-a".into(), "zone-b".into()]
    }
    fn workloads(&mut self, typed: &Typed, kind: topo_engine::model::WorkloadObject) -> Vec<String> {
        use topo_engine::model::WorkloadObject as K;
        self.asked.push(typed.clone());
        let names: &[&str] = match (typed.namespace.as_deref().unwrap_or("default"), kind) {
            ("demo", K::Deployments) => &["web", "worker"],
            ("demo", K::StatefulSets) => &["db"],
            ("demo", K::Pods) => &["web-7d4b9-abcde", "worker-5c8f-xyz"],
            _ => &[],
        };
        names.iter().map(|n| n.to_string()).collect()
    }
    fn kubeconfig(&mut self, typed: &Typed, part: KubeconfigPart) -> Vec<String> {
        let names: &[&str] = match (typed.kubeconfig.as_deref(), part) {
            (Some(_), _) => &["other"],
            (None, KubeconfigPart::Contexts) => &["prod", "staging"],
            (None, KubeconfigPart::Clusters) => &["prod-cluster"],
            (None, KubeconfigPart::Users) => &["admin", "viewer"],
        };
        names.iter().map(|n| n.to_string()).collect()
    }
}

fn run(words: &[&str]) -> (Vec<String>, u8) {
    let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    let reply = complete(&Cli::command(), &words, &mut Fake::default());
    (reply.candidates.iter().map(|c| c.value.clone()).collect(), reply.directive as u8)
}

fn values(words: &[&str]) -> Vec<String> {
    run(words).0
}

#[test]
fn subcommands_without_the_hidden_ones() {
    assert_eq!(
        run(&[""]),
        (
            [
                "zones",
                "explain",
                "check",
                "dump",
                "simulate",
                "watch",
                "serve",
                "reasons",
                "completion",
                "version",
                "help"
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            4
        )
    );
    assert_eq!(values(&["c"]), ["check", "completion"]);
    assert_eq!(values(&["__"]), Vec::<String>::new());
}

#[test]
fn flags_of_the_subcommand_including_globals() {
    let flags = values(&["check", "--"]);
    for flag in
        ["--fail-on", "--from-file", "--namespace", "--all-namespaces", "--output", "--color", "--help"]
    {
        assert!(flags.contains(&flag.to_string()), "{flag} missing from {flags:?}");
    }
    assert!(!flags.contains(&"--exit-code".to_string()), "explain's flag offered for check");
    assert_eq!(values(&["explain", "--ex"]), ["--exit-code"]);
    assert!(values(&["zones", "-"]).contains(&"-f".to_string()), "short forms for a bare -");
    assert!(!values(&["zones", "-"]).contains(&"-n".to_string()), "zones takes no -n");
    assert!(!values(&["zones", "--"]).iter().any(|f| !f.starts_with("--")));
}

#[test]
fn flags_given_once_are_not_offered_again() {
    let flags = values(&["check", "-Ao", "json", "--no-headers", "--"]);
    assert!(!flags.contains(&"--all-namespaces".to_string()));
    assert!(!flags.contains(&"--no-headers".to_string()));
    assert!(!flags.contains(&"--output".to_string()), "-o in a cluster of shorts");
    assert!(flags.contains(&"--selector".to_string()));
}

#[test]
fn value_enums_with_descriptions() {
    assert_eq!(
        run(&["check", "-o", ""]),
        (
            [
                "table",
                "wide",
                "json",
                "yaml",
                "html",
                "dot",
                "mermaid",
                "markdown",
                "junit",
                "sarif",
                "name",
                "jsonpath=",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            4
        )
    );
    assert_eq!(values(&["zones", "--output", "js"]), ["json", "jsonpath="]);
    assert_eq!(
        values(&["zones", "-o", ""]),
        ["table", "json", "yaml", "jsonpath="],
        "only what zones writes"
    );
    assert_eq!(values(&["zones", "--color="]), ["--color=auto", "--color=always", "--color=never"]);
    assert_eq!(values(&["check", "--fail-on", "b"]), ["blocked"]);
    assert_eq!(values(&["completion", "p"]), ["powershell"]);
    let reply = complete(&Cli::command(), &["check".into(), "-o".into(), "w".into()], &mut Fake::default());
    assert_eq!(reply.candidates[0].help.as_deref(), Some("Tables with more columns"));
}

#[test]
fn paths_fall_back_to_the_shells_file_completion() {
    assert_eq!(run(&["zones", "--from-file", ""]), (vec![], 0));
    assert_eq!(run(&["zones", "-f", "exa"]), (vec![], 0));
    assert_eq!(run(&["zones", "--kubeconfig", ""]), (vec![], 0));
    assert_eq!(run(&["zones", "--kubeconfig", "/k", "--context", "x"]), (vec![], 4), "no file names");
}

#[test]
fn services_as_svc_slash_name_in_the_typed_namespace() {
    assert_eq!(
        values(&["explain", "-n", "demo", ""]),
        ["svc/demo-service", "svc/demo-service-4", "svc/other"]
    );
    assert_eq!(values(&["explain", "-n", "demo", "svc/demo-service-"]), ["svc/demo-service-4"]);
    assert_eq!(values(&["explain", "-ndemo", "service/o"]), ["service/other"]);
    assert_eq!(values(&["explain", "--namespace=demo", "de"]), ["demo-service", "demo-service-4"]);
    assert_eq!(values(&["explain", "s"]), ["svc/kubernetes"]);
    assert_eq!(values(&["explain", "deploy/"]), Vec::<String>::new());
    // explain takes several Services: the same form again.
    assert_eq!(values(&["explain", "svc/kubernetes", ""]), ["svc/kubernetes"]);
    assert_eq!(values(&["explain", "-n", "demo", "svc", "other", "demo-service-"]), ["demo-service-4"]);
    assert_eq!(values(&["simulate", "svc/kubernetes", ""]), Vec::<String>::new(), "one Service only");
    // TYPE NAME, as kubectl takes it: after a Service type, the bare names.
    assert_eq!(values(&["explain", "-n", "demo", "svc", "demo-s"]), ["demo-service", "demo-service-4"]);
    assert_eq!(values(&["simulate", "Service", ""]), ["kubernetes"]);
    assert_eq!(values(&["explain", "deploy", ""]), Vec::<String>::new());
    assert_eq!(values(&["simulate", "svc", "kubernetes", ""]), Vec::<String>::new(), "one Service only");
}

#[test]
fn namespaces_and_versions() {
    assert_eq!(values(&["check", "-n", "d"]), ["default", "demo"]);
    assert_eq!(values(&["explain", "--namespace=de"]), ["--namespace=default", "--namespace=demo"]);
    assert_eq!(values(&["zones", "--k8s-version", "1.3"])[0], "1.37");
}

#[test]
fn the_lookup_sees_the_source_flags_typed_so_far() {
    let words: Vec<String> =
        ["explain", "--context", "prod", "--kubeconfig=/k", "-f", "d.yaml", "-n", "demo", ""]
            .map(String::from)
            .into();
    let mut fake = Fake::default();
    complete(&Cli::command(), &words, &mut fake);
    let expected = Typed {
        from_file: Some("d.yaml".into()),
        namespace: Some("demo".into()),
        kubeconfig: Some("/k".into()),
        context: Some("prod".into()),
        cluster: None,
        user: None,
    };
    assert_eq!(fake.asked, [expected]);
}

#[test]
fn live_lookups_use_the_short_timeout_and_stdin_is_never_read() {
    let live = Typed { context: Some("prod".into()), ..Typed::default() };
    match live.source() {
        Some(SourceSpec::Live(spec)) => {
            assert_eq!(spec.request_timeout, Some(LIVE_TIMEOUT));
            assert_eq!(spec.context.as_deref(), Some("prod"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(Typed { from_file: Some("-".into()), ..Typed::default() }.source(), None);
}

#[test]
fn reply_is_cobras_format_and_drops_unsafe_candidates() {
    let reply = Reply {
        candidates: vec![
            Candidate { value: "json".into(), help: Some("The report\tas JSON.".into()) },
            Candidate { value: "bad\u{1b}[2J".into(), help: None },
            Candidate { value: "two words".into(), help: None },
            Candidate { value: "svc/a".into(), help: None },
        ],
        directive: Directive::NoFileComp,
    };
    let mut out = Vec::new();
    reply.write(&mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "json\tThe report as JSON.\nsvc/a\n:4\n");
}

#[test]
fn after_dashdash_nothing_is_a_flag() {
    assert_eq!(run(&["explain", "--", "--"]).0, Vec::<String>::new());
}

#[test]
fn kubeconfig_names_for_context_cluster_and_user() {
    assert_eq!(run(&["zones", "--context", ""]), (vec!["prod".into(), "staging".into()], 4));
    assert_eq!(values(&["check", "--context=s"]), ["--context=staging"]);
    assert_eq!(values(&["check", "--cluster", ""]), ["prod-cluster"]);
    assert_eq!(values(&["check", "--user", "v"]), ["viewer"]);
    assert_eq!(values(&["check", "--kubeconfig", "/k", "--context", ""]), ["other"], "the file typed");
}

#[test]
fn nodes_and_zones_for_the_what_if_flags() {
    assert_eq!(values(&["simulate", "svc/a", "--remove-node", "node-a"]), ["node-a1", "node-a2"]);
    assert_eq!(values(&["simulate", "svc/a", "--not-ready", ""]).len(), 3);
    assert_eq!(values(&["simulate", "svc/a", "--remove-zone", ""]), ["zone-a", "zone-b"]);
    assert_eq!(run(&["simulate", "svc/a", "--set-cpu", "node-b"]), (vec!["node-b1=".into()], 6));
    assert_eq!(run(&["explain", "svc/a", "--traffic", "zone-"]).1, 6, "ZONE= goes on");
    assert_eq!(
        run(&["simulate", "svc/a", "--spread", ""]),
        (vec!["even".into(), "zone=zone-a:".into(), "zone=zone-b:".into()], 4)
    );
    assert_eq!(run(&["simulate", "svc/a", "--spread", "zone=zone-b"]), (vec!["zone=zone-b:".into()], 6));
}

#[test]
fn modes_of_simulate_parse_and_modes_of_check_are_the_report_names() {
    let modes = values(&["simulate", "svc/a", "--mode", ""]);
    assert_eq!(modes, values::SIMULATE_MODES);
    for mode in &modes {
        assert!(crate::settings::changes::parse_mode(mode).is_ok(), "simulate refuses --mode {mode}");
    }
    assert_eq!(values(&["check", "--mode", "Prefer"]), ["PreferClose", "PreferSameZone", "PreferSameNode"]);
    assert!(values(&["check", "--mode", ""]).contains(&"None".to_string()));
}

#[test]
fn list_values_complete_each_element_and_the_filters_have_candidates() {
    // Issue 35: `--traffic a=50,<TAB>` completes the zone after the comma, without a space.
    assert_eq!(
        run(&["check", "--traffic", "zone-a=50,zone-"]),
        (vec!["zone-a=50,zone-a=".into(), "zone-a=50,zone-b=".into()], 6)
    );
    assert_eq!(values(&["check", "--traffic=zone-a=50,zone-b"]), ["--traffic=zone-a=50,zone-b="]);
    assert_eq!(values(&["check", "--verdict", "Blocked,Dr"]), ["Blocked,Drift"]);
    assert_eq!(values(&["check", "--verdict", "Bl"]), ["Blocked"]);
    assert_eq!(values(&["check", "--reason", "OverloadT"]), ["OverloadThreshold"]);
    assert_eq!(values(&["check", "--mode", "Auto,PreferSameN"]), ["Auto,PreferSameNode"]);
    assert_eq!(values(&["check", "--exclude-namespace", "de"]), ["default", "demo"]);
    // simulate's --mode is one value.
    assert!(values(&["simulate", "svc/x", "--mode", "Auto,"]).is_empty());
}

#[test]
fn reasons_completes_every_code_with_its_meaning() {
    let words = ["reasons".to_string(), String::new()];
    let reply = complete(&Cli::command(), &words, &mut Fake::default());
    let codes: Vec<&str> = reply.candidates.iter().map(|c| c.value.as_str()).collect();
    let every: Vec<String> = ReasonCode::VARIANTS.iter().map(|c| c.to_string()).collect();
    assert_eq!(codes, every);
    assert_eq!(reply.directive, Directive::NoFileComp);
    let overload = reply.candidates.iter().find(|c| c.value == "OverloadThreshold").expect("a code");
    assert_eq!(
        overload.help.as_deref(),
        Some(crate::prose::reference::entry(ReasonCode::OverloadThreshold).summary)
    );
    assert_eq!(values(&["reasons", "Overl"]), ["OverloadThreshold", "Overloaded"]);
    // One code only: nothing after it.
    assert!(values(&["reasons", "OverloadThreshold", ""]).is_empty());
}

#[test]
fn workload_names_after_their_kind_in_the_typed_namespace() {
    let explain = |word: &str| values(&["explain", "-n", "demo", word]);
    assert_eq!(explain("deploy/"), ["deploy/web", "deploy/worker"]);
    assert_eq!(explain("deploy/wo"), ["deploy/worker"]);
    assert_eq!(explain("deployments.apps/w"), ["deployments.apps/web", "deployments.apps/worker"]);
    assert_eq!(explain("sts/"), ["sts/db"]);
    assert_eq!(explain("statefulset/"), ["statefulset/db"]);
    assert_eq!(explain("pod/web"), ["pod/web-7d4b9-abcde"]);
    assert_eq!(explain("po/"), ["po/web-7d4b9-abcde", "po/worker-5c8f-xyz"]);
    assert_eq!(values(&["explain", "deploy/"]), Vec::<String>::new(), "none in the default namespace");
    assert_eq!(values(&["explain", "-n", "demo", "deploy", "w"]), ["web", "worker"], "TYPE NAME");
    assert_eq!(values(&["explain", "-n", "demo", "pod", ""]).len(), 2);
    assert_eq!(
        values(&["explain", "-n", "demo", "configmap/"]),
        Vec::<String>::new(),
        "not a kind explain reads"
    );
}

//! Issue 35, items 2, 8, 9 and 10 as a user meets them: one meaning per name across the report
//! formats, reports that point somewhere, kubectl's conveniences. Each test runs the binary and
//! failed on the behaviour the issue reported.

use crate::support::{demo, read, topo};

fn demo_arg() -> String {
    demo().display().to_string()
}

/// Exit code, stdout and stderr of `kubectl-topo args…`.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = topo().args(args).output().expect("runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8");
    (out.status.code(), text(out.stdout), text(out.stderr))
}

/// stdout of a run that must exit with `code`.
fn stdout(args: &[&str], code: i32) -> String {
    let (got, out, err) = run(args);
    assert_eq!(got, Some(code), "{args:?}: {err}");
    out
}

// Item 2: one meaning per name.

/// w01 (a Drift: hints missing today, written by the next sync) tells the two shares apart.
fn w01() -> String {
    crate::support::path("tests/fixtures/w01-docs-12-4-vcpu.yaml").display().to_string()
}

/// Service w/svc's family: today's share and the one after the next sync, as the table shows them
/// (CROSS-ZONE, AFTER-SYNC).
fn table_shares() -> (String, String) {
    let wide = stdout(&["check", "-A", "-f", &w01(), "-o", "wide"], 1);
    let header: Vec<&str> = wide.lines().next().unwrap().split_whitespace().collect();
    let row: Vec<&str> = wide.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(row[1], "svc", "{wide}");
    let at = |name: &str| row[header.iter().position(|h| *h == name).unwrap()].to_string();
    (at("CROSS-ZONE"), at("AFTER-SYNC"))
}

#[test]
fn each_share_has_one_name_in_every_format() {
    let (now, after) = table_shares();
    assert_ne!(now, after, "the fixture no longer tells the two shares apart");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["check", "-A", "-f", &w01(), "-o", "json"], 1)).unwrap();
    let family = json["services"][0]["families"][0].clone();
    let percent = |v: &serde_json::Value| format!("{:.1}%", v.as_f64().unwrap() * 100.0);
    assert_eq!(percent(&family["crossZoneNow"]), now);
    assert_eq!(percent(&family["crossZoneAfterSync"]), after);
    assert!(family.get("crossZone").is_none(), "the ambiguous name is still there: {family}");
    // Markdown and HTML head both shares with the same words, and show the same values.
    let markdown = stdout(&["check", "-A", "-f", &w01(), "-o", "markdown"], 1);
    let html = stdout(&["check", "-A", "-f", &w01(), "-o", "html"], 1);
    for page in [&markdown, &html] {
        assert!(page.contains("Cross-zone today") && page.contains("After sync"), "{page}");
    }
    let md_row = markdown.lines().find(|l| l.contains("| svc |")).unwrap();
    assert!(md_row.contains(&format!("| {now} | {after} |")), "{md_row}");
    let html_row = html.split("<tr class=\"row\">").nth(1).unwrap();
    let cells: Vec<&str> =
        html_row.split("<td class=\"num\">").skip(1).map(|c| c.split('<').next().unwrap()).collect();
    assert_eq!(cells[1..], [now.as_str(), after.as_str()], "{html_row}");
}

#[test]
fn the_schema_describes_the_new_name() {
    let schema =
        std::fs::read_to_string(crate::support::path("docs/schema/kubectl-topo.v1alpha1.json")).unwrap();
    assert!(schema.contains("\"crossZoneAfterSync\"") && schema.contains("json-migration.md"));
    let doc = std::fs::read_to_string(crate::support::path("docs/json-migration.md")).unwrap();
    assert!(doc.contains("crossZoneAfterSync") && doc.contains("CheckReportList"));
}

/// The kind of `check … -o FORMAT` for `args`.
fn kind(args: &[&str], format: &str) -> String {
    let mut all = vec!["check", "-A"];
    all.extend_from_slice(args);
    all.extend(["-o", format]);
    let out = stdout(&all, 0);
    let value: serde_json::Value = match format {
        "json" => serde_json::from_str(&out).unwrap(),
        _ => serde_json::to_value(serde_yaml_kind(&out)).unwrap(),
    };
    value["kind"].as_str().unwrap().to_string()
}

/// `kind:` of a YAML document (its top-level line).
fn serde_yaml_kind(yaml: &str) -> serde_json::Value {
    let kind = yaml.lines().find_map(|l| l.strip_prefix("kind: ")).expect("a kind line");
    serde_json::json!({ "kind": kind.trim_matches('"') })
}

#[test]
fn check_json_has_one_shape_per_kind_of_input() {
    let d = demo_arg();
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(demo(), dir.path().join("one.yaml")).unwrap();
    let dir_arg = dir.path().display().to_string();
    for format in ["json", "yaml"] {
        assert_eq!(kind(&["-f", &d], format), "CheckReport");
        assert_eq!(kind(&["-f", &d, "--list"], format), "CheckReportList");
        // A directory holding one dump is a list today, as it will be with two.
        assert_eq!(kind(&["-f", &dir_arg], format), "CheckReportList");
        assert_eq!(kind(&["-f", &d, "-f", &d], format), "CheckReportList");
    }
    // The table of one dump in a directory stays the one-cluster table.
    let table = stdout(&["check", "-A", "-f", &dir_arg], 0);
    assert!(table.starts_with("NAMESPACE"), "{table}");
}

// Item 9: reports that point somewhere.

#[test]
fn the_replicas_the_remedy_points_to_are_below_it() {
    let d = demo_arg();
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["check", "-A", "-f", &d, "-o", "json"], 0)).unwrap();
    let blocked = json["services"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["service"]["name"] == "demo-service-4")
        .unwrap();
    let nearest = blocked["families"][0]["replicasNeeded"].as_i64().expect("demo-service-4 needs replicas");
    let html = stdout(&["explain", "svc/demo-service-4", "-n", "demo", "-f", &d, "-o", "html"], 0);
    let pointer = html.find("see Replicas below").expect("the remedy points to the replicas");
    let section = html.find("<div class=\"replicas\">").expect("an HTML Replicas section");
    assert!(pointer < section, "the Replicas section is above its pointer");
    assert!(
        html[section..].contains(&format!("Nearest count that works: {nearest}")),
        "{}",
        &html[section..]
    );
    let markdown = stdout(&["check", "-A", "-f", &d, "-o", "markdown"], 0);
    let pointer = markdown.find("see Replicas below").expect("the remedy points to the replicas");
    let line = markdown.find(&format!("Replicas: hints hold at {nearest} ready endpoints")).expect(&markdown);
    assert!(pointer < line, "{markdown}");
}

/// `ns/name` of each `check -o html` table row, then of each details section, in page order.
fn html_order(html: &str) -> (Vec<String>, Vec<String>) {
    let names = |marker: &str, end: char| -> Vec<String> {
        html.split(marker)
            .skip(1)
            .map(|s| s.split(end).next().unwrap().rsplit('>').next().unwrap().to_string())
            .collect()
    };
    (names("<tr class=\"row\"><td><a href=", '<'), names("<summary>", '<'))
}

#[test]
fn check_html_details_follow_the_table_and_say_what_is_hidden() {
    let d = demo_arg();
    for sort in ["namespace", "verdict", "replicas"] {
        let html = stdout(&["check", "-A", "-f", &d, "--sort-by", sort, "-o", "html"], 0);
        let (rows, details) = html_order(&html);
        assert!(rows.len() > 1, "{html}");
        assert_eq!(rows, details, "--sort-by {sort}: details in another order than the table");
    }
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["check", "-A", "-f", &d, "-o", "json"], 0)).unwrap();
    let hidden = json["summary"]["hidden"].as_u64().unwrap_or(0);
    assert!(hidden > 0, "the demo no longer hides a Service");
    let html = stdout(&["check", "-A", "-f", &d, "-o", "html"], 0);
    assert!(html.contains(&format!("; {hidden} hidden (")), "the hidden count is missing");
}

// Item 10: kubectl's conveniences.

#[test]
fn quiet_silences_the_notes_and_nothing_else() {
    let d = demo_arg();
    let (code, loud_out, loud_err) = run(&["check", "-A", "-f", &d]);
    assert_eq!(code, Some(0));
    assert!(loud_err.lines().any(|l| l.starts_with("note:")), "the demo no longer gets a note: {loud_err}");
    let (code, out, err) = run(&["check", "-A", "-f", &d, "--quiet"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, loud_out);
    assert_eq!(err, "", "--quiet printed on stderr");
    // Errors are still said.
    let (code, _, err) = run(&["explain", "svc/nope", "-n", "demo", "-f", &d, "--quiet"]);
    assert_eq!(code, Some(2));
    assert!(err.starts_with("error:"), "{err}");
}

#[test]
fn output_name_lists_services_as_kubectl_does() {
    let d = demo_arg();
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["check", "-A", "-f", &d, "-o", "json"], 0)).unwrap();
    let expected: String = json["services"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("service/{}\n", s["service"]["name"].as_str().unwrap()))
        .collect();
    assert_eq!(stdout(&["check", "-A", "-f", &d, "-o", "name", "--quiet"], 0), expected);
    assert_eq!(
        stdout(&["explain", "svc/demo-service", "-n", "demo", "-f", &d, "-o", "name"], 0),
        "service/demo-service\n"
    );
    // A failing Service keeps check's exit code under -o name.
    assert_eq!(run(&["check", "-A", "-f", &d, "-o", "name", "--fail-on", "blocked"]).0, Some(1));
}

#[test]
fn output_jsonpath_reads_kubectls_templates() {
    let d = demo_arg();
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["check", "-A", "-f", &d, "-o", "json"], 0)).unwrap();
    let services = json["services"].as_array().unwrap();
    let names: Vec<&str> = services.iter().map(|s| s["service"]["name"].as_str().unwrap()).collect();
    assert_eq!(
        stdout(&["check", "-A", "-f", &d, "-o", "jsonpath={.services[*].service.name}"], 0),
        names.join(" ")
    );
    let lines: String = services
        .iter()
        .map(|s| {
            format!(
                "{}\t{}\n",
                s["service"]["name"].as_str().unwrap(),
                s["families"][0]["verdict"].as_str().unwrap()
            )
        })
        .collect();
    let template = r#"jsonpath={range .services[*]}{.service.name}{"\t"}{.families[0].verdict}{"\n"}{end}"#;
    assert_eq!(stdout(&["check", "-A", "-f", &d, "-o", template], 0), lines);
    assert_eq!(stdout(&["zones", "-f", &d, "-o", "jsonpath={.kind}"], 0), "ZoneReport");
    // What the subset does not read: one error line, exit 2.
    let (code, out, err) = run(&["check", "-A", "-f", &d, "-o", "jsonpath={.services[?(@.mode==\"Auto\")]}"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty());
    assert_eq!(err.lines().filter(|l| l.starts_with("error:")).count(), 1, "{err}");
    assert!(err.contains("filters [?(") && err.contains("are not supported"), "{err}");
    let (code, _, err) = run(&["check", "-A", "-f", &d, "-o", "jsonpath"]);
    assert_eq!(code, Some(2), "{err}");
}

// Small: watch's Service as kubectl takes it; the exit-code help says the closed-pipe rule.

#[test]
fn watch_takes_the_service_as_explain_does() {
    for words in [&["svc", "demo"][..], &["service/demo"][..], &["Service", "demo"][..]] {
        let mut args = vec!["watch"];
        args.extend_from_slice(words);
        args.push("-A");
        let (code, _, err) = run(&args);
        assert_eq!(code, Some(2));
        // Read as one Service: refused for -A, not for its syntax.
        assert!(err.contains("follows one Service: use -n NAMESPACE, not -A"), "{words:?}: {err}");
    }
    let (code, _, err) = run(&["watch", "deploy", "demo"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("names another kind"), "{err}");
}

#[test]
fn the_exit_code_help_says_what_a_closed_pipe_does() {
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, Some(0));
    let codes = &out[out.find("Exit codes:").expect("the exit-code table")..];
    assert!(codes.contains("closed stdout") && codes.contains("the code it computed"), "{codes}");
}

/// The demo with demo-service-4 annotated `kubectl-topo.io/ignore: VALUE`.
fn demo_ignoring(value: &str) -> String {
    let annotated = read(&demo()).replace(
        "      service.kubernetes.io/topology-mode: Auto\n    creationTimestamp: \"2026-07-31T14:02:11Z\"\n    labels:\n      app: demo-service-4\n",
        &format!("      service.kubernetes.io/topology-mode: Auto\n      kubectl-topo.io/ignore: {value}\n    creationTimestamp: \"2026-07-31T14:02:11Z\"\n    labels:\n      app: demo-service-4\n"),
    );
    assert!(annotated.contains("kubectl-topo.io/ignore"), "the fixture changed");
    annotated
}

#[test]
fn explain_honours_the_ignore_rules_as_check_does() {
    let explain = ["explain", "svc/demo-service-4", "-n", "demo", "--fail-on", "blocked"];
    // Without a rule, Blocked fails.
    assert_eq!(run(&[&explain[..], &["-f", &demo_arg()]].concat()).0, Some(1));
    // The annotation sets OverloadThreshold aside: shown as ignored, no failure.
    let out = topo()
        .args(explain)
        .args(["-f", "-"])
        .write_stdin(demo_ignoring("OverloadThreshold"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("ignored:OverloadThreshold:"), "{text}");
    let json = topo()
        .args(explain)
        .args(["-f", "-", "-o", "json"])
        .write_stdin(demo_ignoring("OverloadThreshold"))
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["families"][0]["ignored"][0]["code"], "OverloadThreshold", "{json}");
    // The config file the same way, through --config and KUBECTL_TOPO_CONFIG.
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.yaml");
    std::fs::write(
        &config,
        "excludes:\n  - namespace: demo\n    name: demo-service-*\n    reasons: [OverloadThreshold]\n",
    )
    .unwrap();
    let (d, config_arg) = (demo_arg(), config.display().to_string());
    let with_flag = [&explain[..], &["-f", &d, "--config", &config_arg]].concat();
    let (code, out, err) = run(&with_flag);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("ignored:OverloadThreshold:"), "{out}");
    let by_env =
        topo().args(explain).args(["-f", &demo_arg()]).env("KUBECTL_TOPO_CONFIG", &config).output().unwrap();
    assert_eq!(by_env.status.code(), Some(0));
}

#[test]
fn the_k9s_plugins_parse_and_their_commands_run_on_the_example_dump() {
    let text = read(&crate::support::path("docs/k9s/plugins.yaml"));
    let doc: serde_json::Value = serde_saphyr::from_str(&text).expect("plugins.yaml parses");
    let plugins = doc["plugins"].as_object().expect("a plugins map");
    assert!(plugins.len() >= 2, "{doc}");
    let binary = assert_cmd::cargo::cargo_bin("kubectl-topo").display().to_string();
    for (name, plugin) in plugins {
        for key in ["shortCut", "description", "scopes", "command", "args"] {
            assert!(plugin.get(key).is_some(), "{name}: no {key}");
        }
        assert_eq!(plugin["command"], "sh", "{name}");
        let script = plugin["args"][1].as_str().expect("sh -c SCRIPT");
        // As k9s runs it, but on the example dump instead of the context, and without a pager.
        let script = script
            .replace("kubectl topo", &format!("'{binary}'"))
            .replace("--context \"$CONTEXT\"", &format!("-f '{}'", demo_arg()))
            .replace("| less -R", "| cat");
        let out = std::process::Command::new("sh")
            .args(["-c", &script])
            .env("NAME", "demo-service-4")
            .env("NAMESPACE", "demo")
            .env("CONTEXT", "unused")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains("demo-service-4"), "{name}: {text}");
        assert!(text.contains("\u{1b}["), "{name}: --color always gives less -R colours");
    }
}

#[test]
fn dump_from_a_file_converts_and_narrows_it() {
    let d = demo_arg();
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["dump", "-f", &d, "-n", "demo", "-o", "json"], 0)).expect("JSON");
    let items = json["items"].as_array().unwrap();
    let namespaces: Vec<&str> =
        items.iter().filter_map(|i| i.pointer("/metadata/namespace")?.as_str()).collect();
    assert!(!namespaces.is_empty() && namespaces.iter().all(|ns| *ns == "demo"), "{namespaces:?}");
    assert!(items.iter().any(|i| i["kind"] == "Node"), "cluster-scoped objects are kept");
    // Whole objects, not the model's fields: the Node keeps its labels as dumped.
    assert!(items.iter().any(|i| i.pointer("/metadata/labels/beta.kubernetes.io~1arch").is_some()));
    // Read back, it gives the same report on its namespace as the YAML dump.
    let dir = tempfile::tempdir().unwrap();
    let converted = dir.path().join("demo.json");
    std::fs::write(&converted, serde_json::to_string(&json).unwrap()).unwrap();
    let from_yaml = stdout(&["check", "-n", "demo", "-f", &d, "--quiet"], 0);
    let from_json = stdout(&["check", "-n", "demo", "-f", &converted.display().to_string(), "--quiet"], 0);
    assert_eq!(from_yaml, from_json);
    // -A keeps every namespace.
    let all: serde_json::Value =
        serde_json::from_str(&stdout(&["dump", "-f", &d, "-A", "-o", "json"], 0)).unwrap();
    assert!(all["items"].as_array().unwrap().len() > items.len());
}

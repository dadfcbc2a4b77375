//! Every reason code and every verdict goes through every renderer under its one declared name, with
//! its sentence where the format shows sentences: nothing reaches a user as a Rust `Debug` name or
//! a fallback text. The reports are real ones (the demo dump) with their reasons replaced.

use kubectl_topo::prose;
use kubectl_topo::render::{self, CheckContext, Format as OutputFormat, RenderOptions};
use kubectl_topo::source::dump::parse_dump;
use kubectl_topo::triage::{self, FailOn, IgnoreRules, View};
use strum::VariantArray;
use topo_engine::core::analyze;
use topo_engine::model::Snapshot;
use topo_engine::report::reason::{Reason, ReasonCode};
use topo_engine::report::watch::{self, ChangeKind};
use topo_engine::report::{ServiceReport, Verdict};

use crate::support::{demo, read};

const FORMATS: [OutputFormat; 4] =
    [OutputFormat::Table, OutputFormat::Wide, OutputFormat::Json, OutputFormat::Yaml];

fn every_reason() -> Vec<Reason> {
    ReasonCode::VARIANTS.iter().map(|&code| Reason::new(code)).collect()
}

fn snapshot() -> Snapshot {
    parse_dump(&read(&demo()), "demo").expect("demo dump parses").snapshot
}

/// The first Service's report, every family with `verdict` and every reason code.
fn explain(snapshot: &Snapshot, verdict: Verdict) -> ServiceReport {
    let service = &snapshot.services[0];
    let mut report = analyze::explain(snapshot, service, "1.36".parse().unwrap());
    for family in &mut report.families {
        family.verdict = verdict;
        family.reasons = every_reason();
    }
    report.notes = every_reason();
    report
}

fn rendered(
    format: OutputFormat,
    write: impl FnOnce(&RenderOptions, &mut Vec<u8>) -> std::io::Result<()>,
) -> String {
    let mut out = Vec::new();
    write(&RenderOptions { format, color: false, no_headers: false, unicode: false, width: None }, &mut out)
        .expect("render");
    String::from_utf8(out).expect("UTF-8")
}

/// Each code appears under its declared name; in formats that carry sentences, with its sentence.
fn assert_codes(out: &str, format: OutputFormat, with_sentences: bool) {
    for code in ReasonCode::VARIANTS {
        let name: &'static str = code.into();
        assert!(out.contains(name), "{format:?}: {name} missing");
        if with_sentences {
            let sentence = prose::sentence(&Reason::new(*code));
            let shown = if format == OutputFormat::Json {
                serde_json::to_string(&sentence).unwrap()
            } else {
                sentence
            };
            let start: String = shown.chars().take(40).collect();
            assert!(out.contains(&start), "{format:?}: the sentence of {name} is missing: {start}");
        }
    }
}

#[test]
fn explain_shows_every_code_and_verdict_in_every_format() {
    let snapshot = snapshot();
    for &verdict in Verdict::VARIANTS {
        let report = explain(&snapshot, verdict);
        for format in FORMATS {
            let out = rendered(format, |o, w| render::explain(&report, o, w));
            assert!(out.contains(&verdict.to_string()), "{format:?}: verdict {verdict} missing");
            assert_codes(&out, format, format != OutputFormat::Yaml);
        }
    }
}

#[test]
fn check_shows_every_code_and_verdict_in_every_format() {
    let snapshot = snapshot();
    let services: Vec<_> = snapshot.services.iter().collect();
    for &verdict in Verdict::VARIANTS {
        let mut report = analyze::check(&snapshot, &services, "1.36".parse().unwrap());
        for family in report.services.iter_mut().flat_map(|row| row.families.iter_mut()) {
            family.verdict = verdict;
            family.reasons = every_reason();
        }
        let view = View { show_all: true, ..View::default() };
        let triaged = triage::triage(report, &|_| None, &view, &IgnoreRules::default(), FailOn::Any);
        let reports = [OutputFormat::Markdown, OutputFormat::Junit, OutputFormat::Sarif];
        for format in FORMATS.into_iter().chain(reports) {
            let out = rendered(format, |o, w| render::check(&triaged, &CheckContext::default(), o, w));
            assert!(out.contains(&verdict.to_string()), "{format:?}: verdict {verdict} missing");
            if format == OutputFormat::Table {
                // The narrow table shows the first reason of each family; -o wide shows them all.
                assert!(out.contains(&ReasonCode::VARIANTS[0].to_string()), "{out}");
            } else {
                assert_codes(&out, format, format == OutputFormat::Json);
            }
        }
    }
}

#[test]
fn watch_lines_show_every_verdict_and_code() {
    let snapshot = snapshot();
    for &verdict in Verdict::VARIANTS {
        let report = explain(&snapshot, verdict);
        let after = watch::summarize([&report]);
        for change in watch::changes(None, &after, 0) {
            assert_eq!(change.change, ChangeKind::Initial);
            for format in FORMATS {
                let out = rendered(format, |o, w| render::watch::change(&change, o, w));
                assert!(out.contains(&verdict.to_string()), "{format:?}: verdict {verdict} missing");
                if format != OutputFormat::Table && format != OutputFormat::Wide {
                    assert_codes(&out, format, format == OutputFormat::Json);
                }
            }
        }
    }
}

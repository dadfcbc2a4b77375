//! `explain`: the verdict and the one thing to do first, then reasons, zones, endpoints, kube-proxy
//! and Events.

use std::io::Write;

use super::RenderOptions;
use super::style::{Palette, zone_cell};
use super::table::{list, opt, percent, table};
use super::wrap::paragraph;
use crate::escape::escape;
use crate::prose;
use topo_engine::report::mode::ModeSource;
use topo_engine::report::proxy::{ProxyMode, ProxyZoneView};
use topo_engine::report::reason::Reason;
use topo_engine::report::{FamilyReport, ServiceReport};

/// `-o json|yaml` of `explain` over several Services: kubectl's List of several objects.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub(crate) struct ServiceReportList {
    /// One report per Service, in the order given.
    pub(crate) items: Vec<ServiceReport<crate::prose::ReasonView>>,
}

impl topo_engine::report::Kind for ServiceReportList {
    const KIND: &'static str = "ServiceReportList";
}

/// Render one Service.
pub(crate) fn render(
    report: &ServiceReport,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let p = Palette::new(options.color);
    let header = format!(
        "{}  mode {} ({})  · Kubernetes {} behaviour{}",
        p.heading(&format!("Service {}/{}", escape(&report.service.namespace), escape(&report.service.name))),
        report.mode,
        escape(&source_text(&report.mode_source)),
        report.kubernetes_version,
        escape(&prose::version::header_suffix(report.kubernetes_version_basis.as_ref()))
    );
    paragraph(out, options.wrap(), "", "  ", &header)?;
    for note in &report.notes {
        let text = format!("{} {}: {}", p.dim("note"), note.code, escape(&prose::sentence(note)));
        paragraph(out, options.wrap(), "  ", "    ", &text)?;
    }
    for family in &report.families {
        writeln!(out)?;
        family_section(family, &report.notes, options, &p, out)?;
    }
    super::stability::section(report, options, &p, out)?;
    events(report, options, &p, out)?;
    super::dataplane::section(report, options, &p, out)?;
    super::workloads::section(report, options, &p, out)?;
    for note in &report.partial {
        writeln!(out)?;
        paragraph(out, options.wrap(), "Partial data: ", "  ", &escape(note))?;
    }
    Ok(())
}

fn source_text(source: &ModeSource) -> String {
    match source {
        ModeSource::Annotation { key, value } => format!("annotation {key}={value:?}"),
        ModeSource::Field { name, value: Some(v) } => format!("{name}={v}"),
        ModeSource::Field { name, value: None } => format!("{name} unset"),
        ModeSource::Nothing => "no annotation, no trafficDistribution".to_string(),
    }
}

fn family_section(
    f: &FamilyReport,
    notes: &[Reason],
    o: &RenderOptions,
    p: &Palette,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let verdict = p.verdict(f.verdict, &f.verdict.to_string());
    writeln!(out, "{}  {}  — controller: {}", p.heading(&f.address_type), verdict, f.action)?;
    let remedy = prose::family_remedy(f.reasons.first(), notes);
    paragraph(out, o.wrap(), "  → ", "    ", &escape(&remedy))?;
    for r in &f.reasons {
        let r = prose::view(r.clone(), Some(&f.address_type));
        paragraph(out, o.wrap(), "  ", "    ", &format!("{}: {}", r.reason.code, escape(&r.message)))?;
        if let Some(event) = &r.event {
            paragraph(out, o.wrap(), "      ", "        ", &format!("{} {event}", p.dim("event:")))?;
        }
        if let Some(safeguard) = &r.safeguard {
            paragraph(out, o.wrap(), "      ", "        ", &format!("{} {safeguard}", p.dim("safeguard:")))?;
        }
    }
    // Set aside by an ignore rule (annotation, config file), as check's `ignored:CODE`.
    for r in &f.ignored {
        let r = prose::view(r.clone(), Some(&f.address_type));
        let text = format!("{} {}", p.dim(&format!("ignored:{}:", r.reason.code)), escape(&r.message));
        paragraph(out, o.wrap(), "  ", "    ", &text)?;
    }
    if f.count_outcomes.len() > 1 {
        let outcomes: Vec<String> = f
            .count_outcomes
            .iter()
            .map(|m| m.iter().map(|(z, n)| format!("{}:{n}", escape(z))).collect::<Vec<_>>().join(" "))
            .collect();
        let text = format!("Tie: the controller may end in any of {{{}}}", outcomes.join("} or {"));
        paragraph(out, o.wrap(), "  ", "    ", &text)?;
    }
    super::bar::zones(f, o, p, out)?;
    zones(f, o, out)?;
    super::whatif::replicas(f, o, p, out)?;
    endpoints(f, o, out)?;
    proxy(f, o, p, out)?;
    super::whatif::cross_zone(f, o, p, out)
}

fn zones(f: &FamilyReport, o: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    if f.zones.is_empty() {
        return Ok(());
    }
    let rows = f
        .zones
        .iter()
        .map(|z| {
            vec![
                escape(&z.zone).into_owned(),
                opt(z.cpu_millis),
                percent(z.cpu_share),
                z.ready_endpoints.to_string(),
                opt(z.desired.map(|d| format!("{d:.2}"))),
                opt(z.minimum),
                opt(z.maximum),
                z.expected_hinted.to_string(),
                z.actual_hinted.to_string(),
                opt(z.expected_overload_percent.map(|v| format!("{v:.0}%"))),
            ]
        })
        .collect();
    let headers =
        ["ZONE", "CPU(m)", "SHARE", "READY", "DESIRED", "MIN", "MAX", "EXPECTED", "ACTUAL", "OVERLOAD"];
    writeln!(out)?;
    out.write_all(table(&headers, rows, o.no_headers).as_bytes())
}

fn endpoints(f: &FamilyReport, o: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    if f.endpoints.is_empty() {
        return Ok(());
    }
    let wide = o.wide();
    let rows = f
        .endpoints
        .iter()
        .map(|e| {
            let mut row = vec![
                escape(&e.slice).into_owned(),
                escape(e.addresses.first().map(String::as_str).unwrap_or("-")).into_owned(),
                opt(e.node.as_deref().map(|n| escape(n).into_owned())),
                opt(e.zone.as_deref().map(|z| escape(z).into_owned())),
                if e.ready { "true".into() } else { "false".into() },
                escape(&list(e.actual_zones.as_ref())).into_owned(),
                escape(&list(e.expected_zones.as_ref())).into_owned(),
            ];
            if wide {
                row.push(escape(&list(e.actual_nodes.as_ref())).into_owned());
                row.push(escape(&list(e.expected_nodes.as_ref())).into_owned());
            }
            row.push(e.status.to_string());
            row
        })
        .collect();
    let mut headers = vec!["SLICE", "ADDRESS", "NODE", "ZONE", "READY", "HINTS", "EXPECTED"];
    if wide {
        headers.extend(["NODE-HINTS", "EXPECTED-NODES"]);
    }
    headers.push("STATUS");
    writeln!(out)?;
    out.write_all(table(&headers, rows, o.no_headers).as_bytes())
}

fn proxy(f: &FamilyReport, o: &RenderOptions, p: &Palette, out: &mut dyn Write) -> std::io::Result<()> {
    if f.proxy.is_empty() {
        return Ok(());
    }
    writeln!(out, "\n{}", p.heading("kube-proxy, by zone"))?;
    let rows = f
        .proxy
        .iter()
        .map(|v| {
            let mut nodes = abbreviated(&v.nodes, 2, 2);
            if let Some(version) = &v.kube_proxy_version {
                nodes = format!("{nodes} ({})", crate::prose::version::kube_proxy_at(version));
            }
            vec![
                zone_cell(&v.zone),
                escape(&nodes).into_owned(),
                v.mode.to_string(),
                escape(&endpoint_list(&v.endpoints, o.wide())).into_owned(),
                match (&v.reason, fallback(v)) {
                    (Some(r), true) => r.code.to_string(),
                    _ => "-".into(),
                },
            ]
        })
        .collect();
    out.write_all(table(&["ZONE", "NODES", "MODE", "ENDPOINTS", "FALLBACK"], rows, o.no_headers).as_bytes())?;
    // kube-proxy's own skip lines, once each; with -o wide also those that did not change routing.
    let mut seen = std::collections::BTreeSet::new();
    for v in f.proxy.iter().filter(|v| o.wide() || fallback(v)) {
        for line in v.log_line.iter().flat_map(|l| l.lines()) {
            if seen.insert(line) {
                let text = format!("{} {}", p.dim("kube-proxy log:"), escape(line));
                paragraph(out, o.wrap(), "  ", "    ", &text)?;
            }
        }
    }
    Ok(())
}

/// Up to four endpoints, else the first three and a count (all of them with -o wide).
fn endpoint_list(endpoints: &[String], wide: bool) -> String {
    abbreviated(endpoints, if wide { usize::MAX } else { 4 }, 3)
}

/// `items` joined with commas when there are at most `fits`, else the first `shown` and a count of
/// the others; `<none>` when empty.
fn abbreviated(items: &[String], fits: usize, shown: usize) -> String {
    match items.len() {
        0 => "<none>".to_string(),
        n if n <= fits => items.join(","),
        n => format!("{} (+{} more)", items[..shown].join(","), n - shown),
    }
}

/// True when kube-proxy on these nodes ignores hints (routes to every endpoint), or ignores node
/// hints that other nodes use (W15: a node without a local endpoint falls back to its zone).
fn fallback(v: &ProxyZoneView) -> bool {
    v.mode == ProxyMode::Cluster
        || v.reason
            .as_ref()
            .is_some_and(|r| r.code == topo_engine::report::reason::ReasonCode::ProxyNodeNotHinted)
}

fn events(
    report: &ServiceReport,
    o: &RenderOptions,
    p: &Palette,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    if report.events.is_empty() {
        return Ok(());
    }
    writeln!(out, "\n{}", p.heading("Events"))?;
    let rows = report
        .events
        .iter()
        .map(|e| {
            vec![
                escape(&e.event_type).into_owned(),
                escape(&e.reason).into_owned(),
                e.count.to_string(),
                opt(e.last_seen.as_deref().map(|t| escape(t).into_owned())),
                escape(&e.message).into_owned(),
            ]
        })
        .collect();
    out.write_all(table(&["TYPE", "REASON", "COUNT", "LAST SEEN", "MESSAGE"], rows, o.no_headers).as_bytes())
}
